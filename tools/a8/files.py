"""Writing output files so that a failure never leaves a half-written one behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from a8.errors import A8Error


class OutputError(A8Error):
    """An output file that cannot be written (a missing folder, a directory, no room...)."""


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder.

    The temporary file is renamed over the target only once it is complete, so a
    reader (or a crash) sees either the old file or the new one, never a mixture.
    A failure is an :class:`OutputError` naming the file, so the commands report it
    in one line like any other bad input.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp_name, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, target)
    except BaseException as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot write: {error.strerror}") from None
        raise
