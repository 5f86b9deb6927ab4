"""The script runner on the stand-in machine: every step, every early end, to the frame.

The stand-in (tests/a8/emu/fake_machine.py) runs exactly the frames it is asked
for, so each figure below is the runner's own arithmetic: input frames queued and
sent in one go, looks every POLL_FRAMES or INPUT_POLL_FRAMES frames, timeouts
counted in frames. (With atari800 the same steps also fill whole playback blocks;
tests/a8/emu/test_emulator.py runs them there.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from a8.emu.emulator import EmulatorError, EmulatorOptions, RunResult, run, using_backend
from a8.emu.keys import CONSOLE_NONE, CONSOLE_OPTION, IDLE, Frame
from a8.emu.keywait import KeyPress
from a8.emu.runner import FILE_POLL_FRAMES, INPUT_POLL_FRAMES, OPTION_HELD_FRAMES, POLL_FRAMES
from a8.emu.script import HoldKey, PressKey, Script, TypeText, Wait
from tests.a8.emu.fake_machine import FakeMachine, HFile, Shown, screen_fixture

BOOT = Script().wait(150)


def run_on(machine: FakeMachine, script: Script, **options: Any) -> RunResult:
    """Run ``script`` through the interface, with ``machine`` as the default backend."""
    with using_backend(machine):
        return run(EmulatorOptions(**options), script)


def test_the_runner_values_are_the_documented_ones() -> None:
    assert (POLL_FRAMES, FILE_POLL_FRAMES, INPUT_POLL_FRAMES, OPTION_HELD_FRAMES) == (
        30,
        300,
        9,
        120,
    )


def test_input_steps_are_fed_frame_for_frame(tmp_path: Path) -> None:
    machine = FakeMachine(files=[HFile("OUT.TXT", b"X\x9b", at=0)])
    script = Script().type("AB\n").key("START").hold("OPTION", 4).wait(7)
    with_look = script.wait_for_file("OUT.TXT", 100)
    result = run_on(machine, with_look, hdir=tmp_path)
    expected = TypeText("AB\n").frames() + PressKey("START").frames()
    expected += HoldKey("OPTION", 4).frames() + Wait(7).frames()
    assert machine.fed == expected
    assert result.frames == len(expected) == script.input_frames()
    codes = [press.code for press in result.key_presses]
    assert codes == [0x3F, 0x15, 0x0C, -1, -1]  # A, B, RETURN, START, OPTION


def test_wait_file_looks_every_poll_frames_until_the_file_is_there(tmp_path: Path) -> None:
    machine = FakeMachine(files=[HFile("OUT.TXT", b"HELLO\x9b", at=200)])
    result = run_on(machine, BOOT.wait_for_file("OUT.TXT", 600), hdir=tmp_path)
    # looks at 150 (nothing yet) and 150 + FILE_POLL_FRAMES
    assert (result.reason, result.frames, result.exit_status) == ("script-end", 450, 0)
    assert result.ok
    assert (tmp_path / "OUT.TXT").read_bytes() == b"HELLO\x9b"


def test_wait_file_waits_until_the_program_closes_it(tmp_path: Path) -> None:
    machine = FakeMachine(files=[HFile("SLOW.TXT", b"FIRST\x9b", at=200, closed=500)])
    result = run_on(machine, BOOT.wait_for_file("SLOW.TXT", 900), hdir=tmp_path)
    # there but open at 450, closed at the next look
    assert (result.reason, result.frames) == ("script-end", 750)


def test_wait_file_without_open_files_waits_for_a_steady_size(tmp_path: Path) -> None:
    """Where the system cannot tell whether the file is open, two looks must agree."""
    machine = FakeMachine(files=[HFile("OUT.TXT", b"1\x9b", at=200, closed=320)], tells_open=False)
    result = run_on(machine, BOOT.wait_for_file("OUT.TXT", 900), hdir=tmp_path)
    assert (result.reason, result.frames) == ("script-end", 750)  # the same size at 450, 750


def test_stop_on_file_ends_the_script_after_the_file_it_judges(tmp_path: Path) -> None:
    files = [HFile("T1.TXT", b"1\x9b", at=200), HFile("T2.TXT", b"2\x9b", at=800)]
    seen: list[str] = []

    def enough(path: Path) -> bool:
        seen.append(path.name)
        return path.read_bytes() == b"1\x9b"

    script = BOOT.wait_for_file("T1.TXT", 3000).wait_for_file("T2.TXT", 3000).wait(500)
    result = run_on(FakeMachine(files=files), script, hdir=tmp_path, stop_on_file=enough)
    assert (result.reason, result.frames, result.exit_status) == ("stopped-on-file", 450, 0)
    assert seen == ["T1.TXT"]
    assert not result.ok
    # the same script with a judge that never stops runs to its end
    result = run_on(
        FakeMachine(files=files), script, hdir=tmp_path / "2", stop_on_file=lambda path: False
    )
    assert (result.reason, result.frames) == ("script-end", 1050 + 500)


def test_wait_file_times_out_after_its_frames_and_ends_cleanly(tmp_path: Path) -> None:
    result = run_on(FakeMachine(), BOOT.wait_for_file("NEVER.TXT", 100), hdir=tmp_path)
    assert (result.reason, result.frames, result.exit_status) == ("wait-file-timeout", 250, 0)
    assert not result.ok


def test_the_frame_limit_stops_the_run_where_it_says() -> None:
    machine = FakeMachine()
    result = run_on(machine, Script().wait(5000), max_frames=1000)
    assert (result.reason, result.frames, result.exit_status) == ("max-frames", 1000, 1)
    assert len(machine.fed) == 1000


def test_wait_text_reads_the_screen_every_poll_frames() -> None:
    machine = FakeMachine(
        screens=[Shown(95, screen_fixture("basic-ready")), Shown(400, screen_fixture("basic-done"))]
    )
    command = 'PRINT "DO";"NE"\n'  # its echo must not match DONE
    script = Script().wait_for_text("Ready", 600).type(command).wait_for_text("DONE", 3000)
    result = run_on(machine, script)
    assert result.reason == "script-end"
    typed = len(TypeText(command).frames())
    assert typed == 80
    assert result.frames == 410  # Ready seen at 120, typing to 200, DONE seen at 410


def test_wait_text_times_out() -> None:
    machine = FakeMachine(screens=[Shown(0, screen_fixture("basic-ready"))])
    result = run_on(machine, Script().wait_for_text("NO SUCH TEXT", 90))
    assert (result.reason, result.frames, result.exit_status) == ("wait-text-timeout", 90, 0)


def test_wait_input_runs_until_the_program_takes_the_keys_and_waits_again() -> None:
    machine = FakeMachine(first_key_wait=60, key_work=40)
    script = Script().wait_for_input(900).type("A").wait_for_input(300)
    result = run_on(machine, script)
    assert result.reason == "script-end"
    # waits from 60: seen at 63 (7 looks of 9); A pressed at 63, taken, busy until 103
    assert result.key_presses == (KeyPress(63, 0x3F, CONSOLE_NONE, None),)
    assert result.frames == 104


def test_wait_input_times_out_when_nothing_asks_for_a_key() -> None:
    result = run_on(FakeMachine(), Script().wait_for_input(30))
    assert (result.reason, result.frames, result.exit_status) == ("wait-input-timeout", 36, 0)


def test_wait_input_says_why_when_the_key_wait_cannot_be_found() -> None:
    machine = FakeMachine(key_wait_error="no keyboard handler in HATABS")
    with pytest.raises(EmulatorError, match=r"^wait-input: no keyboard handler in HATABS$"):
        run_on(machine, Script().wait_for_input(30))


def test_option_held_from_power_on() -> None:
    machine = FakeMachine()
    result = run_on(machine, Script().wait(10), option_held=True)
    option = Frame(console=CONSOLE_NONE & ~CONSOLE_OPTION)
    assert machine.fed == [option] * 120 + [IDLE] * 10
    assert result.frames == 130


def test_screenshots_are_written_and_kept(tmp_path: Path) -> None:
    ready = screen_fixture("basic-ready")
    machine = FakeMachine(screens=[Shown(0, ready)])
    png = tmp_path / "shot.png"
    result = run_on(machine, Script().wait(10).screenshot(str(png)))
    assert result.ok
    assert result.screenshots == (png,)
    assert [line.rstrip() for line in result.screens[0].text_lines()[:2]] == [
        "  Altirra 8K BASIC 1.55",
        "  Ready",
    ]
    with Image.open(png) as picture:
        assert picture.size == ready.image().size


def test_a_stop_keeps_the_screenshots_taken_before_it(tmp_path: Path) -> None:
    png = tmp_path / "early.png"
    script = Script().wait(10).screenshot(str(png)).wait(500)
    result = run_on(FakeMachine(), script, max_frames=100)
    assert (result.reason, result.frames) == ("max-frames", 100)
    assert result.screenshots == (png,) and png.exists()


def test_wait_file_without_host_devices_is_refused_before_anything_runs() -> None:
    machine = FakeMachine(files=[HFile("OUT.TXT", b"X\x9b", at=0)])
    script = BOOT.wait_for_file("OUT.TXT", 600)
    with pytest.raises(EmulatorError, match="wait-file OUT.TXT: the run gives the machine no H:"):
        run_on(machine, script, host_devices=False)
    assert machine.fed == []
