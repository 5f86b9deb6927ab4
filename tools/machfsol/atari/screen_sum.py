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
from importlib import resources
from typing import Final

from a8.asm import AssemblyError, assemble
from machfsol.atari.shuffle import FORBIDDEN, spelling
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "screen_sum.s"
#: The bytes summed: GRAPHICS 0's 24 lines of 40.
SCREEN_BYTES: Final = 960


class ScreenSumCodeError(MachfsolError):
    """The routine does not assemble, or holds a byte its string cannot."""


def fletcher(data: bytes) -> int:
    """Fletcher's 16-bit sum as the routine computes it: each 8-bit sum with the
    carry added back (ones' complement), the first sum in the low byte."""
    first = second = 0
    for byte in data:
        first += byte
        first = (first & 0xFF) + (first >> 8)
        second += first
        second = (second & 0xFF) + (second >> 8)
    return first | second << 8


def source_text() -> str:
    return resources.files("machfsol.atari").joinpath(SOURCE_NAME).read_text(encoding="ascii")


@functools.cache
def code() -> bytes:
    """The routine's bytes (position independent: the same assembled at two origins)."""
    first, second = (_assembled(source_text().replace("$0500", at, 1)) for at in ("$0500", "$0700"))
    if first != second:
        raise ScreenSumCodeError(f"{SOURCE_NAME}: the routine names an address of its own")
    bad = sorted(FORBIDDEN & set(first))
    if bad:
        raise ScreenSumCodeError(
            f"{SOURCE_NAME}: byte ${bad[0]:02X} at offset {first.index(bad[0])}, which its "
            "string constant cannot show or hold"
        )
    return first


def _assembled(text: str) -> bytes:
    try:
        return assemble(text, SOURCE_NAME).code
    except AssemblyError as error:
        raise ScreenSumCodeError(str(error)) from None


def code_spelling() -> str:
    return spelling(code())
