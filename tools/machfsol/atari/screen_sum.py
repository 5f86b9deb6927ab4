"""The test mode's screen checksum: a 6502 routine in a string constant, and the same
sum in Python.

After each of its steps the test mode records what the text screen shows as one
16-bit number (``screen_sum.s`` next to this module: Fletcher's two sums modulo 255
over the 960 bytes of screen memory, its header tells how); :mod:`machfsol.atari.verify`
holds it to the engine's table drawn the game's way
(:mod:`machfsol.atari.screen_model`), whose bytes :func:`fletcher` sums the same way.
The source's ``"{CODE screen_sum.s}"`` becomes the routine's bytes, spelled ``{$XX}``
each, when :mod:`machfsol.atari.basic_game` generates the listing.
"""

from __future__ import annotations

import functools
from itertools import accumulate
from typing import Final

from machfsol.atari.shuffle import spelling
from machfsol.atari.string_code import string_code
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "screen_sum.s"
#: The bytes summed: GRAPHICS 0's 24 lines of 40.
SCREEN_BYTES: Final = 960


class ScreenSumCodeError(MachfsolError):
    """The routine does not assemble, or holds a byte its string cannot."""


def fletcher(data: bytes) -> int:
    """Fletcher's 16-bit sum as the routine computes it: each 8-bit sum with the
    carry added back (ones' complement), the first sum in the low byte.

    A ones' complement sum of bytes, taken step by step from 0, is the plain sum
    folded into 1..255 (0 only while it is 0): so the first sum after each byte is
    the fold of the bytes' running total, and the second the fold of those sums'
    total (the harness sums tens of thousands of screens: this is the quick way)."""
    running = [(total - 1) % 255 + 1 if total else 0 for total in accumulate(data)]
    return (running[-1] if running else 0) | _fold(sum(running)) << 8


def _fold(total: int) -> int:
    """``total`` as an 8-bit ones' complement sum: 0, or 1..255 with total's remainder."""
    return (total - 1) % 255 + 1 if total else 0


@functools.cache
def code() -> bytes:
    """The assembled routine: the bytes of its string constant
    (:func:`machfsol.atari.string_code.string_code`)."""
    return string_code(SOURCE_NAME, ScreenSumCodeError)


def code_spelling() -> str:
    return spelling(code())
