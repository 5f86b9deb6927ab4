"""``machfsol build``: the game disk is a clean DOS 2 disk, byte-identical on rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic.program import Program
from a8.disk.atr import AtrImage
from a8.disk.boot import menu_start_sectors
from a8.disk.check import check_disk
from a8.disk.dos2 import Dos2Disk
from a8.disk.packed import unpack_program
from a8.emu.emulator import EmulatorOptions, Machine, run
from a8.emu.script import Script
from machfsol.atari.basic_game import overlay_listing, to_atascii
from machfsol.cli import main

COMMITTED_DISK = Path(__file__).resolve().parents[3] / "atr" / "MACHFSOL.ATR"


def test_build_is_deterministic_and_clean(tmp_path: Path) -> None:
    first, second = tmp_path / "A.ATR", tmp_path / "B.ATR"
    assert main(["build", "-o", str(first)]) == 0
    assert main(["build", "-o", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    disk = Dos2Disk(AtrImage.read(first))
    names = ["MACHFSOL.1", "MACHFSOL.2", "MACHFSOL.PK1", "MACHFSOL.PK2"]
    names += ["MACHFSOL.ST1", "MACHFSOL.ST2"]  # the records, empty
    assert [str(e.name) for e in disk.files()] == names
    assert disk.image.sector_count == 720 and disk.image.sector_size == 128
    assert check_disk(disk) == []
    boot = disk.image.read_sector(1)
    assert boot[1] == 3 and boot[2:4] == b"\x00\x07"
    for variant in (1, 2):
        program = Program.from_bytes(disk.read_file(f"MACHFSOL.{variant}"))
        assert f"D:MACHFSOL.{variant}".encode() in program.immediate  # SAVE "D:MACHFSOL.N"
        # the menu runs the packed copy, which unpacks to the program itself
        packed = disk.read_file(f"MACHFSOL.PK{variant}")
        assert unpack_program(packed) == disk.read_file(f"MACHFSOL.{variant}")
        assert disk.read_file(f"MACHFSOL.ST{variant}") == bytes(90)  # no game played yet
    assert menu_start_sectors(
        disk.image.read_sector(1) + disk.image.read_sector(2) + disk.image.read_sector(3),
        disk.image.read_sector(720),
    ) == [disk.find(f"MACHFSOL.PK{variant}").start for variant in (1, 2)]


def test_the_committed_disk_is_up_to_date(tmp_path: Path) -> None:
    """atr/MACHFSOL.ATR in the repository is what the current sources build.

    A change to basic_src/, the tokenizer or the loader must come with the rebuilt
    disk (`machfsol build`), or users download a stale game.
    """
    built = tmp_path / "MACHFSOL.ATR"
    assert main(["build", "-o", str(built)]) == 0
    committed = COMMITTED_DISK.read_bytes()
    assert committed == built.read_bytes(), (
        f"{COMMITTED_DISK} is stale: run `machfsol build` and commit it"
    )


def test_build_into_a_file_that_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "-o", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"machfsol: {tmp_path}: cannot write") and error.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize(
    ("machine", "sio_patch", "key"),
    [("xl", True, "1"), ("xl", False, "2"), ("800", True, "2"), ("800", False, "1")],
)
def test_the_game_disk_boots_into_the_game(
    atari800: str, tmp_path: Path, machine: Machine, sio_patch: bool, key: str
) -> None:
    """Boot the built disk and pick a game: it starts and runs its test mode from H1:
    (the configuration, and the test mode's overlay, which the program ENTERs).

    With a configuration that lists no deal the game writes its done marker and
    ends; the keyboard then lists line 10010, which sets the variant and its title.
    """
    disk = tmp_path / "MACHFSOL.ATR"
    assert main(["build", "-o", str(disk)]) == 0
    hdir = tmp_path / "h"
    hdir.mkdir()
    (hdir / "MFTEST.CFG").write_bytes(b"MFTEST 5\x9bEND\x9b")
    (hdir / "MFTEST.LST").write_bytes(to_atascii(overlay_listing()))
    script = (
        Script()
        .wait(600)
        .key(key)
        .wait_for_file("MFDONE.TXT", 6000)
        .wait(300)
        .type('LIST "H1:VARIANT.LST",10010,10010\n')
        .wait_for_file("VARIANT.LST", 600)
    )
    options = EmulatorOptions(machine=machine, sio_patch=sio_patch, disk=disk, hdir=hdir)
    result = run(options, script)
    assert result.reason == "script-end", result.log
    assert (hdir / "MFDONE.TXT").read_bytes().startswith(b"DONE 0 FRE ")
    assert f'"MACHFSOL {key}: KINGS'.encode() in (hdir / "VARIANT.LST").read_bytes()
