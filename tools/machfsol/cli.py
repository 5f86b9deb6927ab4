"""The ``machfsol`` command: the games' engine, build, verification and odds.

Each command module contributes sub-commands through ``register``; this module wires
them together. Errors are printed as one line. Usage errors (a bad seed or deck)
exit with status 2, like argparse's own; failures of a check exit with 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from a8 import commandline
from a8.errors import A8Error
from machfsol import __version__
from machfsol.engine.cards import Card
from machfsol.engine.rules import Move
from machfsol.errors import MachfsolError
from machfsol.odds.solver import Verdict, solve_in_progress
from machfsol.terminal.solver_question import Answer
from machfsol.terminal.solver_question import Verdict as Winnable

#: Modules that add sub-commands; each defines ``register(subparsers) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "machfsol.engine.cli",
    "machfsol.atari.cli",
    "machfsol.terminal.cli",
    "machfsol.odds.cli",
    "machfsol.main_job",
)


def build_parser() -> argparse.ArgumentParser:
    parser = commandline.build_parser(
        "machfsol",
        "MAChFsol 1 and 2: reference engine, Atari build, verification, odds.",
        __version__,
        COMMAND_MODULES,
    )
    # The terminal game asks the odds part's solver through here: the parts do not
    # import one another (docs/ARCHITECTURE.md).
    commandline.sub_commands(parser)["play"].set_defaults(solver=still_winnable)
    return parser


def still_winnable(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    """The solver's answer to the terminal game's "can this deal still be won?" (run in
    a child process, which the game stops after its time limit)."""
    solution = solve_in_progress(order, number, moves)
    if solution.verdict is Verdict.WON:
        return Answer(Winnable.WINNABLE, solution.moves)
    if solution.verdict is Verdict.LOST:
        return Answer(Winnable.LOST)
    return Answer(Winnable.UNDECIDED, detail=f"no answer within {solution.nodes} states")


def main(argv: Sequence[str] | None = None) -> int:
    return commandline.run(build_parser(), argv, (MachfsolError, A8Error), prefix="machfsol: ")


if __name__ == "__main__":
    sys.exit(main())
