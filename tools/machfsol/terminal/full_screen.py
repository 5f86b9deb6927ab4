"""The full-screen game's keys: what each key does, as a state machine without curses.

The keys are those of MACHFSOL on the Atari (docs/GAME.md), so that a player moves
between the two without thinking:

- ``1``-``8``, ``0``, ``Q W E R`` pick the card in that tableau space, the discard top,
  or a King-pile top; then ``A`` puts it on its Ace pile, ``Q W E R`` on that King pile;
- ``SPACE`` draws, ``H`` hints, ``U`` undoes one move, ``P`` plays all at a visible pace
  (any key stops it), ``N`` asks for a deal number (RETURN: random), ``O`` options
  (``D`` deck size, ``S`` style, and here also ``V`` variant and ``P`` pace);
- added here: ``X`` quits (asking first when a game is under way), ``S`` saves the
  transcript, ``ESC`` lets a picked card go; the arrow keys move a cursor over the
  piles and ``RETURN`` picks or places the card under it, like the key of that pile.

:class:`FullScreenGame` takes keys as names (``"7"``, ``"q"`` or ``"Q"``, ``" "``,
``"ENTER"``, ``"ESC"``, ``"BACKSPACE"``, ``"UP"`` ..., ``"EOF"`` for Ctrl-D) and keeps what the
screen shows: the mode, the picked card, the cursor, the message. The curses front end
(machfsol.terminal.curses_ui) turns key presses into names, calls :meth:`press`, calls
:meth:`tick` at the pace while playing all, and draws the screen
(machfsol.terminal.screen_layout). Tests drive this class directly, and the real
program in a pseudo-terminal.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.deal import SeedError, parse_seed
from machfsol.engine.rules import DRAW, Move, Place, variant
from machfsol.terminal.game import (
    Ambiguous,
    Outcome,
    Refused,
    Sitting,
    TranscriptWriteError,
    Wanted,
)
from machfsol.terminal.table_view import CardFace, Style, describe_move, describe_steps

#: The King piles' keys, spades hearts clubs diamonds (the Atari's).
KING_KEYS = "QWER"
#: Longest deal number a player can type (2147483646 has 10 digits).
MAX_DEAL_DIGITS = 10
#: Longest file name typed for a transcript.
MAX_NAME = 200


class Mode(enum.Enum):
    """What the next key is for."""

    PLAY = "play"  # a move, or one of the other keys
    PICKED = "picked"  # where the picked card goes
    AUTOPLAY = "autoplay"  # playing all: any key stops
    DEAL_NUMBER = "deal number"  # typing a deal number
    SAVE_NAME = "save name"  # typing a transcript's file name
    OPTIONS = "options"  # the options screen
    CONFIRM_QUIT = "confirm quit"  # Y quits
    QUIT = "quit"  # done: the front end ends


class Pace(enum.Enum):
    """How fast "play all" shows the policy's moves: moves a second."""

    SLOW = 2
    NORMAL = 4
    FAST = 10
    FASTEST = 50

    @property
    def seconds(self) -> float:
        """The pause after each move."""
        return 1.0 / self.value

    def next(self) -> Pace:
        members = list(Pace)
        return members[(members.index(self) + 1) % len(members)]


@dataclass(frozen=True)
class Options:
    """What the options screen changes."""

    deck_size: int
    style: Style
    variant: int
    pace: Pace


def _next_deck_size(size: int) -> int:
    """52, 48 ... 20, then 52 again (the Atari's ``D``)."""
    sizes = sorted(DECK_SIZES, reverse=True)
    return sizes[(sizes.index(size) + 1) % len(sizes)]


#: The cursor's grid: (row, column) -> place, built per tableau size. Rows 0-3 are the
#: suits, row 4 the stock and the discard pile; columns: Ace piles, the tableau's two
#: columns, King piles.
Grid = dict[tuple[int, int], Place]


def cursor_grid(tableau_size: int) -> Grid:
    grid: Grid = {}
    half = tableau_size // 2
    for row in range(4):
        grid[(row, 0)] = Place(Place.AS + row)
        grid[(row, 3)] = Place(Place.KS + row)
        if row < half:
            grid[(row, 1)] = Place(Place.T1 + row)
            grid[(row, 2)] = Place(Place.T1 + half + row)
    grid[(4, 0)] = Place.S
    grid[(4, 1)] = Place.W
    return grid


class FullScreenGame:
    """The full-screen game's state, changed one key at a time."""

    def __init__(self, sitting: Sitting, pace: Pace = Pace.NORMAL) -> None:
        self.sitting = sitting
        self.pace = pace
        self.mode = Mode.PLAY
        self.picked: Place | None = None
        self.cursor: Place | None = None  # None until an arrow key is pressed
        self.hinted: Move | None = None
        self.message = self._dealt_message()
        self.entry = ""  # what is typed for a deal number or a file name
        self.entry_note = ""  # why the last entry was refused
        self.options: Options | None = None
        self.bell = False  # the front end beeps once and clears it

    # ------------------------------------------------------------------ queries

    @property
    def face(self) -> CardFace:
        return self.sitting.face

    @property
    def finished(self) -> bool:
        return self.mode is Mode.QUIT

    def targets(self) -> tuple[Place, ...]:
        """Where the picked card may go now (for the screen to show)."""
        if self.picked is None:
            return ()
        position = self.sitting.position
        return tuple(m.destination for m in position.legal_moves() if m.source == self.picked)

    def source_key(self, place: Place) -> str:
        """The key that picks from ``place``."""
        if place.is_tableau:
            return str(place - Place.T1 + 1)
        if place is Place.W:
            return "0"
        return KING_KEYS[place - Place.KS]

    def keys_for(self, move: Move) -> str:
        """The keys that make ``move``: ``SPACE``, or a source and a destination key."""
        if move.is_draw:
            return "SPACE"
        destination = (
            "A" if move.destination.is_ace_pile else KING_KEYS[move.destination - Place.KS]
        )
        return f"{self.source_key(move.source)} then {destination}"

    # ------------------------------------------------------------------- keys

    def press(self, key: str) -> None:
        """Do what ``key`` does now."""
        self.hinted = None
        self.entry_note = ""
        if key == "EOF":  # Ctrl-D: the end of input quits, as in the line game
            self.mode = Mode.QUIT
            return
        if self.mode is Mode.SAVE_NAME:
            self._save_name_key(key)  # a file name keeps its case
            return
        if len(key) == 1:
            key = key.upper()  # the Atari's keys are capitals; either case works
        handler = {
            Mode.PLAY: self._play_key,
            Mode.PICKED: self._picked_key,
            Mode.AUTOPLAY: self._autoplay_key,
            Mode.DEAL_NUMBER: self._deal_number_key,
            Mode.SAVE_NAME: self._save_name_key,
            Mode.OPTIONS: self._options_key,
            Mode.CONFIRM_QUIT: self._confirm_key,
            Mode.QUIT: self._ignore,
        }[self.mode]
        handler(key)

    def tick(self) -> None:
        """Play all: make the policy's next move, or stop when the game is over."""
        if self.mode is not Mode.AUTOPLAY:
            return
        move = self.sitting.hint()
        if move is None:
            self.mode = Mode.PLAY
            self.message = self._end_message()
            return
        outcome = self.sitting.play(move)
        self._after(outcome)
        if self.sitting.position.is_over():
            self.mode = Mode.PLAY
            self.message = self._end_message()

    def _ignore(self, key: str) -> None:
        """After quitting, keys do nothing."""

    def _play_key(self, key: str) -> None:
        if key in ("UP", "DOWN", "LEFT", "RIGHT"):
            self._move_cursor(key)
        elif key == "ENTER":
            self._enter()
        elif key == " ":
            self._draw()
        elif key == "H":
            self._hint()
        elif key == "U":
            self._undo()
        elif key == "P":
            self._play_all()
        elif key == "N":
            self.mode = Mode.DEAL_NUMBER
            self.entry = ""
        elif key == "O":
            self._open_options()
        elif key == "S":
            self.mode = Mode.SAVE_NAME
            path = self.sitting.transcript_path()
            self.entry = str(path) if path is not None else self.sitting.default_name()
        elif key == "X":
            self._quit()
        elif key == "ESC":
            self.message = ""
        elif self._source_of(key) is not None:
            source = self._source_of(key)
            assert source is not None
            self._pick(source)
        else:
            self._refuse("Press a key of the help below.")

    def _picked_key(self, key: str) -> None:
        source = self.picked
        assert source is not None
        if key in ("ESC", "BACKSPACE"):
            self.picked = None
            self.mode = Mode.PLAY
            self.message = ""
        elif key == "A":
            self._place(source, lambda place: place.is_ace_pile)
        elif len(key) == 1 and key in KING_KEYS:
            self._place(source, Place(Place.KS + KING_KEYS.index(key)).__eq__)
        elif key in ("UP", "DOWN", "LEFT", "RIGHT"):
            self._move_cursor(key)
        elif key == "ENTER":
            self._enter()
        elif self._source_of(key) is not None:
            new_source = self._source_of(key)
            assert new_source is not None
            self._pick(new_source)
        elif key in (" ", "H", "U", "P", "N", "O", "S", "X"):
            self.picked = None
            self.mode = Mode.PLAY
            self._play_key(key)
        else:
            self._refuse(self._picked_message())

    def _autoplay_key(self, key: str) -> None:
        self.mode = Mode.PLAY
        self.message = "Play all stopped: P plays on, U takes moves back."

    # ------------------------------------------------------------------- moves

    def _source_of(self, key: str) -> Place | None:
        """The place whose card ``key`` picks: 1-8 tableau, 0 discard, Q W E R King piles."""
        if len(key) != 1:
            return None
        if key == "0":
            return Place.W
        if "1" <= key <= "8":
            return Place(Place.T1 + int(key) - 1)
        if key in KING_KEYS:
            return Place(Place.KS + KING_KEYS.index(key))
        return None

    def _pick(self, source: Place) -> None:
        if self._won_already():
            return
        sitting = self.sitting
        card = sitting.top(source)
        if card is None:
            outcome = sitting.attempt(source)  # says why: no such space, or empty
            assert isinstance(outcome, Refused)
            self._refuse(_sentence(outcome.reason))
            return
        self.picked = source
        self.mode = Mode.PICKED
        self.message = self._picked_message()

    def _picked_message(self) -> str:
        assert self.picked is not None
        card = self.sitting.top(self.picked)
        assert card is not None
        name = self.face.name(card)
        if self.picked.is_king_pile:
            return f"Picked the {name}: A puts it on its Ace pile (ESC: put it back)."
        return (
            f"Picked the {name}: A puts it on its Ace pile, Q W E R on a King pile "
            "(ESC: put it back)."
        )

    def _place(self, source: Place, wanted: Wanted) -> None:
        """Put the picked card down; legal or not, it is no longer picked (as on the
        Atari: a refused move is picked again from the start)."""
        self.picked = None
        self.mode = Mode.PLAY
        self._after(self.sitting.attempt(source, wanted))

    def _draw(self) -> None:
        if self._won_already():
            return
        self._after(self.sitting.play(DRAW))

    def _after(self, outcome: Outcome) -> None:
        """Show what a move did (or why not), save the transcript, see if the game ended."""
        if isinstance(outcome, Refused):
            self._refuse(_sentence(outcome.reason))
            return
        if isinstance(outcome, Ambiguous):  # pragma: no cover - a key names one pile
            self._refuse("Say which pile.")
            return
        self.message = describe_steps(outcome.steps, self.face)
        self._save()
        if self.sitting.position.is_over() and self.mode is not Mode.AUTOPLAY:
            self.message = f"{self._end_message()} {self.message}"  # the end first: it fits

    def _won_already(self) -> bool:
        if self.sitting.position.is_won():
            self._refuse("The game is won: N new deal, U undo, X quit.")
            return True
        return False

    def _end_message(self) -> str:
        position = self.sitting.position
        size = position.deck.size
        if position.is_won():
            return f"YOU WON! ALL {size} CARDS ARE ON THE FOUNDATIONS."
        if position.is_over():
            return f"NO MORE MOVES: {position.foundation_count()} OF {size} CARDS PLACED."
        return ""

    def _hint(self) -> None:
        position = self.sitting.position
        move = self.sitting.hint()
        if move is None:
            self.message = "The game is won." if position.is_won() else "No move left."
            return
        self.hinted = move
        if move.is_draw:
            self.message = "Hint: draw a card (SPACE)."
            return
        card = position.card_to_move(move)
        self.message = f"Hint: {describe_move(move, card, self.face)} ({self.keys_for(move)})."

    def _undo(self) -> None:
        if self.sitting.undo(1) == 0:
            self.message = "Nothing to undo: this is the deal as dealt."
            return
        self._save()
        self.message = "Took back 1 move (U again for more)."

    def _play_all(self) -> None:
        if self.sitting.position.is_over():
            self.message = "The game is already over."
            return
        self.mode = Mode.AUTOPLAY
        self.message = f"Playing all, {self.pace.value} moves a second: any key stops."

    def _refuse(self, message: str) -> None:
        self.message = message
        self.bell = True

    def _save(self) -> None:
        try:
            self.sitting.save()
        except TranscriptWriteError as error:
            self.message = f"{self.message} {error}"
            self.bell = True

    # ------------------------------------------------------------------ cursor

    def _move_cursor(self, direction: str) -> None:
        grid = cursor_grid(self.sitting.position.deck.tableau_size)
        if self.cursor is None or self.cursor not in grid.values():
            self.cursor = self.picked or (Place.T1 if Place.T1 in grid.values() else Place.W)
            return
        row, column = next(cell for cell, place in grid.items() if place is self.cursor)
        if direction in ("LEFT", "RIGHT"):
            step = -1 if direction == "LEFT" else 1
            columns = sorted(c for (r, c) in grid if r == row and (c - column) * step > 0)
            if columns:
                self.cursor = grid[(row, columns[0] if step > 0 else columns[-1])]
            return
        step = -1 if direction == "UP" else 1
        rows = sorted({r for (r, _c) in grid if (r - row) * step > 0})
        if not rows:
            return
        target = rows[0] if step > 0 else rows[-1]
        nearest = min((c for (r, c) in grid if r == target), key=lambda c: (abs(c - column), c))
        self.cursor = grid[(target, nearest)]

    def _enter(self) -> None:
        """RETURN on the cursor's pile: what that pile's key would do."""
        place = self.cursor
        if place is None:
            self._refuse("The arrow keys move the cursor; RETURN picks or places there.")
            return
        if place is Place.S:
            self.picked = None
            self.mode = Mode.PLAY
            self._draw()
        elif self.mode is Mode.PICKED and self.picked is not None:
            if place is self.picked:
                self.picked = None
                self.mode = Mode.PLAY
                self.message = ""
            elif place.is_ace_pile or place.is_king_pile:
                self._place(self.picked, place.__eq__)
            else:
                self._pick(place)
        elif place.is_ace_pile:
            self._refuse("Pick a card first (RETURN on it), then RETURN here.")
        else:
            self._pick(place)

    # ------------------------------------------------------------ typed entries

    def _typed(self, key: str, accepts: Callable[[str], bool], limit: int) -> bool:
        """Edit the entry with ``key``: ESC goes back to the game, BACKSPACE rubs out, a
        character ``accepts`` takes is added (up to ``limit``); True for RETURN, which
        the caller handles."""
        if key == "ENTER":
            return True
        if key == "ESC":
            self.mode = Mode.PLAY
            self.message = ""
        elif key == "BACKSPACE":
            self.entry = self.entry[:-1]
        elif len(key) == 1 and accepts(key) and len(self.entry) < limit:
            self.entry += key
        else:
            self.bell = True
        return False

    def _deal_number_key(self, key: str) -> None:
        if not self._typed(key, lambda char: char.isascii() and char.isdigit(), MAX_DEAL_DIGITS):
            return
        if not self.entry:
            self._new_deal(None, None)
            return
        try:
            seed = parse_seed(self.entry)
        except SeedError:
            self.entry = ""
            self.entry_note = "A deal number is 1 to 2147483646."
            self.bell = True
            return
        self._new_deal(seed, None)

    def _new_deal(self, seed: int | None, deck_size: int | None) -> None:
        self.sitting.deal_seed(seed, deck_size)
        self.mode = Mode.PLAY
        self.picked = None
        self.entry = ""
        self.message = self._dealt_message()
        self._save()

    def _dealt_message(self) -> str:
        if self.sitting.seed is None:
            return "Your own order (--order). Good luck!"
        return f"Deal {self.sitting.seed} (again: {self.sitting.replay_command()})"

    def _save_name_key(self, key: str) -> None:
        if not self._typed(key, str.isprintable, MAX_NAME):
            return
        if not self.entry.strip():
            self.bell = True
            return
        path = Path(self.entry.strip())
        self.mode = Mode.PLAY
        if self.entry.strip() == "-":  # standard output is this screen
            self._refuse("Not saved: - is the screen; type a file name.")
            return
        try:
            self.sitting.save_as(path)
        except TranscriptWriteError as error:
            self._refuse(str(error))
            return
        self.message = f"Saved as {path} (machfsol check {path} replays it)."

    # ----------------------------------------------------------------- options

    def _open_options(self) -> None:
        self.mode = Mode.OPTIONS
        self.picked = None
        self.options = Options(
            self.sitting.position.deck.size,
            self.face.style,
            self.sitting.variant.number,
            self.pace,
        )

    def _options_key(self, key: str) -> None:
        options = self.options
        assert options is not None
        if key == "D":
            self.options = replace(options, deck_size=_next_deck_size(options.deck_size))
        elif key == "S":
            style = Style.SPANISH if options.style is Style.FRENCH else Style.FRENCH
            self.options = replace(options, style=style)
        elif key == "V":
            self.options = replace(options, variant=3 - options.variant)
        elif key == "P":
            self.options = replace(options, pace=options.pace.next())
        elif key in ("ESC", "O"):
            self.mode = Mode.PLAY
            self.options = None
            self.message = "Options unchanged."
        elif key == "ENTER":
            self._apply(options)
        else:
            self.bell = True

    def _apply(self, options: Options) -> None:
        """Style and pace change the game in play; deck size and variant deal anew."""
        sitting = self.sitting
        self.options = None
        self.mode = Mode.PLAY
        self.pace = options.pace
        sitting.face = replace(sitting.face, style=options.style)
        same_deck = options.deck_size == sitting.position.deck.size
        if same_deck and options.variant == sitting.variant.number:
            self.message = "Options changed; the game goes on."
            return
        sitting.variant = variant(options.variant)
        if sitting.seed is None and same_deck:  # the player's own order, the other game
            sitting.new_deal(sitting.position.order, None)
            self.mode = Mode.PLAY
            self.message = self._dealt_message()
            self._save()
            return
        self._new_deal(sitting.seed, options.deck_size)

    # -------------------------------------------------------------------- quit

    def _quit(self) -> None:
        position = self.sitting.position
        if position.move_stack and not position.is_over():
            self.mode = Mode.CONFIRM_QUIT
            self.message = "Quit this game? Y quits, any other key plays on."
        else:
            self.mode = Mode.QUIT

    def _confirm_key(self, key: str) -> None:
        if key in ("Y", "X"):
            self.mode = Mode.QUIT
        else:
            self.mode = Mode.PLAY
            self.message = ""

    def quit(self) -> None:
        """Quit at once (Ctrl-C, a closed terminal, X while the window is too small)."""
        self.mode = Mode.QUIT


def _sentence(text: str) -> str:
    """``space 4 is empty`` -> ``Space 4 is empty.``"""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
