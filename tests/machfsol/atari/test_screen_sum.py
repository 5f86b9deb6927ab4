"""The test mode's screen checksum in a simulator (py65): the 6502 routine gives the
sum :func:`machfsol.atari.screen_sum.fletcher` computes, on any screen anywhere."""

from __future__ import annotations

import random

import pytest

from machfsol.atari import screen_sum
from machfsol.atari.basic_game import generate
from machfsol.atari.shuffle import FORBIDDEN
from tests.ram6502 import RecordingRam, call_usr

SAVMSC = 0x58
FR0 = 0xD4
STRING = 0x3100


def run_sum(screen: bytes, at: int) -> tuple[int, RecordingRam]:
    memory = RecordingRam(0xA5)
    memory.poke(at, list(screen))
    memory.poke(STRING, list(screen_sum.code()))
    memory.poke(SAVMSC, [at & 0xFF, at >> 8])
    memory.poke(FR0, [STRING & 0xFF, STRING >> 8])
    call_usr(memory, STRING, [])
    return memory.peek(FR0) | memory.peek(FR0 + 1) << 8, memory


@pytest.mark.parametrize("seed", range(8))
def test_the_routine_gives_fletcher_s_sum(seed: int) -> None:
    chooser = random.Random(seed)
    screen = bytes(chooser.randrange(256) for _ in range(screen_sum.SCREEN_BYTES))
    at = chooser.choice([0x9C40, 0xBC40, 0x4000, 0x40FF])
    result, memory = run_sum(screen, at)
    assert result == screen_sum.fletcher(screen)
    assert memory.writes <= {*range(0xD4, 0xDA), *range(0x0100, 0x0200)}
    allowed = {*range(at, at + screen_sum.SCREEN_BYTES), *range(STRING, STRING + 64)}
    assert memory.reads <= allowed | {SAVMSC, SAVMSC + 1, *range(0xD4, 0xDA), *range(0x100, 0x200)}


def test_extreme_screens() -> None:
    for screen in (bytes(960), bytes([255]) * 960, bytes([128]) * 960):
        assert run_sum(screen, 0x9C40)[0] == screen_sum.fletcher(screen)


def test_one_changed_card_changes_the_sum() -> None:
    screen = bytearray(960)
    base = screen_sum.fletcher(bytes(screen))
    for place in range(0, 960, 37):
        changed = bytearray(screen)
        changed[place] = 0x11
        assert screen_sum.fletcher(bytes(changed)) != base


def test_the_string_holds_no_quote_end_of_line_or_editor_control() -> None:
    assert not FORBIDDEN & set(screen_sum.code())
    listing = generate(1)
    assert "".join(f"{{${byte:02X}}}" for byte in screen_sum.code()) in listing
