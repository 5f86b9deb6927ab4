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
    return _LineScanner(text, row).tokens()


class _LineScanner:
    """Reads one line; each ``_read_*`` method reads one kind of terminal."""

    def __init__(self, text: str, row: int) -> None:
        self.text = text
        self.row = row
        self.position = 0
        self.mode = _STATEMENT
        self.statement = ""  # terminal name of the current statement's keyword
        self.last = ""  # type of the last terminal
        self.depth = 0  # parentheses open in this statement
        self.commas = 0  # commas outside parentheses in this statement

    def token(self, kind: str, value: str, start: int) -> Token:
        self.last = kind
        return Token(kind, value, start_pos=start, line=self.row, column=start + 1)

    def error(self, reason: str, position: int) -> BasicSyntaxError:
        return error_at(reason, position, self.row)

    def skip_blanks(self, at: int) -> int:
        while at < len(self.text) and self.text[at] == " ":
            at += 1
        return at

    def tokens(self) -> Iterator[Token]:
        yield self._read_line_number()
        text = self.text
        while True:
            self.position = self.skip_blanks(self.position)
            if self.position >= len(text):
                return
            char = text[self.position]
            if self.mode == _STATEMENT:
                yield from self._read_statement()
            elif char == ":":
                yield self.token("COLON", ":", self.position)
                self.position += 1
                self.mode = _STATEMENT
            elif self.mode == _OPERATOR and char in _LETTERS and self._at_operator_word():
                yield self._read_operator_word()
            elif char in _LETTERS:
                yield self._read_name()
            elif char in _DIGITS:
                yield self._read_number()
            elif char == '"':
                yield self._read_string()
            else:
                yield self._read_symbol()

    def _read_line_number(self) -> Token:
        start = self.position = self.skip_blanks(0)
        end = bcd.literal_end(self.text, start)
        if end is None:
            raise self.error("line number expected", start)
        literal = self.text[start:end]
        # Up to five plain digits (nearly every line) need no rounding through BCD.
        if len(literal) <= 5 and literal.isdigit():
            line_number = int(literal)
        else:
            line_number = bcd.to_int(self._value(literal, start))
        if not 0 <= line_number <= MAX_LINE_NUMBER:
            raise self.error(f"line number {line_number} is not in 0..{MAX_LINE_NUMBER}", start)
        self.position = end
        return self.token("LINENO", str(line_number), start)

    def _value(self, literal: str, start: int) -> bytes:
        """The BCD bytes of a numeric literal; too large is an error at its column."""
        try:
            return bcd.parse(literal)
        except NumberError as error:
            raise self.error(str(error), start) from None

    def _read_statement(self) -> Iterator[Token]:
        """A statement keyword, or the implied LET when none matches."""
        start = self.position
        keyword, end = _match_statement(self.text, start)
        self.depth = self.commas = 0
        self.mode = _VALUE
        if keyword is None:
            self.statement = "ILET"
            yield self.token("ILET", "", start)
            return
        self.statement = _terminal(keyword)
        yield self.token(self.statement, keyword, start)
        self.position = end
        if self.statement in ("REM", "DATA"):
            raw = self.skip_blanks(end)
            yield self.token("RAW", self.text[raw:], raw)
            self.position = len(self.text)

    def _at_operator_word(self) -> bool:
        return _match_operator_word(self.text, self.position, self.statement) is not None

    def _read_operator_word(self) -> Token:
        """AND, OR, TO, STEP, THEN, or GOTO/GOSUB after ON: matched as prefixes."""
        start = self.position
        spelling, kind = _match_operator_word(self.text, start, self.statement) or ("", "")
        self.position += len(spelling)
        self.mode = _VALUE
        if kind == "THEN":
            after = self.skip_blanks(self.position)
            if after >= len(self.text) or self.text[after] not in _DIGITS:
                self.mode = _STATEMENT  # statements follow THEN, not a line number
        return self.token(kind, spelling, start)

    def _in_name_position(self) -> bool:
        """Whether a plain variable name must stand here (no NOT, maybe no function)."""
        statement, last = self.statement, self.last
        return (
            (statement in _TARGET_STATEMENTS and last == statement)
            or (
                statement in _NAME_LIST_STATEMENTS
                and self.depth == 0
                and last in (statement, "COMMA", "SEMICOLON")
            )
            or (statement == "LOCATE" and last == "COMMA" and self.commas == 2 and self.depth == 0)
        )

    def _read_name(self) -> Token:
        """NOT, a function name with its ``(``, or a variable name."""
        text, start = self.text, self.position
        name_position = self._in_name_position()
        if not name_position and text.startswith("NOT", start):
            self.position += 3
            self.mode = _VALUE
            return self.token("NOT", "NOT", start)
        # In a list of names only DIM and COM refuse a function name (INPUT SIN is
        # a variable called SIN).
        function = (
            None
            if name_position and self.statement not in ("DIM", "COM")
            else _match_function(text, start)
        )
        if function is not None:
            after = start + len(function)
            if after >= len(text) or text[after] != "(":
                raise self.error(f"'(' expected after {function}", after)
            self.position = after + 1
            self.depth += 1
            self.mode = _VALUE
            return self.token(_function_terminal(function), function, start)
        end = start + 1
        while end < len(text) and text[end] in _ALNUM:
            end += 1
        if end < len(text) and text[end] == "$":
            self.position = end + 1
            self.mode = _OPERATOR
            return self.token("SVAR", text[start : end + 1], start)
        if end < len(text) and text[end] == "(":
            self.position = end + 1
            self.depth += 1
            self.mode = _VALUE
            return self.token("ARRAY", text[start : end + 1], start)
        self.position = end
        self.mode = _OPERATOR
        return self.token("NVAR", text[start:end], start)

    def _read_number(self) -> Token:
        start = self.position
        end = bcd.literal_end(self.text, start)
        if end is None:
            raise self.error("malformed number", start)
        literal = self.text[start:end]
        self._value(literal, start)  # checked here for the column; cached for the grammar
        self.position = end
        self.mode = _OPERATOR
        return self.token("NUMBER", literal, start)

    def _read_string(self) -> Token:
        """A string constant; a missing closing quote ends it at the end of the line."""
        start = self.position
        close = self.text.find('"', start + 1)
        end = len(self.text) if close < 0 else close
        self.position = end + 1
        self.mode = _OPERATOR
        return self.token("STRING", self.text[start + 1 : end], start)

    def _read_symbol(self) -> Token:
        text, start = self.text, self.position
        char = text[start]
        pair = text[start : start + 2]
        if pair in _COMPARISON_PAIRS:
            kind, self.position = _COMPARISON_PAIRS[pair], start + 2
        elif char in "<>":
            kind, self.position = ("LT" if char == "<" else "GT"), start + 1
        else:
            kind = _SYMBOLS.get(char, "")
            if not kind:
                raise self.error(f"unexpected character {_show(char)}", start)
            self.position = start + 1
        if kind == "LPAREN":
            self.depth += 1
        elif kind == "RPAREN":
            self.depth -= 1
        elif kind == "COMMA" and self.depth == 0:
            self.commas += 1
        self.mode = _OPERATOR if kind == "RPAREN" else _VALUE
        return self.token(kind, text[start : self.position], start)


_COMPARISON_PAIRS: Final = {"<=": "LE", "<>": "NE", ">=": "GE"}


def _show(char: str) -> str:
    code = ord(char)
    return repr(char) if 0x20 <= code < 0x7F else f"${code:02X}"


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
