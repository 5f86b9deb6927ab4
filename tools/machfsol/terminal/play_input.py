"""What a player of the terminal game types, read into command values.

One line is one command. The words are few and forgiving (any case, spaces optional
inside a move) because the game is meant for people at a keyboard:

- a move names a source and, unless only one destination is legal, a destination:
  ``3`` or ``t3`` (tableau space 3), ``d``, ``w`` or ``0`` (the discard top), ``ks``..``kd``
  (a King pile's top); destination ``a`` (the card's own Ace pile), ``as``..``ad``,
  ``k`` (the one King pile that takes it) or ``ks``..``kd``. So ``3``, ``3 a``, ``d kh``,
  ``dkh`` and the transcript notation ``T3 AH`` / ``W KS`` all work;
- an empty line (or ``s``, ``draw``, ``s w``) draws a card, like the Atari's space bar;
- ``h`` hint, ``u [N]`` undo, ``p`` play to the end, ``n [SEED]`` new deal,
  ``save [FILE]`` save the game as a transcript, ``?`` help, ``q`` quit.

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
class NewDeal:
    seed: int | None  # None: a random seed


@dataclass(frozen=True)
class PlayCard:
    """Move the top card of ``source``; ``destination`` None: the only legal one."""

    source: Place
    destination: Place | Target | None


Command = Simple | Undo | NewDeal | PlayCard | Save

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
}

_MOVE = re.compile(
    r"(?P<source>t?(?P<space>[0-9]{1,2})|[dw]|k[shcd])"
    r"(?P<destination>a[shcd]?|k[shcd]?)?"
)

#: A move count short enough to convert (str.isdigit also accepts "²", which int
#: rejects, and int refuses numbers of thousands of digits).
_DECIMAL = re.compile(r"[0-9]{1,12}")

HELP_TEXT = """\
Keys (one command a line, then Enter; upper or lower case):
  3        play the card in space 3 to its only possible foundation
  3 a      ... to its Ace pile          3 ks   ... to the King pile of spades
  3 k      ... to the King pile that takes it (when only one does)
  d        the discard top (also w or 0): d, d a, d kh ...
  ks       the top of a King pile (ks kh kc kd) to its Ace pile
  Enter    draw a card (also s or draw)
  h        hint: what the autoplay policy would play
  u [N]    undo the last move (or the last N moves)
  p        let the autoplay policy play to the end
  n [SEED] new deal (random, or deal number SEED)
  save [FILE]  save the game as a transcript (machfsol check replays it)
  ?        this help            q   quit
Piles: s spades/swords, h hearts/cups, c clubs, d diamonds/coins."""


def parse(line: str) -> Command:
    """Read one typed line; InputError (one line) if it is not a command."""
    typed = line.strip().split(maxsplit=1)
    if typed and typed[0].lower() == "save":  # the file name keeps its case and spaces
        return Save(typed[1] if len(typed) > 1 else None)
    text = line.strip().lower()
    words = text.split()
    compact = "".join(words)  # spaces inside a move or a word do not matter: "s w", "3 a"
    if compact in _WORDS:
        return Simple(_WORDS[compact])
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head in ("u", "undo"):
        return Undo(_count(rest, text))
    if head in ("n", "new"):
        return NewDeal(_seed(rest, text))
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


def _count(rest: list[str], text: str) -> int:
    if not rest:
        return 1
    if len(rest) == 1 and _DECIMAL.fullmatch(rest[0]) and 1 <= int(rest[0]) <= MAX_UNDO:
        return int(rest[0])
    raise InputError(f"{_shown(text)!r}: say 'u' or 'u N' with N a number of moves")


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
