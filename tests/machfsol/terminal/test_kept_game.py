"""Saved games loaded again (``--load``) and the game kept between runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from machfsol.atari.keyboard_game import player_moves
from machfsol.cli import main
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.terminal.kept_game import KeptGame, SavedGame, SavedGameError, load


def game(seed: int = 4, number: int = 2, size: int = 40, moves: int = 9) -> Position:
    position = Position.from_seed(seed, variant(number), size)
    for move in player_moves(position, moves):
        position.push(move)
    return position


def test_a_saved_transcript_loads_as_the_game_it_records(tmp_path: Path) -> None:
    position = game()
    path = tmp_path / "g.txt"
    path.write_text(of_game(position, seed=4, player=Player.HUMAN))
    saved = load(path)
    assert (saved.variant, saved.seed, saved.order) == (2, 4, position.order)
    assert saved.moves == position.move_stack
    assert saved.position().key() == position.key()
    assert saved.describe() == "deal 4 of MAChFsol 2 (40 cards), 9 moves, 0:00"


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda text: text.replace("MOVES\n", "MOVES\nM S W 2H\n", 1), ":12: expected"),
        (lambda text: text.replace("SEED 4", "SEED 5"), ":7: card 1 of the order"),
        (lambda text: "hello\n", ":1: "),
        (lambda text: text[: len(text) // 2], ":13: expected 'M|F"),
    ],
)
def test_a_damaged_saved_game_is_one_line_naming_the_file_and_line(
    damage: object, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.txt"
    path.write_text(damage(of_game(game(), seed=4, player=Player.HUMAN)))  # type: ignore[operator]
    with pytest.raises(SavedGameError) as caught:
        load(path)
    assert str(path) in str(caught.value) and says in str(caught.value)
    assert main(["play", "--load", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"machfsol: {path}") and err.count("\n") == 1


def test_load_errors_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--load", str(tmp_path / "none.txt")]) == 1
    assert "cannot read: No such file or directory" in capsys.readouterr().err
    assert main(["play", "--load", "x.txt", "--seed", "3"]) == 2
    assert "--load plays the saved game's deal" in capsys.readouterr().err
    assert main(["play", "--solver-seconds", "0"]) == 2
    assert "--solver-seconds" in capsys.readouterr().err


def test_the_kept_game_round_trip_and_damage(tmp_path: Path) -> None:
    position = game(7, 1, 52, 5)
    kept = KeptGame(tmp_path)
    saved = SavedGame(1, 7, position.order, position.move_stack, 83.4)
    assert kept.keep(saved, of_game(position, seed=7, player=Player.HUMAN))
    back = kept.read()
    assert back is not None and back.moves == saved.moves and back.seconds == 83.4
    assert back.describe() == "deal 7 of MAChFsol 1 (52 cards), 5 moves, 1:23"
    kept.forget()
    assert kept.read() is None and kept.problem is None
    (tmp_path / "game.json").write_text(json.dumps({"format": 1, "seconds": 1, "transcript": "x"}))
    assert kept.read() is None
    assert kept.problem is not None and "game.json" in kept.problem and "\n" not in kept.problem
    nowhere = KeptGame(None)
    assert not nowhere.keep(saved, "") and nowhere.read() is None
