"""Machine code that runs in a BASIC string constant, where the program keeps it.

The game's small 6502 routines travel inside the program as string constants
(``"{CODE name.s}"`` in the source) and run where BASIC happens to keep the program:
so each must be position independent, and none of its bytes may be one a string
constant cannot hold or a listing cannot show (:data:`FORBIDDEN`: a quote, an end of
line, a screen editor control). :func:`string_code` assembles a routine with Ophis
(:mod:`a8.asm`) at two origins and holds it to both rules.
"""

from __future__ import annotations

from importlib import resources

from a8.asm import AssemblyError, assemble
from machfsol.atari.shuffle import FORBIDDEN
from machfsol.errors import MachfsolError

#: The origin the sources are written for, and the other one tried.
ORIGIN = "$0500"
OTHER_ORIGIN = "$0700"


def source_text(name: str) -> str:
    """The 6502 source ``name`` next to this module."""
    return resources.files("machfsol.atari").joinpath(name).read_text(encoding="ascii")


def string_code(name: str, error: type[MachfsolError]) -> bytes:
    """The bytes of routine ``name``'s string constant; ``error`` if it does not
    assemble, names an address of its own, or holds a forbidden byte."""
    text = source_text(name)
    first, second = (
        _assembled(text.replace(ORIGIN, at, 1), name, error) for at in (ORIGIN, OTHER_ORIGIN)
    )
    if first != second:
        raise error(f"{name}: the routine names an address of its own")
    bad = sorted(FORBIDDEN & set(first))
    if bad:
        raise error(
            f"{name}: byte ${bad[0]:02X} at offset {first.index(bad[0])}, which its "
            "string constant cannot show or hold"
        )
    return first


def _assembled(text: str, name: str, error: type[MachfsolError]) -> bytes:
    try:
        return assemble(text, name).code
    except AssemblyError as problem:
        raise error(str(problem)) from None
