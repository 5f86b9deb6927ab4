"""A line of text written straight into screen memory: a 6502 routine in a string.

The game's message and key lines are written by ``screen_text.s`` next to this module
instead of PRINT, which goes through the OS's screen editor at some 1,000 cycles a
character on the genuine XL OS (its header tells how and why). :func:`screen_codes`
is the same conversion in Python, for the tests. The source's ``"{CODE screen_text.s}"``
becomes the routine's bytes, spelled ``{$XX}`` each, when
:mod:`machfsol.atari.basic_game` generates the listing.
"""

from __future__ import annotations

import functools
from typing import Final

from machfsol.atari.shuffle import spelling
from machfsol.atari.string_code import string_code
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "screen_text.s"


class ScreenTextCodeError(MachfsolError):
    """The routine does not assemble, or holds a byte its string cannot."""


def screen_codes(text: bytes) -> bytes:
    """ATASCII as screen memory holds it (ANTIC's internal codes; inverse kept)."""
    shift = {0x00: 0x40, 0x20: -0x20, 0x40: -0x20, 0x60: 0}
    return bytes((byte + shift[byte & 0x60]) & 0xFF for byte in text)


@functools.cache
def code() -> bytes:
    return string_code(SOURCE_NAME, ScreenTextCodeError)


def code_spelling() -> str:
    return spelling(code())
