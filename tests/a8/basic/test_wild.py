"""``a8 list`` on SAVE files from outside, against what genuine LIST printed for them
(fixtures/wild, README there): other header offsets, rev. B's trailing bytes, ERROR-
lines, a file saved by Altirra BASIC."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic import Encoding, list_program, tokenize
from a8.basic.program import Program

WILD = Path(__file__).parent / "fixtures" / "wild"
PROGRAMS = sorted(WILD.glob("*.BAS"))


def test_the_wild_programs_are_there() -> None:
    assert len(PROGRAMS) == 8


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda path: path.stem)
def test_list_is_genuine(program: Path) -> None:
    listed = list_program(program.read_bytes(), encoding=Encoding.ATASCII, file=program.name)
    assert listed == program.with_suffix(".lst").read_bytes()


@pytest.mark.parametrize(
    "program",
    [p for p in PROGRAMS if not p.name.startswith(("names-past", "odd-line"))],
    ids=lambda path: path.stem,
)
def test_listing_tokenizes_to_the_same_lines(program: Path) -> None:
    """What LIST prints ENTERs back to the same lines (ERROR- lines kept)."""
    original = Program.from_bytes(program.read_bytes())
    again = Program.from_bytes(
        tokenize(
            program.with_suffix(".lst").read_bytes(), encoding=Encoding.ATASCII, keep_errors=True
        )
    )
    assert [line.data for line in again.lines] == [line.data for line in original.lines]
