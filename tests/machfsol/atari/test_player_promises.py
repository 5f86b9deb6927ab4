"""What a player at the Atari is promised (docs/GAME.md), held in atari800: keys typed
ahead kept, the deal number typed is the deal played, the status line never keeps an
older text, and no empty screen while the game loads.

The emulator runs the built-in ROMs; with A8_TEST_OS_ROM and A8_TEST_BASIC_ROM set
(your own XL OS rev. 2 and BASIC rev. C images) the same tests run on the genuine
ones, where BASIC's VAL and PRINT keep 9 significant digits.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from a8.basic.bcd import afp, to_int
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script
from machfsol.atari.build import title_of
from machfsol.atari.keyboard_game import KeyboardGame, play_on_keyboard
from machfsol.atari.screen_table import TableReadError, TableView
from machfsol.atari.verify import KEYBOARD_GAMES, KEYBOARD_MOVES, game_disk
from machfsol.atari.verify_batch import GameDisk
from machfsol.engine.deal import MAX_SEED
from machfsol.engine.rules import Position, variant

#: Frames between looks at the screen while the game loads: an empty screen for more
#: than 30 frames (0.5 s) shows in at least three looks in a row.
LOOK_FRAMES = 10


def machine() -> EmulatorOptions:
    """The built-in ROMs, or the ones in $A8_TEST_OS_ROM / $A8_TEST_BASIC_ROM."""
    os_rom, basic_rom = os.environ.get("A8_TEST_OS_ROM"), os.environ.get("A8_TEST_BASIC_ROM")
    return EmulatorOptions(
        os_rom=Path(os_rom) if os_rom else None,
        basic_rom=Path(basic_rom) if basic_rom else None,
        timeout_s=600,
    )


@pytest.fixture(scope="module")
def disk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game_disk(tmp_path_factory.mktemp("disk") / "MACHFSOL.ATR")


def screen_after(disk: Path, folder: Path, game: int, keys: list[str]) -> list[str]:
    """Boot, choose ``game``, type each key of ``keys`` (a character, or a key name such
    as DELETE) when the game is ready for it; the screen's text lines at the end."""
    script = Script().wait_for_text(title_of(game), 3000).type(str(game)).wait_for_input(20000)
    for key in keys:
        script = script.type(key) if len(key) == 1 else script.key(key)
        script = script.wait_for_input(20000)
    result = run(replace(machine(), disk=disk), script.screenshot(str(folder / "end.png")))
    assert result.ok, result.reason
    return list(result.screens[-1].text_lines()) if result.screens else []


# ------------------------------------------------------------------ deal numbers


def value_of(text: str) -> int:
    """What BASIC's VAL makes of a string of digits, as the XL OS's AFP does it."""
    converted = afp(text.encode("ascii") + b"\x9b", 0)
    assert converted is not None
    return to_int(converted[0])


@pytest.mark.parametrize(
    "typed", ["2147483646", "2147483639", "1000000000", "1999999999", "0000000007", "999999999"]
)
def test_the_program_s_conversion_is_exact_where_val_is_not(typed: str) -> None:
    """Genuine BASIC's VAL keeps 9 significant digits (the XL OS's AFP, modelled by
    a8.basic.bcd and held to genuine BASIC rev. C's gold data): the program reads a
    10-digit number as VAL of its first nine digits, times ten, plus the last, each
    step exact in the 10-digit BCD arithmetic."""
    exact = int(typed)
    if len(typed) == 10 and exact >= 10**9 and exact % 10:
        assert value_of(typed) != exact  # what VAL alone would deal
    if len(typed) == 10:
        first, last = value_of(typed[:9]), value_of(typed[9])
        assert first == int(typed[:9]) and last == int(typed[9])  # 9 digits: exact
        # Both steps give whole numbers of at most 10 digits, which the 5 base-100
        # digit pairs of BASIC's mantissa hold exactly: the math pack's multiply and
        # add lose nothing.
        assert first * 10 < 10**10 and first * 10 + last == exact < 10**10
    else:
        assert value_of(typed) == exact


@pytest.mark.emulator
@pytest.mark.slow
def test_the_largest_deal_number_is_the_deal_played(
    atari800: str, tmp_path: Path, disk: Path
) -> None:
    """2147483646 typed is deal 2147483646 (not 2147483640), shown as typed; a number
    out of range is refused with the prompt kept, DELETE takes a digit back."""
    keys = ["N", "9", "9", "9", "9", "9", "9", "9", "9", "9", "9", "\n"]  # 9999999999
    keys += ["0", "\n", "5", "DELETE"]  # 0 refused too; 5 typed, then taken back
    keys += list(f"{MAX_SEED}") + ["\n"]
    lines = screen_after(disk, tmp_path, 2, keys)
    assert lines[1].rstrip() == f"DEAL {MAX_SEED}  52 CARDS  WON 0/0"
    shown = TableView.read(lines)
    assert shown == TableView.of_position(Position.from_seed(MAX_SEED, variant(2)))


@pytest.mark.emulator
@pytest.mark.slow
def test_the_status_line_keeps_no_character_of_an_older_one(
    atari800: str, tmp_path: Path, disk: Path
) -> None:
    # a move (the deal counted as played), then N: leave the game (Y), deal 1
    keys = ["N", *f"{MAX_SEED}", "\n", " ", "N", "Y", "1", "\n"]
    lines = screen_after(disk, tmp_path, 1, keys)
    assert lines[1] == "DEAL 1  52 CARDS  WON 0/1".ljust(40)


@pytest.mark.emulator
@pytest.mark.slow
def test_escape_goes_back_to_the_game_without_a_new_deal(
    atari800: str, tmp_path: Path, disk: Path
) -> None:
    lines = screen_after(disk, tmp_path, 1, ["N", "4", "2", "ESC"])
    assert lines[1].startswith("DEAL 1  ")
    assert TableView.read(lines) == TableView.of_position(Position.from_seed(1, variant(1)))
    assert not any("DEAL NUMBER" in line for line in lines)


# ------------------------------------------------------------------ keys typed ahead


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(KEYBOARD_GAMES))
def test_a_whole_game_typed_ahead_at_12_keys_a_second(
    atari800: str, tmp_path: Path, disk: Path, game: int
) -> None:
    """Every key of a whole game at once, while the game is still working out the
    moves before: none lost, none doubled, in order (the table at the end)."""
    typed = KeyboardGame.of_seed(game, KEYBOARD_GAMES[game], KEYBOARD_MOVES)
    typed = KeyboardGame(game, typed.seed, typed.moves, undo_every=7, typed_ahead=True)
    check = play_on_keyboard(typed, GameDisk(disk, game), folder=tmp_path, options=machine())
    assert check.ok, "\n".join([*check.differences, *check.screen_text])
    assert len(typed.keys()) > 90  # a long burst: the whole game, one key a move mostly


# ------------------------------------------------------------------ loading


def blank(lines: list[str]) -> bool:
    return not any(line.strip() for line in lines)


def longest_blank_run(screens: list[list[str]]) -> int:
    longest = run_length = 0
    for lines in screens:
        run_length = run_length + 1 if blank(lines) else 0
        longest = max(longest, run_length)
    return longest


def table_shown(lines: list[str]) -> bool:
    try:
        TableView.read(lines)
    except TableReadError:
        return False
    return True


def looks_until_the_table(
    disk: Path, folder: Path, start: Script, looks: int, sio_patch: bool
) -> list[list[str]]:
    """The screen every LOOK_FRAMES frames after ``start``, up to the first look that
    shows the game's table."""
    script = start
    for number in range(looks):
        script = script.wait(LOOK_FRAMES).screenshot(str(folder / f"look{number}.png"))
    result = run(replace(machine(), disk=disk, sio_patch=sio_patch), script)
    screens = [list(screen.text_lines()) for screen in result.screens]
    shown = next((i for i, lines in enumerate(screens) if table_shown(lines)), None)
    assert shown is not None, "the table never came"
    return screens[: shown + 1]


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("sio_patch", [True, False], ids=["sio-patch", "real-serial-io"])
def test_from_the_menu_key_to_the_table_the_screen_is_never_empty(
    atari800: str, tmp_path: Path, disk: Path, sio_patch: bool
) -> None:
    """The menu stays with a loading bar under it, then the set-up and the first table
    keep the top lines on the screen: no empty screen for 0.5 s, with a real drive's
    timing too."""
    start = Script().wait_for_text(title_of(2), 3000).type("1")
    looks = 150 if sio_patch else 250
    screens = looks_until_the_table(disk, tmp_path, start, looks, sio_patch)
    assert longest_blank_run(screens) < 3
    assert "MAChFsol 1" in "\n".join(screens[0])  # the menu stays while it loads


@pytest.mark.emulator
@pytest.mark.slow
def test_after_the_options_the_screen_is_never_empty(
    atari800: str, tmp_path: Path, disk: Path
) -> None:
    start = (
        Script()
        .wait_for_text(title_of(1), 3000)
        .type("1")
        .wait_for_input(20000)
        .type("O")
        .wait_for_input(2000)
        .type("S")
        .wait_for_input(2000)
        .key("RETURN")
    )
    screens = looks_until_the_table(disk, tmp_path, start, 200, True)
    assert longest_blank_run(screens) < 3
    assert any("PLEASE WAIT" in "\n".join(lines) for lines in screens)
