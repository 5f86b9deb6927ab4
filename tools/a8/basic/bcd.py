"""Atari numbers: 6-byte binary-coded-decimal floating point, converted as the XL OS does.

A number is an exponent byte and five mantissa bytes. The exponent counts powers of
one hundred with a bias of 0x40, and its top bit is the sign; each mantissa byte holds
two decimal digits, and the first one is non-zero unless the whole number is zero::

    value = (m0 + m1/100 + m2/100**2 + m3/100**3 + m4/100**4) * 100 ** (exponent - 0x40)

Atari BASIC does not convert numbers itself: ENTER hands every numeric constant (and
every line number) to the operating system's ASCII-to-float routine, and LIST prints
them with its float-to-ASCII routine. Both routines have quirks that show in SAVE files
and listings, so this module follows what genuine Atari XL OS rev. 2 does, step by step,
on its 8-bit registers (measured against genuine BASIC rev. C: tests/a8/basic/fixtures/
revc-gold):

* :func:`afp` (ASCII to float) keeps at most nine significant digits and drops the
  rest without rounding (``2147483647`` is stored as 2147483640); accepts a leading
  ``+`` or ``-`` (so ``- -5`` holds a negative constant); reads an exponent of one or two
  digits, but gives it back when the exponent plus the dropped digits add up to zero
  (``1E0`` is the number 1 followed by ``E0``); underflows to 0 below 1E-98 and fails
  from 1E98 up; counts its exponent in 8 bits, so absurdly long constants wrap.
* :func:`fasc` (float to ASCII) prints plain notation from 0.01 to 9999999999 and
  scientific notation elsewhere; a negative zero (which :func:`afp` makes from ``-0``)
  comes out as ``-0E-<8``, exactly as genuine LIST prints it.
* :func:`line_number` converts a line number the way ENTER does (rounded, 16 bits).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from a8.basic.errors import NumberError

SIZE: Final = 6
BIAS: Final = 0x40
ZERO: Final = bytes(SIZE)
#: The end-of-line byte: it ends every line BASIC reads, and so every number.
EOL: Final = 0x9B

_DIGIT_0: Final = 0x30
_MANTISSA_DIGITS: Final = 10
_MANTISSA_LIMIT: Final = 10**_MANTISSA_DIGITS
#: While the mantissa is below this (its first byte zero), another digit fits.
_ROOM_FOR_A_DIGIT: Final = 10 ** (_MANTISSA_DIGITS - 2)
#: Exponent bytes at and above this overflow (1E98); below the underflow one, zero.
_OVERFLOW_EXPONENT: Final = BIAS + 49
_UNDERFLOW_EXPONENT: Final = BIAS - 49


def _is_digit(byte: int) -> bool:
    return 0x30 <= byte <= 0x39


def is_number_start(text: bytes, at: int) -> bool:
    """The OS's test before converting: a digit, or ``.`` / ``+`` / ``-`` (``+.``,
    ``-.``) followed by a digit."""
    first = _byte(text, at)
    if _is_digit(first):
        return True
    if first in b"+-":
        at += 1
        first = _byte(text, at)
        if _is_digit(first):
            return True
    return first == ord(".") and _is_digit(_byte(text, at + 1))


def _byte(text: bytes, at: int) -> int:
    return text[at] if at < len(text) else EOL


def afp(text: bytes, start: int) -> tuple[bytes, int] | None:
    """The number at ``text[start:]`` (after blanks) and where it ends, or None when
    the OS finds no number there or the number is too large.

    ``text`` is a line as BASIC holds it; bytes past its end read as the end of line.
    The steps below are the OS routine's, with its 8-bit counters.
    """
    at = start
    while _byte(text, at) == 0x20:
        at += 1
    end = at
    while _is_digit(_byte(text, end)):
        end += 1
    if end > at and _byte(text, end) not in b".E" and end - at <= 9:
        return _integer(int(text[at:end])), end  # the common case, exact
    if not is_number_start(text, at):
        return None
    mantissa = 0  # up to ten decimal digits
    exponent = 0  # EEXP: dropped integer digits, then the exponent (8 bits)
    negative = False
    exponent_negative = False
    first_character = True
    decimals = 0xFF  # DIGRT: digits after the point; 0xFF = no point yet (8 bits)
    mark = 0  # where the exponent's digits start, to give them back

    step = "next"
    while True:
        if step == "next":  # read one character of the mantissa
            byte = _byte(text, at)
            at += 1
            if _is_digit(byte):
                if mantissa >= _ROOM_FOR_A_DIGIT:  # no room: the digit is dropped
                    if decimals >= 0x80:  # ... and counted if before the point
                        exponent = (exponent + 1) & 0xFF
                else:
                    mantissa = mantissa * 10 + byte - _DIGIT_0
                    if decimals < 0x80:
                        decimals += 1
                first_character = False
                continue
            if byte == ord("."):
                step = "point"
            elif byte == ord("E"):
                step = "exponent"
            elif not first_character:
                step = "end"
            elif byte == ord("+"):
                first_character = False
            elif byte == ord("-"):
                negative = True
                first_character = False
            else:  # cannot happen after is_number_start; the OS would take it as a sign
                negative = True
                step = "point"
            continue
        if step == "point":
            if decimals < 0x80:  # a second point ends the number
                step = "end"
                continue
            decimals = (decimals + 1) & 0xFF
            if decimals == 0:
                first_character = False
                step = "next"
                continue
            step = "exponent"  # after 128 decimals the OS falls through to here
        if step == "exponent":
            mark = at
            byte = _byte(text, at)
            at += 1
            if not _is_digit(byte):
                if byte == ord("-"):
                    exponent_negative = True
                if byte in b"+-":
                    byte = _byte(text, at)
                    at += 1
                if not _is_digit(byte):
                    at = mark
                    step = "end"
                    continue
            dropped = exponent
            exponent = byte - _DIGIT_0
            second = _byte(text, at)
            at += 1
            if _is_digit(second):  # a third digit is not read: it ends the number
                exponent = exponent * 10 + second - _DIGIT_0
                at += 1
            if exponent_negative:
                exponent = -exponent & 0xFF
            exponent = (dropped + exponent) & 0xFF
            if exponent == 0:  # the OS gives the exponent back
                at = mark
            step = "end"
        break
    at -= 1  # the OS reads one character past the number
    if 0 < decimals < 0x80:
        exponent = (exponent - decimals) & 0xFF
    odd = exponent & 1
    exponent = (exponent >> 1) | (exponent & 0x80)  # halved, keeping the sign bit
    if odd:
        mantissa = mantissa * 10 % _MANTISSA_LIMIT
    value = _normalize((exponent + BIAS + 4) & 0xFF, mantissa)
    if value is None:
        return None
    if negative:
        value = bytes([value[0] | 0x80]) + value[1:]
    return value, at


@lru_cache(maxsize=4096)
def _integer(value: int) -> bytes:
    """What :func:`afp` makes of up to nine digits alone: the integer, exactly."""
    result = _normalize(BIAS + 4, value)
    assert result is not None  # below 1E9
    return result


def _mantissa_bytes(mantissa: int) -> list[int]:
    digits = f"{mantissa:010d}"
    return [int(digits[2 * i]) << 4 | int(digits[2 * i + 1]) for i in range(5)]


def _normalize(exponent: int, mantissa: int) -> bytes | None:
    """The OS's normalization: leading zero bytes shifted out (at most four), then the
    range checks. None on overflow; below the range the value becomes zero."""
    pairs = _mantissa_bytes(mantissa)
    if exponent == 0:
        return bytes([0, *pairs])  # the OS takes an exponent byte of 0 as zero
    for _ in range(4):
        if pairs[0]:
            break
        pairs = pairs[1:] + [0]
        exponent = (exponent - 1) & 0xFF
    if not pairs[0]:
        return ZERO
    if exponent & 0x7F >= _OVERFLOW_EXPONENT:
        return None
    if exponent & 0x7F < _UNDERFLOW_EXPONENT:
        return ZERO
    return bytes([exponent, *pairs])


@lru_cache(maxsize=4096)
def parse(literal: str) -> bytes:
    """The six bytes of a whole constant, e.g. ``"1.5E3"`` (the OS routine on the text
    alone); raises :class:`NumberError` when it is no number, too large, or not
    entirely a number."""
    text = literal.encode("latin-1")
    result = afp(text + bytes([EOL]), 0)
    if result is None:
        raise NumberError(f"not a number the OS accepts: {literal!r} (too large, or malformed)")
    value, end = result
    if end != len(text):
        raise NumberError(f"{literal!r} is a number only up to character {end + 1}")
    return value


def fasc(value: bytes) -> bytes:
    """The characters the OS's float-to-ASCII routine produces, as LIST prints them."""
    if len(value) != SIZE:
        raise NumberError(f"a number has {SIZE} bytes, not {len(value)}")
    # The OS writes into its line buffer; index 0 is LBUFF, -1 holds a "0" in front.
    buffer = {-2: 0, -1: _DIGIT_0}
    exponent = value[0]
    if exponent == 0:
        return b"0"
    magnitude = exponent & 0x7F
    if BIAS - 1 <= magnitude < BIAS + 5:
        _digits(value, magnitude - (BIAS - 1), buffer)
        last = _last_significant(buffer)
        buffer[last] = buffer.get(last, 0) | 0x80
        start = 0
        if buffer[0] == ord("."):
            start = -1
        elif buffer[0] == _DIGIT_0:
            start = 1
    else:
        _digits(value, 1, buffer)
        end = (_last_significant(buffer) + 1) & 0xFF
        power = ((exponent << 1) - 2 * BIAS) & 0xFF  # signed, in powers of ten
        if buffer[0] != _DIGIT_0:  # "dd.ddd" becomes "d.dddd"
            buffer[1], buffer[2] = buffer[2], buffer[1]
            if end == 2:
                end = 3
            power = (power + 1) & 0xFF
        buffer[end] = ord("E")
        if power & 0x80:
            power = -power & 0xFF
            buffer[end + 1] = ord("-")
        else:
            buffer[end + 1] = ord("+")
        tens, units = divmod(power, 10)
        buffer[end + 2] = tens | _DIGIT_0
        buffer[end + 3] = units | 0x80 | _DIGIT_0
        start = 1 if buffer[0] == _DIGIT_0 else 0
    if exponent & 0x80:
        start -= 1
        buffer[start] = ord("-")
    return _printed(buffer, start)


def _digits(value: bytes, point: int, buffer: dict[int, int]) -> None:
    """The ten mantissa digits into the buffer, with a point before byte ``point``."""
    countdown = point
    at = 0
    for byte in value[1:]:
        if countdown == 0:
            buffer[at] = ord(".")
            at += 1
            countdown = ord(".")
        countdown = (countdown - 1) & 0xFF
        buffer[at] = byte >> 4 | _DIGIT_0
        buffer[at + 1] = byte & 0x0F | _DIGIT_0
        at += 2
    if countdown == 0:
        buffer[at] = ord(".")


def _last_significant(buffer: dict[int, int]) -> int:
    """The OS's search for the last digit to print: backwards from index 10 over "0"s,
    stopping before a point. With nothing but zeros it ends at index 255, past what
    was written (the OS then prints whatever its buffer held: not emulated)."""
    at = 10
    while True:
        char = buffer.get(at, 0)
        if char == ord("."):
            return at - 1
        if char != _DIGIT_0:
            return at
        at -= 1
        if at == 0:
            return 0xFF


def _printed(buffer: dict[int, int], start: int) -> bytes:
    """What LIST prints of the buffer: up to the character with bit 7 set, each with
    bit 7 cleared (an end-of-line byte printed as is)."""
    out = bytearray()
    at = start
    while at in buffer:
        char = buffer[at]
        if char == EOL:
            out.append(char)
        elif char & 0x7F:
            out.append(char & 0x7F)
        if char & 0x80:
            break
        at += 1
    return bytes(out)


def format_number(value: bytes) -> str:
    """The text LIST shows for a number."""
    return fasc(value).decode("latin-1")


def ifp(integer: int) -> bytes:
    """The number of an integer 0..65535 (the OS's integer-to-float routine)."""
    if not 0 <= integer <= 0xFFFF:
        raise NumberError(f"{integer} is not a 16-bit integer")
    value = _normalize(BIAS + 2, integer * 10**4)
    assert value is not None  # 65535 is far from overflowing
    return value


def line_number(value: bytes) -> int | None:
    """The line number ENTER makes of a number: the OS's float-to-integer conversion,
    rounded (65535.5 wraps round to 0, as in the OS), or None where the OS refuses
    (a negative number, 65536 and above): BASIC then stops with ERROR 3. BASIC takes
    32768 and up as "no line number"."""
    return _float_to_integer(bytearray(value))


def _float_to_integer(register: bytearray) -> int | None:
    """The OS's float-to-integer routine on ``register`` (which it shifts as it reads
    digits, as the OS does); None when it fails."""

    def next_digit() -> int:
        digits = int.from_bytes(register[1:6], "big")
        top = digits >> 36
        register[1:6] = ((digits << 4) & (2**40 - 1)).to_bytes(5, "big")
        return top

    exponent = register[0]
    if exponent & 0x80 or exponent >= BIAS + 3:
        return None
    integer = 0
    if exponent >= BIAS:
        for _ in range(2 * (exponent - BIAS + 1)):
            integer = integer * 10 + next_digit()
            if integer > 0xFFFF:
                return None
    if next_digit() >= 5:
        integer = (integer + 1) & 0xFFFF
    return integer


def to_int(value: bytes) -> int:
    """The integer nearest to a number (halves away from zero), for tests and tools."""
    pairs = [(byte >> 4) * 10 + (byte & 0x0F) for byte in value[1:]]
    exponent = (value[0] & 0x7F) - BIAS
    integer = 0
    for pair in pairs:
        integer = integer * 100 + pair
    scale = 4 - exponent
    if scale <= 0:
        result: int = integer * 100 ** (-scale)
    else:
        unit: int = 100**scale
        result = (integer * 2 + unit) // (2 * unit)
    return -result if value[0] & 0x80 else result


def is_decimal(value: bytes) -> bool:
    """Whether every mantissa nibble is a decimal digit (a corrupt file may say otherwise)."""
    return all(byte >> 4 <= 9 and byte & 0x0F <= 9 for byte in value[1:])
