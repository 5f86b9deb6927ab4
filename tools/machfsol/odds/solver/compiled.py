"""The bridge to the compiled concrete search (``machfsol.odds._concrete``, from
``_concrete.c``).

The C module is the Python :class:`~machfsol.odds.solver.concrete.ConcreteSearch`
state for state (the tests hold the two to the same node counts and lines), about 60
times faster; setuptools builds it with the package when a C compiler is at hand
(pyproject.toml, ``ext-modules``). Without it, or with one built from an older
``_concrete.c`` (which would search differently), :data:`COMPILED` is False and
``search`` runs the Python form, with the same answers. docs/notes/odds-solver.md, "The compiled
search", says how the C form keeps its state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from machfsol.engine.cards import TABLEAU_SIZES, Card
from machfsol.engine.rules import ACE_BASE, DISCARD, KING_BASE, KingBuild, Variant
from machfsol.errors import MachfsolError
from machfsol.odds.solver.reductions import ALL_REDUCTIONS, FIRST_ROUND, Reductions

if TYPE_CHECKING:
    from machfsol.odds._concrete import Start


class CompiledSearchMissing(MachfsolError):
    """The compiled search was asked for and is not built."""


try:  # built by setuptools with the package
    from machfsol.odds import _concrete
except ImportError:  # pragma: no cover - a build without a C compiler
    _concrete = None  # type: ignore[assignment]

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

#: Can the compiled search start from a game in progress (search()'s ``start``)? A
#: module built from a _concrete.c older than that cannot; the Python form then
#: searches from the table, with the same answers.
COMPILED_STARTS = COMPILED and getattr(_concrete, "STARTS", 0) == 1


def compiled_search(
    order: Sequence[Card],
    game: Variant,
    node_limit: int,
    reductions: Reductions,
    stock_order_after: int,
    start: Start | None = None,
) -> tuple[bool | None, int, list[tuple[int, int]]]:
    """The concrete search in the compiled module: (found, nodes, line) as
    :meth:`ConcreteSearch.solve <machfsol.odds.solver.concrete.ConcreteSearch.solve>`
    and its ``nodes`` and ``line`` give them. ``start`` None searches from the deal;
    else it is the game in progress to search from (``_concrete.search``'s docstring
    says how it is packed; :mod:`~machfsol.odds.solver.in_progress` packs it)."""
    if _concrete is None:
        state = "is out of date" if COMPILED_OUT_OF_DATE else "is not built"
    elif start is not None and not COMPILED_STARTS:
        state = "is too old to start from a game in progress"
    else:
        state = ""
    if state:
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
        *(() if start is None else (start,)),
    )
    return (None if verdict < 0 else verdict == 1), nodes, line
