from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.engine.autoplay import POLICIES, play
from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.deal import MAX_SEED
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import (
    MAX_LINE,
    Outcome,
    Player,
    TranscriptError,
    of_game,
    parse,
    split_lines,
)


def _game_text(seed: int = 7, number: int = 1, size: int = 52) -> str:
    game = play(Position.from_seed(seed, variant(number), size))
    return of_game(game, seed=seed, player=Player.AUTO)


def test_written_transcript_parses_back() -> None:
    game = play(Position.from_seed(7, variant(2), 40))
    text = of_game(game, seed=7, player=Player.AUTO)
    parsed = parse(text, "t.txt")
    assert parsed.variant == 2 and parsed.deck_size == 40 and parsed.seed == 7
    assert parsed.player is Player.AUTO
    assert parsed.order == game.order
    assert [(line.forced, line.source, line.destination, line.card) for line in parsed.lines] == [
        (s.forced, s.source, s.destination, s.card) for s in game.steps()
    ]
    assert parsed.result.outcome is (Outcome.WON if game.is_won() else Outcome.LOST)
    assert parsed.result.on_foundations == game.foundation_count()
    assert parsed.result.moves == len(game.move_stack)


def test_every_line_fits_an_atari_screen() -> None:
    for seed in range(1, 20):
        for line in _game_text(seed).splitlines():
            assert len(line) <= MAX_LINE and line.isascii()


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=1, max_value=MAX_SEED),
    st.sampled_from([1, 2]),
    st.sampled_from(DECK_SIZES),
    st.randoms(use_true_random=False),
)
def test_lines_fit_for_every_deck_variant_and_player(
    seed: int, number: int, size: int, rnd: random.Random
) -> None:
    """AUTO and GREEDY games, and a person's game (as ``machfsol play`` saves it: cut
    anywhere, so QUIT too, with the longest seeds), all stay within 38 columns."""
    texts = [
        of_game(play(Position.from_seed(seed, variant(number), size), policy), seed=seed, player=p)
        for policy, p in ((POLICIES["auto"], Player.AUTO), (POLICIES["greedy"], Player.GREEDY))
    ]
    human = Position.from_seed(seed, variant(number), size)
    for _ in range(rnd.randrange(3 * size + 1)):  # a game ends within 3N moves
        if human.is_over():
            break
        human.push(rnd.choice(human.legal_moves()))
    texts.append(of_game(human, seed=seed, player=Player.HUMAN))
    for text in texts:
        for line in text.splitlines():
            assert len(line) <= MAX_LINE and line.isascii() and line.isprintable(), line


def test_header_layout() -> None:
    lines = _game_text().splitlines()
    assert lines[:6] == [
        "MACHFSOL TRANSCRIPT 1",
        "PROGRAM MACHFSOL-PY 0.1.0",
        "VARIANT 1",
        "DECK 52",
        "SEED 7",
        "PLAYER AUTO",
    ]
    assert [line.split()[0] for line in lines[6:12]] == ["ORDER"] * 6
    assert lines[12] == "MOVES"
    assert lines[-1].startswith("RESULT ")


def test_atascii_line_ends_and_jiffies_lines_are_accepted() -> None:
    lines = _game_text().splitlines()
    lines.insert(1, "JIFFIES DEAL 812")
    lines.append("JIFFIES GAME 12345")
    data = b"\x9b".join(line.encode() for line in lines) + b"\x9b"
    parsed = parse(data, "atari.txt")
    assert parsed.jiffies == (("DEAL", 812), ("GAME", 12345))
    assert split_lines(b"A\r\nB\x9bC\n") == ["A", "B", "C"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ls[:-1], r"t\.txt:\d+: transcript is truncated"),
        (lambda ls: ls[:20], r"t\.txt:20: transcript is truncated"),
        (lambda ls: ["MACHFSOL TRANSCRIPT 2", *ls[1:]], r"t\.txt:1: expected"),
        (lambda ls: [*ls[:2], "VARIANT 3", *ls[3:]], r"t\.txt:3: variant '3'"),
        (lambda ls: [*ls[:3], "DECK 50", *ls[4:]], r"t\.txt:4: deck size 50"),
        (lambda ls: [*ls[:4], "SEED 0", *ls[5:]], r"t\.txt:5: seed '0'"),
        (lambda ls: [*ls[:5], "PLAYER ROBOT", *ls[6:]], r"t\.txt:6: player 'ROBOT'"),
        (lambda ls: [*ls[:6], "ORDER XX", *ls[7:]], r"t\.txt:7: 'XX' is not a card"),
        (lambda ls: [*ls[:14], "M T9 AS AS", *ls[15:]], r"t\.txt:15: 'T9' is not a place"),
        (lambda ls: [*ls[:14], "X S W AS", *ls[15:]], r"t\.txt:15: expected 'M\|F"),
        (lambda ls: [*ls, "M S W AS"], r"nothing but JIFFIES"),
        # Was a ValueError traceback: "²".isdigit() is True, int("²") fails.
        (lambda ls: [*ls, "JIFFIES GAME ²"], r"t\.txt:\d+: nothing but JIFFIES"),
        (lambda ls: [*ls, "JIFFIES GAME 1²"], r"t\.txt:\d+: nothing but JIFFIES"),
        (lambda ls: [ls[0], "JIFFIES DEAL ²", *ls[1:]], r"t\.txt:2: line has characters"),
        (lambda ls: [*ls, "JIFFIES GAME 12X"], r"expected 'JIFFIES <word> <number>'"),
        (lambda ls: [*ls[:14], "M S W " + "A" * 40, *ls[15:]], r"t\.txt:15: line is longer"),
        (lambda ls: [*ls[:-1], "RESULT DRAWN 3 MOVES 1"], r"'DRAWN' is not WON"),
        (lambda ls: [*ls[:-1], ls[-1].replace("WON", "QUIT").replace("LOST", "QUIT")],
         "only a HUMAN player can QUIT"),
    ],
)  # fmt: skip
def test_malformed_transcripts_name_file_and_line(edit: object, message: str) -> None:
    lines = _game_text().splitlines()
    assert callable(edit)
    with pytest.raises(TranscriptError, match=message):
        parse("\n".join(edit(lines)) + "\n", "t.txt")


def test_duplicate_card_in_order_is_an_error() -> None:
    lines = _game_text().splitlines()
    codes = lines[6].split()
    codes[2] = codes[1]
    lines[6] = " ".join(codes)
    with pytest.raises(TranscriptError, match="appears twice"):
        parse("\n".join(lines) + "\n", "t.txt")


@pytest.mark.parametrize("data", [b"", b"\n", b"\x00\x01garbage", "é".encode()])
def test_empty_or_binary_files_are_one_line_errors(data: bytes) -> None:
    with pytest.raises(TranscriptError, match=r"^bin\.txt:1: "):
        parse(data, "bin.txt")
