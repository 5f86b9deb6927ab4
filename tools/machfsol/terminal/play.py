"""``machfsol play``: a person plays MAChFsol 1 or 2 in a terminal.

The game is line-oriented on purpose: it reads one command a line (machfsol.terminal.play_input
says which) and answers by drawing the whole table again (machfsol.terminal.table_view) with a
one-line message under it; on an ANSI terminal the screen is cleared first so that the
table stays in place. That works the same in any terminal, through a pipe and in tests,
with no curses and no raw keyboard mode.

Everything the game knows about the rules comes from the engine: legality from
``Position.is_legal``, undo from ``Position.pop``, the hint and "play to the end" from
the autoplay policy, so the terminal game cannot drift from what ``machfsol check``
accepts. A bad command or an illegal move only ever gives a one-line message; end of
input quits cleanly.

With ``--transcript FILE`` each game is saved (after every command, atomically) as a
transcript with ``PLAYER HUMAN`` that ``machfsol check`` replays: the first game in FILE,
later deals of the same session in FILE-2, FILE-3, ... next to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from a8.files import write_atomically
from machfsol.engine.autoplay import choose_move, play
from machfsol.engine.cards import Card
from machfsol.engine.deal import MAX_SEED, MIN_SEED, deal
from machfsol.engine.rules import DRAW, KingBuild, Move, Place, Position, Variant
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError
from machfsol.terminal.play_input import (
    HELP_TEXT,
    Action,
    Command,
    InputError,
    NewDeal,
    PlayCard,
    Simple,
    Target,
    Undo,
    parse,
)
from machfsol.terminal.table_view import (
    CLEAR_SCREEN,
    CardFace,
    TableTitle,
    count_of,
    describe_move,
    describe_steps,
    pile_suit,
    place_key,
    render_table,
    tableau_number,
)

PROMPT = "> "
#: The reminder under the table (at most 80 columns, like the table itself).
KEYS_LINE = "Enter draw  3, 3a, d ks: move  h hint  u undo  p autoplay  n new  ? help  q quit"

#: Reads one line after showing a prompt; raises EOFError at the end of input.
ReadLine = Callable[[str], str]


def random_seed() -> int:
    """A fresh deal number; the game shows it so that the deal can be played again."""
    return random.SystemRandom().randint(MIN_SEED, MAX_SEED)


class TranscriptWriteError(MachfsolError):
    """The transcript file cannot be written (one line naming the file)."""


class TerminalError(MachfsolError):
    """The game cannot read its commands or show the table (one line, no traceback)."""


@dataclass
class _Game:
    """The deal being played; its number in the session names its transcript file."""

    position: Position
    seed: int | None
    number: int  # 1 for the session's first deal, 2 for the next ...


class Session:
    """One sitting at the terminal: a deal, the commands typed, and new deals."""

    def __init__(
        self,
        game: Variant,
        face: CardFace,
        out: TextIO,
        transcript: Path | None = None,
        seeds: Callable[[], int] = random_seed,
        clear: bool = False,
    ) -> None:
        self.variant = game
        self.face = face
        self.out = out
        self.transcript = transcript
        self.seeds = seeds
        self.clear = clear
        self._game: _Game | None = None
        self._games_started = 0

    @property
    def position(self) -> Position:
        if self._game is None:
            raise RuntimeError("no deal started")  # pragma: no cover - programming error
        return self._game.position

    # ------------------------------------------------------------------- the loop

    def start(self, order: tuple[Card, ...], seed: int | None) -> None:
        """Deal ``order`` and show the table (TranscriptWriteError if it cannot be saved)."""
        message = self._deal(order, seed)
        self._save()
        self._show(message)

    def _deal(self, order: tuple[Card, ...], seed: int | None) -> str:
        """Start a new game on ``order``; the message that tells how to replay it."""
        self._games_started += 1
        self._game = _Game(Position(order, self.variant), seed, self._games_started)
        if seed is None:
            return "New game: your own order (--order)."
        return (
            f"New game: deal {seed}. Play it again with: machfsol play --variant "
            f"{self.variant.number} --seed {seed} --deck {len(order)}"
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
            self._save()
        except TranscriptWriteError as error:
            message = f"{message} {error}"
        self._show(message)
        return True

    # --------------------------------------------------------------- the commands

    def _do(self, command: Command) -> str:
        """Carry out a parsed command; the message to show under the table."""
        if isinstance(command, Simple):
            if command.action is Action.DRAW:
                return self._move(DRAW, "the stock is empty: no card to draw")
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
            seed = self.seeds() if command.seed is None else command.seed
            return self._deal(deal(seed, self.position.deck.size), seed)
        return self._play_card(command)

    def _move(self, move: Move, illegal: str) -> str:
        """Play ``move`` if legal; once the game is won nothing more is played (the King
        piles' final transfer is automatic, RULES.md), though the engine would allow it."""
        position = self.position
        if position.is_won():
            return "The game is won: n for a new deal, u to undo, q to quit."
        if not position.is_legal(move):
            return illegal
        return describe_steps(position.push(move), self.face)

    def _play_card(self, command: PlayCard) -> str:
        position = self.position
        source = command.source
        if source.is_tableau and tableau_number(source) > position.deck.tableau_size:
            size = position.deck.tableau_size
            if size == 0:
                return f"a {position.deck.size}-card deck has no tableau spaces"
            return f"there is no space {tableau_number(source)}: this table has spaces 1 to {size}"
        card = self._top(source)
        if card is None:
            return f"{self.face.place_name(source)} is empty"
        name = self.face.name(card)
        choices = [
            move.destination
            for move in position.legal_moves()
            if move.source == source and self._matches(move.destination, command.destination)
        ]
        if not choices:
            reason = self._why_not(source, card, command.destination)
            if command.destination is None:
                return f"the {name} has nowhere to go yet: {reason}"
            return f"the {name} cannot go there: {reason}"
        if len(choices) > 1:
            options = " or ".join(f"'{place_key(source)} {place_key(d)}'" for d in choices)
            return f"the {name} can go to more than one pile: type {options}"
        return self._move(Move(source, choices[0]), "")  # legal: it came from legal_moves

    @staticmethod
    def _matches(destination: Place, wanted: Place | Target | None) -> bool:
        if wanted is None:
            return True
        if wanted is Target.ACE:
            return destination.is_ace_pile
        if wanted is Target.KING:
            return destination.is_king_pile
        return destination == wanted

    def _top(self, source: Place) -> Card | None:
        """The card a move from ``source`` would take (None: nothing there)."""
        position = self.position
        if source.is_tableau:
            return position.tableau()[tableau_number(source) - 1]
        if source is Place.W:
            discard = position.discard()
            return discard[-1] if discard else None
        pile = position.king_piles()[pile_suit(source)]
        return pile[-1] if pile else None

    def _why_not(self, source: Place, card: Card, wanted: Place | Target | None) -> str:
        """The reason, in words, that no destination the player ``wanted`` takes ``card``."""
        to_ace = wanted is Target.ACE or (isinstance(wanted, Place) and wanted.is_ace_pile)
        to_king = wanted is Target.KING or (isinstance(wanted, Place) and wanted.is_king_pile)
        if source.is_king_pile and to_king:
            return "nothing moves from one King pile to another"
        if isinstance(wanted, Place) and wanted.is_ace_pile and pile_suit(wanted) != card.suit:
            return f"{self.face.place_name(wanted)} takes only {self.face.suit_name(card.suit)}"
        if to_ace:
            return self._ace_reason(card)
        if source.is_king_pile:
            return self._ace_reason(card) + " (King-pile cards go only to Ace piles)"
        if isinstance(wanted, Place) and wanted.is_king_pile:
            return self._one_king_reason(wanted)
        if to_king:
            return self._king_reason()
        return f"{self._ace_reason(card)}, and no King pile takes it"

    def _ace_reason(self, card: Card) -> str:
        deck = self.position.deck
        height = len(self.position.ace_piles()[card.suit])
        if height == deck.rank_count:
            return "its Ace pile is complete"
        wanted = deck.card(card.suit * deck.rank_count + height)
        return f"its Ace pile needs the {self.face.name(wanted)}"

    def _king_rule(self) -> str:
        if self.variant.king_build is KingBuild.SAME_SUIT:
            return "one rank lower, same suit"
        return "one rank lower, other colour"

    def _king_reason(self) -> str:
        return f"no King pile takes it (they take {self._king_rule()})"

    def _one_king_reason(self, pile: Place) -> str:
        cards = self.position.king_piles()[pile_suit(pile)]
        name = self.face.place_name(pile)
        if not cards:
            return f"{name} has not started: its King is not out yet"
        return f"{name} shows the {self.face.name(cards[-1])} and takes {self._king_rule()}"

    def _hint(self) -> str:
        position = self.position
        move = choose_move(position)
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
        play(position)
        played = len(position.move_stack) - before
        return (
            f"The autoplay policy played {count_of(played, 'move')} (u {played} takes them back)."
        )

    def _undo(self, count: int) -> str:
        position = self.position
        done = 0
        while done < count and position.move_stack:
            position.pop()
            done += 1
        if done == 0:
            return "Nothing to undo: this is the deal as dealt."
        return f"Took back {count_of(done, 'move')}."

    # ------------------------------------------------------------------ showing

    def _show(self, message: str) -> None:
        """Draw the table, the message, and the end of the game when it is over."""
        game = self._game
        assert game is not None
        position = game.position
        title = TableTitle(
            self.variant.title, self.variant.king_build, game.seed, position.deck.size
        )
        self.out.write(CLEAR_SCREEN if self.clear else "\n")
        self.out.write(render_table(position, self.face, title) + "\n")
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
        position = self.position
        self.out.write(
            f"Bye: {position.foundation_count()} of {position.deck.size} cards "
            "were on the foundations.\n"
        )
        path = self.transcript_path()
        if path is not None:
            self.out.write(f"Transcript: {path}\n")
        self.out.flush()

    def transcript_path(self) -> Path | None:
        """Where the current game is saved: FILE for the first deal, FILE-2 ... after."""
        if self.transcript is None or self._game is None:
            return None
        if self._game.number == 1:
            return self.transcript
        path = self.transcript
        return path.with_name(f"{path.stem}-{self._game.number}{path.suffix}")

    def _save(self) -> None:
        """Write the current game's transcript, if asked to (atomically: a reader never
        sees half a file, and an interrupted game is saved up to its last command)."""
        path = self.transcript_path()
        if path is None or self._game is None:
            return
        text = of_game(self._game.position, seed=self._game.seed, player=Player.HUMAN)
        try:
            write_atomically(path, text.encode("ascii"))
        except OSError as error:
            raise TranscriptWriteError(f"{path}: cannot write: {error.strerror}") from None
