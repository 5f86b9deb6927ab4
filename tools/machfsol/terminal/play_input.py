"""What a player of the terminal game types, read into command values.

One line is one command. The words are few and forgiving (any case, spaces optional
inside a move) because the game is meant for people at a keyboard:

- a move names a source and, unless only one destination is legal, a destination:
  ``3`` or ``t3`` (tableau space 3), ``d``, ``w`` or ``0`` (the discard top), ``ks``..``kd``
  (a King pile's top); destination ``a`` (the card's own Ace pile), ``as``..``ad``,
  ``k`` (the one King pile that takes it) or ``ks``..``kd``. So ``3``, ``3 a``, ``d kh``,
  ``dkh`` and the transcript notation ``T3 AH`` / ``W KS`` all work;
- a transcript's movement line works too, with or without its ``M`` and its card
  (``M T3 AC 5C``, ``T3 AC``, ``S W KC``): a game's lines can be typed or pasted back;
- an empty line (or ``s``, ``draw``, ``s w``) draws a card, like the Atari's space bar;
- ``h`` hint, ``u [N]`` undo, ``redo [N]``, ``p`` play to the end, ``n [SEED]`` new deal,
  ``restart`` the same deal again, ``t`` the table, ``stats`` the statistics, ``solve``
  (can this deal still be won?), ``hints solver|policy`` where ``h`` takes its hints,
  ``continue`` the game kept from last time, ``save [FILE]`` save the game as a
  transcript, ``?`` help, ``q`` quit; ``y`` answers yes to a question.

Parsing knows nothing of the position: whether the move is legal, or which destination
``a``/``k`` mean, is decided by the game (machfsol.terminal.play), which has the table.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from machfsol.engine.cards import TABLEAU_SIZES
from machfsol.engine.deal import MAX_SEED, MIN_SEED, SeedError, parse_seed
from machfsol.engine.rules import Place
from machfsol.errors import MachfsolError

#: Most moves one ``u N`` may undo (a game has at most 3 * 52 moves).
MAX_UNDO = 999
#: Spaces in the largest tableau (52- and 48-card decks).
TABLEAU_SPACES = max(TABLEAU_SIZES.values())


class InputError(MachfsolError):
    """A line that is not a command; the message is one line telling what to type."""


class Action(enum.Enum):
    """Commands that are not moves."""

    DRAW = "draw"
    HINT = "hint"
    FINISH = "finish"
    HELP = "help"
    QUIT = "quit"
    RESTART = "restart"
    TABLE = "table"
    STATISTICS = "statistics"
    CONTINUE = "continue"
    YES = "yes"


class Target(enum.Enum):
    """A destination that depends on the card: its own Ace pile, or whichever King pile
    takes it."""

    ACE = "a"
    KING = "k"


@dataclass(frozen=True)
class Save:
    """Save the game as a transcript; ``path`` None: a name made from the deal."""

    path: str | None


@dataclass(frozen=True)
class Simple:
    action: Action


@dataclass(frozen=True)
class Undo:
    count: int


@dataclass(frozen=True)
class Redo:
    count: int


@dataclass(frozen=True)
class NewDeal:
    seed: int | None  # None: a random seed


@dataclass(frozen=True)
class Solve:
    """Ask the solver whether the deal can still be won, waiting ``seconds`` at most
    (None: the game's default)."""

    seconds: float | None


class HintSource(enum.Enum):
    POLICY = "policy"
    SOLVER = "solver"


@dataclass(frozen=True)
class SetHints:
    source: HintSource


@dataclass(frozen=True)
class PlayCard:
    """Move the top card of ``source`` (a draw: ``S`` to ``W``); ``destination`` None:
    the only legal one. ``card``: the card code the player says it is (a transcript's
    line names it), checked before the move."""

    source: Place
    destination: Place | Target | None
    card: str | None = None


Command = Simple | Undo | Redo | NewDeal | PlayCard | Save | Solve | SetHints

_WORDS: dict[str, Action] = {
    "": Action.DRAW,
    "s": Action.DRAW,
    "sw": Action.DRAW,
    "draw": Action.DRAW,
    "h": Action.HINT,
    "hint": Action.HINT,
    "p": Action.FINISH,
    "play": Action.FINISH,
    "finish": Action.FINISH,
    "auto": Action.FINISH,
    "?": Action.HELP,
    "help": Action.HELP,
    "q": Action.QUIT,
    "quit": Action.QUIT,
    "exit": Action.QUIT,
    "restart": Action.RESTART,
    "t": Action.TABLE,
    "table": Action.TABLE,
    "stats": Action.STATISTICS,
    "statistics": Action.STATISTICS,
    "continue": Action.CONTINUE,
    "y": Action.YES,
    "yes": Action.YES,
}

#: A transcript's places (docs/TRANSCRIPT.md), as typed in any case.
_PLACES = {place.name.lower(): place for place in Place}
#: A card code: a rank letter and a suit letter (the deck decides which are real).
_CARD = re.compile(r"[a2-9tjqk][shcd]")
#: Most seconds ``solve N`` may wait.
MAX_SOLVE_SECONDS = 3600

_MOVE = re.compile(
    r"(?P<source>t?(?P<space>[0-9]{1,2})|[dw]|k[shcd])"
    r"(?P<destination>a[shcd]?|k[shcd]?)?"
)

#: A move count short enough to convert (str.isdigit also accepts "²", which int
#: rejects, and int refuses numbers of thousands of digits).
_DECIMAL = re.compile(r"[0-9]{1,12}")

HELP_TEXT = """\
The game: put every card on the foundations. Ace piles go up in suit from
the Ace; King piles go down from their King, one rank lower: in suit in
MAChFsol 1, in alternating colour in MAChFsol 2. Cards move only onto Ace
and King piles; a King-pile top may go to its Ace pile. Aces and Kings go
up by themselves; an empty space takes the discard top (else the stock's)
at once. When no move is left, the game is over.
Commands (one a line, then Enter; upper or lower case):
  3        play the card in space 3 to its only possible pile
  3 a      ... to its Ace pile          3 ks   ... to the King pile of spades
  3 k      ... to the King pile that takes it (when only one does)
  d        the discard top (also w or 0): d, d a, d kh ...
  ks       the top of a King pile (ks kh kc kd) to its Ace pile
  T3 AC 5C a transcript's line (M T3 AC 5C, S W KC for a draw) works too
  Enter    draw a card (also s or draw)
  h        hint (hints solver: from the solver's winning line; hints policy)
  u [N]    undo the last move (or N)   redo [N]  play again what u took back
  p        let the autoplay policy play to the end
  solve    can this deal still be won? (the solver; solve N: wait N seconds)
  t        the table, moves and time   stats  the statistics
  n [SEED] new deal (random, or SEED)  restart  the same deal again
  continue the game kept when you last quit
  save [FILE]  save the game as a transcript (machfsol check replays it)
  ?        this help            q   quit (asks first; y answers yes)
Piles: s spades/swords, h hearts/cups, c clubs, d diamonds/coins."""


def parse(line: str) -> Command:
    """Read one typed line; InputError (one line) if it is not a command."""
    typed = line.strip().split(maxsplit=1)
    if typed and typed[0].lower() == "save":  # the file name keeps its case and spaces
        return Save(typed[1] if len(typed) > 1 else None)
    text = line.strip().lower()
    words = text.split()
    transcript_line = _transcript_line(words, line)
    if transcript_line is not None:
        return transcript_line
    compact = "".join(words)  # spaces inside a move or a word do not matter: "s w", "3 a"
    if compact in _WORDS:
        return Simple(_WORDS[compact])
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head in ("u", "undo"):
        return Undo(_count(rest, text, "u"))
    if head == "redo":
        return Redo(_count(rest, text, "redo"))
    if head in ("n", "new"):
        return NewDeal(_seed(rest, text))
    if head == "solve":
        return Solve(_seconds(rest, text))
    if head in ("hints", "hint") and rest:
        if len(rest) == 1 and rest[0] in ("solver", "policy"):
            return SetHints(HintSource(rest[0]))
        raise InputError(f"{_shown(text)!r}: say 'hints solver' or 'hints policy'")
    match = _MOVE.fullmatch(compact)
    if match is None:
        if text in ("a", "k") or (len(text) == 2 and text[0] == "a" and text[1] in "shcd"):
            raise InputError(f"{text!r} is a destination: name the card first, e.g. '3 {text}'")
        raise InputError(f"{_shown(line)!r} is not a command: type ? for help")
    return PlayCard(_source(match), _destination(match.group("destination")))


def _shown(line: str) -> str:
    """The line as typed, shortened so that the message stays one line."""
    text = line.strip()
    return text if len(text) <= 20 else text[:17] + "..."


def _transcript_line(words: list[str], line: str) -> Command | None:
    """A transcript's movement line (``M T3 AC 5C``, ``T3 AC``, ``S W KC``); None for
    anything else. An ``F`` line is refused: forced steps happen by themselves."""
    if words and words[0] == "f" and len(words) in (3, 4) and words[1] in _PLACES:
        raise InputError(
            f"{_shown(line)!r} is a forced step: the game makes those by itself; type the "
            "M lines only"
        )
    tokens = words[1:] if words and words[0] == "m" else words
    if len(tokens) not in (2, 3) or any(token not in _PLACES for token in tokens[:2]):
        return None
    if len(tokens) == 3 and not _CARD.fullmatch(tokens[2]):
        return None
    if len(tokens) == 2 and tokens is words:
        return None  # "t3 ah", "s w": the usual spelling reads them
    source, destination = _PLACES[tokens[0]], _PLACES[tokens[1]]
    card = tokens[2].upper() if len(tokens) == 3 else None
    return PlayCard(source, destination, card)


def _count(rest: list[str], text: str, word: str) -> int:
    if not rest:
        return 1
    if len(rest) == 1 and _DECIMAL.fullmatch(rest[0]) and 1 <= int(rest[0]) <= MAX_UNDO:
        return int(rest[0])
    raise InputError(f"{_shown(text)!r}: say '{word}' or '{word} N' with N a number of moves")


def _seconds(rest: list[str], text: str) -> float | None:
    if not rest:
        return None
    if len(rest) == 1 and _DECIMAL.fullmatch(rest[0]) and 1 <= int(rest[0]) <= MAX_SOLVE_SECONDS:
        return float(rest[0])
    raise InputError(
        f"{_shown(text)!r}: say 'solve' or 'solve N' with N seconds, 1 to {MAX_SOLVE_SECONDS}"
    )


def _seed(rest: list[str], text: str) -> int | None:
    if not rest:
        return None
    if len(rest) == 1:
        try:
            return parse_seed(rest[0])
        except SeedError:
            pass
    raise InputError(f"{_shown(text)!r}: say 'n' or 'n SEED' with SEED in {MIN_SEED}..{MAX_SEED}")


def _source(match: re.Match[str]) -> Place:
    source = match.group("source")
    space = match.group("space")
    if source == "0":
        return Place.W  # the Atari game's key for the discard pile
    if space:
        if not 1 <= int(space) <= TABLEAU_SPACES:
            raise InputError(f"there is no space {space}: spaces are numbered 1 to 8 at most")
        return Place[f"T{int(space)}"]
    if source in ("d", "w"):
        return Place.W
    return Place[source.upper()]


def _destination(text: str | None) -> Place | Target | None:
    if text is None:
        return None
    if text in ("a", "k"):
        return Target(text)
    return Place[text.upper()]
