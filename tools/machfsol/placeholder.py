"""Stand-in tokenized programs for the game disk, until the tokenizer can build the games.

``machfsol build`` needs two tokenized BASIC programs. While a8.basic cannot yet
tokenize the real game listings, the disk carries these tiny programs instead,
tokenized here by hand (the SAVE format is simple for programs without variables)::

    10 PRINT "MAChFsol 1: placeholder, the game is not built yet"
    20 POKE 1536,1

Line 20 leaves the variant number in memory location 1536 ($0600, page 6, which
BASIC does not use), so an emulator test can check that the program really ran.
"""

from __future__ import annotations

import struct

# Atari BASIC token values used below (statement tokens, then operator tokens).
PRINT = 0x20
POKE = 0x1F
END = 0x15
NUMBER = 0x0E
STRING = 0x0F
COMMA = 0x12
END_OF_LINE = 0x16

#: Where the placeholder leaves its variant number.
MARKER_ADDRESS = 1536
#: SAVE files are relocated so that the variable name table starts here.
NAME_TABLE_OFFSET = 0x100
#: The line number of the immediate-mode line that every SAVE file ends with.
IMMEDIATE_LINE = 32768


def small_integer_bcd(value: int) -> bytes:
    """The 6-byte BCD float of an integer 0..9999 (exponent base 100, bias 0x40)."""
    if not 0 <= value <= 9999:
        raise ValueError(f"{value} is outside 0..9999")
    if value == 0:
        return bytes(6)
    pairs = [value // 100, value % 100] if value >= 100 else [value]
    digits = bytes((pair // 10) << 4 | pair % 10 for pair in pairs)
    return (bytes([0x40 + len(pairs) - 1]) + digits).ljust(6, b"\0")


def _line(number: int, statement: bytes) -> bytes:
    """One line holding one statement (token and operands, ending with EOL)."""
    length = 3 + 1 + len(statement)
    return struct.pack("<HBB", number, length, length) + statement


def placeholder_program(variant: int, title: str) -> bytes:
    """The tokenized stand-in for ``variant``: prints a notice, leaves a marker."""
    text = f"{title}: placeholder, the game is not built yet".encode("ascii")
    print_statement = bytes([PRINT, STRING, len(text)]) + text + bytes([END_OF_LINE])
    poke_statement = (
        bytes([POKE, NUMBER])
        + small_integer_bcd(MARKER_ADDRESS)
        + bytes([COMMA, NUMBER])
        + small_integer_bcd(variant)
        + bytes([END_OF_LINE])
    )
    lines = _line(10, print_statement) + _line(20, poke_statement)
    immediate = _line(IMMEDIATE_LINE, bytes([END, END_OF_LINE]))
    name_table = b"\0"  # no variables: only the terminator
    vntp = NAME_TABLE_OFFSET
    vntd = vntp + len(name_table) - 1
    vvtp = vntd + 1
    stmtab = vvtp  # no variable values
    stmcur = stmtab + len(lines)
    starp = stmcur + len(immediate)
    header = struct.pack("<7H", 0, vntp, vntd, vvtp, stmtab, stmcur, starp)
    return header + name_table + lines + immediate
