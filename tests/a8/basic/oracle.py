"""The emulator as the oracle: ENTER a listing in atari800, SAVE it and LIST it back.

atari800 (built-in AltirraOS and Altirra BASIC) is driven by a keystroke playback
file: boot, type ``ENTER "H1:X.LST"``, ``SAVE "H1:X.BAS"`` and ``LIST "H1:X.LS2"``
with the H: device mapped to a temporary folder; the emulator exits when the playback
ends. Used by test_oracle.py (live) and fixtures/regenerate.py (golden files).

Altirra BASIC folds a minus sign into a numeric constant that follows it (``-1`` is
saved as one negative constant) where Atari BASIC rev C saves a unary minus and a
positive constant; :func:`as_atari_basic` rewrites a SAVE file the first way into
the second, which is the only known difference in the files compared here.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from a8.basic import tokens
from a8.basic.encoder import VariableTable, encode_line
from a8.basic.lister import decode_line
from a8.basic.nodes import Element, Line, NumberConstant, Operator
from a8.basic.program import IMMEDIATE_LINE, Program, ProgramLine

SAVE_COMMAND = 'SAVE "H1:X.BAS"'

_LETTERS = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        [0x3F, 0x15, 0x12, 0x3A, 0x2A, 0x38, 0x3D, 0x39, 0x0D, 0x01, 0x05, 0x00, 0x25,
         0x23, 0x08, 0x0A, 0x2F, 0x28, 0x3E, 0x2D, 0x0B, 0x10, 0x2E, 0x16, 0x2B, 0x17],
        strict=True,
    )
)  # fmt: skip
_OTHER = {"1": 0x1F, '"': 0x5E, ":": 0x42, ".": 0x22, " ": 0x21, "2": 0x1E, "\n": 0x0C}


def _frames(key: int, count: int) -> list[str]:
    shift = 1 if key >= 0 and key & 0x40 else 0
    return [f"{key} {shift} 7", "255", "255", "1", "1", "1", "1", "00000000"] * count


def playback(commands: list[str], wait_frames: int = 1500) -> str:
    """A playback file typing each command (ending in RETURN) and waiting after it."""
    lines = ["Atari800 event recording, version: 1", "0", *_frames(-1, 300)]
    for command in commands:
        for char in command:
            code = _LETTERS.get(char, _OTHER.get(char))
            assert code is not None, f"no key for {char!r}"
            lines += _frames(code, 2) + _frames(-1, 2)
        lines += _frames(-1, wait_frames)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class OracleResult:
    """What the emulator wrote: the SAVE file and the LIST output (ATASCII)."""

    saved: bytes
    listed: bytes


def enter_save_list(atari800: str, listing: bytes) -> OracleResult:
    """ENTER an ATASCII listing in the emulator, then SAVE and LIST it to H:."""
    with tempfile.TemporaryDirectory(prefix="a8-oracle-") as folder:
        work = Path(folder)
        (work / "X.LST").write_bytes(listing)
        script = work / "play.txt"
        script.write_text(
            playback(['ENTER "H1:X.LST"\n', SAVE_COMMAND + "\n", 'LIST "H1:X.LS2"\n'])
        )
        environment = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        subprocess.run(
            [atari800, "-xl", "-xl-rev", "altirra", "-basic", "-basic-rev", "altirra",
             "-nosound", "-turbo", "-H1", str(work), "-hreadwrite", "-playback", str(script)],
            env=environment, capture_output=True, timeout=300, check=False,
        )  # fmt: skip
        saved, listed = work / "X.BAS", work / "X.LS2"
        if not saved.exists() or not listed.exists():
            raise AssertionError(f"the emulator wrote no SAVE/LIST output in {work}")
        return OracleResult(saved.read_bytes(), listed.read_bytes())


def _unfold(line: Line) -> Line:
    statements = []
    for statement in line.statements:
        elements: list[Element] = []
        for element in statement.elements:
            if isinstance(element, NumberConstant) and element.value[0] & 0x80:
                positive = bytes([element.value[0] & 0x7F]) + element.value[1:]
                elements += [Operator(tokens.TOK_UNARY_MINUS), NumberConstant(positive)]
            else:
                elements.append(element)
        statements.append(type(statement)(statement.token, tuple(elements)))
    return Line(line.number, tuple(statements))


def as_atari_basic(saved: bytes) -> bytes:
    """An Altirra BASIC SAVE file with negative constants written the Atari BASIC way."""
    program = Program.from_bytes(saved)
    variables = VariableTable(list(program.names))

    def rewrite(line: ProgramLine) -> bytes:
        return encode_line(_unfold(decode_line(line, program.names)), variables)

    lines = tuple(ProgramLine(line.number, rewrite(line)) for line in program.lines)
    immediate_line = ProgramLine(0, b"\x00\x00" + program.immediate[2:])
    immediate = IMMEDIATE_LINE.to_bytes(2, "little") + rewrite(immediate_line)[2:]
    return Program(program.names, program.values, lines, immediate).to_bytes()
