"""How the autoplay policy's settings were chosen: win rates of its variations.

Usage: .venv/bin/python benchmarks/autoplay_tuning.py [DEALS]

Plays seeds 1..DEALS (default 3000) of 52-card deals in both variants with plain
greedy and with the rescue policy at every rescue distance 1..3 and bonus 0..2,
without and with its "dig" rule, and prints the win rates. docs/notes/autoplay-policy.md
quotes the output ("How the policy was chosen").
"""

from __future__ import annotations

import sys

from machfsol.engine.autoplay import RawPolicy, RescuePolicy, greedy_raw_move, play
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant


def win_rate(policy: RawPolicy, number: int, deals: int) -> float:
    game = variant(number)
    wins = sum(
        play(Position(deal(seed, 52), game), policy).is_won() for seed in range(1, deals + 1)
    )
    return 100 * wins / deals


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    print(f"seeds 1..{deals}, 52 cards: win rate in variant 1 / variant 2")
    candidates: list[tuple[str, RawPolicy]] = [("greedy", greedy_raw_move)]
    for dig in (False, True):
        for distance in (1, 2, 3):
            for bonus in (0, 1, 2):
                policy = RescuePolicy(rescue_distance=distance, bonus_with_two=bonus, dig=dig)
                chosen = " (the policy)" if policy == RescuePolicy() else ""
                name = f"distance {distance} bonus {bonus}, {'dig' if dig else 'no dig'}{chosen}"
                candidates.append((name, policy))
    for name, policy in candidates:
        rates = [win_rate(policy, number, deals) for number in (1, 2)]
        print(f"{name:45}: {rates[0]:5.2f}% / {rates[1]:5.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
