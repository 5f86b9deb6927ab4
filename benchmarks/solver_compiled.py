"""The compiled search against the Python search, and every reduction against the plain
search: a soundness and faithfulness check on many small deals.

Usage: .venv/bin/python benchmarks/solver_compiled.py [DEALS] [DECKS] [NODE_LIMIT]

For each deck size in DECKS (comma-separated, default 24,28,32,36) and seeds 1..DEALS
(default 1000), MAChFsol 2, searched without the autoplay shortcut:

* the plain search (no reduction), in Python and compiled;
* each reduction alone, and all of them, in Python and compiled.

The compiled search must give the Python search's answer, node count and winning line
(it is the same search, state for state); every configuration must give the plain
search's verdict (a reduction that changes a verdict is unsound). Every winning line is
replayed on the engine by ``search`` itself (SolverBug otherwise). Deals where the
plain search reaches NODE_LIMIT (default 2,000,000) are counted and left out of the
verdict comparison. Prints one line per deck and configuration with the states
searched and CPU seconds of both; exits 1 on any difference. docs/notes/odds-speed.md
and docs/notes/odds-solver.md record runs.
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Sequence

from machfsol.engine.cards import Card
from machfsol.engine.deal import deal
from machfsol.odds.solver import EACH_REDUCTION, PLAIN, Reductions, Solution, Verdict, search

#: Every reduction alone, then all of them (symmetry needs Kings that stay).
CONFIGS: dict[str, Reductions] = {"plain": PLAIN, **EACH_REDUCTION}


def _timed(
    order: Sequence[Card], reductions: Reductions, limit: int, compiled: bool
) -> tuple[Solution, float]:
    started = time.process_time()
    # The stock-order test from the first state on: on small deals the default (only
    # after STOCK_ORDER_AFTER states) would leave it out.
    solution = search(
        order, 2, limit, reductions=reductions, compiled=compiled, stock_order_after=0
    )
    return solution, time.process_time() - started


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    decks = [int(d) for d in sys.argv[2].split(",")] if len(sys.argv) > 2 else [24, 28, 32, 36]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000_000
    print(
        f"Python {platform.python_version()}; MAChFsol 2, seeds 1..{deals}, searched "
        f"without the autoplay shortcut; node limit {limit}; CPU seconds"
    )
    print(
        f"{'deck':>4} {'search':<11} {'deals':>6} {'states':>11} {'Python s':>9} "
        f"{'compiled s':>10} {'x':>6}  differences"
    )
    failures = 0
    for deck in decks:
        orders = [deal(seed, deck) for seed in range(1, deals + 1)]
        reference: list[Verdict] = []
        for name, reductions in CONFIGS.items():
            states = 0
            python_cpu = compiled_cpu = 0.0
            differences: list[str] = []
            for seed, order in enumerate(orders, start=1):
                mine, python_s = _timed(order, reductions, limit, compiled=False)
                theirs, compiled_s = _timed(order, reductions, limit, compiled=True)
                python_cpu += python_s
                compiled_cpu += compiled_s
                states += mine.nodes
                if (mine.verdict, mine.nodes, mine.moves) != (
                    theirs.verdict,
                    theirs.nodes,
                    theirs.moves,
                ):
                    differences.append(f"seed {seed}: compiled differs")
                if name == "plain":
                    reference.append(mine.verdict)
                elif Verdict.UNKNOWN not in (reference[seed - 1], mine.verdict) and (
                    mine.verdict is not reference[seed - 1]
                ):
                    differences.append(
                        f"seed {seed}: {mine.verdict.value}, plain says {reference[seed - 1].value}"
                    )
            unknown = sum(v is Verdict.UNKNOWN for v in reference) if name == "plain" else 0
            failures += len(differences)
            print(
                f"{deck:>4} {name:<11} {len(orders):>6} {states:>11} {python_cpu:>9.2f} "
                f"{compiled_cpu:>10.3f} {python_cpu / max(compiled_cpu, 1e-9):>6.0f}  "
                + (", ".join(differences[:5]) if differences else "none")
                + (f" (plain: {unknown} unknown)" if unknown else ""),
                flush=True,
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
