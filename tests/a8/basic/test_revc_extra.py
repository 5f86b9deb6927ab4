"""The tokenizer and lister against more genuine rev. C data (fixtures/revc-extra, README
there): random programs with edited lines, long lines, lines at the limits, odd line
numbers, rejected lines that created many variables, ESC and inverse characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic import BasicSyntaxError, Encoding, list_program, tokenize

EXTRA = Path(__file__).parent / "fixtures" / "revc-extra"
CASES = sorted(path.name.removesuffix(".in.atl") for path in EXTRA.glob("*.in.atl"))
SAVE_COMMAND = 'SAVE "H1:OUT.BAS"'


def test_the_cases_are_there() -> None:
    assert len(CASES) == 63


@pytest.mark.parametrize("case", CASES)
def test_genuine_basic_did_the_same(case: str) -> None:
    listing = (EXTRA / f"{case}.in.atl").read_bytes()
    if (EXTRA / f"{case}.stops").exists():
        with pytest.raises(BasicSyntaxError, match=r"^L:1:\d+: .*stops ENTER with ERROR"):
            tokenize(listing, encoding=Encoding.ATASCII, file="L", keep_errors=True)
        return
    saved = (EXTRA / f"{case}.bas").read_bytes()
    program = tokenize(
        listing, encoding=Encoding.ATASCII, save_command=SAVE_COMMAND, keep_errors=True
    )
    assert program == saved
    assert (
        list_program(saved, encoding=Encoding.ATASCII) == (EXTRA / f"{case}.out.atl").read_bytes()
    )
