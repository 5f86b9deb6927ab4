"""The mutants of the games' BASIC source, for benchmarks/mutation.py.

A mutant is the one source (basic_src/machfsol.bas) with one small change in one of
the game's lines below 10000 (not the test mode's ``#T`` lines, not the set-up): an
operator swapped, a constant one off, a jump sent to the next line. What changes is
found by reading each line as Atari BASIC does, token by token, so that a ``=`` that
assigns is told from one that compares, and nothing inside a string or a REM changes.

Kinds (:class:`Kind`):

* arithmetic: ``+`` and ``-`` swapped, ``*`` and ``/`` swapped;
* relational: ``<`` and ``<=``, ``>`` and ``>=`` swapped, ``=`` (a comparison) and
  ``<>`` swapped;
* logical: ``AND`` and ``OR`` swapped, a ``NOT`` taken out;
* constant: a number one more (a line number after GOTO, GOSUB, THEN, TRAP or
  RESTORE is a line target instead);
* line target: the jump sent to the program's next line after its target.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

#: The words of Atari BASIC the source uses that are not variables (functions too).
# fmt: off
KEYWORDS: Final = frozenset([
    "IF", "THEN", "FOR", "TO", "STEP", "NEXT", "GOTO", "GOSUB", "ON", "RETURN", "PRINT",
    "POSITION", "POKE", "PEEK", "USR", "ADR", "AND", "OR", "NOT", "LET", "DIM", "GET",
    "INPUT", "OPEN", "CLOSE", "TRAP", "END", "STOP", "GRAPHICS", "SOUND", "INT", "ABS",
    "RND", "VAL", "STR$", "CHR$", "ASC", "LEN", "FRE", "SGN", "SETCOLOR", "PUT", "ENTER",
    "RESTORE", "READ", "DATA", "REM", "RUN", "LOAD", "SAVE", "LIST", "NEW", "CLR", "POP",
    "XIO", "NOTE", "POINT", "STATUS", "PLOT", "DRAWTO", "FILLTO", "LOCATE", "COLOR", "SQR",
    "EXP", "LOG", "SIN", "COS", "ATN", "STICK", "STRIG", "PADDLE", "PTRIG", "DEG", "RAD",
    "CONT", "BYE", "DOS", "CSAVE", "CLOAD", "LPRINT",
])
# fmt: on
#: Words after which a number is a line number.
JUMPS: Final = frozenset({"GOTO", "GOSUB", "THEN", "TRAP", "RESTORE"})
_TOKEN = re.compile(
    r'"[^"]*"?'  # a string (to the end of the line if it is not closed)
    r"|\d+(?:\.\d*)?|\.\d+"  # a number
    r"|[A-Z][A-Z0-9]*\$?"  # a word: a keyword or a variable
    r"|<=|>=|<>|[-+*/^<>=(),;:#]"  # operators and punctuation
    r"|\s+"  # blanks
    r"|."  # anything else
)
_LINE = re.compile(r"^(#V([12]) )?(\d+) (.*)$")


class Kind(enum.Enum):
    ARITHMETIC = "arithmetic"
    RELATIONAL = "relational"
    LOGICAL = "logical"
    CONSTANT = "constant"
    LINE_TARGET = "line target"


@dataclass(frozen=True)
class Mutant:
    """One change: in source line ``index`` (0-based) the text at ``start``..``end``
    becomes ``new``."""

    index: int
    number: int
    #: The variant whose program holds the line (None: both).
    variant: int | None
    kind: Kind
    start: int
    end: int
    old: str
    new: str

    @property
    def name(self) -> str:
        where = f"#V{self.variant} " if self.variant else ""
        return f"{where}{self.number}@{self.start}: {self.old} -> {self.new} ({self.kind.value})"

    def apply(self, lines: list[str]) -> list[str]:
        changed = list(lines)
        text = changed[self.index]
        changed[self.index] = text[: self.start] + self.new + text[self.end :]
        return changed


@dataclass(frozen=True)
class _Token:
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _tokens(text: str, offset: int) -> list[_Token]:
    found = []
    for match in _TOKEN.finditer(text):
        if not match.group().isspace():
            found.append(_Token(match.group(), offset + match.start()))
    return found


def program_lines(source: str) -> dict[int | None, list[int]]:
    """The line numbers of each variant's program (None: the lines both share)."""
    numbers: dict[int | None, set[int]] = {1: set(), 2: set()}
    for text in source.splitlines():
        line = _LINE.match(text)
        if line is not None:
            for variant in (1, 2) if line.group(2) is None else (int(line.group(2)),):
                numbers[variant].add(int(line.group(3)))
    return {variant: sorted(found) for variant, found in numbers.items()}


def mutants(source: str, below: int = 10000) -> Iterator[Mutant]:
    """Every mutant of the game's lines below ``below``, line by line, left to right."""
    lines = program_lines(source)
    for index, text in enumerate(source.splitlines()):
        line = _LINE.match(text)
        if line is None or int(line.group(3)) >= below:
            continue
        variant = None if line.group(2) is None else int(line.group(2))
        number = int(line.group(3))
        targets = lines[variant or 1]
        yield from _line_mutants(index, number, variant, line.start(4), line.group(4), targets)


def _line_mutants(
    index: int, number: int, variant: int | None, offset: int, text: str, targets: list[int]
) -> Iterator[Mutant]:
    tokens = _tokens(text, offset)

    def mutant(kind: Kind, token: _Token, new: str) -> Mutant:
        return Mutant(index, number, variant, kind, token.start, token.end, token.text, new)

    statement_start = True
    assigns = False  # the statement assigns: its first = at depth 0 is not a comparison
    depth = 0
    for position, token in enumerate(tokens):
        word = token.text
        if word.startswith('"'):
            statement_start = False
            continue
        if word in ("REM", "DATA"):
            return
        if statement_start:
            assigns = word in ("LET", "FOR") or (word[0].isalpha() and word not in KEYWORDS)
            depth = 0
            statement_start = False
        is_number = word[:1].isdigit() or word[:1] == "."
        if is_number and _was_target(tokens, position):
            later = [n for n in targets if n > int(word)]
            if int(word) in targets and later:
                yield mutant(Kind.LINE_TARGET, token, str(later[0]))
        elif is_number:
            yield mutant(Kind.CONSTANT, token, _plus_one(word))
        elif word in ("+", "-"):
            yield mutant(Kind.ARITHMETIC, token, "-" if word == "+" else "+")
        elif word in ("*", "/"):
            yield mutant(Kind.ARITHMETIC, token, "/" if word == "*" else "*")
        elif word in ("<", "<=", ">", ">=", "<>"):
            swapped = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "<>": "="}[word]
            yield mutant(Kind.RELATIONAL, token, swapped)
        elif word == "=":
            if assigns and depth == 0:
                assigns = False
            else:
                yield mutant(Kind.RELATIONAL, token, "<>")
        elif word in ("AND", "OR"):
            yield mutant(Kind.LOGICAL, token, "OR" if word == "AND" else "AND")
        elif word == "NOT":
            yield mutant(Kind.LOGICAL, token, "")
        elif word == "(":
            depth += 1
        elif word == ")":
            depth -= 1
        if word == ":":
            statement_start = True
        if word == "THEN":  # THEN 100 jumps; THEN X=1 starts a statement
            following = tokens[position + 1].text if position + 1 < len(tokens) else ""
            statement_start = not following[:1].isdigit()


def _was_target(tokens: list[_Token], position: int) -> bool:
    """Is the number at ``position`` a line target (after a jump word, or in a jump's
    list of targets: ON X GOTO 10,20,30)?"""
    back = position - 1
    while back >= 0:
        word = tokens[back].text
        if word in JUMPS:
            return True
        if word != ",":
            return False
        back -= 1
        if back < 0 or not tokens[back].text[:1].isdigit():
            return False
        back -= 1
    return False


def _plus_one(number: str) -> str:
    if "." in number:
        return repr(float(number) + 1)
    return str(int(number) + 1)
