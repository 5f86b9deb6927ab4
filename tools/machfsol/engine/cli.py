"""Sub-commands of ``machfsol`` for the engine: deal, autoplay and check.

Thin on purpose: each handler parses its arguments and calls the engine modules
(deal, rules, autoplay, transcript, checker), where the behaviour is documented.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from a8.commandline import docs, warn
from a8.errors import A8Error
from a8.reading import read_input, shown_name
from machfsol.engine.autoplay import POLICIES, play
from machfsol.engine.checker import check_bytes
from machfsol.engine.options import add_deal, add_variant, chosen_deal
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import LARGEST_TRANSCRIPT, Player, of_game
from machfsol.errors import MachfsolError


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the engine's sub-commands."""
    deal_parser = subparsers.add_parser(
        "deal",
        help="print the dealt order of a deal",
        description="Print the cards of a deal in the order they are dealt, as card codes "
        f"(AS 7H ...), the same order the Atari programs deal. See {docs('RULES.md')}.",
    )
    add_deal(deal_parser)
    deal_parser.set_defaults(handler=run_deal)

    auto = subparsers.add_parser(
        "autoplay",
        help="autoplay a deal, print its transcript",
        description="Play a deal with the autoplay policy (the one the Atari programs play "
        f"in test mode) and print the game as a transcript. See {docs('TRANSCRIPT.md')}.",
    )
    add_variant(auto, many_deals=False)
    add_deal(auto)
    auto.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="auto",
        help="auto: the documented policy (default); greedy: play everything at once",
    )
    auto.set_defaults(handler=run_autoplay)

    check = subparsers.add_parser(
        "check",
        help="replay transcripts on the engine",
        description="Replay each transcript on the engine, move by move, and say whether "
        "it is a legal game with the result it claims, or the first line where it is not "
        f"(exit 1 then). See {docs('TRANSCRIPT.md')}.",
    )
    check.add_argument(
        "files", nargs="+", metavar="FILE", help="a transcript file; - for standard input"
    )
    check.set_defaults(handler=run_check)


def run_deal(args: argparse.Namespace) -> int:
    order, _seed = chosen_deal(args)
    print(" ".join(card.code for card in order))
    return 0


def run_autoplay(args: argparse.Namespace) -> int:
    order, seed = chosen_deal(args)
    position = play(Position(order, variant(int(args.variant))), POLICIES[args.policy])
    sys.stdout.write(of_game(position, seed=seed, player=Player(args.policy.upper())))
    return 0


def run_check(args: argparse.Namespace) -> int:
    failed = 0
    for source in args.files:
        name = shown_name(source)
        try:
            data = read_input(source, LARGEST_TRANSCRIPT, "any transcript")
            report = check_bytes(data, name)
        except (MachfsolError, A8Error) as error:  # unreadable, CheckError, TranscriptError
            warn(f"machfsol: {error}")
            failed += 1
            continue
        print(report.summary())
    return 1 if failed else 0
