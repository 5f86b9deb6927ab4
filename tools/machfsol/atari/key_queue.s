; key_queue.s -- keys typed ahead, kept in order: the keyboard queue of MACHFSOL.1
; and MACHFSOL.2 (basic_src/machfsol.bas, lines 10150-10155).
;
; Assembled with Ophis by machfsol/atari/key_queue.py, which makes two string
; constants of the BASIC program: the installer, I = ADR("<installer>"), and the
; resident part, R = ADR("<resident>") (XORed with a one-byte key, see below):
;
;     X=USR(I,1,Q,R)  install, with the queue at Q (256 bytes: a string of the
;                     program, Q=ADR(KQ$)); installed already, only the queue moves
;                     (its keys are dropped)
;     X=USR(I,0)      remove: the OS's own keyboard and vertical-blank routines back
;     X=USR(I,2,C)    queue key code C as if it had been typed: 1 if taken, 0 if full
;
; The keys waiting: PEEK(203)-PEEK(204) (mod 256) in the queue, and one in CH
; unless PEEK(764)=255.
;
; Why: the OS keeps one key, in CH ($02FC). Its keyboard interrupt routine stores
; each key there, over the one before if the program has not read it yet: a person
; typing while the game works (3 to 12 keys a second) loses keys. Here the OS still
; reads the keyboard, debounces it and turns codes into characters, but CH becomes
; the head of a queue of 255 keys:
;
; * The keyboard interrupt (VKEYBD) comes here first. The key in CH, if any (one the
;   queue handed to the OS and the program has not read yet), is set aside on the
;   stack and CH emptied; the OS's own routine runs (called with a return frame that
;   brings its RTI back here); the key it stored in CH, if it stored one, goes to
;   the end of the queue, and the key set aside back into CH. A full queue refuses
;   the new key with a short tone instead of losing an older one. The HELP key,
;   which the XL OS flags in HELPFG instead of storing it in CH, is queued as
;   SHIFT-/ ("?").
; * The immediate vertical blank (VVBLKI: every frame, even while CRITIC is set or
;   the disk is busy) hands the next queued key to the OS when CH is empty, so the
;   program's GET from K: (or INPUT) reads the keys one by one, in the order they
;   were typed, through the OS's own routine (its key click, CAPS, inverse, SHIFT
;   and CONTROL as always). It also ends the tone.
; * A key is handed over only once CH has been seen empty at two vertical blanks
;   in a row since the last key handed over (calm's bits 7 and 6); a key typed
;   while the program has been waiting longer goes to CH at once, in the keyboard
;   interrupt. Why: the XL OS's GET takes the key from CH and empties it, and after
;   a key it acts on itself and does not return (CAPS, SHIFT-CAPS, CTRL-CAPS, the
;   inverse key, CTRL-F3) it empties CH once more, some 60 cycles later, before it
;   waits again (XL OS rev. 2, its label IGN): a key handed over in between was
;   lost (CAPS, then N typed ahead: the N). Of two blanks, the second comes a frame
;   after the take (docs/notes/2026-12-03-keys-after-caps.md).
; * The OS's key repeat is off while the queue is installed (KRPDEL 0): its
;   vertical blank would store a repeated key straight in CH, over a key handed to
;   the OS and not read yet; and keys typed ahead are no place for a key held down.
;
; Where it lives: the resident part, at most 131 bytes, in the cassette buffer ($03FD-$047F),
; which only the cassette handler and the OS's boot use; its state, seven bytes, in
; page zero at $CB-$D1, which the OS and BASIC leave to the user. The installer runs
; in its string (position independent: FR0 holds its address) and copies the
; resident part in. RESET puts the OS's vectors back by itself; the program removes
; the hooks before it ENTERs lines (which would move the queue, a string of the
; program) and before it ends.
;
; No byte of the installer may be a quote, an end of line or a screen editor
; control (see shuffle.py's FORBIDDEN), nor of the resident part once XORed with
; its key: key_queue.py checks, and picks the key.

; --- OS locations -------------------------------------------------------------
.alias CH      $02FC    ; the key code the OS hands to K: ($FF: none)
.alias VKEYBD  $0208    ; keyboard interrupt vector
.alias VVBLKI  $0222    ; immediate vertical blank vector
.alias KRPDEL  $02D9    ; XL OS: frames before a held key repeats (0: never)
.alias HELPFG  $02DC    ; set by the XL OS when HELP is pressed
.alias SETVBV  $E45C    ; sets a VBI vector safely: A=6 immediate, Y low, X high
.alias SYSVBV  $E45F    ; the OS's immediate vertical blank routine
.alias AUDF1   $D200
.alias AUDC1   $D201
.alias FR0     $D4      ; USR: the string's address (and the result)

.alias NOKEY    $FF
.alias HELPKEY  $66     ; SHIFT-/: "?"
.alias TONEFREQ $51
.alias TONEVOL  $A8     ; pure tone, volume 8
.alias TONELEN  12      ; frames
.alias IMMEDIATE 6
.alias REPEAT   48      ; KRPDEL as the XL OS sets it (NTSC; PAL 40)

; --- the state: page zero, which the OS and BASIC leave to the user ($CB-$D1) ---------
; (the keyboard interrupt keeps X in savex rather than on the stack: its key set
; aside is there, under the frame it calls the OS with)
.alias head    $CB      ; where the next key goes
.alias tail    $CC      ; the next key to hand to the OS
.alias calm    $CD      ; bit 7: CH was empty at the last vertical blank, bit 6: at the
                        ; one before (a key handed over shifts them down, and so
                        ; does the keyboard interrupt while it moves keys)
.alias tone    $CE      ; frames the refusal tone still sounds
.alias oskey   $CF      ; 2 bytes: VKEYBD as it was, the OS's keyboard routine
.alias savex   $D1      ; the interrupted program's X, while the keyboard routine runs

; --- the installer's scratch: BASIC's FR0 and after, free during USR -----------------
.alias mode    $D6      ; the call's mode
.alias value   $D7      ; 2 bytes: the queue's address, or the key code
.alias image   $D9      ; 2 bytes: the resident part's string
.alias home    $DB      ; 2 bytes: where it goes

; --- the installer: runs in its string ---------------------------------------------
; (assembled as if the string were at $0500; it jumps and branches only within
; itself, and addresses only the resident part, the OS and page zero)
.text
.org $0500
installer:
         pla                    ; the argument count: 1 to 3
         tax
         pla                    ; the mode (high byte, then low)
         pla
         sta mode
         dex
         beq dispatch
         pla                    ; the value
         sta value+1
         pla
         sta value
         dex
         beq dispatch
         pla                    ; the resident part's string
         sta image+1
         pla
         sta image
dispatch:
         lda #0
         sta FR0+1              ; (the result's high byte)
         lda mode
         beq remove
         cmp #2
         beq push
         bcc install            ; (mode 1)
out:     rts                    ; (any other mode: nothing)

; mode 2: queue a key (X=USR(I,2,C)): 1 if taken, 0 if the queue is full
push:    sei
         ldx #0
         ldy head
         iny
         cpy tail
         beq full
         dey
         lda p_q1+1             ; the queue's address, as the resident part has it
         sta home
         lda p_q1+2
         sta home+1
         lda value
         sta (home),y
         iny
         sty head
         jsr feed               ; (at once, if CH sat empty two vertical blanks)
         ldx #1
full:    stx FR0
         cli
         rts

; mode 0: remove
remove:  lda VKEYBD
         eor #<keyirq
         bne out                ; not installed
         lda VKEYBD+1
         eor #>keyirq
         bne out
         sei
         lda oskey
         sta VKEYBD
         lda oskey+1
         sta VKEYBD+1
         lda #REPEAT
         sta KRPDEL
         lda #0
         sta AUDC1
         cli
         ldy #<SYSVBV
         ldx #>SYSVBV
         lda #IMMEDIATE
         jmp SETVBV

; mode 1: install, or move the queue
install: sei                    ; no key while the queue moves
         lda VKEYBD
         eor #<keyirq
         bne copy
         lda VKEYBD+1
         eor #>keyirq
         beq setq               ; installed already: only the queue moves
copy:    ldx #<[resident - 1]   ; home = resident (its low byte, $FD, is one no
         inx                    ; string may hold)
         stx home
         lda #>resident
         sta home+1
         ldy #0
*        lda (image),y          ; the resident part home, the XOR undone
p_key:   eor #0                 ; (key_queue.py patches the key)
         sta (home),y
         iny
         cpy #[residentend - resident]
         bne -
         lda VKEYBD             ; the OS's keyboard routine, which it calls on
         sta oskey
         lda VKEYBD+1
         sta oskey+1
         lda #TONEFREQ          ; the refusal tone's pitch, once for all
         sta AUDF1
         lda #0
         sta HELPFG
         sta calm               ; (a key handed over after two vertical blanks)
         sta tone
         sta KRPDEL
         lda #<keyirq
         sta VKEYBD
         lda #>keyirq
         sta VKEYBD+1
         ldy #<vbi
         ldx #>vbi
         lda #IMMEDIATE
         jsr SETVBV
setq:    lda value              ; the queue's address into the two instructions
         sta p_q1+1             ; that use it; the queue starts empty
         sta p_q2+1
         lda value+1
         sta p_q1+2
         sta p_q2+2
         lda #0
         sta head
         sta tail
         cli
         rts

installerend:

; --- the resident part: in the cassette buffer ---------------------------------------
.org $03FD
resident:

; (what the keyboard interrupt does once the OS's routine has run: below, at
; keyirq; here first, as the installer's string may not name the address $03FD)
after:   stx savex
         lda HELPFG             ; HELP: queued as "?"
         beq +
         lda #0
         sta HELPFG
         lda #HELPKEY
         bne new
*        lda CH                 ; the key the OS stored, if any
         cmp #NOKEY
         beq back
new:     ldx head               ; into the queue's free slot (one is always free:
p_q1:    sta $0100,x            ; the installer sets the queue's address), which
         inx                    ; becomes the queue's end if there is room
         cpx tail
         beq refuse
         stx head
back:    pla
         sta CH                 ; the key set aside back
         asl calm               ; the vertical blanks seen as they were (one that
         jsr feed               ; came meanwhile, as if CH was full); a program
         ldx savex              ; waiting long enough gets the next key at once
         pla                    ; the dispatcher's A
         rti
refuse:  lda #TONELEN           ; full: the key is refused, audibly (a tone of
         sta tone               ; the pitch the installer set, for TONELEN frames)
         lda #TONEVOL
         sta AUDC1
         bne back

; The next queued key to the OS, once CH was seen empty at the last two vertical
; blanks (and so is now: a key in CH clears bit 7 until it is read).
feed:    bit calm
         bpl +
         bvc +
         ldx tail
         cpx head
         beq +
p_q2:    lda $0100,x
         sta CH
         inx
         stx tail
         lsr calm               ; two blanks with CH empty before the next one
*        rts

; The immediate vertical blank, every frame: whether CH is empty noted, a queued key
; to the OS, the tone's end.
vbi:     lda CH
         cmp #NOKEY             ; (carry: CH is empty)
         ror calm
         jsr feed
         ldx tone
         beq +
         dex
         stx tone
         bne +
         stx AUDC1
*        jmp SYSVBV
; The keyboard interrupt. The OS's dispatcher has pushed A; its keyboard routine
; ends with PLA and RTI. It is called with a frame of our own on top (a return
; address here, the status, a stand-in A), so that its RTI comes back to "after".
keyirq:  lsr calm               ; (first: a vertical blank from here on, which sees
         lda CH                 ; CH as this routine leaves it, hands no key over)
         pha                    ; a key handed to the OS and not read yet, set aside
         lda #NOKEY
         sta CH
         lda #>after
         pha
         lda #<after
         pha
         php
         pha
         jmp (oskey)
residentend:
