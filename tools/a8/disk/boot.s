; boot.s -- a DOS-less boot menu for Atari BASIC programs on a DOS 2 disk.
;
; Assembled with Ophis (ophis-asm) by a8/disk/boot.py, which then fills in the
; parameter block below (sector size, menu text, the files' start sectors) and
; appends the menu text. The whole image must fit boot sectors 1-3 (384 bytes).
;
; How it works (docs/ATR.md tells it at more length):
;  1. The OS reads sectors 1-3 to $0700 and calls BOOT (load address + 6).
;  2. BOOT checks that a cartridge ROM (BASIC) answers at $BFFC; if not it
;     prints a message and stops. Otherwise it prints the menu and waits for a
;     digit key (reading CH, the OS keyboard code, with interrupts masked).
;  3. It hooks the screen editor: the E: entry of the handler table (HATABS) is
;     pointed at a RAM copy of the editor's vector table whose GET BYTE and CLOSE
;     entries are ours, and MEMLO is raised above the loader (DOSINI does it
;     again after every RESET). Then it returns and the OS starts BASIC.
;  4. BASIC prints its prompt and reads a line from E:: our GET BYTE answers
;     RUN "E:" and an end of line. BASIC closes its channels (ignored), opens E:
;     again for the program and reads it through our GET BYTE, which follows the
;     file's DOS 2 sector chain with SIO. When BASIC closes the file our CLOSE
;     puts the editor's own table back: the keyboard and screen work normally.
;  5. A sector that cannot be read after three tries: the hook is removed, a
;     message is written on the top screen line and BASIC gets the SIO status.
;
; Only documented OS entry points and tables are used: HATABS and its standard
; order (P: C: E: S: K:), the handler vector table layout, EDITRV, CIOV, SIOV,
; the device control block, CH, MEMLO and DOSINI.

; --- OS locations -------------------------------------------------------------
.alias SAVMSC  $58      ; screen memory address
.alias DDEVIC  $0300    ; device control block for SIOV
.alias DSTATS  $0303
.alias DAUX1   $030A
.alias DAUX2   $030B
.alias MEMLO   $02E7
.alias CH      $02FC    ; last key pressed, $FF = none
.alias EDITOR  $0320    ; the E: entry of the handler table HATABS ($031A): 'E',
                        ; then the address of the editor's vector table
.alias ICCOM   $0342    ; IOCB 0 (the screen editor, opened by the OS)
.alias ICBAL   $0344
.alias ICBAH   $0345
.alias ICBLL   $0348
.alias ICBLH   $0349
.alias CIOV    $E456
.alias SIOV    $E459
.alias CARTCK  $BFFC    ; 0 in a cartridge ROM
.alias EDITRV  $E400    ; the screen editor's vector table (fixed in every OS)

.alias EOL     $9B
.alias MEMPAGE $0A      ; MEMLO = $0A00: BASIC's memory starts above the loader
.alias PUTCHRS $0B      ; CIO command: put characters
.alias MAXTRIES 3

; --- zero page: $CB-$D1 are left free by the OS and by BASIC -------------------
.alias bufpos  $CB      ; next byte in the buffer
.alias bufused $CC      ; bytes used in the buffer
.alias savex   $CD      ; CIO's X register
.alias tries   $CE      ; reads left before giving up; 0 until the first read
.alias nextlo  $CF      ; the next sector of the chain (0: none)
.alias nexthi  $D0

; --- RAM up to $0A00 (below MEMLO) -----------------------------------------------
; The sector buffer starts at the command text, the last 9 bytes of the boot
; image, so BASIC's first input line is served like the file's bytes.
.alias buffer  $0877    ; = $0880 - 9: a8/disk/boot.py puts the command there
.data
.org $0977
.space hooktab 16       ; our copy of the editor's vector table

.text
.org $0700
header:  .byte 0, 3             ; flags, number of boot sectors
         .word header           ; load address
         .word dosini           ; DOSINI
boot:    jmp main               ; the OS calls load address + 6

; a8/disk/boot.py patches the operand of each instruction labelled "p_..." (the
; byte after the opcode), and the word at p_secsz; it finds them in the
; assembler's label map.
dcb:     .byte $31, 1, $52, $40 ; SIO request: disk 1, 'R'ead, data from drive
         .word buffer
         .byte 15, 0            ; timeout (seconds), unused
p_secsz: .word 128              ; bytes per sector

; --- the menu ----------------------------------------------------------------------
main:    dec CARTCK             ; a cartridge has 0 here, and it cannot change;
         lda CARTCK             ; RAM (cleared at power-up) turns into $FF
         inc CARTCK             ; and back: without BASIC $BFFC is on the screen
         tax                    ; (INC changed the flags: test A again)
         beq hasbasic
nobasic: lda #<nobasmsg
         ldy #>nobasmsg
         ldx #nobasend-nobasmsg
         jsr print
halt:    bne halt               ; (CIO returns status 1: Z is clear)

hasbasic:
p_menulo:lda #0                 ; the menu text: address and length
p_menuhi:ldy #0
p_menuln:ldx #0
         jsr print
waitkey: sei                    ; no keyboard IRQ between reading and clearing CH
         lda CH
         ldx #$FF
         stx CH                 ; ($FF: no key; SHIFT/CONTROL+digit never match)
         cli
         ldx #0
findkey:
p_entry3:cpx #0                 ; 3 x number of entries
         bcs waitkey
         cmp table,x
         beq chosen
         inx
         inx
         inx
         bne findkey
chosen:  lda #<hooktab           ; hook E:
         sta EDITOR+1
         lda #>hooktab
         sta EDITOR+2
         ldy #15
copytab: lda EDITRV,y
         sta hooktab,y
         dey
         bpl copytab
         ldy #3                 ; then our CLOSE and GET BYTE entries
hookget: lda hooks,y
         sta hooktab+2,y
         dey
         bpl hookget
         lda table+1,x          ; the chosen file's first sector
         sta nextlo
         lda table+2,x
         sta nexthi
         lda #9                 ; the buffer holds the command: 9 bytes
         sta bufused
         lda #0
         sta bufpos
         sta tries              ; no sector read yet
         clc                    ; boot succeeded; on to DOSINI, as BASIC takes
                                ; MEMLO before the OS calls DOSINI itself

; --- DOSINI: runs after the boot and after every RESET --------------------------
dosini:  lda #MEMPAGE           ; (the OS has just set MEMLO to $0700)
         sta MEMLO+1
         rts

; print X bytes at A (low), Y (high) on the screen through CIO (IOCB 0)
print:   sta ICBAL
         sty ICBAH
         stx ICBLL
         ldx #0
         stx ICBLH
         lda #PUTCHRS
         sta ICCOM
         jmp CIOV

; --- the hooked handler: GET BYTE (A: the byte, Y: status; X kept for CIO) -----
get:     stx savex
getfile: ldy bufpos
         cpy bufused
         bcc have
         lda nextlo             ; next sector 0: the chain has ended
         ora nexthi
         beq eof
         jsr readsec
         bcc getfile
         jsr restore            ; give up: unhook, say so, return the error
         ldy #readend-readmsg+3 ; on the top line from column 4 (BASIC's error
errmsg:  lda readmsg-4,y        ; goes on the next line; the cursor sits at 2)
         sta (SAVMSC),y
         dey
         cpy #4
         bcs errmsg
         ldy DSTATS             ; the error status of the last try
         bmi exit
eof:     ldy #$88               ; end of file
         bmi exit
have:    lda buffer,y
         inc bufpos
ok:      ldy #1
exit:    ldx savex
         rts

; --- the hooked handler: CLOSE ----------------------------------------------------
close:   lda tries              ; BASIC closes every channel before it loads:
         beq closed             ; unhook only once the file is being read
         jsr restore
closed:  ldy #1
         rts

restore: lda #<EDITRV
         sta EDITOR+1
         lda #>EDITRV
         sta EDITOR+2
         rts

; read sector nexthi:nextlo into the buffer; put its link's next sector in
; nexthi:nextlo and its byte count in bufused (carry set: error)
readsec: lda #MAXTRIES
         sta tries
retry:   ldy #9
setdcb:  lda dcb,y
         sta DDEVIC,y
         dey
         bpl setdcb
         lda nextlo
         sta DAUX1
         lda nexthi
         sta DAUX2
         jsr SIOV
         lda DSTATS
         bpl readok
         dec tries
         bne retry
         sec
         rts
readok:
p_link:  ldy #125               ; the link bytes: sector size - 3
         lda buffer,y           ; file number << 2 | next sector bits 8-9
         and #3
         sta nexthi
         lda buffer+1,y
         sta nextlo
         lda buffer+2,y
         sta bufused
         lda #0
         sta bufpos
         clc
         rts

; --- data -------------------------------------------------------------------------
hooks:   .word close-1, get-1   ; vector table entries hold address - 1
readmsg: .byte $32,$25,$21,$24,0,$25,$32,$32,$2F,$32  ; "READ ERROR" in screen codes
readend:
nobasmsg:
         .byte "NEEDS BASIC (NO OPTION)", EOL
nobasend:
; a8/disk/boot.py appends here: the menu table (per entry: key code, first sector
; low, high), then the menu text; and the command RUN "E:" (9 bytes) at $0877.
table:
