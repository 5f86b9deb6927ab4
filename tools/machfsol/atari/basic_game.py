"""The Atari BASIC games MACHFSOL.1 and MACHFSOL.2, generated from one source.

Both games live in ``basic_src/machfsol.bas``: one readable Atari BASIC listing with REMs,
plus a tiny preprocessor syntax for the few places where the variants differ (the rule
for building on the King piles, and the titles). Keeping one source means a fix to the
deal, the policy or the screen can never reach one game and miss the other.

Preprocessor syntax (one directive per source line, at the start of the line):

``# text``
    A source-only comment: dropped from both listings (costs no Atari memory).
``#V1 NNN statements`` / ``#V2 NNN statements``
    A BASIC line kept only in the listing of variant 1 (or 2), without the tag.
``#T NNN statements``
    A line of the test mode's overlay (both variants): not in the program the game disk
    carries, but in a listing of its own that the program, in test mode only, ENTERs from
    the harness's H: folder (:func:`overlay_listing`; docs/GAME.md, "Test mode"). So the
    test mode's own code (the transcript, the replay, the timing) costs the player no
    load time. A program line may jump only to program lines (it runs without the
    overlay), except right behind ``IF TM THEN`` (only the test mode takes that jump,
    with the overlay in); an overlay line may jump to any line.
everything else
    A BASIC line (``NNN statements``) kept in both listings. Blank lines are dropped.
``"{CODE name.s part}"`` in a line
    A string constant holding 6502 machine code assembled from ``name.s`` at
    generation time (``shuffle.s``, parts ``finder`` and ``routine``:
    :mod:`machfsol.atari.shuffle`; ``fill.s``, whole: :mod:`machfsol.atari.fill`;
    ``key_queue.s``, parts ``installer`` and ``resident``: :mod:`machfsol.atari.key_queue`;
    ``display.s``, whole: :mod:`machfsol.atari.display`; ``screen_sum.s``, whole,
    in the test mode's overlay: :mod:`machfsol.atari.screen_sum`),
    spelled ``{$XX}`` byte by byte as listings spell any ATASCII code; the source stays
    plain ASCII and the bytes are never committed.

With ``strip_remarks=True`` lines that hold nothing but a ``REM`` are dropped too, and a
``REM`` ending a line (``X=1:REM WHY``) is cut off. That is the form the game disk carries:
every byte of the program costs load time from a real disk drive (a sector of 125 bytes
takes about 6 frames), Atari memory, and time at every GOTO that walks past the line. A
jump to a dropped REM line is redirected to the next line kept, which is exactly what
Atari BASIC does when it jumps to a REM, so the source keeps the classic style of a REM
heading at each subroutine's own line number. Every GOTO, GOSUB, THEN, TRAP, RESTORE and
ON target is checked against the generated listing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Set
from dataclasses import dataclass, replace
from importlib.resources.abc import Traversable

from a8.basic.atascii import from_text
from a8.basic.convert import LARGEST_LISTING
from a8.reading import read_at_most
from machfsol.atari import (
    display,
    fill,
    key_queue,
    record_code,
    screen_sum,
    screen_text,
    series,
    shuffle,
)
from machfsol.atari.constant_pool import pool_constants
from machfsol.atari.places import default_source
from machfsol.errors import MachfsolError

#: The variants the source knows (their King-pile rules differ).
VARIANTS: tuple[int, ...] = (1, 2)

#: Largest line number Atari BASIC accepts in a program.
MAX_LINE_NUMBER = 32767

#: Names of the generated programs on the Atari disk, by variant.
PROGRAM_NAMES: dict[int, str] = {1: "MACHFSOL.1", 2: "MACHFSOL.2"}

_LINE = re.compile(r"^(\d+) ?(.*)$")
_VARIANT_TAG = re.compile(r"^#V(\d+) (.*)$")
_OVERLAY_TAG = "#T "
#: The line the test mode starts at: the overlay's listing ends with a direct ``GOTO`` to
#: it, which Atari BASIC runs once ENTER has merged the lines before it.
TEST_MODE_LINE = 7000
#: What makes a program line's jump to an overlay line legal: it is taken only in test
#: mode (TM=1), after the overlay has been ENTERed.
TEST_MODE_GUARD = "IF TM THEN"
# Statements that name other lines by number: GOTO/GOSUB n, THEN n, TRAP n, RESTORE n,
# ON x GOTO a,b,c. A computed target (GOTO X) is not checked: the source does not use one.
_TARGETS = re.compile(r"\b(?:GOTO|GOSUB|THEN|TRAP|RESTORE)\s*((?:\d+\s*,\s*)*\d+)")
_TARGET_LISTS = re.compile(r"(\b(?:GOTO|GOSUB|THEN|TRAP|RESTORE)\s*)((?:\d+\s*,\s*)*\d+)")
_CODE = re.compile(r'"\{CODE ([^}"]*)\}"')
#: The machine code a ``"{CODE name}"`` string constant may hold, by source name.
_MACHINE_CODE: dict[str, Callable[[], str]] = {
    f"{shuffle.SOURCE_NAME} finder": shuffle.finder_spelling,
    f"{shuffle.SOURCE_NAME} routine": shuffle.routine_spelling,
    fill.SOURCE_NAME: fill.code_spelling,
    series.SOURCE_NAME: series.code_spelling,
    display.SOURCE_NAME: display.code_spelling,
    screen_sum.SOURCE_NAME: screen_sum.code_spelling,
    screen_text.SOURCE_NAME: screen_text.code_spelling,
    f"{key_queue.SOURCE_NAME} installer": key_queue.installer_spelling,
    f"{key_queue.SOURCE_NAME} resident": key_queue.resident_spelling,
    **{
        f"{name} {part}": functools.partial(record_code.spelling_of, name, part)
        for name in record_code.SOURCES
        for part in (1, 2)
    },
}


class BasicSourceError(MachfsolError):
    """The BASIC source or its preprocessor directives are malformed."""


@dataclass(frozen=True)
class SourceLine:
    """One BASIC line of the source: where it came from and for which variants."""

    place: str
    number: int
    text: str
    variants: frozenset[int]
    #: True for a line of the test mode's overlay (``#T``), not in the disk's program.
    overlay: bool = False

    @property
    def is_remark(self) -> bool:
        """True for a line holding only a REM (safe to strip if nothing jumps to it)."""
        return self.text.lstrip().startswith("REM")


@dataclass(frozen=True)
class BasicSource:
    """The text of a one-source file, and the name its error messages give."""

    name: str
    text: str


def read_source(path: Traversable | None = None) -> BasicSource:
    """The BASIC source at ``path`` (default: :func:`machfsol.atari.places.default_source`);
    BasicSourceError if it is missing or not ASCII."""
    source = default_source() if path is None else path
    try:
        data = read_at_most(source, LARGEST_LISTING)  # /dev/zero is not read for ever
        if len(data) > LARGEST_LISTING:
            raise BasicSourceError(f"{source}: more than {LARGEST_LISTING:,} bytes: not a source")
        return BasicSource(str(source), data.decode("ascii"))
    except (OSError, UnicodeDecodeError) as error:
        raise BasicSourceError(f"{source}: cannot read the BASIC source ({error})") from None


def parse_source(text: str, name: str = "machfsol.bas") -> list[SourceLine]:
    """Split the source into BASIC lines, each tagged with the variants that keep it."""
    lines: list[SourceLine] = []
    seen: dict[tuple[int, int], str] = {}
    for index, raw in enumerate(text.splitlines(), start=1):
        place = f"{name}:{index}"
        if not raw.strip() or raw.startswith("# ") or raw == "#":
            continue
        variants = frozenset(VARIANTS)
        body = raw
        overlay = raw.startswith(_OVERLAY_TAG)
        if overlay:
            body = raw.removeprefix(_OVERLAY_TAG)
        elif raw.startswith("#"):
            tag = _VARIANT_TAG.match(raw)
            if tag is None:
                raise BasicSourceError(f"{place}: unknown directive {raw.split()[0]!r}")
            variant = int(tag.group(1))
            if variant not in VARIANTS:
                raise BasicSourceError(f"{place}: no variant {variant} (only 1 and 2)")
            variants = frozenset({variant})
            body = tag.group(2)
        match = _LINE.match(body)
        if match is None:
            raise BasicSourceError(f"{place}: a BASIC line must start with its line number")
        number = int(match.group(1))
        if not 0 <= number <= MAX_LINE_NUMBER:
            raise BasicSourceError(f"{place}: line number {number} is above {MAX_LINE_NUMBER}")
        if not body.isascii():
            raise BasicSourceError(f"{place}: the source must be plain ASCII (use CHR$)")
        for code in _CODE.finditer(body):
            if code.group(1) not in _MACHINE_CODE:
                raise BasicSourceError(
                    f"{place}: no machine code {code.group(1)!r} "
                    f"(known: {', '.join(sorted(_MACHINE_CODE))})"
                )
        for variant in variants:
            if (variant, number) in seen:
                raise BasicSourceError(
                    f"{place}: line {number} already defined at {seen[(variant, number)]}"
                )
            seen[(variant, number)] = place
        lines.append(SourceLine(place, number, match.group(2), variants, overlay))
    return lines


def kept_lines(source: BasicSource, variant: int) -> frozenset[int]:
    """The lines of ``variant``'s program that carry a routine in two strings
    (``"{CODE name.s 1}"`` and ``2``: :mod:`machfsol.atari.record_code`): the routine's
    mover finds the second string a fixed number of bytes after the first, so nothing
    may be put into these lines (``verify --coverage`` leaves them as they are)."""
    two_part = {f"{name} {part}" for name in record_code.SOURCES for part in (1, 2)}
    return frozenset(
        line.number
        for line in parse_source(source.text, source.name)
        if variant in line.variants
        and not line.overlay
        and any(code.group(1) in two_part for code in _CODE.finditer(line.text))
    )


def generate(
    variant: int,
    *,
    strip_remarks: bool = False,
    source: BasicSource | str | None = None,
    part: str = "whole",
) -> str:
    """The listing of MACHFSOL.<variant>: BASIC lines in order, ``\\n`` line ends.

    ``source`` is the source read with :func:`read_source`, or its bare text (default:
    the one source, see :mod:`machfsol.atari.places`). ``part``: ``"whole"`` (every line),
    ``"program"`` (without the test mode's overlay, ``#T``: what the disk carries) or
    ``"overlay"`` (only those). Raises BasicSourceError (naming the source line) on a
    malformed source.
    """
    if variant not in VARIANTS:
        raise BasicSourceError(f"no variant {variant} (only 1 and 2)")
    if source is None:
        source = read_source()
    elif isinstance(source, str):
        source = BasicSource("machfsol.bas", source)
    if part not in ("whole", "program", "overlay"):
        raise BasicSourceError(f"no listing part {part!r} (whole, program or overlay)")
    lines = parse_source(source.text, source.name)
    chosen = sorted(
        (line for line in lines if variant in line.variants), key=lambda line: line.number
    )
    kept = [line for line in chosen if not (strip_remarks and line.is_remark)]
    if strip_remarks:
        kept = [_without_final_remark(line) for line in kept]
    # A program line's jump lands where it lands without the overlay (the program runs
    # alone), and must stay on a program line; an overlay line's lands in the whole.
    program_chosen = [line for line in chosen if not line.overlay]
    program_kept = [line for line in kept if not line.overlay]
    program_redirect = _redirections(program_chosen, program_kept)
    whole_redirect = _redirections(chosen, kept)
    kept = [_retarget(line, whole_redirect if line.overlay else program_redirect) for line in kept]
    program_numbers = {line.number for line in kept if not line.overlay}
    overlay_numbers = {line.number for line in kept if line.overlay}
    _check_targets([line for line in kept if not line.overlay], program_numbers, overlay_numbers)
    _check_targets([line for line in kept if line.overlay], {line.number for line in kept})
    wanted = {"whole": (False, True), "program": (False,), "overlay": (True,)}[part]
    return "".join(
        f"{line.number} {_with_machine_code(line.text)}\n"
        for line in kept
        if line.overlay in wanted
    )


def _with_machine_code(text: str) -> str:
    """The line with each ``"{CODE name}"`` marker replaced by its bytes' spelling."""
    return _CODE.sub(lambda match: '"' + _MACHINE_CODE[match.group(1)]() + '"', text)


def program_listing(variant: int, source: BasicSource | str | None = None) -> str:
    """The listing of MACHFSOL.<variant> as the game disk carries it: the REMs stripped
    and the most used numbers kept in variables (:mod:`machfsol.atari.constant_pool`).

    The source's REMs and numbers are written for its readers; on the Atari they would
    only cost load time (about 50 sectors of a real disk drive, 6 frames each), memory
    and time at every GOTO. ``machfsol listing`` prints this form unless ``--remarks``.
    """
    overlay = generate(variant, strip_remarks=True, source=source, part="overlay")
    program = generate(variant, strip_remarks=True, source=source, part="program")
    return pool_constants(program, also_names=overlay)


def overlay_listing(source: BasicSource | str | None = None) -> str:
    """The test mode's overlay (the ``#T`` lines, REMs stripped), then ``GOTO 7000``.

    In test mode the program ENTERs this listing from H: (docs/GAME.md, "Test mode"):
    Atari BASIC merges its lines into the running program, keeping every variable and
    array, then runs the listing's last line, which has no line number, at once, as if
    typed: ``GOTO 7000`` goes on with the test mode. The same for both variants (a
    BasicSourceError if their overlays differ). Its numbers are not pooled: the overlay
    is read only by the harness's test runs, never from a disk.
    """
    one, two = (
        generate(variant, strip_remarks=True, source=source, part="overlay") for variant in VARIANTS
    )
    if one != two:
        raise BasicSourceError("the test mode's overlay (#T lines) differs between the variants")
    numbers = {int(line.split(" ", 1)[0]) for line in one.splitlines()}
    if TEST_MODE_LINE not in numbers:
        raise BasicSourceError(f"the test mode's overlay has no line {TEST_MODE_LINE}")
    return f"{one}GOTO {TEST_MODE_LINE}\n"


def _without_final_remark(line: SourceLine) -> SourceLine:
    """The line without a ``REM`` statement at its end (one after a colon, outside strings).

    A REM runs to the end of the line, and so does DATA: scanning stops at a DATA.
    """
    text = line.text
    if text.lstrip().startswith("DATA"):
        return line
    in_string = False
    for index, char in enumerate(text):
        if char == '"':
            in_string = not in_string
        elif char == ":" and not in_string:
            rest = text[index + 1 :].lstrip()
            if rest.startswith("REM"):
                return replace(line, text=text[:index])
            if rest.startswith("DATA"):
                break
    return line


def _redirections(chosen: list[SourceLine], kept: list[SourceLine]) -> dict[int, int]:
    """For each dropped line, the line a jump to it really lands on: the next kept one."""
    kept_numbers = [line.number for line in kept]
    redirect: dict[int, int] = {}
    position = 0
    for line in chosen:
        while position < len(kept_numbers) and kept_numbers[position] < line.number:
            position += 1
        if position < len(kept_numbers) and kept_numbers[position] != line.number:
            redirect[line.number] = kept_numbers[position]
    return redirect


def _retarget(line: SourceLine, redirect: dict[int, int]) -> SourceLine:
    """The line with every jump to a dropped line redirected (string constants untouched)."""
    if not redirect or line.is_remark:
        return line

    def fix_list(match: re.Match[str]) -> str:
        def fix_number(number: re.Match[str]) -> str:
            return str(redirect.get(int(number.group()), int(number.group())))

        return match.group(1) + re.sub(r"\d+", fix_number, match.group(2))

    parts = re.split(r'("[^"]*"?)', line.text)
    for index in range(0, len(parts), 2):  # even parts are outside string constants
        parts[index] = _TARGET_LISTS.sub(fix_list, parts[index])
    return replace(line, text="".join(parts))


def _check_targets(
    lines: list[SourceLine], numbers: set[int], test_mode_only: Set[int] = frozenset()
) -> None:
    """Every line number a statement jumps to must exist in the generated listing; a
    jump right behind ``IF TM THEN`` (taken only in test mode, once the overlay is in)
    may also go to a line of ``test_mode_only``."""
    for line in lines:
        if line.is_remark:
            continue
        text = _without_strings(line.text)
        for match in _TARGETS.finditer(text):
            guarded = text[: match.start()].rstrip().endswith(TEST_MODE_GUARD)
            for target in re.findall(r"\d+", match.group(1)):
                if guarded and int(target) in test_mode_only:
                    continue
                # TRAP 40000 (any number above the last line) is the idiom for "TRAP off".
                if int(target) not in numbers and int(target) <= MAX_LINE_NUMBER:
                    raise BasicSourceError(
                        f"{line.place}: line {line.number} jumps to missing line {target}"
                    )


def _without_strings(text: str) -> str:
    """The statement text with string constants blanked (they may contain 'GOTO 5')."""
    return re.sub(r'"[^"]*"?', '""', text)


def to_atascii(listing: str) -> bytes:
    """The listing as ATASCII bytes (0x9B line ends), ready for ENTER or the tokenizer:
    ``{$XX}`` spellings (the machine code) become their bytes."""
    lines = listing.removesuffix("\n").split("\n") if listing else []
    return b"".join(
        from_text(line, where=f"listing:{n}") + b"\x9b" for n, line in enumerate(lines, 1)
    )
