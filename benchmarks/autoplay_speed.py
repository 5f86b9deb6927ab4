"""Autoplay speed of the reference engine: games per second for 52-card deals.

Usage: .venv/bin/python benchmarks/autoplay_speed.py [DEALS]

Plays seeds 1..DEALS (default 5000) of each variant with the autoplay policy and with
plain greedy, on one core, and prints games per second (deal + play; the deals are
made inside the timing too, as a user of the engine would) and the mean number of moves
a game (what an Atari port pays one decision each for). It measures the process's
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


def measure(number: int, policy: str, deals: int) -> tuple[float, float]:
    """Games per second, and the mean number of moves (decisions) a game."""
    game = variant(number)
    chooser = POLICIES[policy]
    moves = 0
    started = time.process_time()
    for seed in range(1, deals + 1):
        moves += len(play(Position(deal(seed, 52), game), chooser).move_stack)
    return deals / (time.process_time() - started), moves / deals


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print(f"Python {platform.python_version()} on {platform.machine()}, {deals} 52-card deals each")
    for number in (1, 2):
        for policy in ("auto", "greedy"):
            rate, moves = measure(number, policy, deals)
            print(f"variant {number} {policy:6}: {rate:7.0f} games/s, {moves:5.1f} moves a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
