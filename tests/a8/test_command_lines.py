"""Fuzzing the command lines of ``a8`` and ``machfsol`` on a fixed seed (tests/fuzz.py).

Real command lines, then the same with words replaced by, or followed by, what issue
28's careful users and their mistakes give: a name longer than the system allows,
``/dev/zero``, ``./-``, control characters, the input as the output, numbers out of
range. Every one must end with exit status 0, 1 or 2 (or argparse's usage error),
never a traceback. atari800 is hidden (``A8_ATARI800`` names no file), so a command
that gets as far as the emulator stops there with exit status 2, at once.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from a8.basic import tokenize
from a8.cli import main as a8_main
from a8.disk.dos2 import Dos2Disk
from machfsol.cli import main as machfsol_main
from machfsol.engine.autoplay import play
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import Player, of_game
from tests.fuzz import FuzzReport, fuzz_command_lines

#: What joins the words of a command line in a fuzz report's input.
NUL = bytes(1)

A8_LINES = [
    ["tokenize", "{folder}/P.LST", "-o", "{folder}/P.BAS"],
    ["list", "{folder}/P.BAS", "-o", "{folder}/P.OUT"],
    ["atr", "new", "{folder}/N.ATR", "--force"],
    ["atr", "ls", "{folder}/D.ATR"],
    ["atr", "add", "{folder}/D.ATR", "{folder}/P.BAS", "--name", "X.BAS"],
    ["atr", "get", "{folder}/D.ATR", "P.BAS", "-o", "{folder}/G.BAS"],
    ["atr", "rm", "{folder}/D.ATR", "X.BAS"],
    ["atr", "check", "{folder}/D.ATR"],
    ["atr", "boot", "{folder}/D.ATR", "--menu", "P.BAS=P"],
    ["emu", "run", "{folder}/P.BAS", "--script", "{folder}/S.TXT", "--log", "{folder}/L"],
    ["emu", "run", "{folder}/D.ATR", "--frames", "60", "--hdir", "{folder}"],
    ["emu", "doctor", "--hdir", "{folder}", "--os-rom", "{folder}/P.BAS"],
]
MACHFSOL_LINES = [
    ["deal", "--seed", "7", "--deck", "20"],
    ["autoplay", "--variant", "2", "--seed", "7", "--deck", "20"],
    ["check", "{folder}/T.TXT"],
    ["listing", "1", "-o", "{folder}/M.LST"],
    ["build", "-o", "{folder}/M.ATR"],
    ["solve", "--variant", "1", "--deck", "20", "--seed", "5"],
    ["odds", "--variant", "1", "--deck", "20", "--deals", "3"],
    ["verify", "--seeds", "1", "--deck", "20", "--variant", "1", "--disk", "{folder}/D.ATR"],
    ["main", "--deals", "2", "--seeds", "1"],
    ["play", "--plain", "--seed", "3", "--deck", "20"],
]


#: What each command line reads, for the fuzzer's "the input as the output".
A8_INPUTS = {"tokenize": "P.LST", "list": "P.BAS", "atr": "D.ATR", "emu": "P.BAS"}
MACHFSOL_INPUTS = {"check": "T.TXT", "listing": "M.LST", "build": "M.ATR", "verify": "D.ATR"}


def fill(folder: Path) -> None:
    """A file of each kind the command lines read, in ``folder``."""
    (folder / "P.LST").write_text('10 PRINT "HI"\n20 GOTO 10\n')
    program = tokenize('10 PRINT "HI"\n')
    (folder / "P.BAS").write_bytes(program)
    disk = Dos2Disk.new()
    disk.add_file("P.BAS", program)
    (folder / "D.ATR").write_bytes(disk.to_bytes())
    (folder / "S.TXT").write_text("wait 10\nkey RETURN\n")
    game = play(Position.from_seed(7, variant(2), 20))
    (folder / "T.TXT").write_text(of_game(game, seed=7, player=Player.AUTO))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch folder with a file of each kind the commands read; the current folder."""
    fill(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("A8_ATARI800", str(tmp_path / "no-atari800"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # play reads its commands here
    return tmp_path


def assert_no_tracebacks(report: FuzzReport) -> None:
    found = [f"{c.error} at {c.where}: {c.data.split(NUL)!r}" for c in report.crashes]
    assert report.tracebacks == 0, found
    assert report.accepted and report.refused == 0  # SystemExit is caught as a result


def test_a8_command_lines(folder: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    report = fuzz_command_lines(
        "a8", a8_main, A8_LINES, 400, folder=str(folder), inputs=A8_INPUTS, seed=28
    )
    capsysbinary.readouterr()
    assert_no_tracebacks(report)


def test_machfsol_command_lines(folder: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    report = fuzz_command_lines(
        "machfsol",
        machfsol_main,
        MACHFSOL_LINES,
        250,
        folder=str(folder),
        inputs=MACHFSOL_INPUTS,
        seed=28,
    )
    capsysbinary.readouterr()
    assert_no_tracebacks(report)
