; screen_text.s -- writes a line of text straight into screen memory, for MACHFSOL's
; message and key lines (basic_src/machfsol.bas, lines 296-298 and 6860).
;
; Assembled with Ophis by machfsol/atari/screen_text.py, which puts the bytes in a
; string constant of the BASIC program:
;
;     X=USR(T,A,L,O,W)   T = ADR of the string, A the address of the text (ADR(LN$)),
;                        L its length, O where it goes (row*40+column from the screen's
;                        first byte, SAVMSC), W how many screen bytes to write: the L
;                        characters, then blanks up to W (L > W: the first W only)
;
; Why: PRINT goes through the OS's screen editor, which costs the genuine XL OS some
; 1,000 cycles a character (cursor, logical lines, control codes): a 40-character
; message took about 4 frames. Written here it takes some 40 cycles a character.
;
; How: each ATASCII character becomes its screen code (the ANTIC internal code: $00-$1F
; add $40, $20-$5F take $20 off, $60-$7F stay; the inverse bit 7 is kept). The
; screen editor remembers the character under its cursor (OLDCHR at OLDADR) and puts
; it back at its next output: if the cursor is on a byte written here, OLDCHR gets
; the new character, so no later PRINT brings back an old one.
;
; It runs in its string, wherever BASIC keeps the program (position independent), and
; uses BASIC's floating point register FR0 and after ($D4-$D9) as scratch, which any
; USR routine may. No byte of it may be a quote, an end of line or a screen editor
; control: screen_text.py checks.

.alias SAVMSC  $58      ; the screen's first byte
.alias OLDCHR  $5D      ; the character under the screen editor's cursor
.alias OLDADR  $5E      ; and where that is

.alias text    $D4      ; 2 bytes: A
.alias screen  $D6      ; 2 bytes: SAVMSC + O
.alias length  $D8      ; L
.alias width   $D9      ; W

.text
.org $0500
write:   pla                    ; the argument count (4)
         pla                    ; A, high byte first
         sta text+1
         pla
         sta text
         pla                    ; L (below 256)
         pla
         sta length
         pla                    ; O, high byte
         tax
         pla                    ; O, low byte
         clc
         adc SAVMSC
         sta screen
         txa
         adc SAVMSC+1
         sta screen+1
         pla                    ; W (below 256)
         pla
         sta width
         ldy #0
next:    cpy width
         bcs cursor
         lda #0                 ; a blank, once the text is written
         cpy length
         bcs put
         lda (text),y
         tax
         and #$60               ; which quarter of the character set
         beq control
         cmp #$60
         beq same
         txa                    ; $20-$5F (and inverse): $20 less
         sec
         sbc #$20
         bcs put                ; (always: nothing borrowed)
control: txa                    ; $00-$1F (and inverse): $40 more
         clc
         adc #$40
         bcc put                ; (always: no carry)
same:    txa                    ; $60-$7F (and inverse): the same
put:     sta (screen),y
         iny
         bne next               ; (always: Y stays below W)
cursor:  sec                    ; the cursor's byte among those written?
         lda OLDADR
         sbc screen
         tay
         lda OLDADR+1
         sbc screen+1
         bne done
         cpy width
         bcs done
         lda (screen),y
         sta OLDCHR
done:    rts
