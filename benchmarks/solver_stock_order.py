"""What the stock-order test buys, and what its escalation (``STOCK_ORDER_AFTER``) saves.

Usage: .venv/bin/python benchmarks/solver_stock_order.py [DECK] [FIRST-LAST] [NODE_LIMIT]

Searches MAChFsol 2's deals among seeds FIRST..LAST (default 1001-2000) of the DECK-card
deck (default 52) that the autoplay policy loses (the deals ``machfsol odds`` searches),
with the compiled search, three ways: every reduction but the stock-order test; every
reduction as the table runs them (the stock-order test after ``STOCK_ORDER_AFTER``
states); every reduction with the stock-order test from the first state on. For each
it prints the verdicts, the states searched, the CPU time and the deals that took more
than a second; any verdict that differs between the three (a bug: each only proves
losses that are real) is flagged and makes the exit status 1. The node limit defaults
to the solver's (30,000,000). CPU time (``time.process_time``) keeps other jobs on a
shared machine out of the figures. docs/notes/odds-speed.md records a run.
"""

from __future__ import annotations

import platform
import sys
import time
from collections import Counter
from dataclasses import replace

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.odds.solver import (
    ALL_REDUCTIONS,
    STOCK_ORDER_AFTER,
    Verdict,
    default_node_limit,
    search,
)

#: Name: (reductions, states searched before the stock-order test comes in).
CONFIGS = {
    "without stock order": (replace(ALL_REDUCTIONS, stock_order=False), 0),
    f"after {STOCK_ORDER_AFTER:,} states": (ALL_REDUCTIONS, STOCK_ORDER_AFTER),
    "from the first state": (ALL_REDUCTIONS, 0),
}


def main() -> int:
    deck = int(sys.argv[1]) if len(sys.argv) > 1 else 52
    first, last = (int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "1001-2000").split("-"))
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else default_node_limit(2)
    game = variant(2)
    orders = [
        (seed, order)
        for seed in range(first, last + 1)
        if not play(Position(order := deal(seed, deck), game), policy_move).is_won()
    ]
    print(
        f"Python {platform.python_version()}; MAChFsol 2, {deck}-card deals, seeds "
        f"{first}..{last}, the policy's {len(orders)} losses; node limit {limit}; CPU seconds"
    )
    reference: list[Verdict] | None = None
    bugs = 0
    for name, (reductions, after) in CONFIGS.items():
        verdicts: list[Verdict] = []
        states = 0
        slow: list[str] = []
        started = time.process_time()
        for seed, order in orders:
            began = time.process_time()
            solution = search(
                order, 2, limit, reductions=reductions, compiled=True, stock_order_after=after
            )
            took = time.process_time() - began
            verdicts.append(solution.verdict)
            states += solution.nodes
            if took > 1:
                slow.append(f"{seed} {solution.verdict.value} {solution.nodes} {took:.1f}s")
        cpu = time.process_time() - started
        if reference is None:
            reference = verdicts
        differ = [
            seed
            for (seed, _order), mine, theirs in zip(orders, verdicts, reference, strict=True)
            if mine is not theirs and Verdict.UNKNOWN not in (mine, theirs)
        ]
        bugs += len(differ)
        counts = Counter(v.value for v in verdicts)
        print(
            f"{name:<24} states {states:>11}  CPU {cpu:7.1f} s  "
            + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + (f"  VERDICTS DIFFER on seeds {differ}" if differ else ""),
            flush=True,
        )
        print(f"{'':<24} over a second: {'; '.join(slow) or 'none'}", flush=True)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
