"""Speed and memory of the Atari BASIC games, read from their own test-mode transcripts.

Usage: .venv/bin/python benchmarks/basic_game_speed.py [DEALS] [DECK]

Runs MACHFSOL.1 and MACHFSOL.2 (tokenized by a8.basic, as on the game disk) in atari800
with its built-in Altirra OS and Altirra BASIC, NTSC, on seeds 1..DEALS (default 20) of
DECK cards (default 52), each played straight through the player's keys by the test
mode (:mod:`machfsol.atari.test_player`). Every transcript is checked with the
engine's checker first; the figures are the jiffies (1/60 s) the program itself read
from RTCLOK, the game's own time (from a step's last key to the game's next GET):

- DEAL: N, the digits and RETURN: the shuffle, the lay-out with its forced steps and
  the table drawn (every deal but a boot's first, played on the table the game starts
  with);
- GAME: DEAL plus every move typed, each shown on the screen.

It also prints FRE(0) with the program set up (every array and string dimensioned),
what a player has free: without DOS (MEMLO $0700) and measured again with MEMLO raised
to DOS 2.5's $1C6C before the program is loaded (see docs/GAME.md, "Memory"). The
targets: DEAL <= 120 jiffies and at least 5,000 bytes free with DOS 2.5.
docs/GAME.md records the figures.
"""

from __future__ import annotations

import statistics
import sys

from machfsol.atari.test_mode import DOS25_MEMLO, run_deals
from machfsol.atari.test_player import Deal
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
        run = run_deals(variant, [Deal(deck, seed) for seed in seeds], tokenized=True)
        timings = []
        wins = 0
        for seed, data in zip(seeds, run.transcripts, strict=True):
            report = check_bytes(data, f"MACHFSOL.{variant} seed {seed}")
            wins += report.outcome.value == "WON"
            timings.append(dict(parse(data).jiffies))
        # the boot's first deal is the table the game starts with: no deal step, no DEAL
        deal = [t["DEAL"] for t in timings if "DEAL" in t]
        game = [t["GAME"] for t in timings]
        print(
            f"MACHFSOL.{variant}: all {deals} transcripts pass machfsol check ({wins} won); "
            f"jiffies: deal median {statistics.median(deal)} max {max(deal)} "
            f"({sum(d > DEAL_TARGET for d in deal)} over {DEAL_TARGET}), "
            f"game median {statistics.median(game)} ({statistics.median(game) / 60:.1f} s) "
            f"max {max(game)}"
        )
        first = [Deal(deck, seeds[0])]
        with_dos = run_deals(variant, first, tokenized=True, memlo=DOS25_MEMLO)
        print(
            f"MACHFSOL.{variant}: FRE(0) {run.free_bytes} with MEMLO ${run.memlo:04X} (no DOS); "
            f"{with_dos.free_bytes} with MEMLO ${with_dos.memlo:04X} (DOS 2.5 reserved)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
