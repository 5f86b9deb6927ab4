"""Errors of the BASIC toolchain: each names the file and the place in one line."""

from __future__ import annotations

from a8.errors import A8Error


class BasicSyntaxError(A8Error):
    """A listing line that Atari BASIC would reject (``FILE:LINE:COLUMN: reason``).

    ``line`` is the 1-based line of the listing file and ``column`` the 1-based
    character position within it, so editors can jump straight to the mistake.
    """

    def __init__(self, reason: str, *, file: str = "<listing>", line: int = 0, column: int = 0):
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        super().__init__(f"{file}:{line}:{column}: {reason}")

    def in_file(self, file: str) -> BasicSyntaxError:
        """The same error naming the file (the parser only knows line and column)."""
        return BasicSyntaxError(self.reason, file=file, line=self.line, column=self.column)


class CorruptProgramError(A8Error):
    """A tokenized program (.BAS) that is truncated or inconsistent."""

    def __init__(self, reason: str, *, file: str = "<program>", offset: int = 0):
        self.reason = reason
        self.file = file
        self.offset = offset
        super().__init__(f"{file}: byte {offset}: {reason}")


class NumberError(A8Error):
    """A numeric constant outside Atari BASIC's floating point range."""


class EncodingError(A8Error):
    """Text that has no ATASCII spelling (or bytes that are not valid UTF-8)."""
