"""Where the full-screen game puts everything: the screen as positioned pieces of text.

The table is laid out like MACHFSOL's on the Atari (docs/GAME.md, the screenshots in
docs/) and like the physical table of the rules: title and status at the top (the
moves made and the time played on the right), the Ace piles on the left (one row per
suit, spades hearts clubs diamonds from the top, each row led by its suit's sign), the
tableau in two columns in the middle with each space's key, the King piles on the
right with their keys Z X C V, then the suits' legend, the stock and the discard pile
(key 0), two message lines, and the keys' help (at the end of a game: the statistics).
The help, the statistics and the options each have a screen of their own.

Layout is pure (game state in, :class:`Span` list out) so that tests check it without a
terminal; machfsol.terminal.curses_ui paints the spans, centred in the window. A span
carries a :class:`Look` (red card, key label, picked card, cursor, possible
destination), which the front end turns into colour and video attributes, and the pile
it shows, if any, which a mouse click picks (:func:`place_at`).
"""

from __future__ import annotations

import enum
import textwrap
from dataclasses import dataclass

from machfsol.engine.cards import DECK_SIZES, Card, Suit
from machfsol.engine.rules import VARIANTS, Move, Place, Position
from machfsol.terminal.full_screen import FullScreenGame, Mode
from machfsol.terminal.pile_keys import KING_KEYS
from machfsol.terminal.statistics import clock_text
from machfsol.terminal.table_view import EMPTY, CardFace, Style, count_of

#: Rows the screen needs: title to the last help line (the Atari's 24 less one).
HEIGHT = 23
#: Columns at least: the help lines and messages need this much even for small cards.
MIN_WIDTH = 64
#: Rows of the piece of the screen that shows messages.
MESSAGE_ROW = 17
MESSAGE_LINES = 3


class Look(enum.Flag):
    """How a piece of text is shown, beyond its characters."""

    PLAIN = 0
    RED = enum.auto()  # a red card (French style) or cups/coins (Spanish)
    KEY = enum.auto()  # a key's name in a label
    TITLE = enum.auto()
    PICKED = enum.auto()  # the picked card
    CURSOR = enum.auto()  # the pile under the arrow keys' cursor
    TARGET = enum.auto()  # a pile the picked card may go to, or the hint's move


@dataclass(frozen=True)
class Span:
    """Text at a row and column of the game's screen (0, 0: top left)."""

    row: int
    column: int
    text: str
    look: Look = Look.PLAIN
    place: Place | None = None  # the pile this text shows (a click there picks it)


@dataclass(frozen=True)
class Columns:
    """The table's columns, from the widest card label."""

    label: int  # widest card label
    sign: int  # widest row sign (suit symbol, or suit word)
    gap: int = 5

    @property
    def ace(self) -> int:
        return self.sign + 1

    @property
    def left(self) -> int:
        return self.ace + self.label + self.gap

    @property
    def right(self) -> int:
        return self.left + 2 + self.label + self.gap

    @property
    def king(self) -> int:
        return self.right + 2 + self.label + self.gap

    @property
    def width(self) -> int:
        return self.king + self.label + 2


def columns_for(face: CardFace, position: Position) -> Columns:
    labels = [short_label(face, card) for card in position.deck.cards()]
    signs = [suit_sign(face, suit) for suit in Suit]
    return Columns(max(len(EMPTY), *map(len, labels)), max(map(len, signs)))


def width_for(face: CardFace, position: Position) -> int:
    """Columns the screen needs for this deck in this style."""
    return max(MIN_WIDTH, columns_for(face, position).width)


# ----------------------------------------------------------------------- cards


_SPANISH_SHORT = {"A": "1", "T": "10", "J": "S", "Q": "C", "K": "R"}
_SUIT_SYMBOLS = {Suit.S: "\u2660", Suit.H: "\u2665", Suit.C: "\u2663", Suit.D: "\u2666"}


def short_label(face: CardFace, card: Card) -> str:
    """A card on the table: ``10♥`` (``10H`` without symbols); Spanish ``C coins``
    (S sota, C caballo, R rey, explained on the legend line, as on the Atari)."""
    if face.style is Style.SPANISH:
        rank = _SPANISH_SHORT.get(card.rank_letter, card.rank_letter)
        return f"{rank} {card.suit.spanish_name}"
    return face.plain_label(card)


def suit_sign(face: CardFace, suit: Suit) -> str:
    """What leads a suit's row: its symbol (or letter), or the Spanish suit's name."""
    if face.style is Style.SPANISH:
        return suit.spanish_name
    return _SUIT_SYMBOLS[suit] if face.symbols else suit.letter


def _is_red(face: CardFace, suit: Suit) -> bool:
    """Hearts and diamonds; in Spanish style cups and coins (the Atari shows both in
    inverse video: they are the "red" suits of variant 2's alternation)."""
    return face.colour and suit.is_red


def _card_span(row: int, column: int, face: CardFace, card: Card | None, width: int) -> Span:
    if card is None:
        return Span(row, column, EMPTY.ljust(width))
    look = Look.RED if _is_red(face, card.suit) else Look.PLAIN
    return Span(row, column, short_label(face, card).ljust(width), look)


# ----------------------------------------------------------------------- screen


def layout(game: FullScreenGame) -> list[Span]:
    """Everything on the screen, for the game as it stands."""
    if game.mode is Mode.OPTIONS:
        return _options_screen(game)
    if game.mode is Mode.HELP:
        return _help_screen(game)
    if game.mode is Mode.STATISTICS:
        return _statistics_screen(game)
    sitting = game.sitting
    position = sitting.position
    face = game.face
    cols = columns_for(face, position)
    width = width_for(face, position)
    clock = _clock(game)
    spans = [
        Span(0, 0, f"{sitting.variant.title}: King piles go down {_build_words(game)}", Look.TITLE),
        Span(1, 0, _status(game)),
        Span(2, width - len(clock), clock),
    ]
    if face.style is Style.SPANISH:
        spans.append(Span(2, 0, "1 ace, S sota, C caballo, R rey"))
    spans += [
        Span(3, 0, "ACES"),
        Span(3, cols.left, "TABLEAU"),
        Span(3, cols.king, "KINGS"),
    ]
    spans += _piles(game, cols)
    if face.style is Style.FRENCH:
        spans += _legend(face)
    spans += _stock_and_discard(game, cols)
    spans += _messages(game, width)
    spans += _help(game)
    return spans


def _build_words(game: FullScreenGame) -> str:
    return game.sitting.title().text().split("go down ")[1]


def _status(game: FullScreenGame) -> str:
    sitting = game.sitting
    deal = "your own order" if sitting.seed is None else f"Deal {sitting.seed}"
    score = sitting.score
    return f"{deal}   {sitting.position.deck.size} cards   Won {score.won} of {score.played}"


def _clock(game: FullScreenGame) -> str:
    """``Moves 23   Time 1:05``: the moves made in this deal and the time played."""
    sitting = game.sitting
    return f"Moves {sitting.moves}   Time {clock_text(sitting.seconds())}"


def _place_look(game: FullScreenGame, place: Place) -> Look:
    look = Look.PLAIN
    if game.picked is place:
        look |= Look.PICKED
    if game.cursor is place:
        look |= Look.CURSOR
    hinted: Move | None = game.hinted
    if place in game.targets() or (
        hinted is not None and place in (hinted.source, hinted.destination)
    ):
        look |= Look.TARGET
    return look


def _pile(
    game: FullScreenGame, row: int, column: int, place: Place, card: Card | None, width: int
) -> Span:
    """A pile's top card (or ``--``), showing whether it is picked, under the cursor or
    a possible destination."""
    span = _card_span(row, column, game.face, card, width)
    return Span(row, column, span.text, span.look | _place_look(game, place), place)


def _piles(game: FullScreenGame, cols: Columns) -> list[Span]:
    position = game.sitting.position
    face = game.face
    spans: list[Span] = []
    aces = position.ace_piles()
    kings = position.king_piles()
    tableau = position.tableau()
    half = len(tableau) // 2
    for suit in Suit:
        row = 5 + 2 * suit
        sign = suit_sign(face, suit)
        spans.append(Span(row, 0, sign, Look.RED if _is_red(face, suit) else Look.PLAIN))
        ace_top = aces[suit][-1] if aces[suit] else None
        ace = Place(Place.AS + suit)
        spans.append(_pile(game, row, cols.ace, ace, ace_top, cols.label))
        for index, column in ((suit, cols.left), (suit + half, cols.right)):
            if suit >= half:
                break
            space = Place(Place.T1 + index)
            spans.append(Span(row, column, str(index + 1), Look.KEY, space))
            spans.append(_pile(game, row, column + 2, space, tableau[index], cols.label))
        king_top = kings[suit][-1] if kings[suit] else None
        king = Place(Place.KS + suit)
        spans.append(_pile(game, row, cols.king, king, king_top, cols.label))
        spans.append(Span(row, cols.king + cols.label + 1, KING_KEYS[suit], Look.KEY, king))
    if not tableau:
        spans.append(Span(5, cols.left, "(no tableau with 20 cards)"))
    return spans


def _legend(face: CardFace) -> list[Span]:
    spans = []
    column = 0
    for suit in Suit:
        text = f"{suit_sign(face, suit)} {suit.french_name}"
        spans.append(Span(13, column, text, Look.RED if _is_red(face, suit) else Look.PLAIN))
        column += len(text) + 3
    return spans


def _stock_and_discard(game: FullScreenGame, cols: Columns) -> list[Span]:
    position = game.sitting.position
    discard = position.discard()
    top = discard[-1] if discard else None
    stock = Span(15, 0, f"STOCK {position.stock_count()}", _place_look(game, Place.S), Place.S)
    column = cols.left
    label = Span(15, column, "0", Look.KEY, Place.W)
    word = Span(15, column + 2, "DISCARD")
    card = _pile(game, 15, column + 10, Place.W, top, 0)
    size = Span(15, column + 11 + len(card.text), f"({len(discard)})", place=Place.W)
    return [stock, label, word, card, size]


def _messages(game: FullScreenGame, width: int) -> list[Span]:
    if game.mode is Mode.DEAL_NUMBER:
        lines = [
            "Deal number 1-2147483646 (RETURN alone: random; ESC: back):",
            f"> {game.entry}_   {game.entry_note}".rstrip(),
        ]
    elif game.mode is Mode.CONFIRM:  # the question stays whole: it may not be cut
        lines = textwrap.wrap(game.message, width)[:MESSAGE_LINES]
    elif game.mode is Mode.SAVE_NAME:  # a long name shows its end, where one types
        lines = ["Save the transcript as (RETURN saves; ESC: back):", f"> {game.entry}_"]
        if len(lines[1]) > width:
            lines[1] = "> ..." + lines[1][len(lines[1]) - width + 5 :]
    else:
        lines = textwrap.wrap(game.message, width) or [""]
        if len(lines) > MESSAGE_LINES:
            lines = lines[:MESSAGE_LINES]
            lines[-1] = lines[-1][: width - 3] + "..."
    return [Span(MESSAGE_ROW + i, 0, line) for i, line in enumerate(lines)]


def _help(game: FullScreenGame) -> list[Span]:
    position = game.sitting.position
    if position.is_over():
        record = game.sitting.record()
        deck = position.deck.size
        words = f"Statistics, {game.sitting.variant.title}, {deck} cards: {record.text()}."
        lines = ["N new deal  G again  U undo  I stats  O options  S save  Q quit"]
        return [Span(20, 0, lines[0], Look.KEY)] + [
            Span(21 + i, 0, line) for i, line in enumerate(textwrap.wrap(words, MIN_WIDTH)[:2])
        ]
    size = position.deck.tableau_size
    spaces = f"1-{size} " if size else ""
    lines = [
        f"PICK {spaces}0 ZXCV, THEN A OR ZXCV   (arrows + RETURN, mouse)",
        "SPACE draw  H hint  U undo  R redo  P play all  W winnable?",
        "N new  G same deal  O options  S save  I stats  ? help  Q quit",
    ]
    return [Span(20 + i, 0, line, Look.KEY) for i, line in enumerate(lines)]


#: How the help and statistics screens say how to leave them.
BACK = "any key: back"

#: The help screen: the rules in short, then the keys (at most 64 columns, 23 rows).
HELP_LINES = (
    "THE GAME: put every card on the foundations. Ace piles (left) go",
    "up in suit from the Ace; King piles (right) go down from their",
    "King, one rank lower: in suit in MAChFsol 1, in alternating",
    "colour in MAChFsol 2. Cards move only onto Ace and King piles; a",
    "King-pile top may go to its Ace pile. Aces and Kings go up by",
    "themselves; an empty space takes the discard top (else the",
    "stock's) at once. When no move is left, the game is over.",
    "",
    "1-8 0 Z X C V  the card of a space, the discard top, a King-pile",
    "               top: it goes to its only place; if it has two:",
    "A  Z X C V     its Ace pile / that King pile   ESC: let it go",
    "SPACE draw     H hint       P play all    U undo     R redo",
    "N new deal     G the same deal again      O options  S save",
    "I statistics   W can this deal still be won? (the solver)",
    "? F1 this help   Q quit (a game under way is kept for next time)",
    "Arrows + RETURN, or the mouse: click a card, then its place.",
)


def _help_screen(game: FullScreenGame) -> list[Span]:
    title = f"{game.sitting.variant.title}: HELP"
    spans = [Span(0, 0, title, Look.TITLE), Span(0, MIN_WIDTH - len(BACK), BACK)]
    spans += [Span(2 + i, 0, line) for i, line in enumerate(HELP_LINES)]
    return spans


def _statistics_screen(game: FullScreenGame) -> list[Span]:
    statistics = game.sitting.statistics
    spans = [
        Span(0, 0, "STATISTICS", Look.TITLE),
        Span(0, MIN_WIDTH - len(BACK), BACK),
    ]
    records = statistics.records()
    current = (game.sitting.variant.number, game.sitting.position.deck.size)
    records[current] = game.sitting.record()  # with the game on the table, once over
    row = 2
    for number in sorted(VARIANTS):
        for size in sorted(DECK_SIZES, reverse=True):
            record = records.get((number, size))
            if record is None or row > 17:
                continue
            head = f"{VARIANTS[number].title}, {size} cards:"
            look = Look.KEY if (number, size) == current else Look.PLAIN
            spans.append(Span(row, 0, head, look))
            spans.append(Span(row + 1, 2, record.text()))
            row += 2
    note = statistics.problem or (
        f"Kept in {statistics.path}" if statistics.path is not None else "Not kept: no home."
    )
    for i, line in enumerate(textwrap.wrap(note, MIN_WIDTH)[:3]):
        spans.append(Span(20 + i, 0, line))
    return spans


def _options_screen(game: FullScreenGame) -> list[Span]:
    options = game.options
    assert options is not None
    seed = game.sitting.seed
    again = "a random deal" if seed is None else f"deal {seed}"
    variant_words = {
        1: "1: King piles go down in suit",
        2: "2: King piles go down in alternating colour",
    }
    return [
        Span(0, 0, game.sitting.variant.title, Look.TITLE),
        Span(3, 0, "OPTIONS"),
        Span(5, 0, "D", Look.KEY),
        Span(5, 4, f"deck size       {count_of(options.deck_size, 'card')}"),
        Span(7, 0, "S", Look.KEY),
        Span(7, 4, f"card style      {options.style.value.capitalize()}"),
        Span(9, 0, "V", Look.KEY),
        Span(9, 4, f"variant         {variant_words[options.variant]}"),
        Span(11, 0, "P", Look.KEY),
        Span(11, 4, f"play-all pace   {options.pace.value} moves a second"),
        Span(13, 0, "H", Look.KEY),
        Span(13, 4, f"hints from      {options.hints.value}"),
        Span(16, 0, "RETURN", Look.KEY),
        Span(16, 8, f"play {again} again, with these options"),  # fits any seed
        Span(18, 0, "ESC", Look.KEY),
        Span(18, 8, "back to the game, nothing changed"),
    ]


def place_at(game: FullScreenGame, row: int, column: int) -> Place | None:
    """The pile shown at ``row``, ``column`` of the game's screen (a mouse click)."""
    for span in layout(game):
        width = max(len(span.text), 2)
        if span.place is not None and span.row == row and 0 <= column - span.column < width:
            return span.place
    return None


def size_needed(game: FullScreenGame) -> tuple[int, int]:
    """Rows and columns the screen needs now."""
    return HEIGHT, width_for(game.face, game.sitting.position)
