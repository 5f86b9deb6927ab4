"""atari800's built-in monitor, used as a remote control while the machine is paused.

atari800 enters its monitor when it receives SIGINT (it checks for the signal at
the start of each frame) and then reads monitor commands from its standard input,
one per line, printing results to its standard output; ``CONT`` resumes
emulation and ``QUIT`` ends the emulator with exit status 0.

The runner uses three of its commands, only ever while the emulator waits for
input at a block boundary, so what they see is exactly reproducible:

* ``ANTIC`` and ``GTIA`` list the video chips' registers (display list address,
  character set base, colours as GTIA really has them, not the OS shadows);
* ``WRITE start end file`` saves memory as the CPU sees it (RAM and ROM);
* ``QUIT`` ends the run cleanly, so a normal run exits with status 0.

Monitor file names are single words: the temporary folder must have no blanks.
"""

from __future__ import annotations

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
        f"ANTIC\nGTIA\nWRITE 0000 FFFF {_word(memory_file)}\nWRITE 0000 0000 {_word(done_file)}\n"
    ).encode("ascii")


CONTINUE: Final = b"CONT\n"
QUIT: Final = b"QUIT\n"
