from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from machfsol.cli import main
from machfsol.engine.deal import deal

#: The ``machfsol`` command in a process of its own, run by this interpreter.
MACHFSOL = [sys.executable, "-c", "import sys; from machfsol.cli import main; sys.exit(main())"]


def test_deal_prints_codes_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out == " ".join(card.code for card in deal(1, 52)) + "\n"
    assert main(["deal", "--seed", "42", "--deck", "40"]) == 0
    assert len(capsys.readouterr().out.split()) == 40


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--seed", "0"],
        ["deal", "--seed", "2147483647"],
        ["deal", "--seed", "abc"],
        ["deal", "--seed", "5", "--deck", "33"],
        ["deal"],
        ["deal", "--order", "AS 2S"],
        ["autoplay", "--variant", "1", "--seed", "-1"],
        ["autoplay", "--variant", "1", "--seed", "²"],
        ["deal", "--seed", "9" * 5000],
    ],
)
def test_bad_arguments_give_one_line_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("machfsol: ") and err.count("\n") == 1


def test_order_option(capsys: pytest.CaptureFixture[str]) -> None:
    order = " ".join(card.code for card in deal(8, 40))
    assert main(["deal", "--order", order]) == 0
    assert capsys.readouterr().out.strip() == order
    assert main(["autoplay", "--variant", "2", "--order", order]) == 0
    assert "SEED NONE" in capsys.readouterr().out


def test_autoplay_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["autoplay", "--variant", "1", "--seed", "3", "--deck", "44"]) == 0
    good = tmp_path / "good.txt"
    good.write_text(capsys.readouterr().out)
    bad = tmp_path / "bad.txt"
    lines = good.read_text().splitlines()
    bad.write_text("\n".join(lines[:-2] + lines[-1:]) + "\n")
    assert main(["check", str(good)]) == 0
    assert "good.txt: OK" in capsys.readouterr().out
    assert main(["check", str(good), str(bad), str(tmp_path / "missing.txt")]) == 1
    captured = capsys.readouterr()
    assert "good.txt: OK" in captured.out
    errors = captured.err.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"machfsol: {bad}:")
    assert "missing.txt: cannot read" in errors[1]


def test_greedy_policy_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["autoplay", "--variant", "1", "--seed", "3", "--policy", "greedy"]) == 0
    assert "PLAYER GREEDY" in capsys.readouterr().out


@pytest.mark.emulator
def test_main_demo(
    atari800: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine demo, then the main job (it writes MACHFSOL.ATR in the current folder:
    a scratch one here, never the repository's committed disk)."""
    monkeypatch.chdir(tmp_path)
    assert main(["main", "--deals", "20", "--seeds", "1-2"]) == 0
    out = capsys.readouterr().out
    assert "variant 1, 52 cards, seeds 1..20: auto" in out
    assert out.count("seed ") >= 6
    assert "4 of 4 deals verified" in out
    assert out.rstrip().endswith(f"the game disk: {tmp_path / 'MACHFSOL.ATR'}")


def test_check_goes_on_after_a_bad_timing_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was a traceback that also stopped the files after it: ``JIFFIES GAME ²``."""
    assert main(["autoplay", "--variant", "1", "--seed", "3"]) == 0
    good = capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text(good + "JIFFIES GAME \u00b2\n", encoding="utf-8")
    fine = tmp_path / "fine.txt"
    fine.write_text(good, encoding="ascii")
    assert main(["check", str(bad), str(fine)]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith(f"machfsol: {bad}:")
    assert "nothing but JIFFIES" in err and "Traceback" not in err
    assert out.count("\n") == 1 and str(fine) in out


def test_check_reads_no_more_than_a_transcript_can_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Was: ``machfsol check /dev/zero`` read until the memory ran out."""
    assert main(["check", "/dev/zero"]) == 1
    assert capsys.readouterr().err == (
        "machfsol: /dev/zero: more than 4,000,000 bytes: larger than any transcript\n"
    )


def test_check_dash_reads_standard_input(tmp_path: Path) -> None:
    """``machfsol play``'s ``save -`` says ``machfsol check -`` replays it: it does."""
    transcript = subprocess.run(
        [*MACHFSOL, "autoplay", "--variant", "2", "--seed", "7"], capture_output=True, check=True
    ).stdout
    result = subprocess.run(
        [*MACHFSOL, "check", "-"], input=transcript, capture_output=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith("standard input: OK")
    (tmp_path / "-").write_bytes(b"not a transcript\n")  # ./- is a file, not stdin
    result = subprocess.run(
        [*MACHFSOL, "check", "./-"], cwd=tmp_path, input=transcript, capture_output=True
    )
    assert result.returncode == 1 and result.stderr.decode().startswith("machfsol: ./-:")
