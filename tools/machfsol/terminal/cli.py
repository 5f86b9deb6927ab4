"""``machfsol play``: the terminal game's command line.

The handler sets up the first deal from the arguments and hands the terminal to a
:class:`machfsol.terminal.play.Session`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from machfsol.engine.cards import Deck
from machfsol.engine.deal import deal, parse_order, parse_seed
from machfsol.engine.rules import variant
from machfsol.errors import UsageError
from machfsol.terminal.play import Session, TerminalError, random_seed
from machfsol.terminal.table_view import (
    CardFace,
    Style,
    can_show_symbols,
    is_ansi_terminal,
    wants_colour,
)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``machfsol play``."""
    parser = subparsers.add_parser("play", help="play a game in the terminal")
    parser.add_argument("--variant", type=int, choices=(1, 2), default=1, help="1 (default) or 2")
    parser.add_argument("--seed", help="deal number, 1..2147483646 (default: random, shown)")
    parser.add_argument("--order", help='explicit dealing order, e.g. "AS 7H ..."')
    parser.add_argument("--deck", type=int, help="deck size: 52 (default), 48, ..., 20")
    parser.add_argument(
        "--style",
        choices=[style.value for style in Style],
        default=Style.FRENCH.value,
        help="french: rank and suit symbol (default); spanish: 7 cups, sota coins, rey swords",
    )
    parser.add_argument(
        "--transcript", metavar="FILE", help="save the game as a transcript (PLAYER HUMAN)"
    )
    parser.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Set up the first deal from the arguments, then play until quit or end of input."""
    if args.seed is not None and args.order is not None:
        raise UsageError("give at most one of --seed and --order")
    if args.transcript is not None and not args.transcript.strip():
        raise UsageError("--transcript needs a file name")
    if sys.stdin is None or sys.stdout is None:  # started with <&- or >&-
        raise UsageError("play needs a standard input and a standard output")
    if args.order is not None:
        order = parse_order(args.order, args.deck)
        seed = None
    else:
        size = 52 if args.deck is None else args.deck
        Deck(size)
        seed = random_seed() if args.seed is None else parse_seed(args.seed)
        order = deal(seed, size)
    face = CardFace(Style(args.style), wants_colour(sys.stdout), can_show_symbols(sys.stdout))
    transcript = None if args.transcript is None else Path(args.transcript)
    session = Session(
        variant(args.variant), face, sys.stdout, transcript, clear=is_ansi_terminal(sys.stdout)
    )
    try:
        session.start(order, seed)
        return session.run(input)
    except BrokenPipeError:
        raise  # the reader went away (e.g. "| head"): the command line ends quietly
    except OSError as error:  # a full disk behind stdout, a terminal hung up ...
        raise TerminalError(f"standard input/output: {error.strerror or error}") from None
