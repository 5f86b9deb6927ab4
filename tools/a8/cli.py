"""The ``a8`` command: the general Atari BASIC toolchain.

Each sub-package contributes its sub-commands through a ``register`` function, so
this module only wires them together and turns :class:`~a8.errors.A8Error` into a
one-line message and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from a8 import __version__
from a8.errors import A8Error

#: Modules that add sub-commands; each defines ``register(subparsers) -> None``.
COMMAND_MODULES = (
    "a8.basic.cli",
    "a8.disk.cli",
    "a8.emu.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="a8",
        description="Atari 8-bit BASIC cross-toolchain: tokenize, list, ATR disks, emulator.",
    )
    parser.add_argument("--version", action="version", version=f"a8 {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except A8Error as error:
        print(f"{error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
