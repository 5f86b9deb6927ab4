; record_lines.s -- the player's record and a game's time, written on the screen.
;
; Assembled with Ophis by machfsol/atari/record_code.py (a mover, then the routine
; XORed with a key, in a string constant of the BASIC program, as record_file.s):
;
;     X=USR(L,0,B,N)   the record of deck N on the message line (row 17, key I)
;     X=USR(L,1,B,N)   a game's end: TIME m:ss at row 16, column 12 (13 columns), and
;                      the record on row 19, with this game as lost while it is not
;                      counted (record_keeper.s: it is, once left)
;
; The record's line, e.g. RECORD WON 3/12 STREAK 1/4 BEST 4:07: won and played, the
; games won in a row up to the last one and the most, the fastest game won (not shown
; before a game is won); cut at 40 columns. B is the buffer of record_file.s; the
; numbers shown are copied to B+150-165 first, values 1-8 of the lines' texts below:
; played, won, streak, most, the best time's minutes and seconds, the time's minutes
; and seconds (those two put there by record_keeper.s).
;
; Written straight into screen memory, as screen_text.s writes the message line, and
; for the same reason (PRINT costs the genuine XL OS some 1,000 cycles a character);
; the screen editor's remembered character under its cursor follows what is written.

.alias FR0     $D4
.alias SAVMSC  $58
.alias OLDCHR  $5D
.alias OLDADR  $5E

.alias op      $D6
.alias buf     $D8
.alias deck    $DA
.alias rec     $DC
.alias scr     $DE      ; where the line goes
.alias fx      $E0      ; the text's next byte (an offset from texts)
.alias col     $E1
.alias width   $E2
.alias num     $E3      ; 2 bytes: the number being written
.alias lead    $E5      ; not 0 once a digit is written
.alias digit   $E6

.alias TALLIED 133
.alias VALUES  150

.include "record_mover.s"

pulled:  lda deck                   ; rec = B + 10*(N/4) - 50 (record_keeper.s)
         lsr
         lsr
         sta digit
         asl
         asl
         adc digit
         asl
         sbc #49
         clc
         adc buf
         sta rec
         lda buf+1
         adc #0
         sta rec+1
         lda buf                    ; scr, for now: B+150, where the values go
         clc
         adc #VALUES
         sta scr
         lda buf+1
         adc #0
         sta scr+1
         ldy #9                     ; the record, copied
*        lda (rec),y
         sta (scr),y
         dey
         bpl -
         lda op
         beq message
         ldy #TALLIED               ; the end of a game not counted: as lost
         lda (buf),y
         bne counted
         ldy #4                     ; no streak
         sta (scr),y
         iny
         sta (scr),y
         ldy #0                     ; played, one more (65535 stays)
         lda (scr),y
         iny
         and (scr),y
         clc
         adc #1
         beq counted
         dey
         lda (scr),y
         adc #1                     ; (the carry clear: the sum above was not 256)
         sta (scr),y
         iny
         lda (scr),y
         adc #0
         sta (scr),y
counted: lda #[t_time - texts]
         sta fx
         ldx #<652
         ldy #>652
         lda #13
         jsr line
         ldx #<760
         ldy #>760
         bne record
message: ldx #<680
         ldy #>680
record:  lda #[t_record - texts]
         sta fx
         lda #40

; line: text fx at offset Y*256+X of the screen, A columns (blanks after the text)
line:    sta width
         txa
         clc
         adc SAVMSC
         sta scr
         tya
         adc SAVMSC+1
         sta scr+1
         lda #0
         sta col
next:    ldx fx
         inc fx
         lda texts,x
         beq fill                   ; the text's end
         bmi field
         cmp #1                     ; the rest only when a game was won
         bne char
         ldy #VALUES+2
         lda (buf),y
         iny
         ora (buf),y
         beq fill
         bne next
split:
char:    jsr put
         bcs next                   ; (put leaves the carry set)
field:   tax                        ; a value: %1AB0OOOO, O its offset from B+150,
         and #$0F                   ; B a byte (else a word), A at least two digits
         clc
         adc #VALUES
         tay
         lda (buf),y
         sta num
         lda #0
         sta num+1
         txa
         and #$20
         bne +
         iny
         lda (buf),y
         sta num+1
*        ldy #0                     ; from 10,000, no digit yet
         sty lead
         txa
         and #$40
         beq power
         ldy #3                     ; from 10, the 0 written
         sty lead
power:   lda #$30
         sta digit
*        lda num                    ; the digit: how many times the power goes in
         sec
         sbc powlo,y
         tax
         lda num+1
         sbc powhi,y
         bcc +
         sta num+1
         stx num
         inc digit
         bne -
*        lda digit
         cmp #$30
         bne show
         ldx lead
         bne show
         cpy #4                     ; no leading zeros, but the number's last digit
         bne skip
show:    sty lead
         inc lead                   ; (not 0 from now)
         jsr put
skip:    iny
         cpy #5
         bcc power
         bcs next
fill:    lda #$20
         jsr put
         ldy col
         cpy width
         bcc fill
         sec                        ; the cursor's byte among those written?
         lda OLDADR
         sbc scr
         tay
         lda OLDADR+1
         sbc scr+1
         bne +
         cpy width
         bcs +
         lda (scr),y
         sta OLDCHR
*        rts

; put: the character A (ATASCII $20-$5F) at the line's next column, while it has one;
; Y kept
put:     sty digit+1
         ldy col
         cpy width
         bcs +
         sec
         sbc #$20                   ; the screen code
         sta (scr),y
         inc col
*        ldy digit+1
         rts

powlo:   .byte <10000, <1000, <100, <10, <1
powhi:   .byte >10000, >1000, >100, >10, >1
; the texts: ATASCII, a value %1AB0OOOO (O its offset in B+150-165: 0 played, 2 won,
; 4 streak, 6 most, 8 the best time's seconds, 9 its minutes, 12 the time's minutes,
; 14 its seconds; B a byte, A two digits at least), 1 the rest only once a game is
; won, 0 the end
texts:
t_time:  .byte "TIME ", $8C, ":", $EE, " ", 0
t_record: .byte "RECORD WON ", $82, "/", $80, " STREAK ", $84, "/", $86, 1
         .byte " BEST ", $A9, ":", $E8, 0
last:
