"""The full-screen game's keys: what each key does, as a state machine without curses.

The keys are those of MACHFSOL on the Atari (docs/GAME.md) where a terminal allows, so
that a player moves between the two without thinking; docs/PLAY.md lists them all, and
:mod:`machfsol.terminal.pile_keys` says which key names which pile. A card with one
legal place goes there at once, and typing the second key of a two-key move after it
changes nothing, so old habits do no harm. Added here: ``Q`` (and Ctrl-C) quits, ``S``
saves, ``I`` shows the statistics, ``W`` asks the solver, ``?`` (F1) helps, and the
arrow keys move a cursor that ``RETURN`` (or a mouse click) picks or places with.

Anything that would abandon a game in progress (a new deal, the same deal again, new
options that deal again, quitting) asks first: ``Y`` goes ahead, any other key plays on.

:class:`FullScreenGame` takes keys as names (``"7"``, ``"q"`` or ``"Q"``, ``" "``,
``"ENTER"``, ``"ESC"``, ``"BACKSPACE"``, ``"UP"`` ..., ``"F1"``, ``"INTERRUPT"`` for Ctrl-C,
``"EOF"`` for Ctrl-D) and clicks as places (:meth:`click`), and keeps what the screen
shows: the mode, the picked card, the cursor, the message. The curses front end
(machfsol.terminal.curses_ui) turns key presses into names, calls :meth:`press`, calls
:meth:`tick` at the pace while playing all or waiting for the solver, and draws the
screen (machfsol.terminal.screen_layout). Tests drive this class directly, and the
real program in a pseudo-terminal.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from machfsol.engine.deal import MAX_SEED, MIN_SEED, SeedError, parse_seed
from machfsol.engine.rules import DRAW, Move, Place, variant
from machfsol.terminal.game import (
    Ambiguous,
    Outcome,
    Refused,
    Sitting,
    TranscriptWriteError,
    Wanted,
)
from machfsol.terminal.game_options import Hints, Options, Pace
from machfsol.terminal.kept_game import SavedGame
from machfsol.terminal.pile_keys import (
    ARROWS,
    KING_KEYS,
    cursor_grid,
    destination_key,
    source_key,
    source_of,
    step_cursor,
)
from machfsol.terminal.solver_question import DEFAULT_SECONDS, Answer, Question, Solver, Verdict
from machfsol.terminal.table_view import CardFace, describe_move, describe_steps

#: Longest file name typed for a transcript.
MAX_NAME = 200
#: How often the screen looks for the solver's answer while it waits (seconds).
SOLVER_POLL = 0.1


class Mode(enum.Enum):
    """What the next key is for."""

    PLAY = "play"  # a move, or one of the other keys
    PICKED = "picked"  # where the picked card goes
    AUTOPLAY = "autoplay"  # playing all: any key stops
    DEAL_NUMBER = "deal number"  # typing a deal number
    SAVE_NAME = "save name"  # typing a transcript's file name
    OPTIONS = "options"  # the options screen
    CONFIRM = "confirm"  # Y goes ahead, any other key does not
    HELP = "help"  # the help screen: any key goes back
    STATISTICS = "statistics"  # the statistics screen: any key goes back
    SOLVING = "solving"  # waiting for the solver: any key stops
    QUIT = "quit"  # done: the front end ends


@dataclass(frozen=True)
class Confirmation:
    """A question that ``Y`` answers yes (and, for quitting, ``Q`` or Ctrl-C again).
    Any other key is no, unless ``no_keys`` says which keys are: the others then quit
    (``Q``, Ctrl-C) or are refused, and the question stays."""

    question: str
    yes: Callable[[], None]
    no: Callable[[], None] | None = None
    yes_keys: frozenset[str] = frozenset({"Y"})
    no_keys: frozenset[str] | None = None


#: Keys that work the same whether or not a card is picked (a picked card is let go).
COMMAND_KEYS = frozenset(" HURPNGOSIWQ?") | {"F1", "INTERRUPT"}


class FullScreenGame:
    """The full-screen game's state, changed one key at a time."""

    def __init__(
        self,
        sitting: Sitting,
        pace: Pace = Pace.NORMAL,
        solver: Solver | None = None,
        solver_seconds: float = DEFAULT_SECONDS,
        offer: bool = True,
        welcome: str | None = None,
    ) -> None:
        self.sitting = sitting
        self.pace = pace
        self.hints = Hints.POLICY
        self.solver = solver
        self.solver_seconds = solver_seconds
        self.mode = Mode.PLAY
        self.picked: Place | None = None
        self.cursor: Place | None = None  # None until an arrow key is pressed
        self.hinted: Move | None = None
        self.message = welcome or self._dealt_message()
        self.entry = ""  # what is typed for a deal number or a file name
        self.entry_note = ""  # why the last entry was refused
        self.options: Options | None = None
        self.confirmation: Confirmation | None = None
        self.question: Question | None = None
        self._question_for_hint = False
        self._after_help = Mode.PLAY  # the mode the help screen goes back to
        self._only_place: Place | None = None  # where the last one-key move put its card
        self.bell = False  # the front end beeps once and clears it
        notes = [n for n in (sitting.statistics.problem, sitting.kept.problem) if n]
        if notes:
            self.message = f"{self.message} {_sentence(notes[0])}"
        if offer and sitting.offered is not None:
            self._offer(sitting.offered)

    # ------------------------------------------------------------------ queries

    @property
    def face(self) -> CardFace:
        return self.sitting.face

    @property
    def finished(self) -> bool:
        return self.mode is Mode.QUIT

    @property
    def waiting(self) -> float | None:
        """How long the front end may wait for a key before calling :meth:`tick`
        (None: as long as it likes)."""
        if self.mode is Mode.AUTOPLAY:
            return self.pace.seconds
        if self.mode is Mode.SOLVING:
            return SOLVER_POLL
        return None

    def targets(self) -> tuple[Place, ...]:
        """Where the picked card may go now (for the screen to show)."""
        if self.picked is None:
            return ()
        return self.sitting.destinations(self.picked)

    def source_key(self, place: Place) -> str:
        """The key that picks from ``place``."""
        return source_key(place)

    def keys_for(self, move: Move) -> str:
        """The keys that make ``move``: ``SPACE``, the source's key alone when the card
        has one place, else the source's key and the destination's."""
        if move.is_draw:
            return "SPACE"
        source = source_key(move.source)
        if len(self.sitting.destinations(move.source)) == 1:
            return source
        return f"{source} then {destination_key(move.destination)}"

    # ------------------------------------------------------------------- keys

    def press(self, key: str) -> None:
        """Do what ``key`` does now."""
        self.hinted = None
        self.entry_note = ""
        if key == "EOF":  # Ctrl-D: the end of input quits at once, as in the line game
            self._stop_question()
            self.mode = Mode.QUIT
            return
        if self.mode is Mode.SAVE_NAME:
            self._save_name_key(key)  # a file name keeps its case
            return
        if len(key) == 1:
            key = key.upper()  # the Atari's keys are capitals; either case works
        only_place, self._only_place = self._only_place, None
        if only_place is not None and self.mode is Mode.PLAY:
            if key == destination_key(only_place) or (key == "ENTER" and self.cursor is only_place):
                return  # the second key of a two-key move whose card went to its only place
            if key in ARROWS:
                self._only_place = only_place  # on the way to it with the cursor
        handler = {
            Mode.PLAY: self._play_key,
            Mode.PICKED: self._picked_key,
            Mode.AUTOPLAY: self._back_key,
            Mode.DEAL_NUMBER: self._deal_number_key,
            Mode.SAVE_NAME: self._save_name_key,
            Mode.OPTIONS: self._options_key,
            Mode.CONFIRM: self._confirm_key,
            Mode.HELP: self._back_key,
            Mode.STATISTICS: self._back_key,
            Mode.SOLVING: self._back_key,
            Mode.QUIT: self._ignore,
        }[self.mode]
        handler(key)

    def click(self, place: Place | None) -> None:
        """A mouse click on ``place`` (None: not on a pile): what RETURN does there."""
        if self.mode in (Mode.HELP, Mode.STATISTICS):
            self.mode = Mode.PLAY  # a click anywhere goes back, as a key does
            return
        if place is None or self.mode not in (Mode.PLAY, Mode.PICKED):
            return
        self.cursor = place
        only_place, self._only_place = self._only_place, None
        if only_place is place and self.mode is Mode.PLAY:
            return  # the click on the destination of a card that went there by itself
        self.hinted = None
        self._enter()

    def tick(self) -> None:
        """Time passed: play all makes the policy's next move (or stops when the game is
        over); the solver's answer is looked for."""
        if self.mode is Mode.SOLVING:
            self._poll_question()
            return
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
        if key in ARROWS:
            self._move_cursor(key)
        elif key == "ENTER":
            self._enter()
        elif key == " ":
            self._draw()
        elif key == "H":
            self._hint()
        elif key == "U":
            self._undo()
        elif key == "R":
            self._redo()
        elif key == "P":
            self._play_all()
        elif key == "N":
            self._confirm_leaving("for a new deal", self._ask_deal_number)
        elif key == "G":
            self._confirm_leaving("to play it again from the deal", self._restart)
        elif key == "O":
            self._open_options()
        elif key == "S":
            self.mode = Mode.SAVE_NAME
            path = self.sitting.transcript_path()
            self.entry = str(path) if path is not None else self.sitting.default_name()
        elif key == "I":
            self.mode = Mode.STATISTICS
        elif key == "W":
            self._ask_solver(for_hint=False)
        elif key in ("?", "F1"):
            self._after_help = Mode.PLAY
            self.mode = Mode.HELP
        elif key in ("Q", "INTERRUPT"):
            self._quit()
        elif key == "ESC":
            self.message = ""
        elif (source := source_of(key)) is not None:
            self._pick(source)
        elif key == "A":
            self._refuse("Pick a card first: 1-8, 0 or Z X C V, then A puts it on its Ace pile.")
        else:
            self._refuse("Press a key of the help below (? shows them all).")

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
        elif key in ARROWS:
            self._move_cursor(key)
        elif key == "ENTER":
            self._enter()
        elif (new_source := source_of(key)) is not None:
            self._pick(new_source)
        elif key in COMMAND_KEYS:
            self.picked = None
            self.mode = Mode.PLAY
            self._play_key(key)
        else:
            self._refuse(self._picked_message())

    def _back_key(self, key: str) -> None:
        """Play all, the solver, help and statistics: any key stops or goes back (and
        Ctrl-C then quits)."""
        if self.mode is Mode.AUTOPLAY:
            self.message = "Play all stopped: P plays on, U takes moves back."
        elif self.mode is Mode.SOLVING:
            self._stop_question()
            self.message = "Stopped asking the solver."
        self.mode = self._after_help if self.mode is Mode.HELP else Mode.PLAY
        if key == "INTERRUPT":
            self._quit()

    # ------------------------------------------------------------------- moves

    def _pick(self, source: Place) -> None:
        """Pick the card of ``source``: with one legal place it goes there at once; with
        none or several it is picked, and the next key says where (or why not)."""
        if self._won_already():
            return
        sitting = self.sitting
        card = sitting.top(source)
        if card is None:
            outcome = sitting.attempt(source)  # says why: no such space, or empty
            assert isinstance(outcome, Refused)
            self._refuse(_sentence(outcome.reason))
            return
        places = sitting.destinations(source)
        if len(places) == 1:
            self.picked = None
            self.mode = Mode.PLAY
            self._after(sitting.attempt(source))
            self._only_place = places[0]
            return
        self.picked = source
        self.mode = Mode.PICKED
        self.message = self._picked_message()
        if not places:  # picked all the same: the next key may ask about one pile
            outcome = sitting.attempt(source)
            assert isinstance(outcome, Refused)
            name = self.face.name(card)
            self.message = f"Picked the {name} (ESC: put it back). {_sentence(outcome.reason)}"

    def _picked_message(self) -> str:
        assert self.picked is not None
        card = self.sitting.top(self.picked)
        assert card is not None
        name = self.face.name(card)
        if self.picked.is_king_pile:
            return f"Picked the {name}: A puts it on its Ace pile (ESC: put it back)."
        return (
            f"Picked the {name}: A puts it on its Ace pile, Z X C V on a King pile "
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
            self._refuse("The game is won: N new deal, U undo, Q quit.")
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
        if position.is_over():
            self.message = "The game is won." if position.is_won() else "No move left."
            return
        if self.hints is Hints.SOLVER:
            move = self.sitting.solver_move()
            if move is None:
                self._ask_solver(for_hint=True)
                return
            self._show_hint(move, "the solver's winning line")
            return
        move = self.sitting.hint()
        assert move is not None
        self._show_hint(move, "")

    def _show_hint(self, move: Move, whose: str) -> None:
        self.hinted = move
        source = f" ({whose})" if whose else ""
        self.message = f"Hint{source}: {self._step(move)}."

    def _step(self, move: Move) -> str:
        """``move`` in words, with the keys that make it."""
        if move.is_draw:
            return "draw a card (SPACE)"
        card = self.sitting.position.card_to_move(move)
        return f"{describe_move(move, card, self.face)} ({self.keys_for(move)})"

    def _undo(self) -> None:
        if self.sitting.undo(1) == 0:
            self.message = "Nothing to undo: this is the deal as dealt."
            return
        self._save()
        self.message = "Took back 1 move (U again for more, R plays it again)."

    def _redo(self) -> None:
        if self._won_already():
            return
        done = self.sitting.redo(1)
        if not done:
            self.message = "Nothing to redo: R plays again the moves U took back."
            return
        self._after(done[0])
        left = self.sitting.redo_count
        if left and not self.sitting.position.is_over():
            self.message = f"{self.message} (R: {left} more)"

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
        self.cursor = step_cursor(grid, self.cursor, direction)

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
        if key in ("ESC", "INTERRUPT"):
            self.mode = Mode.PLAY
            self.message = ""
        elif key == "BACKSPACE":
            self.entry = self.entry[:-1]
        elif len(key) == 1 and accepts(key) and len(self.entry) < limit:
            self.entry += key
        else:
            self.bell = True
        return False

    def _ask_deal_number(self) -> None:
        self.mode = Mode.DEAL_NUMBER
        self.entry = ""

    def _deal_number_key(self, key: str) -> None:
        digits = len(str(MAX_SEED))  # the longest deal number a player can type
        if not self._typed(key, lambda char: char.isascii() and char.isdigit(), digits):
            return
        if not self.entry:
            self._new_deal(None, None)
            return
        try:
            seed = parse_seed(self.entry)
        except SeedError:
            self.entry = ""
            self.entry_note = f"A deal number is {MIN_SEED} to {MAX_SEED}."
            self.bell = True
            return
        self._new_deal(seed, None)

    def _new_deal(self, seed: int | None, deck_size: int | None) -> None:
        self.sitting.deal_seed(seed, deck_size)
        self._dealt()

    def _restart(self) -> None:
        self.sitting.restart()
        self._dealt()
        self.message = f"The same deal again. {self.message}"

    def _dealt(self) -> None:
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
            self.hints,
        )

    def _options_key(self, key: str) -> None:
        options = self.options
        assert options is not None
        changed = options.changed(key)
        if changed is not None:
            self.options = changed
        elif key in ("ESC", "O", "INTERRUPT"):
            self.mode = Mode.PLAY
            self.options = None
            self.message = "Options unchanged."
        elif key == "ENTER":
            self._apply(options)
        else:
            self.bell = True

    def _apply(self, options: Options) -> None:
        """Style, pace and hints change the game in play; deck size and variant deal
        anew (asking first when a game is under way)."""
        sitting = self.sitting
        self.options = None
        self.mode = Mode.PLAY
        self.pace = options.pace
        self.hints = options.hints
        sitting.face = replace(sitting.face, style=options.style)
        same_deck = options.deck_size == sitting.position.deck.size
        if same_deck and options.variant == sitting.variant.number:
            self.message = "Options changed; the game goes on."
            return

        def deal_again() -> None:
            sitting.leave()
            sitting.variant = variant(options.variant)
            if sitting.seed is None and same_deck:  # the player's own order, other game
                sitting.new_deal(sitting.position.order, None)
                self._dealt()
                return
            self._new_deal(sitting.seed, options.deck_size)

        self._confirm_leaving("to deal again with the new options", deal_again)

    # ----------------------------------------------------------- confirmations

    def _confirm_leaving(self, why: str, then: Callable[[], None]) -> None:
        """Do ``then``, which abandons the game; ask first when a game is under way."""
        if not self.sitting.in_progress:
            then()
            return
        moves = self.sitting.moves
        self._confirm(
            Confirmation(
                f"Leave this game ({moves} move{'' if moves == 1 else 's'}, counted as lost) "
                f"{why}? Y: yes, any other key: play on.",
                then,
            )
        )

    def _confirm(self, confirmation: Confirmation) -> None:
        self.picked = None
        self.confirmation = confirmation
        self.mode = Mode.CONFIRM
        self.message = confirmation.question

    def _confirm_key(self, key: str) -> None:
        confirmation = self.confirmation
        assert confirmation is not None
        answers = confirmation.yes_keys | (confirmation.no_keys or frozenset())
        if confirmation.no_keys is not None and key not in answers:
            if key in ("Q", "INTERRUPT"):
                self.confirmation = None
                self.quit()  # nothing decided: the question comes again next time
            else:
                self.bell = True
            return
        self.confirmation = None
        self.mode = Mode.PLAY
        then = confirmation.yes if key in confirmation.yes_keys else confirmation.no
        self.message = "Nothing changed: play on." if then is None else ""
        if then is not None:
            then()

    def _offer(self, saved: SavedGame) -> None:
        """At the start: go on with the game kept when the player last quit?"""
        sitting = self.sitting
        dealt = self.message

        def take() -> None:
            sitting.take_offered()
            self.message = f"Welcome back: {saved.describe()}."

        def decline() -> None:
            sitting.decline(saved)
            self.message = dealt

        self._confirm(
            Confirmation(
                f"Continue {saved.describe()}? Y continues it; N plays the new deal (the "
                "kept game then counts as lost); Q quits.",
                take,
                decline,
                no_keys=frozenset({"N"}),
            )
        )

    # -------------------------------------------------------------- the solver

    def _ask_solver(self, for_hint: bool) -> None:
        position = self.sitting.position
        if position.is_won():
            self.message = "The game is won."
            return
        if position.is_over():
            self.message = "No move left: the game is lost (U takes moves back)."
            return
        if self.solver is None:
            self._refuse("The solver is not available in this game.")
            return
        self.picked = None
        self.question = Question(self.solver, position, self.solver_seconds)
        self._question_for_hint = for_hint
        self.mode = Mode.SOLVING
        what = "for a hint" if for_hint else "whether this deal can still be won"
        self.message = (
            f"Asking the solver {what} (at most {self.solver_seconds:g} s; any key stops)..."
        )

    def _stop_question(self) -> None:
        if self.question is not None:
            self.question.cancel()
            self.question = None

    def _poll_question(self) -> None:
        question = self.question
        assert question is not None
        answer = question.poll()
        if answer is None:
            return
        self.question = None
        self.mode = Mode.PLAY
        if question.moves != self.sitting.position.move_stack:  # pragma: no cover - keys stop it
            self.message = "The table changed meanwhile: ask again."
            return
        if self._question_for_hint:
            self._solver_hint(answer)
        else:
            self.message = self._winnable_message(answer, question.seconds)

    def _winnable_message(self, answer: Answer, seconds: float) -> str:
        if answer.verdict is Verdict.WINNABLE:
            move = self._follow(answer)
            self.hinted = move
            follow = (
                "H follows the solver's line."
                if self.hints is Hints.SOLVER
                else "O then H: hints from the solver."
            )
            return f"Winnable: a winning move is {self._step(move)}. {follow}"
        if answer.verdict is Verdict.LOST:
            return "Lost whatever you do: no line from here wins (U takes moves back)."
        if answer.verdict is Verdict.UNDECIDED:
            return f"Not decided in {seconds:g} s."
        return f"The solver failed: {answer.detail}."

    def _follow(self, answer: Answer) -> Move:
        """Take the solver's winning line as the one hints follow; its next move."""
        self.sitting.follow_solver(answer.line)
        move = self.sitting.solver_move()
        assert move is not None
        return move

    def _solver_hint(self, answer: Answer) -> None:
        if answer.verdict is Verdict.WINNABLE:
            self._show_hint(self._follow(answer), "the solver's winning line")
            return
        why = {
            Verdict.LOST: "lost whatever you do",
            Verdict.UNDECIDED: f"the solver did not decide in {self.solver_seconds:g} s",
            Verdict.FAILED: "the solver failed",
        }[answer.verdict]
        move = self.sitting.hint()
        assert move is not None
        self._show_hint(move, f"{why}; the policy's")

    # -------------------------------------------------------------------- quit

    def _quit(self) -> None:
        self._stop_question()
        if self.sitting.in_progress:
            self._confirm(
                Confirmation(
                    "Quit? This game is kept: the next start offers it. Y quits, any other "
                    "key plays on.",
                    self.quit,
                    yes_keys=frozenset({"Y", "Q", "INTERRUPT"}),
                )
            )
        else:
            self.mode = Mode.QUIT

    def quit(self) -> None:
        """Quit at once (a closed terminal, Q while the window is too small)."""
        self._stop_question()
        self.mode = Mode.QUIT


def _sentence(text: str) -> str:
    """``space 4 is empty`` -> ``Space 4 is empty.``"""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
