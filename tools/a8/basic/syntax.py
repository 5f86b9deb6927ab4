"""The machine that reads a statement the way Atari BASIC revision C's ENTER does.

Genuine BASIC checks a statement by walking its syntax tables with a backtracking
machine (documented in "The Atari BASIC Source Book"); ``atari_basic.lark`` holds those
tables in lark's notation. Lark reads and checks the file; this module compiles its
rules into Python functions that behave as the ROM's machine does:

* alternatives are ordered choices: the first that matches wins, for good;
* a failed alternative puts the input position and the output back where the rule
  started, after noting how far it had read (the furthest such point is where BASIC
  marks an error);
* each rule called takes a level of the machine's stack, and 64 levels stop ENTER
  with ERROR 14, as does a line whose tokens pass 255 bytes;
* terminals are matched by the ROM's own means, reproduced here: the operator name
  table searched in order at the current position (blanks skipped first, except for
  the "(" of an array, which must follow the name at once), and the routines that
  read a variable name, a number (the operating system's conversion, a8.basic.bcd), a
  string constant, or the rest of the line.

Side effects happen as in the ROM, also on paths that later fail: a variable name
read by an alternative that fails stays in the variable table if the line is
accepted (genuine BASIC removes the new names of a line only when it rejects the
line), so the variable numbers in SAVE files come out the same.

The output of a statement is the list of terminals the machine kept, in order, each
with the text or value it stands for; :mod:`a8.basic.tokenizer` turns them into typed
nodes with a lark Transformer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final, NamedTuple

from lark import Lark

from a8.basic import bcd, tokens
from a8.basic.errors import BasicSyntaxError

EOL: Final = 0x9B
BLANK: Final = 0x20
#: The machine's stack holds 63 nested rules below the statement's own.
MAX_DEPTH: Final = 64
#: A line's tokens, its number and length bytes included, fill at most 255 bytes.
MAX_LINE_BYTES: Final = 255


class Terminal(NamedTuple):
    """How the syntax tables test for an operator-table word, and what they store.

    ``matches`` is the token the operator name table search must find (for
    :data:`ANY_NUMERIC_FUNCTION`, any token from ATN on); ``stores`` the token written
    (None: the one found); ``skips_blanks`` False for the "(" that must follow an
    array name at once.
    """

    matches: int
    stores: int | None = None
    skips_blanks: bool = True


ANY_NUMERIC_FUNCTION: Final = tokens.FIRST_NUMERIC_FUNCTION

#: The operator-table terminals of atari_basic.lark.
TERMINALS: Final[dict[str, Terminal]] = {
    "COMMA": Terminal(tokens.TOK_COMMA),
    "COLON": Terminal(tokens.TOK_COLON),
    "SEMICOLON": Terminal(tokens.TOK_SEMICOLON),
    "EOL": Terminal(tokens.TOK_EOL),
    "GOTO": Terminal(tokens.TOK_ON_GOTO),
    "GOSUB": Terminal(tokens.TOK_ON_GOSUB),
    "TO": Terminal(tokens.TOK_TO),
    "STEP": Terminal(tokens.TOK_STEP),
    "THEN": Terminal(tokens.TOK_THEN),
    "HASH": Terminal(tokens.TOK_HASH),
    "LE": Terminal(tokens.TOK_LE),
    "NE": Terminal(tokens.TOK_NE),
    "GE": Terminal(tokens.TOK_GE),
    "LT": Terminal(tokens.TOK_LT),
    "GT": Terminal(tokens.TOK_GT),
    "EQ": Terminal(tokens.TOK_EQ),
    "CARET": Terminal(tokens.TOK_CARET),
    "STAR": Terminal(tokens.TOK_STAR),
    "PLUS": Terminal(tokens.TOK_PLUS),
    "MINUS": Terminal(tokens.TOK_MINUS),
    "SLASH": Terminal(tokens.TOK_SLASH),
    "NOT": Terminal(tokens.TOK_NOT),
    "OR": Terminal(tokens.TOK_OR),
    "AND": Terminal(tokens.TOK_AND),
    "LPAREN": Terminal(tokens.TOK_OPEN_PAREN),
    "RPAREN": Terminal(tokens.TOK_CLOSE_PAREN),
    "STR": Terminal(tokens.FUNCTION_TOKEN["STR$"]),
    "CHR": Terminal(tokens.FUNCTION_TOKEN["CHR$"]),
    "USR": Terminal(tokens.FUNCTION_TOKEN["USR"]),
    "ASC": Terminal(tokens.FUNCTION_TOKEN["ASC"]),
    "VAL": Terminal(tokens.FUNCTION_TOKEN["VAL"]),
    "LEN": Terminal(tokens.FUNCTION_TOKEN["LEN"]),
    "ADR": Terminal(tokens.FUNCTION_TOKEN["ADR"]),
    "NUMERIC_FUNCTION": Terminal(ANY_NUMERIC_FUNCTION),
    "UNARY_PLUS": Terminal(tokens.TOK_PLUS, tokens.TOK_UNARY_PLUS),
    "UNARY_MINUS": Terminal(tokens.TOK_MINUS, tokens.TOK_UNARY_MINUS),
    "NUMERIC_ASSIGN": Terminal(tokens.TOK_EQ, tokens.TOK_ASSIGN_NUMBER),
    "STRING_ASSIGN": Terminal(tokens.TOK_EQ, tokens.TOK_ASSIGN_STRING),
    "FUNCTION_LPAREN": Terminal(tokens.TOK_OPEN_PAREN, tokens.TOK_FUNCTION_PAREN),
    "STRING_LPAREN": Terminal(tokens.TOK_OPEN_PAREN, tokens.TOK_STRING_PAREN),
    "DIM_STRING_LPAREN": Terminal(tokens.TOK_OPEN_PAREN, tokens.TOK_DIM_STRING_PAREN),
    "SUBSCRIPT_COMMA": Terminal(tokens.TOK_COMMA, tokens.TOK_ARRAY_COMMA),
    "STRING_LE": Terminal(tokens.TOK_LE, tokens.TOK_STRING_LE),
    "STRING_NE": Terminal(tokens.TOK_NE, tokens.TOK_STRING_NE),
    "STRING_GE": Terminal(tokens.TOK_GE, tokens.TOK_STRING_GE),
    "STRING_LT": Terminal(tokens.TOK_LT, tokens.TOK_STRING_LT),
    "STRING_GT": Terminal(tokens.TOK_GT, tokens.TOK_STRING_GT),
    "STRING_EQ": Terminal(tokens.TOK_EQ, tokens.TOK_STRING_EQ),
    "ARRAY_LPAREN": Terminal(tokens.TOK_OPEN_PAREN, tokens.TOK_ARRAY_PAREN, False),
    "DIM_ARRAY_LPAREN": Terminal(tokens.TOK_OPEN_PAREN, tokens.TOK_DIM_ARRAY_PAREN, False),
}

#: The terminals read by the ROM's own routines rather than the operator table.
ROUTINES: Final = (
    "NUMERIC_NAME",
    "STRING_NAME",
    "NUMBER",
    "STRING",
    "REST_OF_LINE",
    "STATEMENTS_FOLLOW",
)


class Kept(NamedTuple):
    """A terminal the machine kept: its name, its value (the spelling of an operator
    or function, a variable's name, a constant's stored bytes as Latin-1, the text of
    REM or DATA), and the index in the line where its text starts."""

    terminal: str
    value: str
    start: int


class EnterStops(BasicSyntaxError):
    """A line that makes genuine BASIC stop ENTER with an error (not a syntax error:
    BASIC does not store the line, and reads no further lines)."""


class _StatementsFollow(Exception):
    """THEN not followed by a line number: the IF statement ends here (the ROM resets
    its machine and starts reading a new statement)."""


# ------------------------------------------------------------------ table searches


def _first_character_index(
    names: tuple[bytes, ...], first: int
) -> dict[int, tuple[tuple[int, bytes], ...]]:
    """Entries by their first (seven-bit) character, in table order, with their number."""
    index: dict[int, list[tuple[int, bytes]]] = {}
    for number, name in enumerate(names):
        index.setdefault(name[0], []).append((first + number, name))
    return {char: tuple(entries) for char, entries in index.items()}


_OPERATOR_INDEX: Final = _first_character_index(tokens.OPERATOR_NAMES, tokens.FIRST_OPERATOR)
_STATEMENT_NAMES: Final = tuple(name.encode("ascii") for name in tokens.STATEMENTS)
_STATEMENT_INDEX: Final = _first_character_index(_STATEMENT_NAMES, 0)


def search_operator(text: bytes, at: int) -> tuple[int, int] | None:
    """The first operator name table entry that the text at ``at`` starts with (seven
    bits compared), as (token, end), or None."""
    if at >= len(text):
        return None
    for token, name in _OPERATOR_INDEX.get(text[at] & 0x7F, ()):
        end = at + len(name)
        if all((text[at + i] & 0x7F if at + i < len(text) else 0) == c for i, c in enumerate(name)):
            return token, end
    return None


def search_statement(text: bytes, at: int) -> tuple[int, int]:
    """The statement keyword at ``at`` as (token, end): the first table entry whose
    characters the text matches, a ``.`` standing for the rest of the entry (so a
    lone ``.`` is REM). No match is the implied LET, ending where it started."""
    first = text[at] & 0x7F
    if first == ord("."):
        return tokens.TOK_REM, at + 1
    for token, name in _STATEMENT_INDEX.get(first, ()):
        position = at
        for char in name:
            typed = text[position] & 0x7F if position < len(text) else 0
            position += 1
            if typed == ord("."):
                return token, position
            if typed != char:
                break
        else:
            return token, position
    return tokens.TOK_IMPLIED_LET, at


def skip_blanks(text: bytes, at: int) -> int:
    while at < len(text) and text[at] == BLANK:
        at += 1
    return at


# ------------------------------------------------------------------------ variables


class VariableTable:
    """Variable names in order of creation; a name's index is its token - 0x80.

    Names end with ``$`` (strings) or ``(`` (arrays), as in BASIC's name table.
    """

    def __init__(self, names: list[str] | None = None) -> None:
        self.names: list[str] = list(names or [])
        self._index = {name: index for index, name in enumerate(self.names)}

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str, column: int = 0) -> int:
        """The index of ``name``, adding it if new; the 129th name stops ENTER
        (``column`` is where the name stands, for the error)."""
        found = self._index.get(name)
        if found is not None:
            return found
        if len(self.names) >= tokens.MAX_VARIABLES:
            raise EnterStops(
                f"too many variables: {name} would be the {tokens.MAX_VARIABLES + 1}th "
                "(genuine BASIC stops ENTER with ERROR 4)",
                column=column,
            )
        self._index[name] = len(self.names)
        self.names.append(name)
        return len(self.names) - 1

    def truncate(self, count: int) -> None:
        """Forget the names created after the first ``count`` (a rejected line's)."""
        for name in self.names[count:]:
            del self._index[name]
        del self.names[count:]


# ---------------------------------------------------------------------- the machine


@dataclass
class LineState:
    """What the machine works on while it reads one line (the ROM's registers).

    ``text`` is the line as BASIC holds it, ending with 0x9B; ``position`` the input
    index (CIX), ``size`` the bytes the line's tokens take so far (COX),
    ``furthest`` the furthest position a failed attempt reached (MAXCIX), ``depth``
    the levels in use on the machine's stack, ``kept`` the terminals kept so far.
    """

    text: bytes
    variables: VariableTable
    position: int = 0
    size: int = 0
    furthest: int = 0
    depth: int = 0

    def __post_init__(self) -> None:
        self.kept: list[Kept] = []
        self._operators: dict[int, tuple[int, int] | None] = {}

    def operator_at(self, at: int) -> tuple[int, int] | None:
        """The operator table search at ``at``, done once per position (as the ROM
        also remembers its last search)."""
        try:
            return self._operators[at]
        except KeyError:
            found = self._operators[at] = search_operator(self.text, at)
            return found

    def store(self, count: int = 1) -> None:
        """Count ``count`` bytes written to the output, each checked like the ROM's."""
        if self.size + count > MAX_LINE_BYTES:
            raise EnterStops(
                "line too long: its tokens pass 255 bytes (genuine BASIC stops ENTER "
                "with ERROR 14)",
                column=self.position + 1,
            )
        self.size += count


Matcher = Callable[[LineState], bool]


class Machine:
    """The compiled syntax tables: one matcher function per rule."""

    def __init__(self, grammar: str) -> None:
        statements = re.findall(r"^(\w+_statement):", grammar, re.MULTILINE)
        lark = Lark(grammar, parser=None, lexer="basic", start=statements)
        alternatives: dict[str, list[list[tuple[bool, str]]]] = {}
        for rule in sorted(lark.rules, key=lambda rule: rule.order):
            items = [(symbol.is_term, str(symbol.name)) for symbol in rule.expansion]
            alternatives.setdefault(str(rule.origin.name), []).append(items)
        expected = [statement_rule_name(keyword) for keyword in tokens.STATEMENTS]
        expected.append("implied_let_statement")
        if statements != expected:
            raise ValueError(f"atari_basic.lark: statement rules must be {expected}")
        # Each rule calls the others' matchers directly: compile every rule with its
        # calls left as names, then put the matchers in their place.
        pending: list[list[Matcher | str]] = []
        self.rules: dict[str, Matcher] = {
            name: _compile_rule(alts, pending) for name, alts in alternatives.items()
        }
        for sequence in pending:
            for index, item in enumerate(sequence):
                if isinstance(item, str):
                    sequence[index] = self.rules[item]
        #: The syntax of each statement token.
        self.statements: tuple[Matcher, ...] = tuple(self.rules[name] for name in statements)
        self.statement_rules: tuple[str, ...] = tuple(statements)


def _too_complex(state: LineState) -> EnterStops:
    return EnterStops(
        "statement too complex: it nests more than the 63 levels genuine BASIC's syntax "
        "stack holds (it stops ENTER with ERROR 14)",
        column=state.position + 1,
    )


def _compile_rule(
    alternatives: list[list[tuple[bool, str]]], pending: list[list[Matcher | str]]
) -> Matcher:
    """A rule's matcher. Called, it takes a level of the machine's stack (the
    statement's own rule runs at level 0). ``pending`` receives the item lists whose
    rule names the machine replaces with matchers once all are compiled."""
    if all(len(items) == 1 and items[0][0] and items[0][1] in TERMINALS for items in alternatives):
        names = [items[0][1] for items in alternatives]
        if all(TERMINALS[name].skips_blanks for name in names):
            return _terminal_choice(names)
    compiled: list[list[Matcher | str]] = []
    for items in alternatives:
        sequence: list[Matcher | str] = [
            _terminal(name) if is_terminal else name for is_terminal, name in items
        ]
        compiled.append(sequence)
        pending.append(sequence)
    last = len(compiled) - 1

    def rule(state: LineState) -> bool:
        depth = state.depth = state.depth + 1
        if depth >= MAX_DEPTH:
            raise _too_complex(state)
        start, size, kept = state.position, state.size, len(state.kept)
        for number, sequence in enumerate(compiled):
            for item in sequence:
                if not item(state):  # type: ignore[operator]
                    break
            else:
                state.depth = depth - 1
                return True
            if number < last:  # the ROM's OR: note how far, then go back
                if state.position > state.furthest:
                    state.furthest = state.position
                state.position, state.size = start, size
                del state.kept[kept:]
        state.depth = depth - 1
        return False

    return rule


def _terminal_choice(names: list[str]) -> Matcher:
    """A rule whose alternatives are single operator-table words (``eos``, ``operator``
    ...). One search decides it, since at most one of them can be the first entry
    found; a failure notes the position after the blanks as the ROM's ORs do."""
    stored: dict[int, tuple[str, int | None]] = {}
    for name in names:
        wanted, stores, _ = TERMINALS[name]
        if wanted == ANY_NUMERIC_FUNCTION:
            for token in range(wanted, tokens.LAST_TOKEN + 1):
                stored.setdefault(token, (name, stores))
        else:
            stored.setdefault(wanted, (name, stores))
    alternatives = len(names) > 1

    def choice(state: LineState) -> bool:
        depth = state.depth + 1
        if depth >= MAX_DEPTH:
            raise _too_complex(state)
        text = state.text
        at = state.position
        while text[at] == BLANK:
            at += 1
        state.position = at
        found = state.operator_at(at)
        if found is not None and found[0] in stored:
            token, end = found
            state.store()
            state.kept.append(Kept(stored[token][0], _SPELLING[token], at))
            state.position = end
            return True
        if alternatives and at > state.furthest:
            state.furthest = at
        return False

    return choice


_SPELLING: Final = {
    token: tokens.operator_name(token).decode("latin-1")
    for token in range(tokens.FIRST_OPERATOR, tokens.LAST_TOKEN + 1)
}


def statement_rule_name(keyword: str) -> str:
    """The rule of a statement keyword in atari_basic.lark."""
    special = {"?": "question_mark", "GO TO": "go_to"}
    return special.get(keyword, keyword.lower()) + "_statement"


def _terminal(name: str) -> Matcher:
    if name in TERMINALS:
        return _operator_terminal(name, TERMINALS[name])
    routines: dict[str, Matcher] = {
        "NUMERIC_NAME": _numeric_name,
        "STRING_NAME": _string_name,
        "NUMBER": _number,
        "STRING": _string,
        "REST_OF_LINE": _rest_of_line,
        "STATEMENTS_FOLLOW": _statements_follow,
    }
    if name not in routines:
        raise ValueError(f"atari_basic.lark: unknown terminal {name}")
    return routines[name]


def _operator_terminal(name: str, terminal: Terminal) -> Matcher:
    wanted, stores, skips = terminal

    def match(state: LineState) -> bool:
        at = state.position
        if skips:
            text = state.text
            while text[at] == BLANK:
                at += 1
            state.position = at
        found = state.operator_at(at)
        if found is None:
            return False
        token, end = found
        if token != wanted and not (wanted == ANY_NUMERIC_FUNCTION and token >= wanted):
            return False
        state.store()
        state.kept.append(Kept(name, _SPELLING[token], at))
        state.position = end
        return True

    return match


def _variable(state: LineState, string: bool) -> bool:
    """The ROM's variable-name routine, for a numeric name or (``string``) a string's."""
    text = state.text
    start = state.position = skip_blanks(text, state.position)
    if not 0x41 <= text[start] <= 0x5A:  # A-Z
        return False
    reserved = state.operator_at(start)
    if reserved is not None and text[reserved[1]] < 0x30:  # "PEEK (" is no variable
        return False
    end = start + 1
    while 0x41 <= text[end] <= 0x5A or 0x30 <= text[end] <= 0x39:
        end += 1
    after = text[end]
    if (after == ord("$")) != string:
        state.position = end  # the ROM stops on the character that does not fit
        return False
    array = not string and after == ord("(")
    name = text[start : end + 1 if string or array else end].decode("latin-1")
    state.variables.index(name, start + 1)
    state.store()
    state.kept.append(Kept("STRING_NAME" if string else "NUMERIC_NAME", name, start))
    state.position = end + (1 if string else 0)  # an array's "(" is read next
    return True


def _numeric_name(state: LineState) -> bool:
    return _variable(state, string=False)


def _string_name(state: LineState) -> bool:
    return _variable(state, string=True)


def _number(state: LineState) -> bool:
    """A constant, converted by the OS routine; the ROM stores the constant's token,
    then its six bytes without checking the line's length."""
    at = state.position = skip_blanks(state.text, state.position)
    converted = bcd.afp(state.text, at)
    if converted is None:
        return False
    value, end = converted
    state.store()
    if state.size + bcd.SIZE > MAX_LINE_BYTES:
        raise EnterStops(
            "line too long: a numeric constant runs past byte 255 of the tokenized line, "
            "where genuine BASIC writes it over the start of the line (a corrupt line)",
            column=at + 1,
        )
    state.size += bcd.SIZE
    state.kept.append(Kept("NUMBER", value.decode("latin-1"), at))
    state.position = end
    return True


def _string(state: LineState) -> bool:
    """A string constant: '"', then any bytes up to '"' or the end of the line."""
    text = state.text
    at = state.position = skip_blanks(text, state.position)
    if text[at] != ord('"'):
        return False
    end = at + 1
    while text[end] not in (EOL, 0x22):
        end += 1
    state.store(2 + end - at - 1)
    state.kept.append(Kept("STRING", text[at + 1 : end].decode("latin-1"), at))
    state.position = end + (1 if text[end] == 0x22 else 0)
    return True


def _rest_of_line(state: LineState) -> bool:
    """REM and DATA: the text up to the end of the line is stored as typed."""
    text = state.text
    end = text.index(EOL, state.position)
    state.store(end + 1 - state.position)
    state.kept.append(
        Kept("REST_OF_LINE", text[state.position : end].decode("latin-1"), state.position)
    )
    state.position = end + 1
    return True


def _statements_follow(state: LineState) -> bool:
    raise _StatementsFollow


# --------------------------------------------------------------------- statements


class StatementResult(NamedTuple):
    """How a statement went: ``kept`` its terminals (None: a syntax error) and
    whether it was an IF whose THEN is followed by statements."""

    kept: list[Kept] | None
    statements_follow: bool


def read_statement(machine: Machine, token: int, state: LineState) -> StatementResult:
    """Run the syntax of statement ``token`` from ``state.position`` (the keyword
    and the blanks after it already read)."""
    state.kept = []
    state.depth = -1  # the statement's rule runs at level 0
    try:
        matched = machine.statements[token](state)
    except _StatementsFollow:
        return StatementResult(state.kept, True)
    return StatementResult(state.kept if matched else None, False)


@cache
def machine() -> Machine:
    """The machine of atari_basic.lark, built once per process."""
    grammar = resources.files("a8.basic").joinpath("atari_basic.lark").read_text("utf-8")
    return Machine(grammar)
