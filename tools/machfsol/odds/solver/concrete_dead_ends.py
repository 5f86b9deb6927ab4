"""MAChFsol 2's dead-end tests: states proved lost by counting cards that must wait.

For each card not on a foundation the test works out how deep the discard pile must be
dug before it can go to its Ace pile, and before it can go on a King pile (one of its
two hosts must be dug out and get onto a King pile itself, up the chain of hosts to
the Kings; a covered host must first lose the cards above it to their Ace piles; a
host on its Ace pile never takes a card again). A card lying above the shallower of
the two must wait in the tableau while the pile is dug down to there;
:mod:`~machfsol.odds.solver.stuck_cards` counts those cards level by level against the
spaces. Two refinements sharpen the count (each a switch in
:class:`~machfsol.odds.solver.reductions.Reductions`): the *twins*, two cards that
compete for the same two hosts, and the *stock order*, which follows the stock card by
card instead of taking it to be available at once. Each only ever proves losses;
docs/notes/odds-solver.md ("Dead-end proofs", "Twins in the dead-end test", "Stock order in the
dead-end test") gives the arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.odds.solver.concrete_state import CardFacts
from machfsol.odds.solver.stuck_cards import NEVER, from_level, stuck_counts, too_many_stuck

NO_BLOCK = NEVER  # a card that no pile level blocks
FOR_EVER = -1  # a host that can never take a card again (it is on its Ace pile)


class DeadEnds:
    """The dead-end tests of one deal's concrete search (the tests put a subclass in its
    place, ``search.dead_ends``, to watch them).

    The tests read a state as :mod:`~machfsol.odds.solver.concrete_state` keeps it. The
    scratch arrays, one entry per card, are set for one state and reset after it.
    """

    def __init__(self, order: Sequence[int], facts: CardFacts, slots: int, *, twins: bool) -> None:
        self.order = list(order)
        self.n = n = len(order)
        self.r = facts.ranks
        self.slots = slots
        self.twins = twins
        self.rank = facts.rank
        self.is_king = facts.is_king
        self.kings = facts.kings
        self.downwards = facts.downwards
        self.host_pairs = facts.host_pairs
        self.twin_pairs = facts.twin_pairs
        self.ace_cards = facts.ace_cards
        self._level = [NO_BLOCK] * n
        self._ace_block = [NO_BLOCK] * n
        self._king_block = [NO_BLOCK] * n
        self._host_block = [NO_BLOCK] * n
        self._hold = [NO_BLOCK] * n
        self._out = [-1] * n

    def is_dead_end(
        self, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        """The stuck-cards test: True only for a lost state.

        For each card not on a foundation: ``ace_block``, the deepest pile level
        holding a lower card of its suit that is not on the Ace pile (it cannot go to
        its Ace pile before the pile is dug down to there); ``king_block``, the level
        down to which the pile must be dug before one of its hosts can be a King-pile
        top (a host on the pile must be dug out and must itself get onto a King pile
        first; a covered host must lose the cards above it, which go to their Ace
        piles; a host on an Ace pile never takes a card again). A card is stuck until
        the shallower of the two. :func:`too_many_stuck` counts the cards that must
        wait in the tableau at once. The stock is taken to be available at once.
        """
        spans = self._stuck_spans(0, stack, tab, ace, kings, fmask, None, False)
        return too_many_stuck(len(stack), spans, self.slots)

    def is_stock_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        """The stock-order test: True only for a lost state.

        The dead-end test above takes a card still in the stock to be available at
        once. Here the stock comes in its order: while the pile is dug from its top
        level down, the number ``m`` of the stock's cards drawn so far can only grow,
        and at each level the cards that must wait in the tableau are counted with the
        stock's first ``m`` cards drawn (available, and waiting in the tableau like a
        tableau card when they are stuck) and the others not yet (:meth:`_stuck_spans`).
        The state is lost when every such schedule meets a level where more cards wait
        than there are spaces. The fewest cards drawn that keep a level within the
        spaces is the best start for the levels below, so one walk down the levels
        decides it.
        """
        top = len(stack)
        if top < 2 or p >= self.n:
            return False
        most = self.n - p
        counts = [
            stuck_counts(top, self._stuck_spans(p, stack, tab, ace, kings, fmask, m, m == most))
            for m in range(most + 1)
        ]
        drawn = 0
        for lv in range(top - 1, -1, -1):
            while counts[drawn][lv] > self.slots:
                drawn += 1
                if drawn > most:
                    return True
        return False

    def _stuck_spans(
        self,
        p: int,
        stack: tuple[int, ...],
        tab: int,
        ace: int,
        kings: tuple[int, ...],
        fmask: int,
        drawn: int | None,
        rest_drawn: bool,
    ) -> list[tuple[int, int]]:
        """The spans of pile levels over which cards must wait in the tableau, for
        :func:`too_many_stuck` (see :meth:`is_dead_end`). ``drawn`` None: the stock is
        available at once and never waits (the dead-end test). Else the stock-order
        test's view of one level (:meth:`is_stock_dead`): the stock's first ``drawn``
        cards are drawn, available from the top level on and waiting in the tableau
        when stuck, like tableau cards; the others are held back (not available before
        the pile is gone), except that with ``rest_drawn`` they are drawn too but not
        counted as waiting. Only comparisons of these levels with the level counted
        matter, so "drawn" is the top level and "held back" is -1.
        """
        top = len(stack)
        ranks = self.r
        level = self._level
        ace_block = self._ace_block
        king_block = self._king_block
        host_block = self._host_block
        hold = self._hold
        out = self._out
        for depth, card in enumerate(stack):
            level[card] = depth
            hold[card] = depth
        for king in self.kings:
            host_block[king] = NO_BLOCK  # in the stock, or on its pile (set below)
        stock = 0
        if drawn is not None:
            order, is_king = self.order, self.is_king
            for q in range(p, self.n):
                card = order[q]
                here = top if q - p < drawn or rest_drawn else -1
                stock |= 1 << card
                level[card] = hold[card] = here
                out[card] = top - 1 if q - p < drawn else -1
                if is_king[card]:
                    host_block[card] = here
        # A card below others on a King pile holds its suit's Ace pile back until they
        # have gone to their own Ace piles: repeat until no such hold grows deeper.
        changed = True
        while changed:
            for suit in range(4):
                base = suit * ranks
                deepest = NO_BLOCK
                for card in range(base + ((ace >> (4 * suit)) & 15), base + ranks):
                    ace_block[card] = deepest
                    here = hold[card]
                    if here < deepest:
                        deepest = here
            changed = False
            for pile in kings:
                above = NO_BLOCK  # the top of a pile is free to take a card
                while pile:
                    card = (pile & 63) - 1
                    host_block[card] = above
                    if above < hold[card]:
                        hold[card] = above
                        changed = True
                    here = ace_block[card]
                    if here < above:
                        above = here
                    pile >>= 6
        on_ace = 0
        for suit in range(4):
            on_ace |= self.ace_cards[suit][(ace >> (4 * suit)) & 15]
        host_pairs = self.host_pairs
        for card in self.downwards:
            if (fmask >> card) & 1:
                if (on_ace >> card) & 1:
                    host_block[card] = FOR_EVER
                continue
            one, other = host_pairs[card]
            block = host_block[one]
            if host_block[other] > block:
                block = host_block[other]
            king_block[card] = block
            here = level[card]
            host_block[card] = here if here < block else block
        twins = self.twins
        if twins:
            # Twin hosts compete for their own two hosts (docs/notes/odds-solver.md): both can
            # be on King piles at once only when both their hosts are, and both are
            # out of the pile. The pair's later level drops to that; higher ranks first.
            for card, twin, one, other in self.twin_pairs:
                if (fmask >> card) & 1 or (fmask >> twin) & 1:
                    continue
                both = host_block[one]
                if host_block[other] < both:
                    both = host_block[other]
                if level[card] < both:
                    both = level[card]
                if level[twin] < both:
                    both = level[twin]
                if host_block[card] < host_block[twin]:
                    host_block[card] = both
                else:
                    host_block[twin] = both
        spans: list[tuple[int, int]] = []
        for depth, card in enumerate(stack):
            free = ace_block[card]
            if king_block[card] > free:
                free = king_block[card]
            if free < depth:
                # Also at its own level: when it is the top, it must go into the
                # tableau while the others still wait there.
                spans.append((from_level(free), depth + 1))
        rest = tab
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            free = ace_block[card]
            if king_block[card] > free:
                free = king_block[card]
            if free < top:
                spans.append((from_level(free), top))
        if twins:
            # Twins out of the pile that neither Ace pile takes yet, while only one of
            # their two hosts can be a King-pile top: one of them waits in the tableau,
            # one card more than the spans above count there.
            for card, twin, one, other in self.twin_pairs:
                if (fmask >> card) & 1 or (fmask >> twin) & 1:
                    continue
                if (stock >> card) & 1:
                    here = out[card]
                else:
                    here = out_of_pile_until(level[card], (tab >> card) & 1, top)
                if (stock >> twin) & 1:
                    there = out[twin]
                else:
                    there = out_of_pile_until(level[twin], (tab >> twin) & 1, top)
                low, high = host_block[one], host_block[other]
                if high < low:
                    low, high = high, low
                high -= 1
                low = max(low, ace_block[card], ace_block[twin], 0)
                high = min(high, here, there)
                if low <= high:
                    spans.append((low, high + 1))
        if drawn is not None:
            # A drawn stock card must leave the pile before the level below it: it
            # waits in the tableau like a tableau card (an Ace or a King goes to its
            # pile when drawn).
            for q in range(p, min(p + drawn, self.n)):
                card = self.order[q]
                if self.rank[card] == 0 or self.is_king[card]:
                    continue
                free = ace_block[card]
                if king_block[card] > free:
                    free = king_block[card]
                if free < top:
                    spans.append((from_level(free), top))
        self._forget(stack, kings, p if drawn is not None else self.n)
        return spans

    def _forget(self, stack: tuple[int, ...], kings: tuple[int, ...], p: int) -> None:
        """Reset the scratch entries :meth:`_stuck_spans` set for this state (the stock
        from ``p`` on included)."""
        level = self._level
        hold = self._hold
        for card in stack:
            level[card] = NO_BLOCK
            hold[card] = NO_BLOCK
        for pile in kings:
            while pile:
                hold[(pile & 63) - 1] = NO_BLOCK
                pile >>= 6
        for q in range(p, self.n):
            card = self.order[q]
            level[card] = NO_BLOCK
            hold[card] = NO_BLOCK


def out_of_pile_until(level: int, in_tableau: int, top: int) -> int:
    """The highest pile level at which a card is out of the pile (its own level, where
    the dead-end test counts it as needing a space; just below the top for a tableau
    card); -1 for a card in the stock."""
    if level < NO_BLOCK:
        return level
    return top - 1 if in_tableau else -1
