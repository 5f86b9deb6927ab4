"""The player's record on the Atari: three 6502 routines in string constants.

The game keeps, per deck size, the games played and won, the current and the best
winning streak and the best time, in a file of one sector on its disk (MACHFSOL.ST1
for MAChFsol 1, MACHFSOL.ST2 for MAChFsol 2, made by ``machfsol build``:
:mod:`machfsol.atari.record_book`), written through the OS's serial I/O as the boot
menu reads. Three routines do the work, each carried in two string constants of
consecutive lines (a line holds at most 255 bytes) and copied by its mover to
$0580-$06FF at each call (:func:`machfsol.atari.string_code.moved_strings`): ``record_file.s``
finds, reads and writes the file, ``record_keeper.s`` counts the games and times
them, ``record_lines.s`` writes the record and the time on the screen. Their headers
tell the calls and the buffer's layout; :mod:`machfsol.atari.record_book` is the same
record in Python, which the tests hold them to.
"""

from __future__ import annotations

import functools
from typing import Final

from machfsol.atari.shuffle import spelling
from machfsol.atari.string_code import moved_strings
from machfsol.errors import MachfsolError

SOURCES: Final = ("record_file.s", "record_keeper.s", "record_lines.s")
#: The buffer's size (ST$ in the program): the sector, then the routines' state.
BUFFER_SIZE: Final = 166


class RecordCodeError(MachfsolError):
    """A record routine does not assemble or fit, or holds a byte its string cannot."""


#: The gap between a routine's two strings in the tokenized program, which each
#: source's mover assumes (``.alias GAP`` in record_mover.s): the first string's closing parenthesis
#: and the line's end, the next line's number, length and statement offset, then
#: ``X=ADR(`` (the implied LET's token, X, =, ADR, the parenthesis) and the string's
#: token and length. The tests hold the game's programs to it.
GAP: Final = 13


@functools.cache
def strings_of(name: str) -> tuple[bytes, bytes]:
    return moved_strings(name, RecordCodeError)


def spelling_of(name: str, part: int) -> str:
    """The listing's spelling of part 1 or 2 of routine ``name``."""
    return spelling(strings_of(name)[part - 1])
