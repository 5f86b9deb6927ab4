"""``machfsol play`` in a real (pseudo-)terminal: keys typed, the screen read back.

Each test starts the command as a person would, in a pseudo-terminal of a given size
(tests/machfsol/terminal/pty_terminal.py), and reads the screen through a terminal
emulator. The keyboard game types the very keys that ``machfsol verify --keyboard``
types to the Atari game (machfsol.atari.keyboard_game), and checks that the final
table on the screen is the engine's after the same moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from machfsol.atari.keyboard_game import keys_of, player_moves
from machfsol.engine.autoplay import play
from machfsol.engine.checker import check_bytes
from machfsol.engine.rules import DRAW, Position, variant
from machfsol.engine.transcript import Player, of_game
from tests.machfsol.terminal.pty_terminal import ShownTable, Terminal


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """The terminals a test opens, closed (their programs ended) afterwards."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def start(terminals: list[Terminal], *argv: str, **options: object) -> Terminal:
    terminal = Terminal(["play", *argv], **options)  # type: ignore[arg-type]
    terminals.append(terminal)
    terminal.wait_for("STOCK")
    return terminal


@pytest.mark.parametrize(("number", "seed", "count"), [(1, 289, 60), (2, 1, 60)])
def test_keyboard_game_ends_on_the_engines_table(
    number: int, seed: int, count: int, terminals: list[Terminal], tmp_path: Path
) -> None:
    """The Atari harness's keys, typed one move at a time: the screen's table is the
    engine's after every move, and at the end, and the transcript is the game."""
    saved = tmp_path / "game.txt"
    terminal = start(
        terminals, "--variant", str(number), "--seed", str(seed), "--transcript", str(saved)
    )
    position = Position.from_seed(seed, variant(number))
    dealt = ShownTable.of_position(position)
    terminal.wait_for(lambda text: _shows(text, dealt))
    moves = player_moves(position, count)
    assert len(moves) == count
    for move in moves:
        keys = keys_of(move)
        position.push(move)
        expected = ShownTable.of_position(position)
        terminal.type(keys)
        text = terminal.wait_for(lambda text, expected=expected: _shows(text, expected))
    assert "Won 0 of 1" in text or "Won 1 of 1" in text
    terminal.type("xy")
    assert terminal.finish() == 0
    report = check_bytes(saved.read_bytes(), str(saved))
    assert report.player is Player.HUMAN and report.moves == count
    assert saved.read_text() == of_game(position, seed=seed, player=Player.HUMAN)


def _shows(text: str, expected: ShownTable) -> bool:
    try:
        return ShownTable.read(text) == expected
    except AssertionError:
        return False


def test_arrow_keys_pick_and_place(terminals: list[Terminal]) -> None:
    """Deal 1: drawing brings the ace of clubs; then the arrows walk to the 2 of hearts
    (space 3) ... here simply: RETURN on the stock draws, RETURN on a card picks it."""
    terminal = start(terminals, "--seed", "1")
    terminal.press("DOWN")  # the cursor appears on space 1
    for _ in range(4):
        terminal.press("DOWN")  # spaces 2, 3, 4, then the discard pile
    terminal.press("LEFT")  # the stock
    terminal.press("ENTER")
    position = Position.from_seed(1, variant(1))
    position.push(DRAW)
    terminal.wait_for(lambda text: _shows(text, ShownTable.of_position(position)))
    terminal.press("UP")  # the Ace pile of diamonds (nearest column of the row above)
    terminal.press("RIGHT")  # space 4
    terminal.press("ENTER")
    terminal.wait_for("Picked the 3 of diamonds")
    terminal.press("ESC")
    terminal.wait_for(lambda text: "Picked" not in text)


def test_red_suits_are_red_and_NO_COLOR_is_respected(terminals: list[Terminal]) -> None:
    coloured = start(terminals, "--seed", "1")
    reds = _cells_in_red(coloured)
    assert "\u2665" in reds and "\u2666" in reds
    assert "\u2660" not in reds and "\u2663" not in reds
    plain = start(terminals, "--seed", "1", env={"NO_COLOR": "1"})
    assert _cells_in_red(plain) == set()


def _cells_in_red(terminal: Terminal) -> set[str]:
    screen = terminal.screen
    return {
        char.data
        for row in screen.buffer.values()
        for char in row.values()
        if char.fg == "red" and char.data.strip()
    }


def test_spanish_style_and_options(terminals: list[Terminal]) -> None:
    """O opens the options: D takes the deck down to 48 cards, S switches to Spanish
    cards; RETURN deals the same deal number with them."""
    terminal = start(terminals, "--seed", "12")
    terminal.type("O")
    terminal.wait_for("OPTIONS")
    terminal.type("DS")
    terminal.wait_for("48 cards")
    terminal.wait_for("Spanish")
    terminal.type("\r")
    spanish = Position.from_seed(12, variant(1), 48)
    text = terminal.wait_for(
        lambda text: (
            "1 ace, S sota, C caballo, R rey" in text
            and "Deal 12   48 cards" in text
            and f"STOCK {spanish.stock_count()} " in text
            and not set("\u2660\u2665\u2663\u2666") & set(text)
        )
    )
    assert re.search(r"\b(swords|cups|clubs|coins)\b", text)


def test_new_deal_asks_for_a_number(terminals: list[Terminal]) -> None:
    terminal = start(terminals, "--seed", "5")
    terminal.type("N")
    terminal.wait_for("Deal number 1-2147483646")
    terminal.type("77\r")
    dealt = ShownTable.of_position(Position.from_seed(77, variant(1)))
    text = terminal.wait_for(lambda text: _shows(text, dealt))
    assert "Deal 77   52 cards" in text
    terminal.type("N0\r")
    terminal.wait_for("A deal number is 1 to 2147483646.")


def test_play_all_at_a_visible_pace_plays_the_autoplay_game(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """P shows the policy's moves one after another (several tables in between), and
    ends on the same game as ``machfsol autoplay``."""
    saved = tmp_path / "auto.txt"
    terminal = start(terminals, "--seed", "3", "--deck", "28", "--transcript", str(saved))
    terminal.type("O")
    terminal.wait_for("play-all pace")
    terminal.type("PP")  # 4 -> 10 -> 50 moves a second
    terminal.wait_for("50 moves a second")
    terminal.type("\r")
    terminal.wait_for("Options changed")
    terminal.type("P")
    stocks = set()
    text = ""
    while "YOU WON" not in text and "NO MORE MOVES" not in text:
        text = terminal.wait_for(lambda t: "STOCK" in t)
        stocks.add(re.search(r"STOCK (\d+)", text).group(1))  # type: ignore[union-attr]
        terminal.pump(0.02)
        text = terminal.text()
    assert len(stocks) > 3  # the table was shown between moves, not only at the end
    expected = play(Position.from_seed(3, variant(1), 28))
    assert saved.read_text() == of_game(expected, seed=3, player=Player.HUMAN)
    terminal.wait_for(lambda text: _shows(text, ShownTable.of_position(expected)))


def test_any_key_stops_play_all(terminals: list[Terminal]) -> None:
    terminal = start(terminals, "--seed", "8")
    terminal.type("P")
    terminal.wait_for("Playing all")
    terminal.type("U")
    text = terminal.wait_for("Play all stopped")
    assert "YOU WON" not in text and "NO MORE MOVES" not in text


def test_save_key_writes_a_checkable_transcript(terminals: list[Terminal], tmp_path: Path) -> None:
    terminal = start(terminals, "--seed", "4")
    terminal.type("  ")
    terminal.type("S")
    terminal.wait_for("Save the transcript as")
    terminal.type("\x7f" * 40 + str(tmp_path / "mine.txt") + "\r")
    terminal.wait_for("Saved as")
    report = check_bytes((tmp_path / "mine.txt").read_bytes(), "mine.txt")
    assert report.player is Player.HUMAN and report.seed == 4 and report.moves == 2


# ------------------------------------------------- the terminal is never left broken


def test_resize_and_a_window_too_small(terminals: list[Terminal]) -> None:
    terminal = start(terminals, "--seed", "1")
    terminal.resize(15, 40)
    terminal.wait_for("too small for MAChFsol: it needs 64 x 23, this one is 40 x 15.")
    terminal.type(" ")  # ignored while the table cannot be seen
    terminal.resize(30, 100)
    dealt = ShownTable.of_position(Position.from_seed(1, variant(1)))
    text = terminal.wait_for(lambda text: _shows(text, dealt))  # the draw was not made
    assert "too small" not in text
    terminal.resize(10, 20)
    terminal.wait_for("too small")
    terminal.type("x")
    assert terminal.finish() == 0


def test_a_terminal_that_starts_too_small(terminals: list[Terminal]) -> None:
    terminal = Terminal(["play", "--seed", "1"], rows=12, columns=30)
    terminals.append(terminal)
    terminal.wait_for("too small")
    terminal.resize(24, 80)
    terminal.wait_for("STOCK 43")


#: A shell that runs the game, then shows the terminal's settings. The shell has a
#: handler for SIGINT (Ctrl-C reaches the whole foreground process group), as an
#: interactive shell has, so that it lives on to run stty.
STTY_AFTER = "trap 'true' INT; {play} 2>{err}; echo EXIT=$?; stty -a"


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-d", "quit"])
def test_ending_gives_the_terminal_back(
    how: str, terminals: list[Terminal], tmp_path: Path
) -> None:
    """However the game ends, the shell finds its terminal as it was: echo and line
    editing on, the cursor visible, the normal screen, nothing on standard error."""
    err = tmp_path / "err.txt"
    terminal = Terminal(["play", "--seed", "6"], shell=STTY_AFTER.replace("{err}", str(err)))
    terminals.append(terminal)
    terminal.wait_for("STOCK")
    terminal.type(" ")  # a move, so that X asks first
    terminal.wait_for("Won 0 of 1")
    terminal.type({"ctrl-c": "\x03", "ctrl-d": "\x04", "quit": "Xy"}[how])
    text = terminal.wait_for("EXIT=")
    assert terminal.finish() == 0
    assert "EXIT=0" in text and "Bye: " in text
    settings = terminal.output.decode("utf-8", "replace")
    assert re.search(r"(?<!-)icanon", settings) and re.search(r"(?<!-)echo\b", settings)
    assert b"\x1b[?25h" in terminal.output  # the cursor shown again
    assert terminal.output.rfind(b"\x1b[?1049l") > terminal.output.rfind(b"\x1b[?1049h")
    assert err.read_text() == ""


def test_a_hang_up_ends_quietly_and_keeps_the_transcript(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """Closing the terminal window (the pseudo-terminal's master side): the game ends
    without a traceback, its transcript saved up to the last move."""
    err = tmp_path / "err.txt"
    saved = tmp_path / "t.txt"
    terminal = Terminal(
        ["play", "--seed", "6", "--transcript", str(saved)],
        shell="exec {play} 2>" + str(err),
    )
    terminals.append(terminal)
    terminal.wait_for("STOCK")
    terminal.type("  ")
    drawn = Position.from_seed(6, variant(1))
    drawn.push(DRAW)
    drawn.push(DRAW)
    terminal.wait_for(lambda text: _shows(text, ShownTable.of_position(drawn)))
    pid = terminal.child.pid
    terminal.child.close(force=False)  # hang up
    _wait_gone(pid)
    assert err.read_text() == ""
    assert check_bytes(saved.read_bytes(), str(saved)).moves == 2


def _wait_gone(pid: int) -> None:
    import os
    import time

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still runs after the hang-up")


def test_output_not_a_terminal_plays_in_line_mode_with_a_note(
    terminals: list[Terminal],
) -> None:
    """``machfsol play | cat``: the keyboard is a terminal but the screen is a pipe, so
    the line game runs, and a note on standard error says why."""
    terminal = Terminal(["play", "--seed", "2"], shell="{play} | cat")
    terminals.append(terminal)
    terminal.wait_for("standard output is not a terminal: playing in line mode")
    terminal.wait_for("> ")
    terminal.type("q\r")
    assert terminal.finish() == 0


def test_plain_is_the_line_game_in_a_terminal(terminals: list[Terminal]) -> None:
    terminal = Terminal(["play", "--plain", "--seed", "2"])
    terminals.append(terminal)
    text = terminal.wait_for("> ")
    assert "Discard (d):" in text and "not a terminal" not in text
    terminal.type("q\r")
    assert terminal.finish() == 0


def test_dumb_terminal_plays_in_line_mode(terminals: list[Terminal]) -> None:
    terminal = Terminal(["play", "--seed", "2"], env={"TERM": "dumb"})
    terminals.append(terminal)
    terminal.wait_for("(TERM=dumb) cannot move its cursor: playing in line mode")
    terminal.wait_for("> ")
    terminal.type("q\r")
    assert terminal.finish() == 0
