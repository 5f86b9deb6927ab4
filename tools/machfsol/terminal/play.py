"""``machfsol play --plain``: a person plays MAChFsol 1 or 2 one typed line at a time.

The line game is for screen readers, pipes and scripts (the full-screen game is
machfsol.terminal.full_screen). It reads one command a line (machfsol.terminal.play_input
says which) and answers by drawing the whole table again (machfsol.terminal.table_view)
with a one-line message under it; on an ANSI terminal the screen is cleared first so
that the table stays in place. That works the same in any terminal, through a pipe and
in tests, with no curses and no raw keyboard mode.

The deal, the moves, the reasons a move is refused and the transcripts are the
sitting's (machfsol.terminal.game), shared with the full-screen game; this module
phrases them in the line game's commands. A bad command or an illegal move only ever
gives a one-line message; end of input quits cleanly.

With ``--transcript FILE`` each game is saved (after every command, atomically) as a
transcript with ``PLAYER HUMAN`` that ``machfsol check`` replays: the first game in FILE,
later deals of the same session in FILE-2, FILE-3, ... next to it. ``save [FILE]`` saves
the game as it stands at any time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from a8.files import output_argument
from machfsol.engine.cards import Card
from machfsol.engine.rules import DRAW, Move, Position, Variant
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
    InputError,
    NewDeal,
    PlayCard,
    Save,
    Simple,
    Target,
    Undo,
    parse,
)
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
#: The reminder under the table (at most 80 columns, like the table itself).
KEYS_LINE = "Enter draw  3, 3a, d ks: move  h hint  u undo  p autoplay  n new  ? help  q quit"

#: Reads one line after showing a prompt; raises EOFError at the end of input.
ReadLine = Callable[[str], str]


class TerminalError(MachfsolError):
    """The game cannot read its commands or show the table (one line, no traceback)."""


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
    ) -> None:
        self.sitting = Sitting(game, face, transcript, seeds)
        self.variant = game
        self.face = face
        self.out = out
        self.transcript = transcript
        self.clear = clear

    @property
    def position(self) -> Position:
        return self.sitting.position

    # ------------------------------------------------------------------- the loop

    def start(self, order: tuple[Card, ...], seed: int | None) -> None:
        """Deal ``order`` and show the table (TranscriptWriteError if it cannot be saved)."""
        self.sitting.new_deal(order, seed)
        self.sitting.save()
        self._show(self._dealt_message())

    def _dealt_message(self) -> str:
        """The message that tells how to replay the deal just dealt."""
        if self.sitting.seed is None:
            return "New game: your own order (--order)."
        return f"New game: deal {self.sitting.seed}. Play it again with: " + (
            self.sitting.replay_command()
        )

    def run(self, read_line: ReadLine) -> int:
        """Read and obey commands until quit or end of input; the exit status (0)."""
        while True:
            try:
                line = read_line(PROMPT)
            except (EOFError, KeyboardInterrupt):  # end of input, Ctrl-D, Ctrl-C
                self.out.write("\n")
                self._farewell()
                return 0
            if not self.obey(line):
                self._farewell()
                return 0

    def obey(self, line: str) -> bool:
        """Carry out one typed line and show the table; False when the player quits."""
        try:
            command = parse(line)
        except InputError as error:
            self._show(str(error))
            return True
        if isinstance(command, Simple) and command.action is Action.QUIT:
            return False
        message = self._do(command)
        try:
            self.sitting.save()
        except TranscriptWriteError as error:
            message = f"{message} {error}"
        self._show(message)
        return True

    # --------------------------------------------------------------- the commands

    def _do(self, command: Command) -> str:
        """Carry out a parsed command; the message to show under the table."""
        if isinstance(command, Simple):
            if command.action is Action.DRAW:
                return self._move(DRAW)
            if command.action is Action.HINT:
                return self._hint()
            if command.action is Action.FINISH:
                return self._finish()
            if command.action is Action.HELP:
                return HELP_TEXT
            raise AssertionError(f"{command} is handled by obey")  # pragma: no cover
        if isinstance(command, Undo):
            return self._undo(command.count)
        if isinstance(command, NewDeal):
            self.sitting.deal_seed(command.seed)
            return self._dealt_message()
        if isinstance(command, Save):
            return self._save_as(command.path)
        return self._play_card(command)

    def _move(self, move: Move) -> str:
        """Play ``move`` if legal; once the game is won nothing more is played (the King
        piles' final transfer is automatic, RULES.md), though the engine would allow it."""
        if self.position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        return self._phrase(self.sitting.play(move))

    def _play_card(self, command: PlayCard) -> str:
        if self.position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        wanted = command.destination
        if wanted is None:
            outcome = self.sitting.attempt(command.source)
        elif wanted is Target.ACE:
            outcome = self.sitting.attempt(command.source, lambda place: place.is_ace_pile)
        elif wanted is Target.KING:
            outcome = self.sitting.attempt(command.source, lambda place: place.is_king_pile)
        else:
            outcome = self.sitting.attempt(command.source, wanted.__eq__)
        return self._phrase(outcome)

    def _phrase(self, outcome: Played | Refused | Ambiguous) -> str:
        if isinstance(outcome, Played):
            return describe_steps(outcome.steps, self.face)
        if isinstance(outcome, Refused):
            return outcome.reason
        card = self.sitting.top(outcome.source)
        assert card is not None
        source = place_key(outcome.source)
        options = " or ".join(f"'{source} {place_key(d)}'" for d in outcome.destinations)
        return f"the {self.face.name(card)} can go to more than one pile: type {options}"

    def _hint(self) -> str:
        position = self.position
        move = self.sitting.hint()
        if move is None:
            return "No move left." if not position.is_won() else "The game is won."
        if move.is_draw:
            return "Hint: draw a card (Enter)."
        card = position.card_to_move(move)
        return f"Hint: {describe_move(move, card, self.face)} (type '{self.keys_for(move)}')."

    def keys_for(self, move: Move) -> str:
        """The shortest thing to type for ``move``: the source alone when it has only
        one legal destination, else source and destination."""
        if move.is_draw:
            return ""
        destinations = [m for m in self.position.legal_moves() if m.source == move.source]
        source = place_key(move.source)
        if len(destinations) == 1:
            return source
        return f"{source} {place_key(move.destination)}"

    def _finish(self) -> str:
        position = self.position
        if position.is_over():
            return "The game is already over."
        before = len(position.move_stack)
        while (move := self.sitting.hint()) is not None:
            self.sitting.play(move)
        played = len(position.move_stack) - before
        return (
            f"The autoplay policy played {count_of(played, 'move')} (u {played} takes them back)."
        )

    def _undo(self, count: int) -> str:
        done = self.sitting.undo(count)
        if done == 0:
            return "Nothing to undo: this is the deal as dealt."
        return f"Took back {count_of(done, 'move')}."

    def _save_as(self, name: str | None) -> str:
        path = output_argument(name if name is not None else self.sitting.default_name())
        try:
            self.sitting.save_as(path)
        except TranscriptWriteError as error:
            return str(error)
        return f"Saved the game as {path} (machfsol check {path} replays it)."

    # ------------------------------------------------------------------ showing

    def _show(self, message: str) -> None:
        """Draw the table, the message, and the end of the game when it is over."""
        position = self.position
        self.out.write(CLEAR_SCREEN if self.clear else "\n")
        self.out.write(render_table(position, self.face, self.sitting.title()) + "\n")
        if message:
            self.out.write(message + "\n")
        if position.is_won():
            self.out.write(
                f"*** You won! All {position.deck.size} cards are on the foundations. ***\n"
                "n new deal  u undo  q quit\n"
            )
        elif position.is_over():
            self.out.write(
                f"*** No more moves: {position.foundation_count()} of {position.deck.size} "
                "cards are on the foundations. ***\nn new deal  u undo  q quit\n"
            )
        else:
            self.out.write(KEYS_LINE + "\n")
        self.out.flush()

    def _farewell(self) -> None:
        self.out.write(farewell(self.sitting))
        self.out.flush()

    def transcript_path(self) -> Path | None:
        """Where the current game is saved: FILE for the first deal, FILE-2 ... after."""
        return self.sitting.transcript_path()


def farewell(sitting: Sitting) -> str:
    """The lines printed on quitting: the cards placed, and where the transcript is."""
    position = sitting.position
    text = (
        f"Bye: {position.foundation_count()} of {position.deck.size} cards "
        "were on the foundations.\n"
    )
    path = sitting.transcript_path()
    if path is not None:
        text += f"Transcript: {path}\n"
    return text
