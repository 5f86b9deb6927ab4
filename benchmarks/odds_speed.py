"""How long the full odds table takes: a timed sample of every row, extrapolated.

Usage: .venv/bin/python benchmarks/odds_speed.py [AUTO_DEALS] [SOLVER_DEALS] [STUDY_DEALS]

The full table of docs/ODDS.md (``machfsol odds --deals 100000 --solver-deals 10000``)
has 18 rows (two variants, nine deck sizes); each row plays 100,000 deals with the
autoplay policy and one redeal, and solves the first 10,000 (the search only for the
policy's losses, with the default node limits). Running it to measure a change takes
many minutes, so this script times, for every row, the same work on a sample: autoplay
and redeal on seeds 1..AUTO_DEALS (default 5,000), then the solver's extra work on seeds
1..SOLVER_DEALS (default 500, the first deals of the table's own solver range). It
prints the CPU seconds per row and the extrapolation

    row = auto_time * 100,000 / AUTO_DEALS + solver_time * 10,000 / SOLVER_DEALS

and their sum, the CPU time of the whole table. With ``--jobs 2`` on two idle cores the
wall time is at best half of that (the chunks are small, so the two workers stay busy
to the end). The extrapolation assumes the sampled deals are typical of the whole range;
the solver's time is dominated by deals that reach the node limit, whose share varies
from sample to sample. CPU time (``time.process_time``) keeps other jobs on a shared
machine out of the figures. Run it on two versions of the code to compare them.

It then extrapolates the same samples to a study of STUDY_DEALS deals per row (default
10,000,000), with the solver on all of them and on a tenth, in CPU hours, and in wall
hours on a cluster of 2, 32 and 128 cores (``machfsol odds --cluster``: the chunks are
small and independent, so the work divides evenly over the workers).
"""

from __future__ import annotations

import platform
import sys
import time

from machfsol.engine.cards import DECK_SIZES
from machfsol.odds.study import Job, run_job

TABLE_AUTO_DEALS = 100_000
TABLE_SOLVER_DEALS = 10_000


def _cpu(job: Job) -> float:
    started = time.process_time()
    run_job(job)
    return time.process_time() - started


def main() -> int:
    auto_deals = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    solver_deals = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    print(
        f"Python {platform.python_version()}; samples: autoplay+redeal seeds 1..{auto_deals}, "
        f"solver seeds 1..{solver_deals}; CPU seconds"
    )
    print("var deck   auto sample  solver sample   row (extrapolated)")
    study = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000_000
    total = 0.0
    auto_per_deal = solver_per_deal = 0.0  # CPU s per deal, summed over the 18 rows
    for number in (1, 2):
        for deck in sorted(DECK_SIZES, reverse=True):
            auto = _cpu(Job(number, deck, 1, auto_deals, 1, None))
            both = _cpu(Job(number, deck, 1, solver_deals, 1 + solver_deals, None))
            # The solver's own share: its sample minus what autoplay and redeal cost there.
            solver = max(0.0, both - auto * solver_deals / auto_deals)
            row = auto * TABLE_AUTO_DEALS / auto_deals + solver * TABLE_SOLVER_DEALS / solver_deals
            total += row
            auto_per_deal += auto / auto_deals
            solver_per_deal += solver / solver_deals
            print(f"{number:>3} {deck:>4} {auto:12.2f} {solver:14.2f} {row:20.1f}", flush=True)
    print(
        f"full table, extrapolated: {total:.0f} CPU s = {total / 60:.1f} CPU min; "
        f"with --jobs 2 on 2 idle cores about {total / 120:.1f} min wall"
    )
    for solved in (study, study // 10):
        cpu = (auto_per_deal * study + solver_per_deal * solved) / 3600
        walls = ", ".join(f"{cores} cores {cpu / cores:.1f} h" for cores in (2, 32, 128))
        print(
            f"study of {study} deals per row, solver on {solved}: {cpu:.0f} CPU hours "
            f"(autoplay and redeal {auto_per_deal * study / 3600:.0f}); wall: {walls}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
