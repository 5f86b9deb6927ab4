"""From tokenized lines back to text, exactly as Atari BASIC revision C's LIST prints them.

LIST walks a line's bytes token by token and prints as it goes; :func:`list_line`
does the same, so that even odd lines (from other tools, or ERROR- lines) come out as
genuine LIST prints them:

* the line number and a blank; each statement's keyword from the statement name
  table and a blank (nothing for an assignment without LET; ``ERROR-`` and three
  blanks for a line BASIC could not read);
* REM, DATA and ERROR- statements: their stored bytes as they are (ending with the
  0x9B that ends the line);
* otherwise token by token: a variable's name (and the "(" of an array is not
  printed again), a string constant between quotes, a numeric constant as the OS's
  float-to-ASCII routine prints it (a8.basic.bcd.fasc), a function's name, an
  operator word (AND, OR, NOT, TO, STEP, THEN, GOTO, GOSUB) with a blank on each side,
  any other operator as its name. The end-of-line token prints 0x9B: it is what ends
  a listed line, so a line stored without one runs into the next.

:func:`decode_line` reads a line into the typed nodes the tokenizer builds.
"""

from __future__ import annotations

from collections.abc import Callable

from a8.basic import bcd, nodes, tokens
from a8.basic.dialects import foreign_token
from a8.basic.errors import CorruptProgramError
from a8.basic.program import Program, ProgramLine

_RAW_STATEMENTS = (tokens.TOK_REM, tokens.TOK_DATA, tokens.TOK_SYNTAX_ERROR)
_EOL = 0x9B


class _StatementEnd(Exception):
    """LIST reached the end of a statement (where it stops, even inside a constant)."""


def _printed(name: bytes) -> bytes:
    """A name table entry as LIST prints it (see tokens.listed_name), here for text
    whose last character's bit 7 is already cleared."""
    out = bytearray(name[:-1].replace(b"\x00", b""))
    last = name[-1:] if name else b""
    if last == b"\x1b":  # stored as 0x9B, printed as such
        out += b"\x9b"
    elif last != b"\x00":
        out += last
    return bytes(out)


def _statement_name(token: int) -> bytes:
    if token == tokens.TOK_SYNTAX_ERROR:
        return tokens.SYNTAX_ERROR_NAME.encode("ascii")
    return tokens.STATEMENTS[token].encode("ascii")


def variable_name(names: tuple[str, ...], after_names: bytes, number: int) -> bytes | None:
    """The name LIST finds for variable ``number``: it counts names from the start of
    the name table, and past its end goes on counting in the bytes after it (a
    name ends with a byte that has bit 7 set). Seven-bit characters; None when the
    count runs past ``after_names``."""
    if number < len(names):
        return names[number].encode("latin-1")
    start = 0
    for _ in range(number - len(names)):
        end = next((at for at in range(start, len(after_names)) if after_names[at] & 0x80), None)
        if end is None:
            return None
        start = end + 1
    end = next((at for at in range(start, len(after_names)) if after_names[at] & 0x80), None)
    if end is None:
        return None
    return bytes(byte & 0x7F for byte in after_names[start : end + 1])


def list_line(
    line: ProgramLine,
    names: tuple[str, ...],
    *,
    following: bytes = b"",
    after_names: bytes = b"",
    fail: Callable[[str, int], CorruptProgramError] | None = None,
) -> bytes:
    """What LIST prints for a tokenized line (ATASCII; normally ending with 0x9B).

    ``following`` are the bytes after the line in the program (LIST reads a numeric
    constant's six bytes even past the end of its statement); ``after_names`` the
    bytes after the variable name table (see :func:`variable_name`); ``fail`` makes
    the error for a token LIST cannot print sensibly, given the reason and the offset
    in the line.
    """

    def stop(reason: str, at: int) -> CorruptProgramError:
        if fail is not None:
            return fail(reason, at)
        return CorruptProgramError(f"line {line.number}: {reason}", offset=at)

    memory = line.data + following
    length = memory[2]
    out = bytearray(str(line.number).encode("ascii") + b" ")
    position = 3
    while True:  # LIST's loop over the statements (program.py checked it ends)
        end = memory[position]
        _list_statement(memory, position + 1, end, (names, after_names), out, stop)
        position = end
        if position >= length:
            return bytes(out)


def _list_statement(
    memory: bytes,
    index: int,
    end: int,
    names: tuple[tuple[str, ...], bytes],
    out: bytearray,
    stop: Callable[[str, int], CorruptProgramError],
) -> None:
    """One statement, from its token at ``index`` to ``end`` (LIST's @LSTMT)."""

    def token_at(at: int) -> int:
        if at >= end:
            raise _StatementEnd
        return memory[at]

    try:
        token = token_at(index)
        if token > tokens.TOK_SYNTAX_ERROR:
            raise stop(foreign_token(token, statement=True), index)
        if token != tokens.TOK_IMPLIED_LET:
            out += _statement_name(token) + b" "
        if token in _RAW_STATEMENTS:
            while True:
                index += 1
                out.append(token_at(index))
        while True:
            index += 1
            token = token_at(index)
            if token >= tokens.FIRST_VARIABLE_TOKEN:
                name = variable_name(*names, token - tokens.FIRST_VARIABLE_TOKEN)
                if name is None:
                    raise stop(f"variable ${token:02X} is not in the name table", index)
                out += _printed(name)
                if name.endswith(b"("):  # the array's "(" token is not printed
                    index += 1
                    token_at(index)
            elif token == tokens.TOK_STRING:
                index += 1
                size = token_at(index)
                out += b'"'
                for _ in range(size):
                    index += 1
                    out.append(token_at(index))
                out += b'"'
            elif token > tokens.TOK_STRING:
                if token > tokens.LAST_TOKEN:
                    raise stop(foreign_token(token, statement=False), index)
                name = tokens.operator_name(token)
                if token >= tokens.FIRST_FUNCTION_TOKEN or not 0x41 <= name[0] <= 0x5A:
                    out += tokens.listed_name(name)
                else:
                    out += b" " + name + b" "
            else:  # 0x0E, and any lower token: LIST takes it for a numeric constant
                value = memory[index + 1 : index + 1 + bcd.SIZE]
                if len(value) < bcd.SIZE:
                    raise stop("numeric constant cut off by the end of the program", index)
                out += bcd.fasc(value)
                index += bcd.SIZE
    except _StatementEnd:
        return


def list_program_lines(program: Program, *, file: str = "<program>") -> list[tuple[int, bytes]]:
    """Every numbered line and what LIST prints for it (ATASCII).

    A token Atari BASIC does not have (a Turbo-BASIC XL or BASIC XL/XE program) is an
    error that says what the file is (a8.basic.dialects)."""
    start = program.statement_table_offset()
    table = program.statements_memory or (
        b"".join(line.data for line in program.lines) + program.immediate
    )
    listed: list[tuple[int, bytes]] = []
    at = 0
    for line in program.lines:
        fail = _locator(file, line.number, start + at)
        text = list_line(
            line,
            program.names,
            following=table[at + len(line.data) :],
            after_names=program.after_names,
            fail=fail,
        )
        listed.append((line.number, text))
        at += line.data[2]  # the next line starts where the length byte says
    return listed


def _locator(file: str, number: int, offset: int) -> Callable[[str, int], CorruptProgramError]:
    """Makes the error for a place in line ``number``, which starts at ``offset``."""

    def fail(reason: str, index: int) -> CorruptProgramError:
        return CorruptProgramError(f"line {number}: {reason}", file=file, offset=offset + index)

    return fail


def decode_line(
    line: ProgramLine, names: tuple[str, ...], *, file: str = "<program>", offset: int = 0
) -> nodes.Line:
    """The typed nodes of a tokenized line (every token, the end-of-line token too).

    ``offset`` is where the line starts in the file, so errors name the right byte.
    """
    data = line.data
    length = data[2]
    position = 3
    statements: list[nodes.Statement] = []

    def fail(reason: str, at: int) -> CorruptProgramError:
        return CorruptProgramError(f"line {line.number}: {reason}", file=file, offset=offset + at)

    while position < length:
        end = data[position]
        if position + 1 >= end:
            raise fail("empty statement", position)
        token = data[position + 1]
        position += 2
        elements: list[nodes.Element] = []
        if token in _RAW_STATEMENTS:
            text = data[position:end]
            elements.append(nodes.RawText(text[:-1] if text.endswith(b"\x9b") else text))
            position = end
        elif token > tokens.TOK_IMPLIED_LET:
            raise fail(f"unknown statement token ${token:02X}", position - 1)
        while position < end:
            byte = data[position]
            position += 1
            if byte >= tokens.FIRST_VARIABLE_TOKEN:
                index = byte - tokens.FIRST_VARIABLE_TOKEN
                if index >= len(names):
                    raise fail(f"variable ${byte:02X} is not in the name table", position - 1)
                elements.append(nodes.Variable(names[index]))
            elif byte == tokens.TOK_NUMBER:
                value = data[position : position + bcd.SIZE]
                if position + bcd.SIZE > end:
                    raise fail("truncated number", position)
                elements.append(nodes.NumberConstant(value))
                position += bcd.SIZE
            elif byte == tokens.TOK_STRING:
                size = data[position] if position < end else 0
                if position + 1 + size > end:
                    raise fail("truncated string", position)
                elements.append(nodes.StringConstant(data[position + 1 : position + 1 + size]))
                position += 1 + size
            elif tokens.TOK_COMMA <= byte <= tokens.LAST_TOKEN:
                elements.append(nodes.Operator(byte))
            else:
                raise fail(f"unknown token ${byte:02X}", position - 1)
        statements.append(nodes.Statement(token, tuple(elements)))
    return nodes.Line(line.number, tuple(statements))
