"""The count at the heart of both searches' dead-end tests: cards that must wait.

A card whose every way to a foundation needs a card lying deeper in the discard pile
cannot go to a foundation before the pile is dug down to that card. If it is on the
pile above it, it must first be lifted into the tableau (only the discard top can be,
and only into a space), and there it stays. Such a card is given as a *span*
``(low, high)`` of pile levels (level 0 is the pile's bottom): it sits in the tableau
at least while the pile is dug from level ``high`` (its own place on the pile, or the
pile's top for a tableau card) down to level ``low`` (its deepest needed card). If at
some level more cards must sit in the tableau than it has spaces, the state is lost.

Each search works out the spans its own way (variant 1's token model:
:mod:`~machfsol.odds.solver.token_model`; variant 2's concrete table:
:mod:`~machfsol.odds.solver.concrete_dead_ends`); docs/notes/odds-solver.md,
"Dead-end proofs", gives the argument.
"""

from __future__ import annotations

#: "No blocker": a side of a card that the discard pile does not block, a card on no
#: pile level.
NEVER = 1 << 30


def too_many_stuck(stack_len: int, spans: list[tuple[int, int]], slots: int) -> bool:
    """Must more than ``slots`` cards wait in the tableau at some level of a pile of
    ``stack_len`` cards? (True only for a lost state.)"""
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


def stuck_counts(stack_len: int, spans: list[tuple[int, int]]) -> list[int]:
    """How many cards wait in the tableau at each pile level below ``stack_len``: the
    counts that :func:`too_many_stuck` compares with the spaces."""
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


def from_level(free: int) -> int:
    """The lowest pile level at which a card that is free only below level ``free`` is
    counted as waiting.

    ``free`` is -1 (below every level) for a card that nothing on the pile lets out but
    the pile's end: in the stock-order test, one that needs a card still held back in
    the stock, or a host that never takes a card again. Such a card waits at every
    level down to the bottom one, level 0. (Counting it from level -1, an index that
    the count's difference array does not read, would count it at no level at all:
    docs/notes/odds-solver.md, "A card waiting for the stock was not counted".)
    """
    return free if free > 0 else 0
