"""Writing output files safely: whole files or nothing, and never through the wrong door.

Every command of ``a8`` and ``machfsol`` that writes a file (a tokenized program,
a listing, a file taken off a disk, a changed disk image, a transcript, a chart)
goes through :func:`write_atomically`, which decides by what the path is now:

- ``-``: the bytes go to standard output (and a closed or full stdout is a one-line
  error).
- a **regular file**, or a new name: the bytes are written to a temporary file in
  the same folder, flushed to disk, and renamed over the target, so a reader (or a
  crash) sees the old file or the new one, never a mixture. The new file keeps the
  old one's permission bits (and owner, when we may set it); a new file gets the
  usual permissions (0666 less the umask). A **read-only** file (no write
  permission for us, or no write bit at all) is refused, not replaced.
- a **symbolic link**: written through to its target, as above (the link stays a
  link; a dangling link creates its target).
- a **character device or FIFO** (``/dev/null``, ``/dev/stdout``, a terminal, a
  named pipe): opened and written in place, never replaced by a file. This is how
  ``-o /dev/null`` discards output even when run as root.
- a **directory, block device or socket**: refused.

Every failure is an :class:`OutputError` naming the file, which the command lines
print as one line with a non-zero exit status; nothing half-written is left.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

from a8.errors import A8Error

#: The path that means standard output.
STDOUT = "-"


class OutputError(A8Error):
    """An output file that cannot be written (a missing folder, a directory, no room...)."""


def stdout_binary(what: str = "the output") -> BinaryIO:
    """Standard output as a byte stream, or an OutputError if it is closed."""
    stream = sys.stdout
    if stream is None:
        raise OutputError(f"cannot write {what}: standard output is closed")
    buffer: BinaryIO | None = getattr(stream, "buffer", None)
    if buffer is None:
        raise OutputError(f"cannot write {what}: standard output takes no bytes")
    return buffer


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` by the rules in this module's docstring."""
    target = Path(path)
    if str(path) == STDOUT:
        _write_stdout(data)
        return
    resolved = _follow_links(target)
    try:
        status = resolved.stat()
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    if status is None:
        _replace(target, resolved, data, None)
    elif stat.S_ISREG(status.st_mode):
        _refuse_read_only(target, resolved, status)
        _replace(target, resolved, data, status)
    elif stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        _write_in_place(target, resolved, data)
    elif stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target}: cannot write: Is a directory")
    else:
        kind = "a block device" if stat.S_ISBLK(status.st_mode) else "not a file or a device"
        raise OutputError(f"{target}: cannot write: it is {kind} (not replaced)")


def _write_stdout(data: bytes) -> None:
    stream = stdout_binary()
    try:
        stream.write(data)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write the output: {error.strerror}") from None


def _follow_links(target: Path) -> Path:
    """The file a chain of symbolic links ends at (the path itself if it is none)."""
    seen = 0
    current = target
    while current.is_symlink():
        seen += 1
        if seen > 40:
            raise OutputError(f"{target}: cannot write: Too many levels of symbolic links")
        link = Path(os.readlink(current))
        current = link if link.is_absolute() else current.parent / link
    return current


def _refuse_read_only(target: Path, resolved: Path, status: os.stat_result) -> None:
    no_write_bits = not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    if no_write_bits or not os.access(resolved, os.W_OK):
        raise OutputError(f"{target}: cannot write: the file is read-only (not replaced)")


def _replace(target: Path, resolved: Path, data: bytes, status: os.stat_result | None) -> None:
    folder = resolved.parent if str(resolved.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{resolved.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if status is not None:
            os.chmod(tmp_name, stat.S_IMODE(status.st_mode))
            with contextlib.suppress(OSError):
                os.chown(tmp_name, status.st_uid, status.st_gid)
        else:
            os.chmod(tmp_name, 0o666 & ~_umask())
        os.replace(tmp_name, resolved)
    except BaseException as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot write: {error.strerror}") from None
        raise


def _write_in_place(target: Path, resolved: Path, data: bytes) -> None:
    """Write to a device or FIFO without replacing it (no O_CREAT, no truncation games)."""
    try:
        fd = os.open(resolved, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
