"""Cutting a listing line into terminals the way Atari BASIC reads it.

BASIC's reading rules are not a regular lexer's: keywords need no blanks
(``PRINTX`` is ``PRINT X``), a statement keyword matches as a prefix in table order
with ``.`` abbreviations (``L.`` is LIST), variable names run as long as letters and
digits do, and the operator words AND, OR, TO, STEP, THEN are only looked for where
an operator may stand. :class:`Scanner` follows those rules and feeds the LALR
grammar in ``atari_basic.lark`` (see :mod:`a8.basic.tokenizer`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from lark import Token
from lark.lexer import Lexer

from a8.basic import bcd, tokens
from a8.basic.errors import BasicSyntaxError, NumberError

MAX_LINE_NUMBER: Final = 32767

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


def error_at(reason: str, position: int, row: int = 1) -> BasicSyntaxError:
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
        raise error_at("line number expected", position, row)
    line_number = bcd.to_int(number.value)
    if not 0 <= line_number <= MAX_LINE_NUMBER:
        raise error_at(f"line number {line_number} is not in 0..{MAX_LINE_NUMBER}", position, row)
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
                    raise error_at(f"'(' expected after {function}", position, row)
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
                raise error_at("malformed number", position, row)
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
            raise error_at(f"unexpected character {_show(char)}", position, row)
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
        raise error_at(str(error), position, row) from None


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
