; packed.s -- the unpacker of a packed program, run from the boot menu's loader.
;
; Assembled with Ophis by a8/disk/packed.py, with "loader.inc" written from the
; boot loader's label map (boot.s: its routines, variables and buffer) and
; "signature.inc" holding the first bytes of the loader's sector reader.
;
; A packed program is one DOS 2 file: a small BASIC program, the stub, whose
; SAVE bytes are followed in the same file by the packed stream (a8/disk/lz.py).
; The boot menu's loader LOADs the stub as it loads any program, and stops at
; the stub's last byte: its sector buffer, position and next sector still say
; where the stream goes on. The stub's line 0 runs this code:
;
;     0 A=ADR("<the mover, the code's start>")
;     1 B=ADR("<the code's end>")
;     2 E=USR(A,A,B):IF E=0 THEN RUN "E:"
;
;  1. The mover (where BASIC keeps the string: it only uses the addresses it is
;     given) copies the code to $0580-$06FF (a line is at most 255 bytes: the
;     code takes two).
;  2. The unpacker checks that the boot loader is there (its sector reader's
;     bytes at their place): loaded from DOS, the stub says it needs the menu.
;  3. It reads the stream on from the loader's buffer, sector by sector with the
;     loader's own reader (which draws the loading bar), and writes the program
;     just under MEMTOP, the top of free memory.
;  4. It hooks E: again with the loader's table, but for GET BYTE, which now
;     serves the unpacked program from memory, and returns 0.
;  5. BASIC runs RUN "E:": it LOADs the program from that GET BYTE over the
;     stub (downwards in memory: a byte is read before a lower one is written)
;     and runs it. The loader's CLOSE puts the editor back once a byte was served.
;
; USR returns 1 if the loader is not there, 2 if the stream is damaged, 3 if the
; program does not fit, or the SIO status of a sector that could not be read.

.include "loader.inc"

.alias ICCOMZ  $22      ; CIO's zero-page IOCB: command, buffer, length left
.alias ICBALZ  $24
.alias ICBLLZ  $28
.alias ICIDNO  $2E      ; the X register CIO was called with
.alias APPMHI  $0E      ; the top of what BASIC uses
.alias MEMTOP  $02E5    ; the top of free memory
.alias DSTATS  $0303
.alias GETCHARS 7
.alias FR0     $D4      ; USR's result
.alias FIRST   180      ; the bytes at $0580 that the first string carries

; zero page while the unpacker runs (BASIC's floating-point registers, free in
; a USR routine)
.alias ptr     $E0      ; the mover's source
.alias dst     $E0      ; where the next byte goes
.alias src     $E2      ; where a copy reads
.alias left    $E4      ; bytes still to write
.alias start   $E6      ; the unpacked program's first byte
.alias savesp  $E8      ; the stack as BASIC called us
.alias count   $E9
.alias kind    $EA      ; a copy's token
; zero page while BASIC loads: the loader's own, no longer needed
.alias from    L_BUFPOS ; the next byte to serve (two bytes)

.text
.org $0500              ; any: the mover runs where BASIC keeps the first string
mover:   pla                    ; the number of arguments (2)
         pla                    ; the first string's address
         sta ptr+1
         pla
         sta ptr
         pla                    ; the second's
         sta src+1
         pla
         sta src
         ldy #moverend-mover
*        lda (ptr),y
         sta unpack-[moverend-mover],y
         iny
         cpy #[moverend-mover+FIRST]
         bne -
         ldy #0
*        lda (src),y
         sta unpack+FIRST,y
         iny
         cpy #[codeend-unpack-FIRST]
         bne -
         jmp unpack
moverend:

; The rest runs at $0580-$06FF: BASIC's line buffer, free until BASIC reads a
; line again, and page 6, where GET BYTE stays while BASIC loads the program.
.org $0580
unpack:  tsx
         stx savesp
         ldy #siglen-1          ; the boot loader's sector reader in its place?
sigloop: lda L_READSEC,y
         cmp signature,y
         beq +
         lda #1                 ; no: loaded from DOS, or another loader
         jmp return
*        dey
         bpl sigloop
         jsr input              ; the program's length
         sta left
         jsr input
         sta left+1
         sec                    ; its place: under MEMTOP, above what BASIC uses
         lda MEMTOP
         sbc left
         sta dst
         sta start
         lda MEMTOP+1
         sbc left+1
         sta dst+1
         sta start+1
         bcc toolarge
         lda dst
         cmp APPMHI
         lda dst+1
         sbc APPMHI+1
         bcs token
toolarge:lda #3
         bne return
damaged: lda #2
return:  ldx savesp             ; back to BASIC from any depth
         txs
         sta FR0
         lda #0
         sta FR0+1
         rts

; X bytes more are written: take them from what is left (damaged if too many)
take:    stx count
         sec
         lda left
         sbc count
         sta left
         bcs +
         lda left+1
         beq damaged
         dec left+1
*        rts

; the next byte of the stream in A (X kept): from the loader's buffer, which its
; sector reader fills with the file's next sector
input:   ldy L_BUFPOS
         cpy L_BUFUSED
         bcc +
         lda L_NEXTLO
         ora L_NEXTHI
         beq damaged            ; the file ends before the program
         txa
         pha
         jsr L_READSEC
         pla
         tax
         lda DSTATS
         bcs return
         ldy #0
*        lda L_BUFFER,y
         inc L_BUFPOS
         rts

token:   lda left
         ora left+1
         beq unpacked
         jsr input
         tax
         bmi copy
         inx                    ; 0-127: that many bytes + 1 as they are
         jsr take
*        jsr input
         ldy #0
         sta (dst),y
         inc dst
         bne +
         inc dst+1
*        dex
         bne --
         beq token

copy:    sta kind               ; 128-191: 2-65 bytes from 1-256 back,
         and #$3F               ; 192-255: 3-66 bytes from 1-65536 back
         tax
         inx
         inx
         jsr input
         sta src
         lda #0
         bit kind               ; (bit 6 into V)
         bvc +
         inx
         jsr input
*        sta src+1
         clc                    ; src = dst - distance - 1
         lda dst
         sbc src
         sta src
         lda dst+1
         sbc src+1
         sta src+1
         jsr take
         ldy #0
*        lda (src),y
         sta (dst),y
         iny
         dex
         bne -
         tya
         clc
         adc dst
         sta dst
         bcc token
         inc dst+1
         bcs token

unpacked:lda start              ; serve it: our GET BYTE in the loader's table,
         sta from               ; the loader's CLOSE unhooks after the load
         lda start+1
         sta from+1
         lda #<[get-1]
         sta L_HOOKTAB+4
         lda #>[get-1]
         sta L_HOOKTAB+5
         lda #<L_HOOKTAB
         ldy #>L_HOOKTAB
         jsr L_SETEDIT
         lda #0
         sta L_TRIES            ; (BASIC's CLOSEs before the load are ignored)
         jmp return

; GET BYTE while BASIC loads: the loader's shortcut (boot.s, "have"), from memory
get:     lda #1                 ; (CLOSE unhooks from now on)
         sta L_TRIES
         tax
         lda ICCOMZ-1,x         ; (its address is a quote: a string cannot hold it)
         cmp #GETCHARS
         bne one
         ldx ICBLLZ
         inx
         cpx L_LASTLEN
         bne one
         sec                    ; all wanted but the one served: whole pages,
         lda ICBLLZ             ; then the rest
         sbc #1
         sta L_COUNT
         lda ICBLLZ+1
         sbc #0
         tax
         ldy #0
         txa
         beq part
*        lda (from),y
         sta (ICBALZ),y
         iny
         bne -
         inc from+1
         inc ICBALZ+1
         dex
         bne -
part:    cpy L_COUNT
         beq moved
         lda (from),y
         sta (ICBALZ),y
         iny
         bne part
moved:   tya
         clc
         adc from
         sta from
         bcc +
         inc from+1
*        tya
         clc
         adc ICBALZ
         sta ICBALZ
         bcc +
         inc ICBALZ+1
*        lda #1
         sta ICBLLZ
         lda #0
         sta ICBLLZ+1
one:     ldy #0
         lda (from),y
         inc from
         bne +
         inc from+1
*        ldx ICBLLZ
         stx L_LASTLEN
         jmp L_OK

signature:
.include "signature.inc"
sigend:
.alias siglen sigend-signature
codeend:
