"""Atari BASIC numbers: 6-byte binary-coded-decimal floating point.

A number is an exponent byte and five mantissa bytes. The exponent counts powers of
one hundred with a bias of 0x40, and its top bit is the sign; each mantissa byte holds
two decimal digits, and the first one is non-zero unless the whole number is zero::

    value = (m0 + m1/100 + m2/100**2 + m3/100**3 + m4/100**4) * 100 ** (exponent - 0x40)

Parsing follows the ROM's decimal-to-float routine as the emulator shows it: digits
beyond the ten the mantissa can hold are cut off (never rounded), magnitudes below
1E-98 become zero, and from 1E98 up the constant is an error. Formatting follows the
float-to-decimal routine that LIST uses: plain notation from 0.01 up to 9999999999,
scientific notation (two exponent digits, always signed) elsewhere.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from a8.basic.errors import NumberError

SIZE: Final = 6
BIAS: Final = 0x40
#: Exponent bytes of the smallest and largest magnitudes the ROM routines produce.
MIN_EXPONENT: Final = 0x0F  # 1E-98
MAX_EXPONENT: Final = 0x70  # 9.999999999E+97
ZERO: Final = bytes(SIZE)

#: A constant as the ROM scanner accepts it: digits with an optional point, then an
#: optional exponent with one or two digits. A bare point or a dangling E is no number.
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:E[+-]?[0-9]{1,2}(?![0-9]))?")

#: The ROM rejects an exponent of zero (``1E0``, ``1E+00``, ``1E-0``) though ``1E+01`` is fine.
_ZERO_EXPONENT = re.compile(r"E[+-]?0+$")


def literal_end(text: str, start: int) -> int | None:
    """Where the numeric constant at ``text[start:]`` ends, read the way BASIC's
    scanner reads it, or None when no constant starts there.

    Only the extent: :func:`parse` converts the literal (and rejects one too large).
    """
    match = _NUMBER.match(text, start)
    if match is None or _ZERO_EXPONENT.search(match.group()):
        return None
    return match.end()


@lru_cache(maxsize=4096)
def parse(literal: str) -> bytes:
    """The six bytes of a decimal constant (no sign: BASIC's minus is an operator).

    Cached: programs repeat their constants, and the scanner and the grammar's
    transformer both ask for the same literal.
    """
    mantissa_text, _, exponent_text = literal.partition("E")
    whole, _, fraction = mantissa_text.partition(".")
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return ZERO
    # value = int(digits) * 10 ** power10
    power10 = (int(exponent_text) if exponent_text else 0) - len(fraction)
    return from_decimal(int(digits), power10)


def from_decimal(integer: int, power10: int, *, negative: bool = False) -> bytes:
    """The bytes of ``integer * 10**power10``, truncated to ten digits like the ROM."""
    if integer == 0:
        return ZERO
    digits = str(integer)
    # Position of the leading digit as a power of ten, then as a power of one hundred.
    leading = len(digits) - 1 + power10
    hundreds = leading // 2
    # Digits that fall into m0 (one or two), then four more bytes of two digits each.
    head = 1 if leading % 2 == 0 else 2
    kept = (digits + "0" * 10)[: head + 8]
    mantissa = [int(kept[:head])] + [int(kept[head + 2 * i : head + 2 * i + 2]) for i in range(4)]
    exponent = hundreds + BIAS
    if exponent < MIN_EXPONENT:
        return ZERO
    if exponent > MAX_EXPONENT:
        raise NumberError("number too large (the largest is 9.99999999E+97)")
    sign = 0x80 if negative else 0
    return bytes([exponent | sign]) + bytes((m // 10) << 4 | (m % 10) for m in mantissa)


def is_decimal(value: bytes) -> bool:
    """Whether every mantissa nibble is a decimal digit (a corrupt file may say otherwise)."""
    return all(byte >> 4 <= 9 and byte & 0x0F <= 9 for byte in value[1:])


def _mantissa_pairs(value: bytes) -> list[int]:
    pairs = []
    for byte in value[1:]:
        high, low = byte >> 4, byte & 0x0F
        if high > 9 or low > 9:
            raise NumberError(f"not a BCD number: {value.hex(' ')}")
        pairs.append(high * 10 + low)
    return pairs


def format_number(value: bytes) -> str:
    """The text LIST and PRINT show for a number."""
    if len(value) != SIZE:
        raise NumberError(f"a number has {SIZE} bytes, not {len(value)}")
    pairs = _mantissa_pairs(value)
    if value[0] & 0x7F == 0 and not any(pairs) or not any(pairs):
        return "0"
    sign = "-" if value[0] & 0x80 else ""
    exponent = (value[0] & 0x7F) - BIAS
    if -1 <= exponent <= 4:
        return sign + _plain(pairs, exponent)
    return sign + _scientific(pairs, exponent)


def _plain(pairs: list[int], exponent: int) -> str:
    digits = "".join(f"{p:02d}" for p in pairs)  # ten digits, point after the first two
    point = 2 + 2 * exponent
    if point <= 0:
        whole, fraction = "0", "0" * -point + digits
    else:
        whole, fraction = digits[:point], digits[point:]
    whole = whole.lstrip("0") or "0"
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _scientific(pairs: list[int], exponent: int) -> str:
    rest = "".join(f"{p:02d}" for p in pairs[1:])
    if pairs[0] >= 10:
        first, second = divmod(pairs[0], 10)
        fraction = (str(second) + rest).rstrip("0") or "0"
        power = 2 * exponent + 1
    else:
        first = pairs[0]
        fraction = rest.rstrip("0")
        power = 2 * exponent
    mantissa = f"{first}.{fraction}" if fraction else str(first)
    return f"{mantissa}E{'-' if power < 0 else '+'}{abs(power):02d}"


def to_int(value: bytes) -> int:
    """The integer nearest to a number, rounding halves up like the ROM's FPI."""
    pairs = _mantissa_pairs(value)
    exponent = (value[0] & 0x7F) - BIAS
    integer = 0
    for pair in pairs:
        integer = integer * 100 + pair
    scale = 4 - exponent  # value = integer / 100**scale
    if scale <= 0:
        result: int = integer * 100 ** (-scale)
    else:
        unit: int = 100**scale
        result = (integer * 2 + unit) // (2 * unit)
    return -result if value[0] & 0x80 else result
