"""The deals of one sitting at the terminal, shared by the full-screen and the line game.

A :class:`Sitting` holds the deal being played, deals new ones (or the same one again),
tries the player's moves and says why one is refused, takes moves back and plays them
again (undo, redo), counts the moves and the time played, keeps the score (games won of
games played, as the Atari game does), counts each game in the player's statistics
(machfsol.terminal.statistics) and saves each deal's transcript. It knows nothing of
keys or screens: the full-screen game (machfsol.terminal.full_screen) and the line game
(machfsol.terminal.play) phrase its answers in their own keys.

Everything about the rules comes from the engine: legality from ``Position.is_legal``,
why a move is refused from ``machfsol.engine.refusals`` (worded by
machfsol.terminal.reasons), undo from ``Position.pop``, the hint and "play all" from the
autoplay policy, so the terminal game cannot drift from what ``machfsol check`` accepts.

With a transcript file, each deal is saved after every change, atomically, as a
transcript with ``PLAYER HUMAN``: the first deal in FILE, later deals of the same
sitting in FILE-2, FILE-3, ... next to it.

A game counts in the statistics once: as won the moment it is won, as lost when it is
left unwon after a move (a new deal, the same deal again, quitting a finished game). A
game in progress that the player quits is not lost: it is kept
(machfsol.terminal.kept_game) and offered at the next start.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from a8.files import Output, OutputError, write_atomically
from machfsol.engine.autoplay import choose_move
from machfsol.engine.cards import Card
from machfsol.engine.deal import MAX_SEED, MIN_SEED, deal
from machfsol.engine.refusals import Refusal, refusal, top_card
from machfsol.engine.rules import Move, Place, Position, Step, Variant
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError
from machfsol.terminal import reasons
from machfsol.terminal.kept_game import KeptGame, SavedGame
from machfsol.terminal.statistics import Record, Statistics
from machfsol.terminal.table_view import CardFace, TableTitle

#: The piles a card can be put on.
FOUNDATIONS: tuple[Place, ...] = tuple(p for p in Place if p.is_ace_pile or p.is_king_pile)


def random_seed() -> int:
    """A fresh deal number; the game shows it so that the deal can be played again."""
    return random.SystemRandom().randint(MIN_SEED, MAX_SEED)


class TranscriptWriteError(MachfsolError):
    """The transcript file cannot be written (one line naming the file)."""


@dataclass(frozen=True)
class Played:
    """The move was made: its steps, the player's first, then the forced ones."""

    move: Move
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Refused:
    """The move was not made; ``reason`` is a lower-case phrase, e.g. ``space 4 is empty``."""

    reason: str


@dataclass(frozen=True)
class Ambiguous:
    """The card can go to more than one of the piles the player allowed."""

    source: Place
    destinations: tuple[Place, ...]


Outcome = Played | Refused | Ambiguous


@dataclass
class Score:
    """Games won of games played; a deal counts as played once a move is made in it."""

    played: int = 0
    won: int = 0


@dataclass
class _Deal:
    position: Position
    seed: int | None  # None: an explicit order
    number: int  # 1 for the sitting's first deal, 2 for the next ...
    counted: bool = False  # counted among the games played
    won: bool = False  # counted among the games won
    recorded: bool = False  # counted in the statistics (won, or left unwon)
    redo: list[Move] = field(default_factory=list)  # moves taken back, the next last
    banked: float = 0.0  # seconds played before ``running_since``
    running_since: float | None = None  # the clock's reading when it last started
    solver_line: tuple[Move, ...] = ()  # a winning line from the deal, when one is known


#: Chooses which destinations a move may go to: the pile asked for, or any.
Wanted = Callable[[Place], bool]


class Sitting:
    """One sitting: the deal on the table, new deals, the score and the transcripts."""

    def __init__(
        self,
        game: Variant,
        face: CardFace,
        transcript: Path | None = None,
        seeds: Callable[[], int] = random_seed,
        clock: Callable[[], float] = time.monotonic,
        statistics: Statistics | None = None,
        kept: KeptGame | None = None,
    ) -> None:
        self.variant = game
        self.face = face
        self.transcript = transcript
        self.seeds = seeds
        self.clock = clock
        self.statistics = statistics if statistics is not None else Statistics(None)
        self.kept = kept if kept is not None else KeptGame(None)
        self.score = Score()
        #: The kept game offered at the start and not yet taken or declined.
        self.offered: SavedGame | None = None
        self._deal: _Deal | None = None
        self._deals_started = 0

    # ------------------------------------------------------------------- the deal

    @property
    def position(self) -> Position:
        if self._deal is None:
            raise RuntimeError("no deal started")  # pragma: no cover - programming error
        return self._deal.position

    @property
    def seed(self) -> int | None:
        return None if self._deal is None else self._deal.seed

    @property
    def moves(self) -> int:
        """Moves made in this deal (as the transcript counts them)."""
        return self.position.move_count

    @property
    def in_progress(self) -> bool:
        """A game under way: a move made, and not over. Leaving it needs a "yes"."""
        position = self.position
        return bool(position.move_stack) and not position.is_over()

    def new_deal(self, order: tuple[Card, ...], seed: int | None) -> None:
        """Put ``order`` on the table (``seed`` None: the player's own order); the game
        left counts as lost if a move was made in it and it was not won."""
        self.leave()
        self._deals_started += 1
        self._deal = _Deal(Position(order, self.variant), seed, self._deals_started)
        self._deal.running_since = self.clock()

    def deal_seed(self, seed: int | None, deck_size: int | None = None) -> int:
        """Deal number ``seed`` (None: a random one) of ``deck_size`` cards (None: the
        current deck); the seed dealt."""
        chosen = self.seeds() if seed is None else seed
        size = self.position.deck.size if deck_size is None else deck_size
        self.new_deal(deal(chosen, size), chosen)
        return chosen

    def restart(self) -> None:
        """The same deal again, from the start (the game left counts as lost)."""
        position = self.position
        self.new_deal(position.order, self.seed)

    def go_on_with(self, saved: SavedGame) -> None:
        """Play on a saved or kept game: its deal, its moves made, its time played."""
        self.leave()
        position = saved.position()
        self.variant = position.variant
        self._deals_started += 1
        game = _Deal(position, saved.seed, self._deals_started, banked=saved.seconds)
        self._deal = game
        if saved.moves:
            game.counted = True
            self.score.played += 1
        if game.position.is_won():
            game.won = game.recorded = True
            self.score.won += 1
        self._run_clock()

    def saved_game(self) -> SavedGame:
        """The game as it stands, to keep or to save."""
        position = self.position
        return SavedGame(
            self.variant.number, self.seed, position.order, position.move_stack, self.seconds()
        )

    def title(self) -> TableTitle:
        position = self.position
        return TableTitle(
            self.variant.title, self.variant.king_build, self.seed, position.deck.size
        )

    def replay_command(self) -> str:
        """The command that deals this deal again (empty for an explicit order)."""
        if self.seed is None:
            return ""
        return (
            f"machfsol play --variant {self.variant.number} --seed {self.seed} "
            f"--deck {self.position.deck.size}"
        )

    # ------------------------------------------------------------ leaving a game

    def leave(self) -> None:
        """The deal is left: count it as lost if a move was made and it was not won."""
        game = self._deal
        if game is None or game.recorded or not game.counted:
            return
        game.recorded = True
        deck = game.position.deck.size
        self.statistics.add(self.variant.number, deck, False, self.seconds())

    def end_sitting(self) -> bool:
        """The player quits: a game in progress is kept for the next start (whether it
        was), any other game is left. Keeping it replaces a kept game that was offered
        and not taken: that one then counts as lost."""
        if self._deal is not None and self.in_progress:
            kept = self.kept.keep(self.saved_game(), self.transcript_text())
            if kept and self.offered is not None:
                self._count_given_up(self.offered)
                self.offered = None
            return kept
        self.leave()
        return False

    def take_offered(self) -> None:
        """Play on with the kept game offered at the start."""
        saved = self.offered
        assert saved is not None
        self.offered = None
        self.go_on_with(saved)
        self.kept.forget()

    def decline(self, saved: SavedGame) -> None:
        """The kept game ``saved`` is given up: it counts as lost, and is forgotten
        (unless a newer game has taken its place)."""
        if saved is self.offered:
            self.offered = None
            self.kept.forget()
        self._count_given_up(saved)

    def _count_given_up(self, saved: SavedGame) -> None:
        if saved.moves and not saved.position().is_won():
            self.statistics.add(saved.variant, len(saved.order), False, saved.seconds)

    def record(self) -> Record:
        """The statistics of this variant and deck size; once the game is over, with it
        counted (a lost game is counted when it is left: until then undo can save it)."""
        position = self.position
        record = self.statistics.record(self.variant.number, position.deck.size)
        game = self._deal
        assert game is not None
        if position.is_over() and not game.recorded:
            return record.after(position.is_won(), self.seconds())
        return record

    # ------------------------------------------------------------------- the clock

    def seconds(self) -> float:
        """Time played in this deal: from the deal to the end of the game (the clock
        stops while the game is over, and goes on if undo opens it again)."""
        game = self._deal
        if game is None:
            return 0.0
        if game.running_since is None:
            return game.banked
        return game.banked + max(0.0, self.clock() - game.running_since)

    def _run_clock(self) -> None:
        """Stop the clock when the game is over, start it again when it is not."""
        game = self._deal
        assert game is not None
        over = game.position.is_over()
        if over and game.running_since is not None:
            game.banked = self.seconds()
            game.running_since = None
        elif not over and game.running_since is None:
            game.running_since = self.clock()

    # ------------------------------------------------------------------ the moves

    def play(self, move: Move) -> Outcome:
        """Make ``move`` if it is legal."""
        position = self.position
        refused = refusal(position, move)
        if refused is not None:
            return Refused(self._refusal_text(refused, (refused,), wanted_any=False))
        return self._push(move)

    def attempt(self, source: Place, wanted: Wanted | None = None) -> Outcome:
        """Move the top card of ``source`` to a pile ``wanted`` accepts (None: any); the
        refusal says why when no such pile takes it."""
        position = self.position
        allowed = [p for p in FOUNDATIONS if wanted is None or wanted(p)]
        if not allowed:  # only places that are no foundation: the rule says why not
            asked = (p for p in Place if wanted is not None and wanted(p))
            return self.play(Move(source, next(asked, Place.S)))
        choices = tuple(p for p in allowed if position.is_legal(Move(source, p)))
        if not choices:
            refusals = tuple(refusal(position, Move(source, p)) for p in allowed)
            found = tuple(r for r in refusals if r is not None)
            return Refused(self._refusal_text(found[0], found, wanted_any=wanted is None))
        if len(choices) > 1:
            return Ambiguous(source, choices)
        return self._push(Move(source, choices[0]))

    def destinations(self, source: Place) -> tuple[Place, ...]:
        """The piles the top card of ``source`` may go to now."""
        return tuple(m.destination for m in self.position.legal_moves() if m.source == source)

    def _refusal_text(self, first: Refusal, refusals: tuple[Refusal, ...], wanted_any: bool) -> str:
        position = self.position
        about_source = reasons.source_problem(first, position, self.face)
        if about_source is not None:
            return about_source
        card = first.card
        assert card is not None
        reason = reasons.combined(card, refusals, position, self.face)
        name = self.face.name(card)
        if wanted_any:
            return f"the {name} has nowhere to go yet: {reason}"
        return f"the {name} cannot go there: {reason}"

    def _push(self, move: Move) -> Played:
        game = self._deal
        assert game is not None
        steps = game.position.push(move)
        if game.redo and game.redo[-1] == move:
            game.redo.pop()  # the move taken back, played again: the rest can follow
        else:
            game.redo.clear()  # a new move: what was taken back is gone
        self._count()
        return Played(move, steps)

    def top(self, source: Place) -> Card | None:
        """The card a move from ``source`` would take (None: nothing there)."""
        return top_card(self.position, source)

    def hint(self) -> Move | None:
        """The autoplay policy's move (None: no move left)."""
        return choose_move(self.position)

    def undo(self, count: int = 1) -> int:
        """Take back up to ``count`` moves; how many were taken back. They can be played
        again with :meth:`redo` until a new move is made."""
        game = self._deal
        assert game is not None
        done = 0
        while done < count and game.position.move_stack:
            game.redo.append(game.position.pop())
            done += 1
        self._run_clock()
        return done

    def redo(self, count: int = 1) -> tuple[Played, ...]:
        """Play again up to ``count`` of the moves taken back, in order; what each did."""
        game = self._deal
        assert game is not None
        done: list[Played] = []
        while len(done) < count and game.redo:
            done.append(self._push(game.redo[-1]))
        return tuple(done)

    @property
    def redo_count(self) -> int:
        """How many moves taken back :meth:`redo` can play again."""
        return 0 if self._deal is None else len(self._deal.redo)

    # ------------------------------------------------------------ the solver's line

    def follow_solver(self, line: tuple[Move, ...]) -> None:
        """Remember a winning line of this deal (from the deal), for the hints."""
        assert self._deal is not None
        self._deal.solver_line = line

    def solver_move(self) -> Move | None:
        """The next move of the known winning line, if the game is still on it."""
        game = self._deal
        assert game is not None
        made = game.position.move_stack
        line = game.solver_line
        if len(line) > len(made) and line[: len(made)] == made:
            return line[len(made)]
        return None

    def _count(self) -> None:
        """Keep the score and the statistics: the first move makes the deal played; a
        won deal counts once."""
        game = self._deal
        assert game is not None
        if not game.counted:
            game.counted = True
            self.score.played += 1
        self._run_clock()
        if not game.won and game.position.is_won():
            game.won = True
            self.score.won += 1
            if not game.recorded:
                game.recorded = True
                deck = game.position.deck.size
                self.statistics.add(self.variant.number, deck, True, self.seconds())

    # ---------------------------------------------------------------- transcripts

    def default_name(self) -> str:
        """``machfsol-1-deal-77.txt`` (``machfsol-1-order.txt`` for the player's own order)."""
        which = "order" if self.seed is None else f"deal-{self.seed}"
        return f"machfsol-{self.variant.number}-{which}.txt"

    def transcript_path(self) -> Path | None:
        """Where the current deal is saved: FILE for the first deal, FILE-2 ... after."""
        if self.transcript is None or self._deal is None:
            return None
        if self._deal.number == 1:
            return self.transcript
        path = self.transcript
        return path.with_name(f"{path.stem}-{self._deal.number}{path.suffix}")

    def transcript_text(self) -> str:
        """The current deal as a transcript (``PLAYER HUMAN``)."""
        assert self._deal is not None
        return of_game(self._deal.position, seed=self._deal.seed, player=Player.HUMAN)

    def save(self) -> None:
        """Write the current deal's transcript, if a file was given (atomically: a reader
        never sees half a file, and an interrupted game is saved up to its last move)."""
        path = self.transcript_path()
        if path is not None:
            self.save_as(path)

    def save_as(self, path: Output) -> None:
        """Write the current deal's transcript to ``path`` (TranscriptWriteError if not)."""
        try:
            write_atomically(path, self.transcript_text().encode("ascii"))
        except OutputError as error:  # a missing folder, a full disk ...
            raise TranscriptWriteError(str(error)) from None
        except OSError as error:
            raise TranscriptWriteError(f"{path}: cannot write: {error.strerror}") from None
        except ValueError:  # a name with a NUL character
            raise TranscriptWriteError(f"{path!r}: not a file name") from None
