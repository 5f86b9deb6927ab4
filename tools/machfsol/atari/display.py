"""The top lines of the text screen shown alone: a display list cut short, in a string.

While the game works out and draws a new deal, or sets itself up, only the title and
the status are shown and the rest is drawn unseen: ANTIC's fetches for a full text
screen take about a third of the real machine's cycles from BASIC, lines not shown
cost nothing. ``display.s`` next to this module shortens the GRAPHICS 0 display list
and makes it whole again, writing it only where ANTIC is not reading (its header
tells how). This module assembles it with Ophis (:mod:`a8.asm`) and checks that its
bytes can stand in a BASIC string constant, which it runs in
(:data:`machfsol.atari.shuffle.FORBIDDEN`); the source's ``"{CODE display.s}"`` becomes
these bytes, spelled ``{$XX}`` each, when :mod:`machfsol.atari.basic_game` generates the
listing.
"""

from __future__ import annotations

import functools
from typing import Final

from machfsol.atari.shuffle import spelling
from machfsol.atari.string_code import string_code
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "display.s"
#: K of ``X=USR(S,A,K)`` that shows every line; 1 to MAX_SHORT show that many.
ALL_LINES: Final = 24
MAX_SHORT: Final = 10


class DisplayCodeError(MachfsolError):
    """The display routine does not assemble, or holds a byte its string cannot."""


@functools.cache
def code() -> bytes:
    """The assembled routine: the bytes of its string constant
    (:func:`machfsol.atari.string_code.string_code`)."""
    return string_code(SOURCE_NAME, DisplayCodeError)


def code_spelling() -> str:
    return spelling(code())
