"""Autoplay speed of the reference engine: games per second for 52-card deals.

Usage: .venv/bin/python benchmarks/autoplay_speed.py [DEALS]

Plays seeds 1..DEALS (default 5000) of each variant with the autoplay policy and with
plain greedy, on one core, and prints games per second (deal + play; the deals are
made inside the timing too, as a user of the engine would). It measures the process's
CPU time, so that other jobs on a shared machine disturb the figure less. The target is
at least 2,000 autoplay games per second; docs/ENGINE.md records the measured figures.
"""

from __future__ import annotations

import platform
import sys
import time

from machfsol.autoplay import POLICIES, play
from machfsol.deal import deal
from machfsol.rules import Position, variant


def games_per_second(number: int, policy: str, deals: int) -> float:
    game = variant(number)
    chooser = POLICIES[policy]
    started = time.process_time()
    for seed in range(1, deals + 1):
        play(Position(deal(seed, 52), game), chooser)
    return deals / (time.process_time() - started)


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print(f"Python {platform.python_version()} on {platform.machine()}, {deals} deals each")
    for number in (1, 2):
        for policy in ("auto", "greedy"):
            rate = games_per_second(number, policy, deals)
            print(f"variant {number} {policy:6}: {rate:7.0f} games/s (52 cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
