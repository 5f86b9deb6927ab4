"""Reading the files users name, never more than their format can hold.

The commands read a whole input into memory (a listing, a SAVE file, a disk image, a
ROM, an input script, a transcript). Each format has a largest size a real file of
its kind can have, kept beside the format (:data:`a8.basic.program.LARGEST_PROGRAM`,
:data:`a8.disk.atr.LARGEST_IMAGE`, ...). Reading stops one byte past that bound, so
``/dev/zero``, a pipe that never ends or a 300 MB file named by mistake is refused
with one line naming the file, instead of filling the memory until the system stops
the command.

The bare ``-`` (a ``str``, as a command line gives it) is standard input; a path
``./-`` is a file named ``-``.
"""

from __future__ import annotations

import os
import stat
import sys
from importlib.resources.abc import Traversable
from typing import IO, BinaryIO

from a8.errors import A8Error

#: The name that means standard input.
STDIN = "-"

#: What a file to read can be given as: a path, ``-``, or a file inside a package.
Source = str | os.PathLike[str] | Traversable


class InputError(A8Error):
    """An input file that cannot be read, or that is larger than its format allows."""


def shown_name(source: Source) -> str:
    """The name errors give: the path as written, or "standard input"."""
    if isinstance(source, str) and source == STDIN:
        return "standard input"
    return str(source)


def read_input(source: Source, limit: int, what: str) -> bytes:
    """The bytes of ``source``, at most ``limit`` of them.

    ``what`` ends the message when the file is larger: "X: 70,000 bytes: larger than
    any Atari BASIC SAVE file". Every failure is an :class:`InputError` naming the file.
    """
    name = shown_name(source)
    try:
        data = read_at_most(source, limit)
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise InputError(f"{name}: {_size_of(source, limit)}: larger than {what}")
    return data


def read_at_most(source: Source, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of ``source`` (one more than allowed tells the caller
    the file is too large). Raises OSError as ``open`` and ``read`` do."""
    if isinstance(source, str) and source == STDIN:
        stream = sys.stdin
        buffer: BinaryIO | None = getattr(stream, "buffer", None) if stream else None
        if buffer is None:
            raise OSError(0, "standard input is closed")
        return _read_up_to(buffer, limit + 1)
    if isinstance(source, str | os.PathLike):
        with open(os.fspath(source), "rb") as handle:
            return _read_up_to(handle, limit + 1)
    with source.open("rb") as handle:
        return _read_up_to(handle, limit + 1)


def read_handle(handle: BinaryIO, name: str, limit: int, what: str) -> bytes:
    """The rest of an open file, at most ``limit`` bytes (InputError naming ``name``)."""
    try:
        data = _read_up_to(handle, limit + 1)
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise InputError(f"{name}: more than {limit:,} bytes: larger than {what}")
    return data


def _read_up_to(handle: IO[bytes], count: int) -> bytes:
    """``count`` bytes, or fewer at the end of the file (reads may come in pieces)."""
    pieces: list[bytes] = []
    wanted = count
    while wanted > 0:
        piece = handle.read(min(wanted, 1 << 20))
        if not piece:
            break
        pieces.append(piece)
        wanted -= len(piece)
    return b"".join(pieces)


def _size_of(source: Source, limit: int) -> str:
    """``12,345,678 bytes`` for a regular file, ``more than LIMIT bytes`` otherwise."""
    if isinstance(source, str | os.PathLike) and not (isinstance(source, str) and source == STDIN):
        try:
            status = os.stat(source)
        except OSError:
            pass
        else:
            if stat.S_ISREG(status.st_mode) and status.st_size > limit:
                return f"{status.st_size:,} bytes"
    return f"more than {limit:,} bytes"
