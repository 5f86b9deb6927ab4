"""A test disk in atari800 with no H: device given to the machine, then checked.

The machine gets no ``-H1`` folder and atari800's own H: and P: are off
(``host_devices=False``): the games find their configuration and write their
transcripts through the disk's own H: handler and SIO only, and the machine's
record of its handler table, taken at boot, says so (``PCESK``). What they wrote
is read back from the ATR atari800 wrote into, as from a real drive, by
``machfsol verify --results``. The built-in ROMs (AltirraOS, Altirra BASIC).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from a8.cli import main as a8_main
from a8.disk.dos2.geometry import mydos_geometry
from a8.disk.recorded import read_recording_file
from a8.emu.emulator import EmulatorOptions, RunResult, run
from a8.emu.script import Script
from machfsol.atari.basic_game import overlay_listing, to_atascii
from machfsol.atari.build import game_programs
from machfsol.atari.test_disk import TestDiskPlan, build_test_disk
from machfsol.cli import main

pytestmark = pytest.mark.emulator

BARE = EmulatorOptions(host_devices=False)
#: Emulated frames that are far more than two deals of each variant take (about 12,500).
BUDGET = 60_000
#: To the end of the run: the last program's table, then BASIC's prompt (Altirra
#: BASIC says "Ready") once it has ended, and a second for the state's last commit.
TO_THE_END = Script().wait_for_text("KINGS DOWN ALTERNATING", BUDGET).wait_for_text("Ready", BUDGET)


def built_disk(tmp_path: Path, name: str = "TEST.ATR") -> Path:
    path = tmp_path / name
    assert main(["build", "--test-disk", "--seeds", "1-2", "-o", str(path)]) == 0
    return path


def boot(path: Path, script: Script) -> RunResult:
    return run(replace(BARE, disk=path), script)


def test_a_whole_run_is_recorded_and_verified(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = built_disk(tmp_path)
    result = boot(path, TO_THE_END.wait(60))
    assert result.ok and "-H1" not in result.command
    assert a8_main(["atr", "check", str(path)]) == 0
    recording = read_recording_file(path)
    assert recording.finished and len(recording.boots) == 1
    assert recording.boots[0].machine.devices == "PCESK"  # no H: but the disk's own
    capsys.readouterr()
    assert main(["verify", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "OS: AltirraOS" in out and "BASIC: Altirra BASIC 1.55" in out
    assert "4 of 4 deals verified, recorded in 1 boot" in out and out.rstrip().endswith("OK")
    assert main(["verify", "--results", str(path), "--json"]) == 0
    assert '"ok": true' in capsys.readouterr().out


def test_a_mydos_test_disk_is_recorded_and_verified(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk ``--seeds 1-100 --variant both`` gets is a MyDOS one (16-bit links):
    the same run on a MyDOS disk of 1440 sectors, read back by ``verify --results``.
    (The Atari's writes past sector 1023 are tests/a8/disk/test_recording_emulator.py's.)"""
    path = tmp_path / "MYDOS.ATR"
    plan = TestDiskPlan((1, 2), ((52, (1, 2)),))
    overlay = to_atascii(overlay_listing(None))
    built = build_test_disk(game_programs(), overlay, plan, str(path), mydos_geometry(1440, 256))
    path.write_bytes(built.recording.atr)
    assert a8_main(["atr", "check", str(path)]) == 0
    result = boot(path, TO_THE_END.wait(60))
    assert result.ok
    capsys.readouterr()
    assert a8_main(["atr", "check", str(path)]) == 0
    assert "MyDOS (1440 sectors of 256 bytes): no problems" in capsys.readouterr().out
    assert main(["verify", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 deals verified, recorded in 1 boot" in out and out.rstrip().endswith("OK")


def test_a8_emu_run_by_frames_leaves_the_records_in_the_disk(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a user types: the records are in the ATR itself after the run."""
    path = built_disk(tmp_path)
    assert a8_main(["emu", "run", str(path), "--no-host-devices", "--frames", "20000"]) == 0
    capsys.readouterr()
    assert main(["verify", "--results", str(path)]) == 0
    assert "4 of 4 deals verified" in capsys.readouterr().out


def test_a_run_stopped_midway_resumes_and_records_every_deal_once(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the whole run's length in frames, on a disk of its own
    whole = boot(built_disk(tmp_path, "WHOLE.ATR"), TO_THE_END)
    path = built_disk(tmp_path)
    cut = boot(path, Script().wait(whole.frames * 3 // 5))  # the emulator stopped there
    assert cut.ok
    assert a8_main(["atr", "check", str(path)]) == 0
    recording = read_recording_file(path)
    recorded = [record for record in recording.records if record.name.startswith("T")]
    assert 1 <= len(recorded) < 4 and not recording.finished
    capsys.readouterr()
    assert main(["verify", "--results", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{len(recorded)} of 4 deals verified" in out and "MISSING variant" in out
    assert "boot the disk again" in out

    again = boot(path, TO_THE_END.wait(60))
    assert again.ok and a8_main(["atr", "check", str(path)]) == 0
    recording = read_recording_file(path)
    assert recording.finished and len(recording.boots) == 2
    transcripts = [record for record in recording.records if record.name.startswith("T")]
    assert len(transcripts) == 4  # every deal once: none lost, none twice
    assert recording.boots[1].first_record > 0
    capsys.readouterr()
    assert main(["verify", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 deals verified, recorded in 2 boots" in out
    assert out.count("machine at boot") == 2
