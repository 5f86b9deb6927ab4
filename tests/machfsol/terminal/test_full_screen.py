"""The full-screen game's keys and layout, without a terminal (fast; the pty tests in
test_full_screen_terminal.py run the real program)."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.atari.keyboard_game import player_moves
from machfsol.engine.autoplay import play
from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.checker import check_bytes
from machfsol.engine.deal import deal
from machfsol.engine.rules import DRAW, Move, Place, Position, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.terminal.curses_ui import key_name
from machfsol.terminal.full_screen import FullScreenGame, Mode
from machfsol.terminal.game import Sitting
from machfsol.terminal.game_options import Pace
from machfsol.terminal.pile_keys import cursor_grid
from machfsol.terminal.screen_layout import (
    HEIGHT,
    Look,
    Span,
    layout,
    place_at,
    short_label,
    size_needed,
)
from machfsol.terminal.statistics import Statistics
from machfsol.terminal.table_view import CardFace, Style
from tests.machfsol.support import order_with
from tests.machfsol.terminal.typed_game import short_keys, two_keys


def game_of(
    seed: int = 1,
    number: int = 1,
    size: int = 52,
    face: CardFace | None = None,
    transcript: Path | None = None,
) -> FullScreenGame:
    sitting = Sitting(variant(number), face or CardFace(), transcript, seeds=lambda: 4242)
    sitting.new_deal(deal(seed, size), seed)
    return FullScreenGame(sitting)


def press(game: FullScreenGame, *keys: str) -> FullScreenGame:
    for key in keys:
        game.press(key)
    return game


def words(text: str) -> str:
    return " ".join(text.split())


def screen_text(game: FullScreenGame) -> str:
    """The spans laid on a grid, as a terminal would show them."""
    rows, columns = size_needed(game)
    grid = [[" "] * columns for _ in range(rows)]
    for span in layout(game):
        for offset, char in enumerate(span.text):
            grid[span.row][span.column + offset] = char
    return "\n".join("".join(row).rstrip() for row in grid)


# -------------------------------------------------------------------- the keys


@pytest.mark.parametrize(("number", "seed"), [(1, 289), (2, 1), (2, 77)])
def test_two_keys_a_move_as_on_the_atari_play_the_same_moves(number: int, seed: int) -> None:
    """Source and destination keys for every move, as on the Atari: a card with one
    place goes there on the first key, and the second key then changes nothing."""
    game = game_of(seed, number)
    moves = player_moves(Position.from_seed(seed, variant(number)), 80)
    for move in moves:
        press(game, *two_keys(move))
        assert game.mode is Mode.PLAY and game.picked is None
    assert game.sitting.position.move_stack == moves


@pytest.mark.parametrize(("number", "seed"), [(1, 289), (2, 1), (2, 77)])
def test_one_key_moves_a_card_to_its_only_place(number: int, seed: int) -> None:
    """The fewest keys: the source's alone when the card has exactly one legal place
    (the Barajamos "best spot"); with two, the game asks which, as before."""
    game = game_of(seed, number)
    moves = player_moves(Position.from_seed(seed, variant(number)), 80)
    for move in moves:
        keys = short_keys(game.sitting.position, move)
        press(game, keys[0])
        if len(keys) == 2:
            assert game.mode is Mode.PICKED and len(game.targets()) >= 2
            press(game, keys[1])
        assert game.mode is Mode.PLAY and game.picked is None
    assert game.sitting.position.move_stack == moves


def test_a_card_with_two_places_is_picked_and_the_game_asks() -> None:
    """Variant 2: a card that fits two King piles (or an Ace and a King pile)."""
    for seed in range(1, 400):
        game = game_of(seed, 2)
        position = game.sitting.position
        while not position.is_over():
            sources = [m.source for m in position.legal_moves() if not m.is_draw]
            doubled = [s for s in sources if sources.count(s) > 1]
            if doubled:
                press(game, game.source_key(doubled[0]))
                assert game.mode is Mode.PICKED and game.picked is doubled[0]
                assert len(game.targets()) == 2 and game.message.startswith("Picked the")
                return
            move = game.sitting.hint()
            assert move is not None
            game.sitting.play(move)
    pytest.fail("no card with two places in 400 deals")


def test_lower_case_keys_work_too() -> None:
    game = game_of(1)
    press(game, " ")
    assert game.sitting.position.move_stack == (DRAW,)
    press(game, "u")
    assert game.sitting.position.move_stack == ()


def test_pick_then_place_and_refusals() -> None:
    # T1..T8: 2H 5C 7D 9S 4H 6C 8D TS; the draw brings AH to its pile.
    sitting = Sitting(variant(1), CardFace())
    sitting.new_deal(order_with(52, "2H 5C 7D 9S 4H 6C 8D TS AH 3S"), None)
    game = FullScreenGame(sitting)
    press(game, " ", "2")
    assert game.mode is Mode.PICKED and game.picked is Place.T2  # nowhere to go: picked
    assert game.message == (
        "Picked the 5 of clubs (ESC: put it back). The 5 of clubs has nowhere to go yet: "
        "its Ace pile needs the ace of clubs, and no King pile takes it (they take one rank "
        "lower, same suit)."
    )
    press(game, "A")
    assert game.message == "The 5 of clubs cannot go there: its Ace pile needs the ace of clubs."
    assert game.bell and game.mode is Mode.PLAY and game.picked is None
    press(game, "2", "Z")
    assert "the King pile of spades has not started" in game.message
    press(game, "1")  # the 2 of hearts: one place, its Ace pile
    assert sitting.position.move_stack == (DRAW, Move(Place.T1, Place.AH))
    assert game.message.startswith("The 2 of hearts goes from space 1 to the Ace pile of hearts")
    said = game.message
    game.bell = False
    press(game, "A")  # the second key of the habit: nothing more
    assert game.message == said and not game.bell
    press(game, "A")  # now it is a key of its own: nothing picked
    assert game.message.startswith("Pick a card first")
    press(game, "0")
    assert game.message == "The discard pile is empty."
    press(game, "X")
    assert game.message == "The King pile of hearts is empty."
    press(game, "J")
    assert game.message == "Press a key of the help below (? shows them all)."


def test_spaces_beyond_the_tableau_and_escape() -> None:
    game = game_of(3, 1, 40)
    press(game, "7")
    assert game.message == "There is no space 7: this table has spaces 1 to 6."
    press(game, "3")
    assert game.mode is Mode.PICKED
    press(game, "ESC")
    assert game.mode is Mode.PLAY and game.picked is None
    press(game, "3", " ")  # another command lets the card go and is done
    assert game.picked is None and game.sitting.position.move_stack == (DRAW,)


def test_hint_names_the_move_and_its_keys() -> None:
    game = game_of(1)
    press(game, "H")
    assert game.message == "Hint: draw a card (SPACE)."
    for _ in range(30):
        move = game.sitting.hint()
        assert move is not None
        press(game, "H")
        if not move.is_draw:
            keys = game.keys_for(move)
            assert f"({keys})." in game.message and game.hinted == move
            assert keys.replace(" then ", "") == short_keys(game.sitting.position, move)
            assert any(Look.TARGET in span.look for span in layout(game))
            break
        press(game, " ")
    else:
        pytest.fail("no hint other than drawing in 30 moves")


def test_undo_one_move_at_a_time_and_redo_plays_them_again() -> None:
    game = game_of(11)
    press(game, " ", " ", " ")
    dealt_then_three = game.sitting.position.move_stack
    press(game, "U")
    assert len(game.sitting.position.move_stack) == 2
    assert game.message == "Took back 1 move (U again for more, R plays it again)."
    press(game, "U", "U", "U")
    assert game.message == "Nothing to undo: this is the deal as dealt."
    press(game, "R")
    assert game.sitting.position.move_stack == dealt_then_three[:1]
    assert game.message.endswith("(R: 2 more)")
    press(game, "R", "R")
    assert game.sitting.position.move_stack == dealt_then_three
    press(game, "R")
    assert game.message.startswith("Nothing to redo")


def test_redo_until_a_new_move() -> None:
    """The move taken back, typed again, keeps the rest for redo; another move ends it."""
    game = game_of(11)
    press(game, " ", " ", " ", "U", "U", " ")  # the move taken back, typed again
    press(game, "R")
    assert len(game.sitting.position.move_stack) == 3
    seed = next(
        seed
        for seed in range(1, 200)
        if any(not m.is_draw for m in Position.from_seed(seed, variant(1)).legal_moves())
    )
    game = game_of(seed)
    play = next(m for m in game.sitting.position.legal_moves() if not m.is_draw)
    press(game, " ", "U")
    game.sitting.play(play)
    press(game, "R")
    assert game.message.startswith("Nothing to redo") and game.sitting.redo_count == 0


def test_play_all_ticks_the_autoplay_game_and_any_key_stops_it(tmp_path: Path) -> None:
    saved = tmp_path / "g.txt"
    game = game_of(5, 2, 40, transcript=saved)
    press(game, "P")
    assert game.mode is Mode.AUTOPLAY and "any key stops" in game.message
    game.tick()
    game.tick()
    press(game, "K")
    assert game.mode is Mode.PLAY and game.message.startswith("Play all stopped")
    assert len(game.sitting.position.move_stack) == 2
    press(game, "P")
    while game.mode is Mode.AUTOPLAY:
        game.tick()
    expected = play(Position.from_seed(5, variant(2), 40))
    assert game.sitting.position.move_stack == expected.move_stack
    assert game.message.startswith(("YOU WON!", "NO MORE MOVES"))
    assert saved.read_text() == of_game(expected, seed=5, player=Player.HUMAN)
    press(game, "P")
    assert game.message == "The game is already over."


def test_score_counts_played_and_won_deals() -> None:
    game = game_of(1)
    assert "Won 0 of 0" in screen_text(game)
    press(game, " ")
    assert "Won 0 of 1" in screen_text(game)
    won = next(
        seed for seed in range(1, 200) if play(Position.from_seed(seed, variant(2))).is_won()
    )
    press(game, "O", "V", "ENTER", "Y", "N", *str(won), "ENTER", "P")
    while game.mode is Mode.AUTOPLAY:
        game.tick()
    assert "Won 1 of 2" in screen_text(game)
    press(game, "1")
    assert game.message == "The game is won: N new deal, U undo, Q quit."


def test_new_deal_entry() -> None:
    game = game_of(1)
    press(game, "N", "7", "x", "7", "BACKSPACE", "5", "ENTER")
    assert game.sitting.seed == 75 and game.mode is Mode.PLAY
    assert "machfsol play --variant 1 --seed 75 --deck 52" in game.message
    press(game, "N", "0", "ENTER")
    assert game.mode is Mode.DEAL_NUMBER and "A deal number is 1 to 2147483646." in screen_text(
        game
    )
    press(game, "ESC")
    assert game.mode is Mode.PLAY and game.sitting.seed == 75
    press(game, "N", "ENTER")
    assert game.sitting.seed == 4242  # RETURN alone: a random deal


def test_the_options_screen_fits_the_largest_deal_number() -> None:
    game = press(game_of(2147483646), "O")
    _check_fits(game)
    assert any("deal 2147483646 again" in span.text for span in layout(game))


def test_options_change_style_pace_deck_and_variant() -> None:
    game = game_of(9)
    press(game, " ")
    press(game, "O", "S", "P", "ENTER")
    assert game.face.style is Style.SPANISH and game.pace is Pace.FAST
    assert game.sitting.position.move_stack == (DRAW,)  # the game goes on
    press(game, "O", "D", "D", "ENTER", "Y")
    assert game.sitting.position.deck.size == 44 and game.sitting.seed == 9
    assert game.sitting.position.move_stack == ()
    press(game, "O", "V", "ESC")
    assert game.sitting.variant.number == 1 and game.message == "Options unchanged."
    press(game, "O", "V", "ENTER")
    assert game.sitting.variant.number == 2
    assert game.sitting.position.order == deal(9, 44)


def test_options_on_your_own_order_keep_it_for_the_other_variant() -> None:
    sitting = Sitting(variant(1), CardFace())
    sitting.new_deal(deal(8, 40), None)
    game = FullScreenGame(sitting)
    press(game, "O", "V", "ENTER")
    assert sitting.variant.number == 2 and sitting.position.order == deal(8, 40)


def test_save_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = game_of(4)
    press(game, " ", " ", "S")
    assert game.mode is Mode.SAVE_NAME and game.entry == "machfsol-1-deal-4.txt"
    press(game, "ENTER")
    report = check_bytes((tmp_path / "machfsol-1-deal-4.txt").read_bytes(), "t")
    assert report.player is Player.HUMAN and report.moves == 2
    press(game, "S", *["BACKSPACE"] * 30, *"Mine.TXT", "ENTER")
    assert (tmp_path / "Mine.TXT").exists()
    press(game, "S", *["BACKSPACE"] * 30, *"no/such/dir.txt", "ENTER")
    assert "no/such/dir.txt: cannot write" in game.message and game.bell


def test_quit_asks_only_when_a_game_is_under_way() -> None:
    assert press(game_of(1), "Q").finished
    game = press(game_of(1), " ", "Q")
    assert game.mode is Mode.CONFIRM and game.message.startswith("Quit? This game is kept")
    press(game, "N")
    assert game.mode is Mode.PLAY and game.message == "Nothing changed: play on."
    press(game, "q", "y")
    assert game.finished
    assert press(game_of(1), " ", "EOF").finished
    assert press(game_of(1), " ", "INTERRUPT", "INTERRUPT").finished  # Ctrl-C twice
    assert press(game_of(1), " ", "Q", "Q").finished


@pytest.mark.parametrize(("keys", "what"), [("N", "for a new deal"), ("G", "to play it again")])
def test_leaving_a_game_under_way_asks_first(keys: str, what: str) -> None:
    game = press(game_of(5), " ", " ")
    before = game.sitting.position.move_stack
    press(game, keys)
    assert game.mode is Mode.CONFIRM and what in game.message and "(2 moves" in game.message
    press(game, "ESC")
    assert game.sitting.position.move_stack == before and game.sitting.seed == 5
    press(game, keys, "Y")
    if keys == "N":
        assert game.mode is Mode.DEAL_NUMBER
        press(game, *"77", "ENTER")
        assert game.sitting.seed == 77
    else:
        assert game.sitting.seed == 5 and game.sitting.position.move_stack == ()
        assert game.message.startswith("The same deal again.")
    assert game.sitting.record().played == 1  # the game left counts as lost
    assert game.sitting.record().won == 0


def test_restart_deals_the_same_order_without_asking_before_a_move() -> None:
    sitting = Sitting(variant(2), CardFace())
    sitting.new_deal(order_with(40, "2H 5C 7D 7S"), None)
    game = FullScreenGame(sitting)
    press(game, "G")
    assert game.mode is Mode.PLAY and sitting.position.order == order_with(40, "2H 5C 7D 7S")


def test_new_options_that_deal_again_ask_first() -> None:
    game = press(game_of(9), " ", "O", "D", "ENTER")
    assert game.mode is Mode.CONFIRM and "with the new options" in game.message
    press(game, "n")
    assert game.sitting.position.deck.size == 52 and game.sitting.position.move_stack == (DRAW,)
    press(game, "O", "D", "ENTER", "y")
    assert game.sitting.position.deck.size == 48 and game.sitting.seed == 9


def test_help_screen_on_question_mark_and_F1() -> None:
    for key in ("?", "F1"):
        game = press(game_of(1), key)
        assert game.mode is Mode.HELP
        text = screen_text(game)
        assert "THE GAME: put every card on the foundations" in text
        for words in ("R redo", "G the same deal again", "W can this deal still be won?"):
            assert words in text
        assert "Q quit" in text and "mouse" in text
        _check_fits(game)
        press(game, "ESC")
        assert game.mode is Mode.PLAY and "ACES" in screen_text(game)


def test_moves_and_time_played_are_on_the_screen() -> None:
    now = [100.0]
    sitting = Sitting(variant(1), CardFace(), clock=lambda: now[0])
    sitting.new_deal(deal(3, 52), 3)
    game = FullScreenGame(sitting)
    assert "Moves 0   Time 0:00" in screen_text(game)
    now[0] += 65
    press(game, " ", " ")
    assert "Moves 2   Time 1:05" in screen_text(game)
    press(game, "U")
    assert "Moves 1   Time 1:05" in screen_text(game)


def test_statistics_key_shows_every_variant_and_deck_played(tmp_path: Path) -> None:
    statistics = Statistics(tmp_path)
    statistics.add(2, 40, True, 125.0)
    statistics.add(1, 52, False, 30.0)
    sitting = Sitting(variant(1), CardFace(), statistics=statistics)
    sitting.new_deal(deal(3, 52), 3)
    game = press(FullScreenGame(sitting), "I")
    assert game.mode is Mode.STATISTICS
    text = screen_text(game)
    assert "MAChFsol 1, 52 cards:" in text and "MAChFsol 2, 40 cards:" in text
    assert "played 1, won 1 (100%), streak 1 (best 1), best time 2:05" in text
    assert f"Keptin{tmp_path / 'statistics.json'}" in "".join(text.split())
    _check_fits(game)
    press(game, " ")
    assert game.mode is Mode.PLAY and game.sitting.position.move_stack == ()


def test_cursor_walks_the_table_and_return_picks_and_places() -> None:
    sitting = Sitting(variant(1), CardFace())
    sitting.new_deal(order_with(52, "2H 5C 7D 9S 4H 6C 8D TS AH 3S"), None)
    game = FullScreenGame(sitting)
    press(game, "ENTER")
    assert game.message.startswith("The arrow keys move the cursor")
    press(game, "DOWN")
    assert game.cursor is Place.T1
    press(game, "DOWN", "DOWN", "DOWN", "DOWN")
    assert game.cursor is Place.W
    press(game, "LEFT", "ENTER")
    assert game.cursor is Place.S and sitting.position.move_stack == (DRAW,)
    press(game, "UP", "RIGHT", "UP", "UP", "UP")
    assert game.cursor is Place.T1
    press(game, "ENTER")  # the 2 of hearts has one place: it goes there
    assert game.picked is None
    assert sitting.position.move_stack[-1] == Move(Place.T1, Place.AH)
    press(game, "LEFT", "DOWN")
    assert game.cursor is Place.AH
    press(game, "ENTER")  # RETURN where it went, as for a two-step move: nothing more
    assert not game.message.startswith("Pick a card first")
    press(game, "UP", "RIGHT", "DOWN", "ENTER")  # the 5 of clubs: nowhere to go yet
    assert game.picked is Place.T2 and "has nowhere to go yet" in game.message
    press(game, "ENTER")
    assert game.picked is None and game.mode is Mode.PLAY
    press(game, "LEFT")
    assert game.cursor is Place.AH
    press(game, "RIGHT", "RIGHT", "RIGHT", "RIGHT")
    assert game.cursor is Place.KH
    press(game, "ENTER")
    assert game.message == "The King pile of hearts is empty."


def test_a_mouse_click_picks_and_places() -> None:
    """A click on a pile is RETURN there; a click on the place a card went to by
    itself changes nothing (the second half of the player's two clicks)."""
    sitting = Sitting(variant(1), CardFace())
    sitting.new_deal(order_with(52, "2H 5C 7D 9S 4H 6C 8D TS AH 3S"), None)
    game = FullScreenGame(sitting)
    game.click(place_at(game, 15, 0))  # the stock: draw
    assert sitting.position.move_stack == (DRAW,)
    space1 = next(span for span in layout(game) if span.place is Place.T1 and "2" in span.text)
    game.click(place_at(game, space1.row, space1.column))
    assert sitting.position.move_stack[-1] == Move(Place.T1, Place.AH)
    ace = next(span for span in layout(game) if span.place is Place.AH)
    game.click(place_at(game, ace.row, ace.column))  # where it went: nothing more
    assert len(sitting.position.move_stack) == 2 and not game.bell
    space2 = next(span for span in layout(game) if span.place is Place.T2 and "5" in span.text)
    game.click(place_at(game, space2.row, space2.column + 1))
    assert game.picked is Place.T2  # nowhere to go: picked, with the reason
    game.click(place_at(game, ace.row, ace.column))
    assert game.message.startswith("The 5 of clubs cannot go there")
    assert place_at(game, 0, 0) is None
    game.click(None)


@pytest.mark.parametrize("size", DECK_SIZES)
def test_cursor_grid_has_every_pile_of_the_deck(size: int) -> None:
    tableau = Position.from_seed(1, variant(1), size).deck.tableau_size
    places = set(cursor_grid(tableau).values())
    expected = {Place.S, Place.W, *(Place(Place.AS + i) for i in range(8))}
    expected |= {Place(Place.T1 + i) for i in range(tableau)}
    assert places == expected


@settings(max_examples=200, deadline=None)
@given(
    keys=st.lists(
        st.sampled_from(
            list("12345678 0QWERAHUPNOSXYDVZCGI?9")
            + ["ENTER", "ESC", "BACKSPACE", "UP", "DOWN", "F1", "INTERRUPT"]
            + ["LEFT", "RIGHT", "EOF", "é"]
        ),
        max_size=60,
    ),
    game=st.sampled_from([(1, 52), (2, 40), (1, 20), (2, 28)]),
)
def test_any_keys_never_raise_and_every_screen_fits(keys: list[str], game: tuple[int, int]) -> None:
    number, size = game
    played = game_of(17, number, size)
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # S saves here
        for key in keys:
            if played.finished:
                break
            played.press(key)
            if played.mode is Mode.AUTOPLAY:
                played.tick()
            _check_fits(played)


def _check_fits(game: FullScreenGame) -> None:
    rows, columns = size_needed(game)
    spans = layout(game)
    assert rows == HEIGHT
    for span in spans:
        assert 0 <= span.row < rows and "\n" not in span.text
        assert span.column + len(span.text) <= columns, span


# ---------------------------------------------------------------------- the layout


def test_layout_follows_the_atari_and_the_table() -> None:
    text = screen_text(game_of(1))
    lines = text.splitlines()
    assert lines[0] == "MAChFsol 1: King piles go down in suit"
    assert lines[1] == "Deal 1   52 cards   Won 0 of 0"
    assert lines[2].endswith("Moves 0   Time 0:00")
    assert lines[3].split() == ["ACES", "TABLEAU", "KINGS"]
    rows = [lines[5], lines[7], lines[9], lines[11]]
    assert [row.split()[0] for row in rows] == ["\u2660", "\u2665", "\u2663", "\u2666"]
    assert [row.split()[-1] for row in rows] == ["Z", "X", "C", "V"]
    tableau = Position.from_seed(1, variant(1)).tableau()
    for index, row in enumerate(rows):
        left, right = tableau[index], tableau[index + 4]
        assert left is not None and right is not None
        assert f"{index + 1} {short_label(CardFace(), left)}" in row
        assert f"{index + 5} {short_label(CardFace(), right)}" in row
    assert "STOCK 43" in lines[15] and "0 DISCARD -- (0)" in lines[15]
    assert lines[20].startswith("PICK 1-8 0 ZXCV, THEN A OR ZXCV")
    assert "Q quit" in lines[22] and "R redo" in lines[21] and "? help" in lines[22]


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize("size", DECK_SIZES)
def test_every_deck_and_style_fits_its_size(style: Style, size: int) -> None:
    game = game_of(31, 2, size, face=CardFace(style))
    press(game, "P")
    while game.mode is Mode.AUTOPLAY:
        game.tick()
        _check_fits(game)
    _check_fits(press(game, "O"))
    assert size_needed(game)[1] <= 80  # fits a standard terminal


def test_spanish_cards_are_short_words() -> None:
    face = CardFace(Style.SPANISH)
    deck = Position.from_seed(1, variant(1), 40).deck
    assert short_label(face, deck.parse_card("QD")) == "C coins"
    assert short_label(face, deck.parse_card("AS")) == "1 swords"
    assert short_label(face, deck.parse_card("JH")) == "S cups"
    text = screen_text(game_of(3, 2, 40, face=face))
    assert "1 ace, S sota, C caballo, R rey" in text
    assert not set("\u2660\u2665\u2663\u2666") & set(text)


def test_red_suits_are_marked_red_only_with_colour() -> None:
    coloured = layout(game_of(1, face=CardFace(colour=True)))
    red = {span.text.strip() for span in coloured if Look.RED in span.look}
    assert "10\u2665" in red and "\u2666" in red and "J\u2660" not in red
    assert not any(Look.RED in span.look for span in layout(game_of(1)))


def test_picked_card_and_its_destinations_are_marked() -> None:
    game = game_of(1)
    press(game, " ", "3")  # the 2 of hearts
    spans: list[Span] = layout(game)
    picked = [span.text.strip() for span in spans if Look.PICKED in span.look]
    assert picked == ["2\u2665"]


@pytest.mark.parametrize(
    ("key", "name"),
    [("q", "q"), ("Q", "Q"), (" ", " "), ("\n", "ENTER"), ("\x1b", "ESC"), ("\x7f", "BACKSPACE"),
     ("\x04", "EOF"), ("\x01", "")],
)  # fmt: skip
def test_key_names(key: str, name: str) -> None:
    assert key_name(key) == name


def test_curses_key_codes() -> None:
    import curses

    assert key_name(curses.KEY_UP) == "UP"
    assert key_name(curses.KEY_RESIZE) == "RESIZE"
    assert key_name(curses.KEY_F1) == "F1"
    assert key_name(curses.KEY_MOUSE) == "MOUSE"
    assert key_name(curses.KEY_F2) == ""


@pytest.mark.parametrize(("seed", "number"), [(2, 1), (1, 2)])
def test_the_last_move_typed_says_how_the_game_ended(seed: int, number: int) -> None:
    game = game_of(seed, number)
    while (move := game.sitting.hint()) is not None:
        press(game, *two_keys(move))
    position = game.sitting.position
    if position.is_won():
        assert game.message.startswith("YOU WON! ALL 52 CARDS ARE ON THE FOUNDATIONS.")
        record = "played 1, won 1 (100%), streak 1 (best 1), best time 0:00"
    else:
        count = position.foundation_count()
        assert game.message.startswith(f"NO MORE MOVES: {count} OF 52 CARDS PLACED.")
        record = "played 1, won 0 (0%), streak 0 (best 0)."
    lines = screen_text(game).splitlines()
    assert lines[20].startswith("N new deal  G again  U undo  I stats")
    assert record in words("\n".join(lines[21:23]))


@pytest.mark.parametrize(
    ("term", "says"),
    [
        ("xterm-256color", "None"),
        ("dumb", "'the terminal (TERM=dumb) cannot move its cursor'"),
        ("", "'TERM is not set'"),
        ("no-such", "'TERM=no-such is not a terminal type this machine knows (no terminfo entry)'"),
    ],
)
def test_which_game_runs_in_a_terminal(term: str, says: str) -> None:
    """In a process of its own, as curses reads the terminal's description only once."""
    import os
    import pty
    import subprocess
    import sys

    code = (
        "import io, sys; from machfsol.terminal.cli import full_screen_refusal as f; "
        "pipe = io.StringIO(); "
        "print(repr(f(sys.stdin, sys.stdout)), repr(f(pipe, pipe)), repr(f(pipe, sys.stdout)), "
        "repr(f(sys.stdin, pipe)), sep='|', file=sys.stderr)"
    )
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            env={**os.environ, "TERM": term},
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        os.close(master)
        os.close(slave)
    assert done.stderr.strip().split("|") == [
        says,
        "''",
        "'standard input is not a terminal'",
        "'standard output is not a terminal'",
    ]


def test_the_kept_game_offered_at_the_start_takes_only_y_n_or_q(tmp_path: Path) -> None:
    from machfsol.terminal.kept_game import KeptGame

    kept = KeptGame(tmp_path)
    first = Sitting(variant(1), CardFace(), statistics=Statistics(tmp_path), kept=kept)
    first.new_deal(deal(7, 52), 7)
    first.play(DRAW)
    assert first.end_sitting()

    def starting() -> FullScreenGame:
        sitting = Sitting(variant(1), CardFace(), statistics=Statistics(tmp_path), kept=kept)
        sitting.new_deal(deal(9, 52), 9)
        sitting.offered = kept.read()
        return FullScreenGame(sitting)

    game = starting()
    assert game.mode is Mode.CONFIRM and game.message.startswith("Continue deal 7 of MAChFsol 1")
    press(game, " ")
    assert game.mode is Mode.CONFIRM and game.bell  # not an answer: asked again
    press(game, "Q")
    assert game.finished and kept.read() is not None  # nothing decided
    game = starting()
    press(game, "y")
    assert game.sitting.seed == 7 and game.sitting.moves == 1 and kept.read() is None
    assert game.message.startswith("Welcome back: deal 7")
    game.sitting.end_sitting()
    game = starting()
    press(game, "n")
    assert game.sitting.seed == 9 and kept.read() is None
    assert Statistics(tmp_path).record(1, 52).played == 1
