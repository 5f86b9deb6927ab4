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


#: Where a two-string mover puts its routine: BASIC's line buffer (free while a USR
#: routine runs: BASIC reads a line into it only between statements) and page 6, left
#: to the user by the OS, BASIC and DOS.
MOVED_AT = 0x0580
#: The mover the two-string routines include (``.include "record_mover.s"``).
MOVER = "record_mover.s"
MOVED_END = 0x0700
#: A string constant's bytes in a line of 255 characters at most: ``10171 RF=ADR("``
#: and ``")`` around them (the longest prefix the record's lines use).
STRING_MAX = 238


def moved_strings(name: str, error: type[MachfsolError]) -> tuple[bytes, bytes]:
    """The two string constants of routine ``name``, which runs from $0580: the
    first holds its mover and the routine's first part, the second the rest; the
    mover copies both to $0580 at each call, the second from ``GAP`` bytes after
    the first (the two strings in consecutive lines: the build checks the gap),
    each part XORed with the first key under which none of its bytes is one a string
    cannot hold.

    The source names ``mover``, ``p_key`` and ``p_key2`` (the mover's two ``EOR #0``,
    whose operands are the parts' keys), ``routine`` ($0580), ``split`` (where the second
    part starts) and ``last`` (the end)."""
    try:
        assembly = assemble(source_text(name), name, {MOVER: source_text(MOVER)})
    except AssemblyError as problem:
        raise error(str(problem)) from None
    labels = assembly.labels
    mover, start, split, last = (labels[k] for k in ("mover", "routine", "split", "last"))
    if start != MOVED_AT or len(assembly.code) != last - mover:
        raise error(f"{name}: the mover, then the routine from ${MOVED_AT:04X}, then last")
    if last > MOVED_END:
        raise error(
            f"{name}: the routine ends at ${last - 1:04X}, past page 6 by {last - MOVED_END} bytes"
        )
    code = assembly.code
    first, second = split - mover, last - split
    if first > STRING_MAX or second > STRING_MAX:
        raise error(f"{name}: strings of {first} and {second} bytes; a line holds {STRING_MAX}")
    mover_bytes = bytearray(code[: start - mover])
    parts = (code[start - mover : split - mover], code[split - mover :])
    keys = [_key_for(part) for part in parts]
    if None in keys:
        raise error(f"{name}: no XOR key keeps a string's forbidden bytes out")
    for label, key in zip(("p_key", "p_key2"), keys, strict=True):
        mover_bytes[labels[label] + 1 - mover] = key  # type: ignore[assignment]
    head = bytes(mover_bytes) + bytes(byte ^ keys[0] for byte in parts[0])  # type: ignore[operator]
    tail = bytes(byte ^ keys[1] for byte in parts[1])  # type: ignore[operator]
    if FORBIDDEN & set(head):
        raise error(f"{name}: the mover holds a byte its string cannot")
    return head, tail


def _key_for(part: bytes) -> int | None:
    """The smallest XOR key under which no byte of ``part`` is forbidden, or None."""
    return next((key for key in range(256) if not FORBIDDEN & {byte ^ key for byte in part}), None)
