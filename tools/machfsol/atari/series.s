; series.s -- writes an arithmetic series for USR: the set-up's tables of card
; numbers, places and suit letters, in MACHFSOL.1 and MACHFSOL.2.
;
; Assembled with Ophis by machfsol/atari/series.py; the bytes go in a string
; constant of the BASIC program (basic_src/machfsol.bas, the set-up's line 11080):
;
;     X=USR(Q,A,N,V,D,K)   Q = ADR of the string: writes N items from address A,
;                          K bytes apart, the values V, V+D, V+2D, ...: with K = 6,
;                          each as a BASIC number (an array element); with any
;                          other K, as one byte (a character of a string)
;
; Why: BASIC builds a table card by card at some 4 ms a statement on the genuine
; machine, and the first table waits for them: the King-pile tables (which card
; goes on which: for a suit, the suit's first card plus 0, 1, 2 ...), the suit
; letters of the card names (every second character) and the places' columns
; and rows took some 60 frames; as calls of this routine, a few.
;
; A number is written as BASIC's floating point keeps a whole number 0-99: the
; exponent byte $40 (100 to the power 0; 0 for the number 0) and the number's two
; decimal digits as one BCD byte, then four zero bytes. So V and every value
; after it must be 0-99 with K = 6 (the game's are card and place numbers, at
; most 53); bytes wrap at 256. N and K are at most 255. The routine runs in its
; string, wherever BASIC keeps the program (position independent), and uses only
; FR0 and the four bytes after it ($D4-$DD: the floating point package's scratch
; bytes, which BASIC keeps nothing in across a USR call). No byte of the code may
; be a quote, an end of line or a screen editor control (series.py checks).

.alias size    $D4      ; K (its low byte; the high byte at $D5)
.alias step    $D6      ; D
.alias value   $D8      ; V: the next item's value
.alias left    $DA      ; N: items still to write
.alias to      $DC      ; A: where the next item goes (2 bytes)

.text
.org $0500                          ; (any: it uses no address of its own)
series:  pla                        ; number of arguments (5)
         ldx #9                     ; then A, N, V, D, K, each high byte first:
args:    pla                        ; A's high byte lands at to+1, K's low byte
         sta size,x                 ; at size
         dex
         bpl args
next:    lda left
         beq done
         ldy #0
         lda value
         ldx size
         cpx #6
         beq number
         sta (to),y                 ; a byte
         bne advance                ; (always: Z is clear from the CPX)
number:  ldx #0                     ; X: the tens of the value
tens:    cmp #10
         bcc units
         sbc #10                    ; (carry set by the CMP)
         inx
         bne tens
units:   lda value                  ; the BCD byte: the value plus 6 for each ten
         clc
six:     dex
         bmi bcd
         adc #6                     ; (at most 153: no carry)
         bcc six
bcd:     iny
         sta (to),y                 ; the two digits after the exponent
         cmp #1                     ; carry: not zero
         lda #0
         bcc +
         lda #$40
*        dey
         sta (to),y                 ; the exponent
         lda #0
         ldy #5
zeros:   sta (to),y
         dey
         cpy #1
         bne zeros
advance: lda to                     ; on to the next item
         clc
         adc size
         sta to
         bcc +
         inc to+1
*        lda value
         clc
         adc step
         sta value
         dec left
         bne next
done:    rts
seriesend:
