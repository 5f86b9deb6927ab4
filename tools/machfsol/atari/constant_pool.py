"""Numbers the program uses often, kept in variables: a shorter program to load.

Atari BASIC stores a number in a line as 7 bytes (a marker and 6 bytes of BCD) and a
variable as 1 byte. The games use the same few numbers hundreds of times (0 and 1 alone
some 300 times), so the program the disk carries names them: ``Z0=0:Z1=1:...`` at the
start of the first line, and ``Z1`` wherever the source says ``1``. That takes about
3,000 bytes (24 sectors, some 150 frames of a real disk drive) off each program and
costs nothing at run time (BASIC copies a variable's 6 bytes as it copies a number's).

Only the program on the disk is pooled: the source, and ``machfsol listing --remarks``,
keep their numbers. Not pooled: line numbers (after GOTO, GOSUB, THEN, TRAP, RESTORE,
and the lists of ON ... GOTO/GOSUB), numbers inside strings, DATA and REM, numbers with
a decimal point or exponent, and numbers written as part of a name (``NR1``). The
source's style is assumed: keywords spelled out (no ``G.`` abbreviations), which
:mod:`machfsol.atari.basic_game` already relies on for its jump checks. A line that
would grow past what the Atari's editor takes (114 characters, counted as the Atari
shows them: ``{$1D}`` or ``{DELLINE}`` is one) keeps its numbers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from a8.basic import tokenize
from a8.basic.atascii import from_text
from a8.basic.program import Program
from machfsol.errors import MachfsolError

#: A number is pooled when the program uses it at least this many times (below that,
#: its variable's 8-byte value and its assignment cost more than they save).
MIN_USES = 4
#: At most this many pooled numbers...
MAX_NUMBERS = 12
#: ... and the program keeps at least this many of BASIC's 128 variables free.
VARIABLES_LEFT = 4
#: Atari BASIC allows 128 variables.
MAX_VARIABLES = 128
#: The editor takes a line of three screen lines of 38 characters.
MAX_LINE_LENGTH = 114
#: Pooled numbers are named ``Z`` + the number.
PREFIX = "Z"

_TARGETS = re.compile(r"\b(?:GOTO|GOSUB|THEN|TRAP|RESTORE)\s*((?:\d+\s*,\s*)*\d+)")
_NUMBER = re.compile(r"(?<![A-Z0-9.$])(\d+)(?![\d.E])")
_STRING = re.compile(r'("[^"]*"?)')


class ConstantPoolError(MachfsolError):
    """The program already has a variable of a pool name."""


def pool_constants(listing: str, also_names: str = "") -> str:
    """The listing with its most used numbers replaced by variables (see the module).

    ``also_names``: a listing whose lines join the program later (the test mode's
    overlay, which the program ENTERs): its variables count against BASIC's 128 too.

    ``listing`` is a generated listing (``NNN statements`` lines, ``\\n`` ends) whose
    first line runs first. Raises ConstantPoolError if a pool name is already a variable.
    """
    lines = [_split_line(line) for line in listing.splitlines()]
    if not lines:
        return listing
    uses: Counter[int] = Counter()
    for _, pieces in lines:
        for text, poolable in pieces:
            if poolable:
                uses.update(int(number) for number in _NUMBER.findall(text))
    names = set(Program.from_bytes(tokenize(listing)).names)
    if also_names:
        names |= set(Program.from_bytes(tokenize(also_names)).names)
    room = MAX_VARIABLES - VARIABLES_LEFT - len(names)
    chosen = [number for number, count in uses.most_common() if count >= MIN_USES]
    chosen = chosen[: max(0, min(MAX_NUMBERS, room))]
    first_number, first_pieces = lines[0]
    first_text = "".join(text for text, _ in first_pieces)
    while chosen and _length(_first_line(first_number, chosen, first_text)) > MAX_LINE_LENGTH:
        chosen.pop()
    for number in chosen:
        if f"{PREFIX}{number}" in names:
            raise ConstantPoolError(f"{PREFIX}{number} is a variable of the program: rename it")
    pool = {number: f"{PREFIX}{number}" for number in chosen}

    def name_of(match: re.Match[str]) -> str:
        return pool.get(int(match.group(1)), match.group(1))

    out = []
    for line_number, pieces in lines:
        pooled = "".join(_NUMBER.sub(name_of, part) if ok else part for part, ok in pieces)
        line = f"{line_number} {pooled}"
        if _length(line) > MAX_LINE_LENGTH:  # Z1 is longer than 1: keep the line editable
            line = f"{line_number} {''.join(part for part, _ in pieces)}"
        out.append(line)
    if chosen:
        out[0] = _first_line(first_number, chosen, out[0].split(" ", 1)[1])
    return "".join(f"{line}\n" for line in out)


def _length(line: str) -> int:
    """The line's length on the Atari's screen: a spelled code (``{$1D}``) is one character."""
    return len(from_text(line))


def _first_line(number: str, chosen: list[int], text: str) -> str:
    assignments = ":".join(f"{PREFIX}{value}={value}" for value in chosen)
    return f"{number} {assignments}:{text}"


def _split_line(line: str) -> tuple[str, list[tuple[str, bool]]]:
    """The line number and the statements' text in pieces: (text, may hold pooled numbers)."""
    number, _, body = line.partition(" ")
    return number, list(_pieces(body))


def _pieces(body: str) -> Iterator[tuple[str, bool]]:
    parts = _STRING.split(body)
    for index, part in enumerate(parts):
        if index % 2:  # a string constant
            yield part, False
            continue
        # DATA and REM run to the end of the line, whatever follows (quotes included)
        rest = re.search(r"(?:^|:)\s*(?:DATA|REM)", part)
        if rest is not None:
            yield from _outside_targets(part[: rest.start()])
            yield "".join([part[rest.start() :], *parts[index + 1 :]]), False
            return
        yield from _outside_targets(part)


def _outside_targets(text: str) -> Iterator[tuple[str, bool]]:
    """The text in pieces, line-number targets apart (they are never pooled)."""
    last = 0
    for match in _TARGETS.finditer(text):
        yield text[last : match.start(1)], True
        yield text[match.start(1) : match.end(1)], False
        last = match.end(1)
    yield text[last:], True
