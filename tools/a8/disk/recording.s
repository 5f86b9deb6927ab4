; recording.s -- a boot disk that runs Atari BASIC programs with an H: device of
; its own, which serves files from the disk and records what the programs write
; on the same disk, resumably.
;
; Assembled with Ophis by a8/disk/recording.py, with two files it writes for the
; disk at hand: params.s (sector size, sectors and file numbers, counts) at the
; top and tables.s (the programs, the files served to each, the record file's
; runs of sectors) in the resident part. The image runs from $0700: its first
; 384 bytes are boot sectors 1-3, the rest is the DOS 2 file RECORDER.SYS, which
; the boot code reads along its sector chain straight into place. MEMLO is set
; to resident_end: what lies above it (init and the machine record) runs once per
; boot, before BASIC takes that memory. The boot code keeps its own state in the
; boot sectors and page zero, never in the memory it loads (see sector's variables).
;
; The disk stays an ordinary DOS 2 disk. The Atari only ever rewrites the data
; bytes of sectors that belong to two files made at build time, keeping their
; link bytes (computed here exactly as a8 wrote them): RECORDS.TXT, the records,
; and RECSTATE.DAT, two state sectors written in turn.
;
; Records. Every OPEN of H: for writing begins a record (the name is only a label):
; it starts on a sector of its own in RECORDS.TXT, its bytes fill the sectors one
; after the other, and CLOSE ends it with a 32-byte trailer in the last 32 data
; bytes of its last sector (a sector more if the bytes reach past the trailer):
;   EOL "REC " nnnn " " p " " NAMEEXTENSI " " llllll " " EOL
; (record number and length in hex, p the program's digit, the name as 8+3). Then
; the state is committed: the record's last sector is written first, the state
; after it. A power cut or RESET before that loses that record only; sectors of
; committed records are never written again. The reader finds the records from
; the state's next free sector backwards, trailer by trailer.
;
; State: RECSTATE.DAT's two sectors hold the state alternately, each with a
; sequence number and a check; the boot takes the valid one with the higher
; number, so a write cut short leaves the previous state. The state: records
; committed, the next record's first sector, the program running, the boots, and
; for each resumable file served to that program the position its reader had
; reached at the last commit (it is served from its first line, then from there).
;
; The run. At boot the code checks for BASIC, installs H: (DOSINI re-installs it
; after RESET), reads the state, writes a machine record (the OS's and BASIC's
; identification bytes and checksums, the TV system, MEMLO, the handler table)
; and hooks the screen editor's GET BYTE: BASIC's first input line is RUN "H:prog"
; for the program the state names. When BASIC asks E: for a line again, the
; program has ended: the state moves to the next program (committed) and its RUN
; line is served; after the last, E: is the editor's again (a plain READY).
;
; Errors: a write-protected disk (SIO status 144 with the drive's write-protect
; bit), a full record file (162) and an I/O error (its status) stop the run. The
; message is written at once on the screen's top line (with the display on) and,
; when BASIC next asks for a line, printed by a PRINT line served to it; H: then
; refuses writes. RESET stops the run the same way (boot again to go on).
;
; Only documented OS entry points and locations: the boot record, DOSINI, WARMST,
; HATABS and the handler vector table layout, the zero-page IOCB, FMSZPG (free
; without DOS), EDITRV, SIOV with the device control block and DVSTAT, CRITIC
; (kept as the program set it around SIOV, which clears it), SAVMSC, OLDADR,
; MEMLO, MEMTOP, SDMCTL and DMACTL, GTIA's PAL register, CARTCK.

.include "params.s"

; --- OS locations -------------------------------------------------------------
.alias WARMST  $08      ; 0 during a cold start, $FF after RESET
; DOSINI ($0C) is set by the OS from the boot record below
.alias ICBALZ  $24      ; zero-page IOCB: the file name's address
.alias ICAX1Z  $2A      ; the OPEN mode
.alias CRITIC  $42
.alias SAVMSC  $58
.alias OLDADR  $5E      ; the cursor's address in screen memory
.alias SDMCTL  $022F
.alias MEMTOP  $02E5
.alias MEMLO   $02E7
.alias DVSTAT  $02EA    ; the drive's status bytes after an 'S' command
.alias DDEVIC  $0300    ; the device control block
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
.alias HATABS  $031A
.alias CARTCK  $BFFC    ; 0 in a cartridge ROM
.alias PAL     $D014    ; GTIA: bits 1-3 clear on a PAL machine
.alias DMACTL  $D400
.alias EDITRV  $E400    ; the screen editor's vector table
.alias SIOV    $E459

; --- page zero: FMSZPG, DOS's, free on a disk without DOS ------------------------
.alias ptr     $43      ; 2 bytes
.alias zps     $45      ; 2 bytes

.alias EOL     $9B
.alias QUOTE   $22
.alias HATABS_END 36    ; 12 entries of 3 bytes
.alias DATA    [SECSIZE-3]      ; data bytes in a sector; its link follows
.alias TRAIL   [DATA-32]        ; where a record's trailer starts
.alias ST_LEN  40               ; bytes of state
.alias BLOCK   $80              ; the loading bar's block: an inverse space
.alias MAXTRIES 3

; the runner's modes
.alias MIDLE   0        ; E: is the editor's
.alias MSTART  1        ; serve the RUN line of the program in st_prog next
.alias MRUN    2        ; serving the RUN line
.alias MPROG   3        ; a program runs: BASIC's next line request is its end
.alias MMSG    4        ; serving a message line, then MIDLE

; CIO statuses
.alias ST_OK       1
.alias ST_BREAK    128  ; the run was stopped (RESET, or a finished disk)
.alias ST_NOTREAD  131  ; read from a channel open for writing
.alias ST_EOF      136
.alias ST_NOTWRITE 135  ; write to a channel open for reading
.alias ST_DEVERR   144
.alias ST_NOTIMPL  146
.alias ST_TOOMANY  161
.alias ST_FULL     162
.alias ST_BADNAME  165
.alias ST_NOFILE   170

; messages (index into msgtab)
.alias M_WPROT 0
.alias M_FULL  2
.alias M_IOERR 4
.alias M_STATE 6
.alias M_RESET 8
.alias M_DONE  10

.text
.org $0700
; ==================================================================================
; boot sectors 1-3: the boot record, the boot, SIO; all resident
; ==================================================================================
header:  .byte 0, 3             ; flags, boot sectors
         .word header           ; load address
         .word dosini           ; DOSINI
                                ; the OS calls load address + 6: here
boot:    dec CARTCK             ; a cartridge has 0 here, and it cannot change;
         lda CARTCK             ; RAM (cleared at power-up) turns into $FF
         inc CARTCK
         tax                    ; (INC changed the flags)
         beq hasbasic
         ldx #[nobasic-bootmsg]
         jmp halt
hasbasic:                       ; read RECORDER.SYS along its chain into place:
         lda #<SYSSTART         ; each sector straight where its bytes go, its
         sta secnum             ; link read before the next sector covers it
         lda #>SYSSTART
         sta secnum+1
         lda #<sysload
         sta ptr
         lda #>sysload
         sta ptr+1
loadsec: lda ptr
         ldy ptr+1
         ldx #'R
         jsr sector
         bmi loaderr
         ldy #DATA
         lda (ptr),y            ; file number << 2 | next sector's bits 8-9
         and #3
         sta secnum+1
         iny
         lda (ptr),y
         sta secnum
         iny
         lda (ptr),y            ; bytes used
         clc
         adc ptr
         sta ptr
         bcc +
         inc ptr+1
*        lda secnum
         ora secnum+1
         bne loadsec
         jsr init               ; (above MEMLO: runs once, now)
         clc                    ; boot succeeded
         rts
loaderr: ldx #[readerr-bootmsg]
halt:    ldy #2                 ; a message on the top line, from column 2, and stop
*        lda bootmsg,x
         bmi stop
         sta (SAVMSC),y
         inx
         iny
         bne -
stop:    beq stop

; sector: SIO request for sector secnum: X the command ('R' read, 'W' write with
; verify, 'S' status into DVSTAT), A/Y the buffer. Up to three tries. Returns the
; status in Y (negative: error). CRITIC is left as it was: SIOV clears it.
sector:  sta sbuf
         sty sbuf+1
         stx scmd
         lda #MAXTRIES
         sta tries
sectry:  lda #$31
         sta DDEVIC
         lda #1
         sta DUNIT
         lda scmd
         sta DCOMND
         ldx #$40               ; data from the drive
         cmp #'W
         bne +
         ldx #$80               ; data to the drive
*        stx DSTATS
         ldx #<SECSIZE
         ldy #>SECSIZE
         cmp #'S
         bne +
         ldx #4
         ldy #0
*        stx DBYTLO
         sty DBYTHI
         lda sbuf
         sta DBUFLO
         lda sbuf+1
         sta DBUFHI
         lda #15                ; timeout, seconds
         sta DTIMLO
         lda secnum
         sta DAUX1
         lda secnum+1
         sta DAUX2
         lda CRITIC
         pha
         jsr SIOV
         pla
         sta CRITIC
         ldy DSTATS
         bpl +
         dec tries
         bne sectry
*        ldy DSTATS
         rts

bootmsg:                        ; screen codes (0 is a blank), $FF ends each
nobasic: .byte $2E,$25,$25,$24,$33,0,$22,$21,$33,$29,$23,$FF            ; NEEDS BASIC
readerr: .byte $32,$25,$21,$24,0,$25,$32,$32,$2F,$32,$FF                 ; READ ERROR

; sector's variables: in the boot sectors, not with the other variables, because
; the boot code loads RECORDER.SYS with them and a read writes the whole sector,
; its link included. Among the bytes being loaded, a variable is overwritten by
; the read that covers it (a retry then asks for any sector, to anywhere), and a
; secnum on a link's bytes overwrites the link before the loop has read it all:
; the load stands still (docs/notes/2026-12-02-test-disk.md, MEMLO $12C1).
scmd:    .byte 0
sbuf:    .word 0
tries:   .byte 0
secnum:  .word 0
.checkpc sysload                ; all of the above is in the boot sectors

; ==================================================================================
; DOSINI: after the boot and after every RESET
; ==================================================================================
dosini:  jsr setmemlo
         jsr hinst
         lda WARMST
         beq dosdone            ; the cold start: init has done the rest
         jsr dropall            ; RESET: the OS has closed every channel
         lda mode
         beq dosdone            ; nothing running
         cmp #MMSG
         beq doshook            ; a message still to show: show it
         lda #M_RESET           ; a run was going on: it stops here
         ldy #ST_BREAK
         jmp fail
doshook: jmp ehook
dosdone: rts

setmemlo:
         lda #<resident_end
         sta MEMLO
         lda #>resident_end
         sta MEMLO+1
         rts

; install H: in the handler table: over an H: entry if there is one, else in the
; first free slot
hinst:   ldx #0
*        lda HATABS,x
         cmp #'H
         beq hset
         inx
         inx
         inx
         cpx #HATABS_END
         bcc -
         ldx #0
*        lda HATABS,x
         beq hnew
         inx
         inx
         inx
         cpx #HATABS_END
         bcc -
         rts                    ; the table is full: no H:
hnew:    lda #'H
         sta HATABS,x
hset:    lda #<htab
         sta HATABS+1,x
         lda #>htab
         sta HATABS+2,x
         rts

; hook E:: its entry points at a copy of the editor's vector table whose GET BYTE
; is eget
ehook:   ldy #15
*        lda EDITRV,y
         sta etab,y
         dey
         bpl -
         lda #<[eget-1]
         sta etab+4
         lda #>[eget-1]
         sta etab+5
         lda #<etab
         ldy #>etab
seteditor:                      ; the E: entry's vector table: A low, Y high
         ldx #0
*        pha
         lda HATABS,x
         cmp #'E
         beq +
         pla
         inx
         inx
         inx
         cpx #HATABS_END
         bcc -
         rts
*        pla
         sta HATABS+1,x
         tya
         sta HATABS+2,x
         rts
eunhook: lda #<EDITRV
         ldy #>EDITRV
         jmp seteditor

; ==================================================================================
; E: GET BYTE: the lines served to BASIC
; ==================================================================================
eget:    stx esavex
         lda mode
         cmp #MPROG
         bne +
         jsr endprog            ; BASIC asks for a line: the program has ended
         lda mode
*        cmp #MSTART
         bne +
         jsr runline
         lda mode
*        cmp #MRUN
         beq serve
         cmp #MMSG
         beq serve
         jsr eunhook            ; idle: the editor's own GET BYTE from now on
         ldx esavex
         lda EDITRV+5
         pha
         lda EDITRV+4
         pha
         rts
serve:   ldy srvpos
         lda linebuf,y
         inc srvpos
         cmp #EOL
         bne served
         ldy #MPROG             ; the line is served: the program runs,
         ldx mode
         cpx #MRUN
         beq +
         ldy #MIDLE             ; or the message is shown
*        sty mode
served:  ldx esavex
         ldy #ST_OK
         rts

; the RUN line of program st_prog into the line buffer
runline: ldx st_prog
         lda runlo,x
         sta ptr
         lda runhi,x
         sta ptr+1
         ldy #0
*        lda (ptr),y
         sta linebuf,y
         iny
         cmp #EOL
         bne -
         lda #0
         sta srvpos
         lda #MRUN
         sta mode
         rts

; the program has ended: on to the next (committed), or to a plain READY
endprog: jsr dropall            ; a record left open is not committed
         inc st_prog
         ldy #23
         lda #0
*        sta st_pos,y
         dey
         bpl -
         jsr commit
         bcs epdone             ; (fail has set the message)
         lda st_prog
         cmp #NPROGRAMS
         bcs epall
         lda #MSTART
         sta mode
         rts
epall:   lda #ST_BREAK          ; all have run: H: writes no more
         sta err
         lda #MIDLE
         sta mode
epdone:  rts

; ==================================================================================
; the H: handler
; ==================================================================================
htab:    .word hopen-1, hclose-1, hget-1, hput-1, hstatus-1, hspecial-1
         jmp hstatus            ; init: nothing to do
         .byte 0

; X = the IOCB (16 x channel): keep it, X = the channel
chan:    stx savex
         txa
         lsr
         lsr
         lsr
         lsr
         tax
         stx chx
         rts

hstatus: ldy #ST_OK
         rts
hspecial:
         ldy #ST_NOTIMPL
         rts

hopen:   jsr chan
         jsr parse
         ldy #ST_BADNAME
         bcs hexit
         lda ICAX1Z
         and #$0E
         cmp #4
         beq openr
         cmp #8
         beq openw
         ldy #ST_NOTIMPL        ; update, directory
hexit:   ldx savex
         cpy #0
         rts

openr:   jsr lookup
         ldy #ST_NOFILE
         bcs hexit
         ldx chx
         ldy #11
         lda (ptr),y
         sta chseclo,x
         iny
         lda (ptr),y
         sta chsechi,x
         iny
         lda (ptr),y            ; 1: the program (the loading bar)
         sta chbar,x
         beq +
         lda OLDADR
         sta p_bar+1
         lda OLDADR+1
         sta p_bar+2
         lda #0
         sta barcnt
*        iny
         lda (ptr),y            ; resumable: 3 x slot + 3
         sta chres,x
         lda #0
         sta chpos,x
         sta chjump,x
         ldy chres,x
         beq +
         lda st_pos-3,y         ; a position committed: jump there after line 1
         ora st_pos-2,y
         beq +
         inc chjump,x
*        lda #1
         sta chopen,x
         ldy #ST_OK
         bne hexit

openw:   ldy err
         bne hexit
         ldy #ST_TOOMANY
         lda wopen
         bne hexit
         jsr recbegin
         bcs hexit
         ldy #10
*        lda pname,y
         sta wname,y
         dey
         bpl -
         ldx chx
         lda #2
         sta chopen,x
         sta wopen
         ldy #ST_OK
         bne hexit

hclose:  jsr chan
         lda chopen,x
         pha
         lda #0
         sta chopen,x
         pla
         ldy #ST_OK
         cmp #2
         bne hexit
         lda #0
         sta wopen
         jsr recfinish          ; the record ends: committed
         jmp hexit

hput:    sta putbyte
         jsr chan
         ldy err
         bne hexit
         ldy #ST_NOTWRITE
         lda chopen,x
         cmp #2
         bne hexit
         lda putbyte
         jsr recput
         jmp hexit

hget:    jsr chan
         ldy #ST_NOTREAD
         lda chopen,x
         cmp #1
         bne hexit
getsec:  lda chseclo,x          ; the channel's sector in the buffer?
         cmp rtag
         bne getread
         lda chsechi,x
         cmp rtag+1
         beq gethave
getread: lda chseclo,x
         sta secnum
         lda chsechi,x
         sta secnum+1
         lda #0
         sta rtag
         sta rtag+1
         lda #<rbuf
         ldy #>rbuf
         ldx #'R
         jsr sector
         bpl +
         lda #M_IOERR
         jsr fail
         jmp hexit
*        ldx chx
         lda secnum
         sta rtag
         lda secnum+1
         sta rtag+1
         lda chbar,x            ; every fourth sector of a program: the bar grows
         beq gethave
         inc barcnt
         lda barcnt
         and #3
         bne gethave
         lda barcnt
         lsr
         lsr
         tay
         lda #BLOCK
p_bar:   sta $0000,y            ; (the cursor's address, set at OPEN)
gethave: lda chpos,x
         cmp rbuf+DATA+2        ; bytes used in this sector
         bcs getnext
         tay
         lda rbuf,y
         sta putbyte
         inc chpos,x
         cmp #EOL
         bne getbyte
         lda chjump,x           ; line 1 served: on from the committed position
         beq getbyte
         lda #0
         sta chjump,x
         ldy chres,x
         lda st_pos-3,y
         sta chseclo,x
         lda st_pos-2,y
         sta chsechi,x
         lda st_pos-1,y
         sta chpos,x
getbyte: lda putbyte
         ldy #ST_OK
         jmp hexit
getnext: lda rbuf+DATA          ; the link: next sector
         and #3
         tay
         ora rbuf+DATA+1
         bne +
         ldy #ST_EOF
         jmp hexit
*        tya
         sta chsechi,x
         lda rbuf+DATA+1
         sta chseclo,x
         lda #0
         sta chpos,x
         jmp getsec

; the file name after "H:" / "Hn:" into pname (8 + 3, blanks); carry set: bad
parse:   ldy #0
*        lda (ICBALZ),y
         iny
         cmp #$3A               ; ':'
         beq +
         cpy #4
         bcc -
         rts                    ; (carry set: Y = 4)
*        ldx #10
         lda #32
*        sta pname,x
         dex
         bpl -
         ldx #0
pchar:   lda (ICBALZ),y
         jsr namechar
         bcs pdot
         cpx #8
         bcs pbad
         sta pname,x
         inx
         iny
         bne pchar
pdot:    cmp #$2E               ; '.'
         bne pend
         iny
         ldx #8
pext:    lda (ICBALZ),y
         jsr namechar
         bcs pend
         cpx #11
         bcs pbad
         sta pname,x
         inx
         iny
         bne pext
pend:    lda pname              ; a letter first
         cmp #'A
         bcc pbad
         cmp #'Z+1
         rts                    ; carry clear if a letter
pbad:    sec
         rts
namechar:                       ; carry clear for A-Z and 0-9
         cmp #'Z+1
         bcs +
         cmp #'A
         bcs namey
         cmp #'9+1
         bcs +
         cmp #'0
         bcs namey
*        sec
         rts
namey:   clc
         rts

; pname in the table of program st_prog: ptr at its entry; carry set: none.
; A table: the number of entries, then 16 bytes each: the name (8 + 3), the first
; sector, 1 for the program itself (the loading bar), the resume slot (3 x n + 3,
; 0: not resumable), a spare byte.
lookup:  ldx st_prog
         lda proglo,x
         sta ptr
         lda proghi,x
         sta ptr+1
         ldy #0
         lda (ptr),y
         sta count
         inc ptr
         bne lentry
         inc ptr+1
lentry:  lda count
         beq lnone
         dec count
         ldy #10
*        lda (ptr),y
         cmp pname,y
         bne lnext
         dey
         bpl -
         clc
         rts
lnext:   lda ptr
         clc
         adc #16
         sta ptr
         bcc lentry
         inc ptr+1
         bcs lentry
lnone:   sec
         rts

; ==================================================================================
; records
; ==================================================================================
; begin a record at the state's next sector; carry set: the record file is full
recbegin:
         lda st_next
         ora st_next+1
         bne +
         lda #M_FULL
         ldy #ST_FULL
         jmp fail
*        lda st_next
         sta wsec
         lda st_next+1
         sta wsec+1
         lda nrun
         sta wrun
         lda #0
         sta wlen
         sta wlen+1
         sta wlen+2
         jsr wclear
         clc
         rts

; a byte of the record (A); Y the status, carry set on an error
recput:  ldy err
         bne putfail
         ldy wpos
         cpy #DATA
         bcc putroom
         pha                    ; the sector is full: write it, go on in the next
         jsr nextsec
         lda nxt
         ora nxt+1
         bne +
         pla
         lda #M_FULL
         ldy #ST_FULL
         jmp fail
*        jsr writecur
         pla
         bcs putfail
         ldy #0
putroom: sta wbuf,y
         iny
         sty wpos
         inc wlen
         bne +
         inc wlen+1
         bne +
         inc wlen+2
*        ldy #ST_OK
         clc
         rts
putfail: sec
         rts

; end the record: its trailer, its last sector, then the state
recfinish:
         ldy err
         bne putfail
         ldy wpos
         cpy #[TRAIL+1]
         bcc +
         jsr nextsec            ; no room for the trailer: a sector more
         lda nxt
         ora nxt+1
         bne trailsec
         lda #M_FULL
         ldy #ST_FULL
         jmp fail
trailsec:
         jsr writecur
         bcs putfail
*        ldy #TRAIL
         lda #EOL
         jsr tput
         ldx #0
*        lda trailhead,x
         jsr tput
         inx
         cpx #4
         bcc -
         lda st_count+1         ; the record's number: records committed + 1
         ldx st_count
         inx
         bne +
         clc
         adc #1
*        jsr thex
         txa
         jsr thex
         jsr tspace
         lda st_prog
         clc
         adc #'1
         jsr tput
         jsr tspace
         ldx #0
*        lda wname,x
         jsr tput
         inx
         cpx #11
         bcc -
         jsr tspace
         lda wlen+2
         jsr thex
         lda wlen+1
         jsr thex
         lda wlen
         jsr thex
         jsr tspace
         lda #EOL
         jsr tput
         jsr nextsec
         jsr writecur
         bcs putfail
         inc st_count           ; committed: the state says so
         bne +
         inc st_count+1
*        lda wsec
         sta st_next
         lda wsec+1
         sta st_next+1
         lda wrun
         sta nrun
         jsr savepos
         ; (on to commit)

; write the state to the state sector that does not hold the current one
commit:  inc st_seq
         bne +
         inc st_seq+1
*        lda #<st
         ldy #>st
         jsr stcheck
         lda sum
         sta st_sum
         lda sum+1
         sta st_sum+1
         ldy #0
*        lda st,y
         sta wbuf,y
         iny
         cpy #ST_LEN
         bcc -
         lda #0
*        sta wbuf,y
         iny
         cpy #DATA
         bcc -
         lda st_cur
         eor #1
         tax
         asl
         tay
         lda stsec,y
         sta secnum
         lda stsec+1,y
         sta secnum+1
         txa                    ; its link bytes, as built
         beq +
         lda #3
*        tay
         lda stlink,y
         sta wbuf+DATA
         lda stlink+1,y
         sta wbuf+DATA+1
         lda stlink+2,y
         sta wbuf+DATA+2
         stx stnew
         jsr writesec
         bcs +
         lda stnew
         sta st_cur
         ldy #ST_OK
*        rts

; the positions of the resumable files read now, into the state
savepos: ldx #7
*        lda chopen,x
         cmp #1
         bne +
         ldy chres,x
         beq +
         lda chjump,x
         bne +
         lda chseclo,x
         sta st_pos-3,y
         lda chsechi,x
         sta st_pos-2,y
         lda chpos,x
         sta st_pos-1,y
*        dex
         bpl --
         rts

; the sector after wsec in RECORDS.TXT (its runs of sectors) into nxt, nxtrun;
; 0 after the last
nextsec: lda wrun
         sta nxtrun
         asl
         asl
         tay
         lda wsec
         cmp runs+2,y
         bne nextinc
         lda wsec+1
         cmp runs+3,y
         bne nextinc
         inc nxtrun
         lda #0
         sta nxt
         sta nxt+1
         lda nxtrun
         cmp #NRUNS
         bcs +
         lda runs+4,y
         sta nxt
         lda runs+5,y
         sta nxt+1
*        rts
nextinc: lda wsec
         clc
         adc #1
         sta nxt
         lda wsec+1
         adc #0
         sta nxt+1
         rts

; write the record sector wsec with its link to nxt; then wsec <- nxt and the
; buffer is blank again. Carry set on an error (Y the status).
writecur:
         lda nxt+1
         ora #[RECFILE*4]
         sta wbuf+DATA
         lda nxt
         sta wbuf+DATA+1
         lda #DATA
         sta wbuf+DATA+2
         lda wsec
         sta secnum
         lda wsec+1
         sta secnum+1
         jsr writesec
         bcs +
         lda nxt
         sta wsec
         lda nxt+1
         sta wsec+1
         lda nxtrun
         sta wrun
         jsr wclear
         clc
*        rts

; the record buffer as RECORDS.TXT is built: blanks, an end of line last
wclear:  lda #32
         ldy #[DATA-2]
*        sta wbuf,y
         dey
         bne -
         sta wbuf
         lda #EOL
         sta wbuf+DATA-1
         lda #0
         sta wpos
         rts

; write wbuf to sector secnum; carry set on an error: fail says which
writesec:
         lda #<wbuf
         ldy #>wbuf
         ldx #'W
         jsr sector
         bmi +
         clc
         rts
*        cpy #ST_DEVERR         ; the drive said no: is the disk write-protected?
         bne wioerr
         lda #0
         sta secnum
         sta secnum+1
         lda #<DVSTAT
         ldy #>DVSTAT
         ldx #'S
         jsr sector
         bmi +
         lda DVSTAT
         and #8
         beq +
         lda #M_WPROT
         ldy #ST_DEVERR
         jmp fail
*        ldy #ST_DEVERR
wioerr:  lda #M_IOERR
         jmp fail

; trailer helpers: Y the index into wbuf
tspace:  lda #32
tput:    sta wbuf,y
         iny
         rts
thex:    pha
         lsr
         lsr
         lsr
         lsr
         jsr +
         pla
         and #15
*        cmp #10
         bcc +
         adc #6
*        adc #'0
         jmp tput

; Fletcher's check of the ST_LEN-2 bytes at A/Y into sum (low: the sum of the
; bytes, high: the sum of the sums, both mod 256)
stcheck: sta zps
         sty zps+1
         lda #0
         sta sum
         sta sum+1
         tay
*        lda (zps),y
         clc
         adc sum
         sta sum
         clc
         adc sum+1
         sta sum+1
         iny
         cpy #[ST_LEN-2]
         bcc -
         rts

; close every channel and drop a record not committed
dropall: lda #0
         ldx #7
*        sta chopen,x
         dex
         bpl -
         sta wopen
         rts

; drop the record being written (not committed); its channel writes no more
dropwrite:
         ldx #7
*        lda chopen,x
         cmp #2
         bne +
         lda #0
         sta chopen,x
*        dex
         bpl --
         lda #0
         sta wopen
         rts

; ==================================================================================
; fail: A the message, Y the status. The run stops: H: refuses writes from now
; on (reading goes on), the message goes on the screen's top line now if a
; program runs, and is printed at BASIC's next line request. Returns the status
; in Y, carry set.
; ==================================================================================
fail:    sty err
         sta failmsg
         lda mode
         sta failmode
         jsr dropwrite          ; (reads go on: BASIC may be reading a listing
                                ; it ENTERs, and goes back to it when it stops)
         ldx failmsg
         lda msgtab,x
         sta ptr
         lda msgtab+1,x
         sta ptr+1
         lda #$3F               ; '?'
         sta linebuf
         lda #QUOTE
         sta linebuf+1
         ldx #2
         ldy #0
*        lda (ptr),y
         beq +
         sta linebuf,x
         inx
         iny
         bne -
*        lda failmsg            ; an I/O error: its status, in decimal
         cmp #M_IOERR
         bne failend
         lda err
         ldy #100
         jsr digit
         ldy #10
         jsr digit
         ora #'0
         sta linebuf,x
         inx
failend: lda #QUOTE
         sta linebuf,x
         inx
         lda #EOL
         sta linebuf,x
         lda #0
         sta srvpos
         lda #MMSG
         sta mode
         lda failmode           ; a program runs (with its own screen): the
         cmp #MPROG             ; message on the top line now, as screen codes
         bne failhook
         ldy #2
*        lda linebuf,y
         cmp #QUOTE
         beq +
         sec
         sbc #32
         sta (SAVMSC),y
         iny
         cpy #40
         bcc -
*        lda #$22               ; the display on: the program may have it off
         sta SDMCTL
         sta DMACTL
failhook:
         jsr ehook
         ldy err
         sec
         rts
; A / Y: the digit, stored at linebuf,x; A the rest
digit:   sty sum
         ldy #'0
*        cmp sum
         bcc +
         sbc sum
         iny
         bne -
*        pha
         tya
         sta linebuf,x
         inx
         pla
         rts

msgtab:  .word msg_wprot, msg_full, msg_ioerr, msg_state, msg_reset, msg_done
msg_wprot:
         .byte "THE DISK IS WRITE-PROTECTED. WHAT IS RECORDED IS KEPT: "
         .byte "UNPROTECT IT AND BOOT AGAIN.", 0
msg_full:
         .byte "THE RECORD FILE ON THIS DISK IS FULL. WHAT IS RECORDED IS KEPT.", 0
msg_ioerr:
         .byte "DISK I/O ERROR ", 0
msg_state:
         .byte "THIS DISK'S RECORDING STATE IS DAMAGED: NOTHING RUNS.", 0
msg_reset:
         .byte "STOPPED BY RESET. WHAT IS RECORDED IS KEPT: BOOT AGAIN TO GO ON.", 0
msg_done:
         .byte "ALL PROGRAMS ON THIS DISK HAVE RUN: THEIR RECORDS ARE ON IT.", 0
trailhead:
         .byte "REC "

; ==================================================================================
; the disk's tables (tables.s, written by recording.py)
; ==================================================================================
.include "tables.s"

; ==================================================================================
; resident variables and buffers
; ==================================================================================
; the state, as in a state sector (recording.py reads the same layout)
st:      .byte "A8RS"           ; magic
st_ver:  .byte 1                ; format
st_nprog:.byte NPROGRAMS
st_seq:  .word 0                ; commits so far; the higher of the two sectors wins
st_count:.word 0                ; records committed
st_next: .word 0                ; the next record's first sector (0: the file is full)
st_prog: .byte 0                ; the program running (NPROGRAMS: all have run)
st_boots:.byte 0
st_pos:  .advance st_pos+24     ; 8 x (sector low, high, offset): 0 = none
st_sum:  .word 0                ; stcheck of the bytes before
.checkpc [st+ST_LEN]

mode:    .byte 0
failmsg: .byte 0
failmode:.byte 0
err:     .byte 0                ; the status that stopped the run (0: none)
st_cur:  .byte 0                ; 0: sector A holds the state, 1: B
stnew:   .byte 0
nrun:    .byte 0                ; the run of RECORDS.TXT that holds st_next
savex:   .byte 0
esavex:  .byte 0
chx:     .byte 0
putbyte: .byte 0
count:   .byte 0
sum:     .word 0
srvpos:  .byte 0
barcnt:  .byte 0
rtag:    .word 0                ; the sector in rbuf (0: none)
wopen:   .byte 0                ; 2: a record is open
wsec:    .word 0                ; the record's current sector
wrun:    .byte 0
wpos:    .byte 0                ; bytes in wbuf
wlen:    .byte 0,0,0            ; the record's length
nxt:     .word 0
nxtrun:  .byte 0
wname:   .advance wname+11
pname:   .advance pname+11
; per channel (IOCB / 16): 0 closed, 1 reading, 2 writing; the sector, offset,
; the resume slot (3 x n + 3), a jump pending after line 1, the loading bar
chopen:  .advance chopen+8
chseclo: .advance chseclo+8
chsechi: .advance chsechi+8
chpos:   .advance chpos+8
chres:   .advance chres+8
chjump:  .advance chjump+8
chbar:   .advance chbar+8
etab:    .advance etab+16       ; the E: vector table, GET BYTE hooked
rbuf:    .advance rbuf+SECSIZE  ; the sector read
wbuf:    .advance wbuf+SECSIZE  ; the record sector being filled
; the line served to BASIC shares the record buffer: it is made only while no
; record is being written (a RUN line between programs, a message once the run
; has stopped and H: writes no more) and served before the next record begins
.alias linebuf wbuf
.alias LINEMAX 96
resident_end:

; ==================================================================================
; init: once per boot, from the boot code (above MEMLO: BASIC takes it later)
; ==================================================================================
init:    ldx #0                 ; the handler table's devices, before H:
         ldy #0
*        lda HATABS,x
         beq +
         sta devices,y
         iny
*        inx
         inx
         inx
         cpx #HATABS_END
         bcc --
         lda #0
         sta devices,y
         jsr setmemlo
         jsr hinst
         lda #<STATEA           ; the state: the valid sector with the higher number
         sta secnum
         lda #>STATEA
         sta secnum+1
         jsr readstate
         bcs +
         jsr takestate
         lda #0
         sta st_cur
         inc found
*        lda #<STATEB
         sta secnum
         lda #>STATEB
         sta secnum+1
         jsr readstate
         bcs noB
         lda found
         beq takeB
         lda st_seq+1           ; B only if its number is higher
         cmp rbuf+7
         bcc takeB
         bne noB
         lda st_seq
         cmp rbuf+6
         bcs noB
takeB:   jsr takestate
         lda #1
         sta st_cur
         inc found
noB:     lda err
         bne initend            ; an I/O error
         lda found
         bne +
         lda #M_STATE
         ldy #0
         jmp fail
*        lda st_prog
         cmp #NPROGRAMS
         bcc +
         lda #M_DONE
         ldy #ST_BREAK
         jmp fail
*        ldx #0                 ; the run of RECORDS.TXT holding st_next
         ldy #0
findrun: lda st_next+1
         cmp runs+1,y
         bcc +
         bne fr2
         lda st_next
         cmp runs,y
         bcc +
fr2:     lda runs+3,y
         cmp st_next+1
         bcc +
         bne foundrun
         lda runs+2,y
         cmp st_next
         bcs foundrun
*        iny
         iny
         iny
         iny
         inx
         cpx #NRUNS
         bcc findrun
         ldx #0                 ; none (0: the file is full; recbegin says so)
foundrun:
         stx nrun
         jsr recbegin           ; the machine record
         bcs initend
         jsr machine
         ldy #10
*        lda machname,y
         sta wname,y
         dey
         bpl -
         inc st_boots
         jsr recfinish
         bcs initend
         lda #MSTART
         sta mode
         jsr ehook
initend: rts

; sector secnum into rbuf, checked as a state sector; carry set if not one
readstate:
         lda #<rbuf
         ldy #>rbuf
         ldx #'R
         jsr sector
         bpl +
         lda #M_IOERR
         jmp fail
*        ldx #3
*        lda rbuf,x
         cmp st,x
         bne badstate
         dex
         bpl -
         lda rbuf+4
         cmp #1
         bne badstate
         lda rbuf+5
         cmp #NPROGRAMS
         bne badstate
         lda #<rbuf
         ldy #>rbuf
         jsr stcheck
         lda sum
         cmp rbuf+ST_LEN-2
         bne badstate
         lda sum+1
         cmp rbuf+ST_LEN-1
         bne badstate
         clc
         rts
badstate:
         sec
         rts
takestate:
         ldy #[ST_LEN-1]
*        lda rbuf,y
         sta st,y
         dey
         bpl -
         rts

; the machine record's text
machine: lda #<mt_head
         ldy #>mt_head
         jsr mstr
         lda st_boots
         clc
         adc #1
         jsr mhex
         lda #<mt_prog
         ldy #>mt_prog
         jsr mstr
         lda st_prog
         clc
         adc #'1
         jsr recput
         lda #<mt_tv
         ldy #>mt_tv
         jsr mstr
         lda PAL
         and #$0E
         beq ispal
         lda #<mt_ntsc
         ldy #>mt_ntsc
         bne tvname
ispal:   lda #<mt_pal
         ldy #>mt_pal
tvname:  jsr mstr
         lda PAL
         jsr mhex
         lda #<mt_os
         ldy #>mt_os
         jsr mstr
         lda #$EE
         ldy #$FF
         ldx #12
         jsr mbytes
         lda #<mt_osc
         ldy #>mt_osc
         jsr mstr
         lda #$00
         ldy #$C0
         ldx #2
         jsr mbytes
         lda #<mt_fcd8
         ldy #>mt_fcd8
         jsr mstr
         lda #$D8
         ldy #$FC
         ldx #1
         jsr mbytes
         lda #<mt_ossum
         ldy #>mt_ossum
         jsr mstr
         lda #$C0
         ldx #$D0
         jsr msum
         lda #<mt_ossum2
         ldy #>mt_ossum2
         jsr mstr
         lda #$D8
         ldx #$00
         jsr msum
         lda #<mt_basic
         ldy #>mt_basic
         jsr mstr
         lda #$E2
         ldy #$A8
         ldx #1
         jsr mbytes
         lda #<mt_bffa
         ldy #>mt_bffa
         jsr mstr
         lda #$FA
         ldy #$BF
         ldx #6
         jsr mbytes
         lda #<mt_a000
         ldy #>mt_a000
         jsr mstr
         lda #$00
         ldy #$A0
         ldx #32
         jsr mbytes
         lda #<mt_bsum
         ldy #>mt_bsum
         jsr mstr
         lda #$A0
         ldx #$C0
         jsr msum
         lda #<mt_memlo
         ldy #>mt_memlo
         jsr mstr
         lda MEMLO+1
         jsr mhex
         lda MEMLO
         jsr mhex
         lda #<mt_memtop
         ldy #>mt_memtop
         jsr mstr
         lda MEMTOP+1
         jsr mhex
         lda MEMTOP
         jsr mhex
         lda #<mt_hatabs
         ldy #>mt_hatabs
         jsr mstr
         lda #<devices
         ldy #>devices
         jsr mstr
         lda #EOL
         jmp recput

; the 0-terminated text at A/Y into the record
mstr:    sta zps
         sty zps+1
         lda #0
         sta mi
*        ldy mi
         lda (zps),y
         beq +
         jsr recput
         inc mi
         bne -
*        rts
; A in hex
mhex:    pha
         lsr
         lsr
         lsr
         lsr
         jsr +
         pla
         and #15
*        cmp #10
         bcc +
         adc #6
*        adc #'0
         jmp recput
; X bytes from A/Y, each as " hh"
mbytes:  sta mp
         sty mp+1
         stx mn
         lda #0
         sta mi
*        lda #32
         jsr recput
         lda mp
         sta zps
         lda mp+1
         sta zps+1
         ldy mi
         lda (zps),y
         jsr mhex
         inc mi
         dec mn
         bne -
         rts
; " hhhhhhhh": the check of pages A up to X (not included), see checksum
msum:    jsr checksum
         lda #32
         jsr recput
         lda s2+1
         jsr mhex
         lda s2
         jsr mhex
         lda s1+1
         jsr mhex
         lda s1
         jmp mhex
; a ROM's check: s1 the sum of its bytes, s2 the sum of s1 after each byte
; (both mod 65536), from page A up to page X (0: to the end of memory)
checksum:
         sta zps+1
         stx mn
         lda #0
         sta zps
         sta s1
         sta s1+1
         sta s2
         sta s2+1
         tay
*        lda (zps),y
         clc
         adc s1
         sta s1
         bcc +
         inc s1+1
*        lda s2
         clc
         adc s1
         sta s2
         lda s2+1
         adc s1+1
         sta s2+1
         iny
         bne --
         inc zps+1
         lda zps+1
         cmp mn
         bne --
         rts

found:   .byte 0
mi:      .byte 0
mn:      .byte 0
mp:      .word 0
s1:      .word 0
s2:      .word 0
devices: .advance devices+13
machname:.byte "(MACHINE)  "
mt_head: .byte "MACHINE 1", EOL, "BOOT ", 0
mt_prog: .byte " PROGRAM ", 0
mt_tv:   .byte EOL, "TV ", 0
mt_ntsc: .byte "NTSC D014 ", 0
mt_pal:  .byte "PAL D014 ", 0
mt_os:   .byte EOL, "OS FFEE", 0
mt_osc:  .byte EOL, "OS C000", 0
mt_fcd8: .byte " FCD8", 0
mt_ossum:.byte EOL, "OS SUM C000-CFFF", 0
mt_ossum2:
         .byte " D800-FFFF", 0
mt_basic:.byte EOL, "BASIC A8E2", 0
mt_bffa: .byte " BFFA", 0
mt_a000: .byte EOL, "BASIC A000", 0
mt_bsum: .byte EOL, "BASIC SUM A000-BFFF", 0
mt_memlo:.byte EOL, "MEMLO ", 0
mt_memtop:
         .byte " MEMTOP ", 0
mt_hatabs:
         .byte EOL, "HATABS ", 0
init_end:
