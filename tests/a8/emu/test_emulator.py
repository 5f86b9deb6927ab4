"""The runner against the real atari800: boots, H: files, waits, limits, machines."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from a8.emu.emulator import EmulatorOptions, run
from a8.emu.keywait import frames_between
from a8.emu.runner import FILE_POLL_FRAMES
from a8.emu.script import Script

pytestmark = pytest.mark.emulator

BOOT = Script().wait(150)


def write_file_line(name: str, text: str) -> str:
    return f'OPEN #1,8,0,"H1:{name}":PRINT #1;"{text}":CLOSE #1\n'


@pytest.mark.parametrize("machine", ["xl", "800"])
def test_basic_one_liner_writes_to_h(atari800: str, tmp_path: Path, machine: str) -> None:
    script = BOOT.type(write_file_line("OUT.TXT", "HELLO")).wait_for_file("OUT.TXT", 600)
    result = run(EmulatorOptions(machine=machine, hdir=tmp_path), script)  # type: ignore[arg-type]
    assert result.reason == "script-end"
    assert result.ok, result.log
    assert (tmp_path / "OUT.TXT").read_bytes() == b"HELLO\x9b"
    assert result.exit_status == 0
    # only the first frame's checksum (0) can match what a script sends
    assert result.checksum_mismatches == result.frames - 1
    assert "adler32" not in result.log


def test_wait_for_file_is_frame_exact_and_repeatable(atari800: str, tmp_path: Path) -> None:
    """The same script on the same machine runs the same number of frames."""
    script = BOOT.type("FOR I=1 TO 300:NEXT I:" + write_file_line("A.TXT", "X"))
    script = script.wait_for_file("A.TXT", 3000)
    counts = []
    for attempt in range(2):
        hdir = tmp_path / str(attempt)
        hdir.mkdir()
        counts.append(run(EmulatorOptions(hdir=hdir), script).frames)
    assert counts[0] == counts[1]
    assert counts[0] > script.input_frames()


def test_the_program_decides_when_the_file_appears(atari800: str, tmp_path: Path) -> None:
    """A longer program run takes more frames before wait-file returns (more than the
    frames between two looks at the folder)."""
    frames = []
    for loops in (10, 20000):
        hdir = tmp_path / str(loops)
        hdir.mkdir()
        script = BOOT.type(f"FOR I=1 TO {loops}:NEXT I:" + write_file_line("T.TXT", "1"))
        result = run(EmulatorOptions(hdir=hdir), script.wait_for_file("T.TXT", 20000))
        assert result.ok
        frames.append(result.frames)
    assert frames[1] > frames[0] + FILE_POLL_FRAMES


def test_wait_for_file_times_out(atari800: str, tmp_path: Path) -> None:
    result = run(EmulatorOptions(hdir=tmp_path), BOOT.wait_for_file("NEVER.TXT", 100))
    assert result.reason == "wait-file-timeout"
    assert not result.ok
    assert 250 <= result.frames <= 300


@pytest.mark.parametrize("limit", [3, 100, 1000])
def test_frame_limit(atari800: str, limit: int) -> None:
    result = run(EmulatorOptions(max_frames=limit), Script().wait(5000))
    assert result.reason == "max-frames"
    assert result.frames == limit
    assert result.exit_status == 1  # ended at the end of its input, see RunResult.ok
    assert not result.ok


def test_wall_clock_timeout_kills_the_emulator(atari800: str, tmp_path: Path) -> None:
    """Real-time pacing makes 100,000 frames take half an hour; the timeout ends it."""
    options = EmulatorOptions(hdir=tmp_path, turbo=False, timeout_s=1.5)
    result = run(options, Script().wait(100_000))
    assert result.reason == "timeout"
    assert result.exit_status < 0  # killed by a signal
    assert result.frames < 1000


def test_pal_and_basic_off(atari800: str, tmp_path: Path) -> None:
    """Without BASIC the XL boots to the self test or memo pad: no file is written."""
    script = BOOT.type(write_file_line("B.TXT", "1")).wait_for_file("B.TXT", 200)
    result = run(EmulatorOptions(tv="pal", basic=False, hdir=tmp_path), script)
    assert result.reason == "wait-file-timeout"
    assert "-pal" in result.command and "-nobasic" in result.command


def test_option_held_disables_basic(atari800: str, tmp_path: Path) -> None:
    script = BOOT.type(write_file_line("C.TXT", "1")).wait_for_file("C.TXT", 200)
    result = run(EmulatorOptions(option_held=True, hdir=tmp_path), script)
    assert result.reason == "wait-file-timeout"


def test_an_emulator_that_dies_at_start_is_reported(
    atari800: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that exits without reading its input ends the run, not a hang."""
    monkeypatch.setenv("A8_ATARI800", "/bin/false")
    result = run(EmulatorOptions(timeout_s=10), BOOT)
    assert result.reason == "emulator-exited"
    assert not result.ok
    assert result.exit_status == 1


def test_frame_limit_before_a_screenshot(atari800: str, tmp_path: Path) -> None:
    script = Script().wait(100).screenshot(str(tmp_path / "never.png"))
    result = run(EmulatorOptions(max_frames=105), script)
    assert result.reason == "max-frames"
    assert result.frames == 105
    assert result.screenshots == ()
    assert not (tmp_path / "never.png").exists()


def test_wait_for_text_on_the_screen(atari800: str, tmp_path: Path) -> None:
    """Waiting for the prompt instead of a guessed number of frames."""
    script = (
        Script()
        .wait_for_text("Ready", 600)
        .type('FOR I=1 TO 1500:NEXT I:PRINT "DO";"NE"\n')  # the echo must not match
        .wait_for_text("DONE", 3000)
        .type(write_file_line("T.TXT", "1"))
        .wait_for_file("T.TXT", 300)
    )
    result = run(EmulatorOptions(hdir=tmp_path), script)
    assert result.ok, result.reason
    missing = run(EmulatorOptions(), Script().wait_for_text("NO SUCH TEXT", 90))
    assert missing.reason == "wait-text-timeout"
    assert missing.exit_status == 0  # still ended through the monitor


def test_relative_paths_are_the_callers(
    atari800: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """atari800 runs in a folder of its own; relative paths still mean the caller's."""
    monkeypatch.chdir(tmp_path)
    script = BOOT.type(write_file_line("R.TXT", "1")).wait_for_file("R.TXT", 300)
    result = run(EmulatorOptions(hdir=Path("h")), script.screenshot("r.png"))
    assert result.ok
    assert (tmp_path / "h" / "R.TXT").exists()
    assert (tmp_path / "r.png").exists()


def test_break_inverse_and_control_keys(atari800: str, tmp_path: Path) -> None:
    script = (
        Script()
        .wait_for_text("Ready", 600)
        .type("10 GOTO 10\nRUN\n")
        .wait(60)
        .key("BREAK")
        .wait(30)
        .key("INVERSE")
        .type("AB")
        .key("INVERSE")
        .type("C")
        .key("CTRL-T")
        .wait(10)
        .screenshot(str(tmp_path / "keys.png"))
    )
    result = run(EmulatorOptions(), script)
    assert result.ok
    screen = result.screens[0]
    lines = [line.strip() for line in screen.text_lines()]
    assert "Stopped at line 10" in lines  # Altirra BASIC's words for a BREAK
    row = lines.index("Stopped at line 10") + 1
    assert lines[row] == "ABC●"  # CTRL-T is the ball graphic
    start = screen.word(0x58) + 40 * row + 2  # SAVMSC: screen memory, two margin columns
    assert list(screen.memory[start : start + 4]) == [0xA1, 0xA2, 0x23, 0x54]  # inverse A, B


def test_wait_for_file_waits_for_close(atari800: str, tmp_path: Path) -> None:
    """A file the program keeps open for a while (and writes in between) is not done.

    The loop takes about 120 frames, longer than two looks at the folder: with
    the size check alone the run would end after FIRST, with the file still open.
    """
    program = (
        'OPEN #1,8,0,"H1:SLOW.TXT":PRINT #1;"FIRST":FOR I=1 TO 3000:NEXT I:'
        'PRINT #1;"LAST":CLOSE #1\n'
    )
    script = BOOT.type(program).wait_for_file("SLOW.TXT", 6000)
    result = run(EmulatorOptions(hdir=tmp_path), script)
    assert result.ok
    assert (tmp_path / "SLOW.TXT").read_bytes() == b"FIRST\x9bLAST\x9b"


def test_parallel_runs_do_not_mix(atari800: str, tmp_path: Path) -> None:
    """Several emulators at once, each with its own pipe, monitor and H: folder."""

    def one(number: int) -> tuple[bool, bytes, str]:
        hdir = tmp_path / str(number)
        script = (
            BOOT.type(write_file_line("N.TXT", str(number)))
            .wait_for_file("N.TXT", 600)
            .type(f'PRINT "RUN {number}"\n')
            .wait(10)
            .screenshot(str(hdir / "s.png"))
        )
        result = run(EmulatorOptions(hdir=hdir), script)
        text = "\n".join(result.screens[0].text_lines()) if result.screens else ""
        return result.ok, (hdir / "N.TXT").read_bytes(), text

    with ThreadPoolExecutor(max_workers=3) as pool:
        outcomes = list(pool.map(one, range(1, 7)))
    for number, (ok, written, text) in enumerate(outcomes, start=1):
        assert ok
        assert written == f"{number}\x9b".encode("latin-1")
        assert f"RUN {number}" in text


def own_roms() -> EmulatorOptions:
    """The built-in ROMs, or the ones in $A8_TEST_OS_ROM / $A8_TEST_BASIC_ROM (local runs)."""
    os_rom, basic_rom = os.environ.get("A8_TEST_OS_ROM"), os.environ.get("A8_TEST_BASIC_ROM")
    return EmulatorOptions(
        os_rom=Path(os_rom) if os_rom else None, basic_rom=Path(basic_rom) if basic_rom else None
    )


def test_typing_doubled_letters_and_digits(atari800: str) -> None:
    """Every key arrives once: the OS takes each one (the key watcher counts them).

    With the genuine XL OS (A8_TEST_OS_ROM) this is the debounce check: with 2
    key-up frames between two equal keys, 25 of these 32 keys arrived there.
    """
    line = 'PRINT "PEEK 1100 LOOKS 2299 ZZ"'
    script = Script().wait_for_input(900).type(line + "\n").wait_for_input(300)
    result = run(replace(own_roms(), watch_keys=True), script)
    assert result.ok
    takes = [event for event in result.key_events if event.kind == "take"]
    assert len(takes) == len(line) + 1
    ready = [event for event in result.key_events if event.kind == "ready"]
    screen = ready[-1].screen
    assert screen is not None
    lines = [text.strip() for text in screen.text_lines()]
    assert lines[lines.index(line) + 1] == "PEEK 1100 LOOKS 2299 ZZ"


def test_wait_input_gives_the_frames_until_the_next_key(atari800: str) -> None:
    """A program that GETs keys: each key's work takes the frames its loop takes."""
    program = ['10 OPEN #1,4,0,"K:"', "20 GET #1,K:FOR I=1 TO K*4:NEXT I:GOTO 20", "RUN"]
    script = Script().wait_for_input(900)
    for line in program:  # keys typed while BASIC stores a line can be lost: wait
        script = script.type(line + "\n").wait_for_input(600)
    for key in "A", "Z", "A":
        script = script.key(key).wait_for_input(3000)
    result = run(own_roms(), script)
    assert result.ok, result.reason
    events = result.key_events
    run_at = max(index for index, event in enumerate(events) if event.key == 0x0C)  # RETURN
    cycle = [(event.kind, event.key) for event in events[run_at + 2 :]]
    assert cycle == [("take", 0x3F), ("ready", 0xFF), ("take", 0x17), ("ready", 0xFF)] + [
        ("take", 0x3F),
        ("ready", 0xFF),
    ]
    a1, z, a2 = (
        frames_between(events[i], events[i + 1]) for i in range(run_at + 2, len(events), 2)
    )
    assert a1 == a2 > 5  # 65 * 4 empty loops: the same work, the same frames
    assert z > a1 * 1.3  # 90 * 4 loops


def test_wait_input_times_out_when_nothing_asks_for_a_key(atari800: str) -> None:
    script = Script().wait_for_input(900).type("10 GOTO 10\nRUN\n").wait_for_input(200)
    result = run(EmulatorOptions(), script)
    assert result.reason == "wait-input-timeout"
    assert result.exit_status == 0


def test_a_key_is_taken_in_the_frame_it_goes_down(atari800: str) -> None:
    """With the program waiting, the OS takes a key at once: press and take share a jiffy.

    The presses' jiffies come from the clock read at pauses (wait-input's first look).
    """
    script = Script().wait_for_input(900).type("10 REM\n").wait_for_input(300)
    result = run(own_roms(), script)
    takes = [event for event in result.key_events if event.kind == "take"]
    presses = result.key_presses
    assert [press.code for press in presses] == [0x1F, 0x32, 0x21, 0x28, 0x2A, 0x25, 0x0C]
    assert [take.key for take in takes] == [press.code for press in presses]
    assert [press.jiffy for press in presses] == [take.jiffy for take in takes]
    assert all(
        later.frame - earlier.frame == 5
        for earlier, later in zip(presses, presses[1:], strict=False)
    )
