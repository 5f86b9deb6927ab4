# MACHFSOL.1 and MACHFSOL.2: the two MAChFsol solitaires in Atari BASIC (rev C).
#
# One source for both games; tools/machfsol/basic_game.py generates each listing.
# Preprocessor: "# " lines are source-only comments (dropped); "#V1 " and "#V2 " lines
# are BASIC lines kept only in that variant's listing; "#T " lines are the test mode's
# own code, not in the program the disk carries: the program ENTERs them from H: in test
# mode only (7000; docs/GAME.md, "Test mode"). Everything else is plain BASIC.
# docs/GAME.md explains the keys and the test mode; docs/RULES.md is the rule book this
# program follows move for move (same places, same forced order, same policy), and
# docs/TRANSCRIPT.md the format of the transcripts the test mode writes.
#
# Speed: Atari BASIC looks for the target of every GOTO and GOSUB by walking the
# program's lines from the start, so the code that runs for every card movement
# (steps, forced steps, the policy) comes first, at low line numbers, and the set-up
# code last. Multiplications cost more than additions (C+C, not 2*C). On genuine BASIC
# rev. C every statement counts: an array element costs about a tenth to a quarter of a
# frame, and so does an IF with a comparison. A comparison is a floating-point
# subtraction, so a test for zero is written IF NOT X, not IF X=0 (NOT only looks at X).
#
# Places use the engine's numbers: 0 stock, 1 discard, 2-9 tableau T1-T8,
# 10-13 Ace piles S H C D, 14-17 King piles S H C D. A card is N = SUIT*NR+RANK.
#
# Main variables: N deck size, NR ranks per suit (NR1=NR-1), TS tableau size, V variant.
# D(1..N) dealing order, P next stock card, W(1..WN) discard pile, T(0..7) tableau
# (52: empty; EM empty spaces; every space below LO is filled), AN(S) the card Ace
# pile S needs next, KT(S) King pile S's top (-1: empty) and KH(S) its rank (KE when
# empty, see 113), UN(C) the card under card C in its King pile (-1: none), PT(C) the
# King pile whose top is card C (-1: none), FC cards on foundations.
# Per card: SU suit, RK rank, FF the forced foundation of an Ace or King
# (else 0), FA and FB the cards it may be put on in a King pile (52: none; PT(52) is
# always -1), TA and TB the cards that may be put on it (53: none), WT how many
# foundations take it now, IT in the tableau when it is GN (the deal's number).
# Kept by the steps for the policy (see 10): RC the tableau's cards a foundation takes
# ("rescues"), KA the suits whose Ace pile takes a King-pile top. US$ and UD$, characters
# 1..SN: every step made (the undo stack, see 10), NM the player's moves; RP=1 while undoing or
# replaying; AP=1 while autoplaying (196). LG=1 writes the lay-out's steps to #1.
# Place tables: PK(P) its kind (1 stock, 2 discard, 3 tableau, 4 Ace, 5 King pile),
# P3(P) where its name starts in PN$ (test mode).
#
# ------------------------------------------------------------ set-up loops (first: fastest)
#
# The set-up's loops run here, ahead of everything, because a NEXT finds its FOR's line
# by walking the lines from the start, like GOTO: at line 11000 each NEXT would walk the
# whole program (on genuine BASIC rev. C that walk costs about 2 frames).
#
# Lines 1-3 (from 11080): the card tables of the deck size, suit by suit (S), its cards
# C=J..J+NR1 of ranks 0..NR1 (their ranks RK and suits SU come from line 9 and 640, the
# rest from 11040). A card's two characters in CD$ (2C+1, 2C+2): the suit's ranks come
# at once from DL$ (line 9: from 1 as shown, from 27 in inverse video for a red suit,
# RD=1, every second character), which also makes CD$ as long as the suit's cards; then
# the suit's character from SN$ in every second place, and the King-pile tables FA, FB,
# TA, TB of the suit in MACHFSOL.2 (Y: FB(J), from BA+1578; TB, FA and TA 312, 624
# and 936 bytes on; TA from J+1) or of every card in MACHFSOL.1 (after
# the suits: FA(C)=C+1, TA(C)=C-1; FB and TB are 11045's), all by the 6502 routine of
# tools/machfsol/atari/series.s (Q, 11075): X=USR(Q,A,N,V,D,K) writes N items from
# address A, K bytes apart, the values V, V+D, V+2D...: BASIC numbers with K=6 (the
# arrays' addresses from BA as at 11040), bytes with another K. In MACHFSOL.2 suit S's
# first card J is followed in its King pile by FA(J)=X (1+NR in a black suit, 1 in a
# red one) and FB(J)=X+2NR, and goes on TA and TB, one rank up (TA(J) and TB(J) of an
# Ace are set at 640). The Aces and Kings are set apart at 640 (lines 1-3 go on there).
0 GOTO 10000:REM MACHFSOL - TWO SOLITAIRES
#V1 1 FOR S=0 TO 3:RD=(S=1 OR S=3):J=S*NR:CD$(J+J+1)=DL$(RD*26+1,RD*26+NR+NR)
#V2 1 FOR S=0 TO 3:RD=(S=1 OR S=3):J=S*NR:CD$(J+J+1)=DL$(RD*26+1,RD*26+NR+NR):X=1+NR*(1-RD):Y=BA+6*J+1578
#V1 2 G=USR(Q,ADR(CD$)+J+J+1,NR,ASC(SN$(S+1)),0,2)
#V2 2 G=USR(Q,ADR(CD$)+J+J+1,NR,ASC(SN$(S+1)),0,2):G=USR(Q,Y,NR,X+NR+NR,1,6):G=USR(Q,Y+312,NR,X+NR+NR-2,1,6)
#V1 3 NEXT S:X=USR(Q,BA+2202,N,1,1,6):X=USR(Q,BA+2520,N-1,0,1,6):GOTO 640
#V2 3 G=USR(Q,Y+624,NR,X,1,6):G=USR(Q,Y+942,NR1,X-1,1,6):NEXT S:GOTO 640
#
# ------------------------------------------------------------ autoplay's moves (first: fastest)
#
# Autoplay (AP=1, from 196) makes each move the policy chooses here, not in the policy's
# lines, and decides again: the RETURNs of its GOSUBs walk only the lines above. The
# policy makes its draws itself, in line (108, 126), so this is any move but a draw:
# after one the discard top cannot be an Ace or a King, so the forced steps start at 39.
# The policy's source is known, so the step is entered at its source's line (19 the
# discard top, 20 a tableau card, 12 a King-pile top; not through 11's ON PK(SR)): a
# tableau card (line 4) empties its space, which is filled at 39; after the discard top
# (5) or a King-pile top (6, from 151) there is nothing to fill (a space stays empty only
# while the stock and the discard pile are both empty), and no GOSUB.
4 NM=NM+1:F=0:ON SR GOTO 5:GOSUB 20:GOSUB 39:GOTO 101
5 GOSUB 19:GOTO 101
6 NM=NM+1:F=0:GOSUB 12:GOTO 101
#
# Line 8: only the screen's top Y9 lines shown (Y9 up to 10), or all (Y9=24): a 6502
# routine (tools/machfsol/atari/display.s) cuts the display list DL short or makes it
# whole. While a new deal or the first table is drawn, or the set-up works, the title
# and the status (and the boot menu's progress) stay on the screen and the rest is
# drawn unseen: ANTIC's fetches for a whole text screen take about a third of the real
# machine's cycles from BASIC.
8 X=USR(ADR("{CODE display.s}"),DL,Y9):RETURN
#
# Line 9 (from 11080): DL$, the deck's ranks as shown (L$), each followed by a place for
# the suit, and from 27 the same in inverse video; then the suits (1-3, which return).
9 FOR I=1 TO NR:DL$(I+I-1)=L$(I,I):DL$(I+I+25)=CHR$(ASC(L$(I))+128):NEXT I:DL$(52)=" ":GOTO 1
#
# ------------------------------------------------------------ moving cards
#
# Besides moving the card, a step keeps two indexes the policy reads: KT(K) the top card
# of King pile K (-1: empty) with PT(card) its inverse, and WT(card) how many foundations
# take that card now (Ace pile: the card AN(S); King pile: the cards TA/TB of its top).
# A card is "wanted" when WT>0. Empty tableau spaces hold 52, whose WT is always 0, and
# the unused entries of TA/TB hold 53, a WT slot nobody reads.
#
# And it keeps two counts, as it changes what they count, so that the policy need not
# look over the table after every move: RC, the tableau's wanted cards (a card is in the
# tableau while its IT is GN, the deal's number, so a new deal clears nothing: RC changes
# when a card comes or goes, 20 and 23, or when a card in the tableau becomes wanted or
# stops being wanted: G is the WT before a rise, after a fall), and KA, the suits whose
# Ace pile takes a King-pile top (AN(S)=card and PT(card)>=0: a card becoming a top or
# ceasing to be one, 12, 15, 25, 27, and an Ace pile needing its next card, 29). A deal
# counts both afresh (610, as V1=1 asks: the lay-out puts cards up without steps).
# KH(K), the rank of King pile K's top (KE when empty, see 651), is kept for the rescues'
# distance (113).
#
# The step also keeps the undo stack (RP=0): character SN of US$ is SR+F, of UD$ DS, for
# every step, the forced ones (F=32) too (two strings, 10045: no multiplication to keep
# it, no division to read it back, and a byte a step where an array's number takes 6:
# 2 KB more for a player's lines; a string's index costs no addition, as a PEEK of an
# address would, and ASC reads as fast as an array); a player's move is its own step (F=0) and the forced steps after it, so
# undo (47) reverses steps back to one with F=0. Nothing else is needed to reverse a step:
# the card is the top of its destination, and the step back is an ordinary step, with two
# kinds only undo uses (70: a card back down from an Ace pile, 58: back onto the stock).
10 REM STEP: CARD C FROM PLACE SR TO PLACE DS (F=32 IF FORCED, ELSE 0)
11 ON PK(SR) GOTO 18,19,20,70,12
12 K=SR-14:PT(C)=-1:T9=UN(C):KT(K)=T9:KA=KA-(AN(SU(C))=C):X=TA(C):G=WT(X)-1:WT(X)=G:IF NOT G THEN RC=RC-(IT(X)=GN)
13 X=TB(C):G=WT(X)-1:WT(X)=G:IF NOT G THEN RC=RC-(IT(X)=GN)
14 FC=FC-1:IF T9<0 THEN KH(K)=KE:GOTO 21
15 KH(K)=RK(T9):PT(T9)=K:KA=KA+(AN(SU(T9))=T9):X=TA(T9):G=WT(X):WT(X)=G+1:IF NOT G THEN RC=RC+(IT(X)=GN)
16 X=TB(T9):G=WT(X):WT(X)=G+1:IF NOT G THEN RC=RC+(IT(X)=GN)
17 GOTO 21
18 P=P+1:GOTO 21
19 WN=WN-1:GOTO 21
20 T(SR-2)=52:EM=EM+1:IT(C)=0:RC=RC-(WT(C)>0):IF SR-2<LO THEN LO=SR-2
21 ON PK(DS) GOTO 58,22,23,29,24
22 WN=WN+1:W(WN)=C:GOTO 31
23 T(DS-2)=C:EM=EM-1:IT(C)=GN:RC=RC+(WT(C)>0):GOTO 31
24 K=DS-14:FC=FC+1:T9=KT(K):UN(C)=T9:IF T9<0 THEN 27
25 PT(T9)=-1:KA=KA-(AN(SU(T9))=T9):X=TA(T9):G=WT(X)-1:WT(X)=G:IF NOT G THEN RC=RC-(IT(X)=GN)
26 X=TB(T9):G=WT(X)-1:WT(X)=G:IF NOT G THEN RC=RC-(IT(X)=GN)
27 PT(C)=K:KT(K)=C:KH(K)=RK(C):KA=KA+(AN(SU(C))=C):X=TA(C):G=WT(X):WT(X)=G+1:IF NOT G THEN RC=RC+(IT(X)=GN)
28 X=TB(C):GOTO 30
29 AN(DS-10)=C+1:FC=FC+1:WT(C)=WT(C)-1:KA=KA+(PT(C+1)>=0):X=C+1:IF RK(C)=NR1 THEN 31
30 G=WT(X):WT(X)=G+1:IF NOT G THEN RC=RC+(IT(X)=GN)
# The undo stack (not while undoing or replaying), then in keyboard play (DI=1) the two
# places shown (a space emptied is not shown empty when a card fills it at once, as the
# rules do when the discard pile or the stock has one; a foundation not while undo shows
# them all afterwards, WD=1: the won game's transfer undone). Keys typed meanwhile wait
# in the keyboard queue (10150).
31 IF NOT RP THEN SN=SN+1:US$(SN)=CHR$(SR+F):UD$(SN)=CHR$(DS):SM=SN
32 IF NOT DI THEN RETURN
33 Q=DS:GOSUB 51:Q=SR:IF WD THEN IF PK(SR)>3 THEN RETURN
34 IF PK(SR)=3 THEN IF NOT RP THEN IF WN OR P<=N THEN RETURN
35 GOTO 51
# Forced steps (38): an Ace or a King on the discard pile goes up; then (39) the lowest
# empty space is filled, from the discard pile, else the stock (an Ace or a King dealt
# there goes up at once). Only a card just drawn can be an Ace or a King on the discard
# pile (each one goes up as it is drawn), so 38 looks at the top once and the fills go
# on at 39. The steps are entered at their source's line (19 discard, 18 stock, 20
# tableau), and the fill from the discard pile is made in line (42: lines 19 and 23),
# then what every step does (31).
38 IF WN THEN C=W(WN):IF FF(C) THEN SR=1:DS=FF(C):F=32:GOSUB 19
39 IF NOT EM THEN RETURN
40 I=LO
41 IF T(I)<52 THEN I=I+1:GOTO 41
42 IF WN THEN C=W(WN):SR=1:DS=I+2:F=32:LO=I+1:WN=WN-1:T(I)=C:EM=EM-1:IT(C)=GN:RC=RC+(WT(C)>0):GOSUB 31:GOTO 39
43 IF P>N THEN RETURN
44 C=D(P):SR=0:DS=I+2:F=32:LO=I+1:GOSUB 18:IF FF(C) THEN SR=DS:DS=FF(C):GOSUB 20
46 GOTO 39
# Undo (47): the last move's steps reversed, the last first (its forced steps, then the
# move); after a win whose final transfer was shown (WD=1), the foundations shown again
# (76). RP=1 while it runs: the steps keep no undo entry, and a step shows no place of a
# foundation while WD=1 (33), as 76 shows them all. Here, right after the steps: its
# RETURNs and its loop walk few lines.
47 RP=(NM>0):IF NOT RP THEN LN$="NOTHING TO UNDO":GOTO 295
48 SR=ASC(UD$(SN)):DS=ASC(US$(SN)):SN=SN-1:F=0:IF DS>31 THEN DS=DS-32:F=32
49 GOSUB 60:GOSUB 10:IF F THEN 48
50 NM=NM-1:RP=0:X=WD:WD=0:ON X GOTO 76:RETURN
# 51 shows place Q: its top card (the stock: the cards left; the discard pile: its top and
# size). PX(Q),PY(Q): where place Q's card is on the screen, CE$ every card's two
# characters with -- before and after (card C at 2C+3: -1 and 52 show --), set by 6010,
# PX and PY by 10085 and 640. The discard pile's W(0) is -1.
51 POSITION PX(Q),PY(Q):ON PK(Q) GOTO 57,56,52,53,55
52 C9=T(Q-2):C9=C9+C9+3:PRINT CE$(C9,C9+1);:RETURN
53 C9=AN(Q-10)-1:IF C9<(Q-10)*NR THEN C9=-1
54 C9=C9+C9+3:PRINT CE$(C9,C9+1);:RETURN
55 C9=KT(Q-14):C9=C9+C9+3:PRINT CE$(C9,C9+1);:RETURN
56 C9=W(WN):C9=C9+C9+3:PRINT CE$(C9,C9+1);" (";WN;")  ";:RETURN
57 PRINT N-P+1;" ";:RETURN
# Undo only (from 21): the card goes back on the stock (it is still D(P-1)).
58 P=P-1:GOTO 31
60 REM C=TOP CARD OF PLACE SR, OR -1
# (The stock's: D(N+1) is -1, set by 11010.)
61 ON PK(SR) GOTO 62,64,65,67,69
62 C=D(P):RETURN
64 C=W(WN):RETURN
65 C=T(SR-2):IF C=52 THEN C=-1
66 RETURN
67 C=AN(SR-10)-1:IF C<(SR-10)*NR THEN C=-1
68 RETURN
69 C=KT(SR-14):RETURN
# Undo only (from 11): the top card C of an Ace pile goes back down, the pile needs C
# again (and no longer C+1; C is no King-pile top while it is on its Ace pile).
70 K=SR-10:AN(K)=C:FC=FC-1:WT(C)=WT(C)+1:KA=KA-(PT(C+1)>=0):IF RK(C)=NR1 THEN 21
71 X=C+1:G=WT(X)-1:WT(X)=G:RC=RC-(NOT G AND IT(X)=GN):GOTO 21
# 73: a new deal and the first table (DI=3) show each tableau card as the lay-out (84)
# puts it there.
73 POSITION PX(I+2),PY(I+2):PRINT CE$(C+C+3,C+C+4);:NEXT I:EM=0:LO=TS:RETURN
# 76 shows the foundations (an undo after the final transfer was shown, 253).
76 FOR S=0 TO 3:Y=5+S+S:C9=AN(S)-1:IF C9<S*NR THEN C9=-1
77 C9=C9+C9+3:POSITION 3,Y:PRINT CE$(C9,C9+1);:C9=KT(S)*2+3:POSITION 30,Y:PRINT CE$(C9,C9+1);:NEXT S:RETURN
# The end of the game? (From 202, the stock empty: no legal move left.) A move is left
# when a foundation takes the discard top, a King-pile top or a tableau card: exactly
# when the policy (100) finds one, without working out which. Here, low in the
# program: it runs at every key once the stock is empty; the end itself is shown at
# 260.
78 IF FC<N THEN ON V1 GOSUB 610:IF RC OR KA THEN RETURN
79 IF FC<N THEN IF WN THEN IF WT(W(WN)) THEN RETURN
80 GOTO 260
84 FOR I=0 TO TS-1
85 C=D(P):P=P+1:IF FF(C) THEN 88
86 T(I)=C:ON DI GOTO 87,676,73
87 NEXT I:EM=0:LO=TS:RETURN
# An Ace or King dealt to space I goes up at once: two steps in the transcript (676),
# one move on the table, straight from the stock to its empty pile (as lines 22/24);
# then the space takes the next card (85). Here, in line after the lay-out's loop:
# its jumps walk few lines.
88 FC=FC+1:S=SU(C):ON LG GOTO 677:IF DI=3 THEN POSITION PX(FF(C)),PY(FF(C)):PRINT CE$(C+C+3,C+C+4);
89 IF FF(C)<14 THEN AN(S)=C+1:WT(C)=0:WT(C+1)=1:GOTO 85
90 UN(C)=-1:PT(C)=S:KT(S)=C:KH(S)=NR1:X=TA(C):WT(X)=WT(X)+1:X=TB(C):WT(X)=WT(X)+1:GOTO 85
# Redo and the move count: here, low in the program, for the same reason (Atari BASIC
# looks for a GOSUB's or GOTO's line from the program's start).
# Redo (Y): the next move undone (SN+1, up to SM, the stack's top before the undos),
# made again as it was: its step, then its forced steps; RP=1: the stack is not pushed.
91 IF SN>=SM THEN LN$="NOTHING TO REDO":GOTO 295
92 RP=1:NM=NM+1
93 SN=SN+1:SR=ASC(US$(SN)):DS=ASC(UD$(SN)):F=0:IF SR>31 THEN SR=SR-32:F=32
94 GOSUB 60:GOSUB 10:IF SN<SM THEN IF ASC(US$(SN+1))>31 THEN 93
95 RP=0:RETURN
# The moves made, on line 16; during play nothing after them (the end shows its time
# there, 261, and keeps it while it is shown: EN=1).
96 IF EN THEN EN=0:POSITION 12,16:PRINT BL$(1,13);
97 POSITION 6,16:PRINT NM;"  ";:RETURN
#
# ------------------------------------------------------------ autoplay policy
#
# docs/RULES.md states the policy; machfsol/autoplay.py is its reference. In order:
# the discard top if a foundation takes it; else a King-pile top its Ace pile takes
# (suits S H C D); else, if tableau cards are wanted ("rescues"), play the first one when
# the discard top is close to playable (distance <= 2, or 3 with two rescues) or when
# a wanted card lies within reach under the top (one card deeper per rescue), else draw;
# with the stock empty, the first rescue; with nothing left, the game is over. A move
# found is returned (SR, DS), or with AP=1 (autoplay, 196) made at once by line 4 or 6
# (ON AP GOTO 4; with AP=0 the RETURN after it), and a draw made here, in line (108,
# 126: the stock's top card onto the discard pile, its undo entry, the places shown when
# DI=1, an Ace or a King drawn going up: its forced step, and no space to fill, as none
# is empty while the stock has cards), after which the policy decides again at once
# where it can: a draw changes nothing the decision read but the discard top, so while
# the card drawn is not wanted it draws again (106), or, holding rescues, weighs the new
# top (113). RC and KA come from the steps (see 10), counted afresh after a new deal
# (103, 610).
#
100 REM POLICY: SR,DS = THE MOVE THE ENGINE'S AUTOPLAY CHOOSES; SR=-1 WHEN OVER
101 IF FC=N THEN SR=-1:RETURN
102 IF WN THEN C=W(WN):IF WT(C) THEN SR=1:GOTO 190
103 IF V1 THEN GOSUB 610
104 IF KA THEN 150
105 IF RC THEN 112
106 IF P>N THEN SR=-1:RETURN
107 C=D(P):IF NOT AP THEN SR=0:DS=1:RETURN
108 NM=NM+1:P=P+1:WN=WN+1:W(WN)=C:SN=SN+1:US$(SN)=CHR$(0):UD$(SN)=CHR$(1):SM=SN:IF DI THEN SR=0:DS=1:GOSUB 33
109 IF FF(C) THEN SR=1:DS=FF(C):F=32:GOSUB 19:GOTO 101
110 IF NOT WT(C) THEN 106
111 SR=1:GOTO 190
# Rescues. The distance of the discard top B (RULES.md) is only compared with L9, so it
# is not worked out in full: the top is close when its Ace pile needs at most L9 cards
# before it (B-AN(S): both of suit S, whose Ace pile cannot be full while B is out), or
# when a King pile's top has a rank RT with 0 <= RT-1-RK(B) <= L9, RB <= RT <= LR below.
# KH(K), the rank of King pile K's top, is kept by the steps (14, 15, 27) and the deal
# (82, 675); an empty pile's is KE (651): -1 in variant 2 (it counts for nothing), NR in
# variant 1 (its King not out yet: NR-1-RK(B)). Then the dig (118-123): a wanted card
# among the RC cards under the top (not the pile's last card), the first two unrolled.
# The rescue itself, the first space holding a wanted card (R1), is looked for only when
# it is played (180).
112 IF NOT WN THEN 124
113 B=W(WN):S=SU(B):L9=2+(RC>1):IF B-AN(S)<=L9 THEN 180
#V1 114 RB=RK(B)+1:LR=RB+L9:G=KH(S):IF G>=RB THEN IF G<=LR THEN 180
#V1 115 REM (VARIANT 1 LOOKS AT THE CARD'S OWN KING PILE ONLY, KH(S))
#V1 116 REM
#V1 117 REM
#V2 114 RB=RK(B)+1:LR=RB+L9:G=KH(0):IF G>=RB THEN IF G<=LR THEN 180
#V2 115 G=KH(1):IF G>=RB THEN IF G<=LR THEN 180
#V2 116 G=KH(2):IF G>=RB THEN IF G<=LR THEN 180
#V2 117 G=KH(3):IF G>=RB THEN IF G<=LR THEN 180
118 IF WN>1 THEN IF WT(W(WN-1)) THEN 180
119 IF RC>1 THEN IF WN>2 THEN IF WT(W(WN-2)) THEN 180
120 IF RC<3 OR WN<4 THEN 124
121 M9=RC:IF M9>WN-1 THEN M9=WN-1
122 FOR I=WN-3 TO WN-M9 STEP -1:IF WT(W(I)) THEN POP:GOTO 180
123 NEXT I
124 IF P>N THEN 180
125 C=D(P):IF NOT AP THEN SR=0:DS=1:RETURN
126 NM=NM+1:P=P+1:WN=WN+1:W(WN)=C:SN=SN+1:US$(SN)=CHR$(0):UD$(SN)=CHR$(1):SM=SN:IF DI THEN SR=0:DS=1:GOSUB 33
127 IF FF(C) THEN SR=1:DS=FF(C):F=32:GOSUB 19:GOTO 101
128 IF NOT WT(C) THEN 113
129 SR=1:GOTO 190
# KA>0: the first suit (S H C D) whose next card is a King-pile top; that top goes up.
150 S=0:K=PT(AN(0)):IF K<0 THEN S=1:K=PT(AN(1)):IF K<0 THEN S=2:K=PT(AN(2)):IF K<0 THEN S=3:K=PT(AN(3))
151 SR=K+14:DS=S+10:C=KT(K):ON AP GOTO 6:RETURN
# The rescue played: the first space R1 whose card is wanted (one exists: RC>0), found by
# falling through nested IFs (no jump back per space). Spaces past TS hold 52, which
# nothing takes.
180 R1=0:IF NOT WT(T(0)) THEN R1=1:IF NOT WT(T(1)) THEN R1=2:IF NOT WT(T(2)) THEN R1=3:IF NOT WT(T(3)) THEN R1=4
181 IF R1=4 THEN IF NOT WT(T(4)) THEN R1=5:IF NOT WT(T(5)) THEN R1=6:IF NOT WT(T(6)) THEN R1=7
188 SR=R1+2:C=T(R1)
190 REM DS=WHERE CARD C GOES: ITS ACE PILE, ELSE THE LOWEST KING PILE TAKING IT
191 S=SU(C):IF AN(S)=C THEN DS=S+10:ON AP GOTO 4:RETURN
192 K=PT(FA(C)):J=PT(FB(C)):IF J>=0 THEN IF J<K OR K<0 THEN K=J
193 DS=K+14:ON AP GOTO 4:RETURN
# Keyboard play: the player's move SR->DS of card C (from 231, 242), then its forced
# steps (only a card just drawn can be an Ace or a King on the discard pile: after any
# other move they start at 39). A draw does its step in line (lines 18 and 22), then what
# every step does (31). Here, after the policy, with what the test mode never runs (the
# autoplay's entry, a new deal, the status line): the policy's jumps walk fewer lines.
194 NM=NM+1:F=0:IF SR THEN GOSUB 10:GOTO 39
195 P=P+1:WN=WN+1:W(WN)=C:GOSUB 31:GOTO 38
# Autoplay (500 comes here): the policy makes its own moves while AP=1 (line 4) and
# returns when the game is over.
196 AP=1:GOSUB 100:AP=0:RETURN
# 197 puts a new deal on the table as it is (from 8055), drawing only what it must: the
# foundations shown empty before it (8055), the lay-out which then shows each tableau
# card (73) and each Ace or King that goes up (88) as it puts it there (DI=3); then the
# discard pile, the prompt's two lines deleted and two blank ones inserted (four
# characters instead of 78 blanks), the stock, and the whole screen shown again.
197 DI=3:PF=0:WF=0:WD=0:GOSUB 96:GOSUB 600:GOSUB 650:POSITION 22,15:PRINT "-- (0)  ";:M8=0:IF M7 THEN GOSUB 298
198 POSITION 0,18:PRINT "{DELLINE}{DELLINE}{INSLINE}{INSLINE}";:POSITION 6,15:PRINT N-P+1;" ";:GOSUB 283:Y9=24:GOSUB 8:GOTO 201
# 199: the status line: deal, deck, score; blanks to column 38 over an older, longer one.
# Past column 33 before the deals played, those could reach the last column (which wraps
# the line): 200 writes its end again from the deck size on with single blanks (it holds
# up to 9,999 deals played in one sitting: more could reach the last column again).
# unrun V1 200: the default plan's one ten-digit deal, played from a score of 9 won of
# 999 played, gets here once won (10 of 1000); MACHFSOL.2 wins it, MACHFSOL.1 loses it
# and may get here only on a random deal of ten digits (N, RETURN) after its tenth win.
199 POSITION 0,1:? "DEAL ";DS$;"  ";N;" CARDS  WON ";GW;"/";:IF PEEK(85)<34 THEN ? GP;BL$(PEEK(85),38);:RETURN
200 POSITION 6+LEN(DS$),1:? N;" CARDS WON ";GW;"/";GP;BL$(PEEK(85),38);:RETURN
#
# ------------------------------------------------------------ keyboard play: the main loop
#
# Here, low in the program, because it runs at every key (see "Speed" above). Keys are
# read by GET from K:, in the order typed: keys typed while the game works wait in the
# keyboard queue (10150), not only the one key the OS keeps. The message line (17) is cleared only when it
# shows something (M7: its length; ON M7>0 GOSUB 298: nothing shown, no walk to 298 and
# back), the end message's line 18 likewise (M8: it comes with a message on line 17,
# and both go at once: two lines deleted, two blank ones inserted).
#
# The main loop (201): count the deal as played once a move is made; the moves made
# (97); the end (78); read a key.
201 IF PF=0 THEN IF NM THEN PF=1:GP=GP+1:GOSUB 199
202 GOSUB 97:IF P>N THEN GOSUB 78
203 IF TM THEN GOSUB 7200
204 GET #2,KY
205 IF KY>96 AND KY<123 THEN KY=KY-32
206 IF M8 THEN X=USR(TX,0,0,680,120):M8=0:M7=0
207 IF KY=32 THEN 240
208 IF KY=72 THEN GOSUB 100:GOSUB 6600:GOTO 203
209 IF KY=80 THEN ON M7>0 GOSUB 298:GOSUB 500:GOTO 201
# After an undo a move is left (the one undone, at least): no end check.
210 IF KY=85 THEN ON M7>0 GOSUB 298:GOSUB 47:GOSUB 96:GOTO 203
211 IF KY=89 THEN ON M7>0 GOSUB 298:GOSUB 91:GOTO 201
# N, O and T leave the game: asked first while it is in progress (250).
212 IF KY=78 THEN GOSUB 250:ON OK GOTO 8000:GOTO 203
213 IF KY=79 THEN GOSUB 250:ON OK GOTO 8200:GOTO 203
214 IF KY=84 THEN GOSUB 250:ON OK GOTO 8060:GOTO 203
215 IF KY=63 THEN 6950
216 GOSUB 6400:IF SR<0 THEN 6900
217 GOSUB 60:IF C<0 THEN 6900
# Where card C may go: its Ace pile when that needs it (Y=1), the King piles J, K whose
# tops take it (-1: none; none for a King pile's own top). One place: the card goes
# there at once; none: why not (243); two or more: the player says which, asked on the
# message line (222). The game waits for the answer as the main loop waits for a key,
# and so does the test mode (as at 203): it records the question's screen, then types
# the answer.
218 Y=(AN(SU(C))=C):J=-1:K=-1:IF SR<14 THEN J=PT(FA(C)):K=PT(FB(C)):IF K=J THEN K=-1
219 IF J<0 THEN J=K:K=-1
220 Z=Y+(J>=0)+(K>=0):IF Z=1 THEN DS=10+SU(C):ON Y=0 GOSUB 239:GOTO 231
221 IF Z=0 THEN LN$=CD$(C+C+1,C+C+2):LN$(3)=" GOES NOWHERE: ":GOTO 243
222 LN$="PICKED ":LN$(8)=CD$(C+C+1,C+C+2):LN$(10)=" TO A OR QWER?":GOSUB 295:IF TM THEN GOSUB 7200
223 GET #2,KY:IF KY>96 AND KY<123 THEN KY=KY-32
224 DS=-1:IF KY=65 THEN DS=10+SU(C):ON Y+1 GOTO 232,231
225 IF KY=81 THEN DS=14
226 IF KY=87 THEN DS=15
227 IF KY=69 THEN DS=16
228 IF KY=82 THEN DS=17
229 IF DS<0 THEN ON M7>0 GOSUB 298:GOTO 201
230 IF DS-14<>J AND DS-14<>K THEN 245
231 ON M7>0 GOSUB 298:GOSUB 194:GOTO 201
# unrun V1: in MACHFSOL.1 a card with two places has its Ace pile among them (a King
# pile takes only its own suit), so A is never refused there; MACHFSOL.2 runs it
232 Y9=DS+DS:LN$="NOT ON ":LN$(8)=PL$(Y9+1,Y9+2):LN$(10)=": IT NEEDS ":X=AN(SU(C)):GOTO 244
# unrun V1: a King pile's top takes one card in MACHFSOL.1 (its suit, one rank down),
# two in MACHFSOL.2 (the other colour's)
236 LN$(23)=" OR ":LN$(27)=CD$(Y+Y+1,Y+Y+2):GOTO 249
239 DS=14+J:RETURN
240 REM DRAW: LEGAL WHILE THE STOCK HAS CARDS
241 IF P>N THEN LN$="THE STOCK IS EMPTY":GOTO 249
242 SR=0:DS=1:C=D(P):ON M7>0 GOSUB 298:GOSUB 194:GOTO 201
# Why a card cannot go where it was sent: its Ace pile needs another card (243), or the
# King pile chosen (245) is not started, or takes other cards (TA, TB: 53 none;
# MACHFSOL.1's piles take one card, .2's two). (A King pile's own top goes only to its
# Ace pile: it is never asked where it goes.)
243 X=AN(SU(C)):Y9=20+SU(C)+SU(C):LN$(LEN(LN$)+1)=PL$(Y9+1,Y9+2):LN$(LEN(LN$)+1)=" NEEDS "
244 LN$(LEN(LN$)+1)=CD$(X+X+1,X+X+2):GOTO 249
245 K=DS-14:Y9=DS+DS:LN$="NOT ON ":LN$(8)=PL$(Y9+1,Y9+2):LN$(10)=": ":X=KT(K)
247 IF X<0 THEN LN$=PL$(Y9+1,Y9+2):LN$(3)=" HAS NO KING YET":GOTO 249
248 Y=TA(X):LN$(12)="IT TAKES ":LN$(21)=CD$(Y+Y+1,Y+Y+2):Y=TB(X):IF Y<52 THEN 236
249 GOSUB 295:PRINT CHR$(253);:GOTO 203
# A game in progress (moves made, not over: EN=0) is left only after Y (OK=1).
250 OK=1:IF NM=0 OR EN THEN 257
251 LN$="LEAVE THIS GAME? Y OR N":GOSUB 295:GET #2,KY:OK=(KY=89 OR KY=121):GOSUB 298:ON OK GOTO 257:RETURN
#
# ------------------------------------------------------------ keyboard play: places, keys, undo
#
# After the policy and the main loop: autoplay (P, 196) never comes here, and its
# jumps into the policy walk fewer lines (see "Speed" above). What a step, an undo or a
# new deal uses (showing places, a place's top card, undo itself) stays ahead of the policy.
#
# Test mode (overlay, 7500): 270 replays the steps kept (J+1 to U9), writing each one's
# transcript line after it (DI=0: the step itself writes and shows nothing).
#T 270 REM REPLAY THE STEPS KEPT
#T 271 IF J=M9 THEN RETURN
#T 272 J=J+1:DS=ASC(UD$(J)):SR=ASC(US$(J)):F=0:IF SR>31 THEN SR=SR-32:F=32
#T 273 GOSUB 60:NM=NM+(F=0):GOSUB 10
#T 274 PRINT #1;PN$(55+F/16,56+F/16);PN$(P3(SR),P3(SR)+2);PN$(P3(DS),P3(DS)+2);CO$(C+C+1,C+C+2):GOTO 271
#
# Won: every card is on a foundation, and the King piles go over to the Ace piles (the
# final transfer, docs/RULES.md), shown at once: each Ace pile topped by its King, the King
# piles empty, written straight, all four suits (no loop, no GOSUB: each GOSUB, RETURN and
# NEXT makes BASIC look for its line from the program's start, and this deep in the
# program four turns of a loop cost a player some 20 frames on genuine ROMs). Shown only:
# the position stays as it is; after an undo (WD=1) 76 shows the foundations as they are.
252 REM WON: SHOW THE FINAL TRANSFER
253 C9=NR1+NR1+3:POSITION 3,5:PRINT CE$(C9,C9+1);:C9=C9+NR+NR:POSITION 3,7:PRINT CE$(C9,C9+1);
254 C9=C9+NR+NR:POSITION 3,9:PRINT CE$(C9,C9+1);:C9=C9+NR+NR:POSITION 3,11:PRINT CE$(C9,C9+1);
255 POSITION 30,5:PRINT "--";:POSITION 30,7:PRINT "--";:POSITION 30,9:PRINT "--";
256 POSITION 30,11:PRINT "--";:WD=1:RETURN
257 IF PF THEN IF USR(RK,3,ADR(ST$),N) THEN IF USR(RF,1,ADR(ST$)) THEN Y9=680:GOSUB 9100:M7=1
258 RETURN
260 IF FC=N THEN GOSUB 253:IF WF=0 THEN GW=GW+1:WF=1:GOSUB 199
# The time the game took, from the deal to its end (seconds: 50 jiffies on a PAL
# machine, GTIA's PAL register's bits 1-3 clear), next to the moves, once (EN=1). The
# clock is read here as 283-284 read it, in line: a GOSUB this late in a move costs a
# line search, and the last move has 60 frames. (In test mode 7680 sets the clock first.)
261 IF EN THEN 265
262 EN=1:IF TM THEN GOSUB 7680
263 EN=1+USR(RK,2,ADR(ST$),N,FC=N)
# The end's message (line 17, M7=1) and keys (line 18, M8=1), written in line as 296
# writes a message: a GOSUB 295 here and its RETURN would each walk some 140 lines,
# about a frame on genuine BASIC rev. C, and the last move has 60.
265 M7=1:LN$="YOU WON! ALL CARDS PLACED":IF FC<N THEN LN$="NO MORE MOVES: ":LN$(16)=STR$(FC)
266 IF FC<N THEN LN$(LEN(LN$)+1)=" CARDS PLACED"
267 X=USR(TX,ADR(LN$),LEN(LN$),680,40):X=USR(TX,ADR("N NEW  T RESTART  U UNDO  O OPTIONS"),35,720,40):M8=1
268 X=USR(RL,1,ADR(ST$),N):IF EN=2 THEN EN=1:IF USR(RF,1,ADR(ST$)) THEN Y9=760:GOTO 9100
269 RETURN
# 283: the game's clock, the jiffies since power-on (RTCLOK, locations 18-20). In test
# mode 7680 first sets that clock from TM, which counts the steps the test mode typed,
# a second each (7255), so that the time shown is the engine's too, read as a player's.
283 IF TM THEN GOSUB 7680
284 X=USR(RK,0,ADR(ST$)):RETURN
# The message and key lines are written straight into screen memory by a routine in a
# string (TX, tools/machfsol/atari/screen_text.s): USR(TX,text,length,row*40+column,
# width) writes the text, then blanks to the width. PRINT goes through the OS's screen
# editor, some 1,000 cycles a character on the genuine XL OS: a message took 4 frames.
295 REM MESSAGE LINE 17: LN$ (M7=1 WHILE ONE IS SHOWN); 298 CLEARS IT
296 X=USR(TX,ADR(LN$),LEN(LN$),680,40):M7=1:RETURN
298 IF M7 THEN X=USR(TX,0,0,680,40):M7=0
299 RETURN
#
# ------------------------------------------------------------ autoplay driver
#
500 REM PLAY THE POLICY'S MOVES TO THE END (DI=1: EACH STEP SHOWN AS IT IS MADE)
501 GOTO 196
#
# ------------------------------------------------------------ the shuffle
#
# The deal is the engine's (machfsol/engine/deal.py), worked out by a 6502 routine,
# tools/machfsol/atari/shuffle.s, assembled at build time: its bytes are the strings of
# lines 10170 and 603 (docs/GAME.md, "The shuffle routine"). What it does, in BASIC:
#   FOR K=1 TO N:D(K)=K-1:NEXT K:X=SE
#   FOR K=N TO 2 STEP -1:X=16807*X MOD 2147483647:J=1+(X MOD K)
#   C=D(K):D(K)=D(J):D(J)=C:NEXT K
# with exact 31-bit integers (16807*X has 15 digits, more than a BASIC number holds).
# USR passes whole numbers 0-65535: the seed goes as H*65536+Y9, and as SE/65536 is not
# exact, INT of it may be one off either way: lines 600-601 make H and Y9 exact. Line
# 10170's routine gives the address of D(0), DA (it looks D up in BASIC's variable
# table; D moves only when ENTER adds lines), line 603's writes the deal into D(1..N).
# GOSUB 600 once a deal: here, not ahead of the steps, where every jump would walk its
# lines.
600 H=INT(SE/65536):Y9=SE-H*65536:IF Y9<0 THEN H=H-1:Y9=Y9+65536
601 IF Y9>65535 THEN H=H+1:Y9=Y9-65536
603 X=USR(ADR("{CODE shuffle.s routine}"),N,H,Y9,DA):RETURN
# After a new deal (V1=1, from 103 or 78, whichever comes first: a player's game may
# get there only once the stock is empty): KA and RC counted afresh (see 10), and the
# cards of the tableau marked as there (IT=GN); spaces past TS hold 52, which nothing
# takes.
610 V1=0:KA=(PT(AN(0))>=0)+(PT(AN(1))>=0)+(PT(AN(2))>=0)+(PT(AN(3))>=0)
611 X=T(0):IT(X)=GN:RC=(WT(X)>0):X=T(1):IT(X)=GN:RC=RC+(WT(X)>0):X=T(2):IT(X)=GN:RC=RC+(WT(X)>0)
612 X=T(3):IT(X)=GN:RC=RC+(WT(X)>0):X=T(4):IT(X)=GN:RC=RC+(WT(X)>0):X=T(5):IT(X)=GN:RC=RC+(WT(X)>0)
613 X=T(6):IT(X)=GN:RC=RC+(WT(X)>0):X=T(7):IT(X)=GN:RC=RC+(WT(X)>0):RETURN
#
# ------------------------------------------------------------ the deal
#
# One loop over the four suits and the four rows of the screen (the end of 11080's GOSUB
# 9, after the suits of lines 1-3; here, not with the set-up, as a NEXT walks the program
# from its start to its FOR's line): suit I's Ace goes to its Ace pile and nothing goes on it, its
# King goes to its King pile and goes on nothing; row I's places: the tableau's (H rows of
# two columns; the rows from the last, so that a row past H, whose places are not the
# deck's, is written over by the right ones), the kinds PK of the places 2-17, and the
# foundations'; and the suit SU of suit I's cards (its first card's, repeated by fill.s,
# see 11040).
640 FOR I=3 TO 0 STEP -1:J=I*NR:FF(J)=10+I:TA(J)=53:TB(J)=53:K=J+NR1:FF(K)=14+I:FA(K)=52:FB(K)=52
642 Y=5+I+I:PX(I+2)=12:PY(I+2)=Y:PX(I+H+2)=22:PY(I+H+2)=Y:PK(I+2)=3:PK(I+6)=3:PK(I+10)=4:PK(I+14)=5
644 PX(I+10)=3:PY(I+10)=Y:PX(I+14)=30:PY(I+14)=Y:SU(J)=I:X=USR(L,BA+960+6*J,6*NR1,6):NEXT I:RETURN
650 REM LAY OUT THE TABLE FROM D() AND DO THE FORCED STEPS OF THE DEAL (NOTHING TO UNDO YET)
# A new deal number GN: the cards the last deal left in the tableau are no longer marked
# as there (IT, see 10); V1=1: the policy counts RC and KA afresh (610).
651 P=1:WN=0:FC=0:NM=0:SN=0:SM=0:V1=1:GN=GN+1:KE=NR:IF V=2 THEN KE=-1
# The spaces past TS (TS<8) hold 52; the lay-out (84) sets EM and LO, with no space EM=0.
652 IF TS<8 THEN T(0)=52:T(1)=52:T(2)=52:T(3)=52:T(4)=52:T(5)=52:T(6)=52:T(7)=52:EM=0
# A clean table: every card's "wanted" count WT 0 and its King pile PT -1, the King
# piles empty (KT -1, KH KE), by the fill routine over the arrays from their element 0
# (BA: 10170, the layout 11040); then the Ace piles need their Aces. Then the spaces are
# filled in order from the stock (the discard pile is empty), at 84: the forced steps of
# lines 38-46, with a short cut for the usual case of a card that stays in its space;
# at a low line, where its NEXT and jumps are quick.
653 WT(0)=0:X=USR(L,BA+318,318,6):PT(0)=-1:X=USR(L,BA+642,312,6)
654 KT(0)=-1:X=USR(L,BA+2832,18,6):KH(0)=KE:X=USR(L,BA+2856,18,6)
655 AN(0)=0:AN(1)=NR:AN(2)=NR+NR:AN(3)=AN(2)+NR:WT(0)=1:WT(NR)=1:WT(AN(2))=1:WT(AN(3))=1:IF TS=0 THEN RETURN
656 GOTO 84
# The transcript's lines (test mode: LG=1, DI=2): a card dealt to space I (from 86), and an
# Ace or King dealt there going up (from 88). In the program itself, as the lay-out
# jumps to them (the overlay's replay writes the other steps' lines, 274).
676 PRINT #1;"F S  ";PN$(P3(I+2),P3(I+2)+2);CO$(C+C+1,C+C+2):GOTO 87
677 Y9=P3(I+2):PRINT #1;"F S  ";PN$(Y9,Y9+2);CO$(C+C+1,C+C+2)
678 PRINT #1;"F ";PN$(Y9,Y9+2);PN$(P3(FF(C)),P3(FF(C))+2);CO$(C+C+1,C+C+2):GOTO 89
#
# ------------------------------------------------------------ the first table
#
# A new game (the first one, and after the options): the title and the status line
# first, then only they shown (line 8: DL is GRAPHICS 0's new display list) while the
# rest is drawn: the table's frame and labels, the foundations empty as a new deal shows
# them (8055); then deal SE shuffled and laid out as a new deal is (197): the lay-out
# shows each card it puts on the table (DI=3); then the stock, and the whole screen. In
# keyboard play every step is shown from then on (DI=1). All in line, from 6000 to the
# main loop: a GOSUB and its RETURN up here walk the program from its start.
6000 REM NEW GAME WITH SEED SE: THE TABLE DRAWN UNSEEN UNDER THE TITLE, THEN SHOWN
6005 CLOSE #2:OPEN #2,4,0,"K:":TRAP 9000:GRAPHICS 0:POKE 82,0:POKE 752,1:DL=PEEK(560)+256*PEEK(561)
6010 M7=0:M8=0:PF=0:WF=0:WD=0:EN=0:CE$="--":CE$(3)=CD$:CE$(107)="--":POSITION 0,0:PRINT TL$
6015 POKE 16,64:POKE 53774,64:GOSUB 199:Y9=2:GOSUB 8:POSITION 0,3:PRINT "ACES      TABLEAU            KINGS"
# The labels a column at a time, the cursor taken down two lines and back one column
# between them (no loop: a NEXT here walks the program from its start): the King piles'
# keys, the suits, the tableau's keys (TN$: 1-TS/2, then the rest), the suits' names.
6020 POSITION 33,5:PRINT "Q{$1D}{$1D}{$1E}W{$1D}{$1D}{$1E}E{$1D}{$1D}{$1E}R";
6022 POSITION 0,5:PRINT SN$(1,1);"{$1D}{$1D}{$1E}";SN$(2,2);"{$1D}{$1D}{$1E}";SN$(3,3);"{$1D}{$1D}{$1E}";SN$(4,4);
6024 IF TS THEN POSITION 10,5:PRINT TN$(1,TS+TS-3);:POSITION 20,5:PRINT TN$(TS+TS+1,4*TS-3);
6026 POSITION 0,13:PRINT SN$(1,1);SL$(1,8);" ";SN$(2,2);SL$(9,16);" ";
6028 PRINT SN$(3,3);SL$(17,24);" ";SN$(4,4);SL$(25,32);
6030 IF SY THEN POSITION 0,2:PRINT "1-9, X=10, S=SOTA, C=CABALLO, R=REY";
# The discard pile is empty after the lay-out: shown with its label.
6032 POSITION 0,15:PRINT "STOCK       0 DISCARD -- (0)":PRINT "MOVES";
6034 POSITION 0,20:PRINT "PICK 1-";TS;" 0 QWER, THEN A OR QWER":PRINT "SPACE DRAW  H HINT  P PLAY ALL  ? HELP"
6036 PRINT "U UNDO Y REDO T RESTART N NEW O OPTIONS";:POSITION 3,5:PRINT "--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--";
6038 POSITION 30,5:PRINT "--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--";
6040 DI=3:GOSUB 600:GOSUB 650:DI=1:POSITION PX(0),PY(0):PRINT N-P+1;" ";
6045 GOSUB 283:IF PEEK(ADR(ST$)+129) THEN Y9=680:GOSUB 9100:M7=1
6046 Y9=24:GOSUB 8:GOTO 201
#
# ------------------------------------------------------------ keyboard play
#
6400 REM SOURCE PLACE OF KEY KY: 1-8 TABLEAU, 0 DISCARD, QWER KING PILES
6410 SR=-1:IF KY>48 AND KY<=48+TS THEN SR=KY-47
6420 IF KY=48 THEN SR=1
6430 IF KY=81 THEN SR=14
6440 IF KY=87 THEN SR=15
6450 IF KY=69 THEN SR=16
6460 IF KY=82 THEN SR=17
6470 RETURN
6600 REM SHOW THE HINT: THE POLICY'S MOVE SR->DS
6610 IF SR<0 THEN LN$="NO MOVE LEFT":GOTO 295
6620 IF SR=0 THEN LN$="HINT: DRAW (SPACE)":GOTO 295
6630 GOSUB 60:LN$="HINT: ":LN$(7)=CD$(C+C+1,C+C+2):LN$(9)=" "
6640 LN$(10)=PL$(SR+SR+1,SR+SR+2):LN$(12)=" TO ":LN$(16)=PL$(DS+DS+1,DS+DS+2)
6650 GOTO 295
# I: the record on line 17 (record_lines.s). M8, not M7: the next key's line 206 clears
# it in line, as it clears a game's end; through 298 an undo right after I at a
# played-out end took 46 frames of its 45 on genuine BASIC rev. C.
6900 IF KY=73 THEN X=USR(RL,0,ADR(ST$),N):M8=1:GOTO 203
6901 LN$="PRESS A KEY OF THE HELP BELOW":GOSUB 295:PRINT CHR$(253);:GOTO 203
# Help (? or HELP): the keys, then the rules in short, on the lines under the table (six
# deleted and six blank ones inserted); any key turns the page; then the table's own
# lines come back (201 shows a game's end again). In test mode each page's screen is
# recorded (7200) before its GET.
6950 POSITION 0,17:PRINT "{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}";:M7=0:M8=0
6952 PRINT "PICK: 1-8 TABLEAU, 0 DISCARD, QWER KING":PRINT "PILES. IT GOES UP IF IT HAS ONE PLACE,"
6954 PRINT "ELSE TYPE A (ACE PILE) OR QWER.":PRINT "SPACE DRAW  H HINT  P PLAY ALL  U UNDO"
6956 PRINT "Y REDO  T RESTART  N NEW  O OPTIONS":PRINT "I YOUR RECORD  ANY KEY: THE RULES";:IF TM THEN GOSUB 7200
6958 GET #2,KY
6960 POSITION 0,17:PRINT "{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}";
#V1 6962 PRINT "ACE PILES GO UP BY SUIT FROM THE ACE.":PRINT "KING PILES: DOWN FROM THE KING, SAME"
#V1 6964 PRINT "SUIT. ACES AND KINGS GO UP AT ONCE."
#V2 6962 PRINT "ACE PILES GO UP BY SUIT FROM THE ACE.":PRINT "KING PILES: DOWN FROM THE KING, OTHER"
#V2 6964 PRINT "COLOUR. ACES AND KINGS GO UP AT ONCE."
6966 PRINT "A SPACE IS FILLED FROM THE DISCARD":PRINT "PILE, ELSE THE STOCK. WIN: ALL UP."
6968 PRINT "ANY KEY: BACK TO THE GAME";:IF TM THEN GOSUB 7200
6969 GET #2,KY
6970 POSITION 0,17:PRINT "{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{DELLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}{INSLINE}";
6972 POSITION 0,20:PRINT "PICK 1-";TS;" 0 QWER, THEN A OR QWER":PRINT "SPACE DRAW  H HINT  P PLAY ALL  ? HELP"
6974 PRINT "U UNDO Y REDO T RESTART N NEW O OPTIONS";:GOTO 201
#
# ------------------------------------------------------------ test mode
#
# The test mode (docs/GAME.md, "Test mode") plays deals the way a player does, through
# the same keys and lines: H1:MFTEST.CFG (MFTEST 4, then the steps, END) holds every
# key of every step, made by the harness from the engine (machfsol/atari/
# test_player.py): a new deal by its number (N, the digits, RETURN), the policy's
# moves, hints, undos, play-all, the options, a player's mistakes. Whenever the main
# loop asks for a key (203), or the game asks where a card picked goes (222), the
# overlay's line 7200 records a checksum of the whole
# screen (screen_sum.s), the screen the last step left, and types the next step's keys
# into the keyboard queue; the game reads them as a player's. A "T" line writes the
# transcript of the deal in play (its steps kept for undo, replayed: 270), its timing
# and the screen's checksums, which machfsol verify holds to the engine.
#
# Its code is the "#T" lines: an overlay, not in the program the disk carries (the
# player loads no byte of it). Once the set-up has found the configuration, 10120
# ENTERs the overlay's listing from H1:MFTEST.LST (the harness puts it there, generated
# from this source): Atari BASIC merges its lines into the program, every variable and
# array kept, and then runs the listing's last line, which has no line number, as if
# typed: GOTO 7000.
#
# A step line: "K ", "D " (the step that deals) or "B " (a deal's first step, the deal
# on the table already), then its keys, each the keyboard's code (CH's) plus 48; an
# "S" line before each deal (7300).
# SS$ the screen's checksums since the last transcript, NS of them, two bytes each (a
# string: a third of an array's memory, which a DOS's MEMLO leaves little of). The
# time is the game's own: from the step's last key typed (T0) to its next GET, summed
# in T3 from the step that deals (DQ=1 until its end, then 2: T1 is its time; -1 for
# none). Keys click on the OS's keyboard GET: not here (NOCLIK).
#T 7000 DIM CO$(104),PN$(76),SS$(900)
#T 7005 PN$="S  W  T1 T2 T3 T4 T5 T6 T7 T8 AS AH AC AD KS KH KC KD M F WON LOSTSHCD":GOSUB 10150:GOSUB 11150
#T 7010 K9=0:NS=0:DQ=0:T0=0:T3=0:CK=0:POKE 731,1:TRAP 7900:INPUT #4;L$:IF L$<>"MFTEST 5" THEN 7880
#T 7020 GOTO 6000
# (The program's line 203 calls 7200, in test mode only: IF TM THEN GOSUB 7200.)
# A GET reached with keys of the step still waiting (the queue's ends differ, or CH
# holds one: key_queue.s) is on the step's way, a help page, the options page or the
# deal number's prompt: its screen only (7205). The queue is read before CH: the
# vertical blank moves a key from the queue to CH, never back, so read in this order
# a key in transit is always seen (the other order missed one on the genuine ROMs).
#T 7200 IF PEEK(203)<>PEEK(204) OR PEEK(764)<255 THEN 7205
#T 7201 GOSUB 7690:T3=T3+TJ-T0:IF DQ=1 THEN T1=T3:DQ=2
#T 7202 IF LEN(PN$)>70 THEN POSITION 0,23:? "TEST DEAL ";VAL(PN$(71,73));" OF ";VAL(PN$(74,76));
#T 7204 GOSUB 7205:GOTO 7210
#T 7205 NS=NS+1:C9=USR(ADR("{CODE screen_sum.s}")):SS$(NS+NS-1)=CHR$(INT(C9/256)):SS$(NS+NS)=CHR$(C9-256*INT(C9/256)):RETURN
#T 7210 TRAP 7800:INPUT #4;L$:TRAP 7900:IF L$="END" THEN 7800
#T 7220 IF L$="T" THEN 7500
# "X": an error in the game (ERROR 3, a value out of range): the game's handler (9000)
# shows it and goes on, as on a player's I/O error; the next step's line sets TRAP 7900
# again (7210). The step's time starts here: no key is typed. The main loop's GOSUB 7200
# (203) stays on BASIC's stack, as any error in a subroutine leaves its GOSUB there for
# the handler's GOTO 201: a few bytes each (the engine's player makes one in every 12th
# deal: a --coverage program, the largest, has little memory to spare).
#T 7222 IF L$="X" THEN GOSUB 7690:T0=TJ:TRAP 9000:POKE 0,-1
#T 7230 IF L$(1,2)="D " THEN DQ=1:T3=0:GOTO 7250
#T 7232 IF L$(1,2)="B " THEN DQ=2:T1=-1:T3=0:GOTO 7250
#T 7235 IF L$(1,2)="C " THEN 7700
#T 7236 IF L$(1,2)="S " THEN 7290
#T 7240 IF L$(1,2)<>"K " THEN 7880
#T 7250 IF CK THEN CK=0:C9=USR(KI,2,60)
#T 7255 FOR I=3 TO LEN(L$):C9=USR(KI,2,ASC(L$(I))-48):NEXT I:GOSUB 7690:T0=TJ:TM=TM+60-10*(PEEK(53268)<2):RETURN
# "S <deck> <F|S> <U|L>": the table and the case the next deal is played in, whatever
# the table before (so a deal's lines play the same after a boot): the keys that make
# them (CAPS, then O, D until the deck size, S, RETURN), a step of their own when the
# deck or the style differ; else CAPS (CK=1) goes first in the next step. Then the deal's
# number of how many (the bottom line's TEST DEAL k OF n) and, when given, the sitting's
# score to start from, won and played (the status line drawn again with it at once).
#T 7290 PN$(71)=L$(10,12):PN$(74)=L$(14,16):IF LEN(L$)>16 THEN GW=VAL(L$(18,22)):GP=VAL(L$(24,28)):GOSUB 199
#T 7300 X=VAL(L$(3,4)):Z=(L$(6,6)="S"):CK=((L$(8,8)="L")<>(PEEK(702)=0)):IF X=N AND Z=SY THEN 7210
#T 7310 L$="K 8":Y=N
#T 7320 IF Y<>X THEN Y=Y-4:Y=Y+36*(Y<20):L$(LEN(L$)+1)="j":GOTO 7320
#T 7330 IF Z<>SY THEN L$(LEN(L$)+1)="n"
#T 7340 L$(LEN(L$)+1)="<":GOTO 7250
# The deal is over: its transcript, written from the steps kept for undo (the game is
# laid out again and replayed, 270: the very steps that were made), its timing, and
# the screen's checksums since the last transcript (SCREEN lines, five a line).
#T 7500 K9=K9+1:LN$="H1:T":LN$(5)=STR$(K9):LN$(LEN(LN$)+1)=".TXT":OPEN #1,8,0,LN$:GOSUB 7600
#T 7510 M9=SN:LG=1:DI=2:RP=1:GOSUB 650:J=0:DI=0:GOSUB 270:LG=0:RP=0:DI=1
#T 7520 PRINT #1;"RESULT ";PN$(59+4*(FC<N),62+4*(FC<N));" ";FC;" MOVES ";NM
#T 7530 IF T1>=0 THEN PRINT #1;"JIFFIES DEAL ";T1:PRINT #1;"JIFFIES PLAY ";T3-T1
#T 7535 PRINT #1;"JIFFIES GAME ";T3
#T 7540 FOR I=1 TO NS STEP 5:PRINT #1;"SCREEN";:FOR J=I TO I+4:IF J<=NS THEN GOSUB 7560
#T 7550 NEXT J:PRINT #1:NEXT I:CLOSE #1:DQ=0:NS=0:GOTO 7210
#T 7560 PRINT #1;" ";ASC(SS$(J+J-1))*256+ASC(SS$(J+J));:RETURN
#T 7600 REM TRANSCRIPT HEADER AND THE DEALING ORDER, TEN CARDS A LINE
#T 7610 PRINT #1;"MACHFSOL TRANSCRIPT 1":PRINT #1;"PROGRAM MACHFSOL.";V;" ATARI"
#T 7620 PRINT #1;"VARIANT ";V:PRINT #1;"DECK ";N:PRINT #1;"SEED ";DS$:PRINT #1;"PLAYER AUTO"
#T 7630 FOR I=1 TO N STEP 10:PRINT #1;"ORDER";:FOR J=I TO I+9:IF J<=N THEN C=D(J):PRINT #1;" ";CO$(C+C+1,C+C+2);
#T 7640 NEXT J:PRINT #1:NEXT I:PRINT #1;"MOVES":RETURN
# "C <address> <count>" (five digits each): the map of the lines run, a byte a line
# (machfsol verify --coverage, machfsol/atari/coverage.py), written as 0s and 1s.
#T 7700 X=VAL(L$(3,7)):Z=VAL(L$(9,13)):OPEN #1,8,0,"H1:MFCOVER.TXT"
#T 7710 FOR I=X TO X+Z-1:PRINT #1;CHR$(48+PEEK(I));:NEXT I:PRINT #1:CLOSE #1:GOTO 7210
# The game's clock set from the steps' count just before the game reads it (283, 262):
# a whole number of seconds a step, half a second more at the end (EN=1), so that the
# ticks between the setting and the reading never move a second; its bytes far apart
# (about 100, the middle one whatever the count makes it) so that a read that mixes
# them up shows. The low byte is kept below 241 (up to 15 jiffies taken off, inside the
# half second), so no tick carries between the game's reads of the bytes; it is
# cleared first, so no tick carries into a byte set after it. (Division is inexact:
# +.5 keeps a whole quotient from falling below itself.) T0 moves with the clock: the
# step's timing (7200) counts the jiffies it really took.
#T 7680 GOSUB 7690:T0=T0-TJ:Y9=TM+30*EN+6600000:TJ=INT((Y9+.5)/256):IF Y9-256*TJ>240 THEN Y9=256*TJ+240
#T 7685 T0=T0+Y9:TJ=INT((Y9+.5)/65536):Y9=Y9-65536*TJ:POKE 20,0:POKE 18,TJ:TJ=INT((Y9+.5)/256):POKE 19,TJ
#T 7687 POKE 20,Y9-256*TJ:RETURN
# The real clock, for the test mode's own timing: RTCLOK read again if it ticked meanwhile.
#T 7690 TJ=PEEK(20):Y9=PEEK(19)*256+PEEK(18)*65536:IF PEEK(20)<TJ THEN 7690
#T 7695 TJ=TJ+Y9:RETURN
#T 7800 REM END OF THE CONFIGURATION: WRITE THE DONE MARKER
#T 7810 TRAP 40000:CLOSE #4:OPEN #1,8,0,"H1:MFDONE.TXT":PRINT #1;"DONE ";K9;" FRE ";FE;
#T 7820 PRINT #1;" MEMLO ";PEEK(743)+256*PEEK(744):CLOSE #1:X=USR(KI,0):END
#T 7880 REM NOT A LINE OF THE CONFIGURATION: SAY WHICH IN THE DONE MARKER
#T 7885 TRAP 40000:CLOSE #1:CLOSE #4:OPEN #1,8,0,"H1:MFDONE.TXT":PRINT #1;"BAD LINE ";L$:CLOSE #1:X=USR(KI,0):END
#T 7900 REM ANY ERROR (CONFIGURATION, I/O, THE GAME): ITS CODE AND LINE IN THE DONE MARKER
#T 7910 TRAP 40000:X=PEEK(195):Y9=PEEK(186)+256*PEEK(187):CLOSE #1:CLOSE #4:OPEN #1,8,0,"H1:MFDONE.TXT"
#T 7920 PRINT #1;"ERROR ";X;" AT ";Y9:CLOSE #1:X=USR(KI,0):END
#
# ------------------------------------------------------------ new deal, options
#
# The number is typed a digit at a time (DELETE takes one back, ESC goes back to the
# game) and read as text: genuine BASIC's VAL keeps 9 significant digits (2147483646
# would become 2147483640), but its arithmetic is exact on whole numbers of 10 digits
# up to 2^31: VAL of the first nine digits, times ten, plus the last. (The constant is
# written 2147483640+6 for the same reason: ENTER keeps 9 digits of a number.)
8000 REM NEW DEAL: TYPE A DEAL NUMBER, RETURN FOR A RANDOM ONE
8010 POSITION 0,18:PRINT "DEAL NUMBER 1-2147483646, ESC: BACK":PRINT "(RETURN: RANDOM) ";:L$="":POKE 752,0
8020 IF TM THEN GOSUB 7200
8021 GET #2,KY:IF KY>47 AND KY<58 THEN IF LEN(L$)<10 THEN L$(LEN(L$)+1)=CHR$(KY):PRINT CHR$(KY);:GOTO 8020
8025 IF KY=126 THEN IF LEN(L$) THEN L$(LEN(L$))="":PRINT CHR$(126);:GOTO 8020
8030 IF KY=27 THEN POKE 752,1:POSITION 0,18:PRINT "{DELLINE}{DELLINE}{INSLINE}{INSLINE}";:GOTO 8057
8035 IF KY<>155 THEN PRINT CHR$(253);:GOTO 8020
8040 POKE 752,1:IF L$="" THEN Z=INT(RND(0)*(2147483640+6))+1:GOTO 8052
8045 Z=VAL(L$):IF LEN(L$)=10 THEN Z=VAL(L$(1,9))*10+VAL(L$(10))
8050 IF Z<1 OR Z>2147483640+6 THEN PRINT CHR$(253);:POSITION 0,18:PRINT "{DELLINE}{DELLINE}{INSLINE}{INSLINE}";:GOTO 8010
# The deal number as text, DS$, for the status line: PRINT shows 9 significant digits on
# genuine BASIC (2147483646 as 2147483640). Z in two halves of five digits, exact as the
# shuffle's split (600).
8052 H=INT(Z/100000):Y9=Z-H*100000:IF Y9<0 THEN H=H-1:Y9=Y9+100000
8053 IF Y9>99999 THEN H=H+1:Y9=Y9-100000
8054 DS$=STR$(Y9):IF H THEN DS$=STR$(H):L$=STR$(Y9+100000):DS$(LEN(DS$)+1)=L$(2)
# The status line with the new deal's number, then only it and the title shown (line 8)
# while the rest is drawn: the foundations empty before the lay-out (197) shows what
# goes up, the Ace piles' column, then the King piles' (the cursor taken down two lines
# and back two columns between places: one PRINT a column, a shorter program than a
# POSITION a place).
8055 SE=Z:GOSUB 199:Y9=2:GOSUB 8:POSITION 3,5:PRINT "--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--";
8056 POSITION 30,5:PRINT "--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--{$1D}{$1D}{$1E}{$1E}--";:GOTO 197
# ESC from the deal number: back to the game, which is not left (a game counted lost when
# N was pressed is not counted: record_keeper.s).
8057 IF USR(RK,4,ADR(ST$),N) THEN IF USR(RF,1,ADR(ST$)) THEN Y9=680:GOSUB 9100:M7=1
8058 GOTO 201
# T: the same deal again, as a new deal.
8060 Z=SE:GOTO 8055
8200 REM OPTIONS: DECK SIZE AND CARD STYLE, THEN A NEW GAME OF THE SAME DEAL
8210 PRINT CHR$(125):POSITION 0,2:PRINT TL$:POSITION 0,5:PRINT "OPTIONS"
8220 POSITION 0,7:PRINT "D  DECK SIZE  ";N;" CARDS "
8230 POSITION 0,9:PRINT "S  STYLE      ";:IF SY THEN PRINT "SPANISH";
8240 IF SY=0 THEN PRINT "FRENCH ";
8250 POSITION 0,12:PRINT "RETURN  PLAY DEAL ";DS$;"  ":IF TM THEN GOSUB 7200
8260 GET #2,KY:IF KY>96 AND KY<123 THEN KY=KY-32
8270 IF KY=68 THEN N=N-4:IF N<20 THEN N=52
8280 IF KY=83 THEN SY=1-SY
8290 IF KY<>155 THEN 8220
8300 POSITION 0,3:PRINT "PLEASE WAIT":Y9=4:GOSUB 8:GOSUB 10500:GOTO 6000
#
# ------------------------------------------------------------ errors
#
# Only an error reaches it (an I/O error of the screen or the keyboard, a bug); in test
# mode the overlay's TRAP (7900) takes every error instead, which fails the deal, but
# for the error its "X" step makes (7222) to come here.
9000 REM ANY ERROR (E.G. I/O): SAY SO AND GO ON PLAYING
9010 TRAP 9000:Y9=24:GOSUB 8:AP=0:LN$="ERROR ":LN$(7)=STR$(PEEK(195)):GOSUB 295:PRINT CHR$(253);
9020 CLOSE #2:OPEN #2,4,0,"K:":GOTO 201
9100 Z=ADR(ST$):X=PEEK(Z+128):POKE Z+129,0:LN$="RECORD NOT SAVED: "
9110 IF X=1 THEN LN$(19)="NO MACHFSOL.ST":LN$(33)=STR$(V):LN$(34)=" ON D1"
9120 IF X=2 THEN LN$(19)="DISK D1 NOT READ"
9130 IF X=3 THEN LN$(19)="D1 IS WRITE-PROTECTED"
9140 IF X=4 THEN LN$(19)="DISK ERROR ":LN$(30)=STR$(PEEK(Z+132))
9150 X=USR(TX,ADR(LN$),LEN(LN$),Y9,40):RETURN
#
# ------------------------------------------------------------ set-up
#
10000 REM SET-UP: ARRAYS, CONSTANTS, TABLES; THEN TEST MODE OR PLAY
# Only the screen's top five lines are shown from here until the first table is drawn
# (line 8; 6005): what the boot menu left there (the games' names, BASIC's READY and
# the loading bar) says the game is coming, and GRAPHICS 0's whole display would take about a third of
# the CPU from BASIC on the real machine. The whole screen comes back before the test
# mode (10120: the overlay, see 7000, is ENTERed from H1:, and a missing one is a set-up
# error), after any error of the set-up (10190) or the game (9010), and with RESET (the
# OS opens the screen again). No BREAK key from here on (POKMSK 16 and IRQEN 53774).
10005 DL=PEEK(560)+256*PEEK(561):Y9=5:GOSUB 8:POKE 16,64:POKE 53774,64:TRAP 10190
#V1 10010 V=1:DIM TL$(38):TL$="MACHFSOL 1: KINGS DOWN BY SUIT"
#V2 10010 V=2:DIM TL$(38):TL$="MACHFSOL 2: KINGS DOWN ALTERNATING"
# A$ (one character), FF, WT, PT, SU, RK, FB, TB, FA, TA, KT and KH first and in this
# order: the set-up and a new deal find them from A$ (11040, 82).
10020 DIM A$(1),FF(51),WT(53),PT(52),SU(51),RK(51),FB(51),TB(51),FA(51),TA(51),KT(3),KH(3)
10030 DIM D(53),W(52),T(7),IT(53),AN(3),UN(51),PK(17),P3(17),PX(17),PY(17)
10040 DIM CD$(104),PL$(36),L$(40),RL$(13),SN$(4),SL$(32),LN$(40),BL$(40),DL$(52)
10045 DIM TN$(29),KQ$(256),CE$(108),DS$(10),US$(208),UD$(208),ST$(166)
# Keys typed from now on are kept, in order (10150).
10050 GOSUB 10150
10070 PL$="S W T1T2T3T4T5T6T7T8ASAHACADKSKHKCKD"
# TN$: the tableau's keys, each followed by the cursor taken down two lines and back one.
10072 TN$="1{$1D}{$1D}{$1E}2{$1D}{$1D}{$1E}3{$1D}{$1D}{$1E}4{$1D}{$1D}{$1E}5{$1D}{$1D}{$1E}6{$1D}{$1D}{$1E}7{$1D}{$1D}{$1E}8"
10080 BL$=" ":BL$(40)=" ":BL$(2)=BL$
# The discard pile's W(0) is always -1; the King piles start empty (KT=-1; from then on
# 82 empties them at every deal).
# Where the stock and the discard pile are on the screen (PX, PY) and their kinds (PK);
# the other places' at 640.
10085 PK(0)=1:PK(1)=2:PX(0)=6:PY(0)=15:PX(1)=22:PY(1)=15:W(0)=-1:KT(0)=-1:KT(1)=-1:KT(2)=-1:KT(3)=-1
10090 N=52:SY=0:GW=0:GP=0:SE=1:DS$="1":LG=0:DI=0:RP=0
10100 GOSUB 10500:X=USR(RF,0,ADR(ST$),V)
10110 REM TEST MODE IF THE HARNESS GAVE A CONFIGURATION ON H1:
# (The keyboard queue is taken out while ENTER merges the overlay's lines, which moves
# the program's strings and arrays, KQ$ among them: 7000 puts it back. FE: the memory
# free before the overlay comes in, what a player has; the test mode reports it.)
10120 TRAP 6000:OPEN #4,4,0,"H1:MFTEST.CFG":TRAP 10190:TM=1:FE=FRE(0)
10125 Y9=24:GOSUB 8:X=USR(KI,0):ENTER "H1:MFTEST.LST"
# The keyboard queue: a 6502 routine (tools/machfsol/atari/key_queue.s, docs/GAME.md)
# that keeps the keys typed while the game works, up to 255, in KQ$, and hands them
# to the OS one by one: GET from K: reads them in the order typed. KI is its installer,
# KR the part that stays (in the cassette buffer); X=USR(KI,0) takes it out (before
# the program ends: the OS's own keyboard routine back), RESET does too.
10150 KR=ADR("{CODE key_queue.s resident}")
10155 KI=ADR("{CODE key_queue.s installer}")
10160 X=USR(KI,1,ADR(KQ$),KR)
# The addresses the machine code needs, which move only when ENTER adds lines (7000):
# the fill routine's L and the arrays' BA (11040), D's DA (the shuffle, 603).
10165 TX=ADR("{CODE screen_text.s}")
10170 L=ADR("{CODE fill.s}"):BA=ADR(A$)+1:DA=USR(ADR("{CODE shuffle.s finder}"))
10171 RF=ADR("{CODE record_file.s 1}")
10172 X=ADR("{CODE record_file.s 2}")
10173 RK=ADR("{CODE record_keeper.s 1}")
10174 X=ADR("{CODE record_keeper.s 2}")
10175 RL=ADR("{CODE record_lines.s 1}")
10176 X=ADR("{CODE record_lines.s 2}"):RETURN
# unrun 10190-10197: only an error in the set-up reaches it (memory too short for the
# arrays, under a DOS that leaves less than the program needs)
10190 REM AN ERROR IN THE SET-UP: THE SCREEN BACK ON, THE ERROR AND ITS LINE SHOWN
10195 IF DL THEN Y9=24:GOSUB 8
10196 IF KI THEN X=USR(KI,0)
10197 PRINT "ERROR ";PEEK(195);" AT LINE ";PEEK(186)+256*PEEK(187):END
10500 REM SUIT CHARACTERS: ATARI SPADE HEART CLUB DIAMOND, OR SPANISH INITIALS; THEN THE TABLES (11000)
# Red suits (hearts and diamonds, copas and oros) in inverse video.
10510 SN$="{":SN$(2)=CHR$(128):SN$(3)=CHR$(16):SN$(4)=CHR$(224)
10515 IF SY THEN SN$="e":SN$(2)=CHR$(227):SN$(3)="b":SN$(4)=CHR$(239)
10520 SL$="SPADES  HEARTS  CLUBS   DIAMONDS"
10530 IF SY THEN SL$="ESPADAS COPAS   BASTOS  OROS    "
11000 REM TABLES FOR DECK SIZE N AND STYLE SY (0 FRENCH, 1 SPANISH)
# This runs before the first table is shown, and genuine BASIC rev. C takes about 4 ms a
# statement with the screen off (6 with it on): the tables are built suit by suit, rank
# by rank (no division, no test per card), by the loops at lines 1-3 and 9, where their
# NEXTs are quick, and the transcript's card names CO$ only in test mode. RL$ the ranks
# of the deck in the transcript's letters, L$ as shown (Spanish: 1 X S C R for A T J Q
# K); TS the tableau's size, H its rows on the screen. TM is 1 in test mode.
11010 NR=N/4:NR1=NR-1:TS=2*INT((N-16)/8):H=TS/2:D(N+1)=-1:RESTORE 11900
11020 READ I,RL$,L$:IF I<>N THEN 11020
11030 IF SY=0 THEN L$=RL$
# Every card's forced foundation FF and "wanted" count WT start at 0, its King pile PT
# at -1 (52 and 53 too, the cards of an empty space and of none): element 0 set, and the
# 6502 routine of tools/machfsol/atari/fill.s (L: its address, 10170; docs/GAME.md) repeats it
# over the array: X=USR(L,A,LENGTH,D) copies LENGTH bytes from A-D to A, forward. BASIC
# keeps arrays in the order of the DIMs (10020), with no gap, 6 bytes a number: from
# BA=ADR(A$)+1, FF(0..51) and WT(0..53) are 106 numbers, PT(0..52) 53 from BA+636, SU(0..51)
# from BA+954 and RK(0..51) from BA+1266. A suit's cards' SU (644) and the ranks of the
# first suit repeated over the others' (11080: RK(0..NR1) by series.s, see line 1) come the same way,
# and in MACHFSOL.1 the King-pile table's FB (52: no second card to go on) and TB (53:
# no second card to take) from BA+1578 and BA+1890 (FA and TA: line 3); KT(0..3) and
# KH(0..3) follow TA, from BA+2826 and BA+2850 (a new deal empties the King piles: 654).
11040 FF(0)=0:X=USR(L,BA+6,630,6):PT(0)=-1:X=USR(L,BA+642,312,6)
#V1 11045 FB(0)=52:X=USR(L,BA+1584,306,6):TB(0)=53:X=USR(L,BA+1896,306,6)
#V2 11045 REM (MACHFSOL.2: FB AND TB SUIT BY SUIT, LINES 2 AND 3)
11070 REM FA/FB: THE CARDS C MAY GO ON IN A KING PILE, TA/TB: THE CARDS THAT GO ON C
11075 Q=ADR("{CODE series.s}")
11080 GOSUB 9:X=USR(Q,BA+1266,NR,0,1,6):X=USR(L,BA+1266+6*NR,18*NR,6*NR)
# In test mode the overlay's 11150 goes on: the transcript's card names CO$.
11140 IF TM=0 THEN RETURN
#T 11150 REM THE TRANSCRIPT'S CARD NAMES (TEST MODE ONLY): RANK LETTER, SUIT LETTER
#T 11160 FOR C=0 TO N-1:CO$(C+C+1)=RL$(RK(C)+1,RK(C)+1):CO$(C+C+2)=PN$(67+SU(C),67+SU(C)):NEXT C
#T 11170 FOR I=0 TO 17:P3(I)=3*I+1:NEXT I:RETURN
11900 DATA 52,A23456789TJQK,123456789XSCR,48,A23456789JQK,123456789SCR
11910 DATA 44,A2345678JQK,12345678SCR,40,A234567JQK,1234567SCR,36,A6789TJQK,16789XSCR
11920 DATA 32,A789TJQK,1789XSCR,28,A89TJQK,189XSCR,24,A9TJQK,19XSCR,20,ATJQK,1XSCR
