"""Solving one deal: which search runs, and the engine's check of every win.

:func:`solve` is what ``machfsol odds`` and ``machfsol solve`` ask: the autoplay
policy's own game when it wins (so the solver is never weaker than the policy), else
:func:`search`. :func:`search` runs variant 1's token model or the move-by-move search
(compiled when it is built), replays a winning line on the engine's Position, and
returns it only when the engine says it wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.cards import Card
from machfsol.engine.deal import deal
from machfsol.engine.rules import Move, Position, Variant, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.odds.solver.compiled import COMPILED, compiled_search
from machfsol.odds.solver.concrete import ConcreteSearch
from machfsol.odds.solver.realize import realize_concrete_line, realize_token_line
from machfsol.odds.solver.reductions import ALL_REDUCTIONS, PLAIN, STOCK_ORDER_AFTER, Reductions
from machfsol.odds.solver.solution import Solution, SolverBug, Verdict
from machfsol.odds.solver.token_model import TokenSearch

#: Default bound on searched states per deal, per variant. MAChFsol 1's token model
#: never needed 200,000 on 90,000 deals (seconds at worst). A MAChFsol 2 state costs
#: more and its hardest deals run to millions of states: of the 90,000 deals of the
#: table's nine rows (seeds 1..10,000), one takes more than 10,000,000, 52-card seed
#: 6530 (lost) with 27,887,382. 30,000,000 decides every one of them (docs/notes/odds-speed.md,
#: "Speed"); a search that reaches it takes under two minutes and about 1.6 GB of
#: memory for its table of lost states. Deals beyond it are UNKNOWN.
DEFAULT_NODE_LIMITS: dict[int, int] = {1: 200_000, 2: 30_000_000}


def default_node_limit(game: Variant | int) -> int:
    return DEFAULT_NODE_LIMITS[game.number if isinstance(game, Variant) else game]


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
        token = TokenSearch(numbers, deck.rank_count, deck.tableau_size, node_limit)
        found, nodes = token.solve(), token.nodes
        if found:
            realize_token_line(position, token.line)
    else:
        chosen = PLAIN if plain else reductions
        if compiled is None:
            compiled = COMPILED
        if compiled:
            found, nodes, line = compiled_search(order, game, node_limit, chosen, stock_order_after)
        else:
            concrete = ConcreteSearch(order, game, node_limit, chosen, stock_order_after)
            found, nodes, line = concrete.solve(), concrete.nodes, concrete.line
        if found:
            realize_concrete_line(position, line)
    return searched(found, nodes, position)


def searched(found: bool | None, nodes: int, played: Position) -> Solution:
    """A search's answer: UNKNOWN when ``found`` is None (the node limit came first),
    LOST, or WON with the moves of ``played``, on which the winning line was replayed,
    only when the engine says they win (else :class:`SolverBug`: the engine, not the
    search, has the last word)."""
    if found is None:
        return Solution(Verdict.UNKNOWN, (), nodes, False)
    if not found:
        return Solution(Verdict.LOST, (), nodes, False)
    if not played.is_won():
        raise SolverBug(f"the solver's line does not win: {played}")
    return Solution(Verdict.WON, played.move_stack, nodes, False)


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
    policy). A solution that is not a win has no line: ValueError."""
    if not solution.won:
        raise ValueError("only a won deal has a line to write")
    position = replay(order, game, solution.moves)
    player = Player.AUTO if solution.by_policy else Player.SOLVER
    return of_game(position, seed=seed, player=player)
