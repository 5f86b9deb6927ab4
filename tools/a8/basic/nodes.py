"""Typed nodes of a tokenized line: what the grammar's Transformer builds.

Atari BASIC keeps a line as a flat sequence of tokens in the order they were typed,
so the nodes are flat too: a line is statements, a statement is a token and a tuple
of elements. Context-dependent choices (which ``=``, which ``(``) are already made:
an :class:`Operator` carries the exact token byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Operator:
    """An operator or punctuation token (a byte from 0x12 to 0x54)."""

    token: int


@dataclass(frozen=True, slots=True)
class NumberConstant:
    """A numeric constant: token 0x0E and six BCD bytes."""

    value: bytes


@dataclass(frozen=True, slots=True)
class StringConstant:
    """A string constant: token 0x0F, a length byte and the ATASCII bytes."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Variable:
    """A variable by name; ``$`` ends a string's name and ``(`` an array's.

    ``column`` is where the name stands in its listing line (0 when read from a
    program), only so that "too many variables" can point at it; it is not part of
    the value.
    """

    name: str
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class RawText:
    """The text of REM, DATA or a syntax-error line, stored as typed up to 0x9B."""

    data: bytes


Element = Operator | NumberConstant | StringConstant | Variable | RawText


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement: its statement token and its elements (``:`` included)."""

    token: int
    elements: tuple[Element, ...]


@dataclass(frozen=True, slots=True)
class Line:
    """A numbered line; no statements means "delete this line" (as in ENTER)."""

    number: int
    statements: tuple[Statement, ...]
