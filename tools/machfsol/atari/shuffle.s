; shuffle.s -- the deal of MACHFSOL.1 and MACHFSOL.2 as a 6502 routine for USR.
;
; Assembled with Ophis by machfsol/atari/shuffle.py, which puts the bytes in two
; string constants of the BASIC program (lines 7-8 of basic_src/machfsol.bas):
;
;     X=USR(ADR("<finder>"))                  X = the address of D(0)
;     X=USR(ADR("<mover><routine>"),N,H,L,X)  N deck size, seed = H*65536+L
;
; It computes exactly what the engine's machfsol/engine/deal.py computes:
; Park and Miller's minimal standard x' = 16807 x mod (2^31-1), and Fisher-Yates
; from the top, j = x mod K for K = N down to 2, swapping cards K-1 and j; then it
; writes the dealt order into BASIC's array D as numbers, D(K) = card K-1, as the
; BASIC lines it replaces did:
;
;     D(K)=K-1 FOR K=1 TO N
;     X=SE:FOR K=N TO 2 STEP -1:X=16807*X MOD 2147483647:J=1+(X MOD K)
;     C=D(K):D(K)=D(J):D(J)=C:NEXT K
;
; Where it lives: the string holds a 17-byte mover, then the routine. USR jumps
; to the mover (in the string, wherever BASIC keeps the program); the mover copies
; the routine to page 6 ($0600) and jumps to it. Page 6 is the user's: the OS and
; DOS 2.5 never use it, and BASIC only when it reads a line of more than 128 bytes
; (its line buffer at $0580 takes up to 255), which it does not do while the
; routine runs. Copied afresh at every call, the routine needs nothing to stay
; there between calls; it runs in page 6, with its deck right after its code.
; Its zero-page bytes are BASIC's floating point registers FR0-FR1 ($D4-$E1),
; scratch for any USR routine (USR returns FR0, here whatever is left in it).
;
; The mover's EOR #key lets machfsol/atari/shuffle.py pick a key under which no
; byte of the routine is a quote ($22) or an end of line ($9B), which a BASIC
; string constant cannot hold, or a screen editor control (LIST then shows the
; line as plain characters).
;
; How it finds D: the finder walks BASIC's variable name table (VNTP) and value
; table (VVTP, 8 bytes a variable) together to the name D( (a name's last character
; has bit 7 set); bytes 2-3 of its value are the array's offset in the string and
; array area (STARP). It runs in place (position independent) and returns 0 if the
; program has no D(; the routine then writes nothing. A number is 6 bytes:
; exponent byte ($40 for 1-99, 0 for zero), then BCD digit pairs; a card 0-51 is
; $40, its two BCD digits, four zeros (0 is six zeros). The deck is kept in BCD
; (built with the decimal mode, which the OS's interrupt handlers clear for
; themselves), so the swaps move BCD bytes and a card is written as it is.
;
; Arithmetic mod m = 2^31-1 without division: 2^31 = 1 (mod m), so doubling a
; 31-bit number mod m is a 31-bit rotation, and a sum of two is folded by adding
; its bit 31 back into bit 0. 16807 x is Horner's rule over the bits of 16807:
; start from x, then for each of the 14 bits below the top one: double, and add
; x if the bit is 1. Every value stays in 1..m-1: m is prime and 16807 < m, so no
; partial product x*p (p < 16807) is 0 mod m.
; x mod K: the 32 bits of x go through a remainder, most significant first
; (remainder = 2 remainder + bit; less K when it reaches K).

; --- BASIC's zero page ----------------------------------------------------------
.alias VNTP    $82      ; variable name table
.alias VVTP    $86      ; variable value table: 8 bytes per variable
.alias STARP   $8C      ; string and array area
.alias FR0     $D4      ; USR: BASIC jumps through it (our address); result

; --- the routine's zero page: BASIC's FR0, FRE and FR1, free during the call -----
.alias acc     $D4      ; 4 bytes, low first: the generator's state x
.alias xval    $D8      ; 4 bytes: x as the step started (added by Horner's rule)
.alias k       $DC      ; K: the 1-based position being dealt, N down to 1
.alias pk      $DD      ; 2 bytes: the address of D(K)
.alias m       $DF      ; 2 bytes: the multiplier's bits still to go, on top
.alias t       $E1      ; the byte of x being divided by K
.alias np      $D6      ; the finder's 2 bytes: the name it is at (FR0: its value)

.alias MULBITS $069C    ; 16807 - 2^14 = 423, shifted left by 2: bits 13..0 on top

.text
; --- the finder: runs in its string, returns the address of D(0) in FR0 --------
.org $0500                          ; (any: it uses no address of its own)
finder:  pla                        ; number of arguments (0)
         lda VNTP
         sta np
         lda VNTP+1
         sta np+1
         lda VVTP
         sta FR0
         lda VVTP+1
         sta FR0+1
fname:   ldy #0
         lda (np),y
         beq fnone                  ; 0: the table's end, no D(
         cmp #$44                   ; "D"
         bne fnext
         iny
         lda (np),y
         cmp #$A8                   ; "(", the name's last character
         beq ffound
fnext:   ldy #0                     ; the next name: after the byte with bit 7 set
fskip:   lda (np),y
         iny
         asl
         bcc fskip
         lda FR0                    ; and the next value, 8 bytes on
         adc #7                     ; (carry set: bit 7 was)
         sta FR0
         bcc +
         inc FR0+1
*        tya
         clc
         adc np
         sta np
         bcc fname
         inc np+1
         bne fname
fnone:   sta FR0                    ; A = 0
         sta FR0+1
         rts
ffound:  ldy #2
         clc
         lda (FR0),y
         adc STARP
         tax
         iny
         lda (FR0),y
         adc STARP+1
         sta FR0+1
         stx FR0
         rts
finderend:

; --- the mover: runs in its string, copies the routine to page 6 ---------------
; It is position independent, and assembled as if it sat right below the routine,
; so that "sta mover,y" puts the string's byte Y (from the routine's first,
; Y = 17) at $0600 + Y - 17.
.org $0600 - 17
mover:   ldy #[deck - mover - 1]    ; the string's last byte
copy:    lda (FR0),y                ; FR0 = the string's address
p_key:   eor #0                     ; the key (shuffle.py patches it)
         sta mover,y
         dey
         cpy #[routine - mover]
         bcs copy
         jmp shuffle

; --- the routine ---------------------------------------------------------------
routine:
; bit 31 of acc goes back into bit 0 (2^31 = 1 mod 2^31-1): clear it, add 1
fold:    lda acc+3
         bpl folded
         and #$7F
         sta acc+3
         inc acc
         bne folded
         inc acc+1
         bne folded
         inc acc+2
         bne folded
         inc acc+3
folded:  rts

shuffle: pla                        ; number of arguments (4)
         pla                        ; N, high byte (0)
         pla                        ; N
         sta k
         ldx #3                     ; the seed: H high, H low, L high, L low
seed:    pla
         sta xval,x
         sta acc,x
         dex
         bpl seed
         pla                        ; pk = the address of D(0)
         sta pk+1
         pla
         sta pk
         ora pk+1
         beq folded                 ; 0: no D( (see the finder)
         inx                        ; X = 0 (it was $FF)
         txa
         clc
; the deck in order, cards 0..N-1 in BCD; pk moves on to D(N)
order:   sta deck,x                 ; (carry is clear: from the CLC, or the CPX)
         sed
         adc #1                     ; the next card, in BCD
         cld
         tay
         lda pk
         adc #6                     ; (carry still clear: a card is below $99)
         sta pk
         bcc +
         inc pk+1
*        tya
         inx
         cpx k
         bne order

; one step of the generator for each K from N down to 1 (the step for K = 1 only
; deals card 0: j = x mod 1 = 0)
step:    lda #<MULBITS
         sta m
         lda #>MULBITS
         sta m+1
         ldy #14
double:  asl acc                    ; acc = 2 acc mod (2^31-1)
         rol acc+1
         rol acc+2
         rol acc+3
         bpl +
         jsr fold
*        asl m                      ; the next bit of the multiplier
         rol m+1
         bcc nextbit
         clc                        ; acc = acc + xval mod (2^31-1)
         ldx #$FC
add:     lda acc+4,x                ; (zero page wraps: acc+4+$FC = acc)
         adc xval+4,x
         sta acc+4,x
         inx
         bne add
         jsr fold
nextbit: dey
         bne double
; A = acc mod K, most significant bit first; xval = acc for the next step
         tya                        ; (Y = 0 after the loop)
         ldx #3
divbyte: ldy acc,x
         sty xval,x
         sty t
         ldy #8
divbit:  asl t
         rol
         cmp k
         bcc +
         sbc k
*        dey
         bne divbit
         dex
         bpl divbyte
; swap cards K-1 and j = A: card K-1 is then dealt for good, X = that card
         tay
         ldx k
         lda deck-1,x
         ldx deck,y
         sta deck,y
; D(K) = card X as a BASIC number, then pk = address of D(K-1)
         ldy #5
         lda #0
zeros:   sta (pk),y                 ; mantissa bytes 5..1: 0
         dey
         bne zeros
         iny
         txa
         sta (pk),y                 ; mantissa byte 1: the card's two digits
         beq +                      ; card 0: the number 0 is all zeros
         lda #$40                   ; exponent: 100^0
*        dey
         sta (pk),y
         sec
         lda pk
         sbc #6
         sta pk
         bcs +
         dec pk+1
*        dec k
         bne step
         rts

deck:                               ; DECK_MAX bytes from here: the deck
