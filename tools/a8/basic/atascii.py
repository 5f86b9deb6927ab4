"""ATASCII, the Atari character set, and its spelling in UTF-8 text.

Listings travel in two encodings. ATASCII bytes end each line with 0x9B, which is
what ``LIST "D:X"`` writes and ``ENTER`` reads. UTF-8 text ends lines with LF (or
CRLF) and spells every one of the 256 ATASCII codes reversibly:

* 0x20-0x5F, 0x61-0x7A and 0x7C are the ASCII characters with the same code.
* The other codes below 0x80 (card suits, line-drawing graphics, arrows, the editor
  controls) are Unicode look-alikes, e.g. 0x00 is ``♥`` and 0x7D (clear screen) ``↰``.
* Codes 0x80-0xFF are the inverse-video twins of 0x00-0x7F: a run of them is written
  between ``{inv}`` and ``{/inv}`` using the spellings of the normal characters.
* The editor codes 0x9B-0x9F and 0xFD-0xFF have names: ``{EOL}``, ``{DELLINE}`` ...
* Any byte may also be written ``{$XX}`` (two hex digits).
* Reading also accepts the plain ASCII characters `````, ``{``, ``}`` and ``~`` as
  the ATASCII codes with the same number (0x60, 0x7B, 0x7D, 0x7E), so listings typed
  in plain ASCII work; a ``{`` that starts one of the escapes above is the escape.

ASCII ``{``, ``}``, `````, ``~`` and the control characters have no ATASCII meaning
(ATASCII puts graphics there), which is why braces can serve as the escape.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum
from typing import Final

from a8.basic.errors import EncodingError

EOL: Final = 0x9B

#: Unicode look-alikes of the ATASCII codes that are not ASCII characters.
LOOKALIKES: Final[dict[int, str]] = {
    0x00: "♥", 0x01: "┣", 0x02: "┃", 0x03: "┛", 0x04: "┫", 0x05: "┓", 0x06: "╱",
    0x07: "╲", 0x08: "◢", 0x09: "▗", 0x0A: "◣", 0x0B: "▝", 0x0C: "▘", 0x0D: "▔",
    0x0E: "▁", 0x0F: "▖", 0x10: "♣", 0x11: "┏", 0x12: "━", 0x13: "╋", 0x14: "●",
    0x15: "▄", 0x16: "▎", 0x17: "┳", 0x18: "┻", 0x19: "▌", 0x1A: "┗", 0x1B: "␛",
    0x1C: "↑", 0x1D: "↓", 0x1E: "←", 0x1F: "→", 0x60: "♦", 0x7B: "♠", 0x7D: "↰",
    0x7E: "◀", 0x7F: "▶",
}  # fmt: skip

#: Names of the screen-editor control codes in the upper half.
NAMED: Final[dict[int, str]] = {
    0x9B: "EOL", 0x9C: "DELLINE", 0x9D: "INSLINE", 0x9E: "CLRTAB", 0x9F: "SETTAB",
    0xFD: "BELL", 0xFE: "DELCHAR", 0xFF: "INSCHAR",
}  # fmt: skip

INVERSE_ON: Final = "{inv}"
INVERSE_OFF: Final = "{/inv}"


def _normal_spelling(code: int) -> str:
    return LOOKALIKES.get(code) or chr(code)


#: The spelling of each code below 0x80 and its inverse from the same table.
SPELLING: Final[tuple[str, ...]] = tuple(_normal_spelling(code) for code in range(0x80))
_CODE_OF: Final[dict[str, int]] = {
    **{chr(code): code for code in (0x60, 0x7B, 0x7D, 0x7E)},
    **{spelling: code for code, spelling in enumerate(SPELLING)},
}
_NAME_CODE: Final[dict[str, int]] = {name: code for code, name in NAMED.items()}
_ESCAPE = re.compile(
    r"\{(inv|/inv|\$[0-9A-Fa-f]{2}|EOL|DELLINE|INSLINE|CLRTAB|SETTAB|BELL|DELCHAR|INSCHAR)\}"
)


def to_text(data: bytes) -> str:
    """The UTF-8 spelling of ATASCII bytes (0x9B included, as ``{EOL}``)."""
    parts: list[str] = []
    inverse = False
    for code in data:
        if code in NAMED:
            if inverse:
                parts.append(INVERSE_OFF)
                inverse = False
            parts.append("{" + NAMED[code] + "}")
            continue
        want_inverse = code >= 0x80
        if want_inverse != inverse:
            parts.append(INVERSE_ON if want_inverse else INVERSE_OFF)
            inverse = want_inverse
        parts.append(SPELLING[code & 0x7F])
    if inverse:
        parts.append(INVERSE_OFF)
    return "".join(parts)


def to_text_lines(data: bytes) -> str:
    """The UTF-8 spelling of an ATASCII stream whose 0x9B bytes end lines (as LIST
    writes it): each 0x9B becomes a line feed."""
    return "\n".join(to_text(part) for part in data.split(bytes([EOL])))


def from_text(text: str, *, where: str = "<text>") -> bytes:
    """The ATASCII bytes of a UTF-8 spelling (the inverse of :func:`to_text`).

    ``where`` names the place for the one-line error on a character with no spelling.
    """
    if "{" not in text and text.isascii() and text.isprintable():
        return text.encode("ascii")  # the usual line: every character is its own code
    return bytes(code for _, code in _spelled_codes(text, where))


def text_column(text: str, column: int) -> int:
    """The 1-based column in a UTF-8 spelled line of its ``column``-th ATASCII character
    (``{inv}`` and the other escapes make the two differ), so errors point at the text
    the user edits. A column past the last character maps past the end of the text."""
    for index, (position, _) in enumerate(_spelled_codes(text, "<text>"), start=1):
        if index == column:
            return position + 1
    return len(text) + 1


def _spelled_codes(text: str, where: str) -> Iterator[tuple[int, int]]:
    """Each ATASCII code spelled in ``text``, with the position where its spelling starts."""
    inverse = False
    position = 0
    length = len(text)
    while position < length:
        char = text[position]
        match = _ESCAPE.match(text, position) if char == "{" else None
        if match is not None:
            body = match.group(1)
            if body == "inv":
                inverse = True
            elif body == "/inv":
                inverse = False
            elif body.startswith("$"):
                yield position, int(body[1:], 16)
            else:
                yield position, _NAME_CODE[body]
            position = match.end()
            continue
        code = _CODE_OF.get(char)
        if code is None:
            raise EncodingError(
                f"{where}:{position + 1}: character {char!r} (U+{ord(char):04X}) "
                "has no ATASCII spelling"
            )
        yield position, (code | 0x80 if inverse else code)
        position += 1


class Encoding(Enum):
    """How a listing file is stored."""

    ATASCII = "atascii"
    UTF8 = "utf8"


def detect(data: bytes) -> Encoding:
    """UTF-8 when the file is valid UTF-8 with LF line ends (or has no 0x9B at all),
    ATASCII otherwise. A 0x9B alone is never valid UTF-8 after an ASCII character,
    and UTF-8 spellings such as ``┛`` (E2 94 9B) contain 0x9B only inside a sequence.
    """
    if EOL not in data:
        return Encoding.UTF8
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return Encoding.ATASCII
    return Encoding.UTF8 if b"\n" in data else Encoding.ATASCII


def split_lines(data: bytes, encoding: Encoding, *, where: str = "<listing>") -> list[bytes]:
    """The ATASCII bytes of each line of a listing file, without line ends."""
    if encoding is Encoding.ATASCII:
        lines = data.split(bytes([EOL]))
        if lines and lines[-1] == b"":
            lines.pop()
        return lines
    rows = text_rows(decode_utf8(data, where=where))
    return [from_text(row, where=f"{where}:{number}") for number, row in enumerate(rows, start=1)]


def decode_utf8(data: bytes, *, where: str = "<listing>") -> str:
    """UTF-8 listing text; an invalid byte is an error naming its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        row = data.count(b"\n", 0, error.start) + 1
        column = error.start - line_start + 1
        raise EncodingError(
            f"{where}:{row}:{column}: byte ${data[error.start]:02X} is not UTF-8"
        ) from None


def text_rows(text: str) -> list[str]:
    """The lines of a UTF-8 listing without their LF or CRLF ends (and without a BOM)."""
    rows = text.removeprefix("\ufeff").split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    return [row.removesuffix("\r") for row in rows]


def join_lines(lines: list[bytes], encoding: Encoding) -> bytes:
    """A listing file from lines of ATASCII bytes (each line ends, the last one too)."""
    if encoding is Encoding.ATASCII:
        return b"".join(line + bytes([EOL]) for line in lines)
    return "".join(to_text(line) + "\n" for line in lines).encode("utf-8")
