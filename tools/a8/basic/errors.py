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


class RejectedLines(BasicSyntaxError):
    """Every line of a listing that BASIC rejects, up to a bound: the error's own
    place and reason are the first one's, ``errors`` has them all (in file order),
    ``more`` says that the listing has others after the last one kept."""

    def __init__(self, errors: tuple[BasicSyntaxError, ...], more: bool) -> None:
        first = errors[0]
        super().__init__(first.reason, file=first.file, line=first.line, column=first.column)
        self.errors = errors
        self.more = more

    def summary(self) -> str:
        """``X.LST: 3 lines BASIC rejects; nothing written``."""
        kept = len(self.errors)
        if self.more:
            return (
                f"{self.file}: more than {kept} lines BASIC rejects (the first {kept} "
                "above); nothing written"
            )
        return f"{self.file}: {kept} lines BASIC rejects; nothing written"


class NotAListingError(A8Error):
    """A file given as a listing that is another kind of file (a SAVE file, a PNG...)."""


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
