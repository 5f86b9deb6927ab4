"""The script runner: a script played into a running machine, the same for every backend.

A backend starts its emulator and hands the runner a :class:`Session`: the machine,
paused between frames, with a few things it can be asked to do (run these frames,
show the screen, say whether the program holds a host file open, say whether the
program waits for a key). The runner turns each step of the script into those:

* input steps (type, key, hold, wait) become frames, queued and run in one go
  before the next step that looks at the machine;
* ``wait-file`` runs idle frames, :data:`FILE_POLL_FRAMES` at a time, until the file
  is in the H: folder and the program has closed it;
* ``wait-text`` reads the screen every :data:`POLL_FRAMES` frames until a line
  contains the text;
* ``wait-input`` runs :data:`INPUT_POLL_FRAMES` at a time until the program waits
  for a key, having taken every key typed before;
* ``screenshot`` writes the screen as a PNG and keeps the snapshot.

A wait that runs out ends the script but not the run: the backend still ends its
emulator the normal way (reasons ``wait-file-timeout`` ...), and so does the options'
``stop_on_file`` when it says the file just seen is enough (``stopped-on-file``).
Every other early end (the frame limit, the wall clock, an emulator that went away)
is a :class:`Stopped` raised through the runner for the backend to handle.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from a8.emu.emulator import EmulatorError, EmulatorOptions, Reason
from a8.emu.keys import CONSOLE_NONE, CONSOLE_OPTION, IDLE, Frame
from a8.emu.screen import ScreenSnapshot
from a8.emu.script import (
    HoldKey,
    PressKey,
    Screenshot,
    Script,
    TypeText,
    Wait,
    WaitForFile,
    WaitForInput,
    WaitForText,
)
from a8.files import write_atomically

#: Frames OPTION is held from power-on when ``option_held`` is set.
OPTION_HELD_FRAMES: Final = 120
#: Frames run between two looks at the screen while waiting for a text.
POLL_FRAMES: Final = 30
#: Frames run between two looks at the H: folder while waiting for a file: the
#: program runs on meanwhile, so a long step costs it nothing, and each look is a
#: round trip to the emulator (at 30 frames those took a quarter of a verification's
#: time). A file is seen at most this late (5 s of NTSC time).
FILE_POLL_FRAMES: Final = 300
#: Frames run at a time while waiting for the program to ask for a key (the fewest a
#: block holds: the breakpoint gives the exact moment, this only bounds the idle tail).
INPUT_POLL_FRAMES: Final = 9

#: What ends the script early but lets the run end cleanly: a wait that runs out, or
#: the options' ``stop_on_file``.
EARLY_SCRIPT_ENDS: Final[tuple[Reason, ...]] = (
    "wait-file-timeout",
    "wait-text-timeout",
    "wait-input-timeout",
    "stopped-on-file",
)


class Stopped(Exception):
    """The run ends early, for ``reason`` (raised by a session or by the runner)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason: Reason = reason


class Session(Protocol):
    """One running machine, paused between frames, as the runner drives it."""

    @property
    def frames(self) -> int:
        """Frames run so far."""
        ...

    def run_frames(self, frames: Sequence[Frame]) -> None:
        """Run ``frames`` (a backend may add idle ones after them), then pause.

        Raises ``Stopped("max-frames")`` when the options' frame limit comes first,
        having run the frames up to it.
        """
        ...

    def snapshot(self, frames: int = 0) -> ScreenSnapshot:
        """Memory and video registers now, running at least ``frames`` idle frames."""
        ...

    def holds_open(self, path: Path) -> bool | None:
        """Whether the emulator has this host file open (None: it cannot be told)."""
        ...

    def waits_for_key(self) -> bool:
        """Whether the program waits for a key, having taken every key sent so far."""
        ...

    def look_for_key_wait(self, frames: int) -> None:
        """Run ``frames`` idle frames while the runner waits for the program's key wait."""
        ...

    @property
    def key_wait_error(self) -> str | None:
        """Why the program's keyboard wait cannot be found, once that is known."""
        ...


@dataclass
class Outcome:
    """What a run has produced so far (filled in as it goes, kept when it stops)."""

    reason: Reason = "script-end"
    frames: int = 0
    screenshots: list[Path] = field(default_factory=list)
    screens: list[ScreenSnapshot] = field(default_factory=list)


def watches_keys(options: EmulatorOptions, script: Script) -> bool:
    """Whether the run must watch the program's keyboard reading (:mod:`a8.emu.keywait`)."""
    return options.watch_keys or any(isinstance(step, WaitForInput) for step in script)


def play(
    session: Session, script: Script, options: EmulatorOptions, hdir: Path, outcome: Outcome
) -> None:
    """Play ``script`` into ``session``; ``hdir`` is the folder the machine sees as H1:.

    A wait that runs out ends the script with its reason in ``outcome``; any other
    :class:`Stopped` goes on to the backend. A ``wait-file`` in a run that gives the
    machine no H: device is refused before anything runs.
    """
    waits = [step.name for step in script if isinstance(step, WaitForFile)]
    if waits and not options.host_devices:
        raise EmulatorError(
            f"wait-file {waits[0]}: the run gives the machine no H: device (no host "
            "devices), so no file can come"
        )
    try:
        _play_steps(session, script, options, hdir, outcome)
    except Stopped as stop:
        if stop.reason not in EARLY_SCRIPT_ENDS:
            raise
        outcome.reason = stop.reason


def _play_steps(
    session: Session, script: Script, options: EmulatorOptions, hdir: Path, outcome: Outcome
) -> None:
    pending: list[Frame] = []
    if options.option_held:
        pending += [Frame(console=CONSOLE_NONE & ~CONSOLE_OPTION)] * OPTION_HELD_FRAMES
    for step in script:
        if isinstance(step, TypeText | PressKey | HoldKey | Wait):
            pending += step.frames()
            continue
        session.run_frames(pending)
        pending = []
        if isinstance(step, WaitForFile):
            _wait_for_file(session, hdir / step.name, step.timeout_frames)
            if options.stop_on_file is not None and options.stop_on_file(hdir / step.name):
                outcome.frames = session.frames
                raise Stopped("stopped-on-file")
        elif isinstance(step, WaitForText):
            _wait_for_text(session, step)
        elif isinstance(step, WaitForInput):
            _wait_for_input(session, step.timeout_frames)
        else:
            _screenshot(session, step, outcome)
        outcome.frames = session.frames
    session.run_frames(pending)
    outcome.frames = session.frames


def _wait_for_file(session: Session, path: Path, timeout_frames: int) -> None:
    """Run idle frames until ``path`` exists and the program has finished writing it.

    Finished means the emulator no longer holds the file open (an emulator keeps
    a host file open from the program's OPEN to its CLOSE); where that cannot be
    seen, the size must stay the same between two looks instead.
    """
    waited = 0
    last_size: int | None = None
    while True:
        size = path.stat().st_size if path.is_file() else None
        if size is not None:
            open_now = session.holds_open(path)
            if open_now is False or (open_now is None and size == last_size):
                return
        last_size = size
        if waited >= timeout_frames:
            raise Stopped("wait-file-timeout")
        step = min(FILE_POLL_FRAMES, max(1, timeout_frames - waited))
        session.run_frames([IDLE] * step)
        waited += step


def _wait_for_text(session: Session, step: WaitForText) -> None:
    """Read the screen every :data:`POLL_FRAMES` frames until a line contains the text."""
    waited = 0
    while True:
        screen = session.snapshot(frames=POLL_FRAMES)
        waited += POLL_FRAMES
        if any(step.text in line for line in screen.text_lines()):
            return
        if waited >= step.timeout_frames:
            raise Stopped("wait-text-timeout")


def _wait_for_input(session: Session, timeout_frames: int) -> None:
    """Run until the program waits for a key, after taking every key typed before."""
    waited = 0
    while not session.waits_for_key():
        if waited >= timeout_frames:
            if session.key_wait_error is not None:  # never found: say why, not a timeout
                raise EmulatorError(f"wait-input: {session.key_wait_error}")
            raise Stopped("wait-input-timeout")
        session.look_for_key_wait(INPUT_POLL_FRAMES)
        waited += INPUT_POLL_FRAMES


def _screenshot(session: Session, step: Screenshot, outcome: Outcome) -> None:
    screen = session.snapshot()
    target = Path(step.path)
    buffer = io.BytesIO()
    screen.image().save(buffer, format="PNG")
    write_atomically(target, buffer.getvalue())
    outcome.screenshots.append(target)
    outcome.screens.append(screen)
