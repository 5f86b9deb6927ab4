"""Autoplay speed of the reference engine: games per second for 52-card deals.

Usage: .venv/bin/python benchmarks/autoplay_speed.py [DEALS [ROUNDS]]

Plays seeds 1..DEALS (default 5000) of each variant with the autoplay policy and with
plain greedy, on one core, and prints games per second (deal + play; the deals are
made inside the timing too, as a user of the engine would) and the mean number of moves
a game (what an Atari port pays one decision each for). It measures the process's
CPU time, so that other jobs on a shared machine disturb the figure less, and plays the
deals in ROUNDS rounds (default 3), giving the fastest: on a machine whose other core
is busy the slow rounds measure the neighbours, not the engine (timeit's advice too).
The target is at least 2,000 autoplay games per second; docs/ENGINE.md records the
measured figures.
"""

from __future__ import annotations

import platform
import sys
import time

from machfsol.engine.autoplay import POLICIES, play
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant


def games_per_second(number: int, policy: str, deals: int) -> float:
    game = variant(number)
    chooser = POLICIES[policy]
    started = time.process_time()
    for seed in range(1, deals + 1):
        play(Position(deal(seed, 52), game), chooser)
    return deals / (time.process_time() - started)


def moves_a_game(number: int, policy: str, deals: int) -> float:
    """The mean number of moves (decisions) a game; counted outside the timing, since
    ``move_stack`` builds Move values that the games themselves never need."""
    game = variant(number)
    chooser = POLICIES[policy]
    total = sum(
        len(play(Position(deal(seed, 52), game), chooser).move_stack)
        for seed in range(1, deals + 1)
    )
    return total / deals


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{deals} 52-card deals each, fastest of {rounds} rounds"
    )
    for number in (1, 2):
        for policy in ("auto", "greedy"):
            runs = [games_per_second(number, policy, deals) for _ in range(rounds)]
            rate, slowest = max(runs), min(runs)
            moves = moves_a_game(number, policy, deals)
            print(
                f"variant {number} {policy:6}: {rate:5.0f} games/s (slowest round {slowest:4.0f}), "
                f"{moves:4.1f} moves a game"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
