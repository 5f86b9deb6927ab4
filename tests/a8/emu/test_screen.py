"""Drawing a screen from a synthetic memory image and register set (no emulator)."""

from __future__ import annotations

import pytest

from a8.emu.palette import palette
from a8.emu.screen import ScreenSnapshot, SnapshotError, parse_registers

DLIST = 0x3000
SCREEN = 0x4000
CHARSET = 0x5000


def registers(**changes: int) -> dict[str, int]:
    values = {
        "DMACTL": 0x22,
        "CHACTL": 0x02,
        "DLISTL": DLIST & 0xFF,
        "DLISTH": DLIST >> 8,
        "CHBASE": CHARSET >> 8,
        "COLPF0": 0x28,
        "COLPF1": 0x0E,
        "COLPF2": 0x94,
        "COLPF3": 0x46,
        "COLBK": 0x00,
    }
    values.update(changes)
    return values


def memory_with(display_list: list[int], screen: bytes, glyphs: dict[int, list[int]]) -> bytes:
    memory = bytearray(0x10000)
    memory[DLIST : DLIST + len(display_list)] = bytes(display_list)
    memory[SCREEN : SCREEN + len(screen)] = screen
    for code, rows in glyphs.items():
        memory[CHARSET + code * 8 : CHARSET + code * 8 + 8] = bytes(rows)
    return bytes(memory)


#: 8 blank lines, one mode 2 line from SCREEN, then jump and wait for vertical blank.
ONE_TEXT_LINE = [0x70, 0x42, SCREEN & 0xFF, SCREEN >> 8, 0x41, DLIST & 0xFF, DLIST >> 8]
ARROW = [0x80, 0xC0, 0xE0, 0xF0, 0xE0, 0xC0, 0x80, 0x00]


def test_text_line_glyphs_and_inverse() -> None:
    screen = bytes([0x21, 0xA1] + [0] * 38)  # internal 0x21 = "A", then inverse "A"
    snapshot = ScreenSnapshot(memory_with(ONE_TEXT_LINE, screen, {0x21: ARROW}), registers())
    assert [line.first_scanline for line in snapshot.mode_lines()] == [16]
    assert snapshot.text_lines() == ["AA" + " " * 38]
    picture = snapshot.image()
    colours = palette()
    off, on = colours[0x94], colours[0x9E]
    y0 = 16 - 8
    for y, bits in enumerate(ARROW):
        for x in range(8):
            lit = bool(bits & (0x80 >> x))
            assert picture.getpixel((8 + x, y0 + y)) == (on if lit else off)
            assert picture.getpixel((16 + x, y0 + y)) == (off if lit else on)
    assert picture.getpixel((0, 0)) == colours[0x00]  # border
    assert picture.getpixel((100, y0 + 8)) == colours[0x00]  # below the only mode line


def test_blank_inverse_and_no_inverse() -> None:
    screen = bytes([0xA1] + [0] * 39)
    memory = memory_with(ONE_TEXT_LINE, screen, {0x21: ARROW})
    colours = palette()
    hidden = ScreenSnapshot(memory, registers(CHACTL=0x01)).image()
    assert {hidden.getpixel((8 + x, 8 + y)) for x in range(8) for y in range(8)} == {colours[0x94]}
    plain = ScreenSnapshot(memory, registers(CHACTL=0x00)).image()
    assert plain.getpixel((8, 8)) == colours[0x9E]


def test_wide_text_takes_colour_from_the_top_bits() -> None:
    dlist = [0x46, SCREEN & 0xFF, SCREEN >> 8, 0x41, DLIST & 0xFF, DLIST >> 8]
    screen = bytes([0x21 | 0x80] + [0] * 19)  # colour bits 10: COLPF2
    memory = memory_with(dlist, screen, {0x21: [0xFF] * 8})
    snapshot = ScreenSnapshot(memory, registers())
    assert snapshot.text_lines() == ["A" + " " * 19]
    picture = snapshot.image()
    assert picture.getpixel((8, 0)) == palette()[0x94]
    assert picture.getpixel((8 + 16, 0)) == palette()[0x00]  # next character: blank


def test_hires_bitmap_and_dma_off() -> None:
    dlist = [0x4F, SCREEN & 0xFF, SCREEN >> 8, 0x41, DLIST & 0xFF, DLIST >> 8]
    memory = memory_with(dlist, bytes([0x80] + [0] * 39), {})
    picture = ScreenSnapshot(memory, registers()).image()
    assert picture.getpixel((8, 0)) == palette()[0x9E]
    assert picture.getpixel((9, 0)) == palette()[0x94]
    blank = ScreenSnapshot(memory, registers(DMACTL=0x00)).image()
    assert blank.getpixel((8, 0)) == palette()[0x00]


def test_display_list_loops_are_bounded() -> None:
    looping = [0x01, DLIST & 0xFF, DLIST >> 8]  # a jump to itself, no JVB
    snapshot = ScreenSnapshot(memory_with(looping, b"", {}), registers())
    assert snapshot.mode_lines() == []


def test_bad_snapshots() -> None:
    with pytest.raises(SnapshotError, match="65536"):
        ScreenSnapshot(b"\0" * 10, registers())
    with pytest.raises(SnapshotError, match="CHBASE"):
        ScreenSnapshot(bytes(0x10000), {k: v for k, v in registers().items() if k != "CHBASE"})


def test_parse_registers() -> None:
    listing = "DMACTL=22    CHACTL=02\nCOLPF0=28    COLBK= 00\nNMIEN= 40    ypos=   0\n"
    assert parse_registers(listing) == {
        "DMACTL": 0x22,
        "CHACTL": 0x02,
        "COLPF0": 0x28,
        "COLBK": 0x00,
        "NMIEN": 0x40,
    }


def test_palette_shape() -> None:
    colours = palette("ntsc")
    assert len(colours) == 256
    assert colours[0x00] < colours[0x0E]  # grey ramp rises
    assert colours[0x0E][0] == colours[0x0E][1] == colours[0x0E][2]
    red, green, blue = colours[0x94]
    assert blue > red  # hue 9 is blue
    assert palette("pal") != colours
