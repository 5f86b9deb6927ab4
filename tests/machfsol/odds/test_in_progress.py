"""The solver started from a game in progress: the same searches, from the table."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from machfsol.engine.autoplay import choose_move, play
from machfsol.engine.deal import deal
from machfsol.engine.rules import Move, Place, Position, variant
from machfsol.odds.solver import Verdict, replay, search, search_in_progress, solve_in_progress


@pytest.mark.parametrize(("number", "size"), [(1, 52), (1, 40), (2, 52), (2, 40), (2, 28)])
def test_from_the_dealt_table_it_is_the_search_from_the_deal(number: int, size: int) -> None:
    """Started from the table as dealt, each search visits the very states of the
    search from the deal: the same verdict, node count and line."""
    for seed in range(1, 6):
        order = deal(seed, size)
        dealt = Position(order, variant(number))
        forms = [{}] if number == 1 else [{"compiled": False}, {"compiled": True}]
        for form in forms:
            limit = 10**6
            expected = search(order, number, limit, **form)  # type: ignore[arg-type]
            found = search_in_progress(dealt, limit, **form)  # type: ignore[arg-type]
            assert (found.verdict, found.nodes, found.moves) == (
                expected.verdict,
                expected.nodes,
                expected.moves,
            )


def tables_in_games(number: int, size: int, seeds: range, share: float) -> Iterator[Position]:
    """Tables of random games (the policy's move 60% of the time), about ``share`` of
    them."""
    for seed in seeds:
        chooser = random.Random(seed * 7 + number)
        position = Position.from_seed(seed, variant(number), size)
        while not position.is_over():
            move = choose_move(position)
            legal = position.legal_moves()
            position.push(move if move and chooser.random() < 0.6 else chooser.choice(legal))
            if chooser.random() < share:
                yield position.copy()


@pytest.mark.parametrize(("number", "size"), [(1, 28), (1, 32), (2, 28), (2, 32), (2, 36)])
def test_in_the_middle_of_games_it_agrees_with_the_plain_search(number: int, size: int) -> None:
    """From tables met in random games, the reduced searches answer as the plain search
    (no reduction at all) does, and every winning line wins from the very table."""
    verdicts = set()
    for position in tables_in_games(number, size, range(1, 16), 0.3):
        found = search_in_progress(position)
        plain = search_in_progress(position, 2 * 10**6, plain=True, compiled=False)
        assert found.verdict == plain.verdict, position.move_stack
        verdicts.add(found.verdict)
        if found.won:
            made = position.move_stack
            assert found.moves[: len(made)] == made
            assert replay(position.order, number, found.moves).is_won()
    assert verdicts == {Verdict.WON, Verdict.LOST}


@pytest.mark.parametrize("size", [52, 40])
def test_the_compiled_search_from_a_table_is_the_python_search(size: int) -> None:
    for position in tables_in_games(2, size, range(1, 4), 0.1):
        compiled = search_in_progress(position, 10**6, compiled=True)
        python = search_in_progress(position, 10**6, compiled=False)
        assert (compiled.verdict, compiled.nodes, compiled.moves) == (
            python.verdict,
            python.nodes,
            python.moves,
        )


@pytest.mark.parametrize("number", [1, 2])
def test_deal_7_is_won_by_the_solver_and_lost_by_the_hints(number: int) -> None:
    """The issue's deal: the hints (the policy) lose it, the solver wins it. Along the
    policy's game the answer turns from WON to LOST once, and stays LOST."""
    order = deal(7, 52)
    policy = play(Position(order, variant(number)))
    assert not policy.is_won()
    made: list[Move] = []
    answers = [solve_in_progress(order, number, ()).verdict]
    for move in policy.move_stack:
        made.append(move)
        answers.append(solve_in_progress(order, number, made).verdict)
    assert answers[0] is Verdict.WON and answers[-1] is Verdict.LOST
    turn = answers.index(Verdict.LOST)
    assert set(answers[:turn]) == {Verdict.WON} and set(answers[turn:]) == {Verdict.LOST}


def test_a_won_or_finished_game_is_answered_at_once() -> None:
    order = deal(2, 28)
    won = next(
        seed for seed in range(1, 100) if play(Position.from_seed(seed, variant(1), 28)).is_won()
    )
    game = play(Position.from_seed(won, variant(1), 28))
    answer = solve_in_progress(deal(won, 28), 1, game.move_stack)
    assert answer.verdict is Verdict.WON and answer.moves == game.move_stack
    lost = play(Position(order, variant(2)))
    if not lost.is_won():
        assert solve_in_progress(order, 2, lost.move_stack).verdict is Verdict.LOST


def test_a_king_on_its_ace_pile_is_searched_without_reductions() -> None:
    """A table where a player moved a King onto its Ace pile (the searches never do)."""
    for position in tables_in_games(2, 24, range(1, 40), 1.0):
        kings = [m for m in position.legal_moves() if m.source.is_king_pile]
        king = next((m for m in kings if position.card_to_move(m).is_king), None)
        if king is None:
            continue
        position.push(king)
        found = search_in_progress(position)
        plain = search_in_progress(position, plain=True, compiled=False)
        assert found.verdict == plain.verdict
        if found.won:
            assert replay(position.order, 2, found.moves).is_won()
        return
    pytest.fail("no King reached its Ace pile in these games")


def test_the_policy_answers_first() -> None:
    order = deal(1, 52)
    first = Move(Place.S, Place.W)
    answer = solve_in_progress(order, 1, (first,))
    continued = play(replay(order, 1, (first,)))
    if continued.is_won():
        assert answer.by_policy and answer.moves == continued.move_stack
    else:
        assert not answer.by_policy
