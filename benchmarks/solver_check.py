"""The solver's search is never weaker than the autoplay policy: a soundness check.

Usage: .venv/bin/python benchmarks/solver_check.py [DEALS] [NODE_LIMIT] [VARIANT] [DECK]

``solve`` returns the policy's own line whenever the policy wins, so it can never be
weaker by construction; this script checks the *search* itself, which the solver uses
for everything else. For each variant and deck size it searches (without the policy
shortcut) every deal of seeds 1..DEALS that the policy wins: the search must find a
win (or run out of nodes: UNKNOWN); a LOST there would be a proof that a won deal is
lost, i.e. a bug in a search reduction, and the script exits 1 naming the deal. Every
line the search finds is replayed on the engine (``search`` raises SolverBug if it does
not win). Results are recorded in docs/ODDS.md.
"""

from __future__ import annotations

import sys
from collections import Counter

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.odds.solver import Verdict, search


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    node_limit = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    variants = [int(sys.argv[3])] if len(sys.argv) > 3 else [1, 2]
    decks = [int(sys.argv[4])] if len(sys.argv) > 4 else list(DECK_SIZES)
    failures = 0
    for number in variants:
        game = variant(number)
        for deck in decks:
            counts: Counter[str] = Counter()
            for seed in range(1, deals + 1):
                order = deal(seed, deck)
                if not play(Position(order, game), policy_move).is_won():
                    continue
                verdict = search(order, game, node_limit).verdict
                counts[verdict.value] += 1
                if verdict is Verdict.LOST:
                    failures += 1
                    print(
                        f"BUG: variant {number} deck {deck} seed {seed}: autoplay wins, "
                        "the search says lost",
                        flush=True,
                    )
            print(
                f"variant {number} deck {deck}: {sum(counts.values())} autoplay wins of "
                f"{deals} deals; search: "
                + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
                flush=True,
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
