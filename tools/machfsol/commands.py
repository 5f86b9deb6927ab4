"""Sub-commands of ``machfsol`` for the engine: deal, autoplay, check and main.

Thin on purpose: each handler parses its arguments and calls the engine modules
(deal, rules, autoplay, transcript, checker), where the behaviour is documented.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from machfsol.autoplay import POLICIES, play
from machfsol.cards import Card, Deck
from machfsol.checker import check_bytes
from machfsol.deal import deal, parse_order, parse_seed
from machfsol.errors import MachfsolError, UsageError
from machfsol.rules import Position, variant
from machfsol.transcript import Player, of_game


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the engine's sub-commands."""
    deal_parser = subparsers.add_parser("deal", help="print the dealt order of a deal")
    _add_deal_arguments(deal_parser)
    deal_parser.set_defaults(handler=run_deal)

    auto = subparsers.add_parser("autoplay", help="autoplay a deal, print its transcript")
    auto.add_argument("--variant", type=int, choices=(1, 2), required=True)
    _add_deal_arguments(auto)
    auto.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="auto",
        help="auto: the documented policy (default); greedy: play everything at once",
    )
    auto.set_defaults(handler=run_autoplay)

    check = subparsers.add_parser("check", help="replay transcripts on the engine")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=run_check)

    main = subparsers.add_parser(
        "main", help="the main job: engine demo, then build and verify atr/MACHFSOL.ATR"
    )
    main.add_argument("--deals", type=int, default=1000, help="sample size (default 1000)")
    main.add_argument(
        "--seeds", type=int, default=20, help="deals verified per variant in atari800 (default 20)"
    )
    main.set_defaults(handler=run_main)


def _add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", help="deal number, 1..2147483646")
    parser.add_argument("--deck", type=int, help="deck size: 52 (default), 48, ..., 20")
    parser.add_argument("--order", help='explicit dealing order, e.g. "AS 7H ..."')


def _dealt(args: argparse.Namespace) -> tuple[tuple[Card, ...], int | None]:
    """The dealing order the arguments ask for, and its seed (None for --order)."""
    if (args.seed is None) == (args.order is None):
        raise UsageError("give exactly one of --seed and --order")
    if args.order is not None:
        return parse_order(args.order, args.deck), None
    size = 52 if args.deck is None else args.deck
    Deck(size)
    seed = parse_seed(args.seed)
    return deal(seed, size), seed


def run_deal(args: argparse.Namespace) -> int:
    order, _seed = _dealt(args)
    print(" ".join(card.code for card in order))
    return 0


def run_autoplay(args: argparse.Namespace) -> int:
    order, seed = _dealt(args)
    position = play(Position(order, variant(args.variant)), POLICIES[args.policy])
    sys.stdout.write(of_game(position, seed=seed, player=Player(args.policy.upper())))
    return 0


def run_check(args: argparse.Namespace) -> int:
    failed = 0
    for name in args.files:
        try:
            data = Path(name).read_bytes()
        except OSError as error:
            print(f"machfsol: {name}: cannot read: {error.strerror}", file=sys.stderr)
            failed += 1
            continue
        try:
            report = check_bytes(data, name)
        except MachfsolError as error:  # CheckError, TranscriptError
            print(f"machfsol: {error}", file=sys.stderr)
            failed += 1
            continue
        print(report.summary())
    return 1 if failed else 0


def run_main(args: argparse.Namespace) -> int:
    """Engine demo: a few autoplayed deals, then win rates over a small sample; then the
    game disk is built and verified in the emulator (:func:`machfsol.verify.main_job`)."""
    if not 1 <= args.deals <= 1_000_000:
        raise UsageError(f"--deals {args.deals} is not in 1..1000000")
    if not 1 <= args.seeds <= 10_000:
        raise UsageError(f"--seeds {args.seeds} is not in 1..10000")
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
    from machfsol.verify import main_job  # the emulator harness, only needed here

    return main_job(seeds=args.seeds)
