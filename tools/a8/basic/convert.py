"""The two conversions users ask for: listing -> SAVE file, and SAVE file -> listing.

Tokenizing follows ENTER: lines are read in file order, a line replaces an earlier
line with the same number, a bare line number deletes the line, and variables are
numbered in the order BASIC creates them (deleting a line never removes one). The
SAVE file ends with the immediate-mode line holding the SAVE command, as if the
user had typed ``SAVE "D:PROGRAM.BAS"`` (or the command given).

A line genuine BASIC rejects is an error (``FILE:LINE:COLUMN: reason``, the column
being where BASIC marks it), unless ``keep_errors``: then it is stored as BASIC stores
it, an ``ERROR-`` line, and reported as a warning. Every rejected line is reported,
up to :data:`MAX_REJECTED_LINES` (:class:`~a8.basic.errors.RejectedLines`), not
only the first; a file that is no listing at all (a SAVE file, a disk image, a PNG)
is named for what it is (:mod:`a8.file_kinds`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from a8.basic import atascii
from a8.basic.atascii import Encoding
from a8.basic.encoder import encode_line
from a8.basic.errors import BasicSyntaxError, NotAListingError, RejectedLines
from a8.basic.lister import list_program_lines
from a8.basic.program import VALUE_SIZE, VNTP_ADDRESS, Program, ProgramLine, variable_type
from a8.basic.syntax import VariableTable
from a8.basic.tokenizer import IMMEDIATE, MAX_INPUT_LINE, read_line
from a8.file_kinds import FileKind, kind_of

DEFAULT_SAVE_COMMAND: Final = 'SAVE "D:PROGRAM.BAS"'
#: The longest file read as a listing. Every line number of a program (0-32767) at
#: ENTER's longest line is 8 MB; twice that leaves room for lines entered again.
LARGEST_LISTING: Final = 16 * 2**20
#: The last address a SAVE file's header can name (its pointers are 16-bit).
_TOP: Final = 0xFFFF

#: The most rejected lines a listing's error reports (the rest are counted as "more").
MAX_REJECTED_LINES: Final = 20

#: Receives each warning, one line of text.
Warn = Callable[[str], None]


def tokenize(
    listing: str | bytes,
    *,
    encoding: Encoding | None = None,
    file: str = "<listing>",
    save_command: str = DEFAULT_SAVE_COMMAND,
    keep_errors: bool = False,
    warn: Warn | None = None,
) -> bytes:
    """The SAVE file of a listing.

    ``listing`` is UTF-8 text (a str, or bytes in UTF-8) or ATASCII bytes with 0x9B
    line ends; ``encoding`` None detects which. Raises :class:`BasicSyntaxError`
    (``FILE:LINE:COLUMN: reason``) for the first line BASIC would reject; in UTF-8
    text the column counts characters of the text as written. ``save_command`` is
    given in the UTF-8 spelling. With ``keep_errors`` rejected lines are kept as
    ``ERROR-`` lines and each is reported to ``warn``.
    """
    command = _command_bytes(save_command)
    if isinstance(listing, bytes):
        kind = kind_of(listing)
        if kind is not None and kind is not FileKind.LISTING:
            raise NotAListingError(f"{file}: not a listing: it is {kind.said()}")
    if isinstance(listing, bytes) and (encoding or atascii.detect(listing)) is Encoding.ATASCII:
        lines = atascii.split_lines(listing, Encoding.ATASCII)
        rows: list[str] | None = None
    else:
        text = listing if isinstance(listing, str) else atascii.decode_utf8(listing, where=file)
        rows = atascii.text_rows(text)
        lines = [atascii.from_text(row, where=f"{file}:{n}") for n, row in enumerate(rows, 1)]

    def place(row: int, column: int) -> int:
        """The column as the user sees it: in UTF-8 text, characters as written."""
        if rows is None or not 1 <= row <= len(rows):
            return column
        return atascii.text_column(rows[row - 1], column)

    def report(row: int, column: int, reason: str) -> None:
        if warn is not None:
            warn(f"{file}:{row}:{place(row, column)}: warning: {reason}; kept as an ERROR- line")

    def placed(error: BasicSyntaxError) -> BasicSyntaxError:
        if error.file != file or not 1 <= error.line <= len(lines):
            return error  # not about a listing line (the save command)
        column = place(error.line, error.column)
        return BasicSyntaxError(error.reason, file=file, line=error.line, column=column)

    try:
        program = build_program(
            lines, file=file, save_command=command, keep_errors=keep_errors, on_error=report
        )
    except RejectedLines as rejected:
        raise RejectedLines(tuple(map(placed, rejected.errors)), rejected.more) from None
    except BasicSyntaxError as error:
        raise placed(error) from None
    return program.to_bytes()


def _command_bytes(command: str) -> bytes:
    """The ATASCII bytes of a command given in the UTF-8 spelling of listings (a
    character with no ATASCII spelling is an :class:`EncodingError` naming its column)."""
    return atascii.from_text(command, where="save command:1")


#: Called with the listing line, the column and the reason of each rejected line kept.
OnError = Callable[[int, int, str], None]


def build_program(
    lines: list[bytes],
    *,
    file: str = "<listing>",
    save_command: bytes = DEFAULT_SAVE_COMMAND.encode(),
    keep_errors: bool = False,
    on_error: OnError | None = None,
) -> Program:
    """A fresh program from listing lines in ATASCII (ENTER semantics, see module).

    Without ``keep_errors``, each line BASIC rejects is noted and the reading goes
    on as ENTER's does (the line kept as an ``ERROR-`` line, its variables as BASIC
    leaves them), so the later lines get the verdicts ENTER would give them; at the
    end, or after :data:`MAX_REJECTED_LINES`, :class:`RejectedLines` has them all."""
    variables = VariableTable()
    values = _ValueTable()
    numbered: dict[int, bytes] = {}
    line_bytes = 0
    rejected: list[BasicSyntaxError] = []
    for row, raw in enumerate(lines, start=1):
        if not raw.strip(b" "):
            continue  # BASIC ignores an empty line
        if len(rejected) > MAX_REJECTED_LINES:
            break
        try:
            read = read_line(raw, variables)
            encoded = encode_line(read.line, variables)
        except BasicSyntaxError as error:
            rejected.append(
                BasicSyntaxError(error.reason, file=file, line=row, column=error.column)
            )
            continue  # ENTER stores nothing of it (no line number, too long...)
        if read.error_column is not None:
            reason = read.error_reason
            if not keep_errors:
                rejected.append(
                    BasicSyntaxError(reason, file=file, line=row, column=read.error_column)
                )
            if read.listed_error is not None:  # LIST's form of an ERROR- line: put it back
                read = replace(read, line=read.listed_error)
                encoded = encode_line(read.line, variables)
                reason = "an ERROR- line as LIST prints it"
            if on_error is not None and keep_errors:
                on_error(row, read.error_column or 1, reason)
        values.follow(variables, read.names_removed)
        number = read.line.number
        line_bytes -= len(numbered.pop(number, b""))
        if read.line.statements:
            numbered[number] = encoded
            line_bytes += len(encoded)
        if _end_address(variables, len(values.entries), line_bytes) > _TOP:
            rejected.append(BasicSyntaxError(_TOO_LARGE, file=file, line=row, column=1))
            break
    if rejected:
        more = len(rejected) > MAX_REJECTED_LINES
        raise RejectedLines(tuple(rejected[:MAX_REJECTED_LINES]), more)
    immediate = _immediate_line(save_command, variables)
    values.follow(variables, ())
    if _end_address(variables, len(values.entries), line_bytes + len(immediate)) > _TOP:
        raise BasicSyntaxError(_TOO_LARGE + " with the SAVE command", file=file, line=len(lines))
    program_lines = [ProgramLine(number, numbered[number]) for number in sorted(numbered)]
    return Program(tuple(variables.names), tuple(values.entries), tuple(program_lines), immediate)


class _ValueTable:
    """The variable value table as ENTER leaves it: an entry of 8 bytes (type, number,
    six zeros) for each variable created, in order. When BASIC rejects a line it
    removes the entries the line created, counting their bytes in 8 bits: a line that
    had created 32 or more variables leaves the first ``32 * (n // 32)`` of its
    entries behind (their names are gone), and SAVE writes them; so does this."""

    def __init__(self) -> None:
        self.entries: list[bytes] = []
        self._named = 0  # variables whose entries are in the table

    def follow(self, variables: VariableTable, removed: tuple[str, ...]) -> None:
        """Add the entries of the variables created since the last call; ``removed``
        were created and then removed with a rejected line."""
        for offset, name in enumerate(removed[: len(removed) - len(removed) % 32]):
            self.entries.append(_entry(name, self._named + offset))
        for index in range(self._named, len(variables)):
            self.entries.append(_entry(variables.names[index], index))
        self._named = len(variables)


def _entry(name: str, number: int) -> bytes:
    return bytes([variable_type(name), number]) + bytes(6)


_TOO_LARGE: Final = "program larger than 64 KB (a SAVE file's addresses end at $FFFF)"


def _end_address(variables: VariableTable, values: int, line_bytes: int) -> int:
    names = sum(len(name) for name in variables.names) + 1
    return VNTP_ADDRESS + names + VALUE_SIZE * values + line_bytes


def _immediate_line(command: bytes, variables: VariableTable) -> bytes:
    """Line 32768 holding ``command``; errors name the place in the command itself."""
    try:
        read = read_line(command, variables, immediate=True)
        if read.error_column is not None:
            raise BasicSyntaxError(read.error_reason, column=read.error_column)
        if not read.line.statements:
            raise BasicSyntaxError("no statement", column=1)
        encoded = encode_line(read.line, variables)
    except BasicSyntaxError as error:
        raise BasicSyntaxError(
            error.reason, file="save command", line=1, column=error.column
        ) from None
    return IMMEDIATE.to_bytes(2, "little") + encoded[2:]


def list_program(
    program: bytes,
    *,
    file: str = "<program>",
    encoding: Encoding = Encoding.UTF8,
    warn: Warn | None = None,
) -> bytes | str:
    """The listing LIST prints for a SAVE file.

    With the default UTF-8 encoding the result is text (str) with LF line ends;
    with ATASCII it is bytes with 0x9B line ends, exactly what ``LIST "D:X"`` writes.
    ``warn`` hears of lines that ENTER could not read back as they are listed.
    """
    listed = list_program_lines(Program.from_bytes(program, file=file), file=file)
    if warn is not None:
        for number, text in listed:
            # The line's own end of line ends the last record.
            records = text.split(b"\x9b")[:-1] or [text]
            longest = max(len(record) for record in records)
            if longest > MAX_INPUT_LINE:
                warn(
                    f"{file}: warning: line {number} lists as {longest} characters; ENTER reads at "
                    f"most {MAX_INPUT_LINE}, so the listing cannot be read back as it is"
                )
            if len(records) > 1:
                warn(
                    f"{file}: warning: line {number} lists as {len(records)} lines (its tokens "
                    "hold an end of line, $9B, that LIST prints as it is); ENTER reads each as a "
                    "line of its own, so the listing cannot be read back as it is"
                )
    raw = b"".join(text for _, text in listed)
    if encoding is Encoding.ATASCII:
        return raw
    return atascii.to_text_lines(raw)
