"""Screenshots from the real emulator: the text, the glyphs and the colours."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from a8.emu.emulator import EmulatorOptions, run
from a8.emu.palette import palette
from a8.emu.screen import FIRST_SCANLINE
from a8.emu.script import Script

pytestmark = pytest.mark.emulator

#: The letter H of the Atari character set, row by row (the same in Atari's OS and AltirraOS).
GLYPH_H = (0x00, 0x66, 0x66, 0x7E, 0x66, 0x66, 0x66, 0x00)


def test_screenshot_shows_the_typed_text(atari800: str, tmp_path: Path) -> None:
    png = tmp_path / "shot.png"
    script = Script().wait(150).type('PRINT "HELLO WORLD"\n').wait(20).screenshot(str(png))
    result = run(EmulatorOptions(), script)
    assert result.ok, result.log
    assert result.screenshots == (png,)
    screen = result.screens[0]

    lines = screen.text_lines()
    assert len(lines) == 24 and all(len(line) == 40 for line in lines)
    row = next(i for i, line in enumerate(lines) if line.strip() == "HELLO WORLD")
    assert lines[row - 1].strip() == 'PRINT "HELLO WORLD"'
    assert lines[row].startswith("  HELLO WORLD")  # left margin of two columns

    picture = Image.open(png).convert("RGB")
    assert picture.size == (336, 240)
    colours = palette("ntsc")
    registers = screen.registers
    background = colours[registers["COLPF2"]]
    ink = colours[(registers["COLPF2"] & 0xF0) | (registers["COLPF1"] & 0x0E)]
    border = colours[registers["COLBK"]]
    assert picture.getpixel((0, 0)) == border
    # GRAPHICS 0: three blank lines of 8 scanlines, then 24 text rows of 8
    top = 24 + row * 8
    left = 8 + 2 * 8  # border, then the left margin
    for y, bits in enumerate(GLYPH_H):
        for x in range(8):
            expected = ink if bits & (0x80 >> x) else background
            assert picture.getpixel((left + x, top + y)) == expected, (x, y)
    assert FIRST_SCANLINE == 8


def test_screenshot_sees_colour_changes(atari800: str, tmp_path: Path) -> None:
    """SETCOLOR 4 (the border) and 2 (the background) are drawn as set."""
    png = tmp_path / "colour.png"
    script = Script().wait(150).type("SETCOLOR 4,3,4:SETCOLOR 2,12,2\n").wait(10)
    result = run(EmulatorOptions(), script.screenshot(str(png)))
    assert result.ok
    registers = result.screens[0].registers
    assert registers["COLBK"] == 0x34
    assert registers["COLPF2"] == 0xC2
    picture = Image.open(png).convert("RGB")
    assert picture.getpixel((0, 120)) == palette("ntsc")[0x34]
    assert picture.getpixel((200, 200)) == palette("ntsc")[0xC2]


def test_graphics_2_text(atari800: str, tmp_path: Path) -> None:
    script = Script().wait(150).type('GRAPHICS 2:PRINT #6;"BIG"\n').wait(20)
    result = run(EmulatorOptions(), script.screenshot(str(tmp_path / "g2.png")))
    assert result.ok
    lines = result.screens[0].text_lines()
    assert lines[0].startswith("BIG")
    assert len(lines[0]) == 20


def test_example_script_and_identical_screenshots(
    atari800: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """emu_scripts/hello-h.txt runs as documented, and twice gives the same PNG bytes."""
    example = Path(__file__).parents[3] / "emu_scripts" / "hello-h.txt"
    pictures = []
    for attempt in ("a", "b"):
        folder = tmp_path / attempt
        (folder / "h").mkdir(parents=True)
        monkeypatch.chdir(folder)
        result = run(EmulatorOptions(hdir=folder / "h"), Script.load(example))
        assert result.ok
        assert (folder / "h" / "HELLO.TXT").read_bytes() == b"HELLO FROM THE ATARI\x9b"
        assert any(line.strip() == "DONE" for line in result.screens[0].text_lines())
        pictures.append((folder / "hello.png").read_bytes())
    assert pictures[0] == pictures[1]


def test_a_character_set_in_ram_is_the_one_drawn(atari800: str, tmp_path: Path) -> None:
    """The glyphs come from where CHBAS points in the machine, not from a built-in font:
    a character set in RAM whose every row is 01010101 makes every cell striped."""
    png = tmp_path / "charset.png"
    fill = "FOR I=0 TO 1023:POKE 32768+I,85:NEXT I:POKE 756,128\n"
    result = run(EmulatorOptions(), Script().wait(150).type(fill).wait(300).screenshot(str(png)))
    assert result.ok
    screen = result.screens[0]
    assert screen.registers["CHBASE"] == 0x80
    picture = Image.open(png).convert("RGB")
    colours = palette("ntsc")
    background = colours[screen.registers["COLPF2"]]
    ink = colours[(screen.registers["COLPF2"] & 0xF0) | (screen.registers["COLPF1"] & 0x0E)]
    for top in (24, 24 + 8 * 12, 24 + 8 * 23):  # first, middle and last text rows
        for x in range(8 + 8 * 39, 8 + 8 * 40):  # the last column: a blank cell
            expected = ink if x % 2 else background
            assert picture.getpixel((x, top + 3)) == expected, (x, top)
