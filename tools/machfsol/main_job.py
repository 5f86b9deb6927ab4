"""``machfsol main``: the project's main job, from the engine to the verified disk.

It shows the engine at work (a few autoplayed deals, win rates over a small sample), then
builds the game disk and verifies both games on it in the emulator
(:func:`machfsol.atari.verify.main_job`). The one command that uses every part, so it
lives beside the command-line entry point rather than in one of the parts.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from a8.commandline import docs
from a8.emu.emulator import require_emulator
from machfsol.atari.verify import main_job
from machfsol.engine.autoplay import POLICIES, play
from machfsol.engine.deal import deal
from machfsol.engine.options import add_seeds, seeds_option
from machfsol.engine.rules import Position, variant
from machfsol.errors import UsageError

#: The deals ``machfsol main`` verifies in atari800, per variant.
MAIN_SEEDS = "1-20"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``machfsol main``."""
    main = subparsers.add_parser(
        "main",
        help="the main job: engine demo, then build and verify the game disk",
        description="The project's main job: autoplay a few deals and win rates over a "
        "sample with the engine, then build the game disk and verify both games on it "
        f"in atari800 deal by deal. See {docs('VERIFY.md')}.",
    )
    main.add_argument("--deals", type=int, default=1000, help="sample size (default 1000)")
    add_seeds(main, MAIN_SEEDS)
    main.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="DISK.ATR",
        help="game disk to write, as `machfsol build -o` (default: MACHFSOL.ATR in the "
        "current folder; atr/MACHFSOL.ATR in the top folder of a checkout of this project)",
    )
    main.set_defaults(handler=run_main)


def run_main(args: argparse.Namespace) -> int:
    """Engine demo: a few autoplayed deals, then win rates over a small sample; then the
    game disk is built and verified in the emulator (:func:`machfsol.atari.verify.main_job`)."""
    if not 1 <= args.deals <= 1_000_000:
        raise UsageError(f"--deals {args.deals} is not in 1..1000000")
    seeds = seeds_option(args.seeds)
    require_emulator()  # the job ends in the emulator: without it, exit 2 before the demo
    print("MAChFsol reference engine: autoplay demo")
    for number in (1, 2):
        game = variant(number)
        for seed in (1, 2, 3):
            position = play(Position.from_seed(seed, game))
            result = "WON " if position.is_won() else "LOST"
            print(
                f"  {game.title} seed {seed}: {result} with {position.foundation_count()} "
                f"cards on foundations after {len(position.move_stack)} moves"
            )
    for size in (52, 40):
        for number in (1, 2):
            started = time.perf_counter()
            wins = {name: 0 for name in POLICIES}
            for seed in range(1, args.deals + 1):
                order = deal(seed, size)
                for name, policy in POLICIES.items():
                    wins[name] += play(Position(order, variant(number)), policy).is_won()
            seconds = time.perf_counter() - started
            rates = ", ".join(
                f"{name} {100 * count / args.deals:.1f}%" for name, count in wins.items()
            )
            print(
                f"  variant {number}, {size} cards, seeds 1..{args.deals}: {rates} "
                f"({seconds:.1f} s)"
            )
    return main_job(seeds=seeds, disk=args.output)
