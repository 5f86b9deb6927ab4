; display.s -- shows only the top lines of the text screen while MACHFSOL draws the
; rest (basic_src/machfsol.bas, line 10180): a display list cut short, and made whole.
;
; Assembled with Ophis by machfsol/atari/display.py, which puts the bytes in a string
; constant of the BASIC program:
;
;     X=USR(S,A,K)   S = ADR of the string, A the display list of the GRAPHICS 0
;                    screen (PEEK(560)+256*PEEK(561)), K the text lines to show:
;                    1 to 10 shows lines 0 to K-1 and no more; 24 shows them all
;
; Why: ANTIC's fetches for a full text screen take about a third of the CPU's
; cycles from BASIC on the real machine. Lines not shown cost nothing. While the
; game works out and draws a new deal, or sets itself up, the title and the status
; stay on the screen (they say the game is at work) and the rest is drawn unseen,
; half again as fast; then the whole table appears at once.
;
; How: the OS's GRAPHICS 0 display list is 3 blank-line instructions, line 0 with its
; screen address (bytes 3-5), lines 1-23 one byte each ($02, bytes 6-28), then a jump
; back ($41 and the list's address). To show K lines the byte of line K becomes that
; same jump ($41, then the address in the two bytes after it); to show all, lines
; 1-23 are $02 again. ANTIC reads the list while it shows the screen, so the bytes are
; written only while it is below the lines they change and far from the frame's end
; (VCOUNT, the scanline counter halved, from 56 to 110: text line 11 to the end of the
; screen, before the vertical blank): it never reads a list half written. (Lines 11-23
; are only ever written with the $02 they hold.) The keyboard interrupt is held off
; meanwhile, some 300 cycles.
;
; It runs in its string, wherever BASIC keeps the program (position independent), and
; uses BASIC's floating point register FR0 and after ($D4-$D6) as scratch, which any
; USR routine may. No byte of it may be a quote, an end of line or a screen editor
; control: display.py checks.

.alias VCOUNT  $D40B    ; ANTIC's scanline counter, halved
.alias FR0     $D4

.alias list    $D4      ; 2 bytes: the display list (FR0, once USR's address is used)
.alias lines   $D6      ; K

.alias FIRST   6        ; the byte of line 1
.alias LAST    28       ; the byte of line 23
.alias MODE2   $02      ; a text line
.alias JVB     $41      ; jump back to the list's start, after the vertical blank
.alias ALL     24
.alias SAFE    56       ; VCOUNT from which ANTIC is below line 10 of the text
.alias LATE    110      ; and till which the writes end before the vertical blank

.text
.org $0500
display: pla                    ; the argument count (2)
         pla                    ; A, high byte first
         sta list+1
         pla
         sta list
         pla                    ; K
         pla
         sta lines
*        lda VCOUNT             ; wait for ANTIC to be where it reads no line it
         cmp #SAFE              ; is about to change
         bcc -
         cmp #LATE
         bcs -
         sei
         lda #MODE2             ; every line shown...
         ldy #FIRST
         ldx #[LAST - FIRST + 1]
*        sta (list),y
         iny
         dex
         bne -
         lda lines              ; ...or the list ends after line K-1
         cmp #ALL
         bcs done
         adc #[FIRST - 1]       ; (the carry is clear)
         tay
         lda #JVB
         sta (list),y
         iny
         lda list
         sta (list),y
         iny
         lda list+1
         sta (list),y
done:    cli
         rts
displayend:
