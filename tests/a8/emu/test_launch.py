"""Starting programs and disks: .BAS and .LST through H:, .ATR from drive 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic.convert import tokenize
from a8.cli import main
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.dos2 import Dos2Disk
from a8.emu.emulator import EmulatorOptions, using_backend
from a8.emu.keys import IDLE
from a8.emu.launch import BOOT_FRAMES, LaunchError, h_name, run_disk, run_program, stage_program
from a8.emu.script import PressKey, Script, TypeText
from tests.a8.emu.fake_machine import FakeMachine

WRITES_SQUARES = '10 OPEN #1,8,0,"H1:OUT.TXT"\n20 FOR I=1 TO 3:PRINT #1;I*I:NEXT I\n30 CLOSE #1\n'


def test_h_names() -> None:
    assert h_name(Path("game.bas"), "BAS") == "GAME.BAS"
    assert h_name(Path("my-game.lst"), "LST") == "PROGRAM.LST"
    assert h_name(Path("averylongname.bas"), "BAS") == "PROGRAM.BAS"


def test_listing_copy_ends_with_run(tmp_path: Path) -> None:
    listing = tmp_path / "demo.lst"
    listing.write_text("10 PRINT 1\n")
    script = stage_program(listing, tmp_path)
    assert (tmp_path / "DEMO.LST").read_bytes() == b"10 PRINT 1\x9bRUN\x9b"
    assert TypeText('ENTER "H1:DEMO.LST"\n') in script.steps


def test_a_different_file_in_the_h_folder_is_not_replaced(tmp_path: Path) -> None:
    """Was: ``a8 emu run OK.BAS --hdir DIR`` silently replaced a different DIR/OK.BAS."""
    program = tmp_path / "ok.bas"
    program.write_bytes(b"the program")
    hdir = tmp_path / "h"
    hdir.mkdir()
    (hdir / "OK.BAS").write_bytes(b"the user's own file")
    with pytest.raises(LaunchError, match=r"OK\.BAS: already there and not .*ok\.bas's bytes"):
        stage_program(program, hdir)
    assert (hdir / "OK.BAS").read_bytes() == b"the user's own file"
    (hdir / "OK.BAS").write_bytes(b"the program")  # the same bytes: used as it is
    stage_program(program, hdir)
    listing = hdir / "GAME.LST"  # the listing itself: it would get a RUN line
    listing.write_bytes(b"10 PRINT 1\n")
    with pytest.raises(LaunchError, match="already there"):
        stage_program(listing, hdir)
    assert listing.read_bytes() == b"10 PRINT 1\n"


@pytest.mark.parametrize("command", ["run", "doctor"])
def test_a_missing_h_folder_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Was: ``--hdir DIR`` created DIR wherever it pointed, parents and all."""
    program = tmp_path / "ok.bas"
    program.write_bytes(tokenize("10 PRINT 1\n"))
    hdir = tmp_path / "typo" / "h"
    args = ["emu", "run", str(program)] if command == "run" else ["emu", "doctor"]
    assert main([*args, "--hdir", str(hdir)]) == 2
    assert capsys.readouterr().err == f"--hdir {hdir}: no such folder (a8 emu does not create it)\n"
    assert not (tmp_path / "typo").exists()


def test_unknown_kind_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LaunchError, match=r"x\.xex: give a \.BAS"):
        stage_program(tmp_path / "x.xex", tmp_path)
    with pytest.raises(LaunchError, match="cannot read"):
        stage_program(tmp_path / "none.bas", tmp_path)


def test_run_program_types_the_command_after_boot(tmp_path: Path) -> None:
    """What run_program feeds the machine (on the stand-in): boot frames, then the
    command that runs the program from H:, then the caller's script."""
    program = tmp_path / "squares.bas"
    program.write_bytes(tokenize(WRITES_SQUARES))
    hdir = tmp_path / "h"
    machine = FakeMachine()
    then = Script().key("RETURN")
    with using_backend(machine):
        result = run_program(EmulatorOptions(hdir=hdir), program, then)
    assert result.ok
    typed = TypeText('RUN "H1:SQUARES.BAS"\n').frames()
    assert machine.fed == [IDLE] * BOOT_FRAMES + typed + PressKey("RETURN").frames()
    assert (hdir / "SQUARES.BAS").read_bytes() == program.read_bytes()
    disk = tmp_path / "T.ATR"
    disk.write_bytes(b"")
    with using_backend(machine):
        run_disk(EmulatorOptions(), disk, Script())
    assert machine.runs[-1].disk == disk


@pytest.mark.emulator
@pytest.mark.parametrize("kind", ["bas", "lst"])
def test_run_program(atari800: str, tmp_path: Path, kind: str) -> None:
    program = tmp_path / f"squares.{kind}"
    if kind == "bas":
        program.write_bytes(tokenize(WRITES_SQUARES))
    else:
        program.write_text(WRITES_SQUARES)
    hdir = tmp_path / "h"
    result = run_program(
        EmulatorOptions(hdir=hdir), program, Script().wait_for_file("OUT.TXT", 600)
    )
    assert result.ok, result.log
    assert (hdir / "OUT.TXT").read_bytes() == b"1\x9b4\x9b9\x9b"


@pytest.mark.emulator
@pytest.mark.parametrize("flags", [[], ["--no-sio-patch", "--machine", "800"]])
def test_boot_an_atr(atari800: str, tmp_path: Path, flags: list[str]) -> None:
    """Booting from drive 1, with the patched (fast) and the real serial I/O."""
    disk = Dos2Disk.new(source="T.ATR")
    disk.add_file("PROG.BAS", tokenize(WRITES_SQUARES))
    install_boot_menu(disk, [MenuEntry.parse("PROG.BAS")], "T")
    image = tmp_path / "T.ATR"
    image.write_bytes(disk.to_bytes())
    script = tmp_path / "boot.txt"
    script.write_text("wait 150\nkey 1\nwait-file OUT.TXT 3000\n")
    hdir = tmp_path / "h"
    hdir.mkdir()  # --hdir names a folder that is there (it is not created)
    args = ["emu", "run", str(image), "--script", str(script), "--hdir", str(hdir)]
    assert main([*args, *flags]) == 0
    assert (hdir / "OUT.TXT").read_bytes() == b"1\x9b4\x9b9\x9b"
