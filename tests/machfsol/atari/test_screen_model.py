"""The engine's table drawn the Atari game's way, and what a differing checksum is
taken to mean. (That the drawing is the game's, byte for byte, the emulator tests of
test_verify.py prove: every step of every verified deal compares the two.)"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from machfsol.atari.screen_model import (
    WIDTH,
    Screen,
    card_cell,
    diagnose,
    hint_text,
    internal,
    place_cells,
    status_line,
)
from machfsol.atari.screen_sum import fletcher
from machfsol.engine.autoplay import choose_move
from machfsol.engine.rules import Position, variant


def _table(seed: int = 7, moves: int = 12, deck: int = 52) -> Position:
    position = Position.from_seed(seed, variant(1), deck)
    for _ in range(moves):
        move = choose_move(position)
        assert move is not None
        position.push(move)
    return position


def _with(screen: Screen, row: int, column: int, data: bytes) -> int:
    """The checksum of ``screen`` with ``data`` written at ``row``, ``column``."""
    memory = bytearray(screen.memory())
    for offset, code in enumerate(data):
        memory[row * WIDTH + column + offset] = internal(code)
    return fletcher(bytes(memory))


def test_the_rows_are_the_games() -> None:
    screen = Screen(1, _table(), deal="7", won=2, played=3)
    text = screen.text_lines()
    assert text[0].rstrip() == "MACHFSOL 1: KINGS DOWN BY SUIT"
    assert text[1].rstrip() == "DEAL 7  52 CARDS  WON 2/3"
    assert text[3].rstrip() == "ACES      TABLEAU            KINGS"
    assert text[15].startswith("STOCK ")
    assert text[20].rstrip() == "PICK 1-8 0 QWER, THEN A OR QWER"
    assert len(screen.memory()) == 960


def test_internal_codes() -> None:
    assert internal(ord(" ")) == 0 and internal(ord("A")) == 0x21
    assert internal(ord("a")) == 0x61 and internal(0x1D) == 0x5D
    assert internal(0x80 | ord("A")) == 0xA1  # inverse video kept


@pytest.mark.parametrize("place", ["T1", "T5", "AS", "KH", "W"])
def test_a_wrong_card_is_named_with_its_place(place: str) -> None:
    position = _table()
    screen = Screen(1, position)
    row, column = place_cells(screen)[place]
    shown = bytes(screen.rows[row][column : column + 2])
    other = next(
        card for card in position.deck.cards() if card_cell(card, False) not in (shown, b"--")
    )
    message = diagnose(screen, _with(screen, row, column, card_cell(other, False)))
    assert message.startswith(f"{place}: the screen shows {other.code} where the engine has")


def test_counts_messages_and_the_score() -> None:
    screen = Screen(1, _table(), won=1, played=4)
    stock = screen.position.stock_count()
    assert diagnose(screen, _with(screen, 15, 6, f"{stock + 1:<3}".encode())) == (
        f"the stock: the screen shows {stock + 1}, the engine has {stock}"
    )
    hinted = replace(screen, message=b"THE STOCK IS EMPTY")
    assert diagnose(screen, hinted.checksum()) == (
        "the message line shows 'THE STOCK IS EMPTY', the engine's none"
    )
    assert diagnose(screen, replace(screen, won=2, played=5).checksum()) == (
        "the status line shows WON 2/5, the engine's WON 1/4"
    )
    assert diagnose(screen, replace(screen, end_keys=True).checksum()) == (
        "the end's keys (row 18) shown"
    )


def test_a_hint_for_another_move_is_named() -> None:
    position = _table(seed=1, moves=2)  # a card may go up besides the draw
    screen = Screen(1, position, message=b"HINT: DRAW (SPACE)")
    other = next(move for move in position.legal_moves() if not move.is_draw)
    card = position.card_to_move(other)
    wrong = replace(screen, message=hint_text(other, card, False)).checksum()
    assert diagnose(screen, wrong).startswith("the message line shows 'HINT: ")
    assert diagnose(screen, wrong).endswith("the engine's 'HINT: DRAW (SPACE)'")


def test_anything_else_is_said_plainly() -> None:
    screen = Screen(1, _table())
    assert diagnose(screen, (screen.checksum() + 1) & 0xFFFF) == (
        "the screen differs from the engine's in more than one place, or outside the table"
    )


def test_the_status_line_takes_single_blanks_past_column_33() -> None:
    """Program lines 199 and 200: the default plan's ten-digit deal from 9 of 999."""
    assert status_line("2147483646", 52, 9, 999) == "DEAL 2147483646  52 CARDS  WON 9/999"
    assert status_line("2147483646", 52, 9, 1000) == "DEAL 2147483646  52 CARDS  WON 9/1000"
    assert status_line("2147483646", 52, 10, 1000) == "DEAL 2147483646 52 CARDS WON 10/1000"
    assert status_line("65537", 40, 1000, 1000) == "DEAL 65537  40 CARDS  WON 1000/1000"


@given(
    st.integers(1, 2147483646),
    st.sampled_from(range(20, 53, 4)),
    st.integers(0, 9999),
    st.integers(0, 9999),
)
def test_the_status_line_never_reaches_the_last_column(
    deal: int, deck: int, won: int, played: int
) -> None:
    """Column 39 would wrap the line (ERROR 5 at line 199 before it was cut short), and
    the fill after the deals played takes them to column 38 at most."""
    played = max(won, played)
    assert len(status_line(str(deal), deck, won, played)) <= 38
