"""The keyboard path: moves become the game's keys, the screen is read back as a table,
and a whole game typed into the real programs in atari800 leaves the engine's table."""

from __future__ import annotations

from pathlib import Path

import pytest

from machfsol.atari.basic_game import generate
from machfsol.atari.keyboard_game import KeyboardGame, keys_of, play_on_keyboard, player_moves
from machfsol.atari.screen_table import TableReadError, TableView
from machfsol.atari.verify import KEYBOARD_GAMES, game_disk, program_launch
from machfsol.atari.verify_batch import GameDisk
from machfsol.engine.rules import DRAW, Move, Place, Position, variant

SCREENS = Path(__file__).parent / "fixtures" / "screens"


def screen(name: str) -> list[str]:
    return (SCREENS / name).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("source", "destination", "keys"),
    [
        ("S", "W", " "),
        ("T1", "AS", "1A"),
        ("T8", "KD", "8R"),
        ("W", "AH", "0A"),
        ("W", "KH", "0W"),
        ("KC", "AC", "EA"),
        ("T3", "KS", "3Q"),
    ],
)
def test_keys_of_moves(source: str, destination: str, keys: str) -> None:
    assert keys_of(Move(Place[source], Place[destination])) == keys


def test_player_moves_are_legal_varied_and_repeatable() -> None:
    for game, seed in KEYBOARD_GAMES.items():
        position = Position.from_seed(seed, variant(game))
        moves = player_moves(position, 500)
        assert moves == player_moves(position, 500)
        assert position.move_stack == ()  # the position given is left alone
        for move in moves:
            assert position.is_legal(move)
            position.push(move)
        assert position.is_over() and not position.is_won()  # played to its (lost) end
        sources = {"draw" if m.is_draw else m.source.name[0] for m in moves}
        destinations = {m.destination.name[0] for m in moves if not m.is_draw}
        assert sources == {"draw", "T", "W", "K"} and destinations == {"A", "K"}


def test_reading_a_french_screen() -> None:
    """The final screen of the keyboard game of variant 1 (deal 289), from atari800."""
    shown = TableView.read(screen("v1-deal289-keyboard-game.txt"))
    game = KeyboardGame.of_seed(1, 289, 500)
    assert shown == game.expected()
    assert shown.king_tops == ("JS", None, "QC", "KD")
    assert shown.tableau == ("7C", "9C", "6S", "8S", "9D", "JD", "5C", "5S")
    assert (shown.stock, shown.discard_top, shown.discard_count) == (0, "6C", 12)


def test_reading_a_spanish_screen() -> None:
    """Deal 1 of 40 cards, variant 2, Spanish cards, after three draws."""
    shown = TableView.read(screen("v2-deal1-40cards-3draws-spanish.txt"))
    position = Position.from_seed(1, variant(2), 40)
    for _ in range(3):
        position.push(DRAW)
    assert shown == TableView.of_position(position)
    assert shown.tableau == ("JH", "6S", "2S", "QD", "5H", "4D")  # Sc = sota de copas


def test_differences_name_the_places() -> None:
    shown = TableView.read(screen("v1-deal289-keyboard-game.txt"))
    game = KeyboardGame.of_seed(1, 289, 500)
    other = KeyboardGame(1, 289, game.moves[:-1]).expected()
    differences = shown.differences(other)
    assert differences and all(": the screen shows " in line for line in differences)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: lines[:11] + lines[12:], "found 3 suit rows, not 4"),
        (lambda lines: [line.replace("STOCK", "STOCKS") for line in lines], "no 'STOCK n'"),
        (lambda lines: [line.replace("5 9\u2666", "5 9X") for line in lines], "'9X' is not"),
        (lambda lines: [lines[7], lines[5], *lines[8:]], "out of order"),
    ],
)
def test_unreadable_screens(change: object, message: str) -> None:
    lines = screen("v1-deal289-keyboard-game.txt")
    assert callable(change)
    with pytest.raises(TableReadError, match=message):
        TableView.read(change(lines))


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(KEYBOARD_GAMES))
def test_a_game_typed_on_the_keyboard_leaves_the_engines_table(
    atari800: str, tmp_path: Path, game: int
) -> None:
    disk = game_disk(tmp_path / "MACHFSOL.ATR")
    typed = KeyboardGame.of_seed(game, KEYBOARD_GAMES[game], 500)
    check = play_on_keyboard(typed, GameDisk(disk, game), folder=tmp_path)
    assert check.ok, "\n".join([*check.differences, *check.screen_text])
    assert check.shown == typed.expected()
    assert "NO MORE MOVES" in "\n".join(check.screen_text)
    assert check.screenshot is not None and check.screenshot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.emulator
def test_a_program_that_shows_the_table_wrong_fails(atari800: str, tmp_path: Path) -> None:
    """The stock count shown one too low: the check names the stock."""
    listing = generate(2)
    # (shown by the first table, line 6040, a new deal, line 198, and every step's
    # display, line 57)
    assert listing.count("PRINT N-P+1;") == 3, "update the test: how is the stock shown?"
    program = tmp_path / "WRONG.LST"
    program.write_text(listing.replace("PRINT N-P+1;", "PRINT N-P;"), encoding="ascii")
    typed = KeyboardGame.of_seed(2, 5, 6)
    check = play_on_keyboard(typed, program_launch(program, 2))
    assert not check.ok
    expected = typed.expected().stock
    assert check.differences == (f"stock: the screen shows {expected - 1}, expected {expected}",)
