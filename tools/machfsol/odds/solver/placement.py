"""MAChFsol 2's placement test: states proved lost by counting room on the foundations.

The pile's cards leave it from the top, so for each level of the pile the moment comes
when it holds only the cards below that level; every card out by then (the tableau's,
the pile's from that level up, the stock's cards drawn by then) is on a foundation or
in the tableau. The test bounds what the foundations can hold at that moment (on each
Ace pile a run up its suit, on each King pile a chain down from its top, two piles of a
colour sharing their cards): when even the best leaves more cards out than there are
spaces, the moment cannot come, and when no schedule of stock draws lets every level
come, the state is lost. It is a relaxation, so it only proves losses; docs/notes/odds-solver.md,
"Placement", gives the argument.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from machfsol.odds.solver.concrete_state import CardFacts, cards_mask, pile_cards


class Placement:
    """The placement test of one deal's concrete search (the tests put a subclass in
    its place to watch it)."""

    def __init__(self, order: Sequence[int], facts: CardFacts, slots: int) -> None:
        self.order = list(order)
        self.n = len(order)
        self.r = facts.ranks
        self.slots = slots
        self.rank = facts.rank
        self.sits = facts.sits
        self.partner = facts.partner
        self.ace_cards = facts.ace_cards

    def is_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...]
    ) -> bool:
        """The placement test: True only for a lost state.

        Going down the pile's levels, the moment each level is reached must leave at
        most ``slots`` out cards in the tableau; the stock's cards drawn by then can
        only grow from level to level, so the fewest drawn that fit are kept (as in the
        stock-order test). A King drawn heads its own pile; an Ace drawn goes to its
        Ace pile.
        """
        n, ranks = self.n, self.r
        piles = [pile_cards(pile) for pile in kings]
        low = [(ace >> (4 * suit)) & 15 for suit in range(4)]
        gone = 0  # on the pile below the level, or still in the stock
        for card in stack:
            gone |= 1 << card
        for q in range(p, n):
            gone |= 1 << self.order[q]
        out = tab
        drawn = 0
        for level in range(len(stack) - 1, -1, -1):
            gone &= ~(1 << stack[level])
            out |= 1 << stack[level]
            while not self._fits(out, gone, low, piles):
                if drawn == n - p:
                    return True
                card = self.order[p + drawn]
                drawn += 1
                gone &= ~(1 << card)
                suit, rank = divmod(card, ranks)
                if rank == 0:
                    low[suit] = 1
                elif rank == ranks - 1:
                    piles[suit] = [card]
                else:
                    out |= 1 << card
        return False

    def _fits(self, out: int, gone: int, low: list[int], piles: list[list[int]]) -> bool:
        """Can the foundations hold all but ``slots`` of the ``out`` cards at once?

        Each Ace pile rises from ``low`` through cards that are not ``gone``; a
        King-pile card it takes must have only such cards above it (they leave for
        their Ace piles first; a King never does, it holds the pile). What is left of
        each King pile takes a chain of out cards not on an Ace pile, down from its top
        (:func:`chains_best`). Every choice of heights is tried, up to the highest
        that can be at once.
        """
        ranks = self.r
        need = out.bit_count() - self.slots
        if need <= 0:
            return True
        high = []
        for suit in range(4):
            height = low[suit]
            while height < ranks - 1 and not (gone >> (suit * ranks + height)) & 1:
                height += 1
            high.append(height)
        # The highest heights that can be: a run that would take a King-pile card held
        # down by a card above it that no run takes stops below it.
        changed = True
        while changed:
            changed = False
            on_ace = self._runs(low, high)
            for pile in piles:
                for card in pile[: kept(pile, on_ace)]:
                    if (on_ace >> card) & 1:
                        high[card // ranks] = min(high[card // ranks], card % ranks)
                        changed = True
        ranges = [range(low[suit], high[suit] + 1) for suit in range(4)]
        for heights in itertools.product(*ranges):
            on_ace = self._runs(low, heights)
            left = [pile[: kept(pile, on_ace)] for pile in piles]
            if any(cards_mask(cards) & on_ace for cards in left):
                continue
            tops = [self.rank[cards[-1]] if cards else -1 for cards in left]
            avail = out & ~on_ace
            placed = (out & on_ace).bit_count()
            for i in range(4):
                other = self.partner[i]
                if other is not None and other < i:
                    continue
                count = [(avail & self.sits[i][rank]).bit_count() for rank in range(ranks)]
                placed += chains_best(count, tops[i], -1 if other is None else tops[other])
            if placed >= need:
                return True
        return False

    def _runs(self, low: Sequence[int], high: Sequence[int]) -> int:
        """The cards the Ace piles take in rising from heights ``low`` to ``high``."""
        cards = self.ace_cards
        return sum(cards[suit][high[suit]] ^ cards[suit][low[suit]] for suit in range(4))


def kept(pile: list[int], on_ace: int) -> int:
    """How many of a King pile's cards stay when those in ``on_ace`` go to their Ace
    piles from the top down (the King always stays)."""
    kept = len(pile)
    while kept > 1 and (on_ace >> pile[kept - 1]) & 1:
        kept -= 1
    return kept


def chain_run(count: Sequence[int], rank: int, need: int) -> int:
    """Ranks ``rank``, ``rank`` - 1, ... down to the twos with ``need`` cards or more."""
    length = 0
    while rank >= 1 and count[rank] >= need:
        length += 1
        rank -= 1
    return length


def chains_best(count: Sequence[int], one: int, other: int) -> int:
    """The most cards chains down from two King-pile tops of ranks ``one`` and ``other``
    (-1: no such pile) can take, ``count[rank]`` cards of each rank being there for
    them (a chain takes one card per rank, of the kind its pile takes there; two piles
    of one colour take the same kinds). The higher chain goes alone down to the other's
    top; below it both go on while a rank has two cards, then one while it has one.
    Each is as long as it can be, so this is the most."""
    high, low = max(one, other), min(one, other)
    if high < 0:
        return 0
    if low < 0:
        return chain_run(count, high - 1, 1)
    alone = 0
    rank = high - 1
    while rank >= low and rank >= 1:
        if count[rank] < 1:
            return alone + chain_run(count, low - 1, 1)
        alone += 1
        rank -= 1
    both = chain_run(count, rank, 2)
    return alone + 2 * both + chain_run(count, rank - both, 1)
