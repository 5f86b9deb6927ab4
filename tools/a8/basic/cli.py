"""Sub-commands ``a8 tokenize`` and ``a8 list``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from a8.basic.atascii import Encoding
from a8.basic.convert import DEFAULT_SAVE_COMMAND, LARGEST_LISTING, list_program, tokenize
from a8.basic.errors import RejectedLines
from a8.basic.program import LARGEST_PROGRAM
from a8.commandline import docs, warn
from a8.errors import A8Error
from a8.files import (
    STDOUT,
    Output,
    output_argument,
    refuse_input_as_output,
    write_atomically,
)
from a8.reading import read_input


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``tokenize`` and ``list``."""
    tokenize_parser = subparsers.add_parser(
        "tokenize",
        help="listing -> tokenized program (the SAVE format)",
        description="Tokenize an Atari BASIC listing into the file SAVE writes, byte for "
        "byte what genuine Atari BASIC rev. C makes of it after ENTER; every line it would "
        f"reject is named (FILE:LINE:COLUMN). See {docs('BASIC.md')}.",
    )
    tokenize_parser.add_argument("listing", type=Path, help="listing file")
    tokenize_parser.add_argument(
        "-o", "--output", type=output_argument, required=True, help=".BAS file, - for stdout"
    )
    tokenize_parser.add_argument(
        "--encoding",
        choices=["auto", "atascii", "utf8"],
        default="auto",
        help="listing encoding (auto: ATASCII if it has 0x9B line ends, else UTF-8)",
    )
    tokenize_parser.add_argument(
        "--save-command",
        default=None,
        help='immediate line stored at the end (default: SAVE "D:<OUTPUT NAME>")',
    )
    tokenize_parser.add_argument(
        "--keep-errors",
        action="store_true",
        help="store lines BASIC rejects as ERROR- lines, as genuine BASIC does "
        "(a warning each); default: refuse them",
    )
    tokenize_parser.set_defaults(handler=_tokenize)

    list_parser = subparsers.add_parser(
        "list",
        help="tokenized program -> listing, exactly as LIST prints it",
        description="List a tokenized Atari BASIC program the way LIST does, byte for byte; "
        f"warn of a line ENTER could not read back. See {docs('BASIC.md')}.",
    )
    list_parser.add_argument("program", type=Path, help=".BAS file")
    list_parser.add_argument(
        "-o", "--output", type=output_argument, help="listing file (default: stdout)"
    )
    list_parser.add_argument(
        "--encoding",
        choices=["utf8", "atascii"],
        default="utf8",
        help="utf8: text with LF line ends; atascii: bytes with 0x9B line ends",
    )
    list_parser.set_defaults(handler=_list)


def _default_save_command(output: Output) -> str:
    """``SAVE "D:NAME.EXT"`` with the output's name cut to DOS 8.3, as a user would type."""
    if isinstance(output, str):  # standard output
        return DEFAULT_SAVE_COMMAND
    stem = "".join(c for c in output.stem.upper() if c.isalnum())[:8] or "PROGRAM"
    suffix = "".join(c for c in output.suffix.upper() if c.isalnum())[:3]
    if not stem[0].isalpha():
        return DEFAULT_SAVE_COMMAND
    return f'SAVE "D:{stem}.{suffix}"' if suffix else f'SAVE "D:{stem}"'


def _tokenize(args: argparse.Namespace) -> int:
    refuse_input_as_output(args.output, args.listing)
    data = read_input(args.listing, LARGEST_LISTING, "any listing of an Atari BASIC program")
    encoding = None if args.encoding == "auto" else Encoding(args.encoding)
    command = args.save_command or _default_save_command(args.output)
    try:
        program = tokenize(
            data,
            encoding=encoding,
            file=str(args.listing),
            save_command=command,
            keep_errors=args.keep_errors,
            warn=warn,
        )
    except RejectedLines as rejected:
        if len(rejected.errors) == 1 and not rejected.more:
            raise
        for error in rejected.errors:  # each a line an editor can jump to
            warn(str(error))
        raise A8Error(rejected.summary()) from None
    write_atomically(args.output, program)
    return 0


def _list(args: argparse.Namespace) -> int:
    refuse_input_as_output(args.output, args.program)
    data = read_input(args.program, LARGEST_PROGRAM, "any Atari BASIC SAVE file")
    encoding = Encoding(args.encoding)
    listing = list_program(data, file=str(args.program), encoding=encoding, warn=warn)
    raw = listing if isinstance(listing, bytes) else listing.encode("utf-8")
    write_atomically(args.output if args.output is not None else STDOUT, raw)
    return 0
