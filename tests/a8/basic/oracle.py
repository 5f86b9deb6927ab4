"""The emulator as the oracle: ENTER a listing in atari800, SAVE it and LIST it back.

atari800 (built-in AltirraOS and Altirra BASIC) is driven through a8.emu: boot,
type ``ENTER "H1:X.LST"``, ``SAVE "H1:X.BAS"`` and ``LIST "H1:X.LS2"`` with the H:
device mapped to a temporary folder. Used by test_oracle.py (live) and
fixtures/regenerate.py (golden files).

Altirra BASIC folds a minus sign into a numeric constant that follows it (``-1`` is
saved as one negative constant) where Atari BASIC rev C saves a unary minus and a
positive constant; :func:`as_atari_basic` rewrites a SAVE file the first way into
the second, which is the only known difference in the files compared here.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from a8.basic import tokens
from a8.basic.encoder import VariableTable, encode_line
from a8.basic.lister import decode_line
from a8.basic.nodes import Element, Line, NumberConstant, Operator
from a8.basic.program import IMMEDIATE_LINE, Program, ProgramLine
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script

SAVE_COMMAND = 'SAVE "H1:X.BAS"'

#: Frames to wait for each command at most (ENTER of a long listing takes a while).
COMMAND_TIMEOUT_FRAMES = 30_000


def oracle_script() -> Script:
    """ENTER, SAVE and LIST, each command waiting until BASIC has closed its H: file
    (ENTER too: the emulator holds X.LST open while BASIC reads it)."""
    return (
        Script()
        .wait(200)
        .type('ENTER "H1:X.LST"\n')
        .wait(30)
        .wait_for_file("X.LST", COMMAND_TIMEOUT_FRAMES)
        .wait(30)
        .type(SAVE_COMMAND + "\n")
        .wait_for_file("X.BAS", COMMAND_TIMEOUT_FRAMES)
        .wait(30)
        .type('LIST "H1:X.LS2"\n')
        .wait_for_file("X.LS2", COMMAND_TIMEOUT_FRAMES)
    )


@dataclass(frozen=True)
class OracleResult:
    """What the emulator wrote: the SAVE file and the LIST output (ATASCII)."""

    saved: bytes
    listed: bytes


def enter_save_list(atari800: str, listing: bytes) -> OracleResult:
    """ENTER an ATASCII listing in the emulator, then SAVE and LIST it to H:.

    ``atari800`` is the executable the ``atari800`` fixture found; a8.emu runs it
    (through ``$A8_ATARI800`` when it is not the one on PATH).
    """
    with tempfile.TemporaryDirectory(prefix="a8-oracle-") as folder:
        work = Path(folder)
        (work / "X.LST").write_bytes(listing)
        previous = os.environ.get("A8_ATARI800")
        os.environ["A8_ATARI800"] = atari800
        try:
            result = run(EmulatorOptions(hdir=work), oracle_script())
        finally:
            if previous is None:
                del os.environ["A8_ATARI800"]
            else:
                os.environ["A8_ATARI800"] = previous
        saved, listed = work / "X.BAS", work / "X.LS2"
        if result.reason != "script-end" or not saved.exists() or not listed.exists():
            raise AssertionError(f"the emulator stopped early ({result.reason}):\n{result.log}")
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
