"""Drive atari800 headless with a keystroke playback file (test helper).

The shared runner a8.emu was not usable with an H: folder when these tests were
written, so this helper writes the playback file itself (format: see
docs/ATR.md and the platform notes) and runs the emulator to the file's end.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from a8.emu.keys import keystrokes_for_text

IDLE = "-1 0 7"


def _frame(key: str) -> list[str]:
    return [key, "255", "255", "1", "1", "1", "1", "00000000"]


def playback(steps: list[int | str]) -> str:
    """Frames for ``steps``: an int waits that many frames, a str types it."""
    lines = ["Atari800 event recording, version: 1", "0"]
    for step in steps:
        if isinstance(step, int):
            for _ in range(step):
                lines += _frame(IDLE)
            continue
        for stroke in keystrokes_for_text(step):
            for _ in range(2):
                lines += _frame(f"{stroke.code} {int(stroke.shift)} {stroke.console}")
            for _ in range(2):
                lines += _frame(IDLE)
    return "\n".join(lines) + "\n"


def boot(
    atari800: str,
    work: Path,
    disk: Path,
    steps: list[int | str],
    *,
    machine: str = "xl",
    sio_patch: bool = True,
    basic: bool = True,
) -> Path:
    """Boot ``disk``, play ``steps``; returns the H1: folder."""
    hdir = work / "h"
    hdir.mkdir(exist_ok=True)
    (work / "input.txt").write_text(playback(steps), encoding="ascii")
    (work / "atari800.cfg").write_text("")
    args = [atari800, "-config", str(work / "atari800.cfg"), "-no-autosave-config"]
    args += ["-xl", "-xl-rev", "altirra"] if machine == "xl" else ["-atari", "-800-rev", "altirra"]
    args += ["-basic", "-basic-rev", "altirra"] if basic else ["-nobasic"]
    if not sio_patch:
        args.append("-nopatch")
    args += ["-nosound", "-turbo", "-H1", str(hdir), "-hreadwrite"]
    args += ["-playback", str(work / "input.txt"), str(disk)]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    subprocess.run(args, env=env, cwd=work, capture_output=True, timeout=300, check=False)
    return hdir


def memory_after(
    atari800: str, work: Path, disk: Path, seconds: float, dumps: list[int], *, basic: bool
) -> dict[int, int]:
    """Run ``disk`` in real time for ``seconds``, then read memory in atari800's monitor.

    SIGINT makes atari800 enter its monitor, which reads commands on stdin; each
    ``M addr`` prints 16 lines of 16 bytes. Returns address -> byte.
    """
    import re
    import signal
    import time

    (work / "input.txt").write_text(playback([20000]), encoding="ascii")
    (work / "atari800.cfg").write_text("")
    args = [atari800, "-config", str(work / "atari800.cfg"), "-no-autosave-config"]
    args += ["-xl", "-xl-rev", "altirra"]
    args += ["-basic", "-basic-rev", "altirra"] if basic else ["-nobasic"]
    args += ["-nosound", "-playback", str(work / "input.txt"), str(disk)]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    process = subprocess.Popen(
        args,
        env=env,
        cwd=work,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    time.sleep(seconds)
    process.send_signal(signal.SIGINT)
    time.sleep(0.5)
    commands = "".join(f"M {address:04X}\n" for address in dumps) + "QUIT\n"
    output, _ = process.communicate(commands.encode("ascii"), timeout=60)
    memory: dict[int, int] = {}
    for line in output.decode("latin-1").splitlines():
        match = re.match(r"^([0-9A-F]{4}): ((?:[0-9A-F]{2} ){16})", line)
        if match:
            base = int(match.group(1), 16)
            for offset, value in enumerate(match.group(2).split()):
                memory[base + offset] = int(value, 16)
    return memory
