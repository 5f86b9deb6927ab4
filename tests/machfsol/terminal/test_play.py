"""The terminal game: typed commands drive the engine, messages never raise.

Most tests drive a :class:`machfsol.terminal.play.Session` with scripted lines and read what a
person would see; a few go through ``machfsol play`` itself with ``input`` replaced.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.cli import main
from machfsol.engine.autoplay import choose_move, play
from machfsol.engine.cards import Card
from machfsol.engine.checker import check_bytes
from machfsol.engine.deal import deal
from machfsol.engine.rules import DRAW, Move, Place, Position, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.terminal.play import Session
from machfsol.terminal.play_input import (
    HELP_TEXT,
    Action,
    InputError,
    NewDeal,
    PlayCard,
    Save,
    Simple,
    Target,
    Undo,
    parse,
)
from machfsol.terminal.solver_question import Answer, Verdict
from machfsol.terminal.table_view import (
    CLEAR_SCREEN,
    CardFace,
    Style,
    TableTitle,
    can_show_symbols,
    is_ansi_terminal,
    render_table,
    wants_colour,
)
from tests.machfsol.support import order_with

FIXTURES = Path(__file__).parent / "fixtures"


class Screen:
    """A session whose output is kept, one chunk per typed line."""

    def __init__(
        self,
        order: tuple[Card, ...],
        seed: int | None = None,
        number: int = 1,
        face: CardFace | None = None,
        transcript: Path | None = None,
    ) -> None:
        self.out = io.StringIO()
        self.session = Session(
            variant(number), face or CardFace(), self.out, transcript, seeds=lambda: 4242
        )
        self.session.start(order, seed)
        self.first = self.out.getvalue()

    @property
    def position(self) -> Position:
        return self.session.position

    def type(self, line: str) -> str:
        """Type ``line``; return everything shown in answer."""
        start = len(self.out.getvalue())
        assert self.session.obey(line)
        return self.out.getvalue()[start:]

    def message(self, line: str) -> str:
        """Type ``line``; return the first line of the answer (under the table, when
        the answer shows one)."""
        shown = self.type(line)
        if "On the foundations:" in shown:
            return shown.split("On the foundations:")[1].splitlines()[1]
        return shown.splitlines()[0]


def seeded(
    seed: int,
    number: int = 1,
    size: int = 52,
    face: CardFace | None = None,
    transcript: Path | None = None,
) -> Screen:
    return Screen(deal(seed, size), seed, number, face, transcript)


def fake_input(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """Replace ``input`` by one reading ``lines``, then raising EOFError."""
    feed = iter(lines)

    def read(prompt: str = "") -> str:
        print(prompt, end="")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", read)


# ------------------------------------------------------------------- typed commands


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("", Simple(Action.DRAW)),
        ("   ", Simple(Action.DRAW)),
        ("S W", Simple(Action.DRAW)),
        ("draw", Simple(Action.DRAW)),
        ("H", Simple(Action.HINT)),
        ("p", Simple(Action.FINISH)),
        ("?", Simple(Action.HELP)),
        ("Quit", Simple(Action.QUIT)),
        ("u", Undo(1)),
        ("undo 12", Undo(12)),
        ("n", NewDeal(None)),
        ("n 77", NewDeal(77)),
        ("3", PlayCard(Place.T3, None)),
        ("t3", PlayCard(Place.T3, None)),
        ("3 a", PlayCard(Place.T3, Target.ACE)),
        ("3a", PlayCard(Place.T3, Target.ACE)),
        ("T3 AH", PlayCard(Place.T3, Place.AH)),
        ("8 k", PlayCard(Place.T8, Target.KING)),
        ("d", PlayCard(Place.W, None)),
        ("0", PlayCard(Place.W, None)),
        ("W KS", PlayCard(Place.W, Place.KS)),
        ("dkh", PlayCard(Place.W, Place.KH)),
        ("kd", PlayCard(Place.KD, None)),
        ("KS AS", PlayCard(Place.KS, Place.AS)),
    ],
)
def test_parse(line: str, command: object) -> None:
    assert parse(line) == command


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("xyzzy", "is not a command"),
        ("9", "there is no space 9"),
        ("t0", "there is no space 0"),
        ("a", "is a destination"),
        ("u x", "'u N'"),
        ("u 0", "'u N'"),
        ("n 0", "SEED in 1..2147483646"),
        ("n 99999999999999999999", "SEED"),
        ("3 q", "is not a command"),
        ("u ²", "'u N'"),
    ],
)
def test_parse_errors_are_one_line(line: str, says: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(line)
    assert says in str(caught.value) and "\n" not in str(caught.value)


# ------------------------------------------------------------------------ the table


def test_table_golden_french() -> None:
    position = Position.from_seed(1, variant(1))
    for move in [DRAW, DRAW, DRAW]:
        position.push(move)
    title = TableTitle("MAChFsol 1", variant(1).king_build, 1, 52)
    expected = (FIXTURES / "play_table_seed1_v1_52.txt").read_text(encoding="utf-8")
    assert render_table(position, CardFace(), title) == expected


def test_table_golden_spanish() -> None:
    position = Position.from_seed(3, variant(2), 40)
    for move in [DRAW, DRAW]:
        position.push(move)
    title = TableTitle("MAChFsol 2", variant(2).king_build, 3, 40)
    expected = (FIXTURES / "play_table_seed3_v2_40_spanish.txt").read_text(encoding="utf-8")
    assert render_table(position, CardFace(Style.SPANISH), title) == expected


def test_table_layout_follows_the_physical_table() -> None:
    screen = seeded(1)
    lines = screen.first.splitlines()
    rows = [line for line in lines if re.match("  A[SHCD] ", line)]
    # Ace piles on the left in suit order, King piles on the right on the same rows.
    assert [row.split()[0] for row in rows] == ["AS", "AH", "AC", "AD"]
    assert [row.split()[-2] for row in rows] == ["KS", "KH", "KC", "KD"]
    tableau = screen.position.tableau()
    # Two columns: spaces 1-4 on the left, 5-8 on the right, each with its card.
    for row, (left, right) in zip(rows, zip(tableau[:4], tableau[4:], strict=True), strict=True):
        label = CardFace().label
        assert f"{rows.index(row) + 1} {label(left)}" in row
        assert f"{rows.index(row) + 5} {label(right)}" in row
    assert f"Stock: {screen.position.stock_count()} cards" in screen.first
    assert "Discard (d): --  (0 cards)" in screen.first


@pytest.mark.parametrize("size", [52, 48, 44, 40, 36, 32, 28, 24, 20])
def test_every_deck_size_is_drawn(size: int) -> None:
    screen = seeded(9, 2, size, face=CardFace(Style.SPANISH))
    text = screen.first
    assert f"{size} cards" in text
    for number in range(1, screen.position.deck.tableau_size + 1):
        assert re.search(rf"\b{number} ", text)
    assert ("(none)" in text) == (size == 20)


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize("size", [52, 48, 40, 36, 28, 20])
def test_table_fits_80_columns(style: Style, size: int) -> None:
    """The table fits an 80-column terminal, whatever the cards, wherever they are."""
    screen = seeded(31, 2, size, face=CardFace(style))
    screen.type("p")
    tables = [screen.first]
    for _ in range(4):  # the widest cards of the deck, wherever they are
        screen.type("u 7")
        tables.append(screen.type("t"))
    for table in tables:
        lines = table.split("On the foundations:")[0].splitlines()
        assert lines and max(len(line) for line in lines) <= 80


def test_the_help_fits_80_columns() -> None:
    assert max(len(line) for line in HELP_TEXT.splitlines()) <= 80


def test_spanish_style_uses_words_and_no_symbols() -> None:
    screen = seeded(5, 1, 40, face=CardFace(Style.SPANISH, colour=True))
    text = screen.first + screen.type("p")
    assert not set("♠♥♣♦") & set(text)
    assert "\x1b[" not in text  # a Spanish deck has no colours
    assert re.search(r"\b(sota|caballo|rey) (swords|cups|clubs|coins)\b", text)
    hint = seeded(5, 1, 40, face=CardFace(Style.SPANISH)).message("h")
    assert "of" in hint or "draw" in hint


def test_cli_spanish_style(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_input(monkeypatch, ["p", "t"])
    assert main(["play", "--seed", "12", "--deck", "48", "--style", "spanish"]) == 0
    out = capsys.readouterr().out
    assert "rey " in out and "K♠" not in out


def test_french_red_suits_coloured_only_when_asked() -> None:
    face = CardFace(Style.FRENCH, colour=True)
    deck = Position.from_seed(1, variant(1)).deck
    assert face.label(deck.parse_card("QH")) == "\x1b[31mQ♥\x1b[0m"
    assert face.label(deck.parse_card("TD"), 4) == "\x1b[31m10♦\x1b[0m "
    assert face.label(deck.parse_card("QS"), 4) == "Q♠  "
    assert CardFace().label(deck.parse_card("QH")) == "Q♥"
    screen = seeded(1, face=face)
    assert "\x1b[31m" in screen.first


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_suit_letters_where_symbols_cannot_be_encoded() -> None:
    latin1 = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert not can_show_symbols(latin1)
    assert can_show_symbols(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    face = CardFace(symbols=False)
    deck = Position.from_seed(1, variant(1)).deck
    assert face.label(deck.parse_card("TH")) == "10H"
    screen = seeded(4, face=face)
    screen.first.encode("ascii")  # the whole table is plain ASCII


def test_colour_needs_a_terminal_and_no_NO_COLOR() -> None:
    assert wants_colour(_Tty(), {"TERM": "xterm"})
    assert not wants_colour(_Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not wants_colour(_Tty(), {"TERM": "dumb"})
    assert not wants_colour(io.StringIO(), {"TERM": "xterm"})
    assert is_ansi_terminal(_Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not is_ansi_terminal(io.StringIO(), {"TERM": "xterm"})


def test_a_terminal_keeps_the_table_in_place() -> None:
    out = io.StringIO()
    session = Session(variant(1), CardFace(), out, clear=True)
    session.start(deal(1, 52), 1)
    session.obey("")
    assert out.getvalue().count(CLEAR_SCREEN) == 1  # a move shows what changed, no table
    session.obey("t")
    assert out.getvalue().count(CLEAR_SCREEN) == 2
    assert out.getvalue().startswith(CLEAR_SCREEN + "MAChFsol 1, deal 1")
    assert CLEAR_SCREEN not in seeded(1).first


# --------------------------------------------------------------------------- moves


def _order_for_moves() -> tuple[Card, ...]:
    # T1..T8 get 2H 5C 7D 9S 4H 6C 8D TS; drawing then brings AH (to its Ace pile), so
    # 2H in space 1 becomes playable, and the next stock card 3S fills its space.
    return order_with(52, "2H 5C 7D 9S 4H 6C 8D TS AH 3S")


def test_source_alone_plays_the_only_destination() -> None:
    screen = Screen(_order_for_moves())
    screen.type("")
    expected = screen.position.copy()
    expected.push(Move(Place.T1, Place.AH))
    said = screen.message("1")
    assert screen.position.key() == expected.key()
    assert said == (
        "The 2 of hearts goes from space 1 to the Ace pile of hearts; "
        "the 3 of spades from the stock fills space 1. Now: stock 42 cards."
    )
    assert "AH 2♥" in screen.type("t")


def test_destination_words_and_notation() -> None:
    for line in ["1 a", "1 ah", "T1 AH", "t1ah"]:
        screen = Screen(_order_for_moves())
        screen.type("")
        screen.type(line)
        assert screen.position.move_stack == (DRAW, Move(Place.T1, Place.AH))


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("2", "the 5 of clubs has nowhere to go yet: its Ace pile needs the ace of clubs"),
        ("1 as", "the 2 of hearts cannot go there: the Ace pile of spades takes only spades"),
        ("1 ks", "the King pile of spades has not started: its King is not out yet"),
        ("1 k", "no King pile takes it (they take one rank lower, same suit)"),
        ("d", "the discard pile is empty"),
        ("kh", "the King pile of hearts is empty"),
        ("7", "the 8 of diamonds has nowhere to go yet"),
    ],
)
def test_illegal_moves_give_one_line_and_change_nothing(line: str, says: str) -> None:
    screen = Screen(_order_for_moves())
    screen.type("")
    before = screen.position.key()
    shown = screen.type(line)
    assert screen.position.key() == before
    assert says in shown
    message = [text for text in shown.splitlines() if says in text]
    assert len(message) == 1 and "Traceback" not in shown


def _autoplay_until(
    found: Callable[[Position], Sequence[object]], number: int, seeds: int
) -> tuple[int, Position]:
    """The first 52-card deal (seed below ``seeds``) whose autoplay game reaches a
    position where ``found`` finds something; that seed and position."""
    for seed in range(1, seeds):
        position = Position.from_seed(seed, variant(number))
        while not position.is_over():
            if found(position):
                return seed, position
            move = choose_move(position)
            assert move is not None
            position.push(move)
    pytest.fail(f"no deal below {seeds} gets there")


def test_two_destinations_ask_which() -> None:
    """In variant 2 a card may fit two King piles (or an Ace and a King pile): the
    source alone is then not enough, and the message names the choices."""

    def doubled(position: Position) -> list[Place]:
        sources = [move.source for move in position.legal_moves()]
        return [s for s in sources if sources.count(s) > 1]

    seed, position = _autoplay_until(doubled, 2, 400)
    source = doubled(position)[0]
    screen = Screen(deal(seed, 52), seed, 2)
    for move in position.move_stack:
        screen.session.position.push(move)
    key = {Place.W: "d"}.get(source, source.name[1:] if source.is_tableau else source.name)
    said = screen.message(key.lower())
    assert "can go to more than one pile: type" in said
    destinations = [m.destination for m in position.legal_moves() if m.source == source]
    for destination in destinations:
        assert destination.name.lower() in said
    screen.type(f"{key} {destinations[-1].name}")
    assert screen.position.move_stack[-1] == Move(source, destinations[-1])


def test_king_pile_top_to_its_ace_pile() -> None:
    """``ks`` moves the top of a King pile to its Ace pile when that pile needs it."""

    def transfers(position: Position) -> list[Move]:
        return [m for m in position.legal_moves() if m.source.is_king_pile]

    seed, position = _autoplay_until(transfers, 1, 300)
    transfer = transfers(position)[0]
    screen = Screen(deal(seed, 52), seed, 1)
    for move in position.move_stack:
        screen.position.push(move)
    screen.type(transfer.source.name.lower())
    assert screen.position.move_stack[-1] == transfer


# ---------------------------------------------------------- hint, undo, auto-finish


def _hint_keys(message: str) -> str:
    """What the hint says to type: the keys in quotes, or Enter for a draw."""
    if "draw a card (Enter)" in message:
        return ""
    found = re.search(r"\(type '([^']+)'\)", message)
    assert found, message
    return found.group(1)


@pytest.mark.parametrize(("seed", "number", "size"), [(1, 1, 52), (7, 2, 52), (3, 1, 40)])
def test_following_the_hints_plays_the_autoplay_game(seed: int, number: int, size: int) -> None:
    """The hint is the policy's move, in words, with keys that play exactly that move."""
    screen = seeded(seed, number, size)
    while not screen.position.is_over():
        wanted = choose_move(screen.position)
        assert wanted is not None
        message = screen.message("h")
        assert message.startswith("Hint: ")
        if not wanted.is_draw:
            card = screen.position.card_to_move(wanted)
            assert CardFace().name(card) in message
            # The shortest keys: the source alone when it has only one destination.
            choices = [m for m in screen.position.legal_moves() if m.source == wanted.source]
            single = len(choices) == 1
            expected = PlayCard(wanted.source, None if single else wanted.destination)
            assert parse(_hint_keys(message)) == expected
        screen.type(_hint_keys(message))
        assert screen.position.move_stack[-1] == wanted
    auto = play(Position.from_seed(seed, variant(number), size))
    assert screen.position.move_stack == auto.move_stack
    assert screen.message("h") in ("No move left.", "The game is won.")


def test_undo_restores_the_position() -> None:
    screen = seeded(11)
    keys = [screen.position.key()]
    for _ in range(12):
        move = choose_move(screen.position)
        assert move is not None
        screen.type(_hint_keys(screen.message("h")))
        keys.append(screen.position.key())
    assert screen.message("u").startswith("Took back 1 move (")
    assert screen.position.key() == keys[-2]
    assert screen.message("u 5").startswith("Took back 5 moves, back to before: ")
    assert screen.position.key() == keys[-7]
    assert screen.message("undo 99").startswith("Took back 6 moves")
    assert screen.position.key() == keys[0]
    assert screen.message("u").startswith("Nothing to undo")
    assert screen.message("redo 3").startswith("Played 3 moves again; the last: ")
    assert screen.position.key() == keys[3]
    assert screen.message("redo 99").startswith("Played 9 moves again")
    assert screen.position.key() == keys[-1]
    assert screen.message("redo").startswith("Nothing to redo")


def test_undo_after_the_end_reopens_the_game() -> None:
    screen = seeded(2)
    shown = screen.type("p")
    assert "***" in shown
    moves = len(screen.position.move_stack)
    screen.type("u")
    assert len(screen.position.move_stack) == moves - 1
    assert not screen.position.is_over()


@pytest.mark.parametrize(("seed", "number", "size"), [(1, 1, 52), (5, 2, 40), (8, 1, 24)])
def test_auto_finish_matches_machfsol_autoplay(
    seed: int,
    number: int,
    size: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = tmp_path / "game.txt"
    fake_input(monkeypatch, ["p"])
    argv = ["--variant", str(number), "--seed", str(seed), "--deck", str(size)]
    assert main(["play", *argv, "--transcript", str(saved)]) == 0
    shown = capsys.readouterr().out
    assert main(["autoplay", *argv]) == 0
    auto = capsys.readouterr().out
    human = saved.read_text(encoding="ascii")
    assert human.replace("PLAYER HUMAN", "PLAYER AUTO") == auto
    result = auto.splitlines()[-1].split()
    if result[1] == "WON":
        assert f"You won! All {size} cards" in shown
    else:
        assert f"No more moves: {result[2]} of {size} cards" in shown
    assert check_bytes(saved.read_bytes(), str(saved)).player is Player.HUMAN


def test_auto_finish_from_the_middle() -> None:
    screen = seeded(21, 2)
    for line in ["", "", "", ""]:
        screen.type(line)
    screen.type("p")
    expected = Position.from_seed(21, variant(2))
    for _ in range(4):
        expected.push(DRAW)
    play(expected)
    assert screen.position.move_stack == expected.move_stack
    assert screen.message("p") == "The game is already over."


# --------------------------------------------------------------- session and CLI


def test_random_seed_is_shown_and_replays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_input(monkeypatch, [])
    assert main(["play", "--deck", "36"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"--seed (\d+) --deck 36", out)
    assert found
    seed = int(found.group(1))
    position = Position.from_seed(seed, variant(1), 36)
    title = TableTitle("MAChFsol 1", variant(1).king_build, seed, 36)
    assert render_table(position, CardFace(), title) in out


def test_quit_and_eof_end_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dealt = Position.from_seed(3, variant(1)).foundation_count()
    drawn = Position.from_seed(3, variant(1))
    drawn.push(DRAW)
    fake_input(monkeypatch, ["", "q", "no", "q", "y", "this line is never read"])
    assert main(["play", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("MAChFsol 1, deal 3") == 1  # the deal; a move shows what it did
    assert out.count("Quit? This game is kept: the next start offers it. Type y to quit.") == 2
    assert "Nothing changed: play on." in out
    assert out.endswith(
        f"Bye: {drawn.foundation_count()} of 52 cards were on the foundations.\n"
        "The game under way is kept: the next start offers it.\n"
    )
    fake_input(monkeypatch, ["h"])  # no move made: the end of input quits, nothing kept
    assert main(["play", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "You left deal 3 of MAChFsol 1 (52 cards), 1 move" in captured.out  # the kept one
    assert captured.out.endswith(f"> \nBye: {dealt} of 52 cards were on the foundations.\n")
    assert captured.err == ""


def test_real_process_through_a_pipe() -> None:
    """The installed command reads a pipe with the real ``input``: plain text, no
    colour or screen clearing, one table, one line a command, clean exit at the end."""
    done = subprocess.run(
        [sys.executable, "-m", "machfsol.cli", "play", "--seed", "5", "--deck", "40"],
        input="h\nxyz\n\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "\x1b" not in done.stdout
    assert done.stdout.count("MAChFsol 1, deal 5, 40 cards") == 1
    assert "Hint: " in done.stdout and "'xyz' is not a command" in done.stdout
    assert "were on the foundations.\n" in done.stdout


def test_keyboard_interrupt_quits(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    session = Session(variant(1), CardFace(), out)
    session.start(deal(1, 52), 1)

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    assert session.run(interrupted) == 0
    assert out.getvalue().endswith("were on the foundations.\n")


def test_new_deal(tmp_path: Path) -> None:
    saved = tmp_path / "t.txt"
    screen = seeded(1, transcript=saved)
    screen.type("")
    assert screen.message("n 99") == (
        "Leave this game (1 move, counted as lost) for a new deal? Type y for yes."
    )
    said = screen.message("y")
    assert said.startswith("New game: deal 99.")
    assert screen.position.order == deal(99, 52) and not screen.position.move_stack
    screen.type("")
    screen.type("n")
    assert screen.message("yes").startswith("New game: deal 4242.")
    assert [p.name for p in sorted(tmp_path.iterdir())] == ["t-2.txt", "t-3.txt", "t.txt"]
    for path in tmp_path.iterdir():
        check_bytes(path.read_bytes(), path.name)
    assert "SEED 99" in (tmp_path / "t-2.txt").read_text()


def test_order_option_and_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    order = " ".join(card.code for card in deal(8, 40))
    saved = tmp_path / "mine.txt"
    fake_input(monkeypatch, ["", "h", "", "u"])
    assert main(["play", "--order", order, "--variant", "2", "--transcript", str(saved)]) == 0
    assert "your own order" in capsys.readouterr().out
    report = check_bytes(saved.read_bytes(), "mine.txt")
    assert report.seed is None and report.deck_size == 40 and report.moves == 1
    text = saved.read_text()
    expected = Position(deal(8, 40), variant(2))
    expected.push(DRAW)
    assert text == of_game(expected, seed=None, player=Player.HUMAN)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--seed", "1", "--order", "AS"],
        ["play", "--seed", "0"],
        ["play", "--deck", "50"],
        ["play", "--order", "AS 2S"],
        ["play", "--seed", "²"],
        ["play", "--transcript", ""],
    ],
)
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("machfsol: ") and err.count("\n") == 1


def test_unwritable_transcript_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_input(monkeypatch, [])
    missing = tmp_path / "no" / "such" / "dir.txt"
    assert main(["play", "--seed", "1", "--transcript", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err and str(missing) in err


class FullDisk(io.StringIO):
    """A standard output whose writes fail, like one redirected to /dev/full."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_unwritable_output_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_input(monkeypatch, ["h"])
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["play", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err == "machfsol: standard input/output: No space left on device\n"


@pytest.mark.parametrize("stream", ["stdin", "stdout"])
def test_closed_standard_stream_is_a_usage_error(
    stream: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, stream, None)
    assert main(["play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "standard input and a standard output" in err


# ---------------------------------------------------------------- garbage in, no crash


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=8), st.sampled_from([(1, 52), (2, 40), (1, 20)]))
def test_random_lines_never_raise(lines: list[str], game: tuple[int, int]) -> None:
    number, size = game
    screen = seeded(17, number, size)
    # A random line can be "s" or "s NAME", which saves a transcript in the current
    # folder: let it save into a folder of its own, not the checkout the tests run in.
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        for line in lines:
            if parse_is_quit(line):
                continue
            shown = screen.type(line)
            assert shown.strip() and "Traceback" not in shown


VOCABULARY = [
    "", "h", "u", "u 3", "p", "?", "1", "2", "3", "4", "5", "6", "7", "8", "d", "d a",
    "d k", "ks", "kh", "kc", "kd", "1 a", "2 k", "3 ks", "4 kh", "d kc", "w kd", "9",
    "ks as", "kh ah", "n 5", "s w",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(st.sampled_from(VOCABULARY), max_size=40),
    game=st.sampled_from([(1, 52), (2, 52), (2, 40), (1, 28)]),
)
def test_random_sessions_keep_checkable_transcripts(
    lines: list[str], game: tuple[int, int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    number, size = game
    folder = tmp_path_factory.mktemp("t")
    screen = seeded(23, number, size, transcript=folder / "g.txt")
    for line in lines:
        screen.type(line)
    seed = screen.session.sitting.seed
    for path in folder.iterdir():
        report = check_bytes(path.read_bytes(), path.name)
        assert report.player is Player.HUMAN
    current = screen.session.transcript_path()
    assert current is not None
    assert current.read_text() == of_game(screen.position, seed=seed, player=Player.HUMAN)


def parse_is_quit(line: str) -> bool:
    try:
        command = parse(line)
    except InputError:
        return False
    return command == Simple(Action.QUIT)


# ------------------------------------------------------------ saving a transcript


def test_save_command_keeps_the_file_names_case() -> None:
    assert parse("save") == Save(None)
    assert parse("SAVE My Game.txt") == Save("My Game.txt")


def test_save_writes_a_checkable_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --transcript, a finished game can still be saved, under a name of one's
    own or one made from the deal."""
    monkeypatch.chdir(tmp_path)
    screen = seeded(2)
    screen.type("p")
    said = screen.message(f"save {tmp_path / 'won.txt'}")
    assert said.startswith(f"Saved the game as {tmp_path / 'won.txt'}")
    report = check_bytes((tmp_path / "won.txt").read_bytes(), "won.txt")
    assert report.player is Player.HUMAN and report.seed == 2
    assert (tmp_path / "won.txt").read_text() == of_game(
        screen.position, seed=2, player=Player.HUMAN
    )
    assert screen.message("save").startswith("Saved the game as machfsol-1-deal-2.txt")
    assert (tmp_path / "machfsol-1-deal-2.txt").exists()
    said = screen.message(f"save {tmp_path / 'no' / 'dir' / 'x.txt'}")
    assert "cannot write" in said and "\n" not in said


# ------------------------------------------------------- what issue 26 added to line mode


def test_a_move_says_only_what_changed_and_a_refusal_one_line() -> None:
    """A screen reader hears little: after a move, what it did and what it left
    showing; after a refused command, one line; the table only on ``t``. (The issue
    counted 266 lines for 18 commands: the table and the key line every time.)"""
    screen = seeded(1)
    lines = ["", "", "3", "xyz", "1 as", "", "h", "u", "redo", "", "3 a", "d", "kd", "", "",
             "9", "h", ""]  # fmt: skip
    shown = "".join(screen.type(line) for line in lines)
    assert len(shown.splitlines()) <= 2 * len(lines)
    assert "On the foundations" not in shown and "ACES" not in shown
    assert all(len(screen.type(bad).splitlines()) == 1 for bad in ["xyz", "9", "d kh", "ks"])
    table = screen.type("t")
    assert "ACES" in table and table.rstrip().endswith(
        f"Moves {len(screen.position.move_stack)}, time 0:00."
    )


def test_a_draw_says_the_stock_and_a_play_from_the_discard_its_new_top() -> None:
    screen = Screen(order_with(52, "2H 5C 7D 9S 4H 6C 8D TS 9H AH"))
    assert screen.message("") == "You draw the 9 of hearts. Now: stock 43 cards."
    said = screen.message("")
    assert said == (
        "You draw the ace of hearts; the ace of hearts goes to its Ace pile. "
        "Now: stock 42 cards, discard pile the 9 of hearts (1 card)."
    )
    said = screen.message("1")
    assert said == (
        "The 2 of hearts goes from space 1 to the Ace pile of hearts; the 9 of hearts from "
        "the discard pile fills space 1. Now: discard pile empty."
    )


def test_restart_and_new_deal_ask_first_and_y_answers() -> None:
    screen = seeded(5)
    screen.type("")
    assert screen.message("restart").startswith(
        "Leave this game (1 move, counted as lost) to play it again from the deal?"
    )
    assert screen.message("3") == "Nothing changed: play on."  # not an answer: nothing done
    assert len(screen.position.move_stack) == 1
    screen.type("restart")
    said = screen.type("y")
    assert "ACES" in said and "The same deal again. New game: deal 5." in said
    assert screen.position.move_stack == () and screen.position.order == deal(5, 52)
    assert screen.message("restart").startswith("The same deal again")  # no move: no question
    assert screen.message("y") == "Nothing to answer yes to."


def test_stats_lists_what_was_played() -> None:
    screen = seeded(2, 1, 28)
    screen.type("p")
    shown = screen.type("stats")
    record = screen.session.sitting.record()
    assert f"MAChFsol 1, 28 cards: {record.text()}" in shown
    assert record.played == 1


def test_the_end_of_a_game_shows_the_statistics() -> None:
    screen = seeded(2, 1, 28)
    shown = screen.type("p")
    assert "Statistics, MAChFsol 1, 28 cards: played 1, won" in shown
    assert "n new deal  restart  u undo  q quit" in shown


def test_a_transcripts_move_lines_are_commands(tmp_path: Path) -> None:
    """``M T3 AC 5C``, ``T3 AC 5C``, ``S W KC``: the autoplay's transcript, typed line
    by line, plays its game (forced lines are the game's to make)."""
    seed, number, size = 3, 2, 40
    auto = play(Position.from_seed(seed, variant(number), size))
    text = of_game(auto, seed=seed, player=Player.AUTO)
    screen = seeded(seed, number, size)
    typed = 0
    for line in text.splitlines():
        if line.startswith("F ") and typed == 0:
            assert "is a forced step" in screen.message(line)
            typed += 1
        if line.startswith("M "):
            command = line if typed % 2 else line[2:]  # with and without its M
            typed += 1
            screen.type(command)
    assert screen.position.move_stack == auto.move_stack


def test_a_transcript_line_with_the_wrong_card_is_refused() -> None:
    screen = Screen(_order_for_moves())
    assert screen.message("S W 2H") == "2H is not the card on top of the stock: type 'S W' to draw"
    assert screen.message("S W AH").startswith("You draw the ace of hearts")
    said = screen.message("M T2 AC 7D")
    assert said == "space 2 holds the 5 of clubs (5C), not 7D"
    assert len(screen.position.move_stack) == 1


def test_solve_answers_for_the_table_as_it_stands() -> None:
    from machfsol.cli import still_winnable

    out = io.StringIO()
    session = Session(variant(1), CardFace(), out, solver=still_winnable)
    session.start(deal(7, 52), 7)
    session.obey("solve")
    said = out.getvalue().splitlines()
    assert said[-2] == "Asking the solver (at most 10 s)..."
    assert said[-1].startswith("Winnable: a winning move is ")
    assert said[-1].endswith("'hints solver' makes h follow its line.")
    session.obey("hints solver")
    session.obey("h")
    assert out.getvalue().splitlines()[-1].startswith("Hint (the solver's winning line): ")
    auto = play(Position.from_seed(7, variant(1)))
    for move in auto.move_stack:
        session.sitting.position.push(move)  # the hints' game: lost at the end
    session.obey("solve")
    assert out.getvalue().splitlines()[-1] == "No move left: the game is lost (u takes moves back)."


def lost_answer(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    return Answer(Verdict.LOST)


def slow_answer(order: tuple[Card, ...], number: int, moves: tuple[Move, ...]) -> Answer:
    import time

    time.sleep(60)
    return Answer(Verdict.LOST)  # pragma: no cover - stopped long before


@pytest.mark.parametrize(
    ("solver", "line", "says"),
    [
        (
            lost_answer,
            "solve",
            "Lost whatever you do: no line from here wins (u takes moves back).",
        ),
        (slow_answer, "solve 1", "Not decided in 1 s (solve N waits N seconds)."),
        (None, "solve", "The solver could not answer: the solver is not available here."),
    ],
)
def test_solve_says_lost_or_not_decided(solver: object, line: str, says: str) -> None:
    out = io.StringIO()
    session = Session(variant(2), CardFace(), out, solver=solver)  # type: ignore[arg-type]
    session.start(deal(3, 40), 3)
    session.obey(line)
    assert out.getvalue().splitlines()[-1] == says


def test_ctrl_c_asks_like_q_and_a_second_one_quits() -> None:
    out = io.StringIO()
    session = Session(variant(1), CardFace(), out)
    session.start(deal(1, 52), 1)
    session.obey("")
    presses = iter(["interrupt", "", "interrupt", "interrupt"])

    def read(prompt: str) -> str:
        if next(presses) == "interrupt":
            raise KeyboardInterrupt
        return ""

    assert session.run(read) == 0
    text = out.getvalue()
    assert text.count("Quit? This game is kept") == 2 and "Nothing changed: play on." in text


def test_continue_plays_the_kept_game_and_load_a_saved_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_input(monkeypatch, ["", "", "q", "y"])
    assert main(["play", "--plain", "--seed", "7"]) == 0
    assert "The game under way is kept" in capsys.readouterr().out
    fake_input(monkeypatch, ["continue", "t"])
    assert main(["play", "--plain", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "You left deal 7 of MAChFsol 1 (52 cards), 2 moves" in out
    assert "Welcome back: deal 7 of MAChFsol 1 (52 cards), 2 moves" in out
    assert "Moves 2, time" in out
    fake_input(monkeypatch, ["continue"])  # kept again at the end of the input
    assert main(["play", "--plain", "--seed", "9"]) == 0
    assert "Welcome back: deal 7 of MAChFsol 1 (52 cards), 2 moves" in capsys.readouterr().out
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "elsewhere"))
    fake_input(monkeypatch, ["continue"])
    assert main(["play", "--plain", "--seed", "9"]) == 0
    assert "There is no kept game to continue." in capsys.readouterr().out
    saved = tmp_path / "g.txt"
    position = Position.from_seed(6, variant(2), 36)
    for _ in range(4):
        position.push(DRAW)
    saved.write_text(of_game(position, seed=6, player=Player.HUMAN))
    fake_input(monkeypatch, ["u", "t"])
    assert main(["play", "--plain", "--load", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"Loaded {saved}: deal 6 of MAChFsol 2 (36 cards), 4 moves" in out
    assert "Took back 1 move (draw a card)" in out and "Moves 3, time" in out
