"""Solver speed: time per 52-card deal (median and 99th percentile), per variant.

Usage: .venv/bin/python benchmarks/solver_speed.py [DEALS] [NODE_LIMIT]

The node limits default to the solver's defaults, which docs/ODDS.md's table used:
200,000 states per deal in variant 1 (never reached there), 30,000,000 in variant 2;
NODE_LIMIT sets both.

Solves seeds 1..DEALS (default 500) of the 52-card deck in each variant the way
``machfsol odds`` does (the autoplay policy first, the search only for its losses) and
prints the median, 99th-percentile and maximum CPU time per deal, and the verdicts.
CPU time (``time.process_time``) keeps other jobs on a shared machine from inflating
the figures. docs/notes/odds-speed.md records the measured figures and the full table's
wall time.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections import Counter

from machfsol.engine.deal import deal
from machfsol.odds.solver import DEFAULT_NODE_LIMITS, solve

#: The node limits of docs/ODDS.md's table, per variant: the solver's defaults.
TABLE_NODE_LIMITS = dict(DEFAULT_NODE_LIMITS)


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    limits = dict(TABLE_NODE_LIMITS)
    if len(sys.argv) > 2:
        limits = {number: int(sys.argv[2]) for number in limits}
    print(f"Python {platform.python_version()}, {deals} 52-card deals, node limits {limits}")
    for number in (1, 2):
        node_limit = limits[number]
        times: list[float] = []
        verdicts: Counter[str] = Counter()
        for seed in range(1, deals + 1):
            order = deal(seed, 52)
            started = time.process_time()
            solution = solve(order, number, node_limit)
            times.append(time.process_time() - started)
            verdicts[solution.verdict.value] += 1
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"variant {number}: median {1000 * statistics.median(times):7.1f} ms, "
            f"p99 {1000 * p99:7.1f} ms, max {1000 * times[-1]:7.1f} ms, "
            f"total {sum(times):6.1f} s; "
            + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
