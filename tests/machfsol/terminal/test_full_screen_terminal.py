"""``machfsol play`` in a real (pseudo-)terminal: keys typed, the screen read back.

Each test starts the command as a person would, in a pseudo-terminal of a given size
(tests/machfsol/terminal/pty_terminal.py), and reads the screen through a terminal
emulator. The keyboard game types a mixture of moves (tests/machfsol/terminal/
typed_game.py) the Atari's way (two keys a move) in variant 1 and the short way (one key
for a card with one place) in variant 2, and checks after every move that the table on
the screen is the engine's after the same moves. Every key the issue added (redo, the
same deal again, the help, the statistics, the solver, quitting with its question, the
mouse, the kept game and ``--load``) is typed here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from machfsol.atari.keyboard_game import player_moves
from machfsol.engine.autoplay import play
from machfsol.engine.checker import check_bytes
from machfsol.engine.deal import deal
from machfsol.engine.rules import DRAW, Position, variant
from machfsol.engine.transcript import Player, of_game
from tests.machfsol.terminal.pty_terminal import REPO as REPO_TOP
from tests.machfsol.terminal.pty_terminal import ShownTable, Terminal, words
from tests.machfsol.terminal.typed_game import short_keys, two_keys


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
        keys = two_keys(move) if number == 1 else short_keys(position, move)
        position.push(move)
        expected = ShownTable.of_position(position)
        terminal.type(keys)
        text = terminal.wait_for(lambda text, expected=expected: _shows(text, expected))
    assert "Won 0 of 1" in text or "Won 1 of 1" in text
    terminal.wait_for(f"Moves {count}   Time ")
    terminal.type("qy")
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
    terminal.type("q")
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


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-c y", "ctrl-d", "quit"])
def test_ending_gives_the_terminal_back(
    how: str, terminals: list[Terminal], tmp_path: Path
) -> None:
    """However the game ends, the shell finds its terminal as it was: echo and line
    editing on, the cursor visible, the normal screen, nothing on standard error.
    Ctrl-C and Q ask first while a game is under way (Ctrl-C again, or Y, quits)."""
    err = tmp_path / "err.txt"
    terminal = Terminal(["play", "--seed", "6"], shell=STTY_AFTER.replace("{err}", str(err)))
    terminals.append(terminal)
    terminal.wait_for("STOCK")
    terminal.type(" ")  # a move, so that Q asks first
    terminal.wait_for("Won 0 of 1")
    if how != "ctrl-d":
        terminal.type("\x03" if how.startswith("ctrl-c") else "Q")
        terminal.wait_for("Quit? This game is kept")
    terminal.type({"ctrl-c": "\x03", "ctrl-c y": "y", "ctrl-d": "\x04", "quit": "y"}[how])
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


# --------------------------------------------------------------- the keys issue 26 added


def test_undo_redo_and_the_same_deal_again(terminals: list[Terminal]) -> None:
    """U takes a move back, R plays it again; G deals the same deal again, after Y."""
    terminal = start(terminals, "--seed", "5")
    position = Position.from_seed(5, variant(1))
    dealt = ShownTable.of_position(position)
    position.push(DRAW)
    one = ShownTable.of_position(position)
    position.push(DRAW)
    two = ShownTable.of_position(position)
    terminal.type("  ")
    terminal.wait_for(lambda text: _shows(text, two) and "Moves 2" in text)
    terminal.type("U")
    terminal.wait_for(lambda text: _shows(text, one) and "R plays it again" in text)
    terminal.type("UR")
    terminal.wait_for(lambda text: _shows(text, one) and "(R: 1 more)" in text)
    terminal.type("R")
    terminal.wait_for(lambda text: _shows(text, two) and "Moves 2" in text)
    terminal.type("G")
    terminal.wait_for("Leave this game (2 moves, counted as lost) to play it again from the deal?")
    terminal.type("n")
    terminal.wait_for("Nothing changed: play on.")
    terminal.type("Gy")
    terminal.wait_for(
        lambda text: (
            _shows(text, dealt)
            and "The same deal again." in text
            and "Moves 0" in text
            and "Won 0 of 1" in text
        )
    )


def test_new_deal_asks_first_while_a_game_is_under_way(terminals: list[Terminal]) -> None:
    terminal = start(terminals, "--seed", "5")
    terminal.type(" N")
    terminal.wait_for("Leave this game (1 move, counted as lost) for a new deal?")
    terminal.type("y")
    terminal.wait_for("Deal number 1-2147483646")
    terminal.type("12\r")
    terminal.wait_for(
        lambda text: _shows(text, ShownTable.of_position(Position.from_seed(12, variant(1))))
    )


@pytest.mark.parametrize("key", ["?", "F1"])
def test_help_screen(key: str, terminals: list[Terminal]) -> None:
    terminal = start(terminals, "--seed", "5")
    if key == "F1":
        terminal.press("F1")
    else:
        terminal.type(key)
    shown = ("THE GAME: put every card", "R redo", "G the same deal again", "I statistics",
             "Q quit", "Arrows + RETURN, or the mouse")  # fmt: skip
    terminal.wait_for(lambda text: all(words_shown in text for words_shown in shown))
    terminal.type("x")
    terminal.wait_for("STOCK 42")


def _won_deal(number: int, size: int) -> int:
    return next(
        seed
        for seed in range(1, 500)
        if play(Position.from_seed(seed, variant(number), size)).is_won()
    )


def test_statistics_are_kept_between_runs_in_the_state_folder(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """A game won in one run counts in the next: I shows played, won, streaks and the
    best time, kept in $XDG_STATE_HOME/machfsol/, nothing in the current folder."""
    state = tmp_path / "state"
    seed = _won_deal(1, 28)
    env = {"XDG_STATE_HOME": str(state)}
    first = start(terminals, "--seed", str(seed), "--deck", "28", env=env)
    first.type("O")
    first.wait_for("play-all pace")
    first.type("PP\r")  # 50 moves a second
    first.wait_for("Options changed")
    first.type("P")
    record = words("played 1, won 1 (100%), streak 1 (best 1), best time")
    first.wait_for(lambda text: "YOU WON!" in text and record in words(text))
    first.type("q")  # a finished game: no question
    assert first.finish() == 0
    assert (state / "machfsol" / "statistics.json").is_file()
    second = start(terminals, "--seed", "3", "--deck", "28", env=env)
    second.type("I")
    second.wait_for("STATISTICS")
    second.wait_for("MAChFsol 1, 28 cards: played 1, won 1 (100%), streak 1 (best 1), best time")
    second.type(" ")
    second.wait_for("STOCK")
    assert not list(REPO_TOP.glob("statistics.json"))


def test_the_game_in_progress_is_kept_and_offered_at_the_next_start(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """Quitting a game under way keeps it: the next start asks "continue deal 7, 3
    moves?"; Y goes on with it, N plays the deal asked for and counts it as lost."""
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    first = start(terminals, "--seed", "7", env=env)
    first.type("   Q")
    first.wait_for("Quit? This game is kept")
    first.type("y")
    assert first.finish() == 0
    assert "The game under way is kept" in first.output.decode("utf-8", "replace")
    second = Terminal(["play", "--seed", "9"], env=env)
    terminals.append(second)
    second.wait_for("Continue deal 7 of MAChFsol 1 (52 cards), 3 moves")
    second.type("y")
    position = Position.from_seed(7, variant(1))
    for _ in range(3):
        position.push(DRAW)
    second.wait_for(
        lambda text: (
            _shows(text, ShownTable.of_position(position))
            and "Welcome back" in text
            and "Deal 7" in text
            and "Moves 3" in text
        )
    )
    second.type("Qy")
    assert second.finish() == 0
    third = Terminal(["play", "--seed", "9"], env=env)
    terminals.append(third)
    third.wait_for("Continue deal 7")
    third.type("n")
    dealt = ShownTable.of_position(Position.from_seed(9, variant(1)))
    third.wait_for(lambda text: _shows(text, dealt) and "Deal 9" in text)
    third.type("I")
    third.wait_for("played 1, won 0 (0%), streak 0 (best 0)")


def test_load_goes_on_with_a_saved_game(terminals: list[Terminal], tmp_path: Path) -> None:
    position = Position.from_seed(4, variant(2), 40)
    for move in player_moves(position, 9):
        position.push(move)
    saved = tmp_path / "saved.txt"
    saved.write_text(of_game(position, seed=4, player=Player.HUMAN))
    terminal = Terminal(["play", "--load", str(saved)])
    terminals.append(terminal)
    terminal.wait_for(
        lambda text: (
            _shows(text, ShownTable.of_position(position))
            and "deal 4 of MAChFsol 2 (40 cards), 9 moves" in " ".join(text.split())
            and "MAChFsol 2: King piles go down in alternating colour" in text
            and "Moves 9" in text
        )
    )
    assert " ".join(terminal.text().split()).count("Loaded ") == 1
    terminal.type("U")
    position.pop()
    terminal.wait_for(lambda text: _shows(text, ShownTable.of_position(position)))


def test_W_asks_the_solver_whether_the_deal_can_still_be_won(terminals: list[Terminal]) -> None:
    """Deal 7, which the hints lose: the solver says it is winnable and names a move."""
    terminal = start(terminals, "--seed", "7")
    terminal.type("W")
    terminal.wait_for("Winnable: a winning move is")
    terminal.wait_for("O then H: hints from the solver.")


def test_W_says_lost_whatever_you_do(terminals: list[Terminal]) -> None:
    """Along the hints' game of deal 7 comes the move after which nothing wins."""
    from machfsol.odds.solver import Verdict, solve_in_progress

    order = deal(7, 52)
    policy = play(Position(order, variant(1)))
    made = []
    for move in policy.move_stack:
        made.append(move)
        if solve_in_progress(order, 1, made).verdict is Verdict.LOST:
            break
    terminal = start(terminals, "--seed", "7")
    position = Position(order, variant(1))
    for move in made:
        keys = short_keys(position, move)
        position.push(move)
        terminal.type(keys)
        shown = ShownTable.of_position(position)
        terminal.wait_for(lambda text, shown=shown: _shows(text, shown))
    assert not position.is_over()
    terminal.type("W")
    terminal.wait_for("Lost whatever you do: no line from here wins")


def test_W_gives_up_after_its_time(terminals: list[Terminal]) -> None:
    """A deal the solver needs minutes for (MAChFsol 2, 52 cards, deal 6530), with a
    limit of half a second: "not decided", and the game goes on at once."""
    terminal = start(terminals, "--variant", "2", "--seed", "6530", "--solver-seconds", "0.5")
    terminal.type("W")
    terminal.wait_for("Not decided in 0.5 s.", timeout=10)
    terminal.type(" ")
    terminal.wait_for("Moves 1")


def test_hints_can_follow_the_solver(terminals: list[Terminal]) -> None:
    """O, H: the hint comes from the solver's winning line (the policy loses deal 7)."""
    terminal = start(terminals, "--seed", "7")
    terminal.type("O")
    terminal.wait_for("hints from      the autoplay policy")
    terminal.type("H")
    terminal.wait_for("hints from      the solver")
    terminal.type("\rH")
    terminal.wait_for("Hint (the solver's winning line):")


def test_a_mouse_click_on_the_stock_draws_and_on_a_card_picks(
    terminals: list[Terminal],
) -> None:
    terminal = start(terminals, "--seed", "1")
    row, column = terminal.find("STOCK 43")
    terminal.click(row, column + 2)
    position = Position.from_seed(1, variant(1))
    position.push(DRAW)
    terminal.wait_for(lambda text: _shows(text, ShownTable.of_position(position)))
    row, column = terminal.find("3 2\u2665")  # space 3: the 2 of hearts, nowhere to go yet
    terminal.click(row, column + 2)
    terminal.wait_for("Picked the 2 of hearts")
    terminal.click(row, column + 2)  # the same card again: put back
    terminal.wait_for(lambda text: "Picked" not in text)
