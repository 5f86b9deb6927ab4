"""The deals of one sitting at the terminal, shared by the full-screen and the line game.

A :class:`Sitting` holds the deal being played, deals new ones, tries the player's moves
and says why one is refused, keeps the score (games won of games played, as the Atari
game does) and saves each deal's transcript. It knows nothing of keys or screens: the
full-screen game (machfsol.terminal.full_screen) and the line game
(machfsol.terminal.play) phrase its answers in their own keys.

Everything about the rules comes from the engine: legality from ``Position.is_legal``,
undo from ``Position.pop``, the hint and "play all" from the autoplay policy, so the
terminal game cannot drift from what ``machfsol check`` accepts.

With a transcript file, each deal is saved after every change, atomically, as a
transcript with ``PLAYER HUMAN``: the first deal in FILE, later deals of the same
sitting in FILE-2, FILE-3, ... next to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from a8.files import Output, OutputError, write_atomically
from machfsol.engine.autoplay import choose_move
from machfsol.engine.cards import Card
from machfsol.engine.deal import MAX_SEED, MIN_SEED, deal
from machfsol.engine.rules import KingBuild, Move, Place, Position, Step, Variant
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError
from machfsol.terminal.table_view import CardFace, TableTitle, pile_suit, tableau_number


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
    ) -> None:
        self.variant = game
        self.face = face
        self.transcript = transcript
        self.seeds = seeds
        self.score = Score()
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

    def new_deal(self, order: tuple[Card, ...], seed: int | None) -> None:
        """Put ``order`` on the table (``seed`` None: the player's own order)."""
        self._deals_started += 1
        self._deal = _Deal(Position(order, self.variant), seed, self._deals_started)

    def deal_seed(self, seed: int | None, deck_size: int | None = None) -> int:
        """Deal number ``seed`` (None: a random one) of ``deck_size`` cards (None: the
        current deck); the seed dealt."""
        chosen = self.seeds() if seed is None else seed
        size = self.position.deck.size if deck_size is None else deck_size
        self.new_deal(deal(chosen, size), chosen)
        return chosen

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

    # ------------------------------------------------------------------ the moves

    def play(self, move: Move) -> Outcome:
        """Make ``move`` if it is legal."""
        position = self.position
        if not position.is_legal(move):
            if move.is_draw:
                return Refused("the stock is empty: no card to draw")
            return self.attempt(move.source, move.destination.__eq__)
        steps = position.push(move)
        self._count()
        return Played(move, steps)

    def attempt(self, source: Place, wanted: Wanted | None = None) -> Outcome:
        """Move the top card of ``source`` to a pile ``wanted`` accepts (None: any); the
        refusal says why when no such pile takes it."""
        position = self.position
        if source.is_tableau and tableau_number(source) > position.deck.tableau_size:
            size = position.deck.tableau_size
            if size == 0:
                return Refused(f"a {position.deck.size}-card deck has no tableau spaces")
            return Refused(
                f"there is no space {tableau_number(source)}: this table has spaces 1 to {size}"
            )
        card = self.top(source)
        if card is None:
            return Refused(f"{self.face.place_name(source)} is empty")
        name = self.face.name(card)
        choices = tuple(
            move.destination
            for move in position.legal_moves()
            if move.source == source and (wanted is None or wanted(move.destination))
        )
        if not choices:
            reason = self._why_not(source, card, wanted)
            if wanted is None:
                return Refused(f"the {name} has nowhere to go yet: {reason}")
            return Refused(f"the {name} cannot go there: {reason}")
        if len(choices) > 1:
            return Ambiguous(source, choices)
        move = Move(source, choices[0])
        steps = position.push(move)
        self._count()
        return Played(move, steps)

    def top(self, source: Place) -> Card | None:
        """The card a move from ``source`` would take (None: nothing there)."""
        position = self.position
        if source.is_tableau:
            tableau = position.tableau()
            index = tableau_number(source) - 1
            return tableau[index] if index < len(tableau) else None
        if source is Place.W:
            discard = position.discard()
            return discard[-1] if discard else None
        if source.is_king_pile:
            pile = position.king_piles()[pile_suit(source)]
            return pile[-1] if pile else None
        return None

    def hint(self) -> Move | None:
        """The autoplay policy's move (None: no move left)."""
        return choose_move(self.position)

    def undo(self, count: int = 1) -> int:
        """Take back up to ``count`` moves; how many were taken back."""
        position = self.position
        done = 0
        while done < count and position.move_stack:
            position.pop()
            done += 1
        return done

    def _count(self) -> None:
        """Keep the score: the first move makes the deal played; a won deal counts once."""
        game = self._deal
        assert game is not None
        if not game.counted:
            game.counted = True
            self.score.played += 1
        if not game.won and game.position.is_won():
            game.won = True
            self.score.won += 1

    # ------------------------------------------------------- why a move is refused

    def _why_not(self, source: Place, card: Card, wanted: Wanted | None) -> str:
        """The reason, in words, that no destination the player ``wanted`` takes ``card``."""
        asked = [place for place in Place if wanted is not None and wanted(place)]
        to_ace = bool(asked) and all(place.is_ace_pile for place in asked)
        to_king = bool(asked) and all(place.is_king_pile for place in asked)
        one = asked[0] if len(asked) == 1 else None
        if source.is_king_pile and to_king:
            return "nothing moves from one King pile to another"
        if one is not None and one.is_ace_pile and pile_suit(one) != card.suit:
            return f"{self.face.place_name(one)} takes only {self.face.suit_name(card.suit)}"
        if to_ace:
            return self._ace_reason(card)
        if source.is_king_pile:
            return self._ace_reason(card) + " (King-pile cards go only to Ace piles)"
        if one is not None and one.is_king_pile:
            return self._one_king_reason(one)
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

    def king_rule(self) -> str:
        if self.variant.king_build is KingBuild.SAME_SUIT:
            return "one rank lower, same suit"
        return "one rank lower, other colour"

    def _king_reason(self) -> str:
        return f"no King pile takes it (they take {self.king_rule()})"

    def _one_king_reason(self, pile: Place) -> str:
        cards = self.position.king_piles()[pile_suit(pile)]
        name = self.face.place_name(pile)
        if not cards:
            return f"{name} has not started: its King is not out yet"
        return f"{name} shows the {self.face.name(cards[-1])} and takes {self.king_rule()}"

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
