; record_file.s -- the player's record file on the game disk: found, read and written
; through the OS's serial I/O, as the boot menu reads the disk (issue 26).
;
; Assembled with Ophis by machfsol/atari/record_code.py, which puts the mover and the
; routine (XORed with a key) in a string constant of the BASIC program:
;
;     X=USR(R,0,B,V)   find MACHFSOL.STV (V the variant) on the disk in drive 1, read
;                      its sector into B (ADR(ST$), the 166-byte buffer below) and ask
;                      the drive whether the disk is write-protected. Returns why the
;                      record is not saved: 0 it is; 1 no such file (or not one made
;                      by machfsol build); 2 the disk does not read (no drive, no
;                      DOS 2 disk); 3 the disk is write-protected. With no file the
;                      record starts from nothing and is kept while the program runs.
;     X=USR(R,1,B)     write B's sector back to the file (only while saving); 0, or
;                      the status of the failed write (saving stops: reason 4).
;
; The buffer B (machfsol/atari/record_code.py has the same layout):
;   0-127    the file's sector: nine records of 10 bytes from 0 (deck N at 10*(N/4-5)),
;            DOS 2's link in 125-127 (written back as it was read)
;   128      why the record is not saved (0 saving, 1-4 as above)
;   129      not 0: the game has yet to say so (the BASIC program clears it)
;   130-131  the file's sector; 132 the status of a failed write
;   133-165  machfsol/atari/record_keeper.s's and record_lines.s's
;
; Where it lives: the string holds the mover, then the routine; USR jumps to the mover,
; which copies the routine to page 6 and jumps to it (the shuffle's way: shuffle.s).
; Only documented OS locations: the device control block, SIOV, DVSTAT.

.alias FR0     $D4      ; USR: our address on entry, the result on return
.alias DDEVIC  $0300
.alias DUNIT   $0301
.alias DCOMND  $0302
.alias DSTATS  $0303
.alias DBUFLO  $0304
.alias DBUFHI  $0305
.alias DTIMLO  $0306
.alias DBYTLO  $0308
.alias DBYTHI  $0309
.alias DAUX1   $030A
.alias DAUX2   $030B
.alias DVSTAT  $02EA    ; the drive's status: bit 3 of the first byte, write-protected
.alias SIOV    $E459

; the routine's zero page: BASIC's floating point registers, free during the call
.alias op      $D6      ; the arguments, a word each
.alias buf     $D8
.alias var     $DA
.alias snum    $DC      ; the sector asked for
.alias ent     $DE      ; a directory entry's offset in its sector
.alias fno     $DF      ; its file number (DOS 2: the entry's place in the directory)

.alias NOTSAVED 128
.alias PENDING  129
.alias SECTOR   130
.alias FAILED   132

.include "record_mover.s"

pulled:  lda #0
         sta FR0+1
         sta FR0
         lda #$31                   ; drive 1
         sta DDEVIC
         lda #1
         sta DUNIT
         lda #7                     ; seconds
         sta DTIMLO
         lda op
         beq find

; --- write: the sector back, while saving -------------------------------------------
         ldy #NOTSAVED
         lda (buf),y
         beq +
         rts
*
         ldy #SECTOR
         lda (buf),y
         sta snum
         iny
         lda (buf),y
         sta snum+1
         lda #$50                   ; 'P': put, without the drive's read-back
         jsr sio
         bpl wdone
         tya                        ; the status
         sta FR0
         ldy #FAILED
         sta (buf),y
         lda #4
         ldy #NOTSAVED
         sta (buf),y
         iny
         sta (buf),y
wdone:   rts

; --- find: the directory's sectors 361-368, eight entries of 16 bytes each ----------
find:    ldy #NOTSAVED              ; the state cleared: not counted, nothing pending
         lda #0
clear:   sta (buf),y
         iny
         cpy #166
         bne clear
         sta fno
         lda var                    ; the name's last character: the variant
         ora #$30
         sta name+10
         lda #$69                   ; 361
         sta snum
         lda #$01
         sta snum+1
scan:    lda #$52                   ; 'R'
         jsr sio
         bmi unread
         lda #0
entry:   sta ent
         tay
         lda (buf),y                ; the flags
         beq nofile                 ; an entry never used: the directory ends
         and #$C1                   ; in use, not deleted, not open for writing
         cmp #$40
         bne next
         tya
         clc
         adc #5
         tay
         ldx #0
same:    lda name,x
         cmp (buf),y
         bne next
         iny
         inx
         cpx #11
         bcc same
         ldy ent                    ; found: its first sector
         iny
         iny
         iny
         lda (buf),y
         sta snum
         iny
         lda (buf),y
         sta snum+1
         lda #$52
         jsr sio
         bmi unread
         ldy #124                   ; the sector is the file's (DOS 2's file number:
         iny                        ; byte 125; no byte of 125 or 127 in the code)
         lda (buf),y
         lsr
         lsr
         cmp fno
         bne nofile
         iny                        ; and holds the nine records (byte 127)
         iny
         lda (buf),y
split:
         cmp #90
         bcc nofile
         lda #$53                   ; 'S': is the disk write-protected?
         jsr sio
         bmi unread
         lda DVSTAT
         and #8
         bne locked
         ldy #SECTOR
         lda snum
         sta (buf),y
         iny
         lda snum+1
         sta (buf),y
         rts
next:    inc fno
         lda ent
         clc
         adc #16
         bpl entry                  ; below 128: the sector's next entry
         inc snum
         lda snum
         cmp #$71                   ; past 368
         bcc scan
nofile:  lda #1
         bne nothing
unread:  lda #2
nothing: tax                        ; the buffer holds no record: empty ones
         lda #0
         tay
empty:   sta (buf),y
         iny
         bpl empty
         txa
         bne reason
locked:  lda #3
reason:  ldy #NOTSAVED
         sta (buf),y
         iny
         sta (buf),y
         sta FR0
         rts

; sio: command A for drive 1: 'R' sector snum into the buffer, 'P' the buffer to sector
; snum, 'S' the drive's status into DVSTAT. Returns the status in Y (negative: error).
sio:     sta DCOMND
         ldx #4                     ; 'S': four bytes
         ldy #>DVSTAT
         cmp #$53
         bne +
         lda #<DVSTAT
         bne setbuf
*        ldx #128
         ldy buf+1
         lda buf
setbuf:  sta DBUFLO
         sty DBUFHI
         stx DBYTLO
         ldx #0
         stx DBYTHI
         ldx #$80                   ; data to the drive
         lda DCOMND
         cmp #$50
         beq +
         ldx #$40                   ; data from the drive
*        stx DSTATS
         lda snum
         sta DAUX1
         lda snum+1
         sta DAUX2
         jsr SIOV
         ldy DSTATS
         rts

name:    .byte "MACHFSOLST1"        ; the last character set from V
last:
