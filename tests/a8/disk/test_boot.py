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
from a8.disk.dos2 import Density, Dos2Disk
from machfsol.placeholder import placeholder_program

from .booting import boot, memory_after


def menu_disk(path: Path, density: Density = Density.SINGLE) -> Dos2Disk:
    disk = Dos2Disk.new(density, source=str(path))
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
    expected = bytes(ord(c) - 0x20 if c != " " else 0 for c in "NEEDS BASIC (NO OPTION)")
    assert expected in text


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("density", [Density.ENHANCED, Density.DOUBLE], ids=lambda d: d.value)
def test_boot_menu_on_other_densities(atari800: str, tmp_path: Path, density: Density) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk, density)
    steps: list[int | str] = [600, "2", 900, CHECK_RUN, 300]
    hdir = boot(atari800, tmp_path, disk, steps, machine="xl", sio_patch=False)
    assert (hdir / "RAN.TXT").read_bytes() == b"2\x9b"


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize(("machine", "sio_patch"), [("xl", True), ("800", False)])
def test_read_error_gives_a_message(
    atari800: str, tmp_path: Path, machine: str, sio_patch: bool
) -> None:
    """A chain that leads off the disk: retries, READ ERROR on screen, BASIC's error."""
    disk = Dos2Disk.new(source="E.ATR")
    disk.add_file("PROG.BAS", placeholder_program(1, "P"))
    raw = bytearray(disk.image.read_sector(361))
    raw[3:5] = (800).to_bytes(2, "little")  # the file's first sector: beyond the disk
    disk.image.write_sector(361, bytes(raw))
    install_boot_menu(disk, [MenuEntry.parse("PROG.BAS")], "T")
    path = tmp_path / "E.ATR"
    path.write_bytes(disk.to_bytes())
    status = 'OPEN #1,8,0,"H1:E.TXT":PRINT #1;PEEK(195):CLOSE #1\n'
    screen = (
        'OPEN #1,8,0,"H1:S.TXT":FOR I=4 TO 13:PUT #1,PEEK(PEEK(88)+256*PEEK(89)+I)'
        ":NEXT I:CLOSE #1\n"
    )
    hdir = boot(
        atari800,
        tmp_path,
        path,
        [600, "1", 3000, screen, 300, status, 300],
        machine=machine,
        sio_patch=sio_patch,
    )
    message = bytes(ord(c) - 0x20 if c != " " else 0 for c in "READ ERROR")
    assert (hdir / "S.TXT").read_bytes() == message
    assert int((hdir / "E.TXT").read_bytes()[:-1]) >= 128  # an SIO error status
