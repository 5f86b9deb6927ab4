"""From listing text to tokenized lines, the way Atari BASIC's ENTER does it.

Reading a line happens in two steps. :class:`Scanner` cuts the text into terminals
following BASIC's own quirky rules (keywords need no blanks, ``PRINTX`` is ``PRINT
X``, ``L.`` is LIST, variable names run as long as letters and digits do), then the
LALR grammar in ``atari_basic.lark`` checks the order of the terminals and its
:class:`LineBuilder` transformer turns them into typed nodes, picking the
context-dependent tokens. :func:`encode_line` writes the nodes as bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from a8.basic import bcd, tokens
from a8.basic.errors import BasicSyntaxError, NumberError
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

MAX_LINE_NUMBER: Final = 32767
IMMEDIATE_LINE: Final = 32768
#: A tokenized line's length is one byte (the offset of the next line).
MAX_TOKENIZED_LINE: Final = 255

_LETTERS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM: Final = _LETTERS | frozenset("0123456789")
_DIGITS: Final = frozenset("0123456789.")


def _terminal(keyword: str) -> str:
    return {"GO TO": "GO_TO", "?": "QMARK"}.get(keyword, keyword)


#: Statement keywords grouped by first character, in table order.
_KEYWORDS_BY_INITIAL: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    initial: tuple(
        (name, _terminal(name)) for name in tokens.STATEMENTS if name.startswith(initial)
    )
    for initial in {name[0] for name in tokens.STATEMENTS}
}
_FUNCTIONS_BY_INITIAL: Final[dict[str, tuple[str, ...]]] = {
    initial: tuple(name for name in tokens.FUNCTIONS if name.startswith(initial))
    for initial in {name[0] for name in tokens.FUNCTIONS}
}


def _function_terminal(name: str) -> str:
    if name == "USR":
        return "USR"
    if name in tokens.STRING_FUNCTIONS:
        return "STRFUNC"
    if name in tokens.STRING_ARGUMENT_FUNCTIONS:
        return "STRFUNC_ARG"
    return "NUMFUNC"


#: Operator words, tried where an operator may stand (literal prefixes, like BASIC).
_OPERATOR_WORDS: Final = (
    ("AND", "AND"),
    ("OR", "OR"),
    ("TO", "TO"),
    ("STEP", "STEP"),
    ("THEN", "THEN"),
    ("GOTO", "ON_GOTO"),
    ("GOSUB", "ON_GOSUB"),
)
_SYMBOLS: Final = {
    "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "^": "CARET", "=": "EQ",
    ",": "COMMA", ";": "SEMICOLON", "#": "HASH", "(": "LPAREN", ")": "RPAREN",
}  # fmt: skip
#: Statements whose variables (after the keyword, a comma or a semicolon) are plain
#: names: there BASIC does not look for a NOT in front of a name such as NOTX. The
#: same holds for the target of an assignment, FOR and NEXT, and LOCATE's third
#: argument (checked in the emulator: ``NEXT NOTX`` and ``LOCATE 1,2,NOTX`` work).
_NAME_LIST_STATEMENTS: Final = frozenset(
    {"INPUT", "READ", "DIM", "COM", "STATUS", "NOTE", "POINT", "GET"}
)
_TARGET_STATEMENTS: Final = frozenset({"ILET", "LET", "FOR", "NEXT"})

# Scanner modes.
_STATEMENT, _VALUE, _OPERATOR = range(3)


#: Separates the lines of a listing handed to the parser (0x9B never occurs in a line).
LINE_SEPARATOR: Final = "\x9b"
#: ENTER reads a line as one record of at most 255 bytes, the 0x9B included.
MAX_INPUT_LINE: Final = 254


class Scanner(Lexer):
    """Cuts a listing (ATASCII decoded as Latin-1, lines separated by 0x9B) into
    grammar terminals, with a NEWLINE after each line; blank lines give nothing.

    Tokens and errors carry the 1-based line and column. Within a line the scanner
    keeps just enough state to read like BASIC: whether a statement starts next,
    whether a value or an operator is expected, and which statement it is in.
    """

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]
        for row, line in enumerate(text.split(LINE_SEPARATOR), start=1):
            if not line.strip(" "):
                continue
            if len(line) > MAX_INPUT_LINE:
                raise BasicSyntaxError(
                    f"line longer than {MAX_INPUT_LINE} characters (ENTER's limit)",
                    line=row,
                    column=MAX_INPUT_LINE + 1,
                )
            yield from scan(line, row)
            end = len(line.rstrip(" "))
            yield Token("NEWLINE", "", start_pos=end, line=row, column=end + 1)


def _error(reason: str, position: int, row: int = 1) -> BasicSyntaxError:
    return BasicSyntaxError(reason, line=row, column=position + 1)


def scan(text: str, row: int = 1) -> Iterator[Token]:
    """The terminals of one line (see :class:`Scanner`); ``row`` is its line number
    in the file, for error messages."""
    length = len(text)
    position = 0

    def token(kind: str, value: str, start: int) -> Token:
        return Token(kind, value, start_pos=start, line=row, column=start + 1)

    def skip_blanks(at: int) -> int:
        while at < length and text[at] == " ":
            at += 1
        return at

    position = skip_blanks(position)
    number = _scan_number(text, position, row)
    if number is None:
        raise _error("line number expected", position, row)
    line_number = bcd.to_int(number.value)
    if not 0 <= line_number <= MAX_LINE_NUMBER:
        raise _error(f"line number {line_number} is not in 0..{MAX_LINE_NUMBER}", position, row)
    yield token("LINENO", str(line_number), position)
    position = number.end

    mode = _STATEMENT
    statement = ""
    depth = 0
    commas = 0  # at depth 0 in this statement (LOCATE's third argument is a name)
    last = ""
    while True:
        position = skip_blanks(position)
        if position >= length:
            return
        char = text[position]
        start = position

        if mode == _STATEMENT:
            keyword, end = _match_statement(text, position)
            depth = commas = 0
            if keyword is None:
                statement = last = "ILET"
                yield token("ILET", "", start)
                mode = _VALUE
                continue
            statement = last = _terminal(keyword)
            yield token(statement, keyword, start)
            position = end
            if statement in ("REM", "DATA"):
                position = skip_blanks(position)
                yield token("RAW", text[position:], position)
                return
            mode = _VALUE
            continue

        if char == ":":
            yield token("COLON", ":", start)
            position += 1
            mode = _STATEMENT
            continue

        if mode == _OPERATOR and char in _LETTERS:
            word = _match_operator_word(text, position, statement)
            if word is not None:
                spelling, kind = word
                yield token(kind, spelling, start)
                position += len(spelling)
                last = kind
                mode = _VALUE
                if kind == "THEN":
                    after = skip_blanks(position)
                    if after >= length or text[after] not in _DIGITS:
                        mode = _STATEMENT
                continue

        if char in _LETTERS:
            name_position = (
                (statement in _TARGET_STATEMENTS and last == statement)
                or (
                    statement in _NAME_LIST_STATEMENTS
                    and depth == 0
                    and last in (statement, "COMMA", "SEMICOLON")
                )
                or (statement == "LOCATE" and last == "COMMA" and commas == 2 and depth == 0)
            )
            if not name_position and text.startswith("NOT", position):
                yield token("NOT", "NOT", start)
                position += 3
                last = "NOT"
                mode = _VALUE
                continue
            # In a list of names only DIM and COM refuse a function name (INPUT SIN is
            # a variable called SIN).
            function = (
                None
                if name_position and statement not in ("DIM", "COM")
                else _match_function(text, position)
            )
            if function is not None:
                position += len(function)
                if position >= length or text[position] != "(":
                    raise _error(f"'(' expected after {function}", position, row)
                position += 1
                depth += 1
                last = _function_terminal(function)
                yield token(last, function, start)
                mode = _VALUE
                continue
            end = position + 1
            while end < length and text[end] in _ALNUM:
                end += 1
            if end < length and text[end] == "$":
                last = "SVAR"
                yield token("SVAR", text[position : end + 1], start)
                position = end + 1
                mode = _OPERATOR
            elif end < length and text[end] == "(":
                last = "ARRAY"
                yield token("ARRAY", text[position : end + 1], start)
                position = end + 1
                depth += 1
                mode = _VALUE
            else:
                last = "NVAR"
                yield token("NVAR", text[position:end], start)
                position = end
                mode = _OPERATOR
            continue

        if char in _DIGITS:
            number = _scan_number(text, position, row)
            if number is None:
                raise _error("malformed number", position, row)
            last = "NUMBER"
            yield token("NUMBER", text[position : number.end], start)
            position = number.end
            mode = _OPERATOR
            continue

        if char == '"':
            close = text.find('"', position + 1)
            end = length if close < 0 else close
            last = "STRING"
            yield token("STRING", text[position + 1 : end], start)
            position = end + 1
            mode = _OPERATOR
            continue

        if char in "<>":
            pair = text[position : position + 2]
            if pair in ("<=", "<>", ">="):
                kind = {"<=": "LE", "<>": "NE", ">=": "GE"}[pair]
                position += 2
            else:
                kind = "LT" if char == "<" else "GT"
                position += 1
            last = kind
            yield token(kind, text[start:position], start)
            mode = _VALUE
            continue

        kind = _SYMBOLS.get(char, "")
        if not kind:
            raise _error(f"unexpected character {_show(char)}", position, row)
        position += 1
        if kind == "LPAREN":
            depth += 1
        elif kind == "RPAREN":
            depth -= 1
        elif kind == "COMMA" and depth == 0:
            commas += 1
        last = kind
        yield token(kind, char, start)
        mode = _OPERATOR if kind == "RPAREN" else _VALUE


def _show(char: str) -> str:
    code = ord(char)
    return repr(char) if 0x20 <= code < 0x7F else f"${code:02X}"


def _scan_number(text: str, position: int, row: int = 1) -> bcd.Scanned | None:
    try:
        return bcd.scan(text, position)
    except NumberError as error:
        raise _error(str(error), position, row) from None


def _match_statement(text: str, position: int) -> tuple[str | None, int]:
    """The statement keyword at ``position``: first table entry whose letters match,
    where a ``.`` in the text stands for the rest of the keyword."""
    initial = text[position]
    if initial == ".":
        return "REM", position + 1
    for name, _ in _KEYWORDS_BY_INITIAL.get(initial, ()):
        at = position
        for expected in name:
            if at < len(text) and text[at] == expected:
                at += 1
                continue
            if at < len(text) and text[at] == ".":
                return name, at + 1
            break
        else:
            return name, at
    return None, position


def _match_operator_word(text: str, position: int, statement: str) -> tuple[str, str] | None:
    for spelling, kind in _OPERATOR_WORDS:
        if kind.startswith("ON_") and statement != "ON":
            continue
        if text.startswith(spelling, position):
            return spelling, kind
    return None


def _match_function(text: str, position: int) -> str | None:
    """A function name at ``position`` that is not the start of a longer name."""
    for name in _FUNCTIONS_BY_INITIAL.get(text[position], ()):
        if text.startswith(name, position):
            after = position + len(name)
            if after >= len(text) or text[after] not in _ALNUM:
                return name
    return None


# --------------------------------------------------------------------------- grammar

_BINARY: Final[dict[str, int]] = {
    "PLUS": 0x25, "MINUS": 0x26, "STAR": 0x24, "SLASH": 0x27, "CARET": 0x23,
    "EQ": 0x22, "NE": 0x1E, "LT": 0x20, "GT": 0x21, "LE": 0x1D, "GE": 0x1F,
    "AND": 0x2A, "OR": 0x29,
}  # fmt: skip
_STRING_COMPARISON: Final[dict[str, int]] = {
    "EQ": 0x34, "NE": 0x30, "LT": 0x32, "GT": 0x33, "LE": 0x2F, "GE": 0x31,
}  # fmt: skip
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
        name = Variable(str(children[0]))
        return [name, *_subscripts(children[1:], tokens.TOK_DIM_ARRAY_PAREN)]

    def dim_string(self, children: list[Any]) -> Pieces:
        name = Variable(str(children[0]))
        return [name, *_subscripts(children[2:], tokens.TOK_DIM_STRING_PAREN)]

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
        name: Pieces = [Variable(str(children[0]))]
        if len(children) == 1:
            return name
        return name + _subscripts(children[2:], tokens.TOK_STRING_PAREN)

    def element(self, children: list[Any]) -> Pieces:
        return [Variable(str(children[0])), *_subscripts(children[1:], tokens.TOK_ARRAY_PAREN)]

    def nvar(self, children: list[Any]) -> Pieces:
        return [Variable(str(children[0]))]

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
        except (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput) as error:
            raise _error("syntax error", getattr(error, "pos_in_stream", 0) or 0) from None
        finally:
            builder.on_line = None
    return result


def parse_line(text: str) -> Line:
    """Typed nodes of one listing line (ATASCII as Latin-1 text)."""
    lines = parse_listing([text])
    if not lines:
        raise _error("line number expected", 0)
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


# --------------------------------------------------------------------------- encoding


class VariableTable:
    """Variable names in order of first appearance; a name's index is its token - 0x80."""

    def __init__(self, names: list[str] | None = None) -> None:
        self.names: list[str] = list(names or [])
        self._index = {name: index for index, name in enumerate(self.names)}

    def index(self, name: str) -> int:
        """The index of ``name``, adding it if new (raises when all 128 are used)."""
        found = self._index.get(name)
        if found is not None:
            return found
        if len(self.names) >= tokens.MAX_VARIABLES:
            raise BasicSyntaxError(f"too many variables (at most {tokens.MAX_VARIABLES})")
        self._index[name] = len(self.names)
        self.names.append(name)
        return len(self.names) - 1


def encode_line(line: Line, variables: VariableTable) -> bytes:
    """The bytes of a line: number, length, then each statement with its end offset."""
    body = bytearray()
    for number, statement in enumerate(line.statements):
        is_last = number == len(line.statements) - 1
        start = len(body)
        body.append(0)  # end offset, patched below
        body.append(statement.token)
        for element in statement.elements:
            _encode_element(element, variables, body)
        if is_last and not _ends_line_itself(statement):
            body.append(tokens.TOK_EOL)
        if 3 + len(body) > MAX_TOKENIZED_LINE:
            raise BasicSyntaxError(f"line too long: more than {MAX_TOKENIZED_LINE} bytes tokenized")
        body[start] = 3 + len(body)
    length = 3 + len(body)
    return line.number.to_bytes(2, "little") + bytes([length]) + bytes(body)


def _ends_line_itself(statement: Statement) -> bool:
    """REM and DATA text runs to the 0x9B; a bare ``IF ... THEN`` stores no EOL."""
    last = statement.elements[-1] if statement.elements else None
    return isinstance(last, RawText) or last == Operator(tokens.TOK_THEN)


_Encoder = Callable[[Element, VariableTable, bytearray], None]


def _encode_element(element: Element, variables: VariableTable, out: bytearray) -> None:
    if isinstance(element, Operator):
        out.append(element.token)
    elif isinstance(element, Variable):
        out.append(tokens.FIRST_VARIABLE_TOKEN + variables.index(element.name))
    elif isinstance(element, NumberConstant):
        out.append(tokens.TOK_NUMBER)
        out += element.value
    elif isinstance(element, StringConstant):
        if len(element.data) > 255:
            raise BasicSyntaxError("string constant longer than 255 characters")
        out.append(tokens.TOK_STRING)
        out.append(len(element.data))
        out += element.data
    else:
        out += element.data + b"\x9b"
