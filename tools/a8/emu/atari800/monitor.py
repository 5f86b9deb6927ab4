"""atari800's built-in monitor, used as a remote control while the machine is paused.

atari800 enters its monitor when it receives SIGINT (it checks for the signal at
the start of each frame) and then reads monitor commands from its standard input,
one per line, printing results to its standard output; ``CONT`` resumes
emulation and ``QUIT`` ends the emulator with exit status 0.

The runner uses a few of its commands, while the emulator waits for input at a
block boundary or stands at a breakpoint, so what they see is exactly reproducible:

* ``ANTIC`` and ``GTIA`` list the video chips' registers (display list address,
  character set base, colours as GTIA really has them, not the OS shadows);
  ``PIA`` lists PORTB, whose bits say which ROMs an XL has in view;
* ``WRITE start end file`` saves memory as the CPU sees it (RAM and ROM);
* ``BPC address`` stops the CPU when it is about to run the instruction at
  ``address`` (one breakpoint at a time; D000, where no code can run, is "none"):
  the emulator then enters the monitor in the middle of a frame and prints
  ``(breakpoint at XXXX)`` and the CPU state before reading commands;
* ``CONT`` goes on from there, ``QUIT`` ends the run cleanly (exit status 0).

On every entry the monitor prints the CPU state, one line such as
``  0   1 A=FF X=FF Y=17 S=F3 P=--*---ZC PC=FE77: F0 F5  BEQ $FE6E``
(scanline, cycle, registers, the next instruction), and flushes its output just
before it reads a command: a complete state line in the log means it is waiting.

Monitor file names are single words: the temporary folder must have no blanks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from a8.errors import A8Error

#: Frames of the next block the emulator runs before it notices the signal: it
#: checks for SIGINT at the start of a frame, and is already inside the frame
#: that waits for the next block when the signal arrives.
FRAMES_BEFORE_MONITOR: Final = 1


class MonitorError(A8Error):
    """The emulator's monitor did not answer as expected."""


def _word(path: Path) -> str:
    text = str(path)
    if any(char.isspace() for char in text):
        raise MonitorError(f"{text}: the emulator monitor cannot use a path with blanks")
    return text


def snapshot_commands(memory_file: Path, done_file: Path) -> bytes:
    """Commands that list the video registers, save all memory, then a marker file.

    The marker is written last: once it exists, the memory file is complete and
    the register listings have been flushed to the log (the monitor flushes its
    output each time it reads a command).
    """
    return (
        f"ANTIC\nGTIA\nPIA\nWRITE 0000 FFFF {_word(memory_file)}\n"
        f"WRITE 0000 0000 {_word(done_file)}\n"
    ).encode("ascii")


#: The address atari800 itself uses for "no breakpoint": I/O space, never run as code.
NO_BREAKPOINT: Final = 0xD000


def breakpoint_command(address: int | None) -> bytes:
    """Set the one PC breakpoint (None: remove it)."""
    return f"BPC {NO_BREAKPOINT if address is None else address:04X}\n".encode("ascii")


@dataclass(frozen=True)
class Entry:
    """The monitor announcing itself: where the CPU stands, and why it stopped."""

    pc: int
    a: int
    scanline: int
    #: The breakpoint address when a breakpoint stopped it; None for our SIGINT.
    breakpoint: int | None

    @property
    def at_breakpoint(self) -> bool:
        return self.breakpoint is not None


_STATE = re.compile(
    r"^\s*(\d+)\s+\d+ A=([0-9A-F]{2}) X=[0-9A-F]{2} Y=[0-9A-F]{2} S=[0-9A-F]{2} "
    r"P=\S+ PC=([0-9A-F]{4})"
)
#: How the monitor starts the line that announces a breakpoint stop.
BREAKPOINT_LINE: Final = "(breakpoint at "
_BREAKPOINT = re.compile(r"^\(breakpoint at ([0-9A-F]{4})\)")


def entries(lines: list[str]) -> list[Entry]:
    """The monitor entries announced in these complete log lines, in order."""
    found: list[Entry] = []
    stopped_at: int | None = None
    for line in lines:
        hit = _BREAKPOINT.match(line)
        if hit:
            stopped_at = int(hit.group(1), 16)
            continue
        state = _STATE.match(line)
        if state:
            scanline, a, pc = int(state.group(1)), int(state.group(2), 16), int(state.group(3), 16)
            found.append(Entry(pc, a, scanline, stopped_at))
        stopped_at = None
    return found


CONTINUE: Final = b"CONT\n"
QUIT: Final = b"QUIT\n"
