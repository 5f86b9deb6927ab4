"""The rules of MAChFsol 1 and 2: places, moves, forced events and the Position.

The table has a stock (face down), a discard pile (only its top is playable), a tableau
of 0..8 single-card spaces, four Ace piles (built up by suit) and four King piles (built
down by suit in variant 1, down in alternating colour in variant 2; the pile "KH" is the
one headed by the King of hearts). docs/RULES.md is the full specification; this module
is its reference implementation, which the Atari BASIC programs copy move for move.

Every card movement, whether the player's or forced, is one :class:`Step` ``(card,
source, destination)``. A player's :class:`Move` is a source and a destination; pushing it
performs its step and then the forced steps, in the fixed order of :meth:`Position.settle`:

1. a discard top that is an Ace or a King goes to its foundation (repeat);
2. the lowest-numbered empty tableau space is filled from the discard top, or from the
   stock when the discard pile is empty; a card so placed that is an Ace or King goes
   at once to its foundation (leaving the space empty again); repeat from 1.

API in the style of python-chess: ``Position.from_seed(seed, variant, deck_size)``,
``legal_moves()``, ``push(move)`` (returns the steps done), ``pop()`` (undo),
``is_over()``, ``is_won()``, ``foundation_count()``, ``key()`` (hashable state for a
solver) and ``copy()``. A terminal game's "undo" is ``pop()``; its "hint" is
``machfsol.engine.autoplay.choose_move(position)``.

Internally cards are plain ints (``suit * R + rank``) and places ints (:class:`Place`
values) kept in lists, because autoplay runs thousands of games per second; the value
types appear only at the API. Code that plays thousands of its own moves (autoplay, the
solver replaying its lines) uses the *fast interface* on those ints instead
(``top_number``, ``source_of``, ``destinations_of``, ``push_places`` ...: the section of
that name in :class:`Position`). Only the engine reads the lists themselves
(tests/test_layout.py fails on a private name used from another part).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from machfsol.engine.cards import Card, Deck
from machfsol.engine.deal import deal
from machfsol.errors import MachfsolError


class IllegalMoveError(MachfsolError):
    """A move that the rules do not allow in the current position."""


class KingBuild(enum.Enum):
    """How King piles are built down: what differs between the two games."""

    SAME_SUIT = "same suit"
    ALTERNATE_COLOUR = "alternating colour"


@dataclass(frozen=True)
class Variant:
    """One of the two games, as data: only the King-pile building rule differs."""

    number: int
    title: str
    king_build: KingBuild

    def king_pile_accepts(self, top: Card, card: Card) -> bool:
        """May ``card`` go on a King pile whose top card is ``top``?"""
        if card.rank_index != top.rank_index - 1:
            return False
        if self.king_build is KingBuild.SAME_SUIT:
            return card.suit == top.suit
        return card.is_red != top.is_red


VARIANTS: dict[int, Variant] = {
    1: Variant(1, "MAChFsol 1", KingBuild.SAME_SUIT),
    2: Variant(2, "MAChFsol 2", KingBuild.ALTERNATE_COLOUR),
}


def variant(number: int) -> Variant:
    """The variant numbered ``number`` (1 or 2)."""
    try:
        return VARIANTS[number]
    except KeyError:
        raise MachfsolError(f"variant {number} is not 1 or 2") from None


class Place(enum.IntEnum):
    """Where a card can be; the member name is the token used in transcripts."""

    S = 0  # the stock (face down)
    W = 1  # the discard pile ("waste")
    T1 = 2
    T2 = 3
    T3 = 4
    T4 = 5
    T5 = 6
    T6 = 7
    T7 = 8
    T8 = 9
    AS = 10
    AH = 11
    AC = 12
    AD = 13
    KS = 14
    KH = 15
    KC = 16
    KD = 17

    @property
    def is_tableau(self) -> bool:
        return TABLEAU_BASE <= self < ACE_BASE

    @property
    def is_ace_pile(self) -> bool:
        return ACE_BASE <= self < KING_BASE

    @property
    def is_king_pile(self) -> bool:
        return self >= KING_BASE


STOCK = 0
DISCARD = 1
TABLEAU_BASE = 2
ACE_BASE = 10
KING_BASE = 14
NOWHERE = -1  # an empty tableau space / no card


@dataclass(frozen=True)
class Move:
    """A player's move: take the top card of ``source`` and put it on ``destination``.

    Drawing is ``Move(Place.S, Place.W)``. The card is implied by the position.
    """

    source: Place
    destination: Place

    @property
    def is_draw(self) -> bool:
        return self.source == Place.S

    def __str__(self) -> str:
        return f"{self.source.name} {self.destination.name}"


DRAW = Move(Place.S, Place.W)


@dataclass(frozen=True)
class Step:
    """One card movement, the player's or forced: what a transcript line records."""

    card: Card
    source: Place
    destination: Place
    forced: bool


@dataclass(frozen=True)
class _Tables:
    """Per deck size and variant: facts about card numbers, looked up in the hot path."""

    cards: tuple[Card, ...]
    suit: tuple[int, ...]
    is_ace_or_king: tuple[bool, ...]
    fits_on: tuple[tuple[int, ...], ...]  # King-pile tops each card may be put on
    takes: tuple[tuple[int, ...], ...]  # cards a King-pile top may receive


@cache
def _tables(size: int, game: Variant) -> _Tables:
    cards = Deck(size).cards()
    ranks = size // 4
    return _Tables(
        cards=cards,
        suit=tuple(n // ranks for n in range(size)),
        is_ace_or_king=tuple(n % ranks in (0, ranks - 1) for n in range(size)),
        fits_on=tuple(
            tuple(top.number for top in cards if game.king_pile_accepts(top, card))
            for card in cards
        ),
        takes=tuple(
            tuple(card.number for card in cards if game.king_pile_accepts(top, card))
            for top in cards
        ),
    )


class Position:
    """A game in progress: the table, plus the stack of moves pushed so far."""

    def __init__(self, order: Sequence[Card], game: Variant) -> None:
        if not order:
            raise MachfsolError("a dealing order needs cards")
        self.deck = Deck(order[0].deck_size)
        if any(card.deck_size != self.deck.size for card in order) or sorted(
            card.number for card in order
        ) != list(range(self.deck.size)):
            raise MachfsolError(f"the order is not one {self.deck.size}-card deck")
        self.variant = game
        self.order: tuple[Card, ...] = tuple(order)
        size = self.deck.size
        ranks = self.deck.rank_count
        self._n = size
        self._r = ranks
        tables = _tables(size, game)
        self._cards = tables.cards
        self._suit = tables.suit
        self._is_ace_or_king = tables.is_ace_or_king
        self._fits_on = tables.fits_on
        self._takes = tables.takes
        self._order = [card.number for card in order]
        self._next = 0  # index in _order of the stock's top card
        self._discard: list[int] = []
        self._tab = [NOWHERE] * self.deck.tableau_size
        self._ace_next = [s * ranks for s in range(4)]  # card each Ace pile needs next
        self._kings: list[list[int]] = [[], [], [], []]
        # King pile whose top is this card; one extra entry (for "card" N, what a full
        # Ace pile of diamonds asks for next) that is always NOWHERE.
        self._pile_of_top = [NOWHERE] * (size + 1)
        # How many foundations take each card now (0: not playable). One extra entry,
        # always 0, so that looking up NOWHERE (-1, an empty space) answers "no".
        self._playable = [0] * (size + 1)
        for suit in range(4):
            self._playable[suit * ranks] = 1
        self._on_foundations = 0
        self._steps: list[tuple[int, int, int, bool]] = []
        self._marks: list[int] = []  # len(_steps) before each pushed move
        self._moves: list[tuple[int, int]] = []
        self.settle()
        self._opening = len(self._steps)

    @classmethod
    def from_seed(cls, seed: int, game: Variant, deck_size: int = 52) -> Position:
        return cls(deal(seed, deck_size), game)

    # ----------------------------------------------------------------- elementary steps

    def _transfer(self, card: int, source: int, destination: int, forced: bool) -> None:
        """Move ``card`` (the top of ``source``) to ``destination`` and record the step."""
        if source == STOCK:
            self._next += 1
        elif source == DISCARD:
            self._discard.pop()
        elif source < ACE_BASE:
            self._tab[source - TABLEAU_BASE] = NOWHERE
        else:  # a King pile (nothing ever leaves an Ace pile)
            self._pop_king_pile(source - KING_BASE)
        if destination == DISCARD:
            self._discard.append(card)
        elif destination < ACE_BASE:
            self._tab[destination - TABLEAU_BASE] = card
        elif destination < KING_BASE:
            self._raise_ace_pile(destination - ACE_BASE, 1)
        else:
            self._push_king_pile(destination - KING_BASE, card)
        self._steps.append((card, source, destination, forced))

    def _raise_ace_pile(self, suit: int, by: int) -> None:
        """Grow (by=1) or shrink (by=-1) an Ace pile, keeping the playable counts."""
        playable = self._playable
        end = (suit + 1) * self._r
        wanted = self._ace_next[suit]
        if wanted < end:
            playable[wanted] -= 1
        wanted += by
        self._ace_next[suit] = wanted
        if wanted < end:
            playable[wanted] += 1
        self._on_foundations += by

    def _push_king_pile(self, index: int, card: int) -> None:
        pile = self._kings[index]
        playable = self._playable
        if pile:
            top = pile[-1]
            self._pile_of_top[top] = NOWHERE
            for taken in self._takes[top]:
                playable[taken] -= 1
        pile.append(card)
        self._pile_of_top[card] = index
        for taken in self._takes[card]:
            playable[taken] += 1
        self._on_foundations += 1

    def _pop_king_pile(self, index: int) -> None:
        pile = self._kings[index]
        playable = self._playable
        card = pile.pop()
        self._pile_of_top[card] = NOWHERE
        for taken in self._takes[card]:
            playable[taken] -= 1
        if pile:
            top = pile[-1]
            self._pile_of_top[top] = index
            for taken in self._takes[top]:
                playable[taken] += 1
        self._on_foundations -= 1

    def _untransfer(self, card: int, source: int, destination: int) -> None:
        """Exactly reverse one :meth:`_transfer` (used by :meth:`pop`)."""
        if destination == DISCARD:
            self._discard.pop()
        elif destination < ACE_BASE:
            self._tab[destination - TABLEAU_BASE] = NOWHERE
        elif destination < KING_BASE:
            self._raise_ace_pile(destination - ACE_BASE, -1)
        else:
            self._pop_king_pile(destination - KING_BASE)
        if source == STOCK:
            self._next -= 1
        elif source == DISCARD:
            self._discard.append(card)
        elif source < ACE_BASE:
            self._tab[source - TABLEAU_BASE] = card
        else:
            self._push_king_pile(source - KING_BASE, card)

    def _foundation_for_forced(self, card: int) -> int:
        """An Ace goes to its suit's Ace pile, a King starts its suit's King pile."""
        suit = self._suit[card]
        if card % self._r == 0:
            return ACE_BASE + suit
        return KING_BASE + suit

    def settle(self) -> None:
        """Do every forced step, in the order docs/RULES.md specifies.

        Called after the deal and after each move. Only a card just drawn can be an Ace
        or King on the discard; only a card just placed can be one in the tableau.
        """
        tab = self._tab
        discard = self._discard
        while True:
            if discard and self._is_ace_or_king[discard[-1]]:
                card = discard[-1]
                self._transfer(card, DISCARD, self._foundation_for_forced(card), True)
                continue
            if NOWHERE not in tab:
                return
            slot = tab.index(NOWHERE)
            if discard:
                card = discard[-1]
                self._transfer(card, DISCARD, TABLEAU_BASE + slot, True)
            elif self._next < self._n:
                card = self._order[self._next]
                self._transfer(card, STOCK, TABLEAU_BASE + slot, True)
            else:
                return
            if self._is_ace_or_king[card]:
                self._transfer(card, TABLEAU_BASE + slot, self._foundation_for_forced(card), True)

    # ---------------------------------------------------------------- the fast interface
    #
    # For code that plays thousands of moves it chose itself: the autoplay policies and
    # the solver (machfsol.odds.solver), which replays every winning line it finds. A
    # card is its number (``Card.number``), a place its Place value, both plain ints,
    # and NOWHERE (-1) stands for "no card". Nothing is turned into a Card, Move or
    # Step, and :meth:`push_places` trusts its caller: ask :meth:`is_legal_places`
    # first unless the move is known to be legal. Everything else uses the value API
    # below (``legal_moves``, ``push``, ``tableau`` ...).

    def top_number(self, source: int) -> int:
        """The card a move from ``source`` would take (the stock's top, the discard top, a
        space's card, a King-pile top), or NOWHERE."""
        if source == STOCK:
            return self._order[self._next] if self._next < self._n else NOWHERE
        if source == DISCARD:
            return self._discard[-1] if self._discard else NOWHERE
        if source < ACE_BASE:
            index = source - TABLEAU_BASE
            return self._tab[index] if index < len(self._tab) else NOWHERE
        if source < KING_BASE:
            return NOWHERE  # nothing moves off an Ace pile
        pile = self._kings[source - KING_BASE]
        return pile[-1] if pile else NOWHERE

    def tableau_numbers(self) -> tuple[int, ...]:
        """The card in each tableau space, T1 first (NOWHERE for an empty space)."""
        return tuple(self._tab)

    def ace_pile_heights(self) -> list[int]:
        """How many cards each Ace pile (S, H, C, D) holds (a new list)."""
        ranks = self._r
        return [wanted - suit * ranks for suit, wanted in enumerate(self._ace_next)]

    def king_pile_tops(self) -> list[int]:
        """The top card of each King pile (S, H, C, D), NOWHERE for one not started
        (a new list)."""
        return [pile[-1] if pile else NOWHERE for pile in self._kings]

    def source_of(self, card: int) -> int:
        """The place ``card`` can be moved from now (the discard top, a tableau space, a
        King-pile top, looked for in that order), or NOWHERE."""
        if self._discard and self._discard[-1] == card:
            return DISCARD
        if card in self._tab:
            return TABLEAU_BASE + self._tab.index(card)
        pile = self._pile_of_top[card]
        return NOWHERE if pile == NOWHERE else KING_BASE + pile

    def is_playable_number(self, card: int) -> bool:
        """Does some foundation take ``card`` now? (:meth:`is_playable` for a number.)"""
        return self._playable[card] > 0

    def destinations_of(self, card: int) -> list[int]:
        """The foundations (places) that take ``card`` now, in place order: its Ace pile
        first, then King piles."""
        found = []
        suit = self._suit[card]
        if self._ace_next[suit] == card:
            found.append(ACE_BASE + suit)
        pile_of_top = self._pile_of_top
        for top in self._fits_on[card]:
            pile = pile_of_top[top]
            if pile != NOWHERE:
                found.append(KING_BASE + pile)
        found.sort()
        return found

    def is_legal_places(self, source: int, destination: int) -> bool:
        """Is the move from place ``source`` to place ``destination`` legal now?"""
        if source == STOCK:
            return destination == DISCARD and self._next < self._n
        if source >= KING_BASE:
            card = self.top_number(source)
            return (
                card != NOWHERE
                and destination == ACE_BASE + self._suit[card]
                and self._accepts(destination, card)
            )
        card = self.top_number(source)
        return card != NOWHERE and self._accepts(destination, card)

    def push_places(self, source: int, destination: int) -> None:
        """Play the move from place ``source`` to place ``destination``, known to be
        legal, and its forced steps (the hot path of autoplay; :meth:`pop` undoes it)."""
        steps = self._steps
        self._marks.append(len(steps))
        self._moves.append((source, destination))
        if source == STOCK:
            # A draw never empties a space, so "settle" reduces to step 1.
            card = self._order[self._next]
            self._next += 1
            self._discard.append(card)
            steps.append((card, STOCK, DISCARD, False))
            if self._is_ace_or_king[card]:
                self._transfer(card, DISCARD, self._foundation_for_forced(card), True)
            return
        if source >= ACE_BASE:  # a King-pile top to its Ace pile
            card = self._kings[source - KING_BASE][-1]
            self._pop_king_pile(source - KING_BASE)
            self._raise_ace_pile(destination - ACE_BASE, 1)
            steps.append((card, source, destination, False))
            return  # no space emptied, no Ace or King can be on the discard top
        if source == DISCARD:
            card = self._discard.pop()
        else:
            card = self._tab[source - TABLEAU_BASE]
            self._tab[source - TABLEAU_BASE] = NOWHERE
        if destination < KING_BASE:
            self._raise_ace_pile(destination - ACE_BASE, 1)
        else:
            self._push_king_pile(destination - KING_BASE, card)
        steps.append((card, source, destination, False))
        if source != DISCARD:
            # Settling after emptying one space: it is the only empty one whenever
            # something can fill it (RULES.md), so fill that space directly.
            self._fill(source)

    # ------------------------------------------------------------ moves, internally

    def _accepts(self, destination: int, card: int) -> bool:
        """May ``card`` be put on foundation ``destination`` now?"""
        if ACE_BASE <= destination < KING_BASE:
            return self._ace_next[destination - ACE_BASE] == card and (
                self._suit[card] == destination - ACE_BASE
            )
        if destination >= KING_BASE:
            pile = self._kings[destination - KING_BASE]
            return bool(pile) and pile[-1] in self._fits_on[card]
        return False

    def _legal(self) -> list[tuple[int, int]]:
        """Every legal move, in the canonical order of docs/RULES.md."""
        moves: list[tuple[int, int]] = []
        if self._next < self._n:
            moves.append((STOCK, DISCARD))
        for index, card in enumerate(self._tab):
            if card != NOWHERE:
                moves.extend((TABLEAU_BASE + index, d) for d in self.destinations_of(card))
        if self._discard:
            moves.extend((DISCARD, d) for d in self.destinations_of(self._discard[-1]))
        for pile, cards in enumerate(self._kings):
            if cards:
                suit = self._suit[cards[-1]]
                if self._ace_next[suit] == cards[-1]:
                    moves.append((KING_BASE + pile, ACE_BASE + suit))
        return moves

    def _fill(self, space: int) -> None:
        """Steps 3-5 of "settle" for the one empty space ``space`` (a Place value)."""
        discard = self._discard
        steps = self._steps
        tab = self._tab
        slot = space - TABLEAU_BASE
        if discard:
            card = discard.pop()
            tab[slot] = card
            steps.append((card, DISCARD, space, True))
            return  # a discard card is never an Ace or a King
        order = self._order
        while self._next < self._n:
            card = order[self._next]
            self._next += 1
            tab[slot] = card
            steps.append((card, STOCK, space, True))
            if not self._is_ace_or_king[card]:
                return
            tab[slot] = NOWHERE
            destination = self._foundation_for_forced(card)
            if destination < KING_BASE:
                self._raise_ace_pile(destination - ACE_BASE, 1)
            else:
                self._push_king_pile(destination - KING_BASE, card)
            steps.append((card, space, destination, True))

    # ---------------------------------------------------------------------- public API

    def legal_moves(self) -> list[Move]:
        """Every legal move: draw, tableau, discard, then King-pile tops (RULES.md)."""
        return [Move(Place(s), Place(d)) for s, d in self._legal()]

    def is_legal(self, move: Move) -> bool:
        return self.is_legal_places(int(move.source), int(move.destination))

    def is_playable(self, card: Card) -> bool:
        """Does some foundation (Ace pile or King pile) take ``card`` now?"""
        return self._playable[card.number] > 0

    def card_to_move(self, move: Move) -> Card:
        """The card that ``move`` would take (IllegalMoveError if it is not legal)."""
        if not self.is_legal(move):
            raise IllegalMoveError(f"move {move} is not legal here")
        return self._cards[self.top_number(int(move.source))]

    def push(self, move: Move) -> tuple[Step, ...]:
        """Play ``move`` and the forced steps that follow; return all those steps."""
        if not self.is_legal(move):
            raise IllegalMoveError(f"move {move} is not legal here")
        start = len(self._steps)
        self.push_places(int(move.source), int(move.destination))
        return self._public_steps(self._steps[start:])

    def pop(self) -> Move:
        """Undo the last move and its forced steps; return the move."""
        if not self._marks:
            raise IllegalMoveError("no move to undo")
        mark = self._marks.pop()
        while len(self._steps) > mark:
            card, source, destination, _forced = self._steps.pop()
            self._untransfer(card, source, destination)
        source, destination = self._moves.pop()
        return Move(Place(source), Place(destination))

    @property
    def move_stack(self) -> tuple[Move, ...]:
        return tuple(Move(Place(s), Place(d)) for s, d in self._moves)

    @property
    def move_count(self) -> int:
        """``len(move_stack)`` without building the moves (screens show it every step)."""
        return len(self._moves)

    def opening_steps(self) -> tuple[Step, ...]:
        """The forced steps of the deal itself (filling the tableau)."""
        return self._public_steps(self._steps[: self._opening])

    def steps(self) -> tuple[Step, ...]:
        """Every step since the deal, opening included, in order."""
        return self._public_steps(self._steps)

    def _public_steps(self, raw: Iterable[tuple[int, int, int, bool]]) -> tuple[Step, ...]:
        return tuple(
            Step(self._cards[card], Place(source), Place(destination), forced)
            for card, source, destination, forced in raw
        )

    def foundation_count(self) -> int:
        """Cards on Ace and King piles (the number a transcript's result line gives)."""
        return self._on_foundations

    def is_won(self) -> bool:
        """Won when every card is on a foundation (RULES.md: the rest is then automatic)."""
        return self._on_foundations == self._n

    def is_over(self) -> bool:
        """Over when won, or when no legal move is left (then it is lost)."""
        if self._on_foundations == self._n:
            return True
        return not self._legal()

    def tableau(self) -> tuple[Card | None, ...]:
        return tuple(None if c == NOWHERE else self._cards[c] for c in self._tab)

    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the last card is the playable top)."""
        return tuple(self._cards[c] for c in self._discard)

    def stock_count(self) -> int:
        return self._n - self._next

    def ace_piles(self) -> tuple[tuple[Card, ...], ...]:
        """Each Ace pile (S, H, C, D), bottom first."""
        return tuple(
            tuple(self._cards[n] for n in range(s * self._r, self._ace_next[s])) for s in range(4)
        )

    def king_piles(self) -> tuple[tuple[Card, ...], ...]:
        """Each King pile (headed by the King of S, H, C, D), bottom first."""
        return tuple(tuple(self._cards[c] for c in pile) for pile in self._kings)

    def turn_over_discard(self) -> None:
        """The house rule "one redeal" (docs/RULES.md; not part of either game): once the
        stock is used up, the discard pile, turned face down, becomes the stock again.

        Turning the pile over puts its bottom card (the first one discarded) on top, so
        the cards come again in the order they were first drawn. Forced steps follow as
        after any move. The redeal is not a move and cannot be undone, so the history
        (move stack, steps) starts afresh; ``order`` still gives the original deal.
        Whether a game may redeal, and how often, is the caller's rule.
        """
        if self._next < self._n:
            raise IllegalMoveError("the stock is not used up: no redeal yet")
        pile = self._discard
        # Only _order[_next:] is ever read: the cards already gone are not needed.
        self._order = [NOWHERE] * (self._n - len(pile)) + pile
        self._next = self._n - len(pile)
        self._discard = []
        self._steps = []
        self._marks = []
        self._moves = []
        self._opening = 0
        self.settle()

    def key(self) -> tuple[object, ...]:
        """A hashable summary of the table (not of the history): equal keys, equal futures."""
        return (
            self._next,
            tuple(self._tab),
            tuple(self._ace_next),
            tuple(tuple(pile) for pile in self._kings),
            tuple(self._discard),
        )

    def copy(self, history: bool = True) -> Position:
        """An independent copy of the table, with its history (to pop and to write a
        transcript) or, faster for a solver, without (it then starts a new history)."""
        clone = Position.__new__(Position)
        clone.__dict__.update(self.__dict__)
        clone._discard = list(self._discard)
        clone._tab = list(self._tab)
        clone._ace_next = list(self._ace_next)
        clone._kings = [list(pile) for pile in self._kings]
        clone._pile_of_top = list(self._pile_of_top)
        clone._playable = list(self._playable)
        if history:
            clone._steps = list(self._steps)
            clone._marks = list(self._marks)
            clone._moves = list(self._moves)
        else:
            clone._steps = []
            clone._marks = []
            clone._moves = []
            clone._opening = 0
        return clone

    def __str__(self) -> str:
        def codes(cards: Iterable[Card | None]) -> str:
            return " ".join("--" if c is None else c.code for c in cards)

        aces = " ".join(p[-1].code if p else "--" for p in self.ace_piles())
        kings = " ".join(p[-1].code if p else "--" for p in self.king_piles())
        top = self.discard()[-1].code if self._discard else "--"
        return (
            f"A: {aces} | T: {codes(self.tableau())} | K: {kings} | "
            f"W: {top} ({len(self._discard)}) | S: {self.stock_count()}"
        )
