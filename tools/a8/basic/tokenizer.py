"""From listing text to typed line nodes, the way Atari BASIC's ENTER reads it.

Reading happens in two steps. :class:`~a8.basic.scanner.Scanner` cuts the text into
terminals following BASIC's own quirky rules, then the LALR grammar in
``atari_basic.lark`` checks the order of the terminals and its :class:`LineBuilder`
transformer turns them into typed nodes, picking the context-dependent tokens (which
``=`` assigns, which ``(`` opens a subscript ...). :mod:`a8.basic.encoder` writes
the nodes as bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken

from a8.basic import bcd, tokens
from a8.basic.errors import BasicSyntaxError
from a8.basic.nodes import (
    Element,
    Line,
    NumberConstant,
    Operator,
    RawText,
    Statement,
    StringConstant,
    Variable,
)
from a8.basic.scanner import LINE_SEPARATOR, Scanner, error_at

#: How each operator terminal is spelled; tokens.py maps spellings to tokens.
_SPELLING: Final[dict[str, str]] = {
    "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "CARET": "^", "EQ": "=",
    "NE": "<>", "LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "AND": "AND", "OR": "OR",
}  # fmt: skip
_BINARY: Final[dict[str, int]] = {
    kind: tokens.NUMERIC_OPERATORS[spelling] for kind, spelling in _SPELLING.items()
}
_STRING_COMPARISON: Final[dict[str, int]] = {
    kind: tokens.STRING_COMPARISONS[spelling]
    for kind, spelling in _SPELLING.items()
    if spelling in tokens.STRING_COMPARISONS
}
#: Tokens of punctuation that means the same wherever a statement puts it.
_STATEMENT_LEVEL: Final[dict[str, int]] = {
    "COMMA": tokens.TOK_COMMA, "SEMICOLON": tokens.TOK_SEMICOLON, "TO": tokens.TOK_TO,
    "STEP": tokens.TOK_STEP, "THEN": tokens.TOK_THEN, "ON_GOTO": tokens.TOK_ON_GOTO,
    "ON_GOSUB": tokens.TOK_ON_GOSUB, "COLON": tokens.TOK_COLON,
}  # fmt: skip

Pieces = list[Element]


def _flatten(children: list[Any], table: dict[str, int]) -> Pieces:
    """Elements of a rule's children; terminals are looked up in ``table``."""
    out: Pieces = []
    for child in children:
        if isinstance(child, Token):
            out.append(Operator(table[child.type]))
        elif isinstance(child, list):
            out.extend(child)
        else:
            out.append(child)
    return out


def _variable(name: Token) -> Variable:
    return Variable(str(name), name.column or 0)


def _latin1(text: str) -> bytes:
    return text.encode("latin-1")


def _subscripts(children: list[Any], opener: int) -> Pieces:
    """``NAME(a[,b])``: the opening token for this context, commas as 0x3C."""
    out: Pieces = [Operator(opener)]
    for child in children:
        if isinstance(child, Token):
            if child.type == "COMMA":
                out.append(Operator(tokens.TOK_ARRAY_COMMA))
            elif child.type == "RPAREN":
                out.append(Operator(tokens.TOK_CLOSE_PAREN))
        else:
            out.extend(child)
    return out


#: Called with each line as soon as it is parsed, and its line number in the file.
LineHandler = Callable[[Line, int], None]


class LineBuilder(Transformer[Token, Any]):
    """Turns the parse of each line into a :class:`~a8.basic.nodes.Line`.

    Each expression rule returns a list of elements in the order BASIC stores them;
    each statement rule returns a :class:`~a8.basic.nodes.Statement`. The parser
    runs this transformer while it parses, so ``on_line`` sees each line in order,
    before the next one is read (the first bad line is the one reported).
    """

    def __init__(self) -> None:
        super().__init__()
        self.on_line: LineHandler | None = None

    def start(self, children: list[Any]) -> list[Line]:
        return [child for child in children if isinstance(child, Line)]

    def line(self, children: list[Any]) -> Line:
        number = int(children[0])
        line = Line(number, tuple(_sequence(children[1:])))
        if self.on_line is not None:
            self.on_line(line, children[0].line)
        return line

    def if_then(self, children: list[Any]) -> list[Statement]:
        condition = Statement(tokens.TOK_IF, tuple([*children[1], Operator(tokens.TOK_THEN)]))
        return [condition, *_sequence(children[3:])]

    # statements ---------------------------------------------------------------------
    def _statement(self, children: list[Any]) -> Statement:
        keyword = children[0]
        token = tokens.STATEMENT_TOKEN[str(keyword)]
        return Statement(token, tuple(_flatten(children[1:], _STATEMENT_LEVEL)))

    def rem(self, children: list[Any]) -> Statement:
        return Statement(tokens.TOK_REM, (RawText(_latin1(children[1])),))

    def data(self, children: list[Any]) -> Statement:
        return Statement(tokens.TOK_DATA, (RawText(_latin1(children[1])),))

    def implied_let(self, children: list[Any]) -> Statement:
        return Statement(tokens.TOK_IMPLIED_LET, tuple(children[1]))

    def let(self, children: list[Any]) -> Statement:
        return Statement(tokens.STATEMENT_TOKEN["LET"], tuple(children[1]))

    def assign_number(self, children: list[Any]) -> Pieces:
        return [*children[0], Operator(tokens.TOK_ASSIGN_NUMBER), *children[2]]

    def assign_string(self, children: list[Any]) -> Pieces:
        return [*children[0], Operator(tokens.TOK_ASSIGN_STRING), *children[2]]

    def for_loop(self, children: list[Any]) -> Statement:
        pieces = _flatten(children[1:], {**_STATEMENT_LEVEL, "EQ": tokens.TOK_ASSIGN_NUMBER})
        return Statement(tokens.STATEMENT_TOKEN["FOR"], tuple(pieces))

    def dim_array(self, children: list[Any]) -> Pieces:
        return [_variable(children[0]), *_subscripts(children[1:], tokens.TOK_DIM_ARRAY_PAREN)]

    def dim_string(self, children: list[Any]) -> Pieces:
        return [_variable(children[0]), *_subscripts(children[2:], tokens.TOK_DIM_STRING_PAREN)]

    def iocb(self, children: list[Any]) -> Pieces:
        return [Operator(tokens.TOK_HASH), *children[1]]

    # expressions --------------------------------------------------------------------
    def aexpr(self, children: list[Any]) -> Pieces:
        return _flatten(children, _BINARY)

    def unary_plus(self, _: list[Any]) -> Operator:
        return Operator(tokens.TOK_UNARY_PLUS)

    def unary_minus(self, _: list[Any]) -> Operator:
        return Operator(tokens.TOK_UNARY_MINUS)

    def not_(self, _: list[Any]) -> Operator:
        return Operator(tokens.TOK_NOT)

    def number(self, children: list[Any]) -> NumberConstant:
        return NumberConstant(bcd.parse(str(children[0])))

    line_target = number

    def string(self, children: list[Any]) -> Pieces:
        return [StringConstant(_latin1(children[0]))]

    def parenthesis(self, children: list[Any]) -> Pieces:
        return [
            Operator(tokens.TOK_OPEN_PAREN),
            *children[1],
            Operator(tokens.TOK_CLOSE_PAREN),
        ]

    def function(self, children: list[Any]) -> Pieces:
        name = str(children[0])
        out: Pieces = [
            Operator(tokens.FUNCTION_TOKEN[name]),
            Operator(tokens.TOK_FUNCTION_PAREN),
        ]
        return out + _subscripts(children[1:], tokens.TOK_FUNCTION_PAREN)[1:]

    def sexpr(self, children: list[Any]) -> Pieces:
        return _flatten(children, {})

    def string_comparison(self, children: list[Any]) -> Pieces:
        return _flatten(children, _STRING_COMPARISON)

    def substring(self, children: list[Any]) -> Pieces:
        name: Pieces = [_variable(children[0])]
        if len(children) == 1:
            return name
        return name + _subscripts(children[2:], tokens.TOK_STRING_PAREN)

    def element(self, children: list[Any]) -> Pieces:
        return [_variable(children[0]), *_subscripts(children[1:], tokens.TOK_ARRAY_PAREN)]

    def nvar(self, children: list[Any]) -> Pieces:
        return [_variable(children[0])]

    svar = nvar


def _sequence(children: list[Any]) -> list[Statement]:
    """Statements of a line; a ``:`` ends the statement before it."""
    out: list[Statement] = []
    for child in children:
        if isinstance(child, Token):  # COLON
            last = out[-1]
            out[-1] = Statement(last.token, (*last.elements, Operator(tokens.TOK_COLON)))
        elif isinstance(child, list):
            out.extend(child)
        else:
            out.append(child)
    return out


def _install_statement_callbacks() -> None:
    """Plain statements are all built alike: keyword token plus flattened elements."""
    special = {"rem", "data", "let", "implied_let", "for"}  # built by their own methods
    for keyword in tokens.STATEMENTS:
        rule = {
            "?": "qmark",
            "GO TO": "go_to",
            "IF": "if_goto",
            "ON": "on",
        }.get(keyword, keyword.lower())
        if rule in special:
            continue
        for name in ("on_goto", "on_gosub") if rule == "on" else (rule,):
            setattr(LineBuilder, name, LineBuilder._statement)


_install_statement_callbacks()


def _grammar() -> str:
    return resources.files("a8.basic").joinpath("atari_basic.lark").read_text("utf-8")


@cache
def _parser() -> tuple[Lark, LineBuilder]:
    """The LALR parser, running its :class:`LineBuilder` as it goes.

    Built once per process (lark caches the tables on disk, so that takes 10 ms);
    each parse sets the builder's line handler under a lock.
    """
    builder = LineBuilder()
    parser = Lark(_grammar(), parser="lalr", lexer=Scanner, transformer=builder, cache=True)
    return parser, builder


_parse_lock = threading.Lock()


def parse_listing(lines: Sequence[str], on_line: LineHandler | None = None) -> list[Line]:
    """Typed nodes of every non-blank line of a listing (ATASCII as Latin-1 text).

    ``on_line`` is called with each line and its 1-based line number as soon as the
    line is parsed. Raises :class:`BasicSyntaxError` with line and column (the
    caller adds the file name).
    """
    for row, line in enumerate(lines, start=1):
        if LINE_SEPARATOR in line:  # possible in UTF-8 text, spelled {EOL} or {$9B}
            raise error_at("$9B (end of line) inside a line", line.index(LINE_SEPARATOR), row)
    parser, builder = _parser()
    text = LINE_SEPARATOR.join(lines)
    with _parse_lock:
        builder.on_line = on_line
        try:
            result: list[Line] = parser.parse(text)  # type: ignore[assignment]
        except BasicSyntaxError:
            raise
        except UnexpectedToken as error:
            raise _unexpected(error) from None
        except UnexpectedInput as error:  # lark's other complaints (our scanner gives none)
            place = max(error.line, 1), max(error.column, 1)
            raise BasicSyntaxError("syntax error", line=place[0], column=place[1]) from None
        finally:
            builder.on_line = None
    return result


def parse_line(text: str) -> Line:
    """Typed nodes of one listing line (ATASCII as Latin-1 text)."""
    lines = parse_listing([text])
    if not lines:
        raise error_at("line number expected", 0)
    return lines[0]


def _unexpected(error: UnexpectedToken) -> BasicSyntaxError:
    token = error.token
    row = token.line or 1
    if token.type in ("NEWLINE", "$END"):
        return BasicSyntaxError("unexpected end of line", line=row, column=token.column or 1)
    spelling = str(token) if token.type not in ("ILET", "RAW") else token.type
    if token.type == "STRING":
        spelling = f'"{token}"'
    return BasicSyntaxError(f"syntax error at {spelling!s}", line=row, column=token.column or 1)
