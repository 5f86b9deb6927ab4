"""machfsol odds: Wilson intervals, the one-redeal rule, the counts and the command."""

from __future__ import annotations

import json
import math

import pytest

from machfsol.cli import main
from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.deal import deal
from machfsol.engine.rules import DRAW, Position, variant
from machfsol.odds.chart import draw_chart
from machfsol.odds.study import Tally, compute, play_with_redeal, wilson_interval

JSON_KEYS = {
    "variant",
    "deck",
    "deals",
    "first_seed",
    "autoplay_wins",
    "solver_wins",
    "solver_unknown",
    "redeal_wins",
}


def test_wilson_known_values() -> None:
    # Values from the closed formula, computed by hand (z = 1.96).
    low, high = wilson_interval(5, 10)
    assert math.isclose(low, 0.2366, abs_tol=1e-4) and math.isclose(high, 0.7634, abs_tol=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson_interval(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-4) and high == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_contains_the_rate_and_narrows() -> None:
    for n in (10, 100, 1000):
        for k in range(0, n + 1, max(1, n // 10)):
            low, high = wilson_interval(k, n)
            assert low <= k / n <= high
    assert wilson_interval(500, 1000)[1] - wilson_interval(500, 1000)[0] < (
        wilson_interval(50, 100)[1] - wilson_interval(50, 100)[0]
    )
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_turning_the_pile_over_deals_it_again_in_drawing_order() -> None:
    # Find a lost game with a discard pile left, then turn it over.
    for seed in range(1, 50):
        position = play(Position(deal(seed, 52), variant(1)), policy_move)
        if not position.is_won() and len(position.discard()) > 1:
            break
    pile = position.discard()  # bottom first: the order the cards were discarded
    position.turn_over_discard()
    assert position.discard() == () and position.stock_count() == len(pile)
    drawn = []
    while position.stock_count():
        position.push(DRAW)
        drawn.append(position.discard()[-1] if position.discard() else None)
    # The first card drawn again is the first one discarded (the pile's bottom).
    assert drawn[0] == pile[0]


def test_redeal_never_loses_what_autoplay_wins() -> None:
    for seed in range(1, 30):
        won, won_redeal = play_with_redeal(Position(deal(seed, 40), variant(2)))
        assert won_redeal or not won


def test_counts_do_not_depend_on_workers() -> None:
    configs = [(1, 20), (2, 24)]
    one = compute(configs, 30, first_seed=5, solver_deals=10, jobs=1)
    two = compute(configs, 30, first_seed=5, solver_deals=10, jobs=2)
    assert [r.tally for r in one] == [r.tally for r in two]
    for row in one:
        t = row.tally
        assert t.deals == 30 and t.solver_deals == 10
        assert t.autoplay_wins <= t.redeal_wins <= t.deals
        assert t.solver_wins + t.solver_unknown <= t.solver_deals
        low, high = row.solver_interval()
        assert low <= high


def test_tally_adds() -> None:
    assert Tally(1, 1, 1, 1, 1, 0) + Tally(2, 0, 1, 1, 0, 1) == Tally(3, 1, 2, 2, 1, 1)


def test_odds_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "odds",
            "--variant",
            "both",
            "--deck",
            "20",
            "--deals",
            "12",
            "--first-seed",
            "3",
            "--json",
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["rows"]
    assert [(r["variant"], r["deck"]) for r in data["rows"]] == [(1, 20), (2, 20)]
    for row in data["rows"]:
        assert set(row) >= JSON_KEYS
        assert all(isinstance(row[key], int) for key in row)
        assert row["deals"] == 12 and row["first_seed"] == 3
        assert row["autoplay_wins"] <= row["redeal_wins"] <= 12
        assert row["solver_wins"] + row["solver_unknown"] <= row["solver_deals"]


def test_odds_table_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--variant", "1", "--deck", "24", "--deals", "5"]) == 0
    out = capsys.readouterr().out
    assert "autoplay" in out and "  1   24       5" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deck", "50"], "--deck '50'"),
        (["--deals", "0"], "--deals '0'"),
        (["--first-seed", "0"], "seed 0"),
        (["--first-seed", "x"], "seed 'x'"),
        (["--jobs", "x"], "--jobs 'x'"),
    ],
)
def test_odds_bad_options(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "0"], "seed 0 is outside"),
        (["--seed", "5", "--deck", "33"], "deck size 33"),
        (["--order", "AS 2S"], "--order has 2 cards"),
        ([], "give exactly one of --seed and --order"),
        (["--seed", "1", "--node-limit", "0"], "--node-limit '0'"),
    ],
)
def test_solve_bad_options(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_odds_variant_is_checked_as_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    """--variant is spelled and checked alike by every command (argparse's choices)."""
    with pytest.raises(SystemExit) as caught:
        main(["odds", "--variant", "3"])
    assert caught.value.code == 2
    assert "argument --variant: invalid choice: '3' (choose from '1', '2', 'both')" in (
        capsys.readouterr().err
    )


def test_chart_is_a_deterministic_png() -> None:
    rows = compute([(1, 20), (1, 24), (2, 20), (2, 24)], 8, solver_deals=4)
    first = draw_chart(rows)
    assert first.startswith(b"\x89PNG\r\n\x1a\n")
    assert draw_chart(rows) == first


def test_solve_command_writes_a_checked_transcript(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "won.txt"
    order = "AS TS JS QS KS AH TH JH QH KH AC TC JC QC KC AD TD JD QD KD"
    assert main(["solve", "--variant", "2", "--order", order, "--transcript", str(out)]) == 0
    assert capsys.readouterr().out.startswith("WON")
    assert main(["check", str(out)]) == 0
