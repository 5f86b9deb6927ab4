; record_keeper.s -- the player's record kept: each game counted once, won or lost.
;
; Assembled with Ophis by machfsol/atari/record_code.py (a mover, then the routine
; XORed with a key, in a string constant of the BASIC program, as record_file.s):
;
;     X=USR(K,0,B)      a game starts: the clock noted, the game not counted yet
;     X=USR(K,2,B,N,W)  the game's end (W=1 won): the time it took, minutes and
;                       seconds, for record_lines.s; a won game not counted yet is
;                       counted as won: returns 1 (the sector to write), else 0
;     X=USR(K,3,B,N)    the game left (N, T or O) after a move: counted as lost if
;                       not counted yet, the record as it was kept aside: 1, else 0
;     X=USR(K,4,B,N)    back to the game (ESC from the deal number): a game counted
;                       lost when it was left is not counted again: 1, else 0
;
; N is the deck size: its record is the 10 bytes at B+10*(N/4-5) (record_file.s has
; the buffer's layout):
;   0-1 games played, 2-3 won, 4-5 won in a row up to the last one, 6-7 the most in a
;   row, 8 the best time's seconds and 9 its minutes (a word, minutes high: the smaller,
;   the faster; only once a game is won). Counts stop at 65535, minutes at 255.
; Its own bytes in B: 133 the game counted (0 not, 1 lost, 2 won), 134-136 the clock
; at its start (RTCLOK, low byte first), 140-149 the record before a game counted lost,
; 162-163 the time's minutes and 164-165 its seconds (record_lines.s's values 7, 8).
;
; The clock is the OS's jiffy counter RTCLOK: 60 a second on an NTSC machine, 50 on a
; PAL one (GTIA's PAL register, bits 1-3 clear), as the BASIC program read it.

.alias FR0     $D4
.alias RTCLOK  $12      ; 3 bytes, high first
.alias PAL     $D014

.alias op      $D6
.alias buf     $D8
.alias deck    $DA
.alias won     $DC
.alias rec     $DE      ; the deck's record
.alias kept    $E0      ; B+140, the record kept aside
.alias acc     $E2      ; 3 bytes, low first
.alias t       $E5

.alias COUNTED 133
.alias BEGAN   134
.alias MINUTES 162

.include "record_mover.s"

pulled:  lda #0
         sta FR0+1
         sta FR0
         lda deck                   ; rec = B + 10*(N/4) - 50
         lsr
         lsr
         sta t
         asl
         asl
         adc t                      ; 5*(N/4) (carry clear: N/4 < 64)
         asl                        ; 10*(N/4), carry clear
         sbc #49                    ; less 50 (the carry clear takes one more)
         clc
         adc buf
         sta rec
         lda buf+1
         adc #0
         sta rec+1
         lda buf
         clc
         adc #140
         sta kept
         lda buf+1
         adc #0
         sta kept+1
         ldy #COUNTED
         lda op
         beq start
         cmp #3
         beq left
         bcs back

; --- the end: the time taken; a won game counted -------------------------------------
         jsr clock
         ldy #BEGAN                 ; acc = now - start (mod 2^24)
         sec
         ldx #0                     ; acc's three bytes, low first
*        lda acc,x
         sbc (buf),y
         sta acc,x
         iny
         inx
         txa                        ; (EOR keeps the carry)
         eor #3
         bne -
         lda PAL
         and #$0E
         beq +
         lda #60
         bne ++
*        lda #50
*        jsr div                    ; seconds
         lda #60
         jsr div                    ; minutes, and the seconds in A
         ldy #MINUTES+2             ; (165, the high byte, stays 0: record_file.s)
         sta (buf),y
         tax
         ldy #MINUTES
         lda acc
         sta (buf),y
         iny
         lda acc+1
         sta (buf),y
         ora acc+2                  ; 256 minutes or more: 255:59 for the record
         beq +
         lda #0
         sta acc
         dec acc                    ; (255: no byte $FF in the code)
         ldx #59
*        lda won
         beq done
         ldy #COUNTED
         lda (buf),y
         bne done
         lda #2
         sta (buf),y
         ldy #2                     ; none won yet: this time is the best
         lda (rec),y
         iny
         ora (rec),y
         beq best
         ldy #8                     ; else if it is faster
         txa
         cmp (rec),y
         iny
         lda acc
         sbc (rec),y
         bcs tallied
split:
best:    ldy #8
         txa
         sta (rec),y
         iny
         lda acc
         sta (rec),y
tallied: ldx #6                     ; played, won and the streak, one more;
         ldy #4                     ; the most in a row too when the streak was it
         lda (rec),y
         ldy #6
         cmp (rec),y
         bne +
         ldy #5
         lda (rec),y
         ldy #7
         cmp (rec),y
         bne +
         ldx #8
*        jsr more
write:   inc FR0
done:    rts

; --- a game starts ---------------------------------------------------------------
start:   sta (buf),y                ; not counted (A = op = 0)
         jsr clock
         ldy #BEGAN
         ldx #0
*        lda acc,x
         sta (buf),y
         iny
         inx
         cpx #3
         bne -
         rts

; --- left after a move: lost, the record kept aside first ------------------------
left:    lda (buf),y
         bne done
         lda #1
         sta (buf),y
         ldy #9
aside:   lda (rec),y
         sta (kept),y
         dey
         bpl aside
         ldx #2                     ; played, one more
         jsr more
         lda #0                     ; no streak
         ldy #4
         sta (rec),y
         iny
         sta (rec),y
         bcs write                  ; (more leaves the carry set)

; --- back to the game left: the record as it was -----------------------------------
back:    lda (buf),y
         cmp #1
         bne done
         lda #0
         sta (buf),y
         ldy #9
again:   lda (kept),y
         sta (rec),y
         dey
         bpl again
         bmi write

; more: the record's words 0 to X-2 one more each, up to 65535
more:    stx t
         ldy #0
word:    lda (rec),y
         iny
         and (rec),y
         clc
         adc #1                     ; 65535 (both bytes 255): it stays
         beq +
         dey
         lda (rec),y
         adc #1                     ; (the carry clear)
         sta (rec),y
         iny
         lda (rec),y
         adc #0
         sta (rec),y
*        iny
         cpy t
         bcc word
         rts

; clock: RTCLOK into acc, read again if it ticked meanwhile
clock:   lda RTCLOK+2
         sta acc
         lda RTCLOK+1
         sta acc+1
         lda RTCLOK
         sta acc+2
         lda RTCLOK+2
         cmp acc
         bne clock
         rts

; div: acc = acc / A, the remainder in A (A below 128)
div:     sta t
         lda #0
         ldx #24
*        asl acc
         rol acc+1
         rol acc+2
         rol
         cmp t
         bcc +
         sbc t
         inc acc
*        dex
         bne --
         rts
last:
