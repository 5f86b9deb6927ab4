"""The SAVE file of an Atari BASIC program, described declaratively.

A SAVE file is a header of seven little-endian words followed by the program's
tables as they lay in memory. The words are addresses relative to a LOMEM of zero
with the name table at 0x100, so every table's position in the file follows:

====== ============================================================================
word   meaning
====== ============================================================================
LOMEM  0 (start of the argument stack, not saved)
VNTP   0x100: the variable name table (names, last character with bit 7 set)
VNTD   the table's end: a single 0x00 byte
VVTP   VNTD + 1: the variable value table, 8 bytes per variable
STMTAB the statement table: numbered lines in ascending order
STMCUR the line being executed: the immediate-mode line 32768 (the SAVE command
       itself) when SAVE was typed, the SAVE statement's line when a program ran it
STARP  the end of the program (the string/array area, empty in a file)
====== ============================================================================

Each variable value entry is a type byte (0x00 number, 0x40 array, 0x80 string;
bit 0 set once dimensioned), the variable number, then six bytes of value (a number,
or for arrays and strings their offset and sizes). Genuine LOAD relocates by the
header (files written elsewhere have VNTP values other than 0x100), and files saved
by BASIC rev. B carry extra bytes, which LOAD does not read: see :meth:`Program.from_bytes`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from a8.basic.errors import CorruptProgramError
from a8.file_kinds import FileKind, kind_of

HEADER: Final = struct.Struct("<7H")
HEADER_FIELDS: Final = ("LOMEM", "VNTP", "VNTD", "VVTP", "STMTAB", "STMCUR", "STARP")
VNTP_ADDRESS: Final = 0x100
VALUE_SIZE: Final = 8
IMMEDIATE_LINE: Final = 0x8000
#: The longest file read as a SAVE file: the tables are a copy of memory below 64 KB,
#: whose addresses the header's 16-bit words give.
LARGEST_PROGRAM: Final = 0x10000

#: Makes the error for a reason and a byte offset in the file.
_Fail = Callable[[str, int], CorruptProgramError]

TYPE_NUMBER: Final = 0x00
TYPE_ARRAY: Final = 0x40
TYPE_STRING: Final = 0x80


def variable_type(name: str) -> int:
    """The type byte of a fresh (not yet dimensioned) variable."""
    if name.endswith("$"):
        return TYPE_STRING
    if name.endswith("("):
        return TYPE_ARRAY
    return TYPE_NUMBER


@dataclass(frozen=True, slots=True)
class ProgramLine:
    """A numbered tokenized line: its number and its bytes (header included)."""

    number: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Program:
    """A tokenized program: variables, their values, lines and the immediate line."""

    names: tuple[str, ...]
    values: tuple[bytes, ...]
    lines: tuple[ProgramLine, ...]
    immediate: bytes
    #: For a program read from a file: the bytes after the name table's last name (its
    #: 00, the values, the lines ...), where LIST goes on looking for a variable whose
    #: number is past the table (programs "protected" that way list garbage names).
    after_names: bytes = field(default=b"", compare=False)
    #: For a program read from a file: where its statement table starts in the file.
    statements_at: int | None = field(default=None, compare=False)
    #: For a program read from a file: the statement table as LOAD placed it, up to the
    #: end of what LOAD reads (LIST reads lines there, even past a line's end).
    statements_memory: bytes = field(default=b"", compare=False)

    @classmethod
    def fresh(cls, names: list[str], lines: list[ProgramLine], immediate: bytes) -> Program:
        """A program as ENTER leaves it: every variable empty (all value bytes zero)."""
        values = tuple(
            bytes([variable_type(name), index]) + bytes(6) for index, name in enumerate(names)
        )
        return cls(tuple(names), values, tuple(lines), immediate)

    def statement_table_offset(self) -> int:
        """Where the first numbered line starts in the SAVE file (for error messages)."""
        if self.statements_at is not None:
            return self.statements_at
        names = sum(len(name) for name in self.names) + 1  # and the 00 that ends them
        return HEADER.size + names + VALUE_SIZE * len(self.values)

    def to_bytes(self) -> bytes:
        """The SAVE file."""
        name_table = b"".join(_encode_name(name) for name in self.names)
        statements = b"".join(line.data for line in self.lines)
        vntd = VNTP_ADDRESS + len(name_table)
        vvtp = vntd + 1
        stmtab = vvtp + VALUE_SIZE * len(self.values)
        stmcur = stmtab + len(statements)
        starp = stmcur + len(self.immediate)
        if starp > 0xFFFF:
            raise CorruptProgramError("program larger than 64 KB")
        header = HEADER.pack(0, VNTP_ADDRESS, vntd, vvtp, stmtab, stmcur, starp)
        return header + name_table + b"\x00" + b"".join(self.values) + statements + self.immediate

    @classmethod
    def from_bytes(cls, data: bytes, *, file: str = "<program>") -> Program:
        """Read a SAVE file the way genuine BASIC's LOAD does; what LOAD or LIST cannot
        use is a :class:`CorruptProgramError` naming the byte.

        LOAD checks only that the first header word is 0, then reads ``STARP - 0x100``
        bytes after the header and places them at VNTP: the tables are found relative
        to VNTP, whatever its value (0x100 in what BASIC writes; files from elsewhere
        have others), and bytes after that block (rev. B SAVE files carry some) are
        not read. LIST then needs the variable names and the chain of lines, which
        ends at the first line numbered 32768 or more.
        """

        def fail(reason: str, offset: int) -> CorruptProgramError:
            return CorruptProgramError(reason, file=file, offset=offset)

        if data[:2] not in (b"", b"\x00", b"\x00\x00"):
            raise fail(f"not an Atari BASIC SAVE file ({_what_it_is(data)})", 0)
        if len(data) < HEADER.size:
            raise fail(f"too short for the {HEADER.size}-byte header", len(data))
        words: dict[str, int] = dict(zip(HEADER_FIELDS, HEADER.unpack_from(data), strict=True))
        if words["LOMEM"] != 0:
            raise fail(f"not an Atari BASIC SAVE file ({_what_it_is(data)})", 0)
        vntp = words["VNTP"]
        if words["STARP"] < VNTP_ADDRESS:
            raise fail("header: STARP is below $0100 (LOAD would read past the file)", 12)
        loaded = HEADER.size + words["STARP"] - VNTP_ADDRESS
        if len(data) < loaded:
            raise fail(f"truncated: LOAD reads {loaded} bytes, the file has {len(data)}", len(data))
        end = vntp + loaded - HEADER.size
        for index, word in ((2, "VNTD"), (4, "STMTAB")):  # what LIST uses, besides VNTP
            if not vntp <= words[word] <= end:
                raise fail(f"header: {word} is outside the program LOAD reads", 2 * index)

        def at(address: int) -> int:
            return HEADER.size + address - vntp

        names, names_end = _decode_names(data, at(vntp), at(words["VNTD"]))
        values: tuple[bytes, ...] = ()
        if vntp <= words["VVTP"] <= words["STMTAB"]:
            values = tuple(
                data[offset : offset + VALUE_SIZE]
                for offset in range(at(words["VVTP"]), at(words["STMTAB"]) - 7, VALUE_SIZE)
            )
        lines, immediate_start = _decode_lines(data, at(words["STMTAB"]), loaded, fail)
        immediate = data[immediate_start : max(immediate_start, at(min(words["STARP"], end)))]
        after_names = data[names_end:loaded]
        statements = data[at(words["STMTAB"]) : loaded]
        return cls(names, values, lines, immediate, after_names, at(words["STMTAB"]), statements)


def _what_it_is(data: bytes) -> str:
    """A guess at what a file that is no SAVE file is, for the error message."""
    kind = kind_of(data)
    if kind is None or kind is FileKind.SAVE_FILE:
        return "its first two bytes must be 00 00"
    return f"it is {kind.said()}"


def _encode_name(name: str) -> bytes:
    raw = name.encode("ascii")
    return raw[:-1] + bytes([raw[-1] | 0x80])


def _decode_names(data: bytes, start: int, end: int) -> tuple[tuple[str, ...], int]:
    """The name table's entries (each ends with bit 7 set on its last character), as
    text with bit 7 cleared, and where the last whole entry ends."""
    names: list[str] = []
    current = bytearray()
    after = start
    for offset in range(start, end):
        byte = data[offset]
        current.append(byte & 0x7F)
        if byte & 0x80:
            names.append(current.decode("latin-1"))
            current.clear()
            after = offset + 1
    return tuple(names), after


def _check_line(data: bytes, start: int, limit: int, fail: _Fail) -> int:
    """Check that LIST gets through one line, the way its loop walks it: from offset 3,
    each statement's first byte is the offset of the next, until one reaches the
    line's length (byte 2). A statement may end past the line: LIST then reads on into
    the bytes after it, which must be in the program. Returns where the next line
    starts."""
    if start + 3 > limit:
        raise fail("truncated line header", start)
    length = data[start + 2]
    if length == 0:
        raise fail("line length 0 (LIST would list this line for ever)", start + 2)
    position = 3
    while True:
        if start + position >= limit:
            raise fail("the line's statements run past the program", start + position)
        offset = data[start + position]
        if start + offset > limit:
            raise fail(f"a statement ends past the program (offset {offset})", start + position)
        if offset >= length:
            return start + length
        if offset <= position:
            raise fail(f"broken statement chain (offset {offset})", start + position)
        position = offset


def _decode_lines(
    data: bytes, start: int, end: int, fail: _Fail
) -> tuple[tuple[ProgramLine, ...], int]:
    """The numbered lines from STMTAB up to the first line numbered 32768 or more
    (where LIST stops: the immediate line), and where that line starts. STMCUR is not
    used: a program that SAVEs itself while running leaves STMCUR on the line that
    holds the SAVE statement."""
    lines: list[ProgramLine] = []
    position = start
    while True:
        if position + 2 > end:
            raise fail("the line chain runs past the program without an end line", position)
        number = int.from_bytes(data[position : position + 2], "little")
        if number >= IMMEDIATE_LINE:
            return tuple(lines), position
        after = _check_line(data, position, end, fail)
        lines.append(ProgramLine(number, data[position : max(after, position + 3)]))
        position = after
