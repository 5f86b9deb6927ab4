"""Autoplay: the deterministic policy the Atari programs copy, and plain greedy.

The policy is fair (it never looks at the face-down stock) and cheap: each decision is
one look at the discard top, at the card each Ace pile needs next and at each tableau
space, plus, only when it holds a rescue, the "distance" of the discard top (from the
eight foundation tops) and a look at the few discard cards just under the top. docs/RULES.md
("Autoplay policy") states it in the words an Atari BASIC port follows.

The idea behind it: a tableau card that can go to a foundation is a *rescue*. Playing
it opens a space, and the space takes the discard top at once, out of the pile where it
would be buried by the next draw. Playing it at once (greedy) rescues whatever happens to
be on top; holding it rescues a later card instead. The policy rescues the discard top
only when that card is close to playable (distance at most 2, or 3 when two or more
rescues are available), or when a playable card lies so close below the top that the
rescues at hand can lift the cards above it ("dig"); otherwise it draws and keeps its
rescues for later.

API: ``choose_move(position)`` (the policy's move, or None when the game is over; a
terminal game's "hint"), ``greedy_move(position)``, and ``play(position, policy)`` which
plays a game to its end and returns the position. The raw policies ``policy_move`` (a
:class:`RescuePolicy` with the documented settings) and ``greedy_raw_move`` work on ints,
for speed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from machfsol.engine.rules import (
    ACE_BASE,
    DISCARD,
    KING_BASE,
    NOWHERE,
    STOCK,
    TABLEAU_BASE,
    KingBuild,
    Move,
    Place,
    Position,
)

RawMove = tuple[int, int]
RawPolicy = Callable[[Position], RawMove | None]


def _destination(position: Position, card: int) -> int:
    """Where the policy puts ``card``: its Ace pile if possible, else the first King
    pile (S, H, C, D order) that takes it; NOWHERE if none does."""
    suit = position._suit[card]
    if position._ace_next[suit] == card:
        return ACE_BASE + suit
    pile_of_top = position._pile_of_top
    best = NOWHERE
    for top in position._fits_on[card]:
        pile = pile_of_top[top]
        if pile != NOWHERE and (best == NOWHERE or pile < best):
            best = pile
    return NOWHERE if best == NOWHERE else KING_BASE + best


def distance(position: Position, card: int) -> int:
    """How many cards must reach the foundations before ``card`` can (0: playable now).

    Ace side: rank minus the Ace pile's height. King side, for each King pile whose top
    ``t`` is above the card: ``rank(t) - 1 - rank(card)``, counted in variant 1 only for
    the card's own suit and in variant 2 for every pile (colours ignored, to stay cheap).
    In variant 1 a suit whose King is not out counts ``R - 1 - rank``.
    """
    ranks = position._r
    suit = position._suit[card]
    rank = card % ranks
    best = rank - (position._ace_next[suit] - suit * ranks)
    same_suit = position.variant.king_build is KingBuild.SAME_SUIT
    for pile, cards in enumerate(position._kings):
        if same_suit and pile != suit:
            continue
        if cards:
            gap = cards[-1] % ranks - 1 - rank
            if 0 <= gap < best:
                best = gap
        elif same_suit and ranks - 1 - rank < best:
            best = ranks - 1 - rank
    return best


def _discard_or_transfer(position: Position) -> RawMove | None:
    """The moves both policies make as soon as they see them (the policy before anything
    else, greedy once the tableau has nothing to play): the discard top to its
    destination if it is playable; else, for suits S, H, C, D, the first King-pile top
    that its Ace pile needs next, to that Ace pile."""
    discard = position._discard
    if discard and position._playable[discard[-1]]:
        return DISCARD, _destination(position, discard[-1])
    # A full Ace pile asks for the next suit's Ace (or card N), never a King-pile top.
    pile_of_top = position._pile_of_top
    for suit, card in enumerate(position._ace_next):
        pile = pile_of_top[card]
        if pile != NOWHERE:
            return KING_BASE + pile, ACE_BASE + suit
    return None


@dataclass(frozen=True)
class RescuePolicy:
    """The autoplay policy, with the knobs it was tuned on as data.

    The defaults are the policy of RULES.md, which the Atari programs copy; other
    values exist only so that benchmarks/autoplay_tuning.py can show why these won.
    """

    #: Rescue the discard top when its distance is at most this ...
    rescue_distance: int = 2
    #: ... plus this when two or more tableau cards can be played.
    bonus_with_two: int = 1
    #: Also rescue when a playable card lies within reach under the discard top.
    dig: bool = True

    def __call__(self, position: Position) -> RawMove | None:
        """The policy's move as raw ints (see the module docstring and RULES.md)."""
        sure = _discard_or_transfer(position)
        if sure is not None:
            return sure
        playable = position._playable  # playable[NOWHERE] is 0: empty spaces never count
        discard = position._discard
        rescue: RawMove | None = None
        rescues = 0
        for index, card in enumerate(position._tab):
            if playable[card]:
                rescues += 1
                if rescue is None:
                    rescue = TABLEAU_BASE + index, _destination(position, card)
        if rescue is not None and discard:
            limit = self.rescue_distance + (self.bonus_with_two if rescues >= 2 else 0)
            if distance(position, discard[-1]) <= limit:
                return rescue
            # Dig: with k rescues, the k cards on top of the pile can be lifted into the
            # tableau; do it if a playable card lies within reach below the top.
            if self.dig:
                for depth in range(2, min(rescues, len(discard) - 1) + 2):
                    if playable[discard[-depth]]:
                        return rescue
        if position._next < position._n:
            return STOCK, DISCARD
        return rescue


#: The policy of RULES.md as a raw policy for :func:`play` (the one the Atari copies).
policy_move: RawPolicy = RescuePolicy()


def greedy_raw_move(position: Position) -> RawMove | None:
    """Play everything at once: the first playable card of T1, T2, ..., the discard top,
    then King-pile tops to Ace piles (by suit S, H, C, D); else draw."""
    playable = position._playable
    for index, card in enumerate(position._tab):
        if playable[card]:
            return TABLEAU_BASE + index, _destination(position, card)
    sure = _discard_or_transfer(position)
    if sure is not None:
        return sure
    if position._next < position._n:
        return STOCK, DISCARD
    return None


def _public(raw: RawMove | None) -> Move | None:
    return None if raw is None else Move(Place(raw[0]), Place(raw[1]))


def choose_move(position: Position) -> Move | None:
    """The autoplay policy's move in ``position`` (None once the game is over)."""
    if position.is_won():
        return None
    return _public(policy_move(position))


def greedy_move(position: Position) -> Move | None:
    """Plain greedy's move in ``position`` (None once the game is over)."""
    if position.is_won():
        return None
    return _public(greedy_raw_move(position))


POLICIES: dict[str, RawPolicy] = {"auto": policy_move, "greedy": greedy_raw_move}


def play(position: Position, policy: RawPolicy = policy_move) -> Position:
    """Play ``position`` to its end with ``policy`` (in place); return it.

    A policy returns None only when no legal move is left, so the game then is over.
    """
    size = position._n
    push = position.push_places
    while position._on_foundations != size:
        move = policy(position)
        if move is None:
            break
        push(*move)
    return position
