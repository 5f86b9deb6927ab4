"""``machfsol play --plain``: a person plays MAChFsol 1 or 2 one typed line at a time.

The line game is for screen readers, pipes and scripts (the full-screen game is
machfsol.terminal.full_screen). It reads one command a line (machfsol.terminal.play_input
says which) and answers in as few lines as it can: after a move, what the move did and
what it left showing (``Now: discard pile 8♠ (11 cards).``); after a refused command,
one line saying why. The table (machfsol.terminal.table_view) is shown when a deal
starts and when the player asks for it (``t``); on an ANSI terminal the screen is
cleared before it so that it starts at the top. That works the same in any terminal,
through a pipe and in tests, with no curses and no raw keyboard mode.

The deal, the moves, the reasons a move is refused, the statistics and the
transcripts are the sitting's (machfsol.terminal.game), shared with the full-screen
game; this module phrases them in the line game's commands. A command that would
abandon a game under way (``n``, ``restart``, ``q``) asks first; ``y`` answers yes and
any other line no. A bad command or an illegal move only ever gives a one-line
message; end of input quits cleanly (a game under way is kept for the next start).

With ``--transcript FILE`` each game is saved (after every command, atomically) as a
transcript with ``PLAYER HUMAN`` that ``machfsol check`` replays: the first game in FILE,
later deals of the same session in FILE-2, FILE-3, ... next to it. ``save [FILE]`` saves
the game as it stands at any time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from a8.files import output_argument
from machfsol.engine.cards import Card
from machfsol.engine.rules import DRAW, Move, Place, Position, Step, Variant
from machfsol.errors import MachfsolError
from machfsol.terminal.game import (
    Ambiguous,
    Played,
    Refused,
    Sitting,
    TranscriptWriteError,
    random_seed,
)
from machfsol.terminal.play_input import (
    HELP_TEXT,
    Action,
    Command,
    HintSource,
    InputError,
    NewDeal,
    PlayCard,
    Redo,
    Save,
    SetHints,
    Simple,
    Solve,
    Target,
    Undo,
    parse,
)
from machfsol.terminal.solver_question import DEFAULT_SECONDS, Answer, Question, Solver, Verdict
from machfsol.terminal.statistics import clock_text
from machfsol.terminal.table_view import (
    CLEAR_SCREEN,
    CardFace,
    count_of,
    describe_move,
    describe_steps,
    place_key,
    render_table,
)

__all__ = ["Session", "TerminalError", "TranscriptWriteError", "random_seed", "PROMPT"]

PROMPT = "> "
#: What the game says once, under the first table.
START_HINT = "Type ? for help, t for the table, q to quit."

#: Reads one line after showing a prompt; raises EOFError at the end of input.
ReadLine = Callable[[str], str]


class TerminalError(MachfsolError):
    """The game cannot read its commands or show the table (one line, no traceback)."""


@dataclass(frozen=True)
class _Question:
    """A yes-or-no question waiting for its answer: ``y`` does ``then``."""

    then: Callable[[], str | None]  # what to say afterwards (None: it said it itself)


class Session:
    """One sitting at the terminal in line mode: a deal, the commands typed, new deals."""

    def __init__(
        self,
        game: Variant,
        face: CardFace,
        out: TextIO,
        transcript: Path | None = None,
        seeds: Callable[[], int] = random_seed,
        clear: bool = False,
        sitting: Sitting | None = None,
        solver: Solver | None = None,
        solver_seconds: float = DEFAULT_SECONDS,
    ) -> None:
        self.sitting = sitting if sitting is not None else Sitting(game, face, transcript, seeds)
        self.out = out
        self.clear = clear
        self.solver = solver
        self.solver_seconds = solver_seconds
        self.solver_hints = False  # "hints solver": h follows the solver's winning line
        self._question: _Question | None = None
        self.quitting = False

    @property
    def position(self) -> Position:
        return self.sitting.position

    @property
    def face(self) -> CardFace:
        return self.sitting.face

    # ------------------------------------------------------------------- the loop

    def start(self, order: tuple[Card, ...], seed: int | None) -> None:
        """Deal ``order`` and show the table (TranscriptWriteError if it cannot be saved)."""
        self.sitting.new_deal(order, seed)
        self.sitting.save()
        self.begin(self._dealt_message())

    def begin(self, message: str) -> None:
        """Show the table of the deal on it, ``message``, the notes and the offer of a
        kept game, and how to get help."""
        lines = [message]
        sitting = self.sitting
        lines += [_sentence(n) for n in (sitting.statistics.problem, sitting.kept.problem) if n]
        if sitting.offered is not None:
            lines.append(
                f"You left {sitting.offered.describe()} unfinished: type 'continue' to play it on."
            )
        lines.append(START_HINT)
        self._table("\n".join(lines))

    def _dealt_message(self) -> str:
        """The message that tells how to replay the deal just dealt."""
        if self.sitting.seed is None:
            return "New game: your own order (--order)."
        return f"New game: deal {self.sitting.seed}. Play it again with: " + (
            self.sitting.replay_command()
        )

    def run(self, read_line: ReadLine) -> int:
        """Read and obey commands until quit or end of input; the exit status (0). Ctrl-C
        is ``q`` (a second Ctrl-C quits)."""
        while True:
            try:
                line = read_line(PROMPT)
            except EOFError:  # end of input, Ctrl-D: nothing can answer a question
                self.out.write("\n")
                break
            except KeyboardInterrupt:
                self.out.write("\n")
                if self._question is not None:
                    break
                line = "q"
            if not self.obey(line):
                break
        kept = self.sitting.end_sitting()
        self.out.write(farewell(self.sitting, kept))
        self.out.flush()
        return 0

    def obey(self, line: str) -> bool:
        """Carry out one typed line and say what it did; False when the player quits."""
        question, self._question = self._question, None
        try:
            command = parse(line)
        except InputError as error:
            if question is not None:
                self._say("Nothing changed: play on.")
            else:
                self._say(str(error))
            return True
        if question is not None:
            if command == Simple(Action.YES):
                said = question.then()
                if said is not None:
                    self._say(said)
            else:
                self._say("Nothing changed: play on.")
            return not self.quitting
        message = self._do(command)
        if message is not None:
            try:
                self.sitting.save()
            except TranscriptWriteError as error:
                message = f"{message} {error}"
            self._say(message)
        return not self.quitting

    # --------------------------------------------------------------- the commands

    def _do(self, command: Command) -> str | None:
        """Carry out a parsed command; the message to show (None: shown already)."""
        if isinstance(command, Simple):
            return self._simple(command.action)
        if isinstance(command, Undo):
            return self._undo(command.count)
        if isinstance(command, Redo):
            return self._redo(command.count)
        if isinstance(command, NewDeal):
            return self._leaving("for a new deal", lambda: self._new_deal(command.seed))
        if isinstance(command, Save):
            return self._save_as(command.path)
        if isinstance(command, Solve):
            return self._solve(command.seconds)
        if isinstance(command, SetHints):
            self.solver_hints = command.source is HintSource.SOLVER
            if self.solver_hints:
                return "h now follows the solver's winning line (hints policy: back to the policy)."
            return "h now gives the autoplay policy's move."
        return self._play_card(command)

    def _simple(self, action: Action) -> str | None:
        if action is Action.DRAW:
            return self._move(DRAW)
        if action is Action.HINT:
            return self._hint()
        if action is Action.FINISH:
            return self._finish()
        if action is Action.HELP:
            return HELP_TEXT
        if action is Action.TABLE:
            self._table(self._clock_line())
            return None
        if action is Action.STATISTICS:
            return self._statistics()
        if action is Action.RESTART:
            return self._leaving("to play it again from the deal", self._restart)
        if action is Action.CONTINUE:
            return self._continue()
        if action is Action.YES:
            return "Nothing to answer yes to."
        assert action is Action.QUIT
        return self._quit()

    def _move(self, move: Move) -> str:
        """Play ``move`` if legal; once the game is won nothing more is played (the King
        piles' final transfer is automatic, RULES.md), though the engine would allow it."""
        if self.position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        return self._phrase(self.sitting.play(move))

    def _play_card(self, command: PlayCard) -> str:
        if self.position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        if command.card is not None:
            wrong = self._wrong_card(command.source, command.card)
            if wrong:
                return wrong
        if command.source is Place.S:
            if command.destination is not Place.W:
                return "the stock only deals onto the discard pile: 'S W' draws"
            return self._move(DRAW)
        wanted = command.destination
        if wanted is None:
            outcome = self.sitting.attempt(command.source)
        elif wanted is Target.ACE:
            outcome = self.sitting.attempt(command.source, lambda place: place.is_ace_pile)
        elif wanted is Target.KING:
            outcome = self.sitting.attempt(command.source, lambda place: place.is_king_pile)
        else:
            outcome = self.sitting.play(Move(command.source, wanted))
        return self._phrase(outcome)

    def _wrong_card(self, source: Place, code: str) -> str:
        """Why the card named in a transcript's line is not the one that would move
        ("" when it is). The stock's card is not named: it is face down."""
        position = self.position
        if source is Place.S:
            if position.stock_count() == 0:
                return "the stock is empty: no card to draw"
            drawn = position.order[position.deck.size - position.stock_count()]
            if drawn.code != code:
                return f"{code} is not the card on top of the stock: type 'S W' to draw"
            return ""
        card = self.sitting.top(source)
        if card is not None and card.code != code:
            where = self.face.place_name(source)
            return f"{where} holds the {self.face.name(card)} ({card.code}), not {code}"
        return ""

    def _phrase(self, outcome: Played | Refused | Ambiguous) -> str:
        if isinstance(outcome, Played):
            return self._played(outcome.steps)
        if isinstance(outcome, Refused):
            return outcome.reason
        card = self.sitting.top(outcome.source)
        assert card is not None
        source = place_key(outcome.source)
        options = " or ".join(f"'{source} {place_key(d)}'" for d in outcome.destinations)
        return f"the {self.face.name(card)} can go to more than one pile: type {options}"

    def _played(self, steps: tuple[Step, ...]) -> str:
        """What a move did, what it left showing, and the end of the game if it came."""
        text = describe_steps(steps, self.face)
        now = self._left_showing(steps)
        if now:
            text = f"{text} Now: {now}."
        return text + self._end_lines()

    def _left_showing(self, steps: tuple[Step, ...]) -> str:
        """The places the move took cards from and left with a new top (one the steps do
        not name): the discard pile, the stock, an empty space, a King pile."""
        position = self.position
        shown: list[str] = []
        seen: set[Place] = set()
        for index, step in enumerate(steps):
            place = step.source
            later = {s.destination for s in steps[index + 1 :]}
            if place in seen or place in later or place.is_ace_pile:
                continue
            seen.add(place)
            if place is Place.S:
                shown.append(f"stock {count_of(position.stock_count(), 'card')}")
            elif place is Place.W:
                discard = position.discard()
                if discard:
                    top = self.face.name(discard[-1])
                    shown.append(f"discard pile the {top} ({count_of(len(discard), 'card')})")
                else:
                    shown.append("discard pile empty")
            else:
                card = self.sitting.top(place)
                top = f"the {self.face.name(card)}" if card is not None else "empty"
                shown.append(f"{self.face.place_name(place)} {top}")
        return ", ".join(shown)

    def _end_lines(self) -> str:
        """The end of the game, if it is over: how it ended, and the statistics."""
        position = self.position
        if not position.is_over():
            return ""
        size = position.deck.size
        if position.is_won():
            end = f"*** You won! All {size} cards are on the foundations. ***"
        else:
            count = position.foundation_count()
            end = f"*** No more moves: {count} of {size} cards are on the foundations. ***"
        return (
            f"\n{end}\n{self._record_line()} (time {clock_text(self.sitting.seconds())})"
            "\nn new deal  restart  u undo  q quit"
        )

    def _record_line(self) -> str:
        sitting = self.sitting
        deck = sitting.position.deck.size
        return f"Statistics, {sitting.variant.title}, {deck} cards: {sitting.record().text()}"

    def _hint(self) -> str:
        position = self.position
        if position.is_over():
            return "The game is won." if position.is_won() else "No move left."
        if self.solver_hints:
            move = self.sitting.solver_move()
            if move is None:
                answer = self._ask_solver(self.solver_seconds)
                if answer.verdict is Verdict.WINNABLE:
                    self.sitting.follow_solver(answer.line)
                    move = self.sitting.solver_move()
                else:
                    policy = self.sitting.hint()
                    assert policy is not None
                    return f"{self._answer_text(answer, self.solver_seconds)} " + self._hint_text(
                        policy, "the policy's"
                    )
            assert move is not None
            return self._hint_text(move, "the solver's winning line")
        move = self.sitting.hint()
        assert move is not None
        return self._hint_text(move, "")

    def _hint_text(self, move: Move, whose: str) -> str:
        source = f" ({whose})" if whose else ""
        if move.is_draw:
            return f"Hint{source}: draw a card (Enter)."
        card = self.position.card_to_move(move)
        return (
            f"Hint{source}: {describe_move(move, card, self.face)} (type '{self.keys_for(move)}')."
        )

    def keys_for(self, move: Move) -> str:
        """The shortest thing to type for ``move``: the source alone when it has only
        one legal destination, else source and destination."""
        if move.is_draw:
            return ""
        source = place_key(move.source)
        if len(self.sitting.destinations(move.source)) == 1:
            return source
        return f"{source} {place_key(move.destination)}"

    def _finish(self) -> str:
        position = self.position
        if position.is_over():
            return "The game is already over."
        before = len(position.move_stack)
        last: tuple[Step, ...] = ()
        while (move := self.sitting.hint()) is not None:
            outcome = self.sitting.play(move)
            assert isinstance(outcome, Played)
            last = outcome.steps
        played = len(position.move_stack) - before
        return (
            f"The autoplay policy played {count_of(played, 'move')} (u {played} takes them "
            f"back); the last: {describe_steps(last, self.face)}" + self._end_lines()
        )

    def _undo(self, count: int) -> str:
        before = self.position.move_stack
        done = self.sitting.undo(count)
        if done == 0:
            return "Nothing to undo: this is the deal as dealt."
        first = before[len(before) - done]  # the table is now just before it
        card = None if first.is_draw else self.position.card_to_move(first)
        what = "draw a card" if card is None else describe_move(first, card, self.face)
        if done == 1:
            return f"Took back 1 move ({what}); redo plays it again."
        return f"Took back {done} moves, back to before: {what}; redo {done} plays them again."

    def _redo(self, count: int) -> str:
        if self.position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        done = self.sitting.redo(count)
        if not done:
            return "Nothing to redo: redo plays again the moves u took back."
        if len(done) == 1:
            return self._played(done[0].steps)
        return f"Played {len(done)} moves again; the last: " + self._played(done[-1].steps)

    def _save_as(self, name: str | None) -> str:
        path = output_argument(name if name is not None else self.sitting.default_name())
        try:
            self.sitting.save_as(path)
        except TranscriptWriteError as error:
            return str(error)
        return f"Saved the game as {path} (machfsol check {path} replays it)."

    def _statistics(self) -> str:
        statistics = self.sitting.statistics
        lines = []
        records = statistics.records()
        current = (self.sitting.variant.number, self.position.deck.size)
        records[current] = self.sitting.record()  # with the game on the table, once over
        for (number, size), record in sorted(records.items()):
            lines.append(f"MAChFsol {number}, {size} cards: {record.text()}")
        if statistics.problem:
            lines.append(_sentence(statistics.problem))
        elif statistics.path is not None:
            lines.append(f"Kept in {statistics.path}")
        return "\n".join(lines)

    def _clock_line(self) -> str:
        sitting = self.sitting
        return f"Moves {sitting.moves}, time {clock_text(sitting.seconds())}."

    # ---------------------------------------------------------- leaving a game

    def _ask(self, question: str, then: Callable[[], str | None]) -> str:
        self._question = _Question(then)
        return question

    def _leaving(self, why: str, then: Callable[[], str | None]) -> str | None:
        """Do ``then``, which leaves the game; ask first when a game is under way."""
        if not self.sitting.in_progress:
            return then()
        moves = count_of(self.sitting.moves, "move")
        return self._ask(f"Leave this game ({moves}, counted as lost) {why}? Type y for yes.", then)

    def _new_deal(self, seed: int | None) -> None:
        self.sitting.deal_seed(seed)
        self.sitting.save()
        self._table(self._dealt_message())

    def _restart(self) -> None:
        self.sitting.restart()
        self.sitting.save()
        self._table(f"The same deal again. {self._dealt_message()}")

    def _continue(self) -> str | None:
        sitting = self.sitting
        saved = sitting.offered
        if saved is None:
            return "There is no kept game to continue."

        def take() -> None:
            sitting.take_offered()
            sitting.save()
            self._table(f"Welcome back: {saved.describe()}.")

        return self._leaving("to continue the kept one", take)

    def _quit(self) -> str | None:
        def leave() -> None:
            self.quitting = True

        if not self.sitting.in_progress:
            leave()
            return None
        self._question = _Question(leave)
        return "Quit? This game is kept: the next start offers it. Type y to quit."

    # -------------------------------------------------------------- the solver

    def _solve(self, seconds: float | None) -> str:
        position = self.position
        if position.is_won():
            return "The game is won."
        if position.is_over():
            return "No move left: the game is lost (u takes moves back)."
        wait = self.solver_seconds if seconds is None else seconds
        answer = self._ask_solver(wait)
        if answer.verdict is Verdict.WINNABLE:
            self.sitting.follow_solver(answer.line)
        return self._answer_text(answer, wait)

    def _ask_solver(self, seconds: float) -> Answer:
        if self.solver is None:
            return Answer(Verdict.FAILED, detail="the solver is not available here")
        self.out.write(f"Asking the solver (at most {seconds:g} s)...\n")
        self.out.flush()
        question = Question(self.solver, self.position, seconds)
        try:
            return question.wait()
        except KeyboardInterrupt:
            question.cancel()
            return Answer(Verdict.UNDECIDED, detail="stopped")

    def _answer_text(self, answer: Answer, seconds: float) -> str:
        if answer.verdict is Verdict.WINNABLE:
            self.sitting.follow_solver(answer.line)
            move = self.sitting.solver_move()
            assert move is not None
            if move.is_draw:
                step = "draw a card (Enter)"
            else:
                card = self.position.card_to_move(move)
                step = f"{describe_move(move, card, self.face)} (type '{self.keys_for(move)}')"
            follow = "" if self.solver_hints else " 'hints solver' makes h follow its line."
            return f"Winnable: a winning move is {step}.{follow}"
        if answer.verdict is Verdict.LOST:
            return "Lost whatever you do: no line from here wins (u takes moves back)."
        if answer.verdict is Verdict.UNDECIDED:
            if answer.detail == "stopped":
                return "Stopped asking the solver."
            return f"Not decided in {seconds:g} s (solve N waits N seconds)."
        return f"The solver could not answer: {answer.detail}."

    # ------------------------------------------------------------------ showing

    def _table(self, message: str) -> None:
        """The table, then ``message``."""
        self.out.write(CLEAR_SCREEN if self.clear else "\n")
        self.out.write(render_table(self.position, self.face, self.sitting.title()))
        self._say(message)

    def _say(self, message: str) -> None:
        if message:
            self.out.write(message + "\n")
        self.out.flush()

    def transcript_path(self) -> Path | None:
        """Where the current game is saved: FILE for the first deal, FILE-2 ... after."""
        return self.sitting.transcript_path()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def farewell(sitting: Sitting, kept: bool = False) -> str:
    """The lines printed on quitting: the cards placed, where the transcript is, and
    whether the game under way is kept for the next start."""
    position = sitting.position
    text = (
        f"Bye: {position.foundation_count()} of {position.deck.size} cards "
        "were on the foundations.\n"
    )
    path = sitting.transcript_path()
    if path is not None:
        text += f"Transcript: {path}\n"
    if kept:
        text += "The game under way is kept: the next start offers it.\n"
    return text
