"""The table's search against the plain search on held-out deals: a soundness check.

Usage: .venv/bin/python benchmarks/solver_heldout.py DECK FIRST-LAST [PLAIN_LIMIT] [AFTER]

For the MAChFsol 2 deals among seeds FIRST..LAST of the DECK-card deck that the autoplay
policy loses (the deals ``machfsol odds`` searches), the compiled search with every
reduction and its default node limit is compared with the plain search (no reduction,
compiled, node limit PLAIN_LIMIT, default 5,000,000). AFTER is the number of states
before the stock-order test comes in (default: the table's, ``STOCK_ORDER_AFTER``; 0
puts it on from the first state, which exercises it on small decks). Prints one line
with the deals searched, the verdicts that agree (won and lost), the deals left out
because either search reached its limit (with those where the table's search did),
and every deal whose verdicts differ (a bug: the script then exits 1).
docs/notes/odds-solver.md records the runs.
"""

from __future__ import annotations

import sys
import time

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.odds.solver import STOCK_ORDER_AFTER, Verdict, search


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    deck = int(sys.argv[1])
    first, last = (int(part) for part in sys.argv[2].split("-"))
    plain_limit = int(sys.argv[3]) if len(sys.argv) > 3 else 5_000_000
    after = int(sys.argv[4]) if len(sys.argv) > 4 else STOCK_ORDER_AFTER
    game = variant(2)
    searched = left_out = 0
    agree = {Verdict.WON: 0, Verdict.LOST: 0}
    differ: list[int] = []
    undecided: list[int] = []  # left out because the table's search reached its limit
    started = time.process_time()
    for seed in range(first, last + 1):
        order = deal(seed, deck)
        if play(Position(order, game), policy_move).is_won():
            continue
        searched += 1
        reduced = search(order, game, stock_order_after=after)
        plain = search(order, game, plain_limit, plain=True)
        if reduced.verdict is Verdict.UNKNOWN:
            undecided.append(seed)
        if Verdict.UNKNOWN in (reduced.verdict, plain.verdict):
            left_out += 1
        elif reduced.verdict is plain.verdict:
            agree[reduced.verdict] += 1
        else:
            differ.append(seed)
            print(f"seed {seed}: {reduced.verdict.value}, plain {plain.verdict.value}", flush=True)
    print(
        f"{deck} cards, seeds {first}..{last}: the policy's {searched} losses; "
        f"{agree[Verdict.WON] + agree[Verdict.LOST]} agree (won {agree[Verdict.WON]}, "
        f"lost {agree[Verdict.LOST]}), {left_out} left out at a node limit "
        f"({len(undecided)} of them the table's search's{f' {undecided}' if undecided else ''}), "
        f"{len(differ)} differ{f' {differ}' if differ else ''} "
        f"({time.process_time() - started:.0f} s CPU)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
