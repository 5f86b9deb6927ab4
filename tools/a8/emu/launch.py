"""Starting a BASIC program or a disk in the emulator the way a user would.

atari800's own ``-run`` loader waits for BASIC's ``READY`` prompt, which Altirra
BASIC spells ``Ready``: with the built-in ROMs it never loads anything. So the
program goes into the H: folder and the script types the command after boot:

* a tokenized program (``.BAS``): ``RUN "H1:NAME.BAS"``;
* a listing (``.LST``, ATASCII or UTF-8 text): ``ENTER "H1:NAME.LST"``. Keys typed
  while ENTER reads are lost, so the copy put on H: ends with a line ``RUN``
  without a line number, which BASIC executes as soon as it reads it;
* a disk image (``.ATR``) goes in drive 1 and boots by itself.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Final

from a8.basic.atascii import Encoding, detect, join_lines, split_lines
from a8.basic.convert import LARGEST_LISTING
from a8.basic.program import LARGEST_PROGRAM
from a8.emu.emulator import EmulatorOptions, RunResult, run
from a8.emu.script import Script
from a8.errors import A8Error
from a8.files import write_atomically
from a8.reading import InputError, read_at_most, read_input

#: Frames from power-on until BASIC's prompt takes keys: 60 was enough on the XL and
#: the 800 with the built-in ROMs; the margin is for Atari's own, slower ROMs.
BOOT_FRAMES: Final = 150

_H_NAME = re.compile(r"[A-Z][A-Z0-9]{0,7}")


class LaunchError(A8Error):
    """A file that cannot be started (unknown kind, unreadable, bad listing)."""


def h_name(path: Path, extension: str) -> str:
    """The H: name for a file: its stem if that is a valid Atari name, else PROGRAM."""
    stem = path.stem.upper()
    return f"{stem if _H_NAME.fullmatch(stem) else 'PROGRAM'}.{extension}"


def stage_program(program: Path, hdir: Path) -> Script:
    """Copy a ``.BAS`` or ``.LST`` file into ``hdir``; the script that runs it after boot.

    A file of that name already in ``hdir`` with other bytes is the user's, not ours
    to replace: a LaunchError says so and nothing is written."""
    kind = program.suffix.upper()
    if kind not in (".BAS", ".LST"):
        raise LaunchError(f"{program}: give a .BAS (tokenized) or .LST (listing) file")
    try:
        if kind == ".BAS":
            data = read_input(program, LARGEST_PROGRAM, "any Atari BASIC SAVE file")
        else:
            data = read_input(program, LARGEST_LISTING, "any listing of an Atari BASIC program")
    except InputError as error:
        raise LaunchError(str(error)) from None
    if kind == ".BAS":
        name = h_name(program, "BAS")
        _put(hdir / name, data, program)
        return Script().wait(BOOT_FRAMES).type(f'RUN "H1:{name}"\n')
    name = h_name(program, "LST")
    lines = split_lines(data, detect(data), where=str(program))
    _put(hdir / name, join_lines([*lines, b"RUN"], Encoding.ATASCII), program)
    return Script().wait(BOOT_FRAMES).type(f'ENTER "H1:{name}"\n')


def _put(place: Path, data: bytes, program: Path) -> None:
    """Write ``data`` to ``place`` in the H: folder, unless a different file is there."""
    try:
        there: bytes | None = read_at_most(place, len(data))
    except FileNotFoundError:
        there = None
    except OSError as error:
        raise LaunchError(f"{place}: cannot put {program} there: {error.strerror}") from None
    if there == data:
        return  # already there, byte for byte (or it is the program itself)
    if there is not None:
        raise LaunchError(
            f"{place}: already there and not {program}'s bytes; a8 emu run does not replace "
            "it: give another --hdir, or move it away"
        )
    write_atomically(place, data)


def run_program(options: EmulatorOptions, program: Path, then: Script | None = None) -> RunResult:
    """Boot, run ``program`` from the H: folder, then play ``then``.

    ``options.hdir`` must be set (the program is copied there).
    """
    if options.hdir is None:
        raise LaunchError(f"{program}: running a program needs an H: folder (hdir)")
    options.hdir.mkdir(parents=True, exist_ok=True)
    return run(options, stage_program(program, options.hdir) + (then or Script()))


def run_disk(options: EmulatorOptions, disk: Path, then: Script) -> RunResult:
    """Boot from ``disk`` in drive 1 and play ``then``."""
    return run(replace(options, disk=disk), then)
