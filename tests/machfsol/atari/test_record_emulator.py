"""The record on the game disk, in atari800: kept on a disk that can be written,
and on a write-protected one the game plays on and says once that it is not saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.disk.atr import WRITE_PROTECT_BYTE, AtrImage
from a8.disk.dos2 import Dos2Disk
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script
from machfsol.atari.build import build_disk, game_programs
from machfsol.atari.record_book import AtariRecord, records_of

NOTICE = "RECORD NOT SAVED: D1 IS WRITE-PROTECTED"


def play(tmp_path: Path, protected: bool) -> tuple[list[str], Path]:
    """Boot the game disk, choose MAChFsol 1; at the first table press I; draw a card
    (a move), leave the game (N, Y) for a random deal, and press I again."""
    image = bytearray(build_disk(game_programs()).to_bytes())
    image[WRITE_PROTECT_BYTE] = 1 if protected else 0
    disk = tmp_path / "MACHFSOL.ATR"
    disk.write_bytes(bytes(image))
    shots = [tmp_path / f"{n}.png" for n in range(3)]
    script = (
        Script()
        .wait(600)
        .key("1")
        .wait_for_text("STOCK", 3000)
        .wait(120)
        .screenshot(str(shots[0]))
        .type("I")
        .wait(60)
        .screenshot(str(shots[1]))
        .type(" ")
        .wait(120)
        .type("NY")
        .wait(120)
        .key("RETURN")
        .wait(300)
        .type("I")
        .wait(60)
        .screenshot(str(shots[2]))
    )
    hdir = tmp_path / "h"
    hdir.mkdir()
    result = run(EmulatorOptions(disk=disk, hdir=hdir, timeout_s=120), script)
    assert result.reason == "script-end", result.log
    screens = ["\n".join(screen.text_lines()) for screen in result.screens]
    return screens, disk


@pytest.mark.emulator
def test_a_write_protected_disk_plays_on_and_says_so_once(atari800: str, tmp_path: Path) -> None:
    screens, disk = play(tmp_path, protected=True)
    before = bytes(build_disk(game_programs()).to_bytes())
    assert NOTICE in screens[0]  # at the first table
    assert NOTICE not in screens[1] and "RECORD WON 0/0 STREAK 0/0" in screens[1]
    assert NOTICE not in screens[2] and "RECORD WON 0/1 STREAK 0/0" in screens[2]
    assert disk.read_bytes()[WRITE_PROTECT_BYTE + 1 :] == before[WRITE_PROTECT_BYTE + 1 :]


@pytest.mark.emulator
def test_a_game_left_is_written_to_the_disk(atari800: str, tmp_path: Path) -> None:
    screens, disk = play(tmp_path, protected=False)
    assert all("RECORD NOT SAVED" not in screen for screen in screens)
    assert "RECORD WON 0/1 STREAK 0/0" in screens[2]
    record = Dos2Disk(AtrImage.read(disk)).read_file("MACHFSOL.ST1")
    assert records_of(record)[52] == AtariRecord(played=1)
    assert Dos2Disk(AtrImage.read(disk)).read_file("MACHFSOL.ST2") == bytes(90)
