"""An atari800 whose harness dies is not left running.

A harness killed outright (SIGKILL, a CI job's time limit) cannot end its emulator.
Running frames, atari800 ends by itself at the end of its playback pipe; paused in
its monitor or its menu (a jammed CPU waits there), it can go on alone, reading a
stdin nobody writes. The backend starts it so that the kernel kills it with its
caller: here a stand-in (``sleep``) started the same way by a harness of its own,
which is then killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from a8.emu.atari800 import backend
from a8.emu.atari800.backend import bound_to_caller
from a8.emu.emulator import EmulatorOptions
from a8.emu.script import Script

linux_only = pytest.mark.skipif(
    sys.platform != "linux", reason="the parent-death signal is Linux's"
)


def _alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"  # a zombie has died


def _harness(bind: bool, pid_file: Path) -> subprocess.Popen[bytes]:
    """A Python process that starts ``sleep 600`` (bound or not) and waits for it."""
    code = textwrap.dedent(
        f"""
        import subprocess
        from pathlib import Path
        from a8.emu.atari800.backend import bound_to_caller
        command = ["sleep", "600"]
        if {bind}:
            command = bound_to_caller(command)
        child = subprocess.Popen(command, start_new_session=True)
        Path({str(pid_file)!r}).write_text(str(child.pid))
        child.wait()
        """
    )
    return subprocess.Popen([sys.executable, "-c", code])


def _orphan_survives(bind: bool, tmp_path: Path) -> bool:
    pid_file = tmp_path / f"child-{bind}.pid"
    harness = _harness(bind, pid_file)
    deadline = time.monotonic() + 30
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pid_file.exists(), "the harness started nothing in 30 s"
    child = int(pid_file.read_text())
    try:
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait()
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        return _alive(child)
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


@linux_only
def test_a_bound_command_dies_with_a_harness_killed_outright(tmp_path: Path) -> None:
    assert not _orphan_survives(True, tmp_path)
    # the same without the binding outlives its harness: the check can fail
    assert _orphan_survives(False, tmp_path)


@linux_only
def test_on_linux_setpriv_sets_the_parent_death_signal_then_runs_it() -> None:
    command = bound_to_caller(["atari800", "-xl"])
    assert command[1:] == ["--pdeathsig", "KILL", "--", "atari800", "-xl"]
    assert Path(command[0]).name == "setpriv"


def test_without_setpriv_the_command_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend.shutil, "which", lambda name: None)
    assert bound_to_caller(["atari800", "-xl"]) == ["atari800", "-xl"]


@linux_only
def test_the_backend_starts_atari800_bound(monkeypatch: pytest.MonkeyPatch, atari800: str) -> None:
    started: list[list[str]] = []

    def refuse(command: list[str], **_: object) -> None:
        started.append(command)
        raise OSError("not started: the test only looks at the command")

    monkeypatch.setattr(backend.subprocess, "Popen", refuse)
    with pytest.raises(OSError, match="not started"):
        backend.BACKEND.run(EmulatorOptions(), Script.parse("wait 1"))
    assert started and started[0] == bound_to_caller(started[0][4:])
