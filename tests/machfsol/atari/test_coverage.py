"""``machfsol verify --coverage``: the instrumented program, the reasons in the source,
and, in the emulator, the report of the default verification's coverage."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from a8.basic import list_program, tokenize
from a8.basic.program import Program
from machfsol.atari.basic_game import BasicSource, kept_lines, read_source
from machfsol.atari.build import game_programs
from machfsol.atari.coverage import (
    MAP_ADDRESS,
    Coverage,
    CoverageError,
    instrument,
    unrun_reasons,
)
from machfsol.cli import main


def _listing(program: bytes) -> str:
    listed = list_program(program)
    assert isinstance(listed, str)
    return listed


def test_each_line_sets_its_byte_and_data_stays() -> None:
    program = tokenize('10 X=1:GOTO 30\n20 DATA 1,2\n30 PRINT "A":END\n')
    instrumented = instrument(program)
    assert instrumented.lines == (10, 30)
    ten, twenty, thirty = _listing(program).splitlines()
    assert _listing(instrumented.program).splitlines() == [
        ten.replace("10 ", f"10 CV=1:POKE {MAP_ADDRESS},CV:", 1),  # CV: 1 in one byte
        twenty,
        thirty.replace("30 ", f"30 POKE {MAP_ADDRESS + 1},CV:", 1),
    ]
    assert instrumented.memlo == 0x0800


def test_with_no_variable_free_the_pokes_write_the_number() -> None:
    lines = [":".join(f"V{n}=0" for n in range(k, k + 16)) for k in range(0, 128, 16)]
    program = tokenize("".join(f"{10 + i} {line}\n" for i, line in enumerate(lines)))
    instrumented = instrument(program)
    assert _listing(instrumented.program).splitlines()[0].startswith(f"10 POKE {MAP_ADDRESS},1:")
    assert Program.from_bytes(instrumented.program).names == Program.from_bytes(program).names


def test_a_line_with_no_room_left_becomes_two() -> None:
    long = '10 A$="' + "X" * 230 + '":GOTO 10\n20 END\n'
    instrumented = instrument(tokenize(long))
    lines = Program.from_bytes(instrumented.program).lines
    assert [line.number for line in lines] == [10, 11, 20]
    assert _listing(instrumented.program).splitlines()[0] == f"10 CV=1:POKE {MAP_ADDRESS},CV"
    assert instrumented.lines == (10, 20)
    taken = '10 A$="' + "X" * 230 + '"\n11 END\n'
    with pytest.raises(CoverageError, match="line 10 is too long to instrument, and line 11"):
        instrument(tokenize(taken))


@pytest.mark.parametrize("variant", [1, 2])
def test_the_games_instrument_and_list_back(variant: int) -> None:
    program = game_programs()[variant]
    kept = kept_lines(read_source(), variant)
    assert kept == set(range(10171, 10177))  # the record's routines, two strings each
    instrumented = instrument(program, keep=kept)
    assert instrumented.kept == tuple(sorted(kept))
    before, after = (
        {line.number: line.data for line in Program.from_bytes(p).lines}
        for p in (program, instrumented.program)
    )
    for number in kept:  # as they were: the movers' gap between the strings holds
        assert after[number] == before[number]
    listed = {
        int(line.split(" ", 1)[0]): line for line in _listing(instrumented.program).splitlines()
    }
    original = {line.number for line in Program.from_bytes(program).lines}
    assert len(instrumented.lines) >= 250
    for index, number in enumerate(instrumented.lines):
        first = "CV=1:" if index == 0 else ""
        assert listed[number].startswith(f"{number} {first}POKE {MAP_ADDRESS + index},CV")
    unmarked = set(listed) - set(instrumented.lines) - kept
    # DATA lines, and the second halves of the lines too long for the POKE
    assert all("DATA" in listed[n] or n - 1 in instrumented.lines for n in unmarked)
    assert unmarked - original == {n for n in unmarked if "DATA" not in listed[n]}


def test_the_map_read_back() -> None:
    instrumented = instrument(tokenize("10 END\n20 END\n30 END\n"))
    assert instrumented.run_lines("101\x9b") == frozenset({10, 30})
    with pytest.raises(CoverageError, match="expected 3 marks"):
        instrumented.run_lines("10")


def test_reasons_come_from_the_source() -> None:
    source = BasicSource(
        "S.BAS",
        "# unrun: only an error\n"
        "# comes here\n"
        "100 PRINT\n"
        "# unrun 200-210: never\n"
        "200 REM\n"
        "#V1 300 PRINT 1\n"
        "# unrun: variant 2 only\n"
        "#V2 300 PRINT 2\n",
    )
    assert unrun_reasons(source, 1) == {100: "only an error comes here", 200: "never", 201: "never",
        202: "never", 203: "never", 204: "never", 205: "never", 206: "never", 207: "never",
        208: "never", 209: "never", 210: "never"}  # fmt: skip
    assert unrun_reasons(source, 2)[300] == "variant 2 only"


def test_a_reason_for_one_program_only() -> None:
    source = BasicSource(
        "S.BAS",
        "# unrun V1: MACHFSOL.1 never\n"
        "# gets here\n"
        "100 PRINT\n"
        "110 PRINT\n"
        "# unrun V2 200-201: nor MACHFSOL.2 here\n"
        "200 PRINT\n",
    )
    assert unrun_reasons(source, 1) == {100: "MACHFSOL.1 never gets here"}
    assert unrun_reasons(source, 2) == {200: "nor MACHFSOL.2 here", 201: "nor MACHFSOL.2 here"}


def test_the_report_names_each_unrun_line_and_its_reason() -> None:
    coverage = Coverage(1, (10, 20, 30, 40), frozenset({10, 40}), {20: "never"})
    assert coverage.unrun == (20, 30) and coverage.unexplained == (30,)
    assert not coverage.ok
    assert coverage.report_lines() == [
        "coverage, MACHFSOL.1: 2 of 4 lines run (50.0%): 10, 40",
        "  never run: 20: never",
        "  never run: 30: NO REASON GIVEN (# unrun: ...)",
    ]


def test_the_real_source_explains_its_error_handlers() -> None:
    reasons = unrun_reasons(read_source(), 1)
    assert "set-up" in reasons[10195]
    # the game's own handler runs in every deal with mistakes (the test mode's error)
    assert 9010 not in reasons and 9020 not in reasons


# ------------------------------------------------------------------ in the emulator


@pytest.mark.emulator
@pytest.mark.slow
def test_the_default_verification_runs_every_line_but_the_explained(
    atari800: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The acceptance of issue 29: --coverage lists no unrun line without a reason."""
    status = main(["verify", "--coverage", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, [c["unrun"] for c in report["coverage"]]
    for coverage in report["coverage"]:
        assert all(item["reason"] for item in coverage["unrun"])
        assert len(coverage["run"]) > 0.95 * coverage["lines"]


@pytest.mark.emulator
def test_a_line_without_a_reason_fails(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source whose set-up's error handler lost its reason: --coverage fails and
    names its lines."""
    text = read_source().text
    without = re.sub(r"# unrun 10190-10197:.*?\n(# .*\n)*", "", text)
    assert without != text
    source = tmp_path / "MY.BAS"
    source.write_text(without, encoding="ascii")
    args = ["verify", "--coverage", "--json", "--source", str(source), "--variant", "1"]
    assert main([*args, "--seeds", "1"]) == 1
    (coverage,) = json.loads(capsys.readouterr().out)["coverage"]
    reasons = {item["line"]: item["reason"] for item in coverage["unrun"]}
    assert reasons[10195] is None and reasons[10196] is None
