"""What a file is, from its first bytes: said when a command is given the wrong kind.

``a8 tokenize`` of a tokenized program used to answer "line number expected", and of
a PNG "line longer than 254 characters": true of the bytes, useless to the person who
picked the wrong file. The readers of listings, SAVE files and ATR images ask
:func:`kind_of` first and name the kind instead, with the command that reads it.

Only signatures that no file of the other kinds can start with are used: a listing
starts with a line number (or a blank line), a SAVE file with LOMEM = 0 and the name
table at $0100, an ATR image with its magic word, and the others with their own.
"""

from __future__ import annotations

import enum


class FileKind(enum.Enum):
    """A kind of file a user might give by mistake: its description and, for the
    kinds a8 reads, the command that reads it."""

    SAVE_FILE = ("a tokenized Atari BASIC program (a SAVE file)", "a8 list")
    ATR_IMAGE = ("an ATR disk image", "a8 atr ls")
    LISTING = ("a listing", "a8 tokenize")
    BINARY_LOAD = ("an Atari binary load file (machine code)", "")
    PNG = ("a PNG image", "")
    GIF = ("a GIF image", "")
    JPEG = ("a JPEG image", "")
    PDF = ("a PDF document", "")
    ZIP = ("a ZIP archive", "")
    GZIP = ("a gzip-compressed file", "")
    ELF = ("an ELF executable", "")

    def __init__(self, description: str, reader: str) -> None:
        self.description = description
        self.reader = reader

    def said(self) -> str:
        """``a PNG image``, or ``an ATR disk image, which a8 atr ls reads``."""
        return f"{self.description}, which {self.reader} reads" if self.reader else self.description


#: First bytes of the kinds that have a fixed signature.
_SIGNATURES: tuple[tuple[bytes, FileKind], ...] = (
    (b"\x00\x00\x00\x01", FileKind.SAVE_FILE),  # LOMEM 0, VNTP $0100
    (b"\x96\x02", FileKind.ATR_IMAGE),
    (b"\xff\xff", FileKind.BINARY_LOAD),
    (b"\x89PNG\r\n\x1a\n", FileKind.PNG),
    (b"GIF87a", FileKind.GIF),
    (b"GIF89a", FileKind.GIF),
    (b"\xff\xd8\xff", FileKind.JPEG),
    (b"%PDF-", FileKind.PDF),
    (b"PK\x03\x04", FileKind.ZIP),
    (b"\x1f\x8b", FileKind.GZIP),
    (b"\x7fELF", FileKind.ELF),
)


def kind_of(data: bytes) -> FileKind | None:
    """The kind ``data`` starts like, or None if it has no signature this module knows.

    A listing is told by its first line starting with a digit (after blanks)."""
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    first_line = data.split(b"\x9b", 1)[0].split(b"\n", 1)[0]
    if first_line.lstrip(b" ")[:1].isdigit():
        return FileKind.LISTING
    return None
