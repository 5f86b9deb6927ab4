"""The two conversions users ask for: listing -> SAVE file, and SAVE file -> listing.

Tokenizing follows ENTER: lines are read in file order, a line replaces an earlier
line with the same number, a bare line number deletes the line, and variables are
numbered in the order they first appear (deleting a line never removes one). The
SAVE file ends with the immediate-mode line holding the SAVE command, as if the
user had typed ``SAVE "D:PROGRAM.BAS"`` (or the command given).
"""

from __future__ import annotations

from typing import Final

from a8.basic import atascii
from a8.basic.atascii import Encoding
from a8.basic.encoder import VariableTable, encode_line
from a8.basic.errors import BasicSyntaxError
from a8.basic.lister import list_lines
from a8.basic.nodes import Line
from a8.basic.program import IMMEDIATE_LINE, Program, ProgramLine
from a8.basic.tokenizer import parse_line, parse_listing

DEFAULT_SAVE_COMMAND: Final = 'SAVE "D:PROGRAM.BAS"'


def tokenize(
    listing: str | bytes,
    *,
    encoding: Encoding | None = None,
    file: str = "<listing>",
    save_command: str = DEFAULT_SAVE_COMMAND,
) -> bytes:
    """The SAVE file of a listing.

    ``listing`` is UTF-8 text (a str, or bytes in UTF-8) or ATASCII bytes with 0x9B
    line ends; ``encoding`` None detects which. Raises :class:`BasicSyntaxError`
    (``FILE:LINE:COLUMN: reason``) for the first line BASIC would reject; in UTF-8
    text the column counts characters of the text as written.
    """
    if isinstance(listing, bytes) and (encoding or atascii.detect(listing)) is Encoding.ATASCII:
        lines = atascii.split_lines(listing, Encoding.ATASCII)
        return build_program(lines, file=file, save_command=save_command).to_bytes()
    text = listing if isinstance(listing, str) else atascii.decode_utf8(listing, where=file)
    rows = atascii.text_rows(text)
    lines = [atascii.from_text(row, where=f"{file}:{n}") for n, row in enumerate(rows, start=1)]
    try:
        return build_program(lines, file=file, save_command=save_command).to_bytes()
    except BasicSyntaxError as error:
        if error.file != file or not 1 <= error.line <= len(rows):
            raise  # not about a listing line (the save command)
        column = atascii.text_column(rows[error.line - 1], error.column)
        raise BasicSyntaxError(error.reason, file=file, line=error.line, column=column) from None


def build_program(
    lines: list[bytes], *, file: str = "<listing>", save_command: str = DEFAULT_SAVE_COMMAND
) -> Program:
    """A fresh program from listing lines in ATASCII (ENTER semantics, see module)."""
    variables = VariableTable()
    numbered: dict[int, bytes] = {}

    def enter(line: Line, row: int) -> None:
        try:
            encoded = encode_line(line, variables)
        except BasicSyntaxError as error:
            column = error.column or 1  # a line too long is reported at its start
            raise BasicSyntaxError(error.reason, file=file, line=row, column=column) from None
        if line.statements:
            numbered[line.number] = encoded
        else:
            numbered.pop(line.number, None)

    try:
        parse_listing([raw.decode("latin-1") for raw in lines], enter)
    except BasicSyntaxError as error:
        raise error.in_file(file) from None
    immediate = _immediate_line(save_command, variables)
    program_lines = [ProgramLine(number, numbered[number]) for number in sorted(numbered)]
    return Program.fresh(variables.names, program_lines, immediate)


def _immediate_line(command: str, variables: VariableTable) -> bytes:
    """Line 32768 holding ``command``; errors name the place in the command itself."""
    prefix = "0 "  # parsed as a numbered line, whose number is then replaced
    try:
        line = parse_line(prefix + command)
        if not line.statements:
            raise BasicSyntaxError("no statement", column=len(prefix) + 1)
        encoded = encode_line(line, variables)
    except BasicSyntaxError as error:
        column = max(error.column - len(prefix), 1)
        raise BasicSyntaxError(error.reason, file="save command", line=1, column=column) from None
    return IMMEDIATE_LINE.to_bytes(2, "little") + encoded[2:]


def list_program(
    program: bytes, *, file: str = "<program>", encoding: Encoding = Encoding.UTF8
) -> bytes | str:
    """The listing LIST prints for a SAVE file.

    With the default UTF-8 encoding the result is text (str) with LF line ends;
    with ATASCII it is bytes with 0x9B line ends, exactly what ``LIST "D:X"`` writes.
    """
    lines = list_lines(Program.from_bytes(program, file=file), file=file)
    if encoding is Encoding.ATASCII:
        return atascii.join_lines(lines, Encoding.ATASCII)
    return "".join(atascii.to_text(line) + "\n" for line in lines)
