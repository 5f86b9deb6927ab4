"""The tokenizer and lister against genuine Atari BASIC rev. C (fixtures/revc-gold).

For each of the 180 random listings genuine BASIC ENTERed, SAVEd and LISTed (see the
README there), byte for byte: the SAVE file of the accepted lines, the SAVE file with
the rejected lines kept as ERROR- lines (``--keep-errors``), both listings, and which
lines are rejected, each with a ``FILE:LINE:COLUMN: reason`` error of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic import BasicSyntaxError, Encoding, list_program, tokenize

GOLD = Path(__file__).parent / "fixtures" / "revc-gold"
CASES = sorted(path.name.removesuffix(".in.atl") for path in GOLD.glob("*[0-9].in.atl"))
SAVE_COMMAND = 'SAVE "H1:OUT.BAS"'


def _gold(case: str, suffix: str) -> bytes:
    return (GOLD / f"{case}{suffix}").read_bytes()


def _lines(data: bytes) -> list[bytes]:
    return [line for line in data.split(b"\x9b") if line]


def test_the_gold_data_is_all_there() -> None:
    assert len(CASES) == 180
    rejected = sum(len(_lines(_gold(case, ".rejected.atl"))) for case in CASES)
    assert rejected > 1300


@pytest.mark.parametrize("case", CASES)
def test_save_file_is_genuine(case: str) -> None:
    listing = _gold(case, ".in.atl")
    program = tokenize(listing, encoding=Encoding.ATASCII, save_command=SAVE_COMMAND)
    assert program == _gold(case, ".bas")


@pytest.mark.parametrize("case", CASES)
def test_rejected_lines_are_kept_as_genuine_basic_keeps_them(case: str) -> None:
    """``--keep-errors``: the same SAVE file as genuine BASIC, ERROR- lines included,
    and one warning per rejected line, naming it."""
    listing = _gold(case, ".witherrors.in.atl")
    warnings: list[str] = []
    program = tokenize(
        listing,
        encoding=Encoding.ATASCII,
        file="W",
        save_command=SAVE_COMMAND,
        keep_errors=True,
        warn=warnings.append,
    )
    assert program == _gold(case, ".witherrors.bas")
    rows = _lines(listing)
    warned = [rows[int(warning.split(":")[1]) - 1] for warning in warnings]
    assert warned == _lines(_gold(case, ".rejected.atl"))
    assert all(
        warning.startswith("W:") and "warning: syntax error" in warning for warning in warnings
    )


@pytest.mark.parametrize("case", CASES)
def test_every_rejected_line_is_refused_and_every_other_accepted(case: str) -> None:
    rejected = set(_lines(_gold(case, ".rejected.atl")))
    for line in _lines(_gold(case, ".witherrors.in.atl")):
        if line in rejected:
            with pytest.raises(BasicSyntaxError, match=r"^L:1:\d+: "):
                tokenize(line + b"\x9b", encoding=Encoding.ATASCII, file="L")
        else:
            tokenize(line + b"\x9b", encoding=Encoding.ATASCII, file="L")


@pytest.mark.parametrize("case", CASES)
def test_listing_is_genuine(case: str) -> None:
    for prefix in ("", ".witherrors"):
        program = _gold(case, f"{prefix}.bas")
        assert list_program(program, encoding=Encoding.ATASCII) == _gold(case, f"{prefix}.out.atl")


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("prefix", ["", ".witherrors"])
def test_tokenize_of_list_gives_the_program_back(case: str, prefix: str) -> None:
    """What LIST prints ENTERs back to the same program (``--keep-errors`` puts the
    ERROR- lines back as they were), except for a negative zero constant (from
    ``- -0``), which LIST prints as ``-0E-<8``: genuine BASIC cannot read that back
    either."""
    program = _gold(case, f"{prefix}.bas")
    listed = list_program(program, encoding=Encoding.ATASCII)
    assert isinstance(listed, bytes)
    again = tokenize(listed, encoding=Encoding.ATASCII, save_command=SAVE_COMMAND, keep_errors=True)
    if b"-0E-<8" in listed:
        assert again != program
        with pytest.raises(BasicSyntaxError):
            tokenize(listed, encoding=Encoding.ATASCII, save_command=SAVE_COMMAND)
        return
    assert again == program
