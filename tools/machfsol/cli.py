"""The ``machfsol`` command: the games' engine, build, verification and odds.

Each command module contributes sub-commands through ``register``; this module wires
them together. Errors are printed as one line. Usage errors (a bad seed or deck)
exit with status 2, like argparse's own; failures of a check exit with 1.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from a8.errors import A8Error
from machfsol import __version__
from machfsol.errors import MachfsolError

#: Modules that add sub-commands; each defines ``register(subparsers) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "machfsol.commands",
    "machfsol.build",
    "machfsol.play",
    "machfsol.verify",
    "machfsol.basic_game",
    "machfsol.odds_command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="machfsol",
        description="MAChFsol 1 and 2: reference engine, Atari build, verification, odds.",
    )
    parser.add_argument("--version", action="version", version=f"machfsol {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except (MachfsolError, A8Error) as error:
        print(f"machfsol: {error}", file=sys.stderr)
        return getattr(error, "exit_status", 1)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
