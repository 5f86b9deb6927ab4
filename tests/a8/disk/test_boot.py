"""The boot menu loader: assembly, layout, and real boots in atari800."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.disk.boot import (
    COMMAND,
    BootError,
    MenuEntry,
    assemble_loader,
    boot_image,
    install_boot_menu,
)
from a8.disk.check import check_disk
from a8.disk.dos2 import Dos2Disk
from machfsol.placeholder import placeholder_program

from .booting import boot, memory_after


def menu_disk(path: Path) -> Dos2Disk:
    disk = Dos2Disk.new(source=str(path))
    disk.add_file("MACHFSOL.1", placeholder_program(1, "MAChFsol 1"))
    disk.add_file("MACHFSOL.2", placeholder_program(2, "MAChFsol 2"))
    entries = [MenuEntry.parse("MACHFSOL.1=MAChFsol 1"), MenuEntry.parse("MACHFSOL.2=MAChFsol 2")]
    install_boot_menu(disk, entries, "MAChFsol")
    path.write_bytes(disk.to_bytes())
    return disk


def test_loader_layout(tmp_path: Path) -> None:
    disk = menu_disk(tmp_path / "M.ATR")
    image = b"".join(disk.image.read_sector(s) for s in (1, 2, 3))
    assert image[:6] == bytes([0, 3, 0x00, 0x07]) + image[4:6]  # 3 sectors at $0700
    assert image.endswith(COMMAND)
    assert b"1 MAChFsol 1\x9b2 MAChFsol 2\x9b" in image
    assert check_disk(disk) == []
    assert assemble_loader().code == assemble_loader().code


def test_menu_too_long(tmp_path: Path) -> None:
    disk = menu_disk(tmp_path / "M.ATR")
    entries = [MenuEntry.parse(f"MACHFSOL.1=A VERY LONG TITLE NUMBER {n}") for n in range(5)]
    with pytest.raises(BootError, match="too long"):
        boot_image(disk, entries, "TITLE")


def test_bad_title(tmp_path: Path) -> None:
    disk = menu_disk(tmp_path / "M.ATR")
    with pytest.raises(BootError, match="title"):
        boot_image(disk, [MenuEntry.parse("MACHFSOL.1=caf\u00e9")], "T")


CHECK_RUN = 'OPEN #1,8,0,"H1:RAN.TXT":PRINT #1;PEEK(1536):CLOSE #1\n'


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("machine", ["xl", "800"])
@pytest.mark.parametrize("sio_patch", [True, False], ids=["sio-patch", "nopatch"])
@pytest.mark.parametrize("choice", [1, 2])
def test_boot_menu_runs_the_chosen_program(
    atari800: str, tmp_path: Path, machine: str, sio_patch: bool, choice: int
) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk)
    steps: list[int | str] = [600, str(choice), 900]
    steps += [CHECK_RUN, 200, 'LIST "H1:P.LST"\n', 300]
    hdir = boot(atari800, tmp_path, disk, steps, machine=machine, sio_patch=sio_patch)
    # The program ran (its POKE left the variant number) and the keyboard works.
    assert (hdir / "RAN.TXT").read_bytes() == f"{choice}\x9b".encode("latin-1")
    listing = (hdir / "P.LST").read_bytes()
    assert listing.startswith(f'10 PRINT "MAChFsol {choice}: placeholder'.encode())


@pytest.mark.emulator
@pytest.mark.slow
def test_without_basic_a_message(atari800: str, tmp_path: Path) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk)
    memory = memory_after(atari800, tmp_path, disk, 3.0, [0x0058], basic=False)
    screen = memory[0x58] | memory[0x59] << 8
    memory = memory_after(atari800, tmp_path, disk, 3.0, [screen], basic=False)
    text = bytes(memory[screen + i] for i in range(40))
    # screen codes: ATASCII minus 0x20 for upper case
    expected = bytes(ord(c) - 0x20 if c != " " else 0 for c in "NO BASIC: RELEASE OPTION")
    assert expected in text
