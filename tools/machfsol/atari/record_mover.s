; record_mover.s -- the mover of each record routine (record_file.s, record_keeper.s,
; record_lines.s include it where their code starts): USR jumps here, in the first
; string, with the string's address in FR0; it copies the rest of the first string and
; the second string, GAP bytes after the first in the tokenized program, to $0580 and
; jumps to the routine. Each part is XORed with the key string_code.py patches into
; p_key and p_key2. Then the start every routine shares (routine, $0580): USR's
; arguments pulled into op, op+2, ... a word each. The including source names op,
; pulled (where its own code goes on), split and last.

.alias GAP     13       ; the bytes between the two strings in the tokenized program
                        ; (the build checks: record_code.py)

.text
.org $0580 - 44
mover:   ldy #[routine - mover]     ; the first string: the mover, then part 1
copy1:   lda (FR0),y
p_key:   eor #0                     ; the key (record_code.py patches it)
         sta [$0580 - [routine - mover]],y
         iny
         cpy #[split - mover]
         bne copy1
         lda FR0                    ; the second string, GAP bytes after the first
         clc
         adc #<[split - mover + GAP]
         sta FR0
         lda FR0+1
         adc #>[split - mover + GAP]
         sta FR0+1
         ldy #0
copy2:   lda (FR0),y
p_key2:  eor #0
         sta split,y
         iny
         cpy #[last - split]
         bne copy2
         jmp routine

routine: pla                        ; the argument count
         tax
         ldy #0
pull:    dex
         bmi pulled
         pla                        ; high byte first
         sta op+1,y
         pla
         sta op,y
         iny
         iny
         bne pull
