"""Where Altirra BASIC 1.55 (the emulator's built-in BASIC) and genuine Atari BASIC
rev. C part ways, as data.

The toolchain follows rev. C; the tests that use the emulator compare with Altirra
BASIC only where the two agree, and check these differences both ways: our tokenizer
does what rev. C does (test_golden.py), the emulator does what Altirra does
(test_oracle.py). docs/notes/altirra-basic.md explains each.
"""

from __future__ import annotations

from dataclasses import dataclass

from a8.basic import tokens
from a8.basic.encoder import encode_line
from a8.basic.lister import decode_line
from a8.basic.nodes import Element, Line, NumberConstant, Operator
from a8.basic.program import IMMEDIATE_LINE, Program, ProgramLine
from a8.basic.syntax import VariableTable


@dataclass(frozen=True)
class Difference:
    """A line each BASIC reads its own way: what LIST then shows (None: the line is
    rejected; rev. C keeps it as an ERROR- line, Altirra BASIC not at all)."""

    line: str
    revc: str | None
    altirra: str | None
    why: str


DIFFERENCES = (
    Difference("10 A=FRE", "10 A=FRE", None, "a function's name alone is a variable in rev. C"),
    Difference("20 A=SIN (1)", "20 A=SIN(1)", None, "rev. C allows blanks before a function's ("),
    Difference("30 A=PEEK (1)", "30 A=PEEK(1)", None, "the same"),
    Difference("40 ASC=5:? ASC", "40 ASC=5:? ASC", None, "a function's name as a variable"),
    Difference("50 A=NOT NOT 1", None, "50 A= NOT  NOT 1", "rev. C takes one unary operator"),
    Difference("60 A=- -B", None, "60 A=--B", "the same"),
    Difference('70 LET ASC$="A"', None, '70 LET ASC$="A"', "rev. C: ASC then $ is no name"),
    Difference("80 A=2147483647", "80 A=2147483640", "80 A=2147483647", "rev. C keeps 9 digits"),
    Difference("90 A=0.99999999995", "90 A=0.999999999", "90 A=0.9999999999", "the same"),
    Difference("100 A=- -0", "100 A=--0E-<8", "100 A=-0", "rev. C: a negative zero constant"),
    Difference("110 IF A THEN", None, "110 IF A THEN ", "Altirra: its block IF"),
    Difference('120 LIST STR$(1)="1"', '120 LIST STR$(1)="1"', None, "Altirra: a file name"),
    Difference('130 A=C(S$<"Z")', '130 A=C(S$<"Z")', None, "Altirra: a string subscript"),
    Difference("140 DIM :COM Z(1),", "140 DIM :COM Z(1),", None, "rev. C: lists may be empty"),
    Difference(
        "150 A=1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1",
        None,
        "150 A=1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1",
        "rev. C: 21 operators overflow its syntax stack (ERROR 14 stops ENTER)",
    ),
)


def _unfold(line: Line) -> Line:
    """Altirra's negative constants written as rev. C stores them: a minus before a
    number is a unary minus token, unless a unary operator comes first (rev. C's
    expressions take one, and the OS's number routine then reads the sign)."""
    statements = []
    for statement in line.statements:
        elements: list[Element] = []
        for element in statement.elements:
            previous = elements[-1] if elements else None
            after_unary = isinstance(previous, Operator) and previous.token in _UNARY
            if isinstance(element, NumberConstant) and element.value[0] & 0x80 and not after_unary:
                positive = bytes([element.value[0] & 0x7F]) + element.value[1:]
                elements += [Operator(tokens.TOK_UNARY_MINUS), NumberConstant(positive)]
            else:
                elements.append(element)
        statements.append(type(statement)(statement.token, tuple(elements)))
    return Line(line.number, tuple(statements))


_UNARY = (tokens.TOK_UNARY_PLUS, tokens.TOK_UNARY_MINUS, tokens.TOK_NOT)


def as_atari_basic(saved: bytes) -> bytes:
    """An Altirra BASIC SAVE file with negative constants written the rev. C way."""
    program = Program.from_bytes(saved)
    variables = VariableTable(list(program.names))

    def rewrite(line: ProgramLine) -> bytes:
        return encode_line(_unfold(decode_line(line, program.names)), variables)

    lines = tuple(ProgramLine(line.number, rewrite(line)) for line in program.lines)
    immediate_line = ProgramLine(0, b"\x00\x00" + program.immediate[2:])
    immediate = IMMEDIATE_LINE.to_bytes(2, "little") + rewrite(immediate_line)[2:]
    return Program(program.names, program.values, lines, immediate).to_bytes()
