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
from machfsol.errors import MachfsolError

#: Modules that add sub-commands; each defines ``register(subparsers) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "machfsol.engine.cli",
    "machfsol.atari.cli",
    "machfsol.terminal.cli",
    "machfsol.odds.cli",
    "machfsol.main_job",
)


def build_parser() -> argparse.ArgumentParser:
    return commandline.build_parser(
        "machfsol",
        "MAChFsol 1 and 2: reference engine, Atari build, verification, odds.",
        __version__,
        COMMAND_MODULES,
    )


def main(argv: Sequence[str] | None = None) -> int:
    return commandline.run(build_parser(), argv, (MachfsolError, A8Error), prefix="machfsol: ")


if __name__ == "__main__":
    sys.exit(main())
