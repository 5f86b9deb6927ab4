"""The solver asked in a child process, with a time limit; and its hints followed."""

from __future__ import annotations

import time

import pytest

from machfsol.cli import still_winnable
from machfsol.engine.cards import Card
from machfsol.engine.deal import deal
from machfsol.engine.rules import Move, Position, variant
from machfsol.errors import MachfsolError
from machfsol.terminal.full_screen import FullScreenGame, Mode
from machfsol.terminal.game import Sitting
from machfsol.terminal.game_options import Hints
from machfsol.terminal.solver_question import BUG_NOTE, Answer, Question, Verdict
from machfsol.terminal.table_view import CardFace


def quick(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    return Answer(Verdict.LOST, detail=f"{len(order)} {number} {len(moves)}")


def slow(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    time.sleep(60)
    return Answer(Verdict.LOST)  # pragma: no cover - stopped long before


def broken(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    raise RuntimeError("no luck")


def test_the_answer_comes_back_from_the_child() -> None:
    position = Position.from_seed(3, variant(2), 40)
    answer = Question(quick, position, 10).wait()
    assert answer == Answer(Verdict.LOST, detail="40 2 0")


def test_the_time_limit_stops_the_solver() -> None:
    started = time.monotonic()
    question = Question(slow, Position.from_seed(3, variant(1)), 0.5)
    assert question.poll() is None
    assert question.wait() == Answer(Verdict.UNDECIDED)
    assert time.monotonic() - started < 10
    assert not question._process.is_alive()


def refused(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    raise MachfsolError("no such deal")


def test_a_failure_is_an_answer_not_a_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    """A bug says it is one, and how to report it; the game refusing something does not."""
    answer = Question(broken, Position.from_seed(3, variant(1)), 10).wait()
    assert answer == Answer(Verdict.FAILED, detail=f"RuntimeError: no luck ({BUG_NOTE})")
    assert "Traceback" not in capfd.readouterr().err
    answer = Question(refused, Position.from_seed(3, variant(1)), 10).wait()
    assert answer == Answer(Verdict.FAILED, detail="MachfsolError: no such deal")


def test_cancel_stops_the_child() -> None:
    question = Question(slow, Position.from_seed(3, variant(1)), 30)
    question.cancel()
    assert not question._process.is_alive() and question.poll() is not None


def answered(game: FullScreenGame) -> None:
    deadline = time.monotonic() + 60
    while game.mode is Mode.SOLVING:
        assert time.monotonic() < deadline
        time.sleep(0.02)
        game.tick()


@pytest.mark.parametrize("number", [1, 2])
def test_following_the_solvers_hints_wins_deal_7(number: int) -> None:
    """The issue's complaint: following the hints loses deal 7 in both variants,
    though the solver wins both. With hints from the solver, following them wins."""
    sitting = Sitting(variant(number), CardFace())
    sitting.new_deal(deal(7, 52), 7)
    game = FullScreenGame(sitting, solver=still_winnable)
    game.hints = Hints.SOLVER
    while not sitting.position.is_over():
        game.press("H")
        answered(game)
        assert game.message.startswith("Hint (the solver's winning line):"), game.message
        move = game.hinted
        assert move is not None
        keys = game.keys_for(move)
        for key in ("SPACE" if keys == "SPACE" else keys).split(" then "):
            game.press(" " if key == "SPACE" else key)
        assert sitting.position.move_stack[-1] == move
    assert sitting.position.is_won()


def test_W_tells_winnable_lost_and_how_it_ends() -> None:
    sitting = Sitting(variant(1), CardFace())
    sitting.new_deal(deal(7, 52), 7)
    game = FullScreenGame(sitting, solver=still_winnable)
    game.press("W")
    assert game.mode is Mode.SOLVING and "any key stops" in game.message
    answered(game)
    assert game.message.startswith("Winnable: a winning move is")
    assert game.hinted == sitting.solver_move()
    game.press("W")
    game.press(" ")  # any key stops the question
    assert game.mode is Mode.PLAY and game.message == "Stopped asking the solver."
    assert sitting.moves == 0  # the key only stopped it
