"""``machfsol build``: the game disk is a clean DOS 2 disk, byte-identical on rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.disk.atr import AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import Dos2Disk
from a8.emu.emulator import EmulatorOptions, Machine, run
from a8.emu.script import Script
from machfsol.cli import main


@pytest.mark.parametrize("placeholder", [True, False], ids=["placeholder", "game"])
def test_build_is_deterministic_and_clean(tmp_path: Path, placeholder: bool) -> None:
    first, second = tmp_path / "A.ATR", tmp_path / "B.ATR"
    extra = ["--placeholder"] if placeholder else []
    assert main(["build", "-o", str(first), *extra]) == 0
    assert main(["build", "-o", str(second), *extra]) == 0
    assert first.read_bytes() == second.read_bytes()
    disk = Dos2Disk(AtrImage.read(first))
    assert [str(e.name) for e in disk.files()] == ["MACHFSOL.1", "MACHFSOL.2"]
    assert disk.image.sector_count == 720 and disk.image.sector_size == 128
    assert check_disk(disk) == []
    boot = disk.image.read_sector(1)
    assert boot[1] == 3 and boot[2:4] == b"\x00\x07"


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize(
    ("machine", "sio_patch", "key"),
    [("xl", True, "1"), ("xl", False, "2"), ("800", True, "2"), ("800", False, "1")],
)
def test_the_game_disk_boots_into_the_game(
    atari800: str, tmp_path: Path, machine: Machine, sio_patch: bool, key: str
) -> None:
    """Boot the built disk and pick a game: it starts and runs its test mode from H1:.

    With a configuration that lists no deal the game writes its done marker and
    ends; the keyboard then lists line 2, which names the variant.
    """
    disk = tmp_path / "MACHFSOL.ATR"
    assert main(["build", "-o", str(disk)]) == 0
    hdir = tmp_path / "h"
    hdir.mkdir()
    (hdir / "MFTEST.CFG").write_bytes(b"MFTEST 1\x9bEND\x9b")
    script = (
        Script()
        .wait(600)
        .key(key)
        .wait_for_file("MFDONE.TXT", 6000)
        .wait(300)
        .type('LIST "H1:LINE2.LST",2,2\n')
        .wait_for_file("LINE2.LST", 600)
    )
    options = EmulatorOptions(machine=machine, sio_patch=sio_patch, disk=disk, hdir=hdir)
    result = run(options, script)
    assert result.reason == "script-end", result.log
    assert (hdir / "MFDONE.TXT").read_bytes().startswith(b"DONE 0 FRE ")
    assert f"VARIANT {key}".encode() in (hdir / "LINE2.LST").read_bytes()
