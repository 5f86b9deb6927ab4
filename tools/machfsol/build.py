"""``machfsol build``: the game disk atr/MACHFSOL.ATR.

The disk is an ordinary DOS 2.0S single-density disk holding the two tokenized
programs MACHFSOL.1 and MACHFSOL.2 (the eight-character name, the variant as the
extension), with the boot menu of :mod:`a8.disk.boot` in sectors 1-3 so that it
boots straight into the games on a machine with BASIC.

The programs come from basic_src/ through :mod:`machfsol.basic_game` and the
tokenizer ``a8.basic.tokenize``. While that tokenizer is not available, the disk
carries the stand-ins of :mod:`machfsol.placeholder` instead, and the command says
so. The same sources always give a byte-identical image.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.dos2 import Density, Dos2Disk, FileName
from a8.files import write_atomically
from machfsol.placeholder import placeholder_program

DEFAULT_OUTPUT = Path("atr/MACHFSOL.ATR")
VARIANTS = (1, 2)
DISK_TITLE = "MAChFsol"


def title_of(variant: int) -> str:
    return f"MAChFsol {variant}"


def file_name_of(variant: int) -> FileName:
    return FileName("MACHFSOL", str(variant))


def find_tokenizer() -> Callable[[str], bytes] | None:
    """``a8.basic.tokenize`` (listing text -> SAVE bytes) if the toolchain has it yet."""
    for module_name, attribute in (("a8.basic", "tokenize"), ("a8.basic.tokenizer", "tokenize")):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        function = getattr(module, attribute, None)
        if callable(function):
            return function  # type: ignore[no-any-return]
    return None


def game_programs(use_placeholders: bool = False) -> tuple[dict[int, bytes], bool]:
    """The tokenized program of each variant, and whether they are the placeholders."""
    tokenize = None if use_placeholders else find_tokenizer()
    if tokenize is None:
        return {v: placeholder_program(v, title_of(v)) for v in VARIANTS}, True
    from machfsol.basic_game import generate

    return {v: tokenize(generate(v)) for v in VARIANTS}, False


def build_disk(programs: dict[int, bytes], source: str = str(DEFAULT_OUTPUT)) -> Dos2Disk:
    """The game disk holding ``programs`` with its boot menu."""
    disk = Dos2Disk.new(Density.SINGLE, source)
    for variant in VARIANTS:
        disk.add_file(file_name_of(variant), programs[variant])
    entries = [MenuEntry(file_name_of(v), title_of(v)) for v in VARIANTS]
    install_boot_menu(disk, entries, DISK_TITLE)
    return disk


def cmd_build(args: argparse.Namespace) -> int:
    programs, placeholders = game_programs(args.placeholder)
    output: Path = args.output
    disk = build_disk(programs, str(output))
    output.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(output, disk.to_bytes())
    if placeholders:
        print(
            f"machfsol build: {output}: PLACEHOLDER programs (a8.basic.tokenize "
            "is not available yet or --placeholder was given)",
            file=sys.stderr,
        )
    sizes = ", ".join(f"{file_name_of(v)} {len(programs[v])} bytes" for v in VARIANTS)
    print(f"{output}: {sizes}, {disk.free_sectors} free sectors")
    return 0


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    build = subparsers.add_parser("build", help="build the bootable game disk atr/MACHFSOL.ATR")
    build.add_argument(
        "-o", "--output", type=Path, default=DEFAULT_OUTPUT, help="disk image to write"
    )
    build.add_argument(
        "--placeholder",
        action="store_true",
        help="put the placeholder programs on the disk even if the tokenizer is available",
    )
    build.set_defaults(handler=cmd_build)
