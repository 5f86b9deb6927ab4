"""The games' shuffle as a 6502 routine, carried in string constants of the program.

The deal (Park-Miller and Fisher-Yates, :mod:`machfsol.engine.deal`) is pure integer
arithmetic, which Atari BASIC's BCD floats do slowly: about 300 jiffies for 52 cards
with the genuine ROMs. ``shuffle.s`` next to this module does it in machine code; its
header tells how. This module assembles it with Ophis (:mod:`a8.asm`) and cuts it into
the bytes of two BASIC string constants: the finder (it returns the address of the
array ``D``), and the mover with the routine, the routine encoded with a one-byte XOR
key. Neither string may hold a quote or an end of line (a string constant cannot) or
a screen-editor control (LIST would act on it instead of showing it); the finder runs
as it is, so its code must avoid them, the routine gets the first key that does.

The source's ``"{CODE shuffle.s finder}"`` and ``"{CODE shuffle.s routine}"`` become
these bytes when :mod:`machfsol.atari.basic_game` generates the listing, spelled
``{$XX}`` each, as listings spell any ATASCII code.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from a8.asm import AssemblyError, assemble
from machfsol.errors import MachfsolError

SOURCE_NAME = "shuffle.s"
#: Where the mover puts the routine: page 6, left to the user by the OS, BASIC and DOS.
ROUTINE_ADDRESS = 0x0600
PAGE_END = 0x0700
#: The deck the routine keeps after its code: one byte per card.
DECK_MAX = 52
#: Bytes the string constant must not hold: a quote would end it and 0x9B (EOL) the
#: line; the screen editor's controls (ESC, cursor moves, clear, backspace, tab, line
#: and tab editing, bell, character delete and insert) would act when LIST prints the
#: line instead of showing a character. With none of them the line lists as glyphs.
FORBIDDEN = frozenset(
    {0x22, 0x9B, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x7D, 0x7E, 0x7F, 0x9C, 0x9D, 0x9E, 0x9F}
    | {0xFD, 0xFE, 0xFF}
)


class ShuffleCodeError(MachfsolError):
    """The shuffle routine does not assemble or fit, or the program breaks its contract."""


@dataclass(frozen=True)
class ShuffleRoutine:
    """The assembled code and the two string constants that carry it."""

    #: The finder's string: ``X=USR(ADR(finder))`` is the address of D(0) (0: no D().
    finder: bytes
    #: The routine's string: the mover, then the routine XORed with ``key``.
    string: bytes
    #: The routine as it runs in page 6 (from :data:`ROUTINE_ADDRESS`).
    code: bytes
    key: int
    labels: Mapping[str, int]


def source_text() -> str:
    return resources.files("machfsol.atari").joinpath(SOURCE_NAME).read_text(encoding="ascii")


@functools.cache
def routine() -> ShuffleRoutine:
    """Assemble shuffle.s and cut it into its strings (the smallest key that works)."""
    try:
        assembly = assemble(source_text(), SOURCE_NAME)
    except AssemblyError as error:
        raise ShuffleCodeError(str(error)) from None
    labels = assembly.labels
    finder_size = labels["finderend"] - labels["finder"]
    mover, start, deck = labels["mover"], labels["routine"], labels["deck"]
    if start != ROUTINE_ADDRESS or finder_size + deck - mover != len(assembly.code):
        raise ShuffleCodeError(
            f"{SOURCE_NAME}: the finder, then the mover, then the routine from "
            f"${ROUTINE_ADDRESS:04X}, then the deck"
        )
    if deck + DECK_MAX > PAGE_END:
        raise ShuffleCodeError(
            f"{SOURCE_NAME}: routine and deck end at ${deck + DECK_MAX - 1:04X}, "
            f"past page 6 (${PAGE_END - 1:04X}) by {deck + DECK_MAX - PAGE_END} bytes"
        )
    finder = assembly.code[:finder_size]
    bad = sorted(FORBIDDEN & set(finder))
    if bad:
        raise ShuffleCodeError(
            f"{SOURCE_NAME}: the finder holds byte ${bad[0]:02X} at offset "
            f"{finder.index(bad[0])}, which its string constant cannot show or hold"
        )
    mover_bytes = bytearray(assembly.code[finder_size : finder_size + start - mover])
    code = assembly.code[finder_size + start - mover :]
    key_at = labels["p_key"] + 1 - mover  # the operand of the mover's EOR
    for key in range(256):
        mover_bytes[key_at] = key
        string = bytes(mover_bytes) + bytes(byte ^ key for byte in code)
        if not FORBIDDEN & set(string):
            return ShuffleRoutine(finder, string, code, key, labels)
    raise ShuffleCodeError(
        f"{SOURCE_NAME}: no XOR key keeps quotes, end-of-line and editor-control bytes "
        "out of the string"
    )


def spelling(data: bytes) -> str:
    """Bytes as a listing spells them in a string constant: ``{$XX}`` for each."""
    return "".join(f"{{${byte:02X}}}" for byte in data)


def finder_spelling() -> str:
    return spelling(routine().finder)


def routine_spelling() -> str:
    return spelling(routine().string)
