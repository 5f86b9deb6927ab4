"""From tokenized lines back to text, exactly as Atari BASIC's LIST prints them.

Listing is two steps: :func:`decode_line` reads a line's bytes into the same typed
nodes the tokenizer builds, and :func:`render_line` prints them. LIST does not keep
the spacing that was typed: it prints the line number and a blank, each statement
keyword followed by a blank (an implied LET prints nothing), operator words (AND,
OR, NOT, TO, STEP, THEN, and GOTO/GOSUB after ON) with a blank on each side,
everything else without blanks, and numbers in the ROM's own format.
"""

from __future__ import annotations

from a8.basic import bcd, nodes, tokens
from a8.basic.errors import CorruptProgramError
from a8.basic.program import Program, ProgramLine

_LAST_TOKEN = tokens.FIRST_FUNCTION_TOKEN + len(tokens.FUNCTIONS) - 1
_RAW_STATEMENTS = (tokens.TOK_REM, tokens.TOK_DATA, tokens.TOK_SYNTAX_ERROR)


def decode_line(
    line: ProgramLine, names: tuple[str, ...], *, file: str = "<program>", offset: int = 0
) -> nodes.Line:
    """The typed nodes of a tokenized line (the end-of-line token is left out).

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
                if not bcd.is_decimal(value):
                    raise fail(f"not a BCD number: {value.hex(' ')}", position)
                elements.append(nodes.NumberConstant(value))
                position += bcd.SIZE
            elif byte == tokens.TOK_STRING:
                size = data[position] if position < end else 0
                if position + 1 + size > end:
                    raise fail("truncated string", position)
                elements.append(nodes.StringConstant(data[position + 1 : position + 1 + size]))
                position += 1 + size
            elif byte == tokens.TOK_EOL:
                if position != end:
                    raise fail("end-of-line token inside a statement", position - 1)
            elif tokens.TOK_COMMA <= byte <= _LAST_TOKEN:
                elements.append(nodes.Operator(byte))
            else:
                raise fail(f"unknown token ${byte:02X}", position - 1)
        statements.append(nodes.Statement(token, tuple(elements)))
    return nodes.Line(line.number, tuple(statements))


def render_line(line: nodes.Line) -> bytes:
    """The ATASCII text LIST prints for a decoded line (without the 0x9B)."""
    out = bytearray(str(line.number).encode("ascii") + b" ")
    for statement in line.statements:
        token = statement.token
        if token == tokens.TOK_SYNTAX_ERROR:
            out += b"ERROR- "
        elif token != tokens.TOK_IMPLIED_LET:
            out += tokens.STATEMENTS[token].encode("ascii") + b" "
        for element in statement.elements:
            if isinstance(element, nodes.Variable):
                out += element.name.encode("ascii")
            elif isinstance(element, nodes.NumberConstant):
                out += bcd.format_number(element.value).encode("ascii")
            elif isinstance(element, nodes.StringConstant):
                out += b'"' + element.data + b'"'
            elif isinstance(element, nodes.RawText):
                out += element.data
            elif element.token in tokens.WORD_OPERATORS:
                out += b" " + tokens.token_spelling(element.token).encode("ascii") + b" "
            else:
                out += tokens.token_spelling(element.token).encode("ascii")
    return bytes(out)


def list_lines(program: Program, *, file: str = "<program>") -> list[bytes]:
    """Every numbered line as LIST prints it (ATASCII, without line ends)."""
    listed = []
    offset = program.statement_table_offset()
    for line in program.lines:
        listed.append(render_line(decode_line(line, program.names, file=file, offset=offset)))
        offset += len(line.data)
    return listed
