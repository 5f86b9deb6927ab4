"""One atari800 run as the script runner drives it: the pipe, the monitor, breakpoints.

How the runner talks to the emulator: atari800 reads its ``-playback`` input
from a named pipe. Because it reads that stream in fixed blocks (see
:mod:`a8.emu.atari800.playback`), the emulator runs exactly the frames of each
block the session completes and then waits, blocked on the pipe, until the next
block arrives. The session writes the first byte of the next block ahead of time;
when the pipe is empty again, that byte has been taken, so the emulator has
finished every frame sent so far and is waiting. That is the moment the runner
looks at the H: folder (``wait-file``) or the screen (``screenshot``), and decides
what to send next. Nothing is lost and nothing depends on the host's speed: the
same script on the same program runs the same frames.

Looks at the machine go through atari800's built-in monitor
(:mod:`a8.emu.atari800.monitor`): SIGINT makes it stop between frames, and it
saves memory and the video registers on command, from which
:mod:`a8.emu.screen` draws the picture. The program's keyboard wait
(:mod:`a8.emu.keywait`) is watched with the monitor's one PC breakpoint, served
as the emulator meets it.
"""

from __future__ import annotations

import array
import errno
import fcntl
import os
import signal
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from a8.emu.atari800.monitor import (
    BREAKPOINT_LINE,
    CONTINUE,
    FRAMES_BEFORE_MONITOR,
    QUIT,
    Entry,
    breakpoint_command,
    entries,
    snapshot_commands,
)
from a8.emu.atari800.playback import (
    BLOCK_LEAD_BYTE,
    BLOCK_SIZE,
    HEADER,
    RANDOM_SEED_LINE,
    BlockWriter,
    frame_limits,
    frame_lines,
)
from a8.emu.emulator import EmulatorError, EmulatorOptions
from a8.emu.keys import IDLE, Frame
from a8.emu.keywait import JIFFY_WRAP, KeyPress, KeyWatcher, jiffies
from a8.emu.roms import RomCheck
from a8.emu.runner import Stopped
from a8.emu.screen import ScreenSnapshot, parse_registers

#: The OS's shadow of ANTIC's display list address.
SDLSTL: Final = 0x0230
#: Wall-clock seconds a block of frames may stay unread before the run counts as
#: stuck, beyond the time its frames may take at the slowest pace allowed (below). A
#: machine that stops taking its input (atari800 waiting in its menu after the
#: emulated CPU jammed, as a broken program can make it) is then stopped at once,
#: not at the run's deadline, which a long script puts half an hour away.
STALL_SECONDS: Final = 30.0
#: Frames a second assumed for a block's frames in that reckoning: -turbo runs some
#: 3,000 on a loaded machine, real time 50 or 60.
SLOWEST_TURBO_FPS: Final = 400
SLOWEST_REAL_TIME_FPS: Final = 30


class EmulatorLog:
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
class Looks:
    """What the run learnt from the machine's memory at its pauses and breakpoints."""

    roms: list[RomCheck]
    watcher: KeyWatcher | None
    #: For each of the watcher's events, the playback block it happened in.
    event_blocks: list[int] = field(default_factory=list)


class PipeSession:
    """One running atari800, the pipe that feeds it block by block, and its monitor
    (a :class:`~a8.emu.runner.Session`)."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        pipe: Path,
        options: EmulatorOptions,
        work: Path,
        log: EmulatorLog,
        looks: Looks,
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
            raise Stopped("emulator-exited")
        if time.monotonic() > self.deadline:
            raise Stopped("timeout")

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                written = 0
            except BrokenPipeError:
                raise Stopped("emulator-exited") from None
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

    def _wait_until_taken(self, frames: int) -> None:
        """Wait until atari800 has read everything sent (it is then blocked, waiting),
        ``frames`` frames in all; one that takes nothing for far longer than those
        frames can take is stuck (``timeout``, :data:`STALL_SECONDS`).

        Breakpoints met on the way are handled as they come.
        """
        fps = SLOWEST_TURBO_FPS if self.options.turbo else SLOWEST_REAL_TIME_FPS
        allowed = STALL_SECONDS + frames / fps
        delay = 0.0002
        last, since = self._unread(), time.monotonic()
        while unread := self._unread():
            self._check_alive()
            if self._serve_breakpoints():
                delay = 0.0002
                since = time.monotonic()
                continue
            if unread < last:
                last, since = unread, time.monotonic()
            elif time.monotonic() - since > allowed:
                raise Stopped("timeout")
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
                raise Stopped("max-frames")
            data = self.writer.block(pending[:take])
            if self.lead_sent:
                data = data[len(BLOCK_LEAD_BYTE) :]
            self._send_block(data + BLOCK_LEAD_BYTE, pending[:take])
            self.lead_sent = True
            self._wait_until_taken(take)
            self.frames += take
            pending = pending[take:]

    def _finish_with(self, frames: Sequence[Frame]) -> None:
        """Send the last frames unpadded; closing the pipe then ends the emulator."""
        lines = b"".join(b"".join(frame_lines(frame)) for frame in frames)
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
        :data:`~a8.emu.atari800.monitor.FRAMES_BEFORE_MONITOR` frame of the block and enters
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
            raise Stopped("emulator-exited") from None

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
            raise Stopped("max-frames")
        entry, screen = self._pause(low)
        watcher = self.looks.watcher
        if watcher is not None:
            self._set_breakpoint(watcher.look(screen, entry.pc))
            self._record_new_events()
        self._command(CONTINUE)
        self._wait_until_taken(self.block_frames)
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

    def holds_open(self, path: Path) -> bool | None:
        """Whether atari800 has ``path`` open (None: the system does not tell)."""
        return _held_open(self.process.pid, path)

    def waits_for_key(self) -> bool:
        """The watcher's latest event is ``ready``, and it came after the block holding
        the last key pressed, or after a ``take`` in that block (which can only be that
        key's, or an earlier one's when a later key was lost)."""
        watcher = self.looks.watcher
        assert watcher is not None
        events, blocks = watcher.events, self.looks.event_blocks
        if not events or events[-1].kind != "ready":
            return False
        if blocks[-1] > self.last_press_block:
            return True
        return any(
            event.kind == "take" and block == self.last_press_block
            for event, block in zip(events[:-1], blocks[:-1], strict=True)
        )

    def look_for_key_wait(self, frames: int) -> None:
        """Idle frames; until the watcher has found the wait, a look at the machine
        (the OS may not have set up its handlers yet)."""
        watcher = self.looks.watcher
        assert watcher is not None
        if watcher.watching:
            self.run_frames([IDLE] * frames)
        else:
            self.snapshot(frames=frames)

    @property
    def key_wait_error(self) -> str | None:
        watcher = self.looks.watcher
        error = watcher.error if watcher is not None else None
        return str(error) if error is not None else None

    def key_presses(self) -> tuple[KeyPress, ...]:
        """The presses sent, each with the OS clock's value in its frame.

        RTCLOK ticks once a frame, so a press's jiffy is that of the nearest pause
        before it (the earliest one after, if none) plus the frames in between; this
        holds unless the program itself changes RTCLOK (then the jiffies are off).
        """
        presses: list[KeyPress] = []
        for frame, down in self.presses:
            jiffy: int | None = None
            if self.anchors:
                before = [anchor for anchor in self.anchors if anchor[0] <= frame]
                at, clock = before[-1] if before else self.anchors[0]
                jiffy = (clock + frame - at) % JIFFY_WRAP
            presses.append(KeyPress(frame, down.key, down.console, jiffy))
        return tuple(presses)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


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
