"""How fast the emulator runner drives atari800 (figures: docs/notes/emulator-atari800.md).

Run: .venv/bin/python benchmarks/emu_throughput.py

Measures emulated frames per wall-clock second for: a long wait (large blocks),
a wait-file poll (30-frame blocks), typing, and, for comparison, atari800 reading
the same idle frames from a plain playback file with no runner at all; then the
cost of one screenshot. The machine is shared, so every case runs ROUNDS times,
interleaved, and the best (least disturbed) round is reported with the worst.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from a8.emu.atari800.executable import find_executable, headless_environment
from a8.emu.atari800.playback import unpadded_stream
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.keys import IDLE
from a8.emu.script import Script

FRAMES = 30_000
ROUNDS = 3


def timed(frames_of: Callable[[], int]) -> float:
    """Frames per second of one round."""
    started = time.perf_counter()
    frames = frames_of()
    return frames / (time.perf_counter() - started)


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
        command = [str(find_executable()), "-config", str(work / "cfg"), "-no-autosave-config"]
        command += ["-xl", "-xl-rev", "altirra", "-basic", "-basic-rev", "altirra"]
        command += ["-nosound", "-turbo", "-playback", str(work / "in.txt")]
        subprocess.run(
            command, env=headless_environment(), cwd=work / "cwd", capture_output=True, check=False
        )
    return FRAMES


def screenshots(count: int) -> Callable[[], int]:
    """Runs of ``count`` screenshots; "frames" here are screenshots."""

    def go() -> int:
        with tempfile.TemporaryDirectory() as folder:
            script = Script().wait(150)
            for index in range(count):
                script = script.screenshot(f"{folder}/s{index}.png")
            run(EmulatorOptions(hdir=Path(folder)), script)
            return count

    return go


def main() -> None:
    line = '10 PRINT 12345;"ABCDEFGHIJ"\n'
    cases: dict[str, Callable[[], int]] = {
        "atari800 alone, plain playback file": plain_file,
        "runner: wait (blocks of up to 511 frames)": runner(Script().wait(FRAMES)),
        "runner: wait-file polling (30-frame blocks)": runner(
            Script().wait_for_file("NEVER.TXT", FRAMES)
        ),
        "runner: typing 60 lines": runner(Script().wait(150).type(line * 60)),
        "runner: screenshots (50 per run, boot included)": screenshots(50),
    }
    rates: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(ROUNDS):
        for label, case in cases.items():
            rates[label].append(timed(case))
    for label, values in rates.items():
        unit = "screenshots/s" if "screenshots" in label else "frames/s"
        print(f"{label:<50} best {max(values):7.0f}  worst {min(values):7.0f} {unit}")


if __name__ == "__main__":
    main()
