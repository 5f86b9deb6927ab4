"""Speed and memory of the Atari BASIC games, read from their own test-mode transcripts.

Usage: .venv/bin/python benchmarks/basic_game_speed.py [DEALS] [DECK]

Runs MACHFSOL.1 and MACHFSOL.2 (tokenized by a8.basic, as on the game disk) in atari800
with its built-in Altirra OS and Altirra BASIC, NTSC, on seeds 1..DEALS (default 20) of
DECK cards (default 52). Every transcript is checked with the engine's checker first; the
figures are the jiffies (1/60 s) the program itself read from RTCLOK:

- SHUFFLE: Park-Miller + Fisher-Yates, 51 exact-integer steps for 52 cards;
- DEAL: SHUFFLE plus laying out the tableau with its forced steps (the transcript's
  header and the deal's transcript lines are written outside this timing);
- GAME: DEAL plus the autoplayed game, transcript lines included.

It also prints FRE(0) at the end of the run (the program with its arrays dimensioned),
without DOS (MEMLO $0700) and measured again with MEMLO raised to DOS 2.5's bound
before the program is loaded (see docs/GAME.md, "Memory"). The
targets (issue 5): DEAL <= 120 jiffies, median GAME <= 900 jiffies (15 s), and at least
4 KB free with DOS 2.5. docs/GAME.md records the figures.
"""

from __future__ import annotations

import statistics
import sys

from machfsol.atari.test_mode import DOS25_MEMLO_BOUND, run_test_mode
from machfsol.engine.checker import check_bytes
from machfsol.engine.transcript import parse

#: Jiffies allowed for shuffling and dealing 52 cards (issue 5).
DEAL_TARGET = 120


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    deck = int(sys.argv[2]) if len(sys.argv) > 2 else 52
    seeds = list(range(1, deals + 1))
    print(f"{deals} deals of {deck} cards, atari800 NTSC, Altirra OS + Altirra BASIC")
    for variant in (1, 2):
        run = run_test_mode(variant, deck, seeds, tokenized=True)
        timings = []
        wins = 0
        for seed, data in zip(seeds, run.transcripts, strict=True):
            report = check_bytes(data, f"MACHFSOL.{variant} seed {seed}")
            wins += report.outcome.value == "WON"
            timings.append(dict(parse(data).jiffies))
        shuffle = [t["SHUFFLE"] for t in timings]
        deal = [t["DEAL"] for t in timings]
        game = [t["GAME"] for t in timings]
        print(
            f"MACHFSOL.{variant}: all {deals} transcripts pass machfsol check ({wins} won); "
            f"jiffies: shuffle median {statistics.median(shuffle)} max {max(shuffle)}, "
            f"deal median {statistics.median(deal)} max {max(deal)} "
            f"({sum(d > DEAL_TARGET for d in deal)} over {DEAL_TARGET}), "
            f"game median {statistics.median(game)} ({statistics.median(game) / 60:.1f} s) "
            f"max {max(game)}"
        )
        with_dos = run_test_mode(variant, deck, seeds[:1], tokenized=True, memlo=DOS25_MEMLO_BOUND)
        print(
            f"MACHFSOL.{variant}: FRE(0) {run.free_bytes} with MEMLO ${run.memlo:04X} (no DOS); "
            f"{with_dos.free_bytes} with MEMLO ${with_dos.memlo:04X} (DOS 2.5 reserved)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
