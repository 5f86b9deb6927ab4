"""A stand-in machine for tests: an emulator backend that plays scripts without atari800.

:class:`FakeMachine` is a :class:`~a8.emu.emulator.Backend` whose machine is a
schedule, not a CPU. The test says what "the program" does and when: which H:
files it writes, from which frame and until which frame it keeps them open
(:class:`HFile`); which screen shows from which frame (:class:`Shown`, its text
read from a fixture file); from which frame it first waits for a key and how many
frames each key keeps it busy. The script runner (:mod:`a8.emu.runner`) drives it
through the same :class:`~a8.emu.runner.Session` protocol as atari800, so the
runner and the callers of :func:`a8.emu.emulator.run` are tested in milliseconds,
and every frame of input the runner sent is kept (:attr:`FakeMachine.fed`).

What it does not model: the wall clock (no ``timeout``), ROMs (none checked),
the emulator exiting, and atari800's blocks (a look at the machine runs exactly
the frames asked for, not a whole block).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from a8.basic.atascii import SPELLING
from a8.emu.emulator import Backend, EmulatorError, EmulatorOptions, Reason, RunResult
from a8.emu.keys import IDLE, Frame
from a8.emu.keywait import KeyPress
from a8.emu.runner import Outcome, Stopped, play
from a8.emu.screen import ScreenSnapshot
from a8.emu.script import Script

SCREENS: Final = Path(__file__).parent / "fixtures" / "screens"

#: Where the stand-in screen keeps its display list and its 24 lines of 40 characters.
DISPLAY_LIST: Final = 0x3C00
SCREEN_MEMORY: Final = 0x4000
ROWS: Final = 24
COLUMNS: Final = 40
#: ATASCII codes by their spelling (the inverse of :data:`a8.basic.atascii.SPELLING`).
_ATASCII: Final = {spelling: code for code, spelling in enumerate(SPELLING)}


def text_screen(lines: Sequence[str]) -> ScreenSnapshot:
    """A GRAPHICS 0 screen showing ``lines`` (at most 24 of at most 40 characters)."""
    if len(lines) > ROWS or any(len(line) > COLUMNS for line in lines):
        raise ValueError(f"a screen holds {ROWS} lines of {COLUMNS} characters")
    memory = bytearray(0x10000)
    display_list = [0x70, 0x70, 0x70, 0x42, SCREEN_MEMORY & 0xFF, SCREEN_MEMORY >> 8]
    display_list += [0x02] * (ROWS - 1) + [0x41, DISPLAY_LIST & 0xFF, DISPLAY_LIST >> 8]
    memory[DISPLAY_LIST : DISPLAY_LIST + len(display_list)] = bytes(display_list)
    for row, line in enumerate(lines):
        start = SCREEN_MEMORY + row * COLUMNS
        memory[start : start + len(line)] = bytes(_internal(_ATASCII[char]) for char in line)
    registers = {
        "DMACTL": 0x22,
        "CHACTL": 0x02,
        "DLISTL": DISPLAY_LIST & 0xFF,
        "DLISTH": DISPLAY_LIST >> 8,
        "CHBASE": 0xE0,
        "COLPF0": 0x28,
        "COLPF1": 0xCA,
        "COLPF2": 0x94,
        "COLPF3": 0x46,
        "COLBK": 0x00,
    }
    return ScreenSnapshot(bytes(memory), registers)


def _internal(atascii: int) -> int:
    """The screen code ANTIC shows for an ATASCII character."""
    if atascii < 0x20:
        return atascii + 0x40
    if atascii < 0x60:
        return atascii - 0x20
    return atascii


def screen_fixture(name: str) -> ScreenSnapshot:
    """The screen whose text is in ``fixtures/screens/NAME.txt``."""
    return text_screen((SCREENS / f"{name}.txt").read_text(encoding="utf-8").splitlines())


#: What the machine shows when no :class:`Shown` screen has started yet.
BLANK: Final = text_screen([])


@dataclass(frozen=True)
class HFile:
    """A file the program writes to the H: folder: there from frame ``at``, held open
    until frame ``closed`` (the same frame when None)."""

    name: str
    data: bytes
    at: int
    closed: int | None = None

    @property
    def closed_at(self) -> int:
        return self.at if self.closed is None else self.closed


@dataclass(frozen=True)
class Shown:
    """A screen the machine shows from frame ``at`` on."""

    at: int
    screen: ScreenSnapshot


@dataclass
class FakeMachine:
    """A backend whose program is a schedule (see the module docstring)."""

    name: str = "fake"
    files: Sequence[HFile] = ()
    screens: Sequence[Shown] = ()
    #: The frame from which the program first waits for a key (None: it never does).
    first_key_wait: int | None = None
    #: Frames a key keeps the program busy before it waits for the next one.
    key_work: int = 0
    #: False: the machine cannot tell whether a file is open (wait-file then compares
    #: the file's size between two looks).
    tells_open: bool = True
    #: Why the program's keyboard wait cannot be found (wait-input then fails so).
    key_wait_error: str | None = None
    #: Every frame of input the runner sent, over all runs.
    fed: list[Frame] = field(default_factory=list)
    #: The options of each run, in order.
    runs: list[EmulatorOptions] = field(default_factory=list)

    def require(self) -> None:
        """Always here: it runs in the test's own process."""

    def run(self, options: EmulatorOptions, script: Script) -> RunResult:
        self.runs.append(options)
        if options.disk is not None and not options.disk.is_file():
            raise EmulatorError(f"{options.disk}: disk image not found")
        with tempfile.TemporaryDirectory(prefix="fake-h-") as spare:
            hdir = options.hdir if options.hdir is not None else Path(spare)
            hdir.mkdir(parents=True, exist_ok=True)
            session = FakeSession(self, options, hdir)
            outcome = Outcome()
            try:
                play(session, script, options, hdir, outcome)
            except Stopped as stop:
                outcome.reason = stop.reason
            outcome.frames = session.frames
        return RunResult(
            exit_status=_exit_status(outcome.reason),
            log="",
            frames=outcome.frames,
            reason=outcome.reason,
            screenshots=tuple(outcome.screenshots),
            screens=tuple(outcome.screens),
            command=(self.name,),
            tv=options.tv,
            key_presses=tuple(session.presses),
        )

    def screen_at(self, frame: int) -> ScreenSnapshot:
        shown = [item for item in self.screens if item.at <= frame]
        return max(shown, key=lambda item: item.at).screen if shown else BLANK


#: Checked by mypy: the stand-in keeps to the interface's Backend protocol.
_A_BACKEND: Backend = FakeMachine()


def _exit_status(reason: Reason) -> int:
    """As atari800's: 1 when the frame limit ended the input, else a clean 0."""
    return 1 if reason == "max-frames" else 0


class FakeSession:
    """The running stand-in: frames counted, files written, keys taken on schedule."""

    def __init__(self, machine: FakeMachine, options: EmulatorOptions, hdir: Path) -> None:
        self.machine = machine
        self.options = options
        self.hdir = hdir
        self.frames = 0
        self.presses: list[KeyPress] = []
        self._held: Frame | None = None

    def run_frames(self, frames: Sequence[Frame]) -> None:
        limit = self.options.max_frames
        if limit is not None and self.frames + len(frames) > limit:
            self._feed(frames[: max(0, limit - self.frames)])
            raise Stopped("max-frames")
        self._feed(frames)

    def _feed(self, frames: Sequence[Frame]) -> None:
        for frame in frames:
            down = frame if frame != IDLE else None
            if down is not None and down != self._held:
                self.presses.append(KeyPress(self.frames, down.key, down.console, None))
            self._held = down
            self.machine.fed.append(frame)
            self.frames += 1
        for file in self.machine.files:
            path = self.hdir / file.name
            if file.at <= self.frames and not path.exists():
                path.write_bytes(file.data)

    def snapshot(self, frames: int = 0) -> ScreenSnapshot:
        self.run_frames([IDLE] * frames)
        return self.machine.screen_at(self.frames)

    def holds_open(self, path: Path) -> bool | None:
        if not self.machine.tells_open:
            return None
        written = [file for file in self.machine.files if file.name == path.name]
        return bool(written) and self.frames < written[0].closed_at

    def waits_for_key(self) -> bool:
        first = self.machine.first_key_wait
        if first is None:
            return False
        ready = first
        if self.presses:
            ready = max(ready, self.presses[-1].frame + self.machine.key_work)
        return self.frames >= ready

    def look_for_key_wait(self, frames: int) -> None:
        self.run_frames([IDLE] * frames)

    @property
    def key_wait_error(self) -> str | None:
        return self.machine.key_wait_error
