"""Writing output files safely: whole files or nothing, never through the wrong door,
never over another writer's change.

Every command of ``a8`` and ``machfsol`` that writes a file (a tokenized program,
a listing, a file taken off a disk, a changed disk image, a transcript, a chart)
goes through :func:`write_atomically`, which decides by what the path is now:

- ``-``, the bare string a command line gives: the bytes go to standard output (and
  a closed or full stdout is a one-line error). A path such as ``./-`` is a file
  named ``-``: command lines read output names with :func:`output_argument`, because
  argparse's ``type=Path`` would turn ``./-`` into ``-``.
- a **regular file**, or a new name: the bytes are written to a temporary file in
  the same folder, flushed to disk, and renamed over the target, so a reader (or a
  crash) sees the old file or the new one, never a mixture. The new file keeps the
  old one's permission bits (and owner, when we may set it); a new file gets the
  usual permissions (0666 less the umask). A **read-only** file (no write
  permission for us, or no write bit at all) is refused, not replaced; so is a file
  with **other hard links**: renaming a new file over one name would leave the
  other names on the old content, silently.
- a **symbolic link**: written through to its target, as above (the link stays a
  link; a dangling link creates its target).
- a **character device or FIFO** (``/dev/null``, ``/dev/stdout``, a terminal, a
  named pipe): opened and written in place, never replaced by a file. This is how
  ``-o /dev/null`` discards output even when run as root.
- a **directory, block device or socket**: refused.

Writers of one file take turns. Each holds an exclusive lock (``flock``) on the
file it replaces while it replaces it, and :func:`updating` holds the lock from the
read to the write of a read-modify-write (``a8 atr add``, ``rm``, ``boot``): a
second writer waits (at most :data:`LOCK_WAIT_SECONDS`, then a one-line refusal),
then reads the file the first one wrote. So two ``a8 atr add`` on one image at once
both land.

The temporary file is named ``.NAME.XXXXXXXX.tmp`` and locked while it is written.
A writer killed between writing it and the rename (SIGKILL, a power cut) leaves it
behind, unlocked; the next write of the same file removes it.

Every failure is an :class:`OutputError` naming the file, which the command lines
print as one line with a non-zero exit status; nothing half-written is left.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final, Literal

from a8.errors import A8Error
from a8.reading import STDIN, InputError, Source

#: The path that means standard output.
STDOUT: Final = "-"

#: An output named on a command line: a path, or standard output.
Output = Path | Literal["-"]

#: How long a writer waits for another one to finish with the same file.
LOCK_WAIT_SECONDS: Final = 60.0
#: How often it looks again meanwhile.
_LOCK_POLL_SECONDS: Final = 0.02
#: The longest file name (in bytes) kept whole in a temporary file's name: with the
#: dot, the random part and ``.tmp`` it stays within the usual limit of 255.
_TEMPORARY_STEM_BYTES: Final = 200


class OutputError(A8Error):
    """An output file that cannot be written (a missing folder, a directory, no room...)."""


def output_argument(text: str) -> Output:
    """The ``type`` of an output option: the bare ``-`` is standard output, any other
    text a path (``./-`` stays a file named ``-``)."""
    return STDOUT if text == STDOUT else Path(text)


def is_stdout(path: object) -> bool:
    """Whether ``path`` is the bare ``-`` (a ``str``; ``Path("-")`` is a file)."""
    return isinstance(path, str) and path == STDOUT


def stdout_binary(what: str = "the output") -> BinaryIO:
    """Standard output as a byte stream, or an OutputError if it is closed."""
    stream = sys.stdout
    if stream is None:
        raise OutputError(f"cannot write {what}: standard output is closed")
    buffer: BinaryIO | None = getattr(stream, "buffer", None)
    if buffer is None:
        raise OutputError(f"cannot write {what}: standard output takes no bytes")
    return buffer


def output_exists(path: str | os.PathLike[str]) -> bool:
    """Whether something (a file, a link, even a dangling one) has the name ``path``;
    an OutputError if the name itself cannot be looked up (too long, a file in the way)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror}") from None
    return True


def check_output(path: str | os.PathLike[str]) -> None:
    """An OutputError now, before a long run, for an output that cannot be written: a
    name the system refuses (too long), a missing folder, a directory in the way."""
    if is_stdout(path):
        return
    target = Path(path)
    resolved = _follow_links(target)
    status = _status(target, resolved)
    if status is None and not resolved.parent.is_dir():
        raise OutputError(f"{target}: cannot write: No such file or directory")
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target}: cannot write: Is a directory")


def refuse_input_as_output(output: Output | str | None, *inputs: Source | None) -> None:
    """An OutputError if ``output`` is one of ``inputs`` by any name (a link, ``./X``):
    writing it would replace what the command is reading, as ``a8 tokenize X -o X``
    would replace the listing with its program."""
    if output is None or is_stdout(output):
        return
    try:
        if not stat.S_ISREG(os.stat(output).st_mode):
            return  # a new name, or a device such as /dev/null: nothing to lose
    except (OSError, ValueError):
        return
    for source in inputs:
        if source is None or (isinstance(source, str) and source == STDIN):
            continue
        if not isinstance(source, str | os.PathLike):
            continue  # a file inside the installed package
        try:
            same = os.path.samefile(output, source)
        except (OSError, ValueError):  # a missing input is for the reading to report
            same = False
        if same:
            raise OutputError(
                f"{output}: is also the input {source}; writing it would replace "
                "what is read: give another output name"
            )


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` by the rules in this module's docstring."""
    if is_stdout(path):
        _write_stdout(data)
        return
    target = Path(path)
    resolved = _follow_links(target)
    status = _status(target, resolved)
    if status is None:
        _replace(target, resolved, data, None)
    elif stat.S_ISREG(status.st_mode):
        _refuse_read_only(target, resolved, status)
        with _locked(target, resolved) as lock:
            if lock is not None:
                _refuse_other_links(target, lock.status)
            _replace(target, resolved, data, None if lock is None else lock.status)
    elif stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        _write_in_place(target, resolved, data)
    elif stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target}: cannot write: Is a directory")
    else:
        kind = "a block device" if stat.S_ISBLK(status.st_mode) else "not a file or a device"
        raise OutputError(f"{target}: cannot write: it is {kind} (not replaced)")


class Update:
    """A file being changed by a read-modify-write, locked from the read to the write.

    ``handle`` reads the file from its start; :meth:`write` replaces it atomically (as
    :func:`write_atomically`) while the lock is still held.
    """

    def __init__(
        self, target: Path, resolved: Path, handle: BinaryIO, status: os.stat_result
    ) -> None:
        self.target = target
        self.handle = handle
        self._resolved = resolved
        self._status = status

    def write(self, data: bytes) -> None:
        _refuse_read_only(self.target, self._resolved, self._status)
        _replace(self.target, self._resolved, data, self._status)


@contextlib.contextmanager
def updating(path: str | os.PathLike[str]) -> Iterator[Update]:
    """Open the regular file ``path`` for a read-modify-write, holding its lock until the
    block ends: another writer of the same file waits for the change, then sees it.
    An unreadable file is an :class:`~a8.reading.InputError`; a file that cannot be
    changed this way (not a regular file, other hard links) an OutputError."""
    target = Path(path)
    resolved = _follow_links(target)
    try:
        status = resolved.stat()
    except OSError as error:
        raise InputError(f"{target}: cannot read: {error.strerror}") from None
    if not stat.S_ISREG(status.st_mode):
        raise OutputError(f"{target}: cannot change it: not a regular file")
    with _locked(target, resolved, need_read=True) as lock:
        if lock is None:
            raise InputError(f"{target}: cannot read: No such file or directory")
        _refuse_other_links(target, lock.status)
        with os.fdopen(os.dup(lock.fd), "rb") as handle:
            yield Update(target, resolved, handle, lock.status)


# -- the rules, one function each ---------------------------------------------------------


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
    while True:
        try:
            is_link = stat.S_ISLNK(os.lstat(current).st_mode)
        except FileNotFoundError:
            return current
        except (OSError, ValueError) as error:  # a name too long, a NUL, a file as a folder
            reason = getattr(error, "strerror", None) or "not a file name"
            raise OutputError(f"{target}: cannot write: {reason}") from None
        if not is_link:
            return current
        seen += 1
        if seen > 40:
            raise OutputError(f"{target}: cannot write: Too many levels of symbolic links")
        link = Path(os.readlink(current))
        current = link if link.is_absolute() else current.parent / link


def _status(target: Path, resolved: Path) -> os.stat_result | None:
    try:
        return resolved.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None


def _refuse_read_only(target: Path, resolved: Path, status: os.stat_result) -> None:
    no_write_bits = not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    if no_write_bits or not os.access(resolved, os.W_OK):
        raise OutputError(f"{target}: cannot write: the file is read-only (not replaced)")


def _refuse_other_links(target: Path, status: os.stat_result) -> None:
    if status.st_nlink > 1:
        raise OutputError(
            f"{target}: cannot write: the file has {status.st_nlink} names (hard links); "
            "a new file renamed over this one would leave the others with the old content "
            "(not replaced; copy it to a file of its own first)"
        )


@dataclass(frozen=True)
class _Lock:
    """A file we hold the lock of: its status, and the descriptor that holds the lock
    (-1 when there is none to hold: a file we may write but not read)."""

    status: os.stat_result
    fd: int


@contextlib.contextmanager
def _locked(target: Path, resolved: Path, need_read: bool = False) -> Iterator[_Lock | None]:
    """Lock the regular file at ``resolved``, waiting for another writer to finish with
    it; None if it went away meanwhile. If the file was replaced while we waited, the
    new file is locked instead: that is the one a change must start from."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fd = os.open(resolved, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except FileNotFoundError:
            yield None
            return
        except OSError as error:
            if need_read:
                raise InputError(f"{target}: cannot read: {error.strerror}") from None
            yield _Lock(_status_or_fail(target, resolved), -1)  # write-only for us
            return
        try:
            _wait_for_lock(fd, target, deadline)
            opened = os.fstat(fd)
            try:
                now: os.stat_result | None = resolved.stat()
            except FileNotFoundError:
                now = None
        except BaseException:
            os.close(fd)
            raise
        if now is not None and _same_file(now, opened):
            break
        os.close(fd)
        if now is None:
            yield None
            return
    try:
        yield _Lock(opened, fd)
    finally:
        os.close(fd)


def _same_file(one: os.stat_result, other: os.stat_result) -> bool:
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _status_or_fail(target: Path, resolved: Path) -> os.stat_result:
    try:
        return resolved.stat()
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None


def _wait_for_lock(fd: int, target: Path, deadline: float) -> None:
    while not _try_lock(fd):
        if time.monotonic() > deadline:
            raise OutputError(
                f"{target}: cannot write: another program has been changing it for "
                f"{LOCK_WAIT_SECONDS:.0f} s (it holds the file's lock); not changed"
            )
        time.sleep(_LOCK_POLL_SECONDS)


def _try_lock(fd: int, wait: bool = False) -> bool:
    """Take the exclusive lock; False if another holder has it. A file system that has
    no locks counts as locked by us (there is no one to take turns with)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as error:
        if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            return True
        raise
    return True


def _replace(target: Path, resolved: Path, data: bytes, status: os.stat_result | None) -> None:
    folder = resolved.parent if str(resolved.parent) else Path(".")
    stem = _temporary_stem(resolved.name)
    _remove_stale_temporaries(folder, stem)
    try:
        fd, tmp_name = _new_temporary(folder, stem)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb", closefd=False) as handle:
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
    finally:
        os.close(fd)  # after the rename: the new file is ours until the lock goes


def _temporary_stem(name: str) -> str:
    """The file name as the temporary's name carries it: cut to fit when very long."""
    raw = os.fsencode(name)
    if len(raw) <= _TEMPORARY_STEM_BYTES:
        return name
    return os.fsdecode(raw[:_TEMPORARY_STEM_BYTES])


def _new_temporary(folder: Path, stem: str) -> tuple[int, str]:
    """A new ``.STEM.XXXXXXXX.tmp`` in ``folder``, open and locked (so that another
    writer's clean-up never takes it for a stale one)."""
    while True:
        fd, name = tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=folder)
        _try_lock(fd, wait=True)  # only a clean-up can hold it, for a moment
        try:
            same = _same_file(os.stat(name), os.fstat(fd))
        except OSError:
            same = False
        if same:
            return fd, name
        os.close(fd)  # a clean-up removed it before we locked it: make another


def _remove_stale_temporaries(folder: Path, stem: str) -> None:
    """Remove the temporaries of this file that no writer holds: left by one killed
    between writing and renaming. One still locked is being written; it stays."""
    pattern = re.compile(rf"\.{re.escape(stem)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # being written (or no locks here: we cannot tell, so it stays)
            with contextlib.suppress(OSError):
                if _same_file(os.stat(entry.path, follow_symlinks=False), os.fstat(fd)):
                    os.unlink(entry.path)
        finally:
            os.close(fd)


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
