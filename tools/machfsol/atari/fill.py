"""A memory copy for USR, carried in a string constant: the set-up's array fill.

Atari BASIC gives a new array no value (DIM leaves what memory held), so the game's
set-up sets every element it reads; for the per-card tables that start the same for
every card (a card's forced foundation FF and "wanted" count WT are 0, its King pile
PT is -1), the same for every card of a suit (its suit SU) or repeat from suit to
suit (its rank RK, and parts of the King-pile table), that was five to seven BASIC
statements a card. ``fill.s`` next to this
module copies memory forward, which repeats elements over an array (its header tells
how); this module assembles it with Ophis (:mod:`a8.asm`) and checks that its bytes
can stand in a BASIC string constant, which, like the shuffle's finder, it runs in
(:data:`machfsol.atari.shuffle.FORBIDDEN`). The source's ``"{CODE fill.s}"`` becomes
these bytes, spelled ``{$XX}`` each, when :mod:`machfsol.atari.basic_game` generates
the listing.
"""

from __future__ import annotations

import functools
from importlib import resources

from a8.asm import AssemblyError, assemble
from machfsol.atari.shuffle import FORBIDDEN, spelling
from machfsol.errors import MachfsolError

SOURCE_NAME = "fill.s"


class FillCodeError(MachfsolError):
    """The fill routine does not assemble, or holds a byte its string cannot."""


def source_text() -> str:
    return resources.files("machfsol.atari").joinpath(SOURCE_NAME).read_text(encoding="ascii")


@functools.cache
def code() -> bytes:
    """The assembled routine: the bytes of its string constant."""
    try:
        assembly = assemble(source_text(), SOURCE_NAME)
    except AssemblyError as error:
        raise FillCodeError(str(error)) from None
    size = assembly.labels["fillend"] - assembly.labels["fill"]
    data = assembly.code[:size]
    bad = sorted(FORBIDDEN & set(data))
    if bad or size != len(assembly.code):
        where = f"byte ${bad[0]:02X} at offset {data.index(bad[0])}" if bad else "code past fillend"
        raise FillCodeError(
            f"{SOURCE_NAME}: {where}, which its string constant cannot show or hold"
        )
    return data


def code_spelling() -> str:
    return spelling(code())
