"""The tokenizer and lister against golden files written by the emulator's Altirra BASIC.

The reference is genuine Atari BASIC rev. C (test_revc_gold.py). The golden files here
(fixtures/golden, made by fixtures/regenerate.py) are what Altirra BASIC 1.55 in
atari800 wrote after ENTERing each corpus listing: the SAVE file and the LIST output.
The corpus holds only lines where Altirra BASIC and rev. C agree (altirra.py lists
where they do not; :func:`test_altirra_differences_follow_rev_c` checks our side), and
Altirra's way of saving negative constants is rewritten the rev. C way
(altirra.as_atari_basic); everything else must match byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic import BasicSyntaxError, Encoding, atascii, list_program, tokenize
from a8.basic.program import Program
from tests.a8.basic.altirra import DIFFERENCES, Difference, as_atari_basic
from tests.a8.basic.oracle import SAVE_COMMAND

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = sorted((FIXTURES / "corpus").glob("*.lst"))


def _golden(source: Path) -> tuple[bytes, bytes]:
    golden = FIXTURES / "golden"
    return (golden / f"{source.stem}.bas").read_bytes(), (
        golden / f"{source.stem}.lst"
    ).read_bytes()


@pytest.mark.parametrize("source", CORPUS, ids=lambda path: path.stem)
def test_tokenize_equals_save(source: Path) -> None:
    saved, _ = _golden(source)
    assert tokenize(source.read_bytes(), save_command=SAVE_COMMAND) == as_atari_basic(saved)


@pytest.mark.parametrize("source", CORPUS, ids=lambda path: path.stem)
def test_list_equals_list(source: Path) -> None:
    saved, listed = _golden(source)
    assert list_program(saved, encoding=Encoding.ATASCII) == listed


@pytest.mark.parametrize("source", CORPUS, ids=lambda path: path.stem)
def test_list_of_tokenized_listing_equals_list(source: Path) -> None:
    _, listed = _golden(source)
    program = tokenize(source.read_bytes(), save_command=SAVE_COMMAND)
    assert list_program(program, encoding=Encoding.ATASCII) == listed


@pytest.mark.parametrize("source", CORPUS, ids=lambda path: path.stem)
def test_tokenize_of_list_is_identity(source: Path) -> None:
    saved, _ = _golden(source)
    atari = as_atari_basic(saved)
    listing = list_program(atari)
    assert tokenize(listing, save_command=SAVE_COMMAND) == atari


def test_corpus_uses_every_statement_function_and_operator() -> None:
    used: set[tuple[str, int]] = set()
    for source in CORPUS:
        program = Program.from_bytes(as_atari_basic(_golden(source)[0]))
        for line in program.lines:
            _collect(line.data, used)
    statements = {("statement", token) for token in range(0x37)}
    operators = {("operator", token) for token in range(0x12, 0x55) if token != 0x13}
    assert statements - used == set()
    assert operators - used == set()


def _collect(data: bytes, used: set[tuple[str, int]]) -> None:
    from a8.basic.lister import decode_line
    from a8.basic.nodes import Operator
    from a8.basic.program import ProgramLine

    line = decode_line(ProgramLine(int.from_bytes(data[:2], "little"), data), tuple("?" * 128))
    for statement in line.statements:
        used.add(("statement", statement.token))
        for element in statement.elements:
            if isinstance(element, Operator):
                used.add(("operator", element.token))
    position = 3
    while position < data[2]:  # the end-of-line token is not a node
        position = data[position]
        if data[position - 1] == 0x16:
            used.add(("operator", 0x16))


def test_utf8_spelling_of_corpus_round_trips() -> None:
    for source in CORPUS:
        lines = atascii.split_lines(source.read_bytes(), Encoding.UTF8)
        assert atascii.join_lines(lines, Encoding.UTF8) == source.read_bytes()


REJECTED = (FIXTURES / "rejected.lst").read_text().splitlines()


@pytest.mark.parametrize("line", REJECTED)
def test_lines_the_emulator_rejects_are_rejected(line: str) -> None:
    """Each of these lines made ENTER print an error in the emulator (none was stored);
    rev. C rejects them too."""
    with pytest.raises(BasicSyntaxError, match=r"^R:1:\d+: "):
        tokenize(line + "\n", file="R")


@pytest.mark.parametrize("difference", DIFFERENCES, ids=lambda d: d.line)
def test_altirra_differences_follow_rev_c(difference: Difference) -> None:
    if difference.revc is None:
        with pytest.raises(BasicSyntaxError):
            tokenize(difference.line + "\n")
    else:
        assert list_program(tokenize(difference.line + "\n")) == difference.revc + "\n"
