"""What each solver reduction buys: states per second and deals per second, beside the
plain search.

Usage: .venv/bin/python benchmarks/solver_reductions.py [DECK] [DEALS] [NODE_LIMIT]

Searches (without the autoplay shortcut) every deal among seeds 1..DEALS (default 300)
of the DECK-card deck (default 36) that the autoplay policy loses, which are the deals
``machfsol odds`` searches, once per search configuration:

* variant 1: the plain move-by-move search, then the token model;
* variant 2: the plain search, each reduction alone (``Reductions`` in
  machfsol.odds.solver), and all of them together, each with the stock-order test from
  the first state on; then all of them as ``machfsol odds`` runs them ("all, as the
  table": the stock-order test only after STOCK_ORDER_AFTER states).

For each it prints the verdicts (a configuration that disagrees with the plain search on
any deal is a bug and is flagged), the states searched, the CPU time, states per second
(what a state costs: the dead-end test makes each state dearer), deals per second, and
the speed-up over the plain search in CPU time (what the reduction is worth). The deck
size is chosen so that the plain search decides every deal (36 cards by default); the
node limit (default 2,000,000) only guards against runaway runs. CPU time
(``time.process_time``) keeps other jobs on a shared machine out of the figures.
docs/notes/odds-speed.md records runs.
"""

from __future__ import annotations

import platform
import sys
import time
from collections import Counter

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.cards import Card
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.odds.solver import (
    ALL_REDUCTIONS,
    EACH_REDUCTION,
    STOCK_ORDER_AFTER,
    Reductions,
    Verdict,
    search,
)

NO = Reductions.none()

#: Variant 2's configurations, by name: (reductions, states before the stock-order and
#: placement tests come in): none, each reduction alone, all; then all as the table runs
#: them.
V2_CONFIGS: dict[str, tuple[Reductions | None, int]] = {
    "plain": (None, 0),
    **{name: (reductions, 0) for name, reductions in EACH_REDUCTION.items()},
    "all, as the table": (ALL_REDUCTIONS, STOCK_ORDER_AFTER),
}


def _run(
    orders: list[tuple[int, list[Card]]],
    number: int,
    reductions: Reductions | None,
    limit: int,
    after: int = 0,
) -> tuple[list[Verdict], int, float]:
    verdicts: list[Verdict] = []
    nodes = 0
    started = time.process_time()
    for _seed, order in orders:
        if reductions is None:
            solution = search(order, number, limit, plain=True)
        elif number == 1:
            solution = search(order, number, limit)
        else:
            solution = search(order, number, limit, reductions=reductions, stock_order_after=after)
        verdicts.append(solution.verdict)
        nodes += solution.nodes
    return verdicts, nodes, time.process_time() - started


def main() -> int:
    deck = int(sys.argv[1]) if len(sys.argv) > 1 else 36
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000_000
    print(
        f"Python {platform.python_version()}; {deck}-card deals, seeds 1..{deals}, "
        f"the policy's losses only; node limit {limit}; CPU seconds"
    )
    print(
        f"{'var':>3} {'search':<22} {'deals':>5} {'states':>10} {'CPU s':>8} "
        f"{'states/s':>9} {'deals/s':>8} {'speed-up':>8}  verdicts"
    )
    bugs = 0
    for number in (1, 2):
        game = variant(number)
        orders = [
            (seed, order)
            for seed in range(1, deals + 1)
            if not play(Position(order := deal(seed, deck), game), policy_move).is_won()
        ]
        configs = V2_CONFIGS if number == 2 else {"plain": (None, 0), "token model": (NO, 0)}
        reference: list[Verdict] | None = None
        plain_cpu = 0.0
        for name, (reductions, after) in configs.items():
            verdicts, nodes, cpu = _run(orders, number, reductions, limit, after)
            if reference is None:
                reference, plain_cpu = verdicts, cpu
            disagree = [
                seed
                for (seed, _order), mine, plain in zip(orders, verdicts, reference, strict=True)
                if mine is not plain and Verdict.UNKNOWN not in (mine, plain)
            ]
            bugs += len(disagree)
            counts = Counter(v.value for v in verdicts)
            print(
                f"{number:>3} {name:<22} {len(orders):>5} {nodes:>10} {cpu:>8.2f} "
                f"{nodes / cpu if cpu else 0:>9.0f} {len(orders) / cpu if cpu else 0:>8.1f} "
                f"{plain_cpu / cpu if cpu else 0:>7.1f}x  "
                + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                + (f"  DISAGREES with plain on seeds {disagree}" if disagree else ""),
                flush=True,
            )
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
