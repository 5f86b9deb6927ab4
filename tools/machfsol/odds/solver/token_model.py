"""MAChFsol 1's search: the token model, far smaller than the table move by move.

In variant 1 (King piles by suit) a card that can go to a foundation can go there for
ever after (its place is waiting for exactly that card). A tableau card that can be
played, or that could be once other such tableau cards are played, is a *token*:
playing it at any later time opens its space, and the space takes the discard top at
once. Which token pays for a rescue does not matter, only how many there are. So a
state keeps ``P`` (cards on a foundation *or* tokens), ``W`` (tableau cards that are not
tokens: waiting) and the stock position; the number of tokens is the spaces less
``|W|``, and the discard pile is implied (the drawn cards that are nowhere else).

* A discard top whose neighbour in its suit is in ``P`` is *absorbed* at once (played,
  or pulled by a token and becoming a token itself: the same state), and a waiting card
  whose neighbour joins ``P`` becomes a token. Both only add to ``P``, which never hurts.
* That leaves two choices: *pull* the discard top into the tableau with a token (``P``
  in the line), or *draw* (``D``). Pulling is not offered when the next card drawn
  would be absorbed anyway (pull after it instead, with more known) nor when the pile
  is empty (a space opened then takes the stock card: the same as drawing first). With
  the stock used up, pulling while tokens last is the only line.
* The dead-end test (:mod:`~machfsol.odds.solver.stuck_cards`) cuts lost branches
  early: about fifteen times fewer states on 52-card deals.

:mod:`~machfsol.odds.solver.realize` turns a winning line back into the engine's moves.
docs/notes/odds-solver.md, "How MAChFsol 1 is searched", is the short account.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.odds.solver.solution import LimitReached
from machfsol.odds.solver.stuck_cards import NEVER, too_many_stuck


class TokenSearch:
    """The variant-1 token model (module docstring); ``line`` holds 'P' and 'D' steps.

    Foundations plus tokens are packed in one int ``f``: 4 bits per suit for the height
    of the Ace side (cards Ace..h-1 are in), then 4 bits per suit for the lowest rank of
    the King side (R: no King yet). Cards are numbered as in the engine.
    """

    def __init__(self, order: Sequence[int], ranks: int, slots: int, limit: int) -> None:
        self.order = list(order)
        self.n = len(order)
        self.r = ranks
        self.slots = slots
        self.limit = limit
        self.nodes = 0
        self.seen: set[tuple[int, int, int]] = set()
        self.line: list[str] = []
        # Scratch arrays of :meth:`_dead_end`, one entry per card: its pile level
        # (NEVER when it is not on the pile or waiting) and its Ace-side blocker.
        self._level = [NEVER] * self.n
        self._ace_block = [NEVER] * self.n

    def _absorb(self, f: int, card: int) -> int:
        """``f`` with ``card`` added if it extends a foundation side, else -1."""
        suit, rank = divmod(card, self.r)
        if (f >> (4 * suit)) & 15 == rank:
            return f + (1 << (4 * suit))
        if (f >> (16 + 4 * suit)) & 15 == rank + 1:
            return f - (1 << (16 + 4 * suit))
        return -1

    def _forced(self, f: int, card: int) -> int:
        """``f`` after an Ace or King goes to its pile, or -1 for another card."""
        suit, rank = divmod(card, self.r)
        if rank == 0:
            return f + (1 << (4 * suit))
        if rank == self.r - 1:
            return f - (1 << (16 + 4 * suit))
        return -1

    def _settle(
        self, stack: tuple[int, ...], waiting: int, f: int, placed: int
    ) -> tuple[tuple[int, ...], int, int, int]:
        """Absorb waiting cards and discard tops that now extend ``P``."""
        changed = True
        while changed:
            changed = False
            rest = waiting
            while rest:
                low = rest & -rest
                rest ^= low
                g = self._absorb(f, low.bit_length() - 1)
                if g >= 0:
                    f, waiting, placed, changed = g, waiting ^ low, placed + 1, True
            while stack:
                g = self._absorb(f, stack[-1])
                if g < 0:
                    break
                f, stack, placed, changed = g, stack[:-1], placed + 1, True
        return stack, waiting, f, placed

    def start(self) -> tuple[int, tuple[int, ...], int, int, int]:
        f = 0
        for suit in range(4):
            f |= self.r << (16 + 4 * suit)
        p = waiting = placed = dealt = 0
        while dealt < self.slots and p < self.n:
            card = self.order[p]
            p += 1
            g = self._forced(f, card)
            if g >= 0:
                f, placed = g, placed + 1
            else:
                waiting |= 1 << card
                dealt += 1
        stack, waiting, f, placed = self._settle((), waiting, f, placed)
        return p, stack, waiting, f, placed

    def solve(self) -> bool | None:
        try:
            return self._dfs(*self.start())
        except LimitReached:
            return None

    def _dead_end(self, stack: tuple[int, ...], waiting: int, f: int) -> bool:
        """Apply :func:`too_many_stuck`: a card's Ace side is blocked from the deepest
        missing lower card of its suit on the pile, its King side likewise from the
        deepest missing higher card; the card is stuck below the higher of the two.

        Every card on the pile or waiting has a rank between its suit's Ace side and
        King side (the others are in ``P``), so one pass up and one pass down each suit's
        missing ranks, keeping the deepest pile level seen so far, gives both blockers
        of every card (a running minimum instead of one scan per card: this test is
        most of the variant-1 search's time).
        """
        top = len(stack)
        if top < 2:
            return False
        ranks = self.r
        level = self._level
        for depth, card in enumerate(stack):
            level[card] = depth
        rest = waiting
        while rest:
            low = rest & -rest
            rest ^= low
            level[low.bit_length() - 1] = top  # in the tableau: "above" the whole pile
        spans: list[tuple[int, int]] = []
        ace_block = self._ace_block
        for suit in range(4):
            base = suit * ranks
            first = base + ((f >> (4 * suit)) & 15)  # lowest card not on the Ace side
            end = base + ((f >> (16 + 4 * suit)) & 15)  # lowest card on the King side
            deepest = NEVER
            for card in range(first, end):
                ace_block[card] = deepest
                here = level[card]
                if here < deepest:
                    deepest = here
            deepest = NEVER
            for card in range(end - 1, first - 1, -1):
                here = level[card]
                if here != NEVER:
                    ace_side = ace_block[card]
                    # Only pile levels block: a tableau card (level top) does not.
                    if ace_side < top and deepest < top:
                        stuck_from = ace_side if ace_side > deepest else deepest
                        if stuck_from < here:
                            spans.append((stuck_from, here))
                if here < deepest:
                    deepest = here
        for card in stack:
            level[card] = NEVER
        rest = waiting
        while rest:
            low = rest & -rest
            rest ^= low
            level[low.bit_length() - 1] = NEVER
        return too_many_stuck(top, spans, self.slots)

    def _dfs(self, p: int, stack: tuple[int, ...], waiting: int, f: int, placed: int) -> bool:
        n = self.n
        if placed == n:
            return True
        key = (p, waiting, f)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.nodes += 1
        if self.nodes > self.limit:
            raise LimitReached
        if self._dead_end(stack, waiting, f):
            return False
        line = self.line
        # The tableau is full whenever a pull is possible: tokens = spaces - waiting.
        tokens = self.slots - waiting.bit_count()
        if p == n:
            mark = len(line)
            while tokens > 0 and stack:
                line.append("P")
                stack, waiting, f, placed = self._settle(
                    stack[:-1], waiting | (1 << stack[-1]), f, placed
                )
                tokens = self.slots - waiting.bit_count()
            if placed == n:
                return True
            del line[mark:]
            return False
        card = self.order[p]
        if tokens > 0 and stack and self._forced(f, card) < 0 and self._absorb(f, card) < 0:
            line.append("P")
            s2, w2, f2, n2 = self._settle(stack[:-1], waiting | (1 << stack[-1]), f, placed)
            if self._dfs(p, s2, w2, f2, n2):
                return True
            line.pop()
        line.append("D")
        g = self._forced(f, card)
        if g >= 0:
            s2, w2, f2, n2 = self._settle(stack, waiting, g, placed + 1)
        else:
            s2, w2, f2, n2 = self._settle(stack + (card,), waiting, f, placed)
        if self._dfs(p + 1, s2, w2, f2, n2):
            return True
        line.pop()
        return False
