"""Live oracle: the emulator's Altirra BASIC ENTERs, SAVEs and LISTs listings now.

Slower than the golden-file tests (one emulator run per listing, about a second
each with -turbo) but it checks the golden files are still what atari800 writes.
Altirra BASIC is not the reference (genuine rev. C is: test_revc_gold.py): the
listings compared here avoid the places where the two differ (altirra.py), and
:func:`test_altirra_differs_as_documented` checks that those differences are real.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import Phase, assume, given, settings

from a8.basic import BasicSyntaxError, Encoding, atascii, list_program, tokenize
from tests.a8.basic.altirra import DIFFERENCES, as_atari_basic
from tests.a8.basic.oracle import SAVE_COMMAND, enter_save_list
from tests.a8.basic.programs import listings, mangled_listings

CORPUS = sorted((Path(__file__).parent / "fixtures" / "corpus").glob("*.lst"))


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("source", CORPUS, ids=lambda path: path.stem)
def test_emulator_agrees(atari800: str, source: Path) -> None:
    lines = atascii.split_lines(source.read_bytes(), Encoding.UTF8)
    result = enter_save_list(atari800, atascii.join_lines(lines, Encoding.ATASCII))
    program = tokenize(source.read_bytes(), save_command=SAVE_COMMAND)
    assert program == as_atari_basic(result.saved)
    assert list_program(program, encoding=Encoding.ATASCII) == result.listed
    assert list_program(result.saved, encoding=Encoding.ATASCII) == result.listed


@pytest.mark.emulator
@pytest.mark.slow
def test_emulator_rejects_the_rejected_lines(atari800: str) -> None:
    listing = (Path(__file__).parent / "fixtures" / "rejected.lst").read_bytes()
    lines = atascii.split_lines(listing, Encoding.UTF8)
    result = enter_save_list(atari800, atascii.join_lines(lines, Encoding.ATASCII))
    assert result.listed == b""


@pytest.mark.emulator
@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True, database=None, phases=[Phase.generate])
@given(listing=listings(max_lines=40))
def test_emulator_agrees_on_generated_programs(atari800: str, listing: str) -> None:
    try:
        program = tokenize(listing, save_command=SAVE_COMMAND)
    except BasicSyntaxError as error:
        assume("line too long" not in error.reason)  # random lines can exceed 255 bytes
        raise
    lines = atascii.split_lines(listing.encode(), Encoding.UTF8)
    result = enter_save_list(atari800, atascii.join_lines(lines, Encoding.ATASCII))
    assert program == as_atari_basic(result.saved)
    assert list_program(program, encoding=Encoding.ATASCII) == result.listed


@pytest.mark.emulator
@pytest.mark.slow
@settings(max_examples=10, deadline=None, derandomize=True, database=None, phases=[Phase.generate])
@given(listing=mangled_listings())
def test_emulator_agrees_on_mangled_lines(atari800: str, listing: str) -> None:
    """Abbreviated, blank-less lines: BASIC and we accept the same lines, and each
    accepted line lists the same (compared line by line: a rejected line may still
    have created variables in the emulator, so whole SAVE files can differ)."""
    ours: dict[int, bytes] = {}
    for text in listing.splitlines():
        try:
            listed = list_program(tokenize(text + "\n"), encoding=Encoding.ATASCII)
        except BasicSyntaxError:
            continue
        assert isinstance(listed, bytes)
        ours[int(text.split(" ")[0])] = listed.rstrip(b"\x9b")
    lines = atascii.split_lines(listing.encode(), Encoding.UTF8)
    result = enter_save_list(atari800, atascii.join_lines(lines, Encoding.ATASCII))
    theirs = {int(line.split(b" ")[0]): line for line in result.listed.split(b"\x9b") if line}
    assert ours == theirs


@pytest.mark.emulator
@pytest.mark.slow
def test_altirra_differs_as_documented(atari800: str) -> None:
    """Altirra BASIC reads each line of altirra.DIFFERENCES its own way, as documented."""
    listing = b"".join(d.line.encode() + b"\x9b" for d in DIFFERENCES)
    result = enter_save_list(atari800, listing)
    listed = {line.split(b" ")[0]: line.decode() for line in result.listed.split(b"\x9b") if line}
    for difference in DIFFERENCES:
        number = difference.line.split(" ")[0].encode()
        assert listed.get(number) == difference.altirra, difference.line
