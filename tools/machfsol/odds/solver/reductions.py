"""The move-by-move search's reductions, each one switchable.

With none of them the search is the *plain* search, slow but simple: the reference that
the tests and benchmarks hold every reduction to, one by one (:data:`EACH_REDUCTION`).
Each reduction drops a line only when another line at least as good is kept, so a LOST
stays a proof. Why each one is sound: docs/notes/odds-solver.md, "How MAChFsol 2 is searched, and
why each reduction is sound" (the field comments below name them as that section does).

The compiled search takes the same switches as a bit mask (:attr:`Reductions.flags`,
one bit per field in field order), so a new reduction is a new field at the end here
and a new bit in ``_concrete.c``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Reductions:
    """The concrete search's reductions: all off is the plain search."""

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

#: What a reduction needs to run alone: the symmetry holds only while Kings stay, and the
#: twins and stock-order refinements are part of the dead-end test.
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
#: the few hard ones get them (docs/notes/odds-speed.md, "Speed").
STOCK_ORDER_AFTER = 100_000
