"""A perfect-information solver: can this deal be won at all, knowing the stock order?

The answer (:class:`Solution`) is WON, with a winning line that replays on the engine
and passes ``machfsol check``; LOST, proved (every line was tried, and the number of
states searched is the certificate: the search is deterministic, so it counts the same
states on every run, and the plain search confirms it independently); or UNKNOWN (the
node limit came first). :func:`solve` first plays the autoplay policy, so the solver is
never weaker than the policy; only the policy's losses are searched.

The stock order is known, so the only choices are the optional foundation moves and
*when* to draw. The modules, in the order a reader meets them:

* :mod:`.solving`: :func:`solve` and :func:`search`, which choose the search, replay
  its line on the engine and check the win (:mod:`.realize` turns each search's line
  into the engine's moves); :func:`transcript` writes a win down.
* :mod:`.token_model`: MAChFsol 1's search, far smaller than the table (a playable
  tableau card is a token; only how many there are matters).
* :mod:`.concrete`: MAChFsol 2's search, move by move on the table
  (:mod:`.concrete_state`: how a state is held), with the :mod:`.reductions` that keep
  it small: among them the dead-end tests that prove states lost
  (:mod:`.stuck_cards`, shared with the token model; :mod:`.concrete_dead_ends`;
  :mod:`.placement`).
* :mod:`.compiled`: the bridge to ``machfsol.odds._concrete``, the same move-by-move
  search in C, state for state, about 60 times faster; :func:`search` uses it when it
  is built.
* :mod:`.in_progress`: :func:`solve_in_progress`, the same searches started from a
  game in progress instead of the deal (the terminal game's "can this deal still be
  won?").

docs/ODDS.md, "The solver", tells how to use it; docs/notes/odds-solver.md tells how
each variant is searched and proves each reduction sound, docs/notes/odds-speed.md has
the figures. The names below are the
package's public surface; the modules' other names are its internals (the tests use
some of them).
"""

from machfsol.odds.solver.compiled import COMPILED, COMPILED_OUT_OF_DATE, CompiledSearchMissing
from machfsol.odds.solver.in_progress import search_in_progress, solve_in_progress
from machfsol.odds.solver.reductions import (
    ALL_REDUCTIONS,
    EACH_REDUCTION,
    FIRST_ROUND,
    PLAIN,
    STOCK_ORDER_AFTER,
    Reductions,
)
from machfsol.odds.solver.solution import Solution, SolverBug, Verdict
from machfsol.odds.solver.solving import (
    DEFAULT_NODE_LIMITS,
    default_node_limit,
    replay,
    search,
    solve,
    solve_seed,
    transcript,
)

__all__ = [
    "ALL_REDUCTIONS",
    "COMPILED",
    "COMPILED_OUT_OF_DATE",
    "DEFAULT_NODE_LIMITS",
    "EACH_REDUCTION",
    "FIRST_ROUND",
    "PLAIN",
    "STOCK_ORDER_AFTER",
    "CompiledSearchMissing",
    "Reductions",
    "Solution",
    "SolverBug",
    "Verdict",
    "default_node_limit",
    "replay",
    "search",
    "search_in_progress",
    "solve",
    "solve_in_progress",
    "solve_seed",
    "transcript",
]
