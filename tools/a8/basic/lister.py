"""From tokenized lines back to text, exactly as Atari BASIC's LIST prints them.

LIST does not keep the spacing that was typed: it prints the line number and a
blank, each statement keyword followed by a blank (an implied LET prints nothing),
operator words (AND, OR, NOT, TO, STEP, THEN, and GOTO/GOSUB after ON) with a blank
on each side, everything else without blanks, and numbers in the ROM's own format.
"""

from __future__ import annotations

from a8.basic import bcd, tokens
from a8.basic.errors import CorruptProgramError
from a8.basic.program import Program, ProgramLine


def list_line(line: ProgramLine, names: tuple[str, ...], *, file: str = "<program>") -> bytes:
    """The ATASCII text LIST prints for one line (without the 0x9B)."""
    data = line.data
    out = bytearray(str(line.number).encode("ascii"))
    out += b" "
    position = 3
    length = data[2]

    def fail(reason: str, at: int) -> CorruptProgramError:
        return CorruptProgramError(f"line {line.number}: {reason}", file=file, offset=at)

    while position < length:
        end = data[position]
        token = data[position + 1]
        position += 2
        if token in (tokens.TOK_REM, tokens.TOK_DATA, tokens.TOK_SYNTAX_ERROR):
            keyword = "ERROR-" if token == tokens.TOK_SYNTAX_ERROR else tokens.STATEMENTS[token]
            out += keyword.encode("ascii") + b" "
            text = data[position:end]
            out += text[:-1] if text.endswith(b"\x9b") else text
            position = end
            continue
        if token == tokens.TOK_IMPLIED_LET:
            pass
        elif token < len(tokens.STATEMENTS):
            out += tokens.STATEMENTS[token].encode("ascii") + b" "
        else:
            raise fail(f"unknown statement token ${token:02X}", position - 1)
        while position < end:
            byte = data[position]
            position += 1
            if byte >= tokens.FIRST_VARIABLE_TOKEN:
                index = byte - tokens.FIRST_VARIABLE_TOKEN
                if index >= len(names):
                    raise fail(f"variable ${byte:02X} is not in the name table", position - 1)
                out += names[index].encode("ascii")
            elif byte == tokens.TOK_NUMBER:
                value = data[position : position + bcd.SIZE]
                if len(value) < bcd.SIZE or position + bcd.SIZE > end:
                    raise fail("truncated number", position)
                try:
                    out += bcd.format_number(value).encode("ascii")
                except ValueError as error:
                    raise fail(str(error), position) from None
                position += bcd.SIZE
            elif byte == tokens.TOK_STRING:
                size = data[position] if position < end else 0
                text = data[position + 1 : position + 1 + size]
                if position + 1 + size > end:
                    raise fail("truncated string", position)
                out += b'"' + text + b'"'
                position += 1 + size
            elif byte in tokens.WORD_OPERATORS:
                out += b" " + tokens.token_spelling(byte).encode("ascii") + b" "
            elif (
                tokens.TOK_COMMA <= byte <= tokens.FIRST_FUNCTION_TOKEN + len(tokens.FUNCTIONS) - 1
            ):
                out += tokens.token_spelling(byte).encode("ascii")
            else:
                raise fail(f"unknown token ${byte:02X}", position - 1)
    return bytes(out)


def list_lines(program: Program, *, file: str = "<program>") -> list[bytes]:
    """Every numbered line as LIST prints it (ATASCII, without line ends)."""
    return [list_line(line, program.names, file=file) for line in program.lines]
