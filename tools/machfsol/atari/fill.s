; fill.s -- copies memory forward for USR: the start-up's way to repeat array
; elements over an array, in MACHFSOL.1 and MACHFSOL.2.
;
; Assembled with Ophis by machfsol/atari/fill.py, which puts the bytes in a string
; constant of the BASIC program (basic_src/machfsol.bas, the set-up's line 11040):
;
;     X=USR(F,A,L,D)   F = ADR of the string: copies L bytes, from A-D up to
;                      A-D+L-1, to A up to A+L-1, one byte at a time, from the first
;
; As the copy runs forward over a range that overlaps its source (D < L), the D
; bytes before A are repeated over the L bytes from A: with D = 6 (one BASIC number,
; an array element), A the address of element 1 and L six times the elements after
; element 0, every element becomes element 0; with D = 6 NR, the first NR elements
; repeat. BASIC keeps arrays and strings in the order the program dimensions them,
; with no gap, so a one-character string dimensioned just before the arrays gives
; their address: ADR(A$)+1 is element 0 of the first.
; The game's set-up, before it draws the first table, gives this way every card's
; forced foundation FF and "wanted" count WT their 0, its King pile PT its -1, the
; cards of a suit their suit SU, the other suits the first suit's ranks RK, and the
; King-pile table its columns that are the same for every card (MACHFSOL.1): some
; 300 BASIC statements fewer, about 70 frames on the genuine machine (series.s
; writes the tables that change from card to card).
;
; What the BASIC numbers mean is the game's business; this only copies bytes. It
; runs in its string, wherever BASIC keeps the program (position independent: no
; address of its own), and uses BASIC's floating point register FR0 and the byte
; after it ($D4-$D9) as scratch, which any USR routine may (USR returns FR0: here
; whatever is left in it). No byte of the code may be a quote ($22) or an end of
; line ($9B), which a string constant cannot hold, or a screen editor control (LIST
; shows the line as plain characters): fill.py checks.

.alias to      $D4      ; 2 bytes: where the next byte goes (FR0)
.alias left    $D6      ; 2 bytes: bytes still to copy
.alias from    $D8      ; 2 bytes: where it comes from, D bytes before

.text
.org $0500                          ; (any: it uses no address of its own)
fill:    pla                        ; number of arguments (3)
         pla                        ; A, high byte first
         sta to+1
         pla
         sta to
         pla                        ; L
         sta left+1
         pla
         sta left
         pla                        ; D: from = A - D
         sta from+1
         pla
         sta from
         sec
         lda to
         sbc from
         sta from
         lda to+1
         sbc from+1
         sta from+1
         ldy #0                     ; Y: the offset in the current page of both
next:    lda left
         ora left+1
         beq done
         lda (from),y
         sta (to),y
         iny
         bne count
         inc from+1                 ; both pointers on to the next page
         inc to+1
count:   lda left                   ; one byte fewer to go
         bne +
         dec left+1
*        dec left
         clc
         bcc next
done:    rts
fillend:
