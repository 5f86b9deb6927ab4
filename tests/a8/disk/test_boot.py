"""The boot menu loader: assembly, layout, and real boots in atari800."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic import tokenize
from a8.basic.atascii import Encoding
from a8.basic.convert import list_program
from a8.disk.boot import (
    MENU_SECTOR,
    RUN_COMMAND,
    BootError,
    MenuEntry,
    assemble_loader,
    boot_image,
    install_boot_menu,
)
from a8.disk.check import check_disk
from a8.disk.dos2 import Density, Dos2Disk
from a8.disk.packed import pack_program
from a8.emu.emulator import EmulatorOptions, Machine, RunResult, run
from a8.emu.script import Script
from tests.a8.disk.corpus_disks import corpus_disk


def marker_program(variant: int) -> bytes:
    """A SAVE file that prints its name and leaves ``variant`` in memory at 1536 ($0600).

    Page 6 is free for the user under BASIC, so an emulator test can read the
    marker back and know which program really ran.
    """
    return tokenize(f'10 PRINT "PROGRAM {variant}"\n20 POKE 1536,{variant}\n')


def menu_disk(path: Path, density: Density = Density.SINGLE) -> Dos2Disk:
    disk = Dos2Disk.new(density, source=str(path))
    disk.add_file("MACHFSOL.1", marker_program(1))
    disk.add_file("MACHFSOL.2", marker_program(2))
    entries = [MenuEntry.parse("MACHFSOL.1=MAChFsol 1"), MenuEntry.parse("MACHFSOL.2=MAChFsol 2")]
    install_boot_menu(disk, entries, "")  # no title: the entries fill the boot sectors
    path.write_bytes(disk.to_bytes())
    return disk


def test_loader_layout(tmp_path: Path) -> None:
    disk = menu_disk(tmp_path / "M.ATR")
    image = b"".join(disk.image.read_sector(s) for s in (1, 2, 3))
    assert image[:6] == bytes([0, 3, 0x00, 0x07]) + image[4:6]  # 3 sectors at $0700
    loader = assemble_loader()
    assert image.startswith(loader.first_stage[:4])
    menu = disk.image.read_sector(MENU_SECTOR)
    line = b'?"\x7d1 MAChFsol 1":?"2 MAChFsol 2"\x9b'
    assert menu.startswith(line + RUN_COMMAND)
    assert menu.endswith(loader.second_stage + bytes([0, 0, len(line)]))
    assert check_disk(disk) == []
    assert assemble_loader().code == assemble_loader().code


def test_the_menu_has_the_room_the_second_stage_leaves_in_sector_720(tmp_path: Path) -> None:
    stage = len(assemble_loader().second_stage)
    for density, data_bytes in ((Density.SINGLE, 125), (Density.DOUBLE, 253)):
        disk = menu_disk(tmp_path / f"{density.value}.ATR", density)
        room = data_bytes - stage
        fixed = len(b'?"\x7d1 "\x9b') + len(RUN_COMMAND) + 3  # one entry, no title
        fits = "X" * (room - fixed)
        boot_image(disk, [MenuEntry.parse(f"MACHFSOL.1={fits}")], "")
        with pytest.raises(BootError, match="1 bytes too long for sector 720"):
            boot_image(disk, [MenuEntry.parse(f"MACHFSOL.1={fits}X")], "")
    assert 125 - stage >= 60  # the games' menu takes 48


def test_a_mydos_disk_gives_sector_720_to_the_menu_only_if_no_file_has_it() -> None:
    disk = Dos2Disk(corpus_disk("mydos-xedisk-450").image())  # 720 free
    disk.add_file("GAME.BAS", marker_program(1))
    assert MENU_SECTOR in disk.free
    install_boot_menu(disk, [MenuEntry.parse("GAME.BAS")], "")
    assert MENU_SECTOR not in disk.free  # marked in use: MyDOS will not give it away
    assert check_disk(disk) == []
    full = Dos2Disk(corpus_disk("mydos-xedisk-450").image())
    full.add_file("BIG.DAT", bytes(125 * (len(full.free) - 1)))  # all but the last free
    full.add_file("GAME.BAS", marker_program(1))  # the last: 720
    assert MENU_SECTOR in full.owned_sectors()
    before = full.to_bytes()
    with pytest.raises(BootError, match="sector 720, where the boot menu goes, is part of a file"):
        install_boot_menu(full, [MenuEntry.parse("GAME.BAS")], "")
    assert full.to_bytes() == before


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
#: Frames to let the machine boot and show the menu, and to load and run.
BOOT_FRAMES = 600
LOAD_FRAMES = 900


def boot(
    tmp_path: Path,
    disk: Path,
    script: Script,
    *,
    machine: Machine = "xl",
    sio_patch: bool = True,
    basic: bool = True,
    option_held: bool = False,
) -> tuple[RunResult, Path]:
    """Boot ``disk`` in atari800 and play ``script``; returns the result and the H1: folder."""
    hdir = tmp_path / "h"
    hdir.mkdir(exist_ok=True)
    options = EmulatorOptions(
        machine=machine,
        sio_patch=sio_patch,
        basic=basic,
        option_held=option_held,
        disk=disk,
        hdir=hdir,
        timeout_s=120,
    )
    return run(options, script), hdir


def screen_text(result: RunResult) -> str:
    return "\n".join(line.rstrip() for line in result.screens[0].text_lines())


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("machine", ["xl", "800"])
@pytest.mark.parametrize("sio_patch", [True, False], ids=["sio-patch", "nopatch"])
@pytest.mark.parametrize("choice", [1, 2])
def test_boot_menu_runs_the_chosen_program(
    atari800: str, tmp_path: Path, machine: Machine, sio_patch: bool, choice: int
) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk)
    script = (
        Script()
        .wait(BOOT_FRAMES)
        .screenshot(str(tmp_path / "menu.png"))
        .key(str(choice))
        .wait(LOAD_FRAMES)
        .type(CHECK_RUN)
        .wait_for_file("RAN.TXT", 600)
        .type('LIST "H1:P.LST"\n')
        .wait_for_file("P.LST", 600)
    )
    result, hdir = boot(tmp_path, disk, script, machine=machine, sio_patch=sio_patch)
    assert result.reason == "script-end", result.log
    # The menu: one line per entry, on a cleared screen, printed by BASIC.
    assert screen_text(result).startswith("  1 MAChFsol 1\n  2 MAChFsol 2\n")
    # The program ran (its POKE left the variant number) and the keyboard works.
    assert (hdir / "RAN.TXT").read_bytes() == f"{choice}\x9b".encode("latin-1")
    listing = (hdir / "P.LST").read_bytes()
    assert listing.startswith(f'10 PRINT "PROGRAM {choice}"'.encode())


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize(
    ("machine", "basic", "option_held"),
    [("xl", False, False), ("xl", True, True), ("800", False, False)],
    ids=["xl-nobasic", "xl-option-held", "800-no-cartridge"],
)
def test_without_basic_a_message(
    atari800: str, tmp_path: Path, machine: Machine, basic: bool, option_held: bool
) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk)
    script = Script().wait(BOOT_FRAMES).screenshot(str(tmp_path / "screen.png"))
    result, _ = boot(tmp_path, disk, script, machine=machine, basic=basic, option_held=option_held)
    assert result.reason == "script-end", result.log
    assert screen_text(result).startswith("  NEEDS BASIC\n")
    # The RAM byte tested at $BFFC is screen memory there: nothing is left on the screen.
    assert screen_text(result).splitlines()[-1] == ""


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("density", [Density.ENHANCED, Density.DOUBLE], ids=lambda d: d.value)
def test_boot_menu_on_other_densities(atari800: str, tmp_path: Path, density: Density) -> None:
    disk = tmp_path / "M.ATR"
    menu_disk(disk, density)
    script = (
        Script()
        .wait(BOOT_FRAMES)
        .key("2")
        .wait(LOAD_FRAMES)
        .type(CHECK_RUN)
        .wait_for_file("RAN.TXT", 600)
    )
    result, hdir = boot(tmp_path, disk, script, sio_patch=False)
    assert result.reason == "script-end", result.log
    assert (hdir / "RAN.TXT").read_bytes() == b"2\x9b"


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize(("machine", "sio_patch"), [("xl", True), ("800", False)])
def test_read_error_gives_a_message(
    atari800: str, tmp_path: Path, machine: Machine, sio_patch: bool
) -> None:
    """A chain that leads off the disk: retries, READ ERROR on screen, BASIC's error."""
    disk = Dos2Disk.new(source="E.ATR")
    disk.add_file("PROG.BAS", marker_program(1))
    install_boot_menu(disk, [MenuEntry.parse("PROG.BAS")], "T")  # refuses broken chains
    raw = bytearray(disk.image.read_sector(MENU_SECTOR))
    table = raw.index(RUN_COMMAND) + len(RUN_COMMAND)  # the menu table: key, sector
    raw[table + 1 : table + 3] = (800).to_bytes(2, "little")  # beyond the disk
    disk.image.write_sector(MENU_SECTOR, bytes(raw))
    path = tmp_path / "E.ATR"
    path.write_bytes(disk.to_bytes())
    status = 'OPEN #1,8,0,"H1:E.TXT":PRINT #1;PEEK(195):CLOSE #1\n'
    script = (
        Script()
        .wait(BOOT_FRAMES)
        .key("1")
        .wait(3000)
        .screenshot(str(tmp_path / "error.png"))
        .type(status)
        .wait_for_file("E.TXT", 600)
    )
    result, hdir = boot(tmp_path, path, script, machine=machine, sio_patch=sio_patch)
    assert result.reason == "script-end", result.log
    lines = screen_text(result).splitlines()
    assert lines[0][4:14] == "READ ERROR"  # on the top line, over the menu's
    errors = [line for line in lines if line.split()[:1] == ["Error-"]]  # Altirra BASIC's
    assert len(errors) == 1
    assert int((hdir / "E.TXT").read_bytes()[:-1]) >= 128  # an SIO error status


def long_marker_program(variant: int) -> bytes:
    """marker_program with 150 lines more: some 30 sectors, which packing makes some 10."""
    lines = [f'10 PRINT "PROGRAM {variant}"', f"20 POKE 1536,{variant}", "30 END"]
    lines += [f'{100 + i} PRINT "LINE {i} OF A LONGER PROGRAM";{i * 7}' for i in range(150)]
    return tokenize("\n".join(lines) + "\n")


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("machine", ["xl", "800"])
@pytest.mark.parametrize("sio_patch", [True, False], ids=["sio-patch", "nopatch"])
def test_boot_menu_runs_a_packed_program(
    atari800: str, tmp_path: Path, machine: Machine, sio_patch: bool
) -> None:
    """The menu loads the stub, the stub unpacks: BASIC runs and lists the program packed."""
    program = long_marker_program(2)
    disk = Dos2Disk.new(source="P.ATR")
    disk.add_file("LONG.BAS", program)
    disk.add_file("LONG.PK", pack_program(program))
    assert len(disk.chain(disk.find("LONG.PK"))) < len(disk.chain(disk.find("LONG.BAS"))) / 2
    install_boot_menu(disk, [MenuEntry.parse("LONG.PK=Packed")], "")
    path = tmp_path / "P.ATR"
    path.write_bytes(disk.to_bytes())
    script = (
        Script()
        .wait(BOOT_FRAMES)
        .key("1")
        .wait(LOAD_FRAMES)
        .screenshot(str(tmp_path / "ran.png"))
        .type(CHECK_RUN)
        .wait_for_file("RAN.TXT", 600)
        .type('LIST "H1:P.LST"\n')
        .wait_for_file("P.LST", 600)
    )
    result, hdir = boot(tmp_path, path, script, machine=machine, sio_patch=sio_patch)
    assert result.reason == "script-end", result.log
    assert screen_text(result).startswith("  1 Packed\n")  # the menu stays on the screen
    assert (hdir / "RAN.TXT").read_bytes() == b"2\x9b"
    assert (hdir / "P.LST").read_bytes() == list_program(program, encoding=Encoding.ATASCII)
