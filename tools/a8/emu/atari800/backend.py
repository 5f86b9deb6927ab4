"""The atari800 backend: one headless emulator per run, always ended.

A run gets a temporary folder of its own: atari800's configuration file (the ROMs,
:mod:`a8.emu.atari800.command`), the playback pipe, an empty working folder
(atari800 opens every file in its working folder looking for ROMs: it must not
find the pipe there) and, unless the options give one, the H: folder. It never
writes ``~/.atari800.cfg``, so several runs may go on at once.

The emulator always ends: at the end of the script the session pauses it in its
monitor and quits, so a normal run exits with status 0; on a wall-clock timeout,
or if it stops reading, it is killed. A harness that is itself killed (SIGKILL, a
CI job's time limit) cannot end it: running frames, atari800 stops at the end of its
playback pipe, but paused in its monitor or stuck in its menu it can go on alone. So
on Linux it is started through util-linux's ``setpriv --pdeathsig KILL``, which has
the kernel kill it when the process (the thread) that started it dies
(:func:`bound_to_caller`).

Screen checksums: every playback frame carries a checksum of the screen, which
atari800 compares and, when they differ, logs "adler32 does not match" (and would
exit with status 1 at the end of a playback file). A script cannot know those
checksums in advance, so every frame after the first differs; the backend counts
and removes those lines (:attr:`~a8.emu.emulator.RunResult.checksum_mismatches`).
Because runs end through the monitor's QUIT, the exit status stays meaningful: 0
for a clean end. Only a run stopped by its frame limit ends at the end of its
input, with 1.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from a8.emu.atari800.command import command_line, write_config
from a8.emu.atari800.executable import find_executable, headless_environment
from a8.emu.atari800.session import EmulatorLog, Looks, PipeSession
from a8.emu.emulator import (
    EmulatorOptions,
    RunResult,
    refuse_rom_mismatch,
    resolve_roms,
    rom_checks,
)
from a8.emu.keywait import KeyPress, KeyWatcher
from a8.emu.runner import Outcome, Stopped, play, watches_keys
from a8.emu.script import Script

#: Log line atari800 prints for every frame whose screen checksum differs.
CHECKSUM_LOG_LINE: Final = "adler32 does not match"


@dataclass(frozen=True)
class Atari800:
    """atari800, run headless through a playback pipe and its monitor."""

    name: str = "atari800"

    def require(self) -> None:
        find_executable()

    def run(self, options: EmulatorOptions, script: Script) -> RunResult:
        executable = find_executable()
        roms = resolve_roms(options)
        with tempfile.TemporaryDirectory(prefix="a8emu-") as work_name:
            work = Path(work_name)
            config = write_config(
                roms, options.machine, work / "roms", host_devices=options.host_devices
            )
            # atari800 looks for ROM files in its working folder, opening every file
            # there: it must not find the pipe, so it runs in an empty folder.
            empty = work / "cwd"
            empty.mkdir()
            (work / "pipe").mkdir()
            pipe = work / "pipe" / "input.pipe"
            os.mkfifo(pipe)
            hdir = options.hdir if options.hdir is not None else work / "h"
            hdir.mkdir(parents=True, exist_ok=True)
            command = bound_to_caller(command_line(options, executable, config, pipe, hdir))
            log_path = work / "atari800.log"
            watcher = KeyWatcher() if watches_keys(options, script) else None
            looks = Looks(rom_checks(options, roms), watcher)
            outcome = Outcome()
            with log_path.open("wb") as log_file:
                process = subprocess.Popen(
                    command,
                    stdin=subprocess.PIPE,
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                    env=headless_environment(),
                    cwd=empty,
                    start_new_session=True,
                )
                try:
                    presses = _drive(
                        process,
                        pipe,
                        options,
                        script,
                        hdir,
                        work,
                        EmulatorLog(log_path),
                        looks,
                        outcome,
                    )
                finally:
                    _end(process)
            log, mismatches = _clean_log(log_path.read_bytes())
        return refuse_rom_mismatch(
            RunResult(
                exit_status=process.returncode,
                log=log,
                frames=outcome.frames,
                reason=outcome.reason,
                screenshots=tuple(outcome.screenshots),
                screens=tuple(outcome.screens),
                checksum_mismatches=mismatches,
                command=tuple(command),
                roms=tuple(looks.roms),
                tv=options.tv,
                key_events=tuple(watcher.events) if watcher is not None else (),
                key_presses=presses,
            )
        )


def bound_to_caller(command: list[str]) -> list[str]:
    """``command`` run so that it dies with the thread that starts it, where the
    system allows: Linux's parent-death signal, set by ``setpriv`` (util-linux, in
    every Debian) before it executes the command (same process, same pid). Elsewhere
    the command as it is: the run still ends it in every way but its caller's death.

    Started from a worker thread, the emulator must be reaped before that thread
    ends (every run is: :meth:`Atari800.run` waits for it).
    """
    setpriv = shutil.which("setpriv")
    if sys.platform != "linux" or setpriv is None:
        return command
    return [setpriv, "--pdeathsig", "KILL", "--", *command]


#: The backend the registry of :mod:`a8.emu.emulator` hands out as ``atari800``.
BACKEND: Final = Atari800()


def _drive(
    process: subprocess.Popen[bytes],
    pipe: Path,
    options: EmulatorOptions,
    script: Script,
    hdir: Path,
    work: Path,
    log: EmulatorLog,
    looks: Looks,
    outcome: Outcome,
) -> tuple[KeyPress, ...]:
    """Play the script, then end the emulator (see the module docstring); the keys pressed."""
    session: PipeSession | None = None
    try:
        session = PipeSession(process, pipe, options, work, log, looks)
        play(session, script, options, hdir, outcome)
        session.quit()
        outcome.frames = session.frames
        if _wait_for_exit(process, session.deadline) is None:
            outcome.reason = "timeout"
    except Stopped as stop:
        outcome.reason = stop.reason
        if session is not None:
            outcome.frames = session.frames
            if stop.reason == "max-frames":  # the last frames end with the input
                session.close()
                if session.wait_for_exit() is None:
                    outcome.reason = "timeout"
    finally:
        if session is not None:
            session.close()
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
    return session.key_presses() if session is not None else ()


def _wait_for_exit(process: subprocess.Popen[bytes], deadline: float) -> int | None:
    try:
        return process.wait(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return None


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill the emulator if it is still running, and reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _clean_log(raw: bytes) -> tuple[str, int]:
    """The log without the per-frame checksum lines, and how many there were."""
    kept: list[str] = []
    mismatches = 0
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if line.strip() == CHECKSUM_LOG_LINE:
            mismatches += 1
        else:
            kept.append(line)
    return "\n".join(kept) + ("\n" if kept else ""), mismatches
