"""The Atari games' screen, drawn from the engine: what MACHFSOL.1 and MACHFSOL.2 must
show, byte for byte, for a table, a status and a message.

The test mode records after each of its steps a checksum of the whole text screen
(:mod:`machfsol.atari.screen_sum`); ``machfsol verify`` draws the engine's table the
game's way with this module and holds the two sums to each other, so that a wrong card,
count or message on the Atari's screen fails the deal at that step, even when the
game's own table in memory is right. The layout is the program's (basic_src/
machfsol.bas, lines 6000-6045 draw the frame, 51-57 a place, 199 the status line, 295
the message line, 252-268 the end): a change there must be made here too, and
tests/machfsol/atari/test_screen_model.py compares this drawing with the screens the
emulator shows.

The 24 rows of 40 characters, in ATASCII (red cards and suits in inverse video, +128):

* 0 the title; 1 the status ``DEAL n  N CARDS  WON w/p``; 2 the Spanish cards' legend;
  3 ``ACES      TABLEAU            KINGS``;
* 5, 7, 9, 11 one suit each: its sign at column 0, its Ace pile's top at 3, tableau
  keys at 10 and 20 with their spaces at 12 and 22 (the first half of the spaces in
  the left column), its King pile's top at 30 and the pile's key (Q W E R) at 33;
* 13 the suits' names; 15 ``STOCK n`` (the count at column 6), the discard pile's key
  ``0`` at 12, ``DISCARD`` and its top and size at 22; 16 ``MOVES n``, and at a game's
  end ``TIME m:ss`` at 12;
* 17 the message line, 18 the end's keys, 19 the end's record (the player's games
  of this deck size: machfsol.atari.record_book), 20-22 the keys' help;
* 23, in the test mode only, once it has read the deal's ``S`` line: ``TEST DEAL k OF
  n`` (which deal of the configuration's is in play: on a test disk, of the disk's).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import Final

from machfsol.atari.screen_sum import fletcher
from machfsol.engine.cards import Card, Suit
from machfsol.engine.rules import Move, Place, Position

WIDTH: Final = 40
HEIGHT: Final = 24
TITLES: Final = {1: "MACHFSOL 1: KINGS DOWN BY SUIT", 2: "MACHFSOL 2: KINGS DOWN ALTERNATING"}
#: The suits' signs, ATASCII, in suit order S H C D (red ones in inverse video).
FRENCH_SIGNS: Final = bytes([0x7B, 0x80, 0x10, 0xE0])
SPANISH_SIGNS: Final = bytes([ord("e"), 0x80 | ord("c"), ord("b"), 0x80 | ord("o")])
FRENCH_NAMES: Final = "SPADES  HEARTS  CLUBS   DIAMONDS"
SPANISH_NAMES: Final = "ESPADAS COPAS   BASTOS  OROS    "
SPANISH_LEGEND: Final = "1-9, X=10, S=SOTA, C=CABALLO, R=REY"
#: Spanish rank characters where they differ from the card codes' letters.
SPANISH_RANKS: Final = {"A": "1", "T": "X", "J": "S", "Q": "C", "K": "R"}
#: The places' two-character names in hints (the program's PL$), by engine place number.
PLACE_NAMES: Final = "S W T1T2T3T4T5T6T7T8ASAHACADKSKHKCKD"
KING_KEYS: Final = "QWER"
EMPTY: Final = b"--"
END_KEYS: Final = "N NEW  T RESTART  U UNDO  O OPTIONS"
HELP: Final = ("SPACE DRAW  H HINT  P PLAY ALL  ? HELP", "U UNDO Y REDO T RESTART N NEW O OPTIONS")
#: The deal number's prompt (N), rows 18 and 19; the digits follow the second.
PROMPT: Final = ("DEAL NUMBER 1-2147483646, ESC: BACK", "(RETURN: RANDOM) ")
#: The OS's cursor: the character under it in inverse video (here a blank).
INVERSE_BLANK: Final = b"\xa0"
#: The help's two pages (? or HELP), on rows 17-22 in place of the message and the keys.
HELP_KEYS_PAGE: Final = (
    "PICK: 1-8 TABLEAU, 0 DISCARD, QWER KING",
    "PILES. IT GOES UP IF IT HAS ONE PLACE,",
    "ELSE TYPE A (ACE PILE) OR QWER.",
    "SPACE DRAW  H HINT  P PLAY ALL  U UNDO",
    "Y REDO  T RESTART  N NEW  O OPTIONS",
    "I YOUR RECORD  ANY KEY: THE RULES",
)
HELP_RULES_PAGE: Final = {
    variant: (
        "ACE PILES GO UP BY SUIT FROM THE ACE.",
        f"KING PILES: DOWN FROM THE KING, {same}",
        f"{suit}. ACES AND KINGS GO UP AT ONCE.",
        "A SPACE IS FILLED FROM THE DISCARD",
        "PILE, ELSE THE STOCK. WIN: ALL UP.",
        "ANY KEY: BACK TO THE GAME",
    )
    for variant, same, suit in ((1, "SAME", "SUIT"), (2, "OTHER", "COLOUR"))
}


@cache  # a verification draws some 100 screens a deal, 40 cards each
def card_cell(card: Card | None, spanish: bool) -> bytes:
    """A card's two characters as the game prints them (``--`` for none)."""
    if card is None:
        return EMPTY
    letter = card.rank_letter
    if spanish:
        letter = SPANISH_RANKS.get(letter, letter)
    rank = ord(letter) | (0x80 if card.is_red else 0)
    signs = SPANISH_SIGNS if spanish else FRENCH_SIGNS
    return bytes([rank, signs[card.suit]])


def status_line(deal: str, deck: int, won: int, played: int) -> str:
    """Row 1 (program lines 199 and 200): two blanks between the parts, or one when the
    text before the deals played passes column 33 (a ten-digit deal and a score of two
    digits or more), so that it never reaches the last column, which wraps the line
    (up to 9,999 deals played)."""
    text = f"DEAL {deal}  {deck} CARDS  WON {won}/"
    if len(text) > 33:
        return f"DEAL {deal} {deck} CARDS WON {won}/{played}"
    return text + str(played)


def hint_text(move: Move | None, card: Card | None, spanish: bool) -> bytes:
    """The message line after H: the policy's move (program lines 6600-6650)."""
    if move is None:
        return b"NO MOVE LEFT"
    if move.is_draw:
        return b"HINT: DRAW (SPACE)"
    assert card is not None
    source = PLACE_NAMES[2 * move.source : 2 * move.source + 2].encode()
    destination = PLACE_NAMES[2 * move.destination : 2 * move.destination + 2].encode()
    return b"HINT: " + card_cell(card, spanish) + b" " + source + b" TO " + destination


def question_text(card: Card, spanish: bool) -> bytes:
    """The question when a card picked could go to two places or more (program line
    222): the game waits for A or Q W E R."""
    return b"PICKED " + card_cell(card, spanish) + b" TO A OR QWER?"


def _pile_name(place: Place) -> bytes:
    return PLACE_NAMES[2 * place : 2 * place + 2].encode()


def _needed(position: Position, card: Card) -> Card:
    """The card the Ace pile of ``card``'s suit needs next."""
    deck = position.deck
    height = len(position.ace_piles()[card.suit])
    return deck.card(card.suit * deck.rank_count + height)


def nowhere_text(position: Position, card: Card, spanish: bool) -> bytes:
    """A card picked that no place takes (program lines 221, 243)."""
    pile = _pile_name(Place(Place.AS + card.suit))
    needed = card_cell(_needed(position, card), spanish)
    return card_cell(card, spanish) + b" GOES NOWHERE: " + pile + b" NEEDS " + needed


def refusal_text(position: Position, move: Move, spanish: bool) -> bytes:
    """A card sent where it cannot go (program lines 232, 245-248): its Ace pile needs
    another card; or the King pile chosen has no King yet, or takes other cards (in
    suit order). (A King pile's top goes only to its Ace pile: the game never asks
    where it goes.)"""
    card = top_card(position, move.source)
    assert card is not None
    pile = _pile_name(move.destination)
    if move.destination.is_ace_pile:
        return b"NOT ON " + pile + b": IT NEEDS " + card_cell(_needed(position, card), spanish)
    assert not move.source.is_king_pile, "the game never asks where a King pile's top goes"
    tops = position.king_piles()[move.destination - Place.KS]
    if not tops:
        return pile + b" HAS NO KING YET"
    accepts = position.variant.king_pile_accepts
    taken = [other for other in position.deck.cards() if accepts(tops[-1], other)]
    cells = b" OR ".join(card_cell(other, spanish) for other in taken)
    return b"NOT ON " + pile + b": IT TAKES " + cells


def top_card(position: Position, place: Place) -> Card | None:
    """The card a player picks at ``place``: a tableau space's, the discard pile's top,
    a King pile's top (None: nothing there)."""
    if place.is_tableau:
        return position.tableau()[place - Place.T1]
    if place == Place.W:
        discard = position.discard()
        return discard[-1] if discard else None
    if place.is_king_pile:
        pile = position.king_piles()[place - Place.KS]
        return pile[-1] if pile else None
    return None


def end_text(position: Position) -> bytes:
    """The message line when no move is left (program lines 266-267)."""
    if position.is_won():
        return b"YOU WON! ALL CARDS PLACED"
    return f"NO MORE MOVES: {position.foundation_count()} CARDS PLACED".encode()


@dataclass(frozen=True)
class Screen:
    """Everything the game's text screen shows, from the engine's side."""

    variant: int
    position: Position
    spanish: bool = False
    #: The deal's number as the status line shows it.
    deal: str = "1"
    won: int = 0
    played: int = 0
    #: The message line (row 17), ATASCII.
    message: bytes = b""
    #: Row 18 holds the end's keys (after the last move).
    end_keys: bool = False
    #: The next key clears rows 17-19 (M8 in the program: the end's lines, and the
    #: record key I's line), whatever it does; nothing shown.
    cleared_at_next_key: bool = False
    #: Row 19 at a game's end: the player's record (machfsol.atari.record_book), or
    #: why it is not saved.
    record: bytes = b""
    #: A won game shows its final transfer: each Ace pile topped by its King.
    transfer: bool = False
    #: The time the game took, in seconds, shown at its end next to the moves (None:
    #: not shown).
    time: int | None = None
    #: In the test mode, the deal in play and how many the configuration has (None:
    #: not shown; the first table at a boot comes before it).
    progress: tuple[int, int] | None = None
    #: The help's page shown under the table (1 the keys, 2 the rules; 0 none).
    help_page: int = 0
    #: The options page (O) instead of the table, as it shows the deck size and the
    #: style chosen so far (the deck's size and ``spanish``).
    options_page: bool = False
    #: The deal number's prompt (N) on rows 18-19, with the digits typed so far (None:
    #: no prompt), and whether the cursor shows after them (it does once a key has
    #: been echoed or refused with a buzz).
    prompt: str | None = None
    prompt_cursor: bool = False

    @cached_property
    def rows(self) -> list[bytearray]:
        """The 24 rows of 40 characters, ATASCII: drawn when first asked for (the
        verification makes tens of thousands of screens, and sums most of them once)."""
        return self._draw()

    # ------------------------------------------------------------------ drawing

    def _draw(self) -> list[bytearray]:
        rows = [bytearray(b" " * WIDTH) for _ in range(HEIGHT)]
        position = self.position
        deck = position.deck.size
        tableau_size = position.deck.tableau_size
        half = tableau_size // 2

        def put(row: int, column: int, data: bytes | str) -> None:
            text = data.encode("latin-1") if isinstance(data, str) else data
            rows[row][column : column + len(text)] = text

        if self.options_page:
            put(2, 0, TITLES[self.variant])
            put(5, 0, "OPTIONS")
            put(7, 0, f"D  DECK SIZE  {deck} CARDS")
            put(9, 0, f"S  STYLE      {'SPANISH' if self.spanish else 'FRENCH'}")
            put(12, 0, f"RETURN  PLAY DEAL {self.deal}")
            return rows
        put(0, 0, TITLES[self.variant])
        put(1, 0, status_line(self.deal, deck, self.won, self.played))
        if self.spanish:
            put(2, 0, SPANISH_LEGEND)
        put(3, 0, "ACES      TABLEAU            KINGS")
        signs = SPANISH_SIGNS if self.spanish else FRENCH_SIGNS
        aces = position.ace_piles()
        kings = position.king_piles()
        tableau = position.tableau()
        for suit in Suit:
            row = 5 + 2 * suit
            put(row, 0, bytes([signs[suit]]))
            ace = aces[suit][-1] if aces[suit] else None
            king = kings[suit][-1] if kings[suit] else None
            if self.transfer:
                ace = position.deck.card(suit * position.deck.rank_count + deck // 4 - 1)
                king = None
            put(row, 3, card_cell(ace, self.spanish))
            if suit < half:
                put(row, 10, str(suit + 1))
                put(row, 12, card_cell(tableau[suit], self.spanish))
                put(row, 20, str(suit + half + 1))
                put(row, 22, card_cell(tableau[suit + half], self.spanish))
            put(row, 30, card_cell(king, self.spanish))
            put(row, 33, KING_KEYS[suit])
        names = SPANISH_NAMES if self.spanish else FRENCH_NAMES
        legend = b""
        for suit in Suit:
            legend += bytes([signs[suit]]) + names[8 * suit : 8 * suit + 8].encode()
            if suit < 3:
                legend += b" "
        put(13, 0, legend)
        put(15, 0, f"STOCK {position.stock_count():<3}   0 DISCARD ")
        discard = position.discard()
        top = discard[-1] if discard else None
        put(15, 22, card_cell(top, self.spanish) + f" ({len(discard)})".encode())
        put(16, 0, f"MOVES {position.move_count}")
        if self.time is not None:
            put(16, 12, _time_text(self.time))
        if self.progress is not None:
            put(23, 0, "TEST DEAL {} OF {}".format(*self.progress))
        if self.help_page:
            page = HELP_KEYS_PAGE if self.help_page == 1 else HELP_RULES_PAGE[self.variant]
            for row, line in enumerate(page, start=17):
                put(row, 0, line)
            return rows
        put(17, 0, self.message)
        if self.end_keys:
            put(18, 0, END_KEYS)
        if self.record:
            put(19, 0, self.record)
        if self.prompt is not None:
            put(18, 0, PROMPT[0])
            put(19, 0, PROMPT[1] + self.prompt)
            if self.prompt_cursor:
                put(19, len(PROMPT[1]) + len(self.prompt), INVERSE_BLANK)
        put(20, 0, f"PICK 1-{tableau_size} 0 QWER, THEN A OR QWER")
        put(21, 0, HELP[0])
        put(22, 0, HELP[1])
        return rows

    # ------------------------------------------------------------------ what the game shows

    def atascii(self) -> bytes:
        """The 960 characters, ATASCII, row by row."""
        return b"".join(bytes(row) for row in self.rows)

    def memory(self) -> bytes:
        """The 960 bytes of screen memory (the ANTIC "internal" codes of the characters)."""
        return self.atascii().translate(_INTERNAL_CODES)

    def checksum(self) -> int:
        """What the test mode's routine sums the screen memory to."""
        return fletcher(self.memory())

    def text_lines(self) -> list[str]:
        """The rows as text (inverse video dropped), for messages."""
        return ["".join(chr(code & 0x7F) for code in row) for row in self.rows]


def internal(code: int) -> int:
    """ATASCII to the screen's internal code (the OS's conversion; inverse kept)."""
    low = code & 0x7F
    if low < 0x20:
        low += 0x40
    elif low < 0x60:
        low -= 0x20
    return low | (code & 0x80)


#: :func:`internal` of every byte, for bytes.translate.
_INTERNAL_CODES: Final = bytes(internal(code) for code in range(256))


def place_cells(screen: Screen) -> dict[str, tuple[int, int]]:
    """(row, column) of each place's card on ``screen``: the Ace and King piles, the
    tableau's spaces and the discard pile's top (W)."""
    cells = {
        **{f"A{suit.letter}": (5 + 2 * suit, 3) for suit in Suit},
        **{f"K{suit.letter}": (5 + 2 * suit, 30) for suit in Suit},
    }
    half = screen.position.deck.tableau_size // 2
    for space in range(2 * half):
        cells[f"T{space + 1}"] = (5 + 2 * (space % half), 12 if space < half else 22)
    cells["W"] = (15, 22)
    return cells


def diagnose(screen: Screen, shown: int) -> str:
    """What on the Atari's screen most likely differs from ``screen`` (the engine's), given
    the checksum the Atari recorded, found by trying each likely difference alone: one
    place showing another card (or none, or a card where there is none), the stock's or
    the discard pile's count, another message (a hint for another move, a refusal, an
    end), the end's keys or a won game's transfer shown or not, another score on the
    status line, another time at the end; else a general sentence."""
    return (
        _wrong_place(screen, shown)
        or _wrong_count(screen, shown)
        or _wrong_message(screen, shown)
        or _wrong_status(screen, shown)
        or _wrong_time(screen, shown)
        or "the screen differs from the engine's in more than one place, or outside the table"
    )


def _patched(screen: Screen, row: int, column: int, data: bytes) -> int:
    """The checksum of ``screen`` with ``data`` written at ``row``, ``column``."""
    memory = bytearray(screen.memory())
    for offset, code in enumerate(data):
        memory[row * WIDTH + column + offset] = internal(code)
    return fletcher(bytes(memory))


def _wrong_place(screen: Screen, shown: int) -> str | None:
    cards: list[Card | None] = [None, *screen.position.deck.cards()]
    for place, (row, column) in place_cells(screen).items():
        wanted = bytes(screen.rows[row][column : column + 2])
        for card in cards:
            cell = card_cell(card, screen.spanish)
            if cell != wanted and _patched(screen, row, column, cell) == shown:
                was = "no card" if wanted == EMPTY else _card_name(wanted, screen)
                now = "no card" if card is None else card.code
                return f"{place}: the screen shows {now} where the engine has {was}"
    return None


def _wrong_count(screen: Screen, shown: int) -> str | None:
    size = screen.position.deck.size
    discard = len(screen.position.discard())
    top = bytes(screen.rows[15][22:24])
    for count in range(size + 1):
        if count != discard and _patched(screen, 15, 22, top + f" ({count})  ".encode()) == shown:
            return f"the discard pile's size: the screen shows {count}, the engine has {discard}"
    stock = screen.position.stock_count()
    for count in range(size + 1):
        if count != stock and _patched(screen, 15, 6, f"{count:<3}".encode()) == shown:
            return f"the stock: the screen shows {count}, the engine has {stock}"
    return None


def _messages(screen: Screen) -> list[bytes]:
    """Every message the game might show on this table: none, the refusals, a hint for
    each legal move, the ends."""
    position = screen.position
    found = [
        b"",
        b"PRESS A KEY OF THE HELP BELOW",
        b"NO MOVE LEFT",
        b"NOTHING TO UNDO",
        b"NOTHING TO REDO",
        b"THE STOCK IS EMPTY",
    ]
    for move in position.legal_moves():
        card = None if move.is_draw else position.card_to_move(move)
        found.append(hint_text(move, card, screen.spanish))
        if card is not None:
            found.append(question_text(card, screen.spanish))
    found.append(b"YOU WON! ALL CARDS PLACED")
    found += [f"NO MORE MOVES: {n} CARDS PLACED".encode() for n in range(position.deck.size + 1)]
    return found


def _wrong_message(screen: Screen, shown: int) -> str | None:
    for message in _messages(screen):
        for end_keys in (screen.end_keys, not screen.end_keys):
            for transfer in (screen.transfer, not screen.transfer):
                if (message, end_keys, transfer) == (
                    screen.message,
                    screen.end_keys,
                    screen.transfer,
                ):
                    continue
                trial = replace(screen, message=message, end_keys=end_keys, transfer=transfer)
                if trial.checksum() != shown:
                    continue
                if message != screen.message:
                    return (
                        f"the message line shows {_quoted(message)}, "
                        f"the engine's {_quoted(screen.message)}"
                    )
                if end_keys != screen.end_keys:
                    return f"the end's keys (row 18) {'shown' if end_keys else 'not shown'}"
                return (
                    f"a won game's final transfer {'shown' if transfer else 'not shown'}"
                    " on the foundations"
                )
    return None


def _wrong_status(screen: Screen, shown: int) -> str | None:
    for played in range(screen.played + 3):
        for won in range(played + 1):
            other = (won, played) != (screen.won, screen.played)
            if other and replace(screen, won=won, played=played).checksum() == shown:
                return (
                    f"the status line shows WON {won}/{played}, "
                    f"the engine's WON {screen.won}/{screen.played}"
                )
    return None


#: How far from the engine's time a wrong one at the end is looked for, in seconds.
_TIME_SEARCH: Final = 600


def _wrong_time(screen: Screen, shown: int) -> str | None:
    engine = screen.time
    if engine is None:
        return None
    # nearest first: a 16-bit checksum can match a far time by chance
    near = sorted(range(engine + _TIME_SEARCH), key=lambda time: abs(time - engine))
    # a win's time may be the record's best too (row 19): then both show the wrong one
    best = f" BEST {_time_text(engine).removeprefix('TIME ')}".encode()
    for time in near[1:]:
        wrong = replace(screen, time=time)
        candidates = [wrong]
        if screen.record.endswith(best):
            new_best = f" BEST {_time_text(time).removeprefix('TIME ')}".encode()
            candidates.append(replace(wrong, record=screen.record[: -len(best)] + new_best))
        if any(candidate.checksum() == shown for candidate in candidates):
            return f"the end shows {_time_text(time)}, the engine's {_time_text(engine)}"
    if replace(screen, time=None).checksum() == shown:
        return f"the end shows no time, the engine's {_time_text(engine)}"
    return None


def _time_text(seconds: int) -> str:
    minutes, seconds = divmod(seconds, 60)
    return f"TIME {minutes}:{seconds:02d}"


#: The French suits' signs as letters, for messages (inverse video dropped).
_SIGN_LETTERS: Final = {
    code & 0x7F: suit.letter for code, suit in zip(FRENCH_SIGNS, Suit, strict=True)
}


def _quoted(message: bytes) -> str:
    """A message line as text: a red card's inverse video dropped, a suit's sign as its
    letter (Spanish cards' signs are letters already)."""
    text = "".join(_SIGN_LETTERS.get(code & 0x7F, chr(code & 0x7F)) for code in message)
    return f"'{text}'" if text else "none"


def _card_name(cell: bytes, screen: Screen) -> str:
    for card in screen.position.deck.cards():
        if card_cell(card, screen.spanish) == cell:
            return card.code
    return repr(cell)
