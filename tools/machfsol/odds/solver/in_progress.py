"""Can a game in progress still be won? The solver, started from the table as it stands.

:func:`machfsol.odds.solver.solve` answers for a deal, from the deal. A player half-way
through a game asks about the table in front of them: :func:`solve_in_progress` takes
the deal and the moves made and answers WON (with a winning line: the moves made, then
moves that win, replayed on the engine and checked to win), LOST (proved: no line from
here wins) or UNKNOWN (the node limit came first).

The searches are the solver's own (docs/ODDS.md), started from the table instead of the
deal: MAChFsol 1's token model (the table's foundations, its tableau cards and discard
pile, settled as the model settles them) and MAChFsol 2's move-by-move search (the
compiled one when it is built, else its Python form, which searches the same states).
Each of the searches' reductions is a statement about every table the rules can reach,
so it holds from any table a game reached: except that the move-by-move search never
moves a King onto its Ace pile, so a table where a player did that is searched without
reductions (it is the end of a game: few cards are left).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.cards import Card
from machfsol.engine.rules import NOWHERE, Move, Position, Variant
from machfsol.odds.solver.compiled import COMPILED_STARTS, compiled_search
from machfsol.odds.solver.concrete import ConcreteSearch
from machfsol.odds.solver.realize import realize_concrete_line, realize_token_line
from machfsol.odds.solver.reductions import ALL_REDUCTIONS, PLAIN, STOCK_ORDER_AFTER, Reductions
from machfsol.odds.solver.solution import Solution, Verdict
from machfsol.odds.solver.solving import default_node_limit, replay, searched
from machfsol.odds.solver.token_model import TokenSearch

if TYPE_CHECKING:
    from machfsol.odds._concrete import Start


def solve_in_progress(
    order: Sequence[Card],
    game: Variant | int,
    moves: Sequence[Move],
    node_limit: int | None = None,
) -> Solution:
    """Can the game of the deal ``order`` with ``moves`` made still be won? The
    autoplay policy's win from here if it wins (``by_policy``), else the search's
    answer. A WON solution's ``moves`` are the whole game: ``moves``, then the win."""
    position = replay(order, game, moves)
    if position.is_won():
        return Solution(Verdict.WON, position.move_stack, 0, True)
    if position.is_over():
        return Solution(Verdict.LOST, (), 0, False)
    trial = play(position.copy(), policy_move)
    if trial.is_won():
        return Solution(Verdict.WON, trial.move_stack, 0, True)
    return search_in_progress(position, node_limit)


def search_in_progress(
    position: Position,
    node_limit: int | None = None,
    *,
    plain: bool = False,
    reductions: Reductions = ALL_REDUCTIONS,
    compiled: bool | None = None,
    stock_order_after: int = STOCK_ORDER_AFTER,
) -> Solution:
    """The solver's own search from ``position`` (not changed), as
    :func:`~machfsol.odds.solver.solving.search` searches from the deal, with the same
    options (``compiled`` True insists on the compiled search: CompiledSearchMissing when
    it is not built, or built from a _concrete.c too old to start from a table)."""
    game = position.variant
    if node_limit is None:
        node_limit = default_node_limit(game)
    played = position.copy()
    if game.number == 1 and not plain:
        token = _TokenSearchFrom(position, node_limit)
        found, nodes = token.solve(), token.nodes
        if found:
            realize_token_line(played, token.line)
    else:
        chosen = PLAIN if plain or _king_went_to_its_ace_pile(position) else reductions
        if compiled is None:
            compiled = COMPILED_STARTS
        if compiled:
            found, nodes, line = compiled_search(
                position.order,
                game,
                node_limit,
                chosen,
                stock_order_after,
                _compiled_start(position),
            )
        else:
            concrete = _ConcreteSearchFrom(position, node_limit, chosen, stock_order_after)
            found, nodes, line = concrete.solve(), concrete.nodes, concrete.line
        if found:
            realize_concrete_line(played, line)
    return searched(found, nodes, played)


# ------------------------------------------------------------------ the table as state


def _numbers(cards: Sequence[Card]) -> list[int]:
    return [card.number for card in cards]


def _king_went_to_its_ace_pile(position: Position) -> bool:
    ranks = position.deck.rank_count
    return any(len(pile) == ranks for pile in position.ace_piles())


def _ace_heights(position: Position) -> int:
    """The Ace-pile heights, 4 bits per suit (both searches' ``ace``/``f`` low half)."""
    return sum(height << (4 * suit) for suit, height in enumerate(position.ace_pile_heights()))


def _foundation_mask(position: Position) -> int:
    mask = 0
    for pile in (*position.ace_piles(), *position.king_piles()):
        for card in pile:
            mask |= 1 << card.number
    return mask


def _tableau_mask(position: Position) -> int:
    return sum(1 << card for card in position.tableau_numbers() if card != NOWHERE)


def _stock_position(position: Position) -> int:
    return position.deck.size - position.stock_count()


class _TokenSearchFrom(TokenSearch):
    """MAChFsol 1's token model, started from ``position``: its foundations, with every
    tableau card waiting and the discard pile as dealt, settled as the model settles a
    state (waiting cards and discard tops that extend a foundation side are absorbed)."""

    def __init__(self, position: Position, limit: int) -> None:
        deck = position.deck
        super().__init__(_numbers(position.order), deck.rank_count, deck.tableau_size, limit)
        self.table = position

    def start(self) -> tuple[int, tuple[int, ...], int, int, int]:
        position = self.table
        ranks = self.r
        f = _ace_heights(position)
        for suit, pile in enumerate(position.king_piles()):
            lowest = pile[-1].rank_index if pile else ranks  # ranks: no King side yet
            f |= lowest << (16 + 4 * suit)
        stack = tuple(_numbers(position.discard()))
        waiting = _tableau_mask(position)
        return (
            _stock_position(position),
            *self._settle(stack, waiting, f, position.foundation_count()),
        )


class _ConcreteSearchFrom(ConcreteSearch):
    """MAChFsol 2's move-by-move search (in Python), started from ``position``."""

    def __init__(
        self, position: Position, limit: int, reductions: Reductions, stock_order_after: int
    ) -> None:
        super().__init__(position.order, position.variant, limit, reductions, stock_order_after)
        self.table = position

    def start(self) -> tuple[int, tuple[int, ...], int, int, tuple[int, ...], int]:
        position = self.table
        kings = []
        for pile in position.king_piles():
            code = 0
            for card in pile:  # the King first, the top in the low field
                code = (code << 6) | (card.number + 1)
            kings.append(code)
        return (
            _stock_position(position),
            tuple(_numbers(position.discard())),
            _tableau_mask(position),
            _ace_heights(position),
            tuple(kings),
            _foundation_mask(position),
        )


def _compiled_start(position: Position) -> Start:
    """``position`` as the compiled search's start (its docstring: ``_concrete.search``)."""
    spades, hearts, clubs, diamonds = (bytes(_numbers(p)) for p in position.king_piles())
    return (
        _stock_position(position),
        bytes(_numbers(position.discard())),
        _tableau_mask(position),
        _ace_heights(position),
        _foundation_mask(position),
        (spades, hearts, clubs, diamonds),
    )
