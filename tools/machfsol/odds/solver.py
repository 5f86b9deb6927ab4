"""A perfect-information solver: can this deal be won at all, knowing the stock order?

The answer is WON (with a winning line that replays on the engine and passes
``machfsol check``), LOST (proved: every line was tried), or UNKNOWN (the node limit was
hit first). The solver is never weaker than the autoplay policy: it first plays the
policy, and a game the policy wins is returned as is; only the policy's losses are
searched.

Why the search is small enough
------------------------------
The stock order is known and the only choices are the optional foundation moves and
*when* to draw, so the search walks a tree of states, each keyed canonically (stock
position, the set of tableau cards, the foundations: the discard pile is then implied,
because it holds exactly the drawn cards that are nowhere else, in the order drawn).

Variant 1 (King piles by suit) admits a far smaller *token* model, which the solver uses:

* In variant 1 a card that can go to a foundation can go there for ever after (its place
  is waiting for exactly that card). A tableau card that can be played, or that could be
  once other such tableau cards are played, is a *token*: playing it at any later time
  opens its space, and the space takes the discard top at once. Which token pays for a
  rescue does not matter, only how many there are. So the state keeps ``P`` (cards on a
  foundation *or* tokens), ``W`` (tableau cards that are not tokens, waiting) and the
  number of tokens ``S - |W|``; the discard pile is again implied.
* A discard top whose predecessor is in ``P`` is absorbed at once (played, or pulled by a
  token and becoming a token itself: the same state), and a waiting card whose
  predecessor joins ``P`` becomes a token. Both only add to ``P``, which never hurts.
* That leaves two choices: *pull* the discard top into the tableau with a token, or
  *draw*. Pulling is not offered when the next card drawn would be absorbed anyway (pull
  after it instead, with more known) nor when the discard pile is empty (a space opened
  then takes the stock card: the same as drawing first). With the stock empty, pulling
  while tokens last is the only line.
* A dead-end test cuts lost branches early: a card whose every way to a foundation
  needs a card lying deeper in the discard pile must wait in the tableau while the pile
  is dug down to that card; when more cards must wait at once than there are spaces,
  the branch is lost (:func:`_too_many_stuck`). It cut the states searched on 52-card
  deals about fifteenfold. (Variant 2 has its own form of the test, below: there a
  card's way onto a King pile is followed up the chain of its hosts.)

The winning abstract line is turned back into real moves on the engine's Position (a pull
plays a token that the engine says is playable; an absorption plays the discard top or
pulls it), and the result is checked to be a won engine game.

Variant 2 (alternating colours) has real choices between piles, and a card put on a
King pile can block the one below, so it is searched move by move on the concrete table
(:class:`_ConcreteSearch`). With no reduction at all that is the *plain* search, the
reference the tests hold every reduction to (``Reductions``, each switchable, so that
``benchmarks/solver_reductions.py`` measures each one's speed-up). Each reduction only
drops lines when another line that is at least as good is kept, so a LOST is a proof:

* *Draw first* with an empty discard pile. A tableau card played then opens a space that
  the stock's top card fills at once; drawing that card first and then playing the
  tableau card ends in the same state (forced Aces and Kings go to their piles either
  way), and a King-pile top moved to its Ace pile does not interact with the draw.
* *Kings stay.* Moving a King from its King pile to its Ace pile needs the whole suit on
  the Ace pile: that pile then takes nothing more, and the King pile is empty for good
  (only a King starts one). Deleting such a move from a winning line leaves every other
  move legal and every card still on a foundation, so it is never needed.
* *Symmetry.* King piles take cards by colour and rank only, so the two piles headed by
  Kings of one colour behave alike: while Kings stay, swapping the cards above the two
  Kings gives a state with the same future. The state key holds those two stacks as a
  set, and a card that could go on either of two such piles holding the same cards is
  put on the first only.
* *Safe moves.* A King-pile top that its Ace pile takes and that can never receive a
  card again (both cards one rank lower of the other colour are on foundations, or it is
  a two: Aces never go on King piles) goes there at once: it only covers the card below
  it, nothing in any line needs it where it is, and the Ace pile and the card below gain.
  Likewise such a card never goes on a King pile from the tableau or the discard pile
  when its Ace pile takes it: the same move to the Ace pile leaves the host uncovered.
  (The earlier solver also moved such a card from the *discard top* to its Ace pile at
  once. That is not safe in general: a card left on the discard pile can absorb the fill
  of a space opened on purpose, where without it the card below is lifted into the
  tableau and may block it, so it is no longer done; it doubled the states of hard
  deals.)
* *Dead ends* (:meth:`_ConcreteSearch._dead_end`), the variant-2 form of variant 1's
  test: for each card not on a foundation, the deepest level down to which the discard
  pile must be dug before it can go to its Ace pile (a lower card of its suit lies there,
  or is held on a King pile under cards whose own Ace piles are held back), and before it
  can go on a King pile (one of its two hosts must be dug out *and* get onto a King pile
  itself, recursively up to the Kings; a covered host must first lose the cards above
  it to their Ace piles; a host on its Ace pile never takes a card again). A card stuck
  below the shallower of the two must wait in the tableau while the pile is dug; more
  such cards at once than there are spaces is a lost state. It only ever proves losses.
* *Twins* (part of the dead-end test). The two cards of one colour and rank are twins:
  they have the same two hosts and no other, and a host holds one card at a time (a card
  leaves a King pile only for its Ace pile). Where only one of the two hosts can be a
  King-pile top yet, both twins are out of the pile and neither Ace pile takes its
  twin, one of them must wait in the tableau: one card more than the per-card test
  counts. One rank up likewise: two twins can both be on King piles only once both of
  their own hosts can be King-pile tops and both are out of the pile, so the later of
  the pair's levels as hosts is the deeper of those (docs/ODDS.md gives the proof).
* *Stock order* (part of the dead-end test, :meth:`_ConcreteSearch._stock_dead`). The
  dead-end test takes a card still in the stock to be available at once; it is not: it
  is drawn only after every card above it in the stock, onto the pile. Follow the pile's
  levels from the top down (the moments the cards now on it leave it, in that order,
  since the pile's own cards only leave from the top): before each such moment some
  number ``m`` of the stock's cards has been drawn, and ``m`` can only grow as the pile
  goes down. At one level, the stock's first ``m`` cards are drawn (available, and each
  one stuck must have left the pile, which it lies on, so it waits in the tableau like
  a tableau card) and the others not (not available then): the dead-end test's count
  with those facts is a lower bound on the cards in the tableau at that moment. A state
  is lost when every growing ``m`` meets a level where the count exceeds the spaces:
  every line has some such schedule. (The test's counts compare levels only with the
  level counted, so "drawn" and "held back" are just the top level and -1; docs/ODDS.md
  gives the proof.) It costs a few dead-end tests per state, so a search uses it only
  after ``STOCK_ORDER_AFTER`` states (deterministically, so that the states searched
  are still reproducible): the quick deals never pay for it.
* *Endgame.* Once the stock is used up, the discard top and the tableau cards are one
  window of T+1 cards: playing any of them lets the next card of the pile in (the top
  by becoming the top's successor, a tableau card by its space taking the top), so
  which of them is the top no longer matters. A card in that window that its Ace pile
  takes and that can never host (as for the safe moves) then goes there at once: any
  winning line that keeps it is matched, move for move, by the line that played it
  first, which sees every card the other sees (one more, until the other plays it) and
  whose King piles differ only in not having that card on top of a host nobody else
  can use. (Before the stock is used up this does not hold: a draw buries the top but
  not a tableau card; that is why the safe moves leave the discard top alone.)
* *Placement* (:meth:`_ConcreteSearch._placement_dead`), a count of room rather than of
  waiting cards. The pile's cards leave it from the top, so for each level of the pile
  the moment comes when it holds only the cards below that level; every card out by
  then (the tableau's, the pile's from that level up, the stock's cards drawn by then)
  is on a foundation or in the tableau. The foundations can hold at most: on each Ace
  pile a run up its suit, through cards out by then or King-pile cards (a King-pile card
  leaves its pile only for its Ace pile, and only from the top, so the cards above it go
  to theirs too; a King stays); on each King pile what is left of it plus a chain down
  from its top, one card per rank, of the kind that pile takes there (two piles of a
  colour take the same kinds, so they share those cards: where a rank has one, only one
  of the two chains goes on). The test tries every choice of Ace-pile heights and takes
  the longest chains for each: when even the best leaves more cards than spaces, that
  moment cannot come. As in the stock-order test, the stock's cards drawn can only grow
  going down the levels: a state is lost when no such schedule lets every level come.
  It is a relaxation (the foundations of one moment need not follow from those of the
  one before), so it only proves losses. Used after ``STOCK_ORDER_AFTER`` states.
* *Last draw.* When the stock holds one card (no King), its Ace pile takes it now and
  it can never host (as for the safe moves), it is drawn and played at once, without
  branching, like a safe move (the state in between is not counted): a winning line
  that draws it later is matched by one that draws it first and then makes the same
  moves, each still legal (the card on its Ace pile takes nothing from anyone); where
  that line's pile is empty when a space opens, the space would have taken the card
  from the stock, and here stays empty, one space more; once the other line draws it,
  the two are the same but for where that card is, which the endgame argument below
  covers. (With more cards to draw this does not hold: a card kept in a space can lift
  a later pile top into the tableau when wanted.)
* A *transposition table*: states already searched (and lost) are not searched again,
  keyed by the stock position, the tableau, the Ace piles and the King piles (with the
  symmetry above); the discard pile is implied.
* *Window key.* Once the stock is used up, the key holds the window (the tableau and
  the discard top, as for the endgame above) as one set, with the rest of the pile
  implied: two states whose windows hold the same cards but with another card on top
  have the same future (any window card plays the same way from either place, and
  either way leaves the window less that card plus the next card of the pile), so a
  state lost with one top is lost with the other. (Both arise: a card drawn and put in
  the tableau at once, the next one left on the pile, against both drawn and the second
  one put in the tableau.) It cut the states of the hardest 52-card deals by 2 to 35%.
  The same holds with *one* card X left in the stock. Say one state has top Y and Z in
  the tableau, the other top Z and Y in the tableau. Until X is drawn the argument is
  the one above. Once the first draws X onto Y, X leaves the pile either for a
  foundation (the second draws X and plays it likewise: the same window again) or into
  the tableau, lifted when a tableau card c is played: if the second has c in its
  tableau too, it draws X and plays c likewise; if c is Z, its top, it plays Z from the
  top and then draws X. Either way both end with the stock used up, the same window and
  the same pile below it (moves from King piles to Ace piles meanwhile are the same in
  both). With two cards left this fails: the second draw buries one state's top but not
  the other's. Keyed so from one card left on, it took 16% off 52-card seed 6530.

The concrete search also exists compiled (``_concrete.c``, built by setuptools with the
package): the same search, state for state (the tests hold the two to the same node
counts and lines), about 60 times faster. ``search`` uses it when it is built.

Every line found is played back on the engine's Position and must end WON there
(SolverBug otherwise). A LOST comes with the number of states searched, which is
reproducible: the search is deterministic, so ``machfsol solve`` run again, anywhere,
counts the same states, and the plain search (``--plain``) confirms it independently.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.cards import TABLEAU_SIZES, Card, Deck
from machfsol.engine.deal import deal
from machfsol.engine.rules import (
    ACE_BASE,
    DISCARD,
    DRAW,
    KING_BASE,
    NOWHERE,
    STOCK,
    TABLEAU_BASE,
    KingBuild,
    Move,
    Place,
    Position,
    Variant,
    variant,
)
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError

try:  # the compiled form of the concrete search, built by setuptools with the package
    from machfsol.odds import _concrete
except ImportError:  # pragma: no cover - a build without a C compiler
    _concrete = None  # type: ignore[assignment]


#: Default bound on searched states per deal, per variant. MAChFsol 1's token model
#: never needed 200,000 on 90,000 deals (seconds at worst). A MAChFsol 2 state costs
#: more and its hardest deals run to millions of states: of the 90,000 deals of the
#: table's nine rows (seeds 1..10,000), one takes more than 10,000,000, 52-card seed
#: 6530 (lost) with 27,887,382. 30,000,000 decides every one of them (docs/ODDS.md,
#: "Speed"); a search that reaches it takes under two minutes and about 1.6 GB of
#: memory for its table of lost states. Deals beyond it are UNKNOWN.
DEFAULT_NODE_LIMITS: dict[int, int] = {1: 200_000, 2: 30_000_000}


def default_node_limit(game: Variant | int) -> int:
    return DEFAULT_NODE_LIMITS[game.number if isinstance(game, Variant) else game]


class Verdict(enum.Enum):
    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Solution:
    """What the solver found for one deal.

    ``moves`` is the winning line (the player's moves, as the engine's :class:`Move`
    values) when ``verdict`` is WON, else empty. ``by_policy`` says the autoplay
    policy's own game was the win; ``nodes`` counts searched states.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int
    by_policy: bool

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WON


class SolverBug(MachfsolError):
    """A winning line that does not win on the engine: a bug in the solver or engine."""


class CompiledSearchMissing(MachfsolError):
    """The compiled search was asked for and is not built."""


class _LimitReached(Exception):
    """Raised inside the search when the node limit is hit."""


# --------------------------------------------------------------------------- dead ends


_NEVER = 1 << 30  # "no blocker": a side that the discard pile does not block


def _too_many_stuck(stack_len: int, spans: list[tuple[int, int]], slots: int) -> bool:
    """The variant-1 search's dead-end test (sound: it only ever proves losses).

    A card whose every way to a foundation needs a card lying deeper in the discard
    pile cannot go to a foundation before the pile is dug down to that card. If it is on
    the pile above it, it must be lifted into the tableau first (only the discard top
    can be, and only into a space), and there it stays. ``spans`` holds, for each such
    card, ``(b, top)``: it sits in the tableau at least while the pile is dug from level
    ``top`` (its own place on the pile, or the pile's top for a tableau card) down to
    level ``b`` (its deepest needed card). If at some level more cards must sit in the
    tableau than it has spaces, the deal is lost.
    """
    if not spans:
        return False
    diff = [0] * (stack_len + 1)
    for low, high in spans:
        diff[low] += 1
        diff[high] -= 1
    stuck = 0
    for level in range(stack_len):
        stuck += diff[level]
        if stuck > slots:
            return True
    return False


def _stuck_counts(stack_len: int, spans: list[tuple[int, int]]) -> list[int]:
    """How many cards wait in the tableau at each pile level below ``stack_len``: the
    counts that :func:`_too_many_stuck` compares with the spaces."""
    diff = [0] * (stack_len + 1)
    for low, high in spans:
        diff[low] += 1
        diff[high] -= 1
    counts = []
    stuck = 0
    for level in range(stack_len):
        stuck += diff[level]
        counts.append(stuck)
    return counts


# --------------------------------------------------------------------------- variant 1


class _TokenSearch:
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
        # (_NEVER when it is not on the pile or waiting) and its Ace-side blocker.
        self._level = [_NEVER] * self.n
        self._ace_block = [_NEVER] * self.n

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
        except _LimitReached:
            return None

    def _dead_end(self, stack: tuple[int, ...], waiting: int, f: int) -> bool:
        """Apply :func:`_too_many_stuck`: a card's Ace side is blocked from the deepest
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
            deepest = _NEVER
            for card in range(first, end):
                ace_block[card] = deepest
                here = level[card]
                if here < deepest:
                    deepest = here
            deepest = _NEVER
            for card in range(end - 1, first - 1, -1):
                here = level[card]
                if here != _NEVER:
                    ace_side = ace_block[card]
                    # Only pile levels block: a tableau card (level top) does not.
                    if ace_side < top and deepest < top:
                        stuck_from = ace_side if ace_side > deepest else deepest
                        if stuck_from < here:
                            spans.append((stuck_from, here))
                if here < deepest:
                    deepest = here
        for card in stack:
            level[card] = _NEVER
        rest = waiting
        while rest:
            low = rest & -rest
            rest ^= low
            level[low.bit_length() - 1] = _NEVER
        return _too_many_stuck(top, spans, self.slots)

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
            raise _LimitReached
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


def _v1_closure(position: Position) -> set[int]:
    """Foundation cards plus tokens (tableau cards playable in some order), variant 1."""
    ranks = position.deck.rank_count
    ace = list(position.ace_pile_heights())
    tops = [position.top_number(KING_BASE + pile) for pile in range(4)]
    king = [ranks if top == NOWHERE else top % ranks for top in tops]
    tab = {card for card in position.tableau_numbers() if card >= 0}
    grown = True
    while grown:
        grown = False
        for card in list(tab):
            suit, rank = divmod(card, ranks)
            if ace[suit] == rank:
                ace[suit] += 1
            elif king[suit] == rank + 1:
                king[suit] -= 1
            else:
                continue
            tab.discard(card)
            grown = True
    return {s * ranks + r for s in range(4) for r in range(ranks) if r < ace[s] or r >= king[s]}


def _play_first_playable(position: Position) -> bool:
    """Play the first tableau card a foundation takes now (a token); False if none."""
    for index, card in enumerate(position.tableau_numbers()):
        if card >= 0 and position.is_playable_number(card):
            position.push_places(TABLEAU_BASE + index, position.destinations_of(card)[0])
            return True
    return False


def _absorb_v1(position: Position) -> None:
    """Absorb discard tops that extend P: play them, or pull them with a token."""
    ranks = position.deck.rank_count
    while (top := position.top_number(DISCARD)) != NOWHERE:
        if position.is_playable_number(top):
            position.push_places(DISCARD, position.destinations_of(top)[0])
            continue
        rank = top % ranks
        closure = _v1_closure(position)
        below = rank > 0 and (top - 1) in closure
        above = rank < ranks - 1 and (top + 1) in closure
        if not (below or above) or not _play_first_playable(position):
            return


def _realize_v1(position: Position, line: Sequence[str]) -> None:
    """Play the token model's line ('P' pull, 'D' draw) as real moves on ``position``."""
    _absorb_v1(position)
    for step in line:
        if step == "D":
            position.push_places(STOCK, DISCARD)
        elif not _play_first_playable(position):
            raise SolverBug("a pull with no playable tableau card")
        _absorb_v1(position)
    while _play_first_playable(position):
        _absorb_v1(position)


# --------------------------------------------------------------------------- variant 2


@dataclass(frozen=True)
class _V2Tables:
    """Per deck size and variant, the facts the variant-2 search looks up per card, as
    bit masks and lists (one look-up instead of a divmod or a scan in the inner loop).

    ``fits_mask[c]`` has bit ``t + 1`` when card ``c`` may go on King-pile top ``t`` (a
    King pile's low 6-bit field holds its top + 1); ``takes_mask[v]`` has a bit for each
    card that a King pile whose low field is ``v`` accepts (``v = 0``: empty, none);
    ``host_mask[c]`` a bit for each non-Ace card ``c`` may receive on a King pile. The
    rules come from the Variant (:meth:`Variant.king_pile_accepts`).
    """

    fits_mask: tuple[int, ...]
    takes_mask: tuple[int, ...]
    host_mask: tuple[int, ...]
    ace_shift: tuple[int, ...]  # 4 * suit: where the card's Ace pile height is kept
    ace_place: tuple[int, ...]  # the engine place of the card's Ace pile
    hosts: tuple[tuple[int, ...], ...]  # the cards each card may go on, on a King pile


@cache
def _v2_tables(size: int, game: Variant) -> _V2Tables:
    cards = Deck(size).cards()
    ranks = size // 4
    takes = [0] * 64
    for card in cards:
        for top in cards:
            if game.king_pile_accepts(top, card):
                takes[top.number + 1] |= 1 << card.number
    return _V2Tables(
        fits_mask=tuple(
            sum(1 << (t.number + 1) for t in cards if game.king_pile_accepts(t, c)) for c in cards
        ),
        takes_mask=tuple(takes),
        host_mask=tuple(
            sum(1 << x.number for x in cards if not x.is_ace and game.king_pile_accepts(c, x))
            for c in cards
        ),
        ace_shift=tuple(4 * (n // ranks) for n in range(size)),
        ace_place=tuple(ACE_BASE + n // ranks for n in range(size)),
        hosts=tuple(tuple(t.number for t in cards if game.king_pile_accepts(t, c)) for c in cards),
    )


@dataclass(frozen=True)
class Reductions:
    """The concrete search's reductions, each one switchable: all off is the plain
    search, which the tests hold the others to. Why each is sound: module docstring."""

    draw_first: bool = True  # with an empty discard pile, only draw
    safe_moves: bool = True  # a top that can never host goes to its Ace pile at once
    kings_stay: bool = True  # a King never leaves its King pile
    symmetry: bool = True  # King piles of one colour are interchangeable (with kings_stay)
    dead_ends: bool = True  # the stuck-cards test proves losses early
    iterative: bool = True  # rounds with growing bounds, two move orders
    endgame: bool = True  # stock used up: a card that can never host goes to its Ace pile
    twins: bool = True  # dead ends: twins compete for their two hosts (with dead_ends)
    stock_order: bool = True  # dead ends: the stock comes in its order (with dead_ends)
    window: bool = True  # stock used up: the discard top and the tableau keyed as one set
    placement: bool = True  # the most cards the foundations can hold, level by level
    last_draw: bool = True  # the stock's last card, when it is safe, drawn and played at once

    def __post_init__(self) -> None:
        if self.symmetry and not self.kings_stay:
            raise ValueError("the King-pile symmetry holds only while Kings stay")
        if self.twins and not self.dead_ends:
            raise ValueError("the twins refinement is part of the dead-end test")
        if self.stock_order and not self.dead_ends:
            raise ValueError("the stock-order test is part of the dead-end test")

    @classmethod
    def none(cls) -> Reductions:
        return cls(*(False for _ in fields(cls)))

    @classmethod
    def only(cls, *names: str) -> Reductions:
        """These reductions and no other (``only("kings_stay", "symmetry")``)."""
        unknown = set(names) - {field.name for field in fields(cls)}
        if unknown:
            raise ValueError(f"no such reduction: {', '.join(sorted(unknown))}")
        return cls(**{field.name: field.name in names for field in fields(cls)})

    @property
    def flags(self) -> int:
        """The reductions as the compiled search's bit mask (one bit per field, in
        field order: draw_first is bit 0)."""
        return sum(1 << bit for bit, field in enumerate(fields(self)) if getattr(self, field.name))


PLAIN = Reductions.none()
ALL_REDUCTIONS = Reductions()

#: A compiled module built from an older _concrete.c (a checkout updated without
#: rebuilding it) does not know every reduction: it would search differently, so it is
#: set aside, and the commands say how to rebuild it.
COMPILED_OUT_OF_DATE = (
    _concrete is not None and getattr(_concrete, "REDUCTIONS", 0) != ALL_REDUCTIONS.flags
)
if COMPILED_OUT_OF_DATE:
    _concrete = None  # type: ignore[assignment]

#: Is the compiled search there? (Else the same search runs in Python, about 60 times
#: slower; ``machfsol odds`` and ``machfsol solve`` say so.)
COMPILED = _concrete is not None

#: What a reduction needs to run alone: the symmetry holds only while Kings stay, and the
#: twins refinement is part of the dead-end test.
_NEEDS: dict[str, tuple[str, ...]] = {
    "symmetry": ("kings_stay",),
    "twins": ("dead_ends",),
    "stock_order": ("dead_ends",),
}

#: Each reduction alone (with what it needs), then all of them: the searches the tests and
#: the benchmarks hold to the plain search one by one.
EACH_REDUCTION: dict[str, Reductions] = {
    field.name: Reductions.only(*_NEEDS.get(field.name, ()), field.name)
    for field in fields(Reductions)
} | {"all": ALL_REDUCTIONS}

#: States searched in the first round of the iterative search (then twice as many).
FIRST_ROUND = 1_000

#: The stock-order test costs a few dead-end tests per state, the placement test up to
#: a few hundred choices of Ace-pile heights: they are switched on only once a search
#: has gone through this many states (the search is deterministic, so the same deal
#: still gives the same states), so that the many quick deals never pay for them and
#: the few hard ones get them (docs/ODDS.md, "Speed").
STOCK_ORDER_AFTER = 100_000

_NO_BLOCK = _NEVER  # a card that no pile level blocks
_FOR_EVER = -1  # a host that can never take a card again (it is on its Ace pile)


class _ConcreteSearch:
    """Move-by-move search on the table; ``line`` holds (card, place) steps.

    State: stock position ``p``, discard ``stack`` (tuple, top last), tableau bit mask,
    ``ace`` (4 bits per suit: cards on the Ace pile), ``kings`` (one int per King pile:
    card+1 in 6-bit fields, the top in the low field, the King in the highest) and the
    foundation bit mask. A step ``(card, place)`` puts ``card`` on engine place
    ``place``; ``(-1, DISCARD)`` is a draw.
    """

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
        self.n = n = len(order)
        self.r = ranks = deck.rank_count
        self.slots = TABLEAU_SIZES[deck.deck_size]
        self.limit = limit
        self.bound = limit  # the node count at which this round stops
        self.draw_early = False  # try the draw before the other moves
        self.reductions = reductions
        self.stock_order_after = stock_order_after
        self.nodes = 0
        self.seen: set[tuple[int, ...]] = set()
        self.line: list[tuple[int, int]] = []
        tables = _v2_tables(self.n, game)
        self.fits_mask = tables.fits_mask
        self.host_mask = tables.host_mask
        self.takes_mask = tables.takes_mask
        self.ace_shift = tables.ace_shift
        self.ace_place = tables.ace_place
        self._ace_next_of: dict[int, int] = {}
        self.hosts = tables.hosts
        self.rank = tuple(c % ranks for c in range(n))
        self.is_king = tuple(c % ranks == ranks - 1 for c in range(n))
        # Cards from the Queens down to the twos (Aces and Kings are never anywhere
        # but on a foundation or in the stock when the search looks): the order of the
        # dead-end test, which is used in variant 2 only, where each has two hosts.
        self.downwards = tuple(
            s * ranks + rank for rank in range(ranks - 2, 0, -1) for s in range(4)
        )
        self.kings = tuple(s * ranks + ranks - 1 for s in range(4))
        self.host_pairs = tuple((pair[0], pair[-1]) if pair else (0, 0) for pair in self.hosts)
        # Twins, the two cards of one colour and rank (S and C, H and D), which share
        # their two hosts: (card, twin, host, other host), from the Queens down, as
        # ``downwards``, for the twins refinement of the dead-end test.
        self.twin_pairs = tuple(
            (card, card + 2 * ranks, *self.host_pairs[card])
            for card in self.downwards
            if card // ranks < 2
        )
        # For the placement test: the cards that can lie at each rank on King pile i
        # (the pile of suit i's King), and the other pile that takes the same cards (the
        # other King of the colour in variant 2; None in variant 1).
        sits: list[list[int]] = []
        for suit in range(4):
            rows = [0] * ranks
            rows[ranks - 1] = 1 << (suit * ranks + ranks - 1)
            for rank in range(ranks - 2, 0, -1):
                for host in _bits(rows[rank + 1]):
                    rows[rank] |= self.host_mask[host]
            sits.append(rows)
        self.sits = tuple(tuple(rows) for rows in sits)
        self.partner = tuple(
            next((j for j in range(4) if j != i and sits[j][ranks - 2] == sits[i][ranks - 2]), None)
            for i in range(4)
        )
        # By suit and Ace-pile height: the bit mask of the cards on that Ace pile.
        self._ace_cards = tuple(
            tuple(((1 << height) - 1) << (s * ranks) for height in range(ranks + 1))
            for s in range(4)
        )
        # Scratch arrays of :meth:`_dead_end`, one entry per card.
        self._level = [_NO_BLOCK] * n
        self._ace_block = [_NO_BLOCK] * n
        self._king_block = [_NO_BLOCK] * n
        self._host_block = [_NO_BLOCK] * n
        self._hold = [_NO_BLOCK] * n
        self._out = [-1] * n

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
                return self._dfs(*start)
            except _LimitReached:
                if self.nodes >= self.limit:
                    return None
            bound *= 2
            self.draw_early = not self.draw_early

    def _key(self, p: int, tab: int, ace: int, kings: tuple[int, ...]) -> tuple[int, ...]:
        """The state's key: the discard pile is implied (module docstring). With the
        symmetry reduction, the cards above the King of two King piles of one colour
        are a set, not a pair: which King is under them changes nothing while Kings stay.
        """
        if not self.reductions.symmetry:
            return (p, tab, ace, *kings)
        # The King is the highest 6-bit field; a pile of the King alone strips to 0,
        # like a King not out yet: the stock position tells them apart.
        s, h, c, d = (pile & _BELOW_KING[pile.bit_length()] for pile in kings)
        return (p, tab, ace, *((s, c) if s <= c else (c, s)), *((h, d) if h <= d else (d, h)))

    def _dead_end(
        self, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        """The stuck-cards test (module docstring): True only for a lost state.

        For each card not on a foundation: ``ace_block``, the deepest pile level
        holding a lower card of its suit that is not on the Ace pile (it cannot go to
        its Ace pile before the pile is dug down to there); ``king_block``, the level
        down to which the pile must be dug before one of its hosts can be a King-pile
        top (a host on the pile must be dug out and must itself get onto a King pile
        first; a covered host must lose the cards above it, which go to their Ace
        piles; a host on an Ace pile never takes a card again). A card is stuck until
        the shallower of the two. :func:`_too_many_stuck` counts the cards that must
        wait in the tableau at once. The stock is taken to be available at once.
        """
        spans = self._stuck_spans(0, stack, tab, ace, kings, fmask, None, False)
        return _too_many_stuck(len(stack), spans, self.slots)

    def _stock_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        """The stock-order test (module docstring): True only for a lost state.

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
            _stuck_counts(top, self._stuck_spans(p, stack, tab, ace, kings, fmask, m, m == most))
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
        :func:`_too_many_stuck` (see :meth:`_dead_end`). ``drawn`` None: the stock is
        available at once and never waits (the dead-end test). Else the stock-order
        test's view of one level (:meth:`_stock_dead`): the stock's first ``drawn``
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
            host_block[king] = _NO_BLOCK  # in the stock, or on its pile (set below)
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
                deepest = _NO_BLOCK
                for card in range(base + ((ace >> (4 * suit)) & 15), base + ranks):
                    ace_block[card] = deepest
                    here = hold[card]
                    if here < deepest:
                        deepest = here
            changed = False
            for pile in kings:
                above = _NO_BLOCK  # the top of a pile is free to take a card
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
            on_ace |= self._ace_cards[suit][(ace >> (4 * suit)) & 15]
        host_pairs = self.host_pairs
        for card in self.downwards:
            if (fmask >> card) & 1:
                if (on_ace >> card) & 1:
                    host_block[card] = _FOR_EVER
                continue
            one, other = host_pairs[card]
            block = host_block[one]
            if host_block[other] > block:
                block = host_block[other]
            king_block[card] = block
            here = level[card]
            host_block[card] = here if here < block else block
        twins = self.reductions.twins
        if twins:
            # Twin hosts compete for their own two hosts (module docstring): both can
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
                spans.append((_from_level(free), depth + 1))
        rest = tab
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            free = ace_block[card]
            if king_block[card] > free:
                free = king_block[card]
            if free < top:
                spans.append((_from_level(free), top))
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
                    here = _out_of_pile_until(level[card], (tab >> card) & 1, top)
                if (stock >> twin) & 1:
                    there = out[twin]
                else:
                    there = _out_of_pile_until(level[twin], (tab >> twin) & 1, top)
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
                    spans.append((_from_level(free), top))
        self._forget(stack, kings, p if drawn is not None else self.n)
        return spans

    def _placement_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...]
    ) -> bool:
        """The placement test (module docstring): True only for a lost state.

        Going down the pile's levels, the moment each level is reached must leave at
        most ``slots`` out cards in the tableau; the stock's cards drawn by then can
        only grow from level to level, so the fewest drawn that fit are kept (as in the
        stock-order test). A King drawn heads its own pile; an Ace drawn goes to its
        Ace pile.
        """
        n, ranks = self.n, self.r
        piles = [_pile_cards(pile) for pile in kings]
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
            while not self._placement_fits(out, gone, low, piles):
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

    def _placement_fits(self, out: int, gone: int, low: list[int], piles: list[list[int]]) -> bool:
        """Can the foundations hold all but ``slots`` of the ``out`` cards at once?

        Each Ace pile rises from ``low`` through cards that are not ``gone``; a
        King-pile card it takes must have only such cards above it (they leave for
        their Ace piles first; a King never does, it holds the pile). What is left of
        each King pile takes a chain of out cards not on an Ace pile, down from its top
        (:func:`_chains_best`). Every choice of heights is tried, up to the highest
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
                for card in pile[: _kept(pile, on_ace)]:
                    if (on_ace >> card) & 1:
                        high[card // ranks] = min(high[card // ranks], card % ranks)
                        changed = True
        ranges = [range(low[suit], high[suit] + 1) for suit in range(4)]
        for heights in itertools.product(*ranges):
            on_ace = self._runs(low, heights)
            left = [pile[: _kept(pile, on_ace)] for pile in piles]
            if any(_cards_mask(cards) & on_ace for cards in left):
                continue
            tops = [self.rank[cards[-1]] if cards else -1 for cards in left]
            avail = out & ~on_ace
            placed = (out & on_ace).bit_count()
            for i in range(4):
                other = self.partner[i]
                if other is not None and other < i:
                    continue
                count = [(avail & self.sits[i][rank]).bit_count() for rank in range(ranks)]
                placed += _chains_best(count, tops[i], -1 if other is None else tops[other])
            if placed >= need:
                return True
        return False

    def _runs(self, low: Sequence[int], high: Sequence[int]) -> int:
        """The cards the Ace piles take in rising from heights ``low`` to ``high``."""
        cards = self._ace_cards
        return sum(cards[suit][high[suit]] ^ cards[suit][low[suit]] for suit in range(4))

    def _forget(self, stack: tuple[int, ...], kings: tuple[int, ...], p: int) -> None:
        """Reset the scratch entries :meth:`_stuck_spans` set for this state (the stock
        from ``p`` on included)."""
        level = self._level
        hold = self._hold
        for card in stack:
            level[card] = _NO_BLOCK
            hold[card] = _NO_BLOCK
        for pile in kings:
            while pile:
                hold[(pile & 63) - 1] = _NO_BLOCK
                pile >>= 6
        for q in range(p, self.n):
            card = self.order[q]
            level[card] = _NO_BLOCK
            hold[card] = _NO_BLOCK

    def _dfs(
        self,
        p: int,
        stack: tuple[int, ...],
        tab: int,
        ace: int,
        kings: tuple[int, ...],
        fmask: int,
    ) -> bool:
        """Depth-first search from one state. Moves are tried in this order: discard
        top, tableau cards by number, each to its Ace pile then King piles S, H, C, D;
        King-pile tops to Ace piles; then the draw."""
        n, line = self.n, self.line
        full = (1 << n) - 1
        if fmask == full:
            return True
        mark = len(line)
        ace_shift, ace_place = self.ace_shift, self.ace_place
        host_mask = self.host_mask
        reductions = self.reductions
        ace_next = self._ace_next(ace)
        # Safe moves, made without branching (module docstring): with one card left in
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
                # safe move (module docstring).
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
            # (module docstring).
            key = self._key(p, tab | 1 << stack[-1], ace, kings)
        else:
            key = self._key(p, tab, ace, kings)
        seen = self.seen
        if key in seen:
            del line[mark:]
            return False
        self.nodes += 1
        if self.nodes > self.bound:
            raise _LimitReached
        if reductions.dead_ends and (
            self._dead_end(stack, tab, ace, kings, fmask)
            or reductions.stock_order
            and p < n
            and self.nodes > self.stock_order_after
            and self._stock_dead(p, stack, tab, ace, kings, fmask)
        ):
            seen.add(key)
            del line[mark:]
            return False
        if (
            reductions.placement
            and stack
            and self.nodes > self.stock_order_after
            and self._placement_dead(p, stack, tab, ace, kings)
        ):
            seen.add(key)
            del line[mark:]
            return False
        fits_mask = self.fits_mask
        dfs = self._dfs
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
        if p < n and self.draw_early:
            card = self.order[p]
            line.append((-1, DISCARD))
            forced = self._forced(card, ace, kings, fmask)
            if forced is None:
                found = dfs(p + 1, stack + (card,), tab, ace, kings, fmask)
            else:
                found = dfs(p + 1, stack, tab, *forced)
            if found:
                return True
            line.pop()
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
                fits = 0  # the Ace pile is better than a King pile (module docstring)
            tried = -1
            for index, pile in enumerate(kings):
                if pile and (fits >> (pile & 63)) & 1:
                    if symmetric and tried >= 0 and _same_above_king(kings[tried], pile):
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
        if p < n and not self.draw_early:
            card = self.order[p]
            line.append((-1, DISCARD))
            forced = self._forced(card, ace, kings, fmask)
            if forced is None:
                found = dfs(p + 1, stack + (card,), tab, ace, kings, fmask)
            else:
                found = dfs(p + 1, stack, tab, *forced)
            if found:
                return True
            line.pop()
        # Every move failed: the state is lost. (Recorded only now, not on entry, so
        # that a round of the iterative search cut short leaves no unproved state.)
        seen.add(key)
        del line[mark:]
        return False


def _bits(mask: int) -> list[int]:
    """The cards of a bit mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def _pile_cards(pile: int) -> list[int]:
    """A King pile's cards (card + 1 in 6-bit fields, the top lowest), King first."""
    cards = []
    while pile:
        cards.append((pile & 63) - 1)
        pile >>= 6
    return cards[::-1]


def _cards_mask(cards: Sequence[int]) -> int:
    return sum(1 << card for card in cards)


def _kept(pile: list[int], on_ace: int) -> int:
    """How many of a King pile's cards stay when those in ``on_ace`` go to their Ace
    piles from the top down (the King always stays)."""
    kept = len(pile)
    while kept > 1 and (on_ace >> pile[kept - 1]) & 1:
        kept -= 1
    return kept


def _chain_run(count: Sequence[int], rank: int, need: int) -> int:
    """Ranks ``rank``, ``rank`` - 1, ... down to the twos with ``need`` cards or more."""
    length = 0
    while rank >= 1 and count[rank] >= need:
        length += 1
        rank -= 1
    return length


def _chains_best(count: Sequence[int], one: int, other: int) -> int:
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
        return _chain_run(count, high - 1, 1)
    alone = 0
    rank = high - 1
    while rank >= low and rank >= 1:
        if count[rank] < 1:
            return alone + _chain_run(count, low - 1, 1)
        alone += 1
        rank -= 1
    both = _chain_run(count, rank, 2)
    return alone + 2 * both + _chain_run(count, rank - both, 1)


def _from_level(free: int) -> int:
    """The lowest pile level at which a card that is free only below level ``free`` is
    counted as waiting.

    ``free`` is -1 (below every level) for a card that nothing on the pile lets out but
    the pile's end: in the stock-order test, one that needs a card still held back in
    the stock, or a host that never takes a card again. Such a card waits at every
    level down to the bottom one, level 0. (Until issue 14's fifth part the span began
    at -1, an index that the count's difference array does not read: the card was
    counted at no level at all and the test was weaker than its proof allows; seed 90's
    52-card deal took 12,186,847 states instead of 100,020.)
    """
    return free if free > 0 else 0


def _out_of_pile_until(level: int, in_tableau: int, top: int) -> int:
    """The highest pile level at which a card is out of the pile (its own level, where
    the dead-end test counts it as needing a space; just below the top for a tableau
    card); -1 for a card in the stock."""
    if level < _NO_BLOCK:
        return level
    return top - 1 if in_tableau else -1


#: By a King pile's bit length: the mask of its fields above the King (the highest one).
_BELOW_KING = (0, *((1 << (6 * ((bits - 1) // 6))) - 1 for bits in range(1, 6 * 14)))


def _same_above_king(one: int, other: int) -> bool:
    """Do two King piles hold the same cards above their Kings (both Kings alone, say)?"""
    return one & _BELOW_KING[one.bit_length()] == other & _BELOW_KING[other.bit_length()]


def _realize_v2(position: Position, line: Sequence[tuple[int, int]]) -> None:
    """Play the concrete line on ``position``: find each card's place and move it."""
    for card, place in line:
        if position.is_won():
            return  # King-pile tops moving to Ace piles after the win are not needed
        if card < 0:
            position.push_places(STOCK, DISCARD)
            continue
        source = position.source_of(card)
        if source == NOWHERE:
            raise SolverBug(f"card {position.deck.card(card)} is not playable in the line")
        if not position.is_legal_places(source, place):
            raise SolverBug(f"solver move {Place(source).name} {Place(place).name} is not legal")
        position.push_places(source, place)


# ------------------------------------------------------------------------------- public


def _game(game: Variant | int) -> Variant:
    return game if isinstance(game, Variant) else variant(game)


def search(
    order: Sequence[Card],
    game: Variant | int,
    node_limit: int | None = None,
    *,
    plain: bool = False,
    reductions: Reductions = ALL_REDUCTIONS,
    compiled: bool | None = None,
    stock_order_after: int = STOCK_ORDER_AFTER,
) -> Solution:
    """Search the deal exhaustively (no autoplay first): the solver's own answer.

    ``plain=True`` searches move by move with no reduction at all (in both variants):
    slow, but the reference the tests hold the reduced searches to. ``reductions``
    chooses variant 2's reductions (all by default; the benchmarks and tests switch
    them one by one); variant 1 uses its token model.

    The move-by-move search runs in the compiled module (machfsol.odds._concrete, the
    same search state for state) when it is built, else in Python; ``compiled`` True
    insists on the compiled one (CompiledSearchMissing if it is not built), False on
    Python's. The answer and the node count are the same either way.
    ``stock_order_after`` is the number of states searched before the stock-order test
    comes in (the tests and benchmarks use 0, to hold it to the plain search on small
    deals).
    """
    game = _game(game)
    if node_limit is None:
        node_limit = default_node_limit(game)
    position = Position(order, game)
    # Recursion depth is at most one frame per move (about 3N), well within Python's.
    if game.number == 1 and not plain:
        deck = position.deck
        numbers = [card.number for card in order]
        token = _TokenSearch(numbers, deck.rank_count, deck.tableau_size, node_limit)
        found, nodes = token.solve(), token.nodes
        if found:
            _realize_v1(position, token.line)
    else:
        chosen = PLAIN if plain else reductions
        if compiled is None:
            compiled = COMPILED
        if compiled:
            found, nodes, line = _compiled_search(
                order, game, node_limit, chosen, stock_order_after
            )
        else:
            concrete = _ConcreteSearch(order, game, node_limit, chosen, stock_order_after)
            found, nodes, line = concrete.solve(), concrete.nodes, concrete.line
        if found:
            _realize_v2(position, line)
    if found is None:
        return Solution(Verdict.UNKNOWN, (), nodes, False)
    if not found:
        return Solution(Verdict.LOST, (), nodes, False)
    if not position.is_won():
        raise SolverBug(f"the solver's line does not win: {position}")
    return Solution(Verdict.WON, position.move_stack, nodes, False)


def _compiled_search(
    order: Sequence[Card],
    game: Variant,
    node_limit: int,
    reductions: Reductions,
    stock_order_after: int = STOCK_ORDER_AFTER,
) -> tuple[bool | None, int, list[tuple[int, int]]]:
    """The concrete search in the compiled module: (found, nodes, line) as
    :meth:`_ConcreteSearch.solve` gives them."""
    if _concrete is None:
        state = "is out of date" if COMPILED_OUT_OF_DATE else "is not built"
        raise CompiledSearchMissing(
            f"the compiled search (machfsol.odds._concrete) {state}: reinstall the "
            "package with a C compiler and Python's headers at hand (in a checkout: "
            "bash .ci/setup)"
        )
    deck = order[0]
    verdict, nodes, line = _concrete.search(
        bytes(card.number for card in order),
        deck.rank_count,
        TABLEAU_SIZES[deck.deck_size],
        game.king_build is KingBuild.SAME_SUIT,
        reductions.flags,
        node_limit,
        FIRST_ROUND,
        (DISCARD, ACE_BASE, KING_BASE),
        stock_order_after,
    )
    return (None if verdict < 0 else verdict == 1), nodes, line


def solve(order: Sequence[Card], game: Variant | int, node_limit: int | None = None) -> Solution:
    """Solve one deal: the autoplay policy's win if it wins, else an exhaustive search."""
    game = _game(game)
    position = play(Position(order, game), policy_move)
    if position.is_won():
        return Solution(Verdict.WON, position.move_stack, 0, True)
    return search(order, game, node_limit)


def solve_seed(
    seed: int, game: Variant | int, deck_size: int = 52, node_limit: int | None = None
) -> Solution:
    return solve(deal(seed, deck_size), game, node_limit)


def replay(order: Sequence[Card], game: Variant | int, moves: Sequence[Move]) -> Position:
    """The position after playing ``moves`` from the deal (IllegalMoveError if one is not
    legal): how a solution becomes a transcript."""
    position = Position(order, _game(game))
    for move in moves:
        position.push(move)
    return position


def transcript(
    order: Sequence[Card], game: Variant | int, solution: Solution, seed: int | None
) -> str:
    """The transcript of a winning line: PLAYER AUTO when it is the policy's own game,
    else PLAYER SOLVER (the checker holds it to legality and the result, not to a
    policy). Raises SolverBug for a solution that is not a win."""
    if not solution.won:
        raise SolverBug("only a won deal has a line to write")
    position = replay(order, game, solution.moves)
    player = Player.AUTO if solution.by_policy else Player.SOLVER
    return of_game(position, seed=seed, player=player)


__all__ = [
    "COMPILED",
    "COMPILED_OUT_OF_DATE",
    "CompiledSearchMissing",
    "DEFAULT_NODE_LIMITS",
    "DRAW",
    "Solution",
    "SolverBug",
    "Verdict",
    "replay",
    "search",
    "solve",
    "solve_seed",
    "default_node_limit",
    "transcript",
]
