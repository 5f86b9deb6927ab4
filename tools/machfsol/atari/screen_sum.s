; screen_sum.s -- a checksum of the whole text screen, for the test mode: after each
; of its steps the game records what the screen shows in one 16-bit number, which
; machfsol verify holds to the engine's table drawn the game's way
; (machfsol/atari/screen_model.py computes the same sum).
;
; Assembled with Ophis by machfsol/atari/screen_sum.py, which puts the bytes in a
; string constant of the test mode's overlay (basic_src/machfsol.bas, the #T lines):
;
;     X=USR(S)   S = ADR of the string: the sum of the 960 bytes of GRAPHICS 0's
;                screen memory (from SAVMSC), low byte the first sum, high the second
;
; The sum is Fletcher's: two running sums modulo 255, the first of the bytes, the
; second of the first's values after each byte, so that a changed byte, or two bytes
; swapped, changes it. Each sum is kept in 8 bits with the carry added back (ones'
; complement addition: 255 and 0 are the same number, and the sum never leaves 0-255).
;
; It runs in its string (position independent) and uses BASIC's floating point
; register FR0 and after ($D4-$D9) as scratch, which any USR routine may.

.alias SAVMSC  $58
.alias FR0     $D4

.alias first   $D4      ; the sums (FR0: USR's result)
.alias second  $D5
.alias ptr     $D6      ; 2 bytes: the screen byte at Y
.alias left    $D8      ; 2 bytes: bytes still to add

.text
.org $0500
sum:     pla                    ; no argument
         lda SAVMSC
         sta ptr
         lda SAVMSC+1
         sta ptr+1
         lda #<960
         sta left
         lda #>960
         sta left+1
         lda #0
         sta first
         sta second
         tay
next:    lda (ptr),y
         clc
         adc first
         adc #0
         sta first
         clc
         adc second
         adc #0
         sta second
         iny
         bne count
         inc ptr+1
count:   lda left
         bne +
         dec left+1
*        dec left
         lda left
         ora left+1
         bne next
         rts
sumend:
