"""The test mode's harness on the stand-in machine (no atari800): what it puts in the
H: folder, types and reads back, and its errors when the program reports one, writes
nothing, or ran on other memory than reserved. tests/machfsol/atari/test_verify.py
runs the real programs in atari800."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.emu.emulator import using_backend
from a8.emu.keys import IDLE
from a8.emu.script import TypeText
from machfsol.atari import test_mode
from machfsol.atari.test_mode import (
    BOOT_FRAMES,
    CONFIG_NAME,
    FRAMES_PER_DEAL,
    START_FRAMES,
    AtariTestModeError,
    run_deals,
)
from machfsol.atari.test_player import Deal, expected_steps
from tests.a8.emu.fake_machine import FakeMachine, HFile

#: A stand-in for the program: its listing is only copied to H:, never run.
LISTING = "10 REM\n"


def run_program(
    machine: FakeMachine, folder: Path, memlo: int | None = None
) -> test_mode.TestModeRun:
    with using_backend(machine):
        return run_deals(1, [Deal(52, 1)], listing=LISTING, overlay="", folder=folder, memlo=memlo)


def test_the_transcripts_and_the_report_are_read_back(tmp_path: Path) -> None:
    machine = FakeMachine(
        files=[
            HFile("T1.TXT", b"SEED 1\x9b", at=300),
            HFile("MFDONE.TXT", b"DONE 1 FRE 12345 MEMLO 1792\x9b", at=400),
        ]
    )
    run = run_program(machine, tmp_path)
    assert (run.transcripts, run.free_bytes, run.memlo) == ((b"SEED 1\x9b",), 12345, 1792)
    assert run.frames == 540  # the first look after frame 400: looks every 300 from 240
    typed = TypeText('ENTER "H1:MACHFSOL.LST"\n').frames()
    assert machine.fed[: BOOT_FRAMES + len(typed)] == [IDLE] * BOOT_FRAMES + typed
    assert (tmp_path / CONFIG_NAME).read_bytes().startswith(b"MFTEST 5\x9bS 52 F U 001 ")
    assert (tmp_path / "MACHFSOL.LST").read_bytes() == b"10 REM\x9bRUN\x9b"


def test_an_error_the_program_reports_is_one_line(tmp_path: Path) -> None:
    machine = FakeMachine(files=[HFile("MFDONE.TXT", b"ERROR 8 AT 100\x9b", at=300)])
    with pytest.raises(AtariTestModeError, match=r"^MACHFSOL\.1 reported: ERROR 8 AT 100$"):
        run_program(machine, tmp_path)


def test_a_program_that_writes_nothing_ends_at_its_budget(tmp_path: Path) -> None:
    budget = START_FRAMES + FRAMES_PER_DEAL
    machine = FakeMachine()
    with pytest.raises(
        AtariTestModeError,
        match=rf"^MACHFSOL\.1 wrote no MFDONE\.TXT in {budget} frames "
        r"\(emulator: wait-file-timeout\)$",
    ):
        run_program(machine, tmp_path)
    assert machine.runs[0].hdir == tmp_path


def test_the_reserved_memory_must_be_the_programs(tmp_path: Path) -> None:
    report = b"DONE 1 FRE 30000 MEMLO 1792\x9b"
    machine = FakeMachine(files=[HFile("T1.TXT", b"", at=0), HFile("MFDONE.TXT", report, at=0)])
    with pytest.raises(AtariTestModeError, match="ran with MEMLO 1792, not the 7276 reserved"):
        run_program(machine, tmp_path, memlo=0x1C6C)
    poke = TypeText("POKE 743,108:POKE 744,28:NEW\n").frames()
    assert machine.fed[BOOT_FRAMES : BOOT_FRAMES + len(poke)] == poke


def test_a_deal_with_a_score_sets_it_on_its_s_line() -> None:
    deals = [Deal(52, 7), Deal(52, 2147483646, score=(9, 999))]
    text = test_mode.config_text(deals, [[], []]).decode("latin-1").split("\x9b")
    assert [line for line in text if line.startswith("S ")] == [
        "S 52 F U 001 002",
        "S 52 F U 002 002 00009 00999",
    ]


def test_a_deal_whose_steps_type_the_options_names_the_table_before_them() -> None:
    """The overlay makes the S line's table before a deal's steps: for a deal whose
    number is typed before the options (its steps type them), the table as it was;
    for one whose options the overlay types, the deal's own (and on a test disk)."""
    deals = [Deal(52, 1), Deal(40, 5, spanish=True), Deal(44, 6)]
    steps = list(expected_steps(1, deals))
    assert [any(step.options for step in own) for own in steps] == [False, True, True]
    text = test_mode.config_text(deals, steps).decode("latin-1").split("\x9b")
    assert [line[:8] for line in text if line.startswith("S ")] == [
        "S 52 F U",
        "S 52 F U",  # then N 5, O D D D S RETURN
        "S 40 S U",  # then N 6, O D D D D S RETURN (40 -> 44 goes round)
    ]
    disk = list(expected_steps(1, deals, as_is=False))
    text = test_mode.config_text(deals, disk).decode("latin-1").split("\x9b")
    assert [line[:8] for line in text if line.startswith("S ")] == [
        "S 52 F U",
        "S 40 S U",
        "S 44 F U",
    ]


@pytest.mark.parametrize("score", [(5, 4), (-1, 3), (0, 10000)])
def test_a_score_must_be_won_of_played(score: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="deal score"):
        Deal(52, 1, score=score)


def test_a_random_deal_is_followed_by_its_transcript() -> None:
    """N, RETURN (a deal of even number typed the long way makes a random deal): a
    ``T`` line right after that step, then the deal's own at its end."""
    deals = [Deal(52, 3), Deal(52, 4, "N")]
    steps = list(expected_steps(1, deals))
    text = test_mode.config_text(deals, steps).decode("latin-1").split("\x9b")
    random_step = "K " + "".join(map(test_mode.key_character, ("N", "RETURN")))
    assert text.count("T") == 3
    assert text[text.index(random_step) + 1] == "T"
    assert text[-3:] == ["T", "END", ""]


def test_run_deals_reads_each_deal_s_own_transcript(tmp_path: Path) -> None:
    """A random deal's transcript comes before its deal's own: T2.TXT here."""
    machine = FakeMachine(
        files=[
            HFile("T1.TXT", b"SEED 3\x9b", at=300),
            HFile("T2.TXT", b"SEED 99\x9b", at=350),
            HFile("T3.TXT", b"SEED 4\x9b", at=380),
            HFile("MFDONE.TXT", b"DONE 3 FRE 12345 MEMLO 1792\x9b", at=400),
        ]
    )
    deals = [Deal(52, 3), Deal(52, 4, "N")]
    with using_backend(machine):
        run = run_deals(1, deals, listing=LISTING, overlay="", folder=tmp_path)
    assert run.transcripts == (b"SEED 3\x9b", b"SEED 4\x9b")
