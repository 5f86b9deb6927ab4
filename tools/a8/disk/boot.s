; boot.s -- a DOS-less boot menu for Atari BASIC programs on a DOS 2 disk.
;
; Assembled with Ophis (ophis-asm) by a8/disk/boot.py, which then fills in the
; parameter block below (sector size, the places of the menu table and of the
; second stage in the buffer) and writes sector 720, which DOS 2.0 and 2.5 never
; give to a file: the menu (BASIC's first two input lines and the menu table),
; and at its end the loader's second stage, the code that does not fit boot
; sectors 1-3 (384 bytes) with the rest.
;
; How it works (docs/notes/boot-loader.md tells it at more length):
;  1. The OS reads sectors 1-3 to $0700 and calls BOOT (load address + 6).
;  2. BOOT checks that a cartridge ROM (BASIC) answers at $BFFC; if not it
;     shows a message and stops. Otherwise it reads sector 720 into its sector
;     buffer: boot.py writes it as the last sector of a DOS 2 file (link: no
;     next sector, the menu line's length), so the code that reads the chosen
;     file reads it too, and the menu is served from the buffer as the file
;     will be. It copies the second stage from the sector's end to its place
;     above the buffer. Then it hooks the screen editor: the E:
;     entry of the handler table (HATABS) is pointed at a RAM copy of the
;     editor's vector table whose OPEN, GET BYTE and CLOSE entries are ours, and
;     MEMLO is raised above the loader (DOSINI does it again after every RESET). Then
;     it returns: the OS finishes its start-up (the XL OS polls the serial bus
;     for peripheral handlers, some 2 seconds when no device answers) and
;     starts BASIC.
;  4. BASIC prints its prompt and reads a line from E:: our GET BYTE serves the
;     menu line made by boot.py, ?"<clear>TITLE":?"1 ...":?"2 ...", which BASIC
;     runs: the menu is on the screen once the machine is ready. When BASIC
;     asks for its next line, GET BYTE waits for a digit key (reading CH, the
;     OS keyboard code, with interrupts masked) and serves RUN "E:". BASIC
;     closes its channels (ignored), opens E: again for the program (our OPEN
;     does nothing: the editor's own would clear the screen, and the menu stays)
;     and reads it through our GET BYTE, which follows the chosen file's DOS 2
;     sector chain with SIO and, every fourth sector, puts one more block of a
;     loading bar where the cursor was, under the menu. BASIC's LOAD asks CIO
;     for the program in blocks (GET CHARACTERS); CIO then calls GET BYTE once a
;     byte, which costs more than the serial transfer of the sector saves. So
;     when CIO is seen to keep its loop state in the zero-page IOCB, as the XL
;     OS and AltirraOS do (ICBALZ: where the byte goes, ICBLLZ: bytes still
;     wanted, lowered by one after each byte), GET BYTE copies the rest of the
;     sector there itself, but for the one byte it returns, and moves both words
;     on: one call a sector instead of one a byte. When BASIC closes the
;     file our CLOSE puts the editor's own table back: the keyboard and screen
;     work normally.
;  5. A sector that cannot be read after three tries: the hook is removed, a
;     message is written on the top screen line and BASIC gets the SIO status.
;     If it is sector 720, at boot, the message stays and the machine stops.
;
; Only documented OS entry points and tables are used: HATABS and its standard
; order (P: C: E: S: K:), the handler vector table layout, EDITRV, SIOV, the
; device control block, SAVMSC, OLDADR, CH, MEMLO, DOSINI and CIO's zero-page
; IOCB (ICCOMZ, ICBALZ, ICBLLZ) and ICIDNO (the X register CIO was called with).

; --- OS locations -------------------------------------------------------------
.alias ICCOMZ  $22      ; CIO's zero-page IOCB: the command,
.alias ICBALZ  $24      ; where the next byte goes,
.alias ICBLLZ  $28      ; how many bytes are still wanted
.alias ICIDNO  $2E      ; the X register CIO was called with (the IOCB x 16)
.alias SAVMSC  $58      ; screen memory address
.alias OLDADR  $5E      ; the cursor's address in screen memory
.alias DDEVIC  $0300    ; device control block for SIOV
.alias DSTATS  $0303
.alias DAUX1   $030A
.alias DAUX2   $030B
.alias MEMLO   $02E7
.alias CH      $02FC    ; last key pressed, $FF = none
.alias EDITOR  $0320    ; the E: entry of the handler table HATABS ($031A): 'E',
                        ; then the address of the editor's vector table
.alias SIOV    $E459
.alias CARTCK  $BFFC    ; 0 in a cartridge ROM
.alias EDITRV  $E400    ; the screen editor's vector table (fixed in every OS)

.alias EOL     $9B
.alias GETCHARS 7       ; CIO's GET CHARACTERS (GET RECORD, 5, stops at an EOL)
.alias MENUSEC 720      ; the menu's sector
.alias MEMPAGE $0A      ; MEMLO = $0A00: BASIC's memory starts above the loader
.alias MAXTRIES 3
.alias BLOCK   $80      ; the loading bar's block: an inverse space (screen code)

; --- zero page: $CB-$D1 are left free by the OS and by BASIC -------------------
.alias bufpos  $CB      ; next byte in the buffer
.alias bufused $CC      ; bytes used in the buffer
.alias count   $CD      ; bytes the second stage copies at once
.alias tries   $CE      ; reads left before giving up; 0 until the first read
.alias nextlo  $CF      ; the next sector of the chain (0: none)
.alias nexthi  $D0
.alias sectors $D1      ; sectors read so far (the loading bar: one block per four)

; --- RAM up to $0A00 (below MEMLO) -----------------------------------------------
; The sector buffer follows the boot sectors, at $0880, 128 or 256 bytes (boot.py's
; BUFFER: it checks the two agree); boot.py patches the menu table's place in it into
; the p_table... operands and the second stage's into p_stage. The second
; stage runs at $0980, above the largest buffer.
.alias buffer  $0880
.alias table   $0880
.data
.org $09EE
.space lastlen 1        ; ICBLLZ's low byte as GET BYTE left it
.space unused 1
.space hooktab 16       ; our copy of the editor's vector table

.text
.org $0700
header:  .byte 0, 3             ; flags, number of boot sectors
         .word header           ; load address
         .word dosini           ; DOSINI
                                ; the OS calls load address + 6: here
; --- the boot: check for BASIC, hook E: -------------------------------------------
main:    dec CARTCK             ; a cartridge has 0 here, and it cannot change;
         lda CARTCK             ; RAM (cleared at power-up) turns into $FF
         inc CARTCK             ; and back: without BASIC $BFFC is on the screen
         tax                    ; (INC changed the flags: test A again)
         beq hasbasic
nobasic: ldy #nobasend-nobasmsg+1 ; the message on the top line of the screen,
*        lda nobasmsg-2,y       ; from the left margin (column 2)
         sta (SAVMSC),y
         dey
         cpy #2
         bcs -
         bcc halt
bootfail:jsr readerr            ; the menu cannot be read: say so and stop
halt:    bcc halt               ; (carry clear after both messages)

hasbasic:
         lda #<MENUSEC          ; the menu into the buffer: its length in
         sta nextlo             ; bufused, no next sector, bufpos 0
         lda #>MENUSEC
         sta nexthi
         jsr readsec
         bcs bootfail
         ldy #stage2end-stage2-1 ; the second stage to its place
p_stage: lda buffer,y
         sta stage2,y
         dey
         bpl p_stage
         iny
         sty tries              ; no file sector read yet
         sty sectors
         lda #<hooktab          ; hook E:
         ldy #>hooktab
         jsr setedit
         ldy #15                ; the editor's vector table, but for our OPEN,
copytab: lda EDITRV,y           ; CLOSE and GET BYTE entries
         cpy #6
         bcs +
         lda hooks,y
*        sta hooktab,y
         dey
         bpl copytab
         clc                    ; boot succeeded; on to DOSINI, as BASIC takes
                                ; MEMLO before the OS calls DOSINI itself

; --- DOSINI: runs after the boot and after every RESET --------------------------
dosini:  lda #MEMPAGE           ; (the OS has just set MEMLO to $0700)
         sta MEMLO+1
         rts

; --- the choice: wait for a digit of the menu, then its file's first sector -------
choose:  sei                    ; no keyboard IRQ between reading and clearing CH
         lda CH
         ldx #$FF
         stx CH                 ; ($FF: no key; SHIFT/CONTROL+digit never match)
         cli
         ldx #0
findkey:
p_entry3:cpx #0                 ; 3 x number of entries
         bcs choose
p_table0:cmp table,x
         beq chosen
         inx
         inx
         inx
         bne findkey
chosen:
p_table1:lda table+1,x          ; the chosen file's first sector
         sta nextlo
p_table2:lda table+2,x
         sta nexthi
         lda OLDADR             ; the loading bar goes where the cursor is: on
         sta p_bar+1            ; the line under the menu
         lda OLDADR+1
         sta p_bar+2
p_all:   lda #0                 ; and the second line, RUN "E:", to serve
         sta bufused            ; (not 0: Z is clear)
         rts

; --- the hooked handler: GET BYTE (A: the byte, Y: status; X kept for CIO) -----
get:
getfile: ldy bufpos
         cpy bufused
         bcc have
         lda nextlo
         ora nexthi
         bne nextsec
         lda tries              ; next sector 0 after a read: the chain has ended
         bne eof
         jsr choose             ; none read yet: BASIC has printed the menu and
         bne getfile            ; asks for its next line: wait for the choice
nextsec: jsr readsec
         bcc getfile
         jsr restore            ; give up: unhook, say so, return the error
         jsr readerr
         ldy DSTATS             ; the error status of the last try
         bmi exit
eof:     ldy #$88               ; end of file
         bmi exit

; the shortcut: only for GET CHARACTERS, and only once CIO has lowered ICBLLZ by
; one since the last byte served (its loop state is the zero-page IOCB)
have:    lda ICCOMZ
         cmp #GETCHARS
         bne serve
         ldx ICBLLZ
         inx
         cpx lastlen
         bne serve
         jmp fast
serve:   ldy bufpos
         lda buffer,y
         inc bufpos
         ldx ICBLLZ
         stx lastlen
ok:      ldy #1
exit:    ldx ICIDNO             ; X as CIO gave it
         rts

readerr: ldy #readend-readmsg+3 ; "READ ERROR" on the top line from column 4
errmsg:  lda readmsg-4,y        ; (BASIC's error goes on the next line; the
         sta (SAVMSC),y         ; cursor sits at 2)
         dey
         cpy #4
         bcs errmsg
         rts

; --- the hooked handler: CLOSE, and OPEN (which does nothing) --------------------
close:   lda tries              ; BASIC closes every channel before it loads:
         beq closed             ; unhook only once the file is being read
         jsr restore
open:
closed:  ldy #1
         rts

restore: lda #<EDITRV
         ldy #>EDITRV
setedit: sta EDITOR+1           ; the E: entry's vector table: A low, Y high
         sty EDITOR+2
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
readok:  inc sectors             ; every fourth sector, a block more of the bar
         lda sectors
         lsr
         bcs link
         lsr
         bcs link
         tay
         lda #BLOCK
p_bar:   sta $0000,y            ; (the screen address is set when a file is chosen)
link:
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
; a8/disk/boot.py patches the operand of each instruction labelled "p_..." (the
; byte after the opcode; for p_table0-2 and p_stage the two bytes after it), and
; the word at p_secsz; it finds them in the assembler's label map.
dcb:     .byte $31, 1, $52, $40 ; SIO request: disk 1, 'R'ead, data from drive
dcbbuf:  .word buffer           ; the sector buffer
         .byte 15, 0            ; timeout (seconds), unused
p_secsz: .word 128              ; bytes per sector
hooks:   .word open-1, close-1, get-1  ; vector table entries hold address - 1
readmsg: .byte $32,$25,$21,$24,0,$25,$32,$32,$2F,$32  ; "READ ERROR" in screen codes
readend:
nobasmsg:                       ; "NEEDS BASIC" in screen codes
         .byte $2E,$25,$25,$24,$33,0,$22,$21,$33,$29,$23
nobasend:
; Sector 720, written by a8/disk/boot.py: the menu line, RUN "E:", the menu table
; (per entry: key code, first sector low, high), the second stage at the end of
; its data, and the link of a file's last sector whose byte count is the menu
; line's length.
code_end:

; --- the second stage: copied at boot from sector 720 to $0980 -----------------
; GET BYTE's shortcut (see "have"): copy the rest of the sector but the byte that
; is served, or fewer if CIO wants fewer, where CIO would put them, and move
; ICBALZ and ICBLLZ on as CIO would have.
.org $0980
stage2:
fast:    lda bufused            ; the bytes left in the buffer but the one served:
         clc
         sbc bufpos             ; bufused - bufpos - 1
         ldx ICBLLZ+1
         bne +                  ; 256 or more wanted: the buffer limits
         ldx ICBLLZ             ; fewer: all wanted but the one served (CIO
         dex                    ; stores that one itself)
         stx count
         cmp count
         bcc +
         txa
*        sta count
         tax
         beq done
         ldx bufpos
         ldy #0
copy:
         lda buffer,x
         sta (ICBALZ),y
         inx
         iny
         cpy count
         bne copy
         stx bufpos
         tya                    ; the zero-page IOCB moves on by count
         clc
         adc ICBALZ
         sta ICBALZ
         bcc +
         inc ICBALZ+1
*        lda ICBLLZ
         sec
         sbc count
         sta ICBLLZ
         bcs done
         dec ICBLLZ+1
done:    jmp serve
stage2end:
