"""Win rates of the autoplay policy and of plain greedy over the same deals.

Usage: .venv/bin/python benchmarks/autoplay_win_rates.py [DEALS]

For each variant and for 52- and 40-card decks, plays seeds 1..DEALS (default
10000) with both policies and prints the win rates, and how many deals only one of
them wins. docs/ENGINE.md records the figures.
"""

from __future__ import annotations

import sys

from machfsol.engine.autoplay import greedy_raw_move, play, policy_move
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    print(f"seeds 1..{deals}")
    for size in (52, 40):
        for number in (1, 2):
            game = variant(number)
            auto_only = greedy_only = auto_wins = greedy_wins = 0
            for seed in range(1, deals + 1):
                order = deal(seed, size)
                auto = play(Position(order, game), policy_move).is_won()
                greedy = play(Position(order, game), greedy_raw_move).is_won()
                auto_wins += auto
                greedy_wins += greedy
                auto_only += auto and not greedy
                greedy_only += greedy and not auto
            print(
                f"variant {number}, {size} cards: autoplay {100 * auto_wins / deals:5.2f}%, "
                f"greedy {100 * greedy_wins / deals:5.2f}% "
                f"(only autoplay wins {auto_only}, only greedy wins {greedy_only})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
