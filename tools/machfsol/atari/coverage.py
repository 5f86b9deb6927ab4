"""``machfsol verify --coverage``: which lines of the BASIC program the verification ran.

The program the harness runs for it is the game's, with one statement put in front of
each line: ``POKE <address>,1``, one byte a line, in a map of bytes below the program
(the harness reserves it by raising MEMLO before it loads the program, as a resident
DOS would). A line that runs, from its start or from a jump, sets its byte; a line the
program never comes to leaves it 0. (NEXT and RETURN go back into the middle of a line
whose start has run already.) DATA lines are not instrumented: they never run, READ
reads them. At the end of its configuration the test mode writes the map to
``H1:MFCOVER.TXT``, a ``0`` or ``1`` a line; every boot's map is added up.

Lines the verification never runs each need a reason, given in the one source where
the line is, as a source-only comment before it::

    # unrun: only an error reaches it (an I/O error); the test mode TRAPs errors itself
    9000 REM ANY ERROR ...

or for several lines, ``# unrun 9000-9020: ...``; for one program only, ``# unrun V1:
...`` (a line both programs have that only MACHFSOL.2 can reach). A line never run
without a reason fails ``--coverage``: a path nobody verifies.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final

from a8.basic import bcd, tokenize
from a8.basic.program import Program, ProgramLine
from a8.basic.tokens import TOK_COLON, TOK_DATA, TOK_EOL, TOK_NUMBER
from machfsol.atari.basic_game import VARIANTS, BasicSource
from machfsol.errors import MachfsolError

#: Where the map of lines run starts: the OS's MEMLO without DOS. The harness raises
#: MEMLO above the map before it loads the program.
MAP_ADDRESS: Final = 0x0700
#: The file the test mode writes the map to.
MAP_NAME: Final = "MFCOVER.TXT"
#: A comment giving the reason a line, or lines, never run.
_REASON = re.compile(
    r"^#\s*unrun(?:\s+V([12]))?(?:\s+(\d+)(?:-(\d+))?)?\s*:\s*(.+?)\s*$", re.IGNORECASE
)
_LINE = re.compile(r"^(?:#V([12]) |#T )?(\d+) ")


class CoverageError(MachfsolError):
    """The instrumented program cannot be made, or its map cannot be read."""


@dataclass(frozen=True)
class Instrumented:
    """A program (SAVE file) with a POKE in front of each line, and the lines' order in
    the map (the byte at ``MAP_ADDRESS + i`` is ``lines[i]``'s)."""

    program: bytes
    lines: tuple[int, ...]
    #: Lines left as they are, not in the map (``instrument``'s ``keep``).
    kept: tuple[int, ...] = ()

    @property
    def memlo(self) -> int:
        """MEMLO to reserve the map: its end, rounded up to a page."""
        end = MAP_ADDRESS + len(self.lines)
        return (end + 0xFF) & ~0xFF

    def run_lines(self, text: str) -> frozenset[int]:
        """The lines a map written by the test mode says ran."""
        marks = text.replace("\x9b", "\n").strip()
        if len(marks) != len(self.lines) or set(marks) - {"0", "1"}:
            raise CoverageError(
                f"{MAP_NAME}: expected {len(self.lines)} marks 0 or 1, found {marks[:40]!r}"
            )
        return frozenset(line for line, mark in zip(self.lines, marks, strict=True) if mark == "1")


#: The name instrument() gives the variable that holds 1 (the first of these free).
MARK_NAMES: Final = ("CV", "CV1", "CV2", "CV3")
#: Atari BASIC's most variables.
MAX_VARIABLES: Final = 128


def instrument(
    program: bytes, file: str = "<program>", keep: frozenset[int] = frozenset()
) -> Instrumented:
    """``program`` (a SAVE file) with a statement ``POKE <its byte>,CV`` put in front of
    each line, DATA lines and the lines of ``keep`` left as they are (the game's lines
    that carry a routine in two strings: its mover counts the bytes between them,
    :func:`machfsol.atari.basic_game.kept_lines`).

    ``CV`` is a variable added for it, set to 1 in front of the first line (a RUN
    clears variables): a variable is one byte where the number 1 takes seven, some 2 KB
    over the game's 330 lines, which its test mode needs to fit beside the overlay. A
    program with no variable free gets ``POKE <its byte>,1``.

    Done on the tokens, not the listing: the game's longest lines (machine code in
    strings) leave no room for ENTER. A line with no room left even for the tokens
    (255 bytes a line) becomes two: the POKE alone, then its statements under the next
    line number, where the POKE falls through to them (that number must be free)."""
    parsed = Program.from_bytes(program, file=file)
    taken = {line.number for line in parsed.lines}
    mark: int | None = None
    if len(parsed.names) < MAX_VARIABLES:
        mark = len(parsed.names)
        name = next(n for n in MARK_NAMES if n not in parsed.names)
        value = bytes([0, mark]) + bytes(6)  # a number, 0 until set
        parsed = replace(parsed, names=(*parsed.names, name), values=(*parsed.values, value))
    lines: list[ProgramLine] = []
    numbers: list[int] = []
    kept = []
    for line in parsed.lines:
        if line.data[4] == TOK_DATA or line.number in keep:
            lines.append(line)
            if line.number in keep:
                kept.append(line.number)
            continue
        statements = [_poke(MAP_ADDRESS + len(numbers), mark)]
        if not numbers and mark is not None:
            statements.insert(0, _set_one(mark))
        poke = _offsets(statements)
        numbers.append(line.number)
        if len(line.data) + len(poke) <= 0xFF:
            lines.append(_with_first(line.number, poke, line.data[3:]))
            continue
        if line.number + 1 in taken or line.number + 1 > 32767:
            raise CoverageError(
                f"{file}: line {line.number} is too long to instrument, and line "
                f"{line.number + 1}, where its statements would go, is taken"
            )
        alone = poke[:-1] + bytes([TOK_EOL])  # the POKE ends its line
        lines.append(_with_first(line.number, alone, b""))
        lines.append(_with_first(line.number + 1, b"", line.data[3:]))
    instrumented = replace(parsed, lines=tuple(lines))
    return Instrumented(instrumented.to_bytes(), tuple(numbers), tuple(kept))


def _offsets(statements: list[bytes]) -> bytes:
    """Statements (each ending with its colon) with their offset bytes, counted from
    the start of a line whose first statement they are."""
    out = bytearray()
    for statement in statements:
        out += bytes([3 + len(out) + 1 + len(statement)]) + statement
    return bytes(out)


def _with_first(number: int, first: bytes, statements: bytes) -> ProgramLine:
    """Line ``number``: the statement ``first`` (with its offset byte, counted from
    the line's start), then ``statements`` (a line's, from its offset 3), their offset
    bytes moved on by the length of ``first``."""
    data = bytearray(number.to_bytes(2, "little") + b"\x00" + first)
    shift = len(first)
    offset = 0
    while offset < len(statements):  # each statement starts with where the next starts
        following = statements[offset] - 3
        data += bytes([following + 3 + shift]) + statements[offset + 1 : following]
        offset = following
    data[2] = len(data)
    return ProgramLine(number, bytes(data))


@functools.cache
def _templates() -> tuple[bytes, bytes, bytes]:
    """The tokens of ``CV=1:``, ``POKE 0,CV:`` and ``POKE 0,1:`` (each without its
    offset byte; CV is variable 0), from a8.basic's tokenizer."""
    data = Program.from_bytes(tokenize("0 CV=1:POKE 0,CV\n1 POKE 0,1\n")).lines
    first, second = data[0].data, data[1].data
    set_one, poke_mark = first[4 : first[3]], first[first[3] + 1 :]
    poke_one = second[4:]
    if set_one[-1] != TOK_COLON or poke_mark[-1] != TOK_EOL or poke_one[-1] != TOK_EOL:
        raise CoverageError("a8.basic tokenized CV=1:POKE 0,CV unexpectedly")
    colon = bytes([TOK_COLON])
    return set_one, poke_mark[:-1] + colon, poke_one[:-1] + colon


def _set_one(variable: int) -> bytes:
    """``CV=1:`` for the variable numbered ``variable``."""
    set_one = _templates()[0]  # the implied LET's token, then the variable's
    at = next(i for i, byte in enumerate(set_one) if byte >= 0x80)
    return set_one[:at] + bytes([0x80 + variable]) + set_one[at + 1 :]


def _poke(address: int, variable: int | None) -> bytes:
    """``POKE <address>,CV:`` (CV the variable numbered ``variable``), or ``POKE
    <address>,1:`` when None: a template with its first number's six BCD bytes
    replaced (and its variable's token, the byte before the colon)."""
    _, poke_mark, poke_one = _templates()
    template = poke_one if variable is None else poke_mark
    start = template.index(TOK_NUMBER) + 1
    poke = template[:start] + bcd.parse(str(address)) + template[start + 6 :]
    if variable is not None:
        poke = poke[:-2] + bytes([0x80 + variable, TOK_COLON])
    return poke


def unrun_reasons(source: BasicSource, variant: int) -> dict[int, str]:
    """The reasons the one source gives for lines of ``variant``'s program that the
    verification never runs (``# unrun`` comments), by line number."""
    if variant not in VARIANTS:
        raise CoverageError(f"variant {variant}: only 1 or 2")
    reasons: dict[int, str] = {}
    #: The reason being read (it goes on over the comment lines after its first), and
    #: the lines it is for (None: the next line of the variant).
    reason: list[str] = []
    lines: range | None = None
    skipping = False  # the comment lines of another variant's reason
    for text in source.text.splitlines():
        found = _REASON.match(text)
        if found is not None:
            only, first, last, words = found.groups()
            skipping = only is not None and only != str(variant)  # another program's
            reason = [] if skipping else [words]
            lines = None if first is None or skipping else range(int(first), int(last or first) + 1)
            continue
        if text.startswith("# ") and (reason or skipping):
            if reason:
                reason.append(text[2:].strip())
            continue
        skipping = False
        if reason and lines is not None:
            reasons.update(dict.fromkeys(lines, " ".join(reason)))
            reason = []
        line = _LINE.match(text)
        if reason and line is not None and line.group(1) in (None, str(variant)):
            reasons[int(line.group(2))] = " ".join(reason)
            reason = []
    return reasons


@dataclass(frozen=True)
class Coverage:
    """What one program's verification ran, and why the rest did not run."""

    variant: int
    lines: tuple[int, ...]
    run: frozenset[int]
    reasons: dict[int, str]
    #: Lines not instrumented (they carry a routine's two strings), so not counted.
    kept: tuple[int, ...] = ()

    @property
    def unrun(self) -> tuple[int, ...]:
        return tuple(line for line in self.lines if line not in self.run)

    @property
    def unexplained(self) -> tuple[int, ...]:
        return tuple(line for line in self.unrun if line not in self.reasons)

    @property
    def ok(self) -> bool:
        return not self.unexplained

    def report_lines(self) -> list[str]:
        """The run lines as ranges, then each line never run with its reason."""
        share = 100.0 * len(self.run) / len(self.lines) if self.lines else 100.0
        out = [
            f"coverage, MACHFSOL.{self.variant}: {len(self.run)} of {len(self.lines)} lines "
            f"run ({share:.1f}%): {_ranges(sorted(self.run), self.lines)}"
        ]
        for first, last, reason in _groups(self.unrun, self.lines, self.reasons):
            where = str(first) if first == last else f"{first}-{last}"
            out.append(f"  never run: {where}: {reason or 'NO REASON GIVEN (# unrun: ...)'}")
        if self.kept:
            out.append(
                f"  not instrumented: {_ranges(list(self.kept), self.kept)}: each carries a "
                "routine in two strings, whose mover counts the bytes between them"
            )
        return out

    def as_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "lines": len(self.lines),
            "run": sorted(self.run),
            "unrun": [{"line": n, "reason": self.reasons.get(n)} for n in self.unrun],
            "not_instrumented": list(self.kept),
        }


def _ranges(numbers: list[int], order: tuple[int, ...]) -> str:
    """Line numbers as ranges of lines next to each other in ``order``."""
    position = {line: index for index, line in enumerate(order)}
    parts: list[str] = []
    start = previous = None
    for number in numbers:
        if previous is not None and position[number] == position[previous] + 1:
            previous = number
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    return ", ".join(parts) if parts else "none"


def _groups(
    unrun: Iterable[int], order: tuple[int, ...], reasons: dict[int, str]
) -> list[tuple[int, int, str | None]]:
    """Lines never run, next to each other with the same reason, as (first, last, reason)."""
    position = {line: index for index, line in enumerate(order)}
    groups: list[tuple[int, int, str | None]] = []
    for line in unrun:
        reason = reasons.get(line)
        if groups:
            first, last, same = groups[-1]
            if same == reason and position[line] == position[last] + 1:
                groups[-1] = (first, line, reason)
                continue
        groups.append((line, line, reason))
    return groups
