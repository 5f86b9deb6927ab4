from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.engine.autoplay import (
    choose_move,
    distance,
    greedy_move,
    greedy_raw_move,
    play,
    policy_move,
)
from machfsol.engine.deal import MAX_SEED, deal
from machfsol.engine.rules import DRAW, VARIANTS, Position, variant
from tests.machfsol.support import move, position

seeds = st.integers(min_value=1, max_value=MAX_SEED)
sizes = st.sampled_from([52, 48, 44, 40, 36, 32, 28, 24, 20])
variants = st.sampled_from([1, 2])


@settings(max_examples=60, deadline=None)
@given(seeds, variants, sizes)
def test_policies_choose_legal_moves_until_no_legal_move_is_left(
    seed: int, number: int, size: int
) -> None:
    for chooser in (choose_move, greedy_move):
        game = Position.from_seed(seed, variant(number), size)
        while True:
            chosen = chooser(game)
            if chosen is None:
                assert game.is_won() or game.legal_moves() == []
                break
            assert chosen in game.legal_moves()
            game.push(chosen)


@settings(max_examples=30, deadline=None)
@given(seeds, variants, sizes)
def test_autoplay_is_deterministic(seed: int, number: int, size: int) -> None:
    first = play(Position.from_seed(seed, variant(number), size))
    second = play(Position.from_seed(seed, variant(number), size))
    assert first.steps() == second.steps()


def test_policy_plays_a_playable_discard_top_first() -> None:
    game = position(20, "AS TS", 1)
    game.push(DRAW)
    game.push(DRAW)
    assert choose_move(game) == move("W AS")


def test_policy_holds_a_rescue_while_the_discard_top_is_far_from_playable() -> None:
    # 28 cards (ranks A89TJQK, R = 7), variant 1: spaces 8S JD. Drawing AS makes 8S a
    # rescue (one only, so the limit is 2 and there is nothing under the top to dig).
    game = position(28, "8S JD AS 9C", 1)
    game.push(DRAW)  # AS goes to its pile
    game.push(DRAW)  # 9C (rank 2): Ace side 2 - 0 = 2; King of clubs not out: 7 - 1 - 2 = 4
    assert distance(game, game._discard[-1]) == 2
    assert choose_move(game) == move("T1 AS")  # distance 2: rescue 9C now
    game = position(28, "8S JD AS TC", 1)
    game.push(DRAW)
    game.push(DRAW)  # TC (rank 3): Ace side 3, King side 7 - 1 - 3 = 3: keep 8S, draw
    assert distance(game, game._discard[-1]) == 3
    assert choose_move(game) == DRAW
    assert greedy_move(game) == move("T1 AS")  # greedy plays it at once


def test_policy_beats_greedy_on_the_same_deals() -> None:
    # A fixed sample (deterministic): the policy must win more games than greedy.
    for number in (1, 2):
        orders = [deal(seed, 52) for seed in range(1, 1001)]
        auto = sum(play(Position(o, VARIANTS[number]), policy_move).is_won() for o in orders)
        greedy = sum(play(Position(o, VARIANTS[number]), greedy_raw_move).is_won() for o in orders)
        assert auto > greedy, (number, auto, greedy)


def _golden_autoplay() -> list[list[str]]:
    path = Path(__file__).parent / "fixtures" / "golden_autoplay.txt"
    return [line.split() for line in path.read_text().splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("row", _golden_autoplay(), ids=lambda row: "-".join(row[:3]))
def test_golden_autoplay_games(row: list[str]) -> None:
    """The policy is ported to Atari BASIC: any change of its moves must be deliberate."""
    number, size, seed = (int(value) for value in row[:3])
    game = play(Position.from_seed(seed, variant(number), size))
    moves = "\n".join(
        f"M {s.source.name} {s.destination.name} {s.card.code}"
        for s in game.steps()
        if not s.forced
    )
    outcome = "WON" if game.is_won() else "LOST"
    digest = hashlib.sha1(moves.encode()).hexdigest()[:12]
    assert [outcome, str(game.foundation_count()), str(len(game.move_stack)), digest] == row[3:]
