"""Running atari800 headless under the control of an input script.

How the runner talks to the emulator: atari800 reads its ``-playback`` input
from a named pipe. Because it reads that stream in fixed blocks (see
:mod:`a8.emu.playback`), the emulator runs exactly the frames of each block the
runner completes and then waits, blocked on the pipe, until the next block
arrives. The runner writes the first byte of the next block ahead of time; when
the pipe is empty again, that byte has been taken, so the emulator has finished
every frame sent so far and is waiting. That is the moment the runner looks at
the H: folder (``wait-file``) or the screen (``screenshot``), and decides what to
send next. Nothing is lost and nothing depends on the host's speed: the same
script on the same program runs the same frames.

The emulator always ends: at the end of the script the runner pauses it in
its built-in monitor (:mod:`a8.emu.monitor`) and quits, so a normal run exits
with status 0; on a wall-clock timeout, or if it stops reading, it is killed.
Screenshots use the same monitor to save memory and the video registers, and
:mod:`a8.emu.screen` draws the picture from them. Several runs may go on at
once: each has its own temporary folder, its own empty configuration file, and
never writes ``~/.atari800.cfg``.

Screen checksums: every playback frame carries a checksum of the screen, which
atari800 compares and, when they differ, logs "adler32 does not match" (and would
exit with status 1 at the end of a playback file). A script cannot know those
checksums in advance, so every frame after the first differs; the runner counts
and removes those lines (:attr:`RunResult.checksum_mismatches`). Because runs end
through the monitor's QUIT, the exit status stays meaningful: 0 for a clean end.
Only a run stopped by its frame limit ends at the end of its input, with 1.
"""

from __future__ import annotations

import array
import contextlib
import errno
import fcntl
import io
import os
import shutil
import signal
import subprocess
import tempfile
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from a8.emu.keys import CONSOLE_NONE, CONSOLE_OPTION
from a8.emu.monitor import CONTINUE, FRAMES_BEFORE_MONITOR, QUIT, snapshot_commands
from a8.emu.playback import (
    BLOCK_LEAD_BYTE,
    BLOCK_SIZE,
    HEADER,
    IDLE,
    RANDOM_SEED_LINE,
    BlockWriter,
    Frame,
    frame_limits,
)
from a8.emu.screen import ScreenSnapshot, parse_registers
from a8.emu.script import HoldKey, PressKey, Script, TypeText, Wait, WaitForFile, WaitForText
from a8.errors import A8Error
from a8.files import write_atomically

Machine = Literal["xl", "800"]
TvSystem = Literal["ntsc", "pal"]

#: Environment variables naming the user's own ROM files (used when no path is given).
OS_ROM_ENV: Final = "A8_OS_ROM"  # XL/XE operating system (16 KB)
OS_800_ROM_ENV: Final = "A8_800_OS_ROM"  # 400/800 operating system, revision B (10 KB)
BASIC_ROM_ENV: Final = "A8_BASIC_ROM"  # BASIC cartridge (8 KB)
#: Overrides the emulator executable found on PATH.
ATARI800_ENV: Final = "A8_ATARI800"

INSTALL_HINT: Final = (
    "install it: on Debian 12 enable the contrib component (a file in "
    "/etc/apt/sources.list.d with 'Components: contrib' for bookworm) and run "
    "`apt-get update && apt-get install -y atari800`, or run `bash .ci/setup`"
)

#: Frames OPTION is held from power-on when ``option_held`` is set.
OPTION_HELD_FRAMES: Final = 120
#: Frames run between two looks at the H: folder while waiting for a file.
POLL_FRAMES: Final = 30
#: Log line atari800 prints for every frame whose screen checksum differs.
CHECKSUM_LOG_LINE: Final = "adler32 does not match"

#: Why a run ended.
Reason = Literal[
    "script-end",
    "timeout",
    "max-frames",
    "wait-file-timeout",
    "wait-text-timeout",
    "emulator-exited",
]


class EmulatorMissingError(A8Error):
    """The atari800 executable is not installed (message says how to install it)."""


class EmulatorError(A8Error):
    """The emulator could not be started or driven (bad ROM file, crash at start ...)."""


@dataclass(frozen=True)
class EmulatorOptions:
    """How to start the emulated machine.

    With no ROM files given (and none in the environment variables
    :data:`OS_ROM_ENV`, :data:`OS_800_ROM_ENV`, :data:`BASIC_ROM_ENV`) atari800's
    built-in free AltirraOS and Altirra BASIC are used.
    """

    machine: Machine = "xl"
    tv: TvSystem = "ntsc"
    basic: bool = True
    os_rom: Path | None = None
    basic_rom: Path | None = None
    #: False runs the real SIO code (``-nopatch``): slower, exact disk timing.
    sio_patch: bool = True
    #: Disk image in drive 1 (the machine boots from it).
    disk: Path | None = None
    #: Host folder mapped read-write as H1: (a fresh temporary one when None).
    hdir: Path | None = None
    #: Stop after this many frames (reason ``max-frames``).
    max_frames: int | None = None
    #: Kill the emulator after this many wall-clock seconds (reason ``timeout``).
    timeout_s: float = 120.0
    #: Hold OPTION while the machine boots: an XL then starts with BASIC disabled.
    option_held: bool = False
    #: Run as fast as possible (``-turbo``); False paces the machine in real time.
    turbo: bool = True
    #: More atari800 arguments; it runs in an empty folder, so paths must be absolute.
    extra_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunResult:
    """What a run produced."""

    #: atari800's exit status (negative: killed by that signal).
    exit_status: int
    #: Everything atari800 printed, minus the per-frame checksum lines.
    log: str
    #: Frames emulated with script input.
    frames: int
    reason: Reason
    screenshots: tuple[Path, ...] = ()
    #: The screens captured by the script's screenshot steps, in order.
    screens: tuple[ScreenSnapshot, ...] = ()
    #: Frames whose screen checksum differed from the script's (expected: all but the first).
    checksum_mismatches: int = 0
    #: The command line that was run.
    command: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """The script ran to its end and atari800 then exited cleanly (status 0)."""
        return self.reason == "script-end" and self.exit_status == 0


def find_atari800() -> Path:
    """The atari800 executable: ``$A8_ATARI800`` or the one on PATH."""
    override = os.environ.get(ATARI800_ENV)
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise EmulatorMissingError(f"{ATARI800_ENV}={override}: not an executable file")
        return path
    found = shutil.which("atari800")
    if found is None:
        raise EmulatorMissingError(f"atari800 is not installed: {INSTALL_HINT}")
    return Path(found)


def _rom(given: Path | None, variable: str) -> Path | None:
    path = given if given is not None else _env_path(variable)
    if path is not None and not path.is_file():
        source = "" if given is not None else f" (from ${variable})"
        raise EmulatorError(f"{path}{source}: ROM file not found")
    return path.absolute() if path is not None else None


def _env_path(variable: str) -> Path | None:
    value = os.environ.get(variable)
    return Path(value) if value else None


def command_line(
    options: EmulatorOptions, executable: Path, config: Path, playback: Path, hdir: Path
) -> list[str]:
    """The atari800 arguments for ``options`` (ROM files resolved, checked to exist)."""
    args = [str(executable.absolute()), "-config", str(config.absolute()), "-no-autosave-config"]
    if options.machine == "xl":
        os_rom = _rom(options.os_rom, OS_ROM_ENV)
        args += ["-xl"]
        args += (
            ["-xlxe_rom", str(os_rom), "-xl-rev", "custom"] if os_rom else ["-xl-rev", "altirra"]
        )
    elif options.machine == "800":
        os_rom = _rom(options.os_rom, OS_800_ROM_ENV)
        args += ["-atari"]
        args += (
            ["-osb_rom", str(os_rom), "-800-rev", "custom"] if os_rom else ["-800-rev", "altirra"]
        )
    else:
        raise EmulatorError(f"unknown machine {options.machine!r} (xl or 800)")
    if options.tv not in ("ntsc", "pal"):
        raise EmulatorError(f"unknown TV system {options.tv!r} (ntsc or pal)")
    args.append(f"-{options.tv}")
    if options.basic:
        basic_rom = _rom(options.basic_rom, BASIC_ROM_ENV)
        args += ["-basic"]
        args += (
            ["-basic_rom", str(basic_rom), "-basic-rev", "custom"]
            if basic_rom
            else ["-basic-rev", "altirra"]
        )
    else:
        args.append("-nobasic")
    if not options.sio_patch:
        args.append("-nopatch")
    # atari800 runs in an empty folder of its own: every path it gets is absolute
    args += ["-nosound", "-H1", str(hdir.absolute()), "-hreadwrite"]
    args += ["-playback", str(playback.absolute())]
    if options.turbo:
        args.append("-turbo")
    args += list(options.extra_args)
    if options.disk is not None:
        if not options.disk.is_file():
            raise EmulatorError(f"{options.disk}: disk image not found")
        args.append(str(options.disk.absolute()))
    return args


def headless_environment() -> dict[str, str]:
    """The process environment with SDL told to open no window and no sound device."""
    env = dict(os.environ)
    env["SDL_VIDEODRIVER"] = "dummy"
    env["SDL_AUDIODRIVER"] = "dummy"
    return env


class _Stopped(Exception):
    """Internal: the run ends early for ``reason``."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason: Reason = reason


class _Session:
    """One running emulator and the pipe that feeds it, block by block."""

    def __init__(self, process: subprocess.Popen[bytes], pipe: Path, options: EmulatorOptions):
        self.process = process
        self.options = options
        self.deadline = time.monotonic() + options.timeout_s
        self.writer = BlockWriter()
        self.frames = 0
        self.fd = self._open_pipe(pipe)
        self.lead_sent = False
        self.snapshots = 0
        self.block_frames = 0

    def _open_pipe(self, pipe: Path) -> int:
        """Open the pipe for writing once atari800 has opened it for reading."""
        delay = 0.001
        while True:
            try:
                return os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno != errno.ENXIO:
                    raise
            self._check_alive()
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def _check_alive(self) -> None:
        if self.process.poll() is not None:
            raise _Stopped("emulator-exited")
        if time.monotonic() > self.deadline:
            raise _Stopped("timeout")

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                written = 0
            except BrokenPipeError:
                raise _Stopped("emulator-exited") from None
            view = view[written:]
            if view:
                self._check_alive()
                time.sleep(0.001)

    def _unread(self) -> int:
        count = array.array("i", [0])
        fcntl.ioctl(self.fd, termios.FIONREAD, count)
        return count[0]

    def _wait_until_taken(self) -> None:
        """Wait until atari800 has read everything sent (it is then blocked, waiting)."""
        delay = 0.0002
        while self._unread():
            self._check_alive()
            time.sleep(delay)
            delay = min(delay * 2, 0.001)

    def _budget(self, count: int) -> int:
        """How many of ``count`` frames the frame limit still allows."""
        if self.options.max_frames is None:
            return count
        return max(0, min(count, self.options.max_frames - self.frames))

    def run_frames(self, frames: Sequence[Frame]) -> None:
        """Run exactly ``frames`` (plus idle ones if too few to fill a block), then pause."""
        pending = list(frames)
        while pending:
            low, high = self.writer.limits()
            if len(pending) < low:
                pending += [IDLE] * (low - len(pending))
            take = len(pending)
            if take > high:
                next_low = frame_limits(BLOCK_SIZE, len(BLOCK_LEAD_BYTE))[0]
                take = high if take - high >= next_low else take - next_low
            allowed = self._budget(take)
            if allowed < take:
                self._finish_with(pending[:allowed])
                raise _Stopped("max-frames")
            data = self.writer.block(pending[:take])
            if self.lead_sent:
                data = data[len(BLOCK_LEAD_BYTE) :]
            self._write(data + BLOCK_LEAD_BYTE)
            self.lead_sent = True
            self._wait_until_taken()
            self.frames += take
            pending = pending[take:]

    def _finish_with(self, frames: Sequence[Frame]) -> None:
        """Send the last frames unpadded; closing the pipe then ends the emulator."""
        lines = b"".join(b"".join(frame.lines()) for frame in frames)
        if self.writer.first:
            lines = HEADER + RANDOM_SEED_LINE + lines
        self._write(lines)
        self.frames += len(frames)

    def _ensure_started(self) -> None:
        """The monitor may only be entered between frames: run one block first."""
        if self.writer.first:
            self.run_frames([IDLE] * self.writer.limits()[0])

    def _enter_monitor(self, commands: bytes, frames: int = 0) -> None:
        """Signal the paused emulator, feed it a block of idle frames, send ``commands``.

        The emulator runs :data:`~a8.emu.monitor.FRAMES_BEFORE_MONITOR` frame of
        the block, enters the monitor, runs the commands and waits for more.
        """
        self._ensure_started()
        low = max(frames, self.writer.limits()[0])
        self.process.send_signal(signal.SIGINT)
        self._write(self.writer.block([IDLE] * low)[len(BLOCK_LEAD_BYTE) :] + BLOCK_LEAD_BYTE)
        self._command(commands)
        self.block_frames = low

    def _command(self, commands: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(commands)
            stdin.flush()
        except BrokenPipeError:
            raise _Stopped("emulator-exited") from None

    def snapshot(self, work: Path, log_path: Path, frames: int = 0) -> ScreenSnapshot:
        """Memory and video registers, taken one frame after the frames sent so far.

        Adds a block of ``frames`` idle frames (at least the fewest a block
        holds) to the run: the frame before the monitor and the rest after it.
        """
        low = max(frames, frame_limits(BLOCK_SIZE, len(BLOCK_LEAD_BYTE))[0])
        if self._budget(low) < low:  # the frame limit comes first
            self._finish_with([IDLE] * self._budget(low))
            raise _Stopped("max-frames")
        self.snapshots += 1
        memory_file = work / f"memory{self.snapshots}.bin"
        done_file = work / f"done{self.snapshots}.bin"
        log_start = log_path.stat().st_size
        self._enter_monitor(snapshot_commands(memory_file, done_file), low)
        self._wait_for(done_file.exists)
        listing = log_path.read_bytes()[log_start:].decode("ascii", errors="replace")
        memory = memory_file.read_bytes()
        self._command(CONTINUE)
        self._wait_until_taken()
        self.frames += self.block_frames
        return ScreenSnapshot(memory, parse_registers(listing), self.options.tv)

    def quit(self) -> None:
        """End the emulator through its monitor: it exits with status 0."""
        self._enter_monitor(QUIT)
        self.frames += FRAMES_BEFORE_MONITOR

    def _wait_for(self, condition: Callable[[], bool]) -> None:
        delay = 0.0005
        while not condition():
            self._check_alive()
            time.sleep(delay)
            delay = min(delay * 2, 0.01)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def run(options: EmulatorOptions, script: Script) -> RunResult:
    """Boot the machine, play ``script`` into it, and always end the emulator.

    Screenshot paths in the script are relative to the current directory.
    Raises :class:`EmulatorMissingError` without atari800 and :class:`EmulatorError`
    for options that cannot work (a missing ROM or disk file).
    """
    executable = find_atari800()
    with tempfile.TemporaryDirectory(prefix="a8emu-") as work_name:
        work = Path(work_name)
        config = work / "atari800.cfg"
        config.write_bytes(b"")
        # atari800 looks for ROM files in its working folder, opening every file
        # there: it must not find the pipe, so it runs in an empty folder.
        empty = work / "cwd"
        empty.mkdir()
        (work / "pipe").mkdir()
        pipe = work / "pipe" / "input.pipe"
        os.mkfifo(pipe)
        hdir = options.hdir if options.hdir is not None else work / "h"
        hdir.mkdir(parents=True, exist_ok=True)
        command = command_line(options, executable, config, pipe, hdir)
        log_path = work / "atari800.log"
        outcome = _Outcome()
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
                _drive(process, pipe, options, script, hdir, work, log_path, outcome)
            finally:
                _end(process)
        log, mismatches = _clean_log(log_path.read_bytes())
    return RunResult(
        exit_status=process.returncode,
        log=log,
        frames=outcome.frames,
        reason=outcome.reason,
        screenshots=tuple(outcome.screenshots),
        screens=tuple(outcome.screens),
        checksum_mismatches=mismatches,
        command=tuple(command),
    )


@dataclass
class _Outcome:
    """What a run has produced so far (filled in as it goes)."""

    reason: Reason = "script-end"
    frames: int = 0
    screenshots: list[Path] = field(default_factory=list)
    screens: list[ScreenSnapshot] = field(default_factory=list)


def _drive(
    process: subprocess.Popen[bytes],
    pipe: Path,
    options: EmulatorOptions,
    script: Script,
    hdir: Path,
    work: Path,
    log_path: Path,
    outcome: _Outcome,
) -> None:
    """Play the script, then end the emulator (see the module docstring)."""
    session: _Session | None = None
    try:
        session = _Session(process, pipe, options)
        try:
            _play(session, script, hdir, work, log_path, outcome)
            session.quit()
        except _Stopped as stop:
            if stop.reason not in ("wait-file-timeout", "wait-text-timeout"):
                raise
            outcome.reason = stop.reason
            session.quit()
        outcome.frames = session.frames
        if _wait_for_exit(process, session.deadline) is None:
            outcome.reason = "timeout"
    except _Stopped as stop:
        outcome.reason = stop.reason
        if session is not None:
            outcome.frames = session.frames
            if stop.reason == "max-frames":  # the last frames end with the input
                session.close()
                if _wait_for_exit(process, session.deadline) is None:
                    outcome.reason = "timeout"
    finally:
        if session is not None:
            session.close()
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()


def _play(
    session: _Session,
    script: Script,
    hdir: Path,
    work: Path,
    log_path: Path,
    outcome: _Outcome,
) -> None:
    pending: list[Frame] = []
    if session.options.option_held:
        pending += [Frame(console=CONSOLE_NONE & ~CONSOLE_OPTION)] * OPTION_HELD_FRAMES
    for step in script:
        if isinstance(step, TypeText | PressKey | HoldKey | Wait):
            pending += step.frames()
            continue
        session.run_frames(pending)
        pending = []
        if isinstance(step, WaitForFile):
            _wait_for_file(session, hdir / step.name, step.timeout_frames)
        elif isinstance(step, WaitForText):
            _wait_for_text(session, step, work, log_path)
        else:
            screen = session.snapshot(work, log_path)
            target = Path(step.path)
            buffer = io.BytesIO()
            screen.image().save(buffer, format="PNG")
            write_atomically(target, buffer.getvalue())
            outcome.screenshots.append(target)
            outcome.screens.append(screen)
        outcome.frames = session.frames
    session.run_frames(pending)
    outcome.frames = session.frames


def _wait_for_file(session: _Session, path: Path, timeout_frames: int) -> None:
    """Run idle frames until ``path`` exists and the program has finished writing it.

    Finished means the emulator no longer holds the file open (the Atari
    program has CLOSEd it: atari800 keeps a host file open from OPEN to CLOSE);
    where that cannot be seen (no ``/proc``), the size must stay the same
    between two looks instead.
    """
    waited = 0
    last_size: int | None = None
    while True:
        size = path.stat().st_size if path.is_file() else None
        if size is not None:
            open_now = _held_open(session.process.pid, path)
            if open_now is False or (open_now is None and size == last_size):
                return
        last_size = size
        if waited >= timeout_frames:
            raise _Stopped("wait-file-timeout")
        step = min(POLL_FRAMES, max(1, timeout_frames - waited))
        session.run_frames([IDLE] * step)
        waited += step


def _held_open(pid: int, path: Path) -> bool | None:
    """Whether process ``pid`` has ``path`` open (None: the system does not tell)."""
    folder = Path(f"/proc/{pid}/fd")
    try:
        descriptors = list(folder.iterdir())
    except OSError:
        return None
    target = os.path.realpath(path)
    for descriptor in descriptors:
        try:
            if os.readlink(descriptor) == target:
                return True
        except OSError:
            continue
    return False


def _wait_for_text(session: _Session, step: WaitForText, work: Path, log_path: Path) -> None:
    """Read the screen every :data:`POLL_FRAMES` frames until a line contains the text."""
    waited = 0
    while True:
        screen = session.snapshot(work, log_path, frames=POLL_FRAMES)
        waited += POLL_FRAMES
        if any(step.text in line for line in screen.text_lines()):
            return
        if waited >= step.timeout_frames:
            raise _Stopped("wait-text-timeout")


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
