"""``a8 emu doctor`` and ``a8 emu run`` end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main


@pytest.mark.emulator
def test_doctor_passes_here(atari800: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["emu", "doctor"]) == 0
    out = capsys.readouterr().out
    assert "[ok] atari800" in out
    assert "[ok] headless run" in out


def test_doctor_names_the_fix_when_atari800_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("A8_ATARI800", str(tmp_path / "no-atari800"))
    monkeypatch.setenv("A8_BASIC_ROM", str(tmp_path / "basic.rom"))
    assert main(["emu", "doctor"]) == 1
    out = capsys.readouterr().out
    assert "[MISSING] atari800" in out
    assert "apt-get install -y atari800" in out
    assert "[MISSING] A8_BASIC_ROM" in out


@pytest.mark.emulator
def test_run_listing_with_screenshot(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "hi.lst"
    listing.write_text('10 OPEN #1,8,0,"H1:OUT.TXT":PRINT #1;"RAN":CLOSE #1\n')
    png, log, hdir = tmp_path / "end.png", tmp_path / "run.log", tmp_path / "h"
    args = ["emu", "run", str(listing), "--hdir", str(hdir), "--frames", "120"]
    assert main([*args, "--screenshot", str(png), "--log", str(log), "--print-screen"]) == 0
    out = capsys.readouterr().out
    assert '  ENTER "H1:HI.LST"' in out.splitlines()
    assert "ended: script-end, exit status 0" in out
    assert (hdir / "OUT.TXT").read_bytes() == b"RAN\x9b"
    assert png.stat().st_size > 0
    assert "Video Mode" in log.read_text()


@pytest.mark.emulator
def test_run_with_a_script_file(atari800: str, tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(
        'wait 100\ntype "OPEN #1,8,0,""H1:S.TXT"":CLOSE #1" RETURN\nwait-file S.TXT 300\n'
    )
    assert main(["emu", "run", "--script", str(script), "--hdir", str(tmp_path)]) == 0
    assert (tmp_path / "S.TXT").exists()


def test_run_reports_bad_input_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("wait 10\nbogus\n")
    assert main(["emu", "run", "--script", str(script)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"{script}:2: unknown command 'bogus' "
        "(known: type, key, hold, wait, wait-file, wait-text, screenshot)"
    )
    assert main(["emu", "run", str(tmp_path / "game.xex")]) == 1
    assert "give a .ATR, .BAS or .LST file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--frames", "-5"], "--frames -5: give 0 or more frames"),
        (["--max-frames", "0"], "--max-frames 0: give 1 or more frames"),
        (["--timeout", "-1"], "--timeout -1.0: give a number of seconds above 0"),
        (["--timeout", "nan"], "--timeout nan: give a number of seconds above 0"),
    ],
)
def test_run_refuses_limits_that_end_it_before_it_starts(
    capsys: pytest.CaptureFixture[str], option: list[str], message: str
) -> None:
    assert main(["emu", "run", *option]) == 1
    assert capsys.readouterr().err.strip() == message
