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
from importlib import resources
from typing import Final

from a8.asm import AssemblyError, assemble
from machfsol.atari.shuffle import FORBIDDEN, spelling
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "display.s"
#: K of ``X=USR(S,A,K)`` that shows every line; 1 to MAX_SHORT show that many.
ALL_LINES: Final = 24
MAX_SHORT: Final = 10


class DisplayCodeError(MachfsolError):
    """The display routine does not assemble, or holds a byte its string cannot."""


def source_text() -> str:
    return resources.files("machfsol.atari").joinpath(SOURCE_NAME).read_text(encoding="ascii")


@functools.cache
def code() -> bytes:
    """The assembled routine: the bytes of its string constant (position independent:
    assembled at two origins, the same bytes)."""
    first, second = (
        _assembled(source_text().replace("$0500", origin, 1)) for origin in ("$0500", "$0700")
    )
    if first != second:
        raise DisplayCodeError(f"{SOURCE_NAME}: the routine names an address of its own")
    bad = sorted(FORBIDDEN & set(first))
    if bad:
        raise DisplayCodeError(
            f"{SOURCE_NAME}: byte ${bad[0]:02X} at offset {first.index(bad[0])}, which its "
            "string constant cannot show or hold"
        )
    return first


def _assembled(text: str) -> bytes:
    try:
        return assemble(text, SOURCE_NAME).code
    except AssemblyError as error:
        raise DisplayCodeError(str(error)) from None


def code_spelling() -> str:
    return spelling(code())
