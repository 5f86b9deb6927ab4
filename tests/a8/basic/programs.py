"""Hypothesis strategies for random Atari BASIC listings (every statement kind).

The listings steer clear of the places where Altirra BASIC, the emulator's built-in
BASIC, is known to differ from genuine Atari BASIC rev. C (tests/a8/basic/altirra.py):
no sign directly before a number in unary position (Altirra drops a unary plus,
which cannot be undone when comparing), no string comparison inside a numeric
array's subscript, constants of nine significant digits at most (a tenth is a zero),
one unary operator at a time, no function name before a blank. LIST's line numbers
never start with a string (BASIC would read a file name).
"""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import strategies as st

_EXPRESSIONS = st.sampled_from(
    ["A", "B1", "1", "0.5", "1E-10", "(A+1)", "SIN(X)", "-A", "NOT B", "LEN(S$)", "C(1,2)",
     "USR(1536,2)", 'S$<"Z"', "STR$(1)=S$", "PEEK(53279)", "12345678900"]
)  # fmt: skip
_OPERATORS = st.sampled_from(["+", "-", "*", "/", "^", "=", "<>", "<=", ">=", "<", ">",
                              " AND ", " OR "])  # fmt: skip


_SUBSCRIPTS = st.sampled_from(["A", "B1", "1", "0.5", "(A+1)", "SIN(X)", "-A", "C(1,2)"])


@st.composite
def expressions(draw: st.DrawFn, operands: st.SearchStrategy[str] = _EXPRESSIONS) -> str:
    parts = [draw(operands)]
    for _ in range(draw(st.integers(0, 3))):
        parts += [draw(_OPERATORS), draw(operands)]
    return "".join(parts)


_SEXPRS = st.sampled_from(['"HI"', "S$", "S$(1)", "S$(2,3)", "STR$(X)", "CHR$(65)", '""'])
_TEMPLATES = (
    "REM {t}", "DATA {t}", "INPUT A,S$", "INPUT #1;A", "COLOR {e}", "LIST", "LIST {i},{i}",
    "LIST {s},{i}", "ENTER {s}", "LET A={e}", "LET S$={s}", "IF {e} THEN {n}",
    "IF {e} THEN PRINT {e}", "FOR I={e} TO {e} STEP {e}", "NEXT I", "GOTO {e}",
    "GO TO {e}", "GOSUB {e}", "TRAP {e}", "BYE", "CONT", "COM C(3),T$(5)", "CLOSE #{e}",
    "CLR", "DEG", "DIM C(3,4),S$(10)", "END", "NEW", "OPEN #1,{e},0,{s}", "LOAD {s}",
    "SAVE {s}", "STATUS #1,A", "NOTE #1,A,B", "POINT #1,A,B", "XIO {e},#1,0,0,{s}",
    "ON {e} GOTO {n},{n}", "ON {e} GOSUB {n}", "POKE {e},{e}", "PRINT {e};{s},",
    "RAD", "READ A,S$", "RESTORE", "RESTORE {e}", "RETURN", "RUN", "RUN {s}", "STOP",
    "POP", "? #6;{e}", "GET #1,A", "PUT #1,{e}", "GRAPHICS {e}", "PLOT {e},{e}",
    "POSITION {e},{e}", "DOS", "DRAWTO {e},{e}", "SETCOLOR {e},{e},{e}",
    "LOCATE {e},{e},A", "SOUND {e},{e},{e},{e}", "LPRINT {s};{e}", "CSAVE", "CLOAD",
    "C(1,{i})={e}", "S$(1,2)={s}", "A={s}<{s}",
)  # fmt: skip


@st.composite
def statements(draw: st.DrawFn) -> str:
    """A statement of any kind, with random expressions, strings and line numbers."""
    template = draw(st.sampled_from(_TEMPLATES))
    text = draw(st.text(st.sampled_from('ABC 12,:;"$'), max_size=12))
    return template.format_map(
        _Drawing(
            draw,
            {
                "e": expressions(),
                "i": expressions(_SUBSCRIPTS),
                "s": _SEXPRS,
                "n": st.integers(0, 32767),
            },
            text,
        )
    )


class _Drawing(dict[str, str]):
    """Draws a fresh value for each placeholder of a template."""

    def __init__(self, draw: st.DrawFn, strategies: dict[str, Any], text: str) -> None:
        super().__init__()
        self._draw, self._strategies, self._text = draw, strategies, text

    def __missing__(self, key: str) -> str:
        if key == "t":
            return self._text
        return str(self._draw(self._strategies[key]))


@st.composite
def listings(draw: st.DrawFn, max_lines: int = 8) -> str:
    """A listing in ascending line order (as LIST writes it) of random statements."""
    numbers = st.lists(st.integers(0, 32767), min_size=1, max_size=max_lines, unique=True)
    ordered = sorted(draw(numbers))
    lines = []
    for number in ordered:
        body = draw(st.lists(statements(), min_size=1, max_size=3))
        # REM and DATA run to the end of the line, and so does IF ... THEN.
        ends = [s for s in body if s.startswith(("REM", "DATA")) or "THEN PRINT" in s]
        body = [s for s in body if s not in ends] + ends[:1]
        lines.append(f"{number} " + ":".join(body))
    return "\n".join(lines) + "\n"


#: Abbreviations a user may type, each the shortest that BASIC reads as the keyword.
ABBREVIATIONS = {
    "PRINT": "PR.", "LIST": "L.", "GRAPHICS": "GR.", "POSITION": "POS.", "SETCOLOR": "SE.",
    "SOUND": "SO.", "DRAWTO": "DR.", "PLOT": "PL.", "REM": "R.", "DATA": "D.",
    "RETURN": "RET.", "GOSUB": "GOS.", "NEXT": "N.", "INPUT": "I.", "FOR": "F.",
    "GOTO": "G.", "TRAP": "T.", "CLOSE": "CL.", "OPEN": "O.", "POKE": "POK.",
    "RESTORE": "RES.", "LOCATE": "LOC.", "LPRINT": "LP.", "STATUS": "ST.", "NOTE": "NO.",
    "POINT": "P.", "XIO": "X.", "GET": "GE.", "PUT": "PU.", "DIM": "DI.", "DEG": "DE.",
    "LOAD": "LO.", "SAVE": "S.", "ENTER": "E.", "BYE": "B.", "COLOR": "C.",
    "CONT": "CON.", "STOP": "STO.", "RUN": "RU.",
}  # fmt: skip


def mangle(line: str, rnd: random.Random) -> str:
    """The line as a hurried typist writes it: some keywords abbreviated, about half
    of the blanks outside strings left out (never the one before THEN: without it
    Altirra BASIC reads its block IF, an extension), a few blanks added."""
    for keyword, abbreviation in ABBREVIATIONS.items():
        if rnd.random() < 0.3:
            line = re.sub(rf"\b{keyword}\b", abbreviation, line, count=1)
    out: list[str] = []
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        keep_blank = line.startswith("THEN", index + 1)
        if not quoted and char == " " and not keep_blank and rnd.random() < 0.5:
            continue
        out.append(char)
        if not quoted and char in ",;()=+-" and rnd.random() < 0.1:
            out.append(" ")
    return "".join(out)


@st.composite
def mangled_listings(draw: st.DrawFn) -> str:
    """30 lines, numbered 10, 20 ..., of random statements, mangled (see :func:`mangle`)."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    lines = []
    for index in range(30):
        body = draw(st.lists(statements(), min_size=1, max_size=3))
        ends = [s for s in body if s.startswith(("REM", "DATA")) or "THEN PRINT" in s]
        body = [s for s in body if s not in ends] + ends[:1]
        lines.append(f"{(index + 1) * 10} " + mangle(":".join(body), rnd))
    return "\n".join(lines) + "\n"
