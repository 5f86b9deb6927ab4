"""``machfsol build``: the game disk is a clean DOS 2 disk, byte-identical on rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.disk.atr import AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import Dos2Disk
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
    atari800: str, tmp_path: Path, machine: str, sio_patch: bool, key: str
) -> None:
    """Boot the built disk, pick a game: it starts and runs its test mode from H1:."""
    from tests.a8.disk.booting import boot

    disk = tmp_path / "MACHFSOL.ATR"
    assert main(["build", "-o", str(disk)]) == 0
    hdir = tmp_path / "h"
    hdir.mkdir()
    (hdir / "MFTEST.CFG").write_bytes(b"MFTEST 1\x9bEND\x9b")
    boot(atari800, tmp_path, disk, [600, key, 6000], machine=machine, sio_patch=sio_patch)
    assert (hdir / "MFDONE.TXT").read_bytes().startswith(b"DONE 0 FRE ")
