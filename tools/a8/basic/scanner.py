"""Cutting a listing line into terminals the way Atari BASIC reads it.

BASIC's reading rules are not a regular lexer's: keywords need no blanks
(``PRINTX`` is ``PRINT X``), a statement keyword matches as a prefix in table order
with ``.`` abbreviations (``L.`` is LIST), variable names run as long as letters and
digits do, and the operator words AND, OR, TO, STEP, THEN are only looked for where
an operator may stand. Which reading applies depends on where the line is, and that
is the grammar's knowledge: :class:`Scanner` asks the LALR parser of
``atari_basic.lark`` which terminals it accepts next (lark's contextual lexing) and
reads accordingly, so the scanner itself keeps no statement or bracket state.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any, Final

from lark import Token
from lark.lexer import Lexer, LexerState

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


#: Operator words and their terminals, tried as prefixes where the grammar takes them.
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
#: Separates the lines of a listing handed to the parser (0x9B never occurs in a line).
LINE_SEPARATOR: Final = "\x9b"
#: ENTER reads a line as one record of at most 255 bytes, the 0x9B included.
MAX_INPUT_LINE: Final = 254


#: What the parser may accept next: terminal names (lark's parse table row).
Accepts = Collection[str]


class Scanner(Lexer):
    """Cuts a listing (ATASCII decoded as Latin-1, lines separated by 0x9B) into
    grammar terminals, with a NEWLINE after each line; blank lines give nothing.

    Tokens and errors carry the 1-based line and column. Lark runs the scanner
    lazily, feeding each terminal to the parser before it asks for the next one, so
    the parser's state always tells what may stand at the scanner's position.
    """

    #: Lark's interface that hands the lexer the parser's state.
    __future_interface__ = 1

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text: Any = lexer_state.text
        if not isinstance(text, str):  # lark 1.2 and later hand a TextSlice of the text
            text = text.text
        states = parser_state.parse_conf.states

        def accepts() -> Accepts:
            return states[parser_state.position].keys()  # type: ignore[no-any-return]

        for row, line in enumerate(text.split(LINE_SEPARATOR), start=1):
            if not line.strip(" "):
                continue
            if len(line) > MAX_INPUT_LINE:
                raise BasicSyntaxError(
                    f"line longer than {MAX_INPUT_LINE} characters (ENTER's limit)",
                    line=row,
                    column=MAX_INPUT_LINE + 1,
                )
            yield from _LineScanner(line, row, accepts).tokens()
            end = len(line.rstrip(" "))
            yield Token("NEWLINE", "", start_pos=end, line=row, column=end + 1)


def error_at(reason: str, position: int, row: int = 1) -> BasicSyntaxError:
    return BasicSyntaxError(reason, line=row, column=position + 1)


class _LineScanner:
    """Reads one line; each ``_read_*`` method reads one kind of terminal.

    ``accepts`` tells which terminals the grammar allows next; the reading rule at
    each position follows from it:

    * a statement keyword (or the implied LET) where a statement may start, except
      that a number after THEN is a line number;
    * the operator words (AND, OR, TO, STEP, THEN, and GOTO/GOSUB of ON) only where
      the grammar takes them, matched as prefixes;
    * NOT, as a prefix, only where a value may start; so the plain names of INPUT,
      READ, NEXT, LOCATE's variable and assignment targets may begin with NOT;
    * function names where anything but a plain numeric variable may stand: INPUT
      SIN reads a variable SIN, but DIM SIN(3) is the function and an error.
    """

    def __init__(self, text: str, row: int, accepts: Callable[[], Accepts]) -> None:
        self.text = text
        self.row = row
        self.position = 0
        self.accepts = accepts

    def token(self, kind: str, value: str, start: int) -> Token:
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
            accepts = self.accepts()
            if "ILET" in accepts and not (char in _DIGITS and "NUMBER" in accepts):
                yield from self._read_statement()
            elif char == ":":
                yield self.token("COLON", ":", self.position)
                self.position += 1
            elif char in _LETTERS and (word := _match_operator_word(text, self.position, accepts)):
                spelling, kind = word
                yield self.token(kind, spelling, self.position)
                self.position += len(spelling)
            elif char in _LETTERS:
                yield self._read_name(accepts)
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
        if keyword is None:
            yield self.token("ILET", "", start)
            return
        kind = _terminal(keyword)
        yield self.token(kind, keyword, start)
        self.position = end
        if kind in ("REM", "DATA"):
            raw = self.skip_blanks(end)
            yield self.token("RAW", self.text[raw:], raw)
            self.position = len(self.text)

    def _read_name(self, accepts: Accepts) -> Token:
        """NOT, a function name with its ``(``, or a variable name."""
        text, start = self.text, self.position
        if "NOT" in accepts and text.startswith("NOT", start):
            self.position += 3
            return self.token("NOT", "NOT", start)
        plain_name = "NVAR" in accepts and "NOT" not in accepts
        function = None if plain_name else _match_function(text, start)
        if function is not None:
            after = start + len(function)
            if after >= len(text) or text[after] != "(":
                raise self.error(f"'(' expected after {function}", after)
            self.position = after + 1
            return self.token(_function_terminal(function), function, start)
        end = start + 1
        while end < len(text) and text[end] in _ALNUM:
            end += 1
        if end < len(text) and text[end] == "$":
            self.position = end + 1
            return self.token("SVAR", text[start : end + 1], start)
        if end < len(text) and text[end] == "(":
            self.position = end + 1
            return self.token("ARRAY", text[start : end + 1], start)
        self.position = end
        return self.token("NVAR", text[start:end], start)

    def _read_number(self) -> Token:
        start = self.position
        end = bcd.literal_end(self.text, start)
        if end is None:
            raise self.error("malformed number", start)
        literal = self.text[start:end]
        self._value(literal, start)  # checked here for the column; cached for the grammar
        self.position = end
        return self.token("NUMBER", literal, start)

    def _read_string(self) -> Token:
        """A string constant; a missing closing quote ends it at the end of the line."""
        start = self.position
        close = self.text.find('"', start + 1)
        end = len(self.text) if close < 0 else close
        self.position = end + 1
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


def _match_operator_word(text: str, position: int, accepts: Accepts) -> tuple[str, str] | None:
    """The operator word at ``position`` that the grammar accepts there, as a prefix."""
    for spelling, kind in _OPERATOR_WORDS:
        if kind in accepts and text.startswith(spelling, position):
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
