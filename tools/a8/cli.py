"""The ``a8`` command: the general Atari BASIC toolchain.

Each sub-package contributes its sub-commands through a ``register`` function, so
this module only wires them together and turns :class:`~a8.errors.A8Error` into a
one-line message and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from a8 import __version__, commandline
from a8.errors import A8Error

#: Modules that add sub-commands; each defines ``register(subparsers) -> None``.
COMMAND_MODULES = (
    "a8.basic.cli",
    "a8.disk.cli",
    "a8.emu.cli",
)


def build_parser() -> argparse.ArgumentParser:
    return commandline.build_parser(
        "a8",
        "Atari 8-bit BASIC cross-toolchain: tokenize, list, ATR disks, emulator.",
        __version__,
        COMMAND_MODULES,
    )


def main(argv: Sequence[str] | None = None) -> int:
    # No prefix: the messages already start with the file and place (FILE:LINE:COL).
    return commandline.run(build_parser(), argv, (A8Error,))


if __name__ == "__main__":
    sys.exit(main())
