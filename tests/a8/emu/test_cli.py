"""``a8 emu doctor`` and ``a8 emu run`` end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main
from a8.emu import doctor
from a8.emu.emulator import EmulatorOptions, run, using_backend
from a8.emu.script import Script
from tests.a8.emu.fake_machine import FakeMachine, Shown, screen_fixture


@pytest.mark.emulator
def test_doctor_passes_here(atari800: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["emu", "doctor"]) == 0
    out = capsys.readouterr().out
    assert "[ok] atari800" in out
    assert "[ok] headless run: XL NTSC, 60 frames/s" in out
    assert "[ok] OS: AltirraOS 3.28 (built-in, CRC32 " in out  # the XL self test in view
    assert "[ok] BASIC: Altirra BASIC 1.55 (built-in, CRC32 " in out


@pytest.mark.emulator
def test_doctor_names_your_own_roms(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dump the built-in 400/800 OS through the doctor's run, then give it back as a file."""
    shot = run(
        EmulatorOptions(machine="800"), Script().wait(200).screenshot(str(tmp_path / "s.png"))
    )
    rom = tmp_path / "os800.rom"
    rom.write_bytes(shot.screens[0].memory[0xD800:0x10000])
    assert main(["emu", "doctor", "--machine", "800", "--tv", "pal", "--os-rom", str(rom)]) == 0
    out = capsys.readouterr().out
    assert "[ok] headless run: 800 PAL, 50 frames/s" in out
    assert "[ok] OS: AltirraOS 3.28 (CRC32 " in out
    assert f"from {rom}: in the machine (10240 bytes in view, all equal" in out


def test_doctor_names_the_fix_when_atari800_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("A8_ATARI800", str(tmp_path / "no-atari800"))
    monkeypatch.setenv("A8_BASIC_ROM", str(tmp_path / "basic.rom"))
    assert main(["emu", "doctor"]) == 1
    out = capsys.readouterr().out
    assert "[MISSING] atari800" in out
    assert "apt-get install -y atari800" in out
    assert (
        f"[MISSING] ROM files: {tmp_path / 'basic.rom'} (from $A8_BASIC_ROM): ROM file not found"
        in out
    )


@pytest.mark.emulator
def test_run_listing_with_screenshot(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "hi.lst"
    listing.write_text('10 OPEN #1,8,0,"H1:OUT.TXT":PRINT #1;"RAN":CLOSE #1\n')
    png, log, hdir = tmp_path / "end.png", tmp_path / "run.log", tmp_path / "h"
    hdir.mkdir()  # --hdir names a folder that is there (it is not created)
    args = ["emu", "run", str(listing), "--hdir", str(hdir), "--frames", "120"]
    assert main([*args, "--screenshot", str(png), "--log", str(log), "--print-screen"]) == 0
    out = capsys.readouterr().out
    assert '  ENTER "H1:HI.LST"' in out.splitlines()
    assert "ended: script-end, exit status 0" in out
    assert "frames (NTSC, 60 a second)" in out
    assert "OS: AltirraOS (built-in)" in out.splitlines()
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
        "(known: type, key, hold, wait, wait-file, wait-text, wait-input, screenshot)"
    )
    assert main(["emu", "run", str(tmp_path / "game.xex")]) == 1
    assert "give a .ATR, .BAS or .LST file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--frames", "-5"], "--frames -5: give 0 to 5184000 frames"),
        (["--frames", "999999999999"], "--frames 999999999999: give 0 to 5184000 frames"),
        (["--max-frames", "0"], "--max-frames 0: give 1 or more frames"),
        (["--timeout", "-1"], "--timeout -1.0: give a number of seconds above 0"),
        (["--timeout", "nan"], "--timeout nan: give a number of seconds above 0"),
    ],
)
def test_run_refuses_limits_that_end_it_before_it_starts(
    capsys: pytest.CaptureFixture[str], option: list[str], message: str
) -> None:
    assert main(["emu", "run", *option]) == 2
    assert capsys.readouterr().err.strip() == message


@pytest.mark.emulator
def test_run_shows_control_characters_of_its_outputs_escaped(
    atari800: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: ``screenshot "<ESC>[2J.png"`` in a script cleared the terminal when the
    run named the screenshot it wrote."""
    script = tmp_path / "s.txt"
    script.write_text('wait 10\nscreenshot "\x1b[2J.png"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["emu", "run", "--script", str(script), "--log", "x\x1b[2J.log"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "screenshot: \\x1b[2J.png" in out.splitlines()
    assert "log: x\\x1b[2J.log" in out.splitlines()
    assert (tmp_path / "\x1b[2J.png").exists()


@pytest.mark.parametrize("contrib", [True, False], ids=["contrib enabled", "contrib missing"])
def test_doctor_prints_only_the_fixes_needed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    contrib: bool,
) -> None:
    """Was: contrib said [ok] and the atari800 fix still began with enabling it; and
    the hint named ``bash .ci/setup`` to users of an installed wheel, who have none."""
    monkeypatch.chdir(tmp_path)  # a folder that is no checkout
    monkeypatch.setenv("A8_ATARI800", "")
    monkeypatch.setenv("PATH", str(tmp_path))  # no atari800 anywhere
    found = doctor.Check("apt contrib", True, "enabled in test.sources")
    missing = doctor.Check("apt contrib", False, "not enabled", doctor.CONTRIB_FIX)
    monkeypatch.setattr(doctor, "check_contrib", lambda: found if contrib else missing)
    assert main(["emu", "doctor"]) == 1
    out = capsys.readouterr().out
    fixes = [line for line in out.splitlines() if line.startswith("    fix: ")]
    # contrib's fix once, under its own check, then atari800's
    wanted = [doctor.INSTALL_FIX] if contrib else [doctor.CONTRIB_FIX, doctor.INSTALL_FIX]
    assert [line.removeprefix("    fix: ") for line in fixes] == wanted
    assert ".ci/setup" not in out
    assert "[MISSING] atari800: atari800 is not installed\n" in out
    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "setup").write_text("# a checkout's set-up\n")
    assert main(["emu", "doctor"]) == 1
    assert "fix: bash .ci/setup" in capsys.readouterr().out


def test_run_summarises_a_run_without_atari800(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`a8 emu run` through the emulator interface, on the stand-in machine."""
    machine = FakeMachine(screens=[Shown(50, screen_fixture("basic-ready"))])
    log = tmp_path / "run.log"
    with using_backend(machine):
        assert main(["emu", "run", "--frames", "100", "--print-screen", "--log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "  Altirra 8K BASIC 1.55",
        "  Ready",
        "ended: script-end, exit status 0, 100 frames (NTSC, 60 a second)",
    ]
    assert out[-1] == f"log: {log}"
    assert len(machine.fed) == 100


def test_run_exits_1_when_the_script_does_not_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 10\nwait-file NEVER.TXT 60\n")
    with using_backend(FakeMachine()):
        code = main(["emu", "run", "--script", str(script), "--tv", "pal"])
    assert code == 1
    captured = capsys.readouterr()
    assert "ended: wait-file-timeout, exit status 0, 70 frames (PAL, 50 a second)" in captured.out
    assert captured.err == "the run did not end cleanly (wait-file-timeout)\n"
