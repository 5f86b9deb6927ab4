"""File names on Atari disks: stored as ATASCII bytes, shown in UTF-8, typed in ASCII.

A directory entry holds a name of 8 bytes and an extension of 3, padded with
spaces. What a DOS lets a user type is narrower than what a disk can hold: DOS 2
takes upper-case letters and digits, the first a letter; MyDOS adds ``_`` and
``@`` (its manual: "upper or lower case letters, numbers, the underscore or the
character @ ... the first character may not be a number"); SpartaDOS also allows
``_``. Programs writing sectors directly can store any byte.

So there are two directions:

- A name *given to be written* (``a8 atr add --name``) must follow the disk's
  rules (:class:`NameRules`) exactly. Lower-case ASCII letters are taken as upper
  case, as the DOSes do; nothing else is changed: ``ß`` or an empty name is an
  error, never transliterated or replaced.
- A name *read from a disk* is shown with the UTF-8 spelling of ATASCII
  (:func:`a8.basic.atascii.to_text`: card suits, line graphics, ``{inv}...{/inv}``,
  ``{EOL}``), so a name with control bytes cannot break a message across lines,
  and the same spelling typed back finds the file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from a8.basic.atascii import from_text, to_text
from a8.basic.errors import EncodingError
from a8.errors import A8Error

Entry = TypeVar("Entry")

NAME_LENGTH = 8
EXT_LENGTH = 3
PAD = 0x20


class FileNameError(A8Error):
    """A file name that the disk's DOS does not accept (the message says why)."""


@dataclass(frozen=True)
class NameRules:
    """Which characters a DOS accepts in a file name it creates."""

    dos: str
    first: str
    rest: str

    def describe(self) -> str:
        extra = "".join(c for c in self.rest if not c.isalnum())
        also = f" or {' '.join(extra)}" if extra else ""
        return f"letters, digits{also}"


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"

#: DOS 2.0S, 2.5 and 2.0D: a letter, then letters and digits.
DOS2_NAMES = NameRules("DOS 2", _LETTERS, _LETTERS + _DIGITS)
#: MyDOS 4.5: letters, digits, ``_`` and ``@``; not a digit first.
MYDOS_NAMES = NameRules("MyDOS", _LETTERS + "_@", _LETTERS + _DIGITS + "_@")


@functools.lru_cache(maxsize=4096)
def _spelling(raw: bytes) -> str:
    """The UTF-8 spelling of stored name bytes (names repeat: spelled once each)."""
    return to_text(raw)


@dataclass(frozen=True)
class FileName:
    """A name as stored in a directory entry: up to 8 + 3 ATASCII bytes, no padding."""

    name: bytes
    ext: bytes = b""

    @classmethod
    def parse(cls, text: str, rules: NameRules = DOS2_NAMES) -> FileName:
        """A new file's name, checked against ``rules`` (lower-case ASCII taken as upper)."""
        where = f"file name {text!r}"
        for char in text:
            if not char.isascii() or not char.isprintable():
                raise FileNameError(f"{where}: {char!r} is not a letter or digit")
        base, dot, ext = text.upper().partition(".")
        if not base or len(base) > NAME_LENGTH:
            raise FileNameError(
                f"{where}: the name needs 1 to {NAME_LENGTH} characters before the dot"
            )
        if "." in ext or len(ext) > EXT_LENGTH:
            raise FileNameError(f"{where}: the extension has at most {EXT_LENGTH} characters")
        if dot and not ext:
            raise FileNameError(f"{where}: nothing after the dot")
        if base[0] not in rules.first:
            first = "a letter" if rules.first == _LETTERS else f"one of {rules.first}"
            raise FileNameError(f"{where}: {rules.dos} names start with {first}")
        for char in base + ext:
            if char not in rules.rest:
                raise FileNameError(
                    f"{where}: {char!r} is not allowed ({rules.dos} names use {rules.describe()})"
                )
        return cls(base.encode("ascii"), ext.encode("ascii"))

    @classmethod
    def from_entry(cls, name: bytes, ext: bytes) -> FileName:
        """The name in a directory entry's 8 + 3 bytes (trailing spaces dropped)."""
        return cls(name.rstrip(b" "), ext.rstrip(b" "))

    @classmethod
    def from_spelling(cls, text: str) -> FileName | None:
        """The stored name whose UTF-8 spelling is ``text`` (as ``ls`` shows it), if any."""
        try:
            raw = from_text(text)
        except EncodingError:
            return None
        base, dot, ext = raw.rpartition(b".") if b"." in raw else (raw, b"", b"")
        if len(base) > NAME_LENGTH or len(ext) > EXT_LENGTH or not base:
            return None
        return cls(base, ext if dot else b"")

    def raw(self) -> tuple[bytes, bytes]:
        """The entry's 8 and 3 bytes, padded with spaces."""
        return self.name.ljust(NAME_LENGTH, b" "), self.ext.ljust(EXT_LENGTH, b" ")

    def follows(self, rules: NameRules) -> bool:
        """Would the DOS of ``rules`` accept this name as typed?"""
        try:
            return FileName.parse(self.ascii(), rules) == self
        except (FileNameError, UnicodeDecodeError):
            return False

    def ascii(self) -> str:
        """The name as plain text, for names that are plain ASCII (else UnicodeDecodeError)."""
        text = self.name.decode("ascii") + ("." + self.ext.decode("ascii") if self.ext else "")
        if not text.isprintable():
            raise UnicodeDecodeError("ascii", self.name + self.ext, 0, 1, "control byte")
        return text

    @property
    def name_text(self) -> str:
        return _spelling(self.name)

    @property
    def ext_text(self) -> str:
        return _spelling(self.ext)

    def __str__(self) -> str:
        """The UTF-8 spelling of the stored bytes (``NAME.EXT``), always one line."""
        return f"{self.name_text}.{self.ext_text}" if self.ext else self.name_text

    def matches(self, wanted: str) -> bool:
        """Is this the file a user means by ``wanted`` (typed name or shown spelling)?"""
        if str(self) == wanted:
            return True
        try:
            typed = wanted.upper() if wanted.isascii() else wanted
            return self.ascii().upper() == typed
        except UnicodeDecodeError:
            return False


def lookup(
    entries: Sequence[Entry], wanted: str, name: Callable[[Entry], FileName]
) -> Entry | None:
    """The entry a user means by ``wanted``: its exact shown spelling first, then any case."""
    for entry in entries:
        if str(name(entry)) == wanted:
            return entry
    for entry in entries:
        if name(entry).matches(wanted):
            return entry
    return None


#: What separates directories in a path: ``/`` (the host's), ``>`` (MyDOS, SpartaDOS),
#: ``:`` (MyDOS), ``\\`` (SpartaDOS).
PATH_SEPARATORS = "/>:\\"


def path_parts(path: str) -> list[str]:
    """The names in a path such as ``DIR>SUB>NAME.EXT`` (empty parts dropped)."""
    for separator in PATH_SEPARATORS[1:]:
        path = path.replace(separator, "/")
    return [part for part in path.split("/") if part]


def is_path(text: str) -> bool:
    return any(separator in text for separator in PATH_SEPARATORS)
