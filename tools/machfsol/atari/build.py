"""``machfsol build``: the game disk MACHFSOL.ATR (atr/MACHFSOL.ATR in the repository).

The disk is an ordinary DOS 2.0S single-density disk holding the two tokenized
programs MACHFSOL.1 and MACHFSOL.2 (the eight-character name, the variant as the
extension: ``MACHFSOL1`` would be nine characters, which DOS 2 refuses), for DOS and
for players who edit them, and their packed copies MACHFSOL.PK1 and MACHFSOL.PK2
(:mod:`a8.disk.packed`: a third fewer sectors to load), with the boot menu of
:mod:`a8.disk.boot` in sectors 1-3 that runs the packed copies, so that it boots
straight into the games on a machine with BASIC.

The programs are generated from the one source (basic_src/machfsol.bas, shipped in the
package: :mod:`machfsol.atari.places`) by :mod:`machfsol.atari.basic_game`, without
their REMs (:func:`~machfsol.atari.basic_game.program_listing`), and tokenized by
:mod:`a8.basic`. Nothing here depends on the time or the machine, so
the same sources always give a byte-identical image; the tests check that the
committed atr/MACHFSOL.ATR is the image the current sources give.
"""

from __future__ import annotations

from a8.basic import tokenize
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.dos2 import Density, Dos2Disk, FileName
from a8.disk.packed import pack_program
from machfsol.atari.basic_game import (
    PROGRAM_NAMES,
    VARIANTS,
    BasicSource,
    program_listing,
    read_source,
)
from machfsol.atari.places import DISK_NAME

#: The menu's title line: none, the entries name the games (the boot sectors hold the
#: loader, its table and the menu line, 384 bytes in all).
DISK_TITLE = ""
#: A record file's bytes: nine records of 10 (machfsol/atari/record_keeper.s), all 0.
RECORD_FILE_SIZE = 90


def title_of(variant: int) -> str:
    """The menu line of a variant (the menu puts its key in front)."""
    return f"MAChFsol {variant}"


def file_name_of(variant: int) -> FileName:
    return FileName.parse(PROGRAM_NAMES[variant])


def packed_name_of(variant: int) -> FileName:
    """The packed copy the boot menu runs (:mod:`a8.disk.packed`): MACHFSOL.PK1."""
    return FileName.parse(f"{PROGRAM_NAMES[variant].split('.')[0]}.PK{variant}")


def record_name_of(variant: int) -> FileName:
    """The file of a variant's record (statistics): MACHFSOL.ST1, MACHFSOL.ST2."""
    return FileName.parse(f"MACHFSOL.ST{variant}")


def game_programs(source: BasicSource | None = None) -> dict[int, bytes]:
    """The SAVE file of each variant, as if BASIC had saved it under its disk name.

    ``source``: the one source as read by :func:`machfsol.atari.basic_game.read_source`
    (default: the one the commands read unless told, :mod:`machfsol.atari.places`).
    """
    source = read_source() if source is None else source
    programs = {}
    for variant in VARIANTS:
        name = file_name_of(variant)
        programs[variant] = tokenize(
            program_listing(variant, source),
            file=f"listing of {name} from {source.name} (machfsol listing {variant})",
            save_command=f'SAVE "D:{name}"',
        )
    return programs


def build_disk(programs: dict[int, bytes], source: str = DISK_NAME) -> Dos2Disk:
    """The game disk holding ``programs`` with its boot menu."""
    disk = Dos2Disk.new(Density.SINGLE, source)
    for variant in VARIANTS:
        disk.add_file(file_name_of(variant), programs[variant])
    for variant in VARIANTS:
        name = packed_name_of(variant)
        disk.add_file(name, pack_program(programs[variant], file=str(name)))
    for variant in VARIANTS:
        disk.add_file(record_name_of(variant), bytes(RECORD_FILE_SIZE))
    entries = [MenuEntry(packed_name_of(v), title_of(v)) for v in VARIANTS]
    install_boot_menu(disk, entries, DISK_TITLE)
    return disk
