"""The transcript of a game: a plain-text record an Atari BASIC program can PRINT #.

docs/TRANSCRIPT.md is the specification. In short: ASCII lines of at most 38 characters
(an Atari prints them on its 40-column screen), a versioned header, the dealt order ten
cards a line, then one line per card movement, the player's (``M``) and the forced ones
(``F``) alike, and a final ``RESULT`` line. Writing the forced movements costs the BASIC
program one PRINT each but lets the checker point at the very first line where the
program's table differs from the engine's.

Example (``machfsol autoplay --variant 1 --seed 7 --deck 40``, shortened)::

    MACHFSOL TRANSCRIPT 1
    PROGRAM MACHFSOL-PY 0.1.0
    VARIANT 1
    DECK 40
    SEED 7
    PLAYER AUTO
    ORDER 3H 2D 5S 5D 7C 3C QD 2S 5H AH
    ...
    MOVES
    F S T1 3H
    ...
    M S W AH
    F W AH AH
    ...
    M W AH 2H
    ...
    RESULT WON 40 MOVES 75

Lines ``JIFFIES <word> <number>`` (timings measured by an Atari program) may appear
anywhere after the first line; they are kept but never checked. After the RESULT line,
lines ``SCREEN <number> ...`` (the Atari test mode's checksums of its screen after each
step, 0-65535, any count a line) are kept too: the engine has no screen, and
``machfsol verify`` checks them against the Atari screen the engine's table makes
(machfsol.atari.screen_model). Lines may end with LF, CR LF or ATASCII's end of line
(0x9B).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from machfsol import __version__
from machfsol.engine.cards import Card, CardError, Deck
from machfsol.engine.deal import MAX_SEED, MIN_SEED
from machfsol.engine.rules import Place, Position, Step
from machfsol.errors import MachfsolError

FORMAT_VERSION = 1
MAGIC = f"MACHFSOL TRANSCRIPT {FORMAT_VERSION}"
#: The PROGRAM line of transcripts this engine writes (Atari programs name themselves).
PROGRAM = f"MACHFSOL-PY {__version__}"
MAX_LINE = 38
#: The longest file read as a transcript: 100,000 lines of 40 bytes, far more than the
#: movements of any game.
LARGEST_TRANSCRIPT = 4 * 10**6
CARDS_PER_ORDER_LINE = 10
ATASCII_EOL = 0x9B


class TranscriptError(MachfsolError):
    """A transcript that cannot be read; the message names the file and the line."""


class Player(enum.Enum):
    """Who chose the moves: the checker holds AUTO and GREEDY games to their policy,
    HUMAN and SOLVER games (the perfect-information solver's winning lines, which no
    fair player could be expected to find) only to legality and the result."""

    AUTO = "AUTO"
    GREEDY = "GREEDY"
    HUMAN = "HUMAN"
    SOLVER = "SOLVER"


class Outcome(enum.Enum):
    WON = "WON"
    LOST = "LOST"
    QUIT = "QUIT"  # a person gave up before the end (only with PLAYER HUMAN)


@dataclass(frozen=True)
class Line:
    """One movement line: ``M`` (the player's move) or ``F`` (forced), with its number."""

    number: int
    forced: bool
    source: Place
    destination: Place
    card: Card

    def text(self) -> str:
        return step_text(self.forced, self.source, self.destination, self.card)


@dataclass(frozen=True)
class Result:
    number: int  # line number of the RESULT line
    outcome: Outcome
    on_foundations: int
    moves: int  # the number of M lines


@dataclass(frozen=True)
class Transcript:
    """A parsed transcript; ``order_lines`` gives the line number of each ORDER line."""

    name: str
    program: str
    variant: int
    deck_size: int
    seed: int | None
    player: Player
    order: tuple[Card, ...]
    order_lines: tuple[int, ...]
    lines: tuple[Line, ...]
    result: Result
    jiffies: tuple[tuple[str, int], ...] = field(default=())
    header_lines: dict[str, int] = field(default_factory=dict)
    #: The SCREEN lines' checksums, each with its line number, in order.
    screens: tuple[tuple[int, int], ...] = field(default=())


def step_text(forced: bool, source: Place, destination: Place, card: Card) -> str:
    return f"{'F' if forced else 'M'} {source.name} {destination.name} {card.code}"


def result_text(outcome: Outcome, on_foundations: int, moves: int) -> str:
    return f"RESULT {outcome.value} {on_foundations} MOVES {moves}"


# ------------------------------------------------------------------------------ writing


def write(
    *,
    program: str,
    variant: int,
    order: Sequence[Card],
    seed: int | None,
    player: Player,
    steps: Iterable[Step],
    outcome: Outcome,
    on_foundations: int,
) -> str:
    """The transcript text (LF line ends) of a game whose steps are ``steps``."""
    lines = [
        MAGIC,
        f"PROGRAM {program}",
        f"VARIANT {variant}",
        f"DECK {len(order)}",
        f"SEED {'NONE' if seed is None else seed}",
        f"PLAYER {player.value}",
    ]
    for start in range(0, len(order), CARDS_PER_ORDER_LINE):
        chunk = order[start : start + CARDS_PER_ORDER_LINE]
        lines.append("ORDER " + " ".join(card.code for card in chunk))
    lines.append("MOVES")
    moves = 0
    for step in steps:
        lines.append(step_text(step.forced, step.source, step.destination, step.card))
        moves += not step.forced
    lines.append(result_text(outcome, on_foundations, moves))
    for line in lines:
        if len(line) > MAX_LINE:  # pragma: no cover - guarded by the format itself
            raise TranscriptError(f"line {line!r} is longer than {MAX_LINE} characters")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ reading


def split_lines(data: bytes) -> list[str]:
    """Lines of a transcript file written by Python (LF) or by an Atari (0x9B)."""
    text = data.replace(bytes([ATASCII_EOL]), b"\n").decode("latin-1")
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Reader:
    """Reads the lines of one transcript, raising errors that name file and line."""

    def __init__(self, name: str, lines: list[str]) -> None:
        self.name = name
        self.lines = lines
        self.index = 0
        self.jiffies: list[tuple[str, int]] = []
        self.screens: list[tuple[int, int]] = []

    def fail(self, number: int, message: str) -> TranscriptError:
        return TranscriptError(f"{self.name}:{number}: {message}")

    def next(self, what: str) -> tuple[int, list[str]]:
        """The next non-timing line as (line number, tokens); error at end of file."""
        while self.index < len(self.lines):
            number = self.index + 1
            text = self.lines[self.index]
            self.index += 1
            if len(text) > MAX_LINE:
                raise self.fail(number, f"line is longer than {MAX_LINE} characters")
            if not text.isascii() or not text.isprintable():
                raise self.fail(number, "line has characters other than printable ASCII")
            tokens = text.split()
            if tokens and tokens[0] == "JIFFIES" and number > 1:
                self._jiffies(number, tokens)
                continue
            return number, tokens
        last = max(len(self.lines), 1)
        raise self.fail(last, f"transcript is truncated: expected {what}")

    def only_timings_left(self) -> None:
        """Check that nothing but JIFFIES and SCREEN lines follow the RESULT line."""
        while self.index < len(self.lines):
            number = self.index + 1
            text = self.lines[self.index]
            self.index += 1
            tokens = text.split()
            plain = len(text) <= MAX_LINE and text.isascii() and text.isprintable()
            if tokens and tokens[0] == "JIFFIES" and plain:
                self._jiffies(number, tokens)
                continue
            if tokens and tokens[0] == "SCREEN" and plain:
                self._screen(number, tokens)
                continue
            raise self.fail(
                number, "nothing but JIFFIES and SCREEN lines may follow the RESULT line"
            )

    def _screen(self, number: int, tokens: list[str]) -> None:
        values = tokens[1:]
        if not values or not all(_ascii_digits(v) and int(v) <= 0xFFFF for v in values):
            raise self.fail(number, "expected 'SCREEN <number 0-65535> ...'")
        self.screens.extend((number, int(value)) for value in values)

    def _jiffies(self, number: int, tokens: list[str]) -> None:
        if len(tokens) != 3 or not _ascii_digits(tokens[2]):
            raise self.fail(number, "expected 'JIFFIES <word> <number>'")
        self.jiffies.append((tokens[1], int(tokens[2])))

    def keyword(self, word: str, count: int) -> tuple[int, list[str]]:
        """The next line, which must be ``word`` followed by ``count`` values."""
        number, tokens = self.next(f"a {word} line")
        if not tokens or tokens[0] != word or len(tokens) != count + 1:
            shown = " ".join(tokens) or "an empty line"
            raise self.fail(number, f"expected {word} with {count} value(s), found {shown!r}")
        return number, tokens[1:]

    def integer(self, number: int, text: str, low: int, high: int, what: str) -> int:
        if not _ascii_digits(text) or not low <= int(text) <= high:
            raise self.fail(number, f"{what} {text!r} is not a number in {low}..{high}")
        return int(text)


def _ascii_digits(text: str) -> bool:
    """Only 0-9 (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def _place(reader: _Reader, number: int, token: str) -> Place:
    try:
        return Place[token]
    except KeyError:
        raise reader.fail(number, f"{token!r} is not a place (S W T1..T8 AS.. KS..)") from None


def parse(data: bytes | str, name: str = "<transcript>") -> Transcript:
    """Parse a transcript strictly; TranscriptError names ``name`` and the line."""
    raw = data.encode("latin-1") if isinstance(data, str) else data
    reader = _Reader(name, split_lines(raw))
    number, tokens = reader.next("the first line")
    if " ".join(tokens) != MAGIC:
        raise reader.fail(number, f"expected {MAGIC!r} (is this a MAChFsol transcript?)")
    header: dict[str, int] = {}
    number, tokens = reader.next("a PROGRAM line")
    if len(tokens) < 2 or tokens[0] != "PROGRAM":
        raise reader.fail(number, "expected 'PROGRAM <name> ...'")
    program = " ".join(tokens[1:])
    header["PROGRAM"] = number
    number, values = reader.keyword("VARIANT", 1)
    variant = reader.integer(number, values[0], 1, 2, "variant")
    header["VARIANT"] = number
    number, values = reader.keyword("DECK", 1)
    deck_size = reader.integer(number, values[0], 20, 52, "deck size")
    try:
        deck = Deck(deck_size)
    except CardError as error:
        raise reader.fail(number, str(error)) from None
    header["DECK"] = number
    number, values = reader.keyword("SEED", 1)
    seed = (
        None
        if values[0] == "NONE"
        else reader.integer(number, values[0], MIN_SEED, MAX_SEED, "seed")
    )
    header["SEED"] = number
    number, values = reader.keyword("PLAYER", 1)
    try:
        player = Player(values[0])
    except ValueError:
        names = ", ".join(p.value for p in Player)
        raise reader.fail(number, f"player {values[0]!r} is not one of {names}") from None
    header["PLAYER"] = number

    order: list[Card] = []
    order_lines: list[int] = []
    while len(order) < deck_size:
        number, tokens = reader.next("an ORDER line")
        if not tokens or tokens[0] != "ORDER" or len(tokens) < 2:
            raise reader.fail(number, f"expected ORDER with the rest of the {deck_size} cards")
        for code in tokens[1:]:
            try:
                order.append(deck.parse_card(code))
            except CardError as error:
                raise reader.fail(number, str(error)) from None
            order_lines.append(number)
        if len(order) > deck_size:
            raise reader.fail(number, f"ORDER lines hold more than {deck_size} cards")
    seen: set[Card] = set()
    for card, line_number in zip(order, order_lines, strict=True):
        if card in seen:
            raise reader.fail(line_number, f"card {card.code} appears twice in ORDER")
        seen.add(card)
    number, tokens = reader.next("the MOVES line")
    if tokens != ["MOVES"]:
        raise reader.fail(number, "expected MOVES after the ORDER lines")

    lines: list[Line] = []
    while True:
        number, tokens = reader.next("more moves or the RESULT line")
        if tokens and tokens[0] == "RESULT":
            result = _result(reader, number, tokens)
            break
        if len(tokens) != 4 or tokens[0] not in ("M", "F"):
            raise reader.fail(number, "expected 'M|F <from> <to> <card>' or RESULT")
        try:
            card = deck.parse_card(tokens[3])
        except CardError as error:
            raise reader.fail(number, str(error)) from None
        source = _place(reader, number, tokens[1])
        destination = _place(reader, number, tokens[2])
        lines.append(Line(number, tokens[0] == "F", source, destination, card))
    if result.outcome is Outcome.QUIT and player is not Player.HUMAN:
        raise reader.fail(result.number, "only a HUMAN player can QUIT")
    reader.only_timings_left()
    return Transcript(
        name=name,
        program=program,
        variant=variant,
        deck_size=deck_size,
        seed=seed,
        player=player,
        order=tuple(order),
        order_lines=tuple(order_lines),
        lines=tuple(lines),
        result=result,
        jiffies=tuple(reader.jiffies),
        header_lines=header,
        screens=tuple(reader.screens),
    )


def _result(reader: _Reader, number: int, tokens: list[str]) -> Result:
    if len(tokens) != 5 or tokens[3] != "MOVES":
        raise reader.fail(number, "expected 'RESULT WON|LOST|QUIT <cards> MOVES <moves>'")
    try:
        outcome = Outcome(tokens[1])
    except ValueError:
        raise reader.fail(number, f"result {tokens[1]!r} is not WON, LOST or QUIT") from None
    cards = reader.integer(number, tokens[2], 0, 52, "card count")
    moves = reader.integer(number, tokens[4], 0, 99999, "move count")
    return Result(number, outcome, cards, moves)


def of_game(position: Position, *, seed: int | None, player: Player) -> str:
    """The transcript of the game played so far in ``position`` (by this engine)."""
    if position.is_won():
        outcome = Outcome.WON
    elif position.is_over():
        outcome = Outcome.LOST
    else:
        outcome = Outcome.QUIT
    return write(
        program=PROGRAM,
        variant=position.variant.number,
        order=position.order,
        seed=seed,
        player=player,
        steps=position.steps(),
        outcome=outcome,
        on_foundations=position.foundation_count(),
    )
