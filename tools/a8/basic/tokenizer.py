"""From a listing line to typed nodes, the way Atari BASIC revision C's ENTER reads it.

ENTER reads a line in this order (each step as the ROM does it):

1. The line number: the operating system converts the text to a number
   (a8.basic.bcd.afp) and then to an integer, rounded. No number, or 32768 and up,
   means the line is a command to run at once (refused here: a listing holds program
   lines). A number alone deletes that line.
2. Statement after statement: blanks are skipped, the statement keyword is looked up
   in the statement name table (no match is an assignment without LET), blanks are
   skipped again, and the syntax machine (a8.basic.syntax) reads the rest with the
   statement's rule from ``atari_basic.lark``. ``:`` ends a statement; the end of the
   line ends the line; after an IF's THEN without a line number a new statement starts.
3. If a statement fails, the whole line is a syntax error. Genuine BASIC then stores
   it anyway, as one statement with the error token 0x37 and the line's text from its
   first statement on, exactly as typed, with the character at the furthest point the
   machine reached turned to inverse video (a blank inserted for it at the end of the
   line); the variables the line created are removed again. :func:`read_line` reports
   that place and builds that line, so callers can refuse it or keep it.

The machine keeps a flat list of terminals per statement, as BASIC stores tokens; they
become a lark tree per line, and :class:`LineBuilder`, a lark Transformer, turns the
tree into :mod:`a8.basic.nodes`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from lark import Token, Transformer, Tree

from a8.basic import atascii, bcd, nodes, syntax, tokens
from a8.basic.errors import BasicSyntaxError
from a8.basic.syntax import EOL, EnterStops, LineState, VariableTable

#: The first line number that means "run at once" (the immediate line of a SAVE file).
IMMEDIATE: Final = 0x8000
#: ENTER reads a line as one record of at most 255 bytes, the 0x9B included.
MAX_INPUT_LINE: Final = 254
#: How LIST begins an ERROR- line after its number: the name and three blanks.
LISTED_ERROR_PREFIX: Final = (tokens.SYNTAX_ERROR_NAME + " ").encode("ascii")


@dataclass(frozen=True)
class ReadLine:
    """A listing line as ENTER took it.

    ``line`` holds its statements (none: the line number alone, which deletes the
    line). When ``error_column`` is set, genuine BASIC found a syntax error there
    (1-based) and ``line`` is the ERROR- line it stores; ``error_reason`` says why.
    """

    line: nodes.Line
    error_column: int | None = None
    error_reason: str = ""
    #: For a rejected line: the variables it had created before BASIC removed them.
    names_removed: tuple[str, ...] = ()
    #: For a rejected line that is an ERROR- line as LIST prints it (``ERROR-``, three
    #: blanks, the stored text): that ERROR- line, so that ``--keep-errors`` can put it
    #: back as it was (genuine ENTER would wrap it in a new ERROR- line).
    listed_error: nodes.Line | None = None


class LineBuilder(Transformer[Token, Any]):
    """Turns a line's tree into a :class:`~a8.basic.nodes.Line`.

    The tree is ``line`` with the line number token and one subtree per statement,
    named after its rule in ``atari_basic.lark`` (or ``syntax_error``); each statement
    holds the terminals the syntax machine kept, which the token callbacks turn into
    elements.
    """

    def __init__(self) -> None:
        super().__init__(visit_tokens=True)

    def line(self, children: list[Any]) -> nodes.Line:
        number, *statements = children
        return nodes.Line(int(number), tuple(statements))

    def syntax_error(self, children: list[Any]) -> nodes.Statement:
        return nodes.Statement(tokens.TOK_SYNTAX_ERROR, tuple(children))

    def __default__(self, data: Any, children: list[Any], meta: Any) -> nodes.Statement:
        return nodes.Statement(_STATEMENT_TOKEN[str(data)], tuple(children))

    def __default_token__(self, token: Token) -> Any:
        kind = token.type
        if kind in syntax.TERMINALS:
            matches, stores, _ = syntax.TERMINALS[kind]
            if stores is None:  # stored as found: for NUMERIC_FUNCTION, which one
                stores = tokens.FUNCTION_TOKEN.get(token.value, matches)
            return nodes.Operator(stores)
        if kind in ("NUMERIC_NAME", "STRING_NAME"):
            return nodes.Variable(token.value, token.column or 0)
        if kind == "NUMBER":
            return nodes.NumberConstant(token.value.encode("latin-1"))
        if kind == "STRING":
            return nodes.StringConstant(token.value.encode("latin-1"))
        if kind in ("REST_OF_LINE", "ERROR_TEXT"):
            return nodes.RawText(token.value.encode("latin-1"))
        return token  # the line number


_STATEMENT_TOKEN: Final[dict[str, int]] = {}


def _build_line(number: int, statements: list[Tree[Token]]) -> nodes.Line:
    children: list[Token | Tree[Token]] = [Token("LINE_NUMBER", str(number)), *statements]
    tree = Tree("line", children)
    result: nodes.Line = _BUILDER.transform(tree)
    return result


def _statement_tree(token: int, kept: list[syntax.Kept]) -> Tree[Token]:
    rule = syntax.machine().statement_rules[token]
    return Tree(
        rule,
        [
            Token(item.terminal, item.value, start_pos=item.start, column=item.start + 1)
            for item in kept
        ],
    )


def read_line(text: bytes, variables: VariableTable, *, immediate: bool = False) -> ReadLine:
    """Read one line (ATASCII, without its 0x9B) as ENTER does.

    New variables go into ``variables`` (and come out again when the line has a
    syntax error). ``immediate`` reads a command typed without a line number, as
    the SAVE command at the end of a SAVE file. Raises :class:`BasicSyntaxError`
    (line 0, the column set) for a line genuine BASIC does not store at all.
    """
    if len(text) > MAX_INPUT_LINE:
        raise BasicSyntaxError(
            f"line longer than {MAX_INPUT_LINE} characters (ENTER's limit)",
            column=MAX_INPUT_LINE + 1,
        )
    if EOL in text:
        raise BasicSyntaxError("$9B (end of line) inside a line", column=text.index(EOL) + 1)
    line = text + bytes([EOL])
    machine = syntax.machine()
    start = syntax.skip_blanks(line, 0)
    converted = bcd.afp(line, start)
    number = None if converted is None else bcd.line_number(converted[0])
    if converted is not None and number is None:
        raise EnterStops(
            f"line number {bcd.format_number(converted[0])} is not in 0..65535 (genuine "
            "BASIC stops ENTER with ERROR 3)",
            column=start + 1,
        )
    if immediate:
        if number is not None and number < IMMEDIATE:
            raise BasicSyntaxError("a command must not start with a line number", column=1)
        number, position = IMMEDIATE, 0
    else:
        if converted is None or number is None:
            raise BasicSyntaxError(
                "line number expected (a line without one is a command BASIC runs at once)",
                column=start + 1,
            )
        position = converted[1]
        if number >= IMMEDIATE:
            raise BasicSyntaxError(
                f"line number {number} is not in 0..32767 (BASIC would run the line at once)",
                column=start + 1,
            )
    state = LineState(line, variables, position=syntax.skip_blanks(line, position), size=3)
    first = state.position
    if line[first] == EOL:  # a line number alone deletes the line; no command: nothing
        return ReadLine(nodes.Line(number, ()))
    names_before = len(variables)
    statements: list[Tree[Token]] = []
    try:
        while True:
            state.store(2)  # the statement's length byte and its token
            state.position = syntax.skip_blanks(line, state.position)
            token, state.position = syntax.search_statement(line, state.position)
            state.position = syntax.skip_blanks(line, state.position)
            result = syntax.read_statement(machine, token, state)
            if result.kept is None:
                removed = tuple(variables.names[names_before:])
                variables.truncate(names_before)
                read = _error_line(line, number, first, state.furthest)
                listed = _listed_error_line(line, number, first)
                return replace(read, listed_error=listed, names_removed=removed)
            statements.append(_statement_tree(token, result.kept))
            if not result.statements_follow and line[state.position - 1] == EOL:
                break
    except EnterStops:
        variables.truncate(names_before)
        raise
    return ReadLine(_build_line(number, statements))


def _error_line(line: bytes, number: int, first: int, furthest: int) -> ReadLine:
    """The ERROR- line genuine BASIC stores: the text from the first statement on, the
    character at ``furthest`` in inverse video (a blank for the end of the line)."""
    marked = bytearray(line)
    if marked[furthest] == EOL:
        marked[furthest : furthest + 1] = b"\xa0\x9b"
        shown = "the end of the line"
    else:
        shown = f'"{atascii.to_text(bytes([marked[furthest]]))}"'
        if bcd.is_number_start(line, furthest) and bcd.afp(line, furthest) is None:
            shown += ": a number from 1E98 up"
        marked[furthest] |= 0x80
    raw = bytes(marked[first : marked.index(EOL, first)])
    if 5 + len(raw) + 1 > syntax.MAX_LINE_BYTES:
        raise EnterStops(
            "line too long to be kept as an ERROR- line (genuine BASIC stops ENTER with ERROR 14)",
            column=furthest + 1,
        )
    error = Tree("syntax_error", [Token("ERROR_TEXT", raw.decode("latin-1"))])
    built = _build_line(number, [error])
    return ReadLine(built, furthest + 1, f"syntax error at {shown}")


def _listed_error_line(line: bytes, number: int, first: int) -> nodes.Line | None:
    """The ERROR- line that LIST printed as this line, if it is one (see ReadLine)."""
    prefix = LISTED_ERROR_PREFIX
    stored = line[first + len(prefix) : -1]
    if not line.startswith(prefix, first) or 5 + len(stored) + 1 > syntax.MAX_LINE_BYTES:
        return None
    tree = Tree("syntax_error", [Token("ERROR_TEXT", stored.decode("latin-1"))])
    return _build_line(number, [tree])


def parse_line(text: str) -> nodes.Line:
    """Typed nodes of one listing line (ATASCII as Latin-1 text); a syntax error raises."""
    read = read_line(text.encode("latin-1"), VariableTable())
    if read.error_column is not None:
        raise BasicSyntaxError(read.error_reason, line=1, column=read.error_column)
    return read.line


_BUILDER: Final = LineBuilder()
for _number, _keyword in enumerate(tokens.STATEMENTS):
    _STATEMENT_TOKEN[syntax.statement_rule_name(_keyword)] = _number
_STATEMENT_TOKEN["implied_let_statement"] = tokens.TOK_IMPLIED_LET
