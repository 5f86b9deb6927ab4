"""An arithmetic series writer for USR, carried in a string constant: the set-up's tables.

The game's tables of which card goes on which in a King pile, the suit letters of
the card names and the places' columns and rows are arithmetic series (a suit's
first card plus 0, 1, 2 ...; one letter every second character; a row every second
line). Built by BASIC statements, one element each, they took some 60 frames of the
first table's wait on the genuine machine. ``series.s`` next to this module writes
such a series as BASIC numbers or as bytes (its header tells how); this module
assembles it and holds it to a string constant's rules
(:func:`machfsol.atari.string_code.string_code`). The source's ``"{CODE series.s}"``
becomes these bytes, spelled ``{$XX}`` each, when :mod:`machfsol.atari.basic_game`
generates the listing.
"""

from __future__ import annotations

import functools
from typing import Final

from machfsol.atari.shuffle import spelling
from machfsol.atari.string_code import string_code
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "series.s"
#: K of ``X=USR(Q,A,N,V,D,K)`` that writes BASIC numbers (6 bytes each).
NUMBER_SIZE: Final = 6
#: The largest value written as a number.
MAX_NUMBER: Final = 99


class SeriesCodeError(MachfsolError):
    """The series routine does not assemble or holds a byte its string cannot."""


@functools.cache
def code() -> bytes:
    """The assembled routine: the bytes of its string constant."""
    return string_code(SOURCE_NAME, SeriesCodeError)


def code_spelling() -> str:
    return spelling(code())
