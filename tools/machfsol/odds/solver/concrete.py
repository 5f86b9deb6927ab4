"""MAChFsol 2's search: move by move on the table, with reductions that keep it small.

In variant 2 a card can go on either of two King piles of the other colour or on its
Ace pile, a card put on a King pile covers the one below, and a King-pile top reaches
its Ace pile only when the cards under it are really played: tableau cards are not
interchangeable tokens as in variant 1 (:mod:`~machfsol.odds.solver.token_model`), so
the search is a depth-first walk of the real table's states
(:mod:`~machfsol.odds.solver.concrete_state` says how a state is held). With no
reduction at all it is the *plain* search, also used for variant 1 as an independent
check; the reductions (:mod:`~machfsol.odds.solver.reductions`) each cut the walk
without losing a win: some by moves that are made at once or never tried, some by the
dead-end tests (:mod:`~machfsol.odds.solver.concrete_dead_ends`,
:mod:`~machfsol.odds.solver.placement`) that prove a state lost, some by the key of the
table of states already proved lost. docs/notes/odds-solver.md, "How MAChFsol 2 is searched, and why
each reduction is sound", gives each one's argument.

``_concrete.c`` is the same search, state for state (:mod:`~machfsol.odds.solver.compiled`):
a change here is a change there too, and the tests hold the two to the same node
counts and lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.engine.cards import TABLEAU_SIZES, Card
from machfsol.engine.rules import DISCARD, KING_BASE, Variant
from machfsol.odds.solver.concrete_dead_ends import DeadEnds
from machfsol.odds.solver.concrete_state import BELOW_KING, card_facts, same_above_king
from machfsol.odds.solver.placement import Placement
from machfsol.odds.solver.reductions import (
    ALL_REDUCTIONS,
    FIRST_ROUND,
    STOCK_ORDER_AFTER,
    Reductions,
)
from machfsol.odds.solver.solution import LimitReached


class ConcreteSearch:
    """Move-by-move search of one deal; after :meth:`solve`, ``line`` holds the winning
    line as ``(card, place)`` steps and ``nodes`` the states searched."""

    def __init__(
        self,
        order: Sequence[Card],
        game: Variant,
        limit: int,
        reductions: Reductions = ALL_REDUCTIONS,
        stock_order_after: int = STOCK_ORDER_AFTER,
    ) -> None:
        deck = order[0]
        self.cards = tuple(order)
        self.game = game
        self.order = [card.number for card in order]
        self.n = len(order)
        self.r = deck.rank_count
        self.slots = TABLEAU_SIZES[deck.deck_size]
        self.limit = limit
        self.bound = limit  # the node count at which this round stops
        self.draw_early = False  # try the draw before the other moves
        self.reductions = reductions
        self.stock_order_after = stock_order_after
        self.nodes = 0
        self.seen: set[tuple[int, ...]] = set()
        self.line: list[tuple[int, int]] = []
        facts = card_facts(self.n, game)
        self.fits_mask = facts.fits_mask
        self.host_mask = facts.host_mask
        self.takes_mask = facts.takes_mask
        self.ace_shift = facts.ace_shift
        self.ace_place = facts.ace_place
        self.rank = facts.rank
        self.is_king = facts.is_king
        self._ace_next_of: dict[int, int] = {}
        #: The tests that prove states lost (the tests of the tests put watchers here).
        self.dead_ends = DeadEnds(self.order, facts, self.slots, twins=reductions.twins)
        self.placement = Placement(self.order, facts, self.slots)

    def _ace_next(self, ace: int) -> int:
        """The cards the Ace piles ``ace`` take next, as a bit mask (memoized: a search
        meets few distinct Ace-pile heights, and this is asked at every state)."""
        found = self._ace_next_of.get(ace)
        if found is None:
            found = 0
            for suit in range(4):
                height = (ace >> (4 * suit)) & 15
                if height < self.r:
                    found |= 1 << (suit * self.r + height)
            self._ace_next_of[ace] = found
        return found

    def _forced(
        self, card: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> tuple[int, tuple[int, ...], int] | None:
        suit, rank = divmod(card, self.r)
        if rank == 0:
            return ace + (1 << (4 * suit)), kings, fmask | (1 << card)
        if rank == self.r - 1:
            piles = list(kings)
            piles[suit] = card + 1
            return ace, tuple(piles), fmask | (1 << card)
        return None

    def _fill(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> tuple[int, tuple[int, ...], int, int, tuple[int, ...], int]:
        """Fill one opened space: from the discard top, else from the stock."""
        if stack:
            return p, stack[:-1], tab | (1 << stack[-1]), ace, kings, fmask
        while p < self.n:
            card = self.order[p]
            p += 1
            forced = self._forced(card, ace, kings, fmask)
            if forced is None:
                return p, stack, tab | (1 << card), ace, kings, fmask
            ace, kings, fmask = forced
        return p, stack, tab, ace, kings, fmask

    def start(self) -> tuple[int, tuple[int, ...], int, int, tuple[int, ...], int]:
        p = tab = ace = fmask = 0
        kings: tuple[int, ...] = (0, 0, 0, 0)
        for _ in range(self.slots):
            p, _stack, tab, ace, kings, fmask = self._fill(p, (), tab, ace, kings, fmask)
        return p, (), tab, ace, kings, fmask

    def solve(self) -> bool | None:
        """True (won: ``line`` holds the moves), False (lost) or None (node limit).

        With the ``iterative`` reduction, the search runs in rounds with growing bounds
        on the states searched (``FIRST_ROUND``, doubling), alternating the order in
        which moves are tried: the draw last, then the draw first. Wins are often found
        early in one order and late in the other (the draw last first: most wins come
        quickly that way). The states proved lost are kept from
        round to round (a state is recorded only when all its moves have failed), so a
        round cut short loses only its unfinished states, and a LOST is still a full
        proof. Without it: one round, the draw last.
        """
        start = self.start()
        rounds = self.reductions.iterative
        bound = FIRST_ROUND
        self.draw_early = False
        while True:
            self.bound = min(self.limit, self.nodes + bound) if rounds else self.limit
            self.line.clear()
            try:
                return self.wins_from(*start)
            except LimitReached:
                if self.nodes >= self.limit:
                    return None
            bound *= 2
            self.draw_early = not self.draw_early

    def _key(self, p: int, tab: int, ace: int, kings: tuple[int, ...]) -> tuple[int, ...]:
        """The state's key: the discard pile is implied (it holds the drawn cards that
        are nowhere else, in the order drawn). With the symmetry reduction, the cards
        above the King of two King piles of one colour are a set, not a pair: which King
        is under them changes nothing while Kings stay.
        """
        if not self.reductions.symmetry:
            return (p, tab, ace, *kings)
        # The King is the highest 6-bit field; a pile of the King alone strips to 0,
        # like a King not out yet: the stock position tells them apart.
        s, h, c, d = (pile & BELOW_KING[pile.bit_length()] for pile in kings)
        return (p, tab, ace, *((s, c) if s <= c else (c, s)), *((h, d) if h <= d else (d, h)))

    def wins_from(
        self,
        p: int,
        stack: tuple[int, ...],
        tab: int,
        ace: int,
        kings: tuple[int, ...],
        fmask: int,
    ) -> bool:
        """Does some line from this state win? (Then ``line`` holds it, after the steps
        that led here.) Depth first; LimitReached at the round's bound.

        Moves are tried in this order: discard top, tableau cards by number, each to its
        Ace pile then King piles S, H, C, D; King-pile tops to Ace piles; then the draw
        (first instead, in the rounds that try it first).
        """
        n, line = self.n, self.line
        full = (1 << n) - 1
        if fmask == full:
            return True
        mark = len(line)
        ace_shift, ace_place = self.ace_shift, self.ace_place
        host_mask = self.host_mask
        reductions = self.reductions
        ace_next = self._ace_next(ace)
        # Safe moves, made without branching (docs/notes/odds-solver.md): with one card left in
        # the stock, that card when it is safe (last draw); a King-pile top that its Ace
        # pile takes and that can never take a card goes there; with the stock used up
        # (endgame), so does such a discard top or tableau card. In that order, then the
        # lowest such card (the compiled search does the same).
        endgame = reductions.endgame and p == n
        while reductions.safe_moves or endgame or reductions.last_draw and p == n - 1:
            moved = False
            if reductions.last_draw and p == n - 1:
                # The stock's last card, when its Ace pile takes it and it can never host
                # (and it is no King), is drawn and played before any other move, like a
                # safe move (docs/notes/odds-solver.md, "Last draw").
                card = self.order[p]
                if (
                    (ace_next >> card) & 1
                    and host_mask[card] & fmask == host_mask[card]
                    and not self.is_king[card]
                ):
                    line.append((-1, DISCARD))
                    if self.rank[card]:  # an Ace drawn goes to its pile by itself
                        line.append((card, ace_place[card]))
                    ace += 1 << ace_shift[card]
                    fmask |= 1 << card
                    p = n
                    endgame = reductions.endgame
                    moved = True
            if not moved and reductions.safe_moves:
                for index, pile in enumerate(kings):
                    top = (pile & 63) - 1
                    if pile and (ace_next >> top) & 1 and host_mask[top] & fmask == host_mask[top]:
                        line.append((top, ace_place[top]))
                        piles = list(kings)
                        piles[index] = pile >> 6
                        kings = tuple(piles)
                        ace += 1 << ace_shift[top]
                        moved = True
                        break
            if not moved and endgame:
                candidates = ace_next & (tab | (1 << stack[-1] if stack else 0))
                while candidates:
                    low = candidates & -candidates
                    candidates ^= low
                    card = low.bit_length() - 1
                    if host_mask[card] & fmask != host_mask[card]:
                        continue
                    line.append((card, ace_place[card]))
                    ace += 1 << ace_shift[card]
                    fmask |= low
                    if tab & low:  # its space takes the discard top, if there is one
                        tab ^= low
                        if stack:
                            tab |= 1 << stack[-1]
                            stack = stack[:-1]
                    else:
                        stack = stack[:-1]
                    moved = True
                    break
            if not moved:
                break
            ace_next = self._ace_next(ace)
        if fmask == full:
            return True
        if reductions.window and p >= n - 1 and stack:
            # At most one card left to draw: the key holds the window (tableau and
            # discard top) as one set; which of its cards is the top does not matter
            # (docs/notes/odds-solver.md, "Window key").
            key = self._key(p, tab | 1 << stack[-1], ace, kings)
        else:
            key = self._key(p, tab, ace, kings)
        seen = self.seen
        if key in seen:
            del line[mark:]
            return False
        self.nodes += 1
        if self.nodes > self.bound:
            raise LimitReached
        if reductions.dead_ends and (
            self.dead_ends.is_dead_end(stack, tab, ace, kings, fmask)
            or reductions.stock_order
            and p < n
            and self.nodes > self.stock_order_after
            and self.dead_ends.is_stock_dead(p, stack, tab, ace, kings, fmask)
        ):
            seen.add(key)
            del line[mark:]
            return False
        if (
            reductions.placement
            and stack
            and self.nodes > self.stock_order_after
            and self.placement.is_dead(p, stack, tab, ace, kings)
        ):
            seen.add(key)
            del line[mark:]
            return False
        fits_mask = self.fits_mask
        dfs = self.wins_from
        # The cards some foundation takes now: each suit's next Ace-pile card, and what
        # each King-pile top accepts. Cards outside it have no move, so they are not
        # tried at all (skipping them changes nothing in the order of the others).
        playable = ace_next
        takes_mask = self.takes_mask
        for pile in kings:
            playable |= takes_mask[pile & 63]
        # Cards to place: discard top, then tableau cards (only with a non-empty pile
        # or an empty stock), each to its Ace pile or a King pile that takes it.
        everything = bool(stack) or p == n or not reductions.draw_first
        sources: list[int] = []
        from_tab = True
        if stack and (playable >> stack[-1]) & 1:
            sources.append(stack[-1])
            from_tab = False
        if everything:
            rest = tab & playable
            while rest:
                low = rest & -rest
                rest ^= low
                sources.append(low.bit_length() - 1)
        symmetric = reductions.symmetry
        if p < n and self.draw_early and self._draw(p, stack, tab, ace, kings, fmask):
            return True
        for card in sources:
            bit = 1 << card
            f2 = fmask | bit
            if ace_next & bit:
                shift = ace_shift[card]
                line.append((card, ace_place[card]))
                a2 = ace + (1 << shift)
                if from_tab:
                    state = self._fill(p, stack, tab ^ bit, a2, kings, f2)
                else:
                    state = (p, stack[:-1], tab, a2, kings, f2)
                if dfs(*state):
                    return True
                line.pop()
            fits = fits_mask[card]
            if (
                reductions.safe_moves
                and ace_next & bit
                and host_mask[card] & fmask == host_mask[card]
            ):
                fits = 0  # the Ace pile is better than a King pile (safe moves)
            tried = -1
            for index, pile in enumerate(kings):
                if pile and (fits >> (pile & 63)) & 1:
                    if symmetric and tried >= 0 and same_above_king(kings[tried], pile):
                        continue  # the same move, on the other pile of the colour
                    tried = index
                    piles = list(kings)
                    piles[index] = (pile << 6) | (card + 1)
                    k2 = tuple(piles)
                    line.append((card, KING_BASE + index))
                    if from_tab:
                        state = self._fill(p, stack, tab ^ bit, ace, k2, f2)
                    else:
                        state = (p, stack[:-1], tab, ace, k2, f2)
                    if dfs(*state):
                        return True
                    line.pop()
            from_tab = True  # every source after the discard top is a tableau card
        if everything:
            is_king = self.is_king
            kings_stay = reductions.kings_stay
            for index, pile in enumerate(kings):
                top = (pile & 63) - 1
                if pile and (ace_next >> top) & 1 and not (kings_stay and is_king[top]):
                    shift = ace_shift[top]
                    line.append((top, ace_place[top]))
                    piles = list(kings)
                    piles[index] = pile >> 6
                    if dfs(p, stack, tab, ace + (1 << shift), tuple(piles), fmask):
                        return True
                    line.pop()
        if p < n and not self.draw_early and self._draw(p, stack, tab, ace, kings, fmask):
            return True
        # Every move failed: the state is lost. (Recorded only now, not on entry, so
        # that a round of the iterative search cut short leaves no unproved state.)
        seen.add(key)
        del line[mark:]
        return False

    def _draw(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        """Draw the stock's top card (an Ace or a King goes on to its pile) and search on
        from there: True when that wins, with the draw left in ``line``."""
        card = self.order[p]
        self.line.append((-1, DISCARD))
        forced = self._forced(card, ace, kings, fmask)
        if forced is None:
            found = self.wins_from(p + 1, stack + (card,), tab, ace, kings, fmask)
        else:
            found = self.wins_from(p + 1, stack, tab, *forced)
        if not found:
            self.line.pop()
        return found
