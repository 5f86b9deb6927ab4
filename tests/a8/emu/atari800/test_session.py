"""The pipe session gives up on an emulator that stops taking its input.

atari800 whose emulated CPU jammed waits in its own menu for a key and reads no more
of the playback pipe; the session must not wait for the run's deadline (half an hour
for a long verification boot) but stop it as stuck. A stand-in process plays that
emulator: it opens the pipe for reading and never reads.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from a8.emu.atari800 import session as session_module
from a8.emu.atari800.session import EmulatorLog, Looks, PipeSession
from a8.emu.emulator import EmulatorOptions
from a8.emu.keys import IDLE
from a8.emu.runner import Stopped


def test_an_emulator_that_stops_reading_is_stopped_as_stuck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "STALL_SECONDS", 0.5)
    pipe = tmp_path / "input.pipe"
    os.mkfifo(pipe)
    log = tmp_path / "atari800.log"
    log.write_text("")
    # opens the pipe for reading (so the session can open it for writing), reads nothing
    stuck = subprocess.Popen(["sh", "-c", f"exec 3<'{pipe}'; sleep 60"])
    try:
        options = EmulatorOptions(timeout_s=600.0)  # the run's own deadline: far away
        session = PipeSession(stuck, pipe, options, tmp_path, EmulatorLog(log), Looks([], None))
        started = time.monotonic()
        with pytest.raises(Stopped) as stopped:
            session.run_frames([IDLE] * 10)
        assert stopped.value.reason == "timeout"
        assert time.monotonic() - started < 10  # the stall, not the deadline
    finally:
        stuck.kill()
        stuck.wait()
