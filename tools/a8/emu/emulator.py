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
from a8.emu.keywait import JIFFY_WRAP, KeyEvent, KeyPress, KeyWatcher, jiffies
from a8.emu.monitor import (
    BREAKPOINT_LINE,
    CONTINUE,
    FRAMES_BEFORE_MONITOR,
    QUIT,
    Entry,
    breakpoint_command,
    entries,
    snapshot_commands,
)
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
from a8.emu.roms import (
    RomCheck,
    RomImage,
    RomKind,
    config_text,
    os_kind,
    resolve_rom,
)
from a8.emu.screen import ScreenSnapshot, parse_registers
from a8.emu.script import (
    HoldKey,
    PressKey,
    Script,
    TypeText,
    Wait,
    WaitForFile,
    WaitForInput,
    WaitForText,
)
from a8.errors import A8Error, UsageError
from a8.files import write_atomically

Machine = Literal["xl", "800"]
TvSystem = Literal["ntsc", "pal"]
#: Frames (and jiffies: the OS's clock ticks once a frame) per second.
FRAMES_PER_SECOND: Final = {"ntsc": 60, "pal": 50}

#: Overrides the emulator executable found on PATH.
ATARI800_ENV: Final = "A8_ATARI800"

INSTALL_HINT: Final = (
    "install it: on Debian 12 enable the contrib component (a file in "
    "/etc/apt/sources.list.d with 'Components: contrib' for bookworm) and run "
    "`apt-get update && apt-get install -y atari800`"
)
#: The set-up script of a checkout of this project, which installs atari800 too.
CHECKOUT_SETUP: Final = Path(".ci") / "setup"


def install_hint() -> str:
    """How to install atari800; ``bash .ci/setup`` only where there is one (a checkout's
    top folder): an installed wheel has no such script."""
    hint = INSTALL_HINT
    if CHECKOUT_SETUP.is_file():
        hint += ", or run `bash .ci/setup` (this checkout's set-up)"
    return hint


#: Frames OPTION is held from power-on when ``option_held`` is set.
OPTION_HELD_FRAMES: Final = 120
#: Frames run between two looks at the H: folder while waiting for a file.
POLL_FRAMES: Final = 30
#: Frames run at a time while waiting for the program to ask for a key (the fewest a
#: block holds: the breakpoint gives the exact moment, this only bounds the idle tail).
INPUT_POLL_FRAMES: Final = 9
#: The OS's shadow of ANTIC's display list address.
SDLSTL: Final = 0x0230
#: Log line atari800 prints for every frame whose screen checksum differs.
CHECKSUM_LOG_LINE: Final = "adler32 does not match"

#: Why a run ended.
Reason = Literal[
    "script-end",
    "timeout",
    "max-frames",
    "wait-file-timeout",
    "wait-text-timeout",
    "wait-input-timeout",
    "emulator-exited",
]


class EmulatorMissingError(UsageError):
    """The atari800 executable is not installed (message says how to install it): a
    set-up problem, exit status 2. ``reason`` is the message without the hint."""

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(f"{reason}: {hint}" if hint else reason)
        self.reason = reason


class EmulatorError(A8Error):
    """The emulator could not be started or driven (a missing disk, a crash at start ...)."""


class RomMismatchError(EmulatorError):
    """The machine ran other ROM code than the file given (never a silent fallback)."""


@dataclass(frozen=True)
class EmulatorOptions:
    """How to start the emulated machine.

    With no ROM files given (and none in the environment variables of
    :mod:`a8.emu.roms`: ``A8_OS_ROM``, ``A8_800_OS_ROM``, ``A8_BASIC_ROM``)
    atari800's built-in free AltirraOS and Altirra BASIC are used.
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
    #: Record the program's keyboard reading (:mod:`a8.emu.keywait`) from the first
    #: pause on; a script with a ``wait-input`` step does so anyway.
    watch_keys: bool = False


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
    #: What the looks at the machine's memory showed about its OS and BASIC ROMs.
    roms: tuple[RomCheck, ...] = ()
    tv: TvSystem = "ntsc"
    #: The program's keyboard reading, when watched (:mod:`a8.emu.keywait`).
    key_events: tuple[KeyEvent, ...] = ()
    #: Every key (or console key) the script pressed, with its frame and jiffy.
    key_presses: tuple[KeyPress, ...] = ()

    @property
    def ok(self) -> bool:
        """The script ran to its end and atari800 then exited cleanly (status 0)."""
        return self.reason == "script-end" and self.exit_status == 0

    @property
    def frames_per_second(self) -> int:
        """60 (NTSC) or 50 (PAL): frames, and the OS's jiffies, per second."""
        return FRAMES_PER_SECOND[self.tv]

    def rom_report(self) -> list[str]:
        """One line per ROM: what it is and what the machine showed (see RomCheck)."""
        return [check.report() for check in self.roms]


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
        raise EmulatorMissingError("atari800 is not installed", install_hint())
    return Path(found)


@dataclass(frozen=True)
class RomSet:
    """The ROM images a run uses (None: atari800's built-in one of that kind)."""

    os: RomImage | None
    basic: RomImage | None

    def describe(self) -> str:
        """Short, for reports: ``OS XL/XE rev. 2, BASIC rev. C``."""
        os_name = self.os.name if self.os is not None else "AltirraOS (built-in)"
        basic = self.basic.name if self.basic is not None else "Altirra BASIC (built-in)"
        return f"OS {os_name}, BASIC {basic}"


def resolve_roms(options: EmulatorOptions) -> RomSet:
    """Read and check the ROM files of ``options`` (or of the environment variables).

    A missing, unreadable or wrong-size file is a one-line :class:`~a8.emu.roms.RomError`.
    """
    if options.machine not in ("xl", "800"):
        raise EmulatorError(f"unknown machine {options.machine!r} (xl or 800)")
    os_image = resolve_rom(options.os_rom, os_kind(options.machine), "--os-rom")
    basic = resolve_rom(options.basic_rom, RomKind.BASIC, "--basic-rom") if options.basic else None
    return RomSet(os_image, basic)


def write_config(roms: RomSet, machine: Machine, folder: Path) -> Path:
    """atari800's configuration file for ``roms``, with copies of the images beside it.

    The copies are what the emulator loads: exactly the bytes that were checked,
    under a short path (atari800 reads configuration lines of at most 255 bytes).
    """
    folder.mkdir(parents=True, exist_ok=True)
    os_copy = _copy(roms.os, folder / "os.rom")
    basic_copy = _copy(roms.basic, folder / "basic.rom")
    config = folder / "atari800.cfg"
    config.write_text(config_text(machine, roms.os, roms.basic, os_copy, basic_copy), "ascii")
    return config


def _copy(image: RomImage | None, path: Path) -> Path | None:
    if image is None:
        return None
    path.write_bytes(image.data)
    return path


def command_line(
    options: EmulatorOptions, executable: Path, config: Path, playback: Path, hdir: Path
) -> list[str]:
    """The atari800 arguments for ``options``; ``config`` selects the ROMs (see write_config)."""
    args = [str(executable.absolute()), "-config", str(config.absolute()), "-no-autosave-config"]
    if options.machine not in ("xl", "800"):
        raise EmulatorError(f"unknown machine {options.machine!r} (xl or 800)")
    args.append("-xl" if options.machine == "xl" else "-atari")
    if options.tv not in ("ntsc", "pal"):
        raise EmulatorError(f"unknown TV system {options.tv!r} (ntsc or pal)")
    args.append(f"-{options.tv}")
    args.append("-basic" if options.basic else "-nobasic")
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


class _Log:
    """atari800's output file, read as it grows, for the monitor's announcements."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.partial = ""

    def size(self) -> int:
        return self.path.stat().st_size

    def text_from(self, start: int) -> str:
        with self.path.open("rb") as handle:
            handle.seek(start)
            return handle.read().decode("ascii", errors="replace")

    def new_entries(self) -> list[Entry]:
        """Monitor entries announced since the last call."""
        size = self.size()
        if size == self.offset:
            return []
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            data = handle.read(size - self.offset)
        self.offset += len(data)
        lines = (self.partial + data.decode("ascii", errors="replace")).split("\n")
        self.partial = lines.pop()
        if lines and lines[-1].startswith(BREAKPOINT_LINE):  # its state line is to come
            self.partial = lines.pop() + "\n" + self.partial
        return entries(lines)


@dataclass
class _Looks:
    """What the run learnt from the machine's memory at its pauses and breakpoints."""

    roms: list[RomCheck]
    watcher: KeyWatcher | None
    #: For each of the watcher's events, the playback block it happened in.
    event_blocks: list[int] = field(default_factory=list)


class _Session:
    """One running emulator, the pipe that feeds it block by block, and its monitor."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        pipe: Path,
        options: EmulatorOptions,
        work: Path,
        log: _Log,
        looks: _Looks,
    ):
        self.process = process
        self.options = options
        self.work = work
        self.log = log
        self.looks = looks
        self.deadline = time.monotonic() + options.timeout_s
        self.writer = BlockWriter()
        self.frames = 0
        self.fd = self._open_pipe(pipe)
        self.lead_sent = False
        self.snapshots = 0
        self.block_frames = 0
        #: Playback blocks sent so far, and the one holding the last key pressed.
        self.blocks = 0
        self.last_press_block = -1
        self.breakpoint: int | None = None
        self._next_breakpoint: int | None = None
        #: Key presses sent (frame number, what went down), the keys held at the end of
        #: the last block, and (frame, RTCLOK in that frame) read at pauses.
        self.presses: list[tuple[int, Frame]] = []
        self.held: Frame | None = None
        self.anchors: list[tuple[int, int]] = []

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

    def _send_block(self, data: bytes, frames: Sequence[Frame]) -> None:
        self._write(data)
        held = self.held
        for index, frame in enumerate(frames):
            down = frame if frame.key != IDLE.key or frame.console != IDLE.console else None
            if down is not None and down != held:
                self.presses.append((self.frames + index, down))
                self.last_press_block = self.blocks
            held = down
        self.held = held
        self.blocks += 1

    def _unread(self) -> int:
        count = array.array("i", [0])
        fcntl.ioctl(self.fd, termios.FIONREAD, count)
        return count[0]

    def _wait_until_taken(self) -> None:
        """Wait until atari800 has read everything sent (it is then blocked, waiting).

        Breakpoints met on the way are handled as they come.
        """
        delay = 0.0002
        while self._unread():
            self._check_alive()
            if self._serve_breakpoints():
                delay = 0.0002
                continue
            time.sleep(delay)
            delay = min(delay * 2, 0.001)

    def _serve_breakpoints(self) -> bool:
        """Handle the breakpoint the emulator stands at, if any (True if one was)."""
        served = False
        for entry in self.log.new_entries():
            if not entry.at_breakpoint:
                raise EmulatorError(f"the emulator's monitor stopped unasked at {entry.pc:04X}")
            self._on_breakpoint(entry)
            served = True
        return served

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
            self._send_block(data + BLOCK_LEAD_BYTE, pending[:take])
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

    def _pause(self, frames: int = 0) -> tuple[Entry, ScreenSnapshot]:
        """Stop the emulator in its monitor and read the machine (it stays stopped).

        Signals the paused emulator and feeds it a block of ``frames`` idle frames
        (at least the fewest a block holds): it runs
        :data:`~a8.emu.monitor.FRAMES_BEFORE_MONITOR` frame of the block and enters
        the monitor. If the key watcher's breakpoint stops it first, within that
        frame, that stop is the pause (the event is recorded too): atari800 forgets
        a pending SIGINT when it leaves the monitor, so waiting for the signal's
        own stop would wait forever.
        """
        self._ensure_started()
        low = max(frames, self.writer.limits()[0])
        self.process.send_signal(signal.SIGINT)
        block = [IDLE] * low
        self._send_block(self.writer.block(block)[len(BLOCK_LEAD_BYTE) :] + BLOCK_LEAD_BYTE, block)
        self.block_frames = low
        while True:
            found = self.log.new_entries()
            if found:
                entry = found[0]
                screen = self._read_machine(mid_frame=entry.at_breakpoint)
                if entry.at_breakpoint:
                    self._hit(entry, screen)
                else:  # at the start of the block's second frame: its clock is known
                    self.anchors.append(
                        (self.frames + FRAMES_BEFORE_MONITOR, jiffies(screen.memory))
                    )
                return entry, screen
            self._check_alive()
            time.sleep(0.0005)

    def _command(self, commands: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(commands)
            stdin.flush()
        except BrokenPipeError:
            raise _Stopped("emulator-exited") from None

    def _read_machine(self, mid_frame: bool = False) -> ScreenSnapshot:
        """With the monitor waiting: memory and chip registers (the monitor stays in).

        ``mid_frame``: stopped at a breakpoint, ANTIC's display list counter points
        part-way down the list; the picture is drawn from the list's start, which
        the OS keeps in SDLSTL (560-561) and the vertical blank copies to ANTIC.
        """
        self.snapshots += 1
        memory_file = self.work / f"memory{self.snapshots}.bin"
        done_file = self.work / f"done{self.snapshots}.bin"
        start = self.log.size()
        self._command(snapshot_commands(memory_file, done_file))
        self._wait_for(done_file.exists)
        listing = self.log.text_from(start)
        memory = memory_file.read_bytes()
        memory_file.unlink()
        done_file.unlink()
        registers = parse_registers(listing)
        if mid_frame:
            registers["DLISTL"], registers["DLISTH"] = memory[SDLSTL], memory[SDLSTL + 1]
        screen = ScreenSnapshot(memory, registers, self.options.tv)
        self.looks.roms[:] = [
            check.look(memory, screen.registers.get("PORTB")) for check in self.looks.roms
        ]
        return screen

    def _on_breakpoint(self, entry: Entry) -> None:
        """The CPU stands at the key watcher's breakpoint: record the event, go on."""
        self._hit(entry, self._read_machine(mid_frame=True))
        self._set_breakpoint(self._next_breakpoint)
        self._command(CONTINUE)

    def _hit(self, entry: Entry, screen: ScreenSnapshot) -> None:
        watcher = self.looks.watcher
        self._next_breakpoint = watcher.hit(screen, entry.pc, entry.a) if watcher else None
        self._record_new_events()

    def _record_new_events(self) -> None:
        watcher = self.looks.watcher
        if watcher is not None:
            missing = len(watcher.events) - len(self.looks.event_blocks)
            self.looks.event_blocks += [self.blocks - 1] * missing

    def _set_breakpoint(self, address: int | None) -> None:
        if address != self.breakpoint:
            self._command(breakpoint_command(address))
            self.breakpoint = address

    def snapshot(self, frames: int = 0) -> ScreenSnapshot:
        """Memory and video registers, taken one frame after the frames sent so far.

        Adds a block of ``frames`` idle frames (at least the fewest a block
        holds) to the run: the frame before the monitor and the rest after it.
        The key watcher, if any, looks at the machine too and places its breakpoint.
        """
        low = max(frames, frame_limits(BLOCK_SIZE, len(BLOCK_LEAD_BYTE))[0])
        if self._budget(low) < low:  # the frame limit comes first
            self._finish_with([IDLE] * self._budget(low))
            raise _Stopped("max-frames")
        entry, screen = self._pause(low)
        watcher = self.looks.watcher
        if watcher is not None:
            self._set_breakpoint(watcher.look(screen, entry.pc))
            self._record_new_events()
        self._command(CONTINUE)
        self._wait_until_taken()
        self.frames += self.block_frames
        return screen

    def quit(self) -> None:
        """Take a last look at the machine, then end it through the monitor (status 0)."""
        self._pause()
        self._command(QUIT)
        self.frames += FRAMES_BEFORE_MONITOR

    def wait_for_exit(self) -> int | None:
        """After the input's end: let the emulator run out (serving breakpoints), reap it."""
        while self.process.poll() is None:
            if time.monotonic() > self.deadline:
                return None
            if not self._serve_breakpoints():
                time.sleep(0.005)
        return self.process.returncode

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
    Raises :class:`EmulatorMissingError` without atari800, :class:`EmulatorError`
    for options that cannot work (a missing disk file), :class:`~a8.emu.roms.RomError`
    for a ROM file that cannot be used, and :class:`RomMismatchError` when the
    machine turns out to run other ROM code than the file given.
    """
    executable = find_atari800()
    roms = resolve_roms(options)
    with tempfile.TemporaryDirectory(prefix="a8emu-") as work_name:
        work = Path(work_name)
        config = write_config(roms, options.machine, work / "roms")
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
        watch = options.watch_keys or any(isinstance(step, WaitForInput) for step in script)
        looks = _Looks(_rom_checks(options, roms), KeyWatcher() if watch else None)
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
                _drive(process, pipe, options, script, hdir, work, _Log(log_path), looks, outcome)
            finally:
                _end(process)
        log, mismatches = _clean_log(log_path.read_bytes())
    result = RunResult(
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
        key_events=tuple(looks.watcher.events) if looks.watcher is not None else (),
        key_presses=outcome.presses,
    )
    wrong = [check for check in result.roms if check.mismatch is not None]
    if wrong:
        raise RomMismatchError(wrong[0].report())
    return result


def _rom_checks(options: EmulatorOptions, roms: RomSet) -> list[RomCheck]:
    checks = [RomCheck(os_kind(options.machine), roms.os)]
    if options.basic:
        checks.append(RomCheck(RomKind.BASIC, roms.basic))
    return checks


@dataclass
class _Outcome:
    """What a run has produced so far (filled in as it goes)."""

    reason: Reason = "script-end"
    frames: int = 0
    screenshots: list[Path] = field(default_factory=list)
    screens: list[ScreenSnapshot] = field(default_factory=list)
    presses: tuple[KeyPress, ...] = ()


def _key_presses(session: _Session) -> tuple[KeyPress, ...]:
    """The presses sent, each with the OS clock's value in its frame.

    RTCLOK ticks once a frame, so a press's jiffy is that of the nearest pause
    before it (the earliest one after, if none) plus the frames in between; this
    holds unless the program itself changes RTCLOK (then the jiffies are off).
    """
    presses: list[KeyPress] = []
    for frame, down in session.presses:
        jiffy: int | None = None
        if session.anchors:
            before = [anchor for anchor in session.anchors if anchor[0] <= frame]
            at, clock = before[-1] if before else session.anchors[0]
            jiffy = (clock + frame - at) % JIFFY_WRAP
        presses.append(KeyPress(frame, down.key, down.console, jiffy))
    return tuple(presses)


def _drive(
    process: subprocess.Popen[bytes],
    pipe: Path,
    options: EmulatorOptions,
    script: Script,
    hdir: Path,
    work: Path,
    log: _Log,
    looks: _Looks,
    outcome: _Outcome,
) -> None:
    """Play the script, then end the emulator (see the module docstring)."""
    session: _Session | None = None
    try:
        session = _Session(process, pipe, options, work, log, looks)
        try:
            _play(session, script, hdir, outcome)
            session.quit()
        except _Stopped as stop:
            if stop.reason not in ("wait-file-timeout", "wait-text-timeout", "wait-input-timeout"):
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
                if session.wait_for_exit() is None:
                    outcome.reason = "timeout"
    finally:
        if session is not None:
            outcome.presses = _key_presses(session)
            session.close()
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()


def _play(session: _Session, script: Script, hdir: Path, outcome: _Outcome) -> None:
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
            _wait_for_text(session, step)
        elif isinstance(step, WaitForInput):
            _wait_for_input(session, step.timeout_frames)
        else:
            screen = session.snapshot()
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


def _wait_for_text(session: _Session, step: WaitForText) -> None:
    """Read the screen every :data:`POLL_FRAMES` frames until a line contains the text."""
    waited = 0
    while True:
        screen = session.snapshot(frames=POLL_FRAMES)
        waited += POLL_FRAMES
        if any(step.text in line for line in screen.text_lines()):
            return
        if waited >= step.timeout_frames:
            raise _Stopped("wait-text-timeout")


def _wait_for_input(session: _Session, timeout_frames: int) -> None:
    """Run until the program waits for a key, after taking every key typed before.

    Done when the watcher's latest event is ``ready`` and it came after the block
    holding the last key pressed, or after a ``take`` in that block (which can only
    be that key's, or an earlier one's when a later key was lost).
    """
    watcher = session.looks.watcher
    assert watcher is not None
    waited = 0
    while not _ready_after_last_key(session):
        if waited >= timeout_frames:
            if watcher.error is not None:  # never found: say why, rather than time out
                raise EmulatorError(f"wait-input: {watcher.error}")
            raise _Stopped("wait-input-timeout")
        if watcher.watching:
            session.run_frames([IDLE] * INPUT_POLL_FRAMES)
        else:  # the OS may not have set up its handlers yet: look again
            session.snapshot(frames=INPUT_POLL_FRAMES)
        waited += INPUT_POLL_FRAMES


def _ready_after_last_key(session: _Session) -> bool:
    watcher = session.looks.watcher
    assert watcher is not None
    events, blocks = watcher.events, session.looks.event_blocks
    if not events or events[-1].kind != "ready":
        return False
    if blocks[-1] > session.last_press_block:
        return True
    return any(
        event.kind == "take" and block == session.last_press_block
        for event, block in zip(events[:-1], blocks[:-1], strict=True)
    )


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
