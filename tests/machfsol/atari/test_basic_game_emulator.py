"""MACHFSOL.1 and MACHFSOL.2 really run in atari800: their test mode autoplays deals and
every transcript they write must pass the engine's checker (same deal, same forced steps,
the policy's moves, the right result)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from a8.basic import tokenize
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script
from machfsol.atari.basic_game import generate
from machfsol.atari.screen_table import TableView
from machfsol.atari.test_mode import DOS25_MEMLO, run_deals
from machfsol.atari.test_player import Deal
from machfsol.engine.autoplay import play
from machfsol.engine.checker import check_bytes
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import parse

SEEDS = tuple(range(1, 11))


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("deck_size", [52, 40])
@pytest.mark.parametrize("variant", [1, 2])
def test_atari_transcripts_pass_the_checker(atari800: str, variant: int, deck_size: int) -> None:
    run = run_deals(variant, [Deal(deck_size, seed) for seed in SEEDS])
    assert len(run.transcripts) == len(SEEDS)
    for seed, data in zip(SEEDS, run.transcripts, strict=True):
        report = check_bytes(data, f"MACHFSOL.{variant} seed {seed}")
        assert (report.variant, report.deck_size, report.seed) == (variant, deck_size, seed)
        transcript = parse(data)
        assert transcript.program == f"MACHFSOL.{variant} ATARI"
        assert transcript.order == deal(seed, deck_size)
        timings = dict(transcript.jiffies)
        if seed == SEEDS[0]:  # on the table after the boot or the options: played as it is
            assert set(timings) == {"GAME"}
            continue
        assert set(timings) == {"DEAL", "PLAY", "GAME"}
        assert 0 < timings["DEAL"] <= timings["GAME"]
        assert timings["DEAL"] + timings["PLAY"] == timings["GAME"]
    assert run.free_bytes > 4096


@pytest.mark.emulator
@pytest.mark.parametrize("variant", [1, 2])
def test_at_least_5000_bytes_free_with_dos_25(atari800: str, variant: int) -> None:
    """Measured, not estimated: MEMLO is raised to DOS 2.5's ($1C6C) and NEW makes BASIC
    start there, then the disk's program loads and sets up (every array and string
    dimensioned); FRE(0) then, before the test mode's overlay comes in, must leave a
    player 5,000 bytes. The run without the reservation shows that LOMEM really moved:
    exactly the reserved bytes are missing."""
    bare = run_deals(variant, [Deal(52, 1)], tokenized=True)
    with_dos = run_deals(variant, [Deal(52, 1)], tokenized=True, memlo=DOS25_MEMLO)
    assert bare.memlo == 0x0700
    assert with_dos.memlo == DOS25_MEMLO
    assert bare.free_bytes - with_dos.free_bytes == DOS25_MEMLO - 0x0700
    assert with_dos.free_bytes >= 5000


@pytest.mark.emulator
@pytest.mark.slow
def test_deals_of_every_deck_size_match_the_engine(atari800: str) -> None:
    """The exact-integer shuffle at every other deck size, with extreme seeds."""
    seeds = (1, 2147483646, 127773, 16807, 1043618065)
    deals = [Deal(size, seed) for size in (48, 44, 36, 32, 28, 24, 20) for seed in seeds[:2]]
    deals += [Deal(48, seed) for seed in seeds[2:]]
    run = run_deals(2, deals)
    for item, data in zip(deals, run.transcripts, strict=True):
        report = check_bytes(data, f"deck {item.deck_size} seed {item.seed}")
        assert (report.deck_size, report.seed) == (item.deck_size, item.seed)


def _screens(variant: int, folder: Path, keys: list[tuple[str, int]]) -> list[str]:
    """Run MACHFSOL.<variant> (tokenized, as on the disk), type each key, wait, and
    return the screen text after each one."""
    (folder / "GAME.BAS").write_bytes(tokenize(generate(variant)))
    script = Script().wait(120).type('RUN "H1:GAME.BAS"\n').wait(600)
    script = script.screenshot(str(folder / "start.png"))
    for number, (text, frames) in enumerate(keys):
        script = script.type(text) if text != "RETURN" else script.key("RETURN")
        script = script.wait(frames).screenshot(str(folder / f"after{number}.png"))
    result = run(EmulatorOptions(hdir=folder, timeout_s=120), script)
    assert result.reason == "script-end", result.reason
    return ["\n".join(screen.text_lines()) for screen in result.screens]


@pytest.mark.emulator
@pytest.mark.slow
def test_keyboard_play(atari800: str, tmp_path: Path) -> None:
    """Hint, draws, a one-key move, a card with nowhere to go, undo, redo, a wrong key,
    play all, new deal, options."""
    keys = [
        ("H", 60),  # 1 hint
        (" ", 60),  # 2-4 three draws: the Aces of spades and clubs come out
        (" ", 60),
        (" ", 60),
        ("5", 120),  # 5 the 2 of spades: one place to go, its Ace pile, so it goes
        ("5", 60),  # 6 the 9 of hearts that replaced it goes nowhere yet
        ("U", 300),  # 7 undo the 2 of spades
        ("Y", 300),  # 8 redo it
        ("U", 300),  # 9 and undo it again
        ("Z", 60),  # 10 a key that means nothing
        ("P", 5000),  # 11 play all: deal 1 is won by the policy
        ("N", 60),  # 12 new deal 12345 (the game is over: no question)
        ("12345\n", 600),
        ("O", 60),  # 14 options: Spanish cards
        ("S", 30),
        ("RETURN", 600),
    ]
    screens = _screens(1, tmp_path, keys)
    start = screens[0]
    assert "MACHFSOL 1: KINGS DOWN BY SUIT" in start
    assert "DEAL 1  52 CARDS  WON 0/0" in start
    assert "1 8\u2665      5 2\u2660" in start  # the engine's deal 1: 8H ... 2S
    assert "HINT: DRAW (SPACE)" in screens[1]
    assert "STOCK 40" in screens[4]
    assert "\u2660  2\u2660" in screens[5]  # 2 of spades on the spade Ace pile
    assert "WON 0/1" in screens[5]  # a move makes the deal count as played
    assert "MOVES 4" in screens[5]
    assert "9\u2665 GOES NOWHERE: " in screens[6]
    assert "\u2660  A\u2660" in screens[7] and "5 2\u2660" in screens[7]
    assert "MOVES 3" in screens[7]
    assert "\u2660  2\u2660" in screens[8] and "MOVES 4" in screens[8]
    assert "\u2660  A\u2660" in screens[9]
    assert "PRESS A KEY OF THE HELP BELOW" in screens[10]
    assert "YOU WON! ALL CARDS PLACED" in screens[11] and "WON 1/1" in screens[11]
    assert "TIME " in screens[11]
    # ... and the King piles have gone over to the Ace piles, as the rules allow.
    for suit in "\u2660\u2665\u2663\u2666":
        assert f"{suit}  K{suit}" in screens[11]
    assert "DEAL 12345  52 CARDS" in screens[13]
    assert "ESPADAS" in screens[16] and "DEAL 12345" in screens[16]


def _table(screen: str) -> TableView:
    return TableView.read(screen.splitlines())


@pytest.mark.emulator
@pytest.mark.slow
def test_keyboard_undo_random_deal_deck_size_and_a_lost_game(atari800: str, tmp_path: Path) -> None:
    """Undo several steps back to the deal; a random deal that is the engine's deal of the
    number shown; the deck-size option; the end screen of a game the policy loses."""
    lost = next(
        seed
        for seed in range(2, 100)
        if not play(Position.from_seed(seed, variant(1), 48)).is_won()
    )
    placed = play(Position.from_seed(lost, variant(1), 48)).foundation_count()
    keys = [
        (" ", 60),  # 1-3 three draws (deal 1: Aces come out and go up by themselves)
        (" ", 60),
        (" ", 60),
        ("U", 300),  # 4-6 three undos: back to the deal
        ("U", 300),
        ("U", 300),
        ("N", 60),  # 7-8 new deal, RETURN: a random one
        ("RETURN", 600),
        ("O", 60),  # 9-11 options: deck size 48, same deal number
        ("D", 30),
        ("RETURN", 600),
        ("N", 60),  # 12-14 a deal the policy loses, played to its end
        (f"{lost}\n", 600),
        ("P", 6000),
    ]
    screens = _screens(1, tmp_path, keys)
    start = _table(screens[0])
    assert _table(screens[3]) != start
    assert _table(screens[3]).stock == start.stock - 3
    assert _table(screens[6]) == start
    random_deal = re.search(r"DEAL (\d+)  52 CARDS", screens[8])
    assert random_deal is not None, screens[8]
    seed = int(random_deal.group(1))
    engine = TableView.of_position(Position.from_seed(seed, variant(1)))
    assert _table(screens[8]).differences(engine) == []
    assert f"DEAL {seed}  48 CARDS" in screens[11]
    engine = TableView.of_position(Position.from_seed(seed, variant(1), 48))
    assert _table(screens[11]).differences(engine) == []
    assert f"DEAL {lost}  48 CARDS" in screens[14]
    assert f"NO MORE MOVES: {placed} CARDS PLACED" in screens[14]
