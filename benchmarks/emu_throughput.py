"""How fast the emulator runner drives atari800 (figures quoted in docs/EMULATOR.md).

Run: .venv/bin/python benchmarks/emu_throughput.py

Measures emulated frames per wall-clock second for: a long wait (large blocks),
a wait-file poll (30-frame blocks), typing, and, for comparison, atari800 reading
the same idle frames from a plain playback file with no runner at all; then the
cost of one screenshot.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from a8.emu.emulator import EmulatorOptions, find_atari800, headless_environment, run
from a8.emu.playback import IDLE, unpadded_stream
from a8.emu.script import Script

FRAMES = 30_000


def timed(label: str, frames_of: Callable[[], int]) -> None:
    started = time.perf_counter()
    frames = frames_of()
    seconds = time.perf_counter() - started
    print(f"{label:<44} {frames:>7} frames {seconds:6.2f} s {frames / seconds:8.0f} frames/s")


def runner(script: Script) -> Callable[[], int]:
    def go() -> int:
        with tempfile.TemporaryDirectory() as folder:
            result = run(EmulatorOptions(hdir=Path(folder)), script)
            assert result.reason in ("script-end", "wait-file-timeout"), result.reason
            return result.frames

    return go


def plain_file() -> int:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "in.txt").write_bytes(unpadded_stream([IDLE] * FRAMES))
        (work / "cfg").write_bytes(b"")
        (work / "cwd").mkdir()
        command = [str(find_atari800()), "-config", str(work / "cfg"), "-no-autosave-config"]
        command += ["-xl", "-xl-rev", "altirra", "-basic", "-basic-rev", "altirra"]
        command += ["-nosound", "-turbo", "-playback", str(work / "in.txt")]
        subprocess.run(
            command, env=headless_environment(), cwd=work / "cwd", capture_output=True, check=False
        )
    return FRAMES


def screenshots(count: int) -> Callable[[], int]:
    def go() -> int:
        with tempfile.TemporaryDirectory() as folder:
            script = Script().wait(150)
            for index in range(count):
                script = script.screenshot(f"{folder}/s{index}.png")
            started = time.perf_counter()
            run(EmulatorOptions(hdir=Path(folder)), script)
            each = (time.perf_counter() - started) / count * 1000
            print(f"  {count} screenshots: {each:.1f} ms each (boot included)")
            return count

    return go


def main() -> None:
    timed("atari800 alone, plain playback file", plain_file)
    timed("runner: wait (blocks of up to 511 frames)", runner(Script().wait(FRAMES)))
    timed(
        "runner: wait-file polling (30-frame blocks)",
        runner(Script().wait_for_file("NEVER.TXT", FRAMES)),
    )
    line = '10 PRINT 12345;"ABCDEFGHIJ"\n'
    timed("runner: typing", runner(Script().wait(150).type(line * 60)))
    timed("runner: 50 screenshots", screenshots(50))


if __name__ == "__main__":
    main()
