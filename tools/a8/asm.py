"""6502 assembly with Ophis, in-process: the bytes and the label map of a source text.

The project's own 6502 code (the boot menu loader ``a8/disk/boot.s``, the
recording disk's ``a8/disk/recording.s``, the games' shuffle routine
``machfsol/atari/shuffle.s``) is kept as source and assembled at build time, never
committed as bytes. Ophis (ophis-asm, pure Python) is run on a copy of the text in
a scratch folder, and its label map is read back so that the caller can find, and
patch, the bytes it needs by name. A source may ``.include`` files that the caller
writes for the occasion (``includes``: name -> text), such as a disk's own tables.

Ophis keeps its state in globals and writes its messages to ``sys.stdout``: one
assembly runs at a time (a lock), and a source already assembled is not assembled
again (the same text gives the same bytes), so that threads building disks side by
side neither clash in Ophis nor lose their own output to its redirection for long.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from a8.errors import A8Error

_LABEL_LINE = re.compile(r"\$([0-9A-Fa-f]+)\s*\|\s*(\w+)")


class AssemblyError(A8Error):
    """6502 source that Ophis does not assemble (message: the source and Ophis's words)."""


@dataclass(frozen=True)
class Assembly:
    """What Ophis made of a source: the output bytes and every named label's value
    (labels in lower case, as Ophis's map writes them; anonymous ones left out)."""

    code: bytes
    labels: Mapping[str, int]


_OPHIS = threading.Lock()


def assemble(source: str, name: str, includes: Mapping[str, str] | None = None) -> Assembly:
    """Assemble the 6502 ``source`` text (``name``: its file name, for messages);
    ``includes`` are the files its ``.include`` lines name, by name, with their text."""
    with _OPHIS:
        return _assembled(source, name, tuple(sorted((includes or {}).items())))


@functools.lru_cache(maxsize=64)
def _assembled(source: str, name: str, includes: tuple[tuple[str, str], ...]) -> Assembly:
    import Ophis.Main  # type: ignore[import-untyped]  # late: Ophis keeps global state

    with tempfile.TemporaryDirectory(prefix="a8-asm-") as folder:
        for included, text in includes:
            if Path(included).name != included or included == name:
                raise AssemblyError(f"{name}: include {included!r} is not a plain file name")
            Path(folder, included).write_text(text, encoding="ascii")
        path = Path(folder, name)
        path.write_text(source, encoding="ascii")
        output = Path(folder, "out.bin")
        label_map = Path(folder, "out.map")
        messages = io.StringIO()
        with contextlib.redirect_stderr(messages), contextlib.redirect_stdout(messages):
            status = Ophis.Main.run_ophis(
                [str(path), "-q", "-o", str(output), "-m", str(label_map)]
            )
        if status != 0:
            first = messages.getvalue().strip().splitlines()[:1]
            raise AssemblyError(f"{name}: does not assemble: {' '.join(first)}")
        labels = {}
        for line in label_map.read_text(encoding="ascii").splitlines():
            match = _LABEL_LINE.match(line)
            if match:
                labels[match.group(2)] = int(match.group(1), 16)
        return Assembly(output.read_bytes(), MappingProxyType(labels))
