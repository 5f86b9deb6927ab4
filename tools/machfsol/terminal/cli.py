"""``machfsol play``: the terminal game's command line.

The handler sets up the first deal from the arguments and chooses the game's form:

- the full-screen game (machfsol.terminal.full_screen, run by curses_ui) when standard
  input and output are both a terminal that can address its cursor;
- the line game (machfsol.terminal.play) with ``--plain``, or when neither is a
  terminal (a script, a pipe, a test): the same commands as ever, silently;
- the line game with a one-line note on standard error when only one of the two is a
  terminal (``machfsol play | tee game.log``) or the terminal cannot do full screen
  (``TERM=dumb``, or no terminfo entry for TERM): the person there learns why.

Both games keep the player's statistics and the game in progress in the platform's
state folder (machfsol.terminal.statistics.state_folder), offer the kept game at the
start, and go on with a saved game with ``--load FILE``. The solver that answers "can
this deal still be won?" comes from the command-line wiring (machfsol.cli), as
``args.solver``: the terminal part does not import the odds part.
"""

from __future__ import annotations

import argparse
import curses
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from a8.commandline import docs
from machfsol.engine.cards import Card
from machfsol.engine.options import add_deal, add_variant, chosen_deal
from machfsol.engine.rules import variant
from machfsol.errors import UsageError
from machfsol.terminal import curses_ui
from machfsol.terminal.full_screen import FullScreenGame
from machfsol.terminal.game import Sitting, random_seed
from machfsol.terminal.kept_game import KeptGame, SavedGame, load
from machfsol.terminal.play import Session, TerminalError, farewell
from machfsol.terminal.solver_question import DEFAULT_SECONDS, Solver
from machfsol.terminal.statistics import Statistics, state_folder
from machfsol.terminal.table_view import (
    CardFace,
    Style,
    can_show_symbols,
    is_ansi_terminal,
    wants_colour,
)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``machfsol play``."""
    parser = subparsers.add_parser(
        "play",
        help="play full screen in the terminal (--plain: one typed command a line)",
        description="Play MAChFsol 1 or 2 in the terminal: full screen with the Atari "
        "game's keys, or one typed command a line (--plain, and whenever standard input "
        "or output is not a terminal: screen readers, pipes, scripts). Ctrl-C quits. See "
        f"{docs('PLAY.md')}.",
    )
    add_variant(parser, many_deals=False)
    add_deal(parser, random_seed=True)
    parser.add_argument(
        "--style",
        choices=[style.value for style in Style],
        default=Style.FRENCH.value,
        help="french: rank and suit symbol (default); spanish: 7 cups, sota coins, rey swords",
    )
    parser.add_argument(
        "--transcript", metavar="FILE", help="save the game as a transcript (PLAYER HUMAN)"
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: one typed command a line (screen readers, pipes, scripts)",
    )
    parser.add_argument(
        "--solver-seconds",
        type=float,
        default=DEFAULT_SECONDS,
        metavar="S",
        help=f'how long "can this deal still be won?" may think (default {DEFAULT_SECONDS:g})',
    )
    parser.add_argument(
        "--load",
        metavar="FILE",
        help="go on with a game saved with S or save (a transcript; its variant and deck)",
    )
    parser.set_defaults(handler=run_play, solver=None)


def run_play(args: argparse.Namespace) -> int:
    """Set up the first deal from the arguments, then play until quit or end of input."""
    if args.seed is not None and args.order is not None:
        raise UsageError("give at most one of --seed and --order")
    if args.transcript is not None and not args.transcript.strip():
        raise UsageError("--transcript needs a file name")
    if args.transcript == "-":
        raise UsageError("--transcript -: the game itself is on standard output; give a file")
    if sys.stdin is None or sys.stdout is None:  # started with <&- or >&-
        raise UsageError("play needs a standard input and a standard output")
    if not 0 < args.solver_seconds <= 3600:
        raise UsageError("--solver-seconds: give a number of seconds from 0 to 3600")
    if args.load is not None and (args.seed, args.order, args.deck) != (None, None, None):
        raise UsageError("--load plays the saved game's deal: give no --seed, --order or --deck")
    saved = None if args.load is None else load(Path(args.load))
    order, seed = chosen_deal(args, random_seed=random_seed)
    game = variant(int(args.variant))
    face = CardFace(Style(args.style), wants_colour(sys.stdout), can_show_symbols(sys.stdout))
    transcript = None if args.transcript is None else Path(args.transcript)
    folder = state_folder()
    kept = KeptGame(folder)
    sitting = Sitting(game, face, transcript, statistics=Statistics(folder), kept=kept)
    sitting.offered = kept.read()
    solver: Solver | None = args.solver
    if not args.plain:
        why_not = full_screen_refusal(sys.stdin, sys.stdout)
        if why_not is None:
            return run_full_screen(
                sitting, order, seed, saved, args.load, solver, args.solver_seconds
            )
        if why_not:
            print(f"machfsol: {why_not}: playing in line mode (as with --plain)", file=sys.stderr)
    clear = is_ansi_terminal(sys.stdout)
    session = Session(
        game,
        face,
        sys.stdout,
        sitting=sitting,
        clear=clear,
        solver=solver,
        solver_seconds=args.solver_seconds,
    )
    try:
        if saved is None:
            session.start(order, seed)
        else:
            sitting.new_deal(order, seed)
            sitting.go_on_with(saved)
            sitting.save()
            session.begin(f"Loaded {args.load}: {saved.describe()}.")
        return session.run(input)
    except BrokenPipeError:
        raise  # the reader went away (e.g. "| head"): the command line ends quietly
    except OSError as error:  # a full disk behind stdout, a terminal hung up ...
        raise TerminalError(f"standard input/output: {error.strerror or error}") from None


def full_screen_refusal(stdin: TextIO, stdout: TextIO) -> str | None:
    """Why the full-screen game cannot run here: None if it can, "" when neither
    stream is a terminal (line mode without a note), else the reason in a few words."""
    in_tty, out_tty = _isatty(stdin), _isatty(stdout)
    if not in_tty and not out_tty:
        return ""
    if not in_tty:
        return "standard input is not a terminal"
    if not out_tty:
        return "standard output is not a terminal"
    term = os.environ.get("TERM", "")
    if not term:
        return "TERM is not set"
    try:
        curses.setupterm(term, stdout.fileno())
    except curses.error:
        return f"TERM={term} is not a terminal type this machine knows (no terminfo entry)"
    if not curses.tigetstr("cup") or not curses.tigetstr("clear"):
        return f"the terminal (TERM={term}) cannot move its cursor"
    return None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def run_full_screen(
    sitting: Sitting,
    order: tuple[Card, ...],
    seed: int | None,
    saved: SavedGame | None = None,
    loaded: str | None = None,
    solver: Solver | None = None,
    solver_seconds: float = DEFAULT_SECONDS,
) -> int:
    """Play full screen until the player quits; then say goodbye on the normal screen.
    A game under way is kept for the next start, however the game ended."""
    sitting.new_deal(order, seed)
    welcome = None
    if saved is not None:
        sitting.go_on_with(saved)
        welcome = f"Loaded {loaded}: {saved.describe()}."
    sitting.save()  # an unwritable transcript stops the game before the screen changes
    game = FullScreenGame(
        sitting, solver=solver, solver_seconds=solver_seconds, offer=saved is None, welcome=welcome
    )
    shown = curses_ui.run(game, sitting.face.colour)
    kept = sitting.end_sitting()
    if shown:
        sys.stdout.write(farewell(sitting, kept))
        replay = sitting.replay_command()
        if replay:
            sys.stdout.write(f"This deal again: {replay}\n")
    return 0
