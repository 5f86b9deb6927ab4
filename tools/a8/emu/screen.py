"""The Atari screen rebuilt from a snapshot of memory and the video chips' registers.

ANTIC draws the picture by following a display list in memory: each
instruction is a mode line (text or bitmap) that reads its bytes from screen
memory, a run of blank lines, or a jump. :class:`ScreenSnapshot` holds the 64 KB
the CPU sees (RAM and ROM, so the character set in ROM too) together with the
ANTIC and GTIA register values the emulator's monitor printed at the same
moment, and from them draws the picture the way ANTIC and GTIA would.

The picture is 336 x 240 pixels, the area atari800 itself shows and saves as a
screenshot: 8 pixels of border either side of the normal 320-pixel playfield,
scanlines 8 to 247. One pixel is one high-resolution pixel (half a colour clock).

Drawn: blank lines, text modes 2 to 7 (``GRAPHICS 0`` to ``2`` and the
multicolour text modes) with the machine's own character set from CHBASE,
inverse and blank-inverse (CHACTL), bitmap modes 8 to 15, narrow/normal/wide
playfields, LMS and jumps. Not drawn: player/missile graphics, display list
interrupts (colour changes part-way down the screen), fine scrolling, GTIA's
special modes (PRIOR bits 6-7) and artefact colours; a screen using those shows
the playfield as it would be without them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from PIL import Image

from a8.basic.atascii import SPELLING
from a8.emu.palette import palette
from a8.errors import A8Error

WIDTH: Final = 336
HEIGHT: Final = 240
#: Scanline of the first picture row, and the x of the normal playfield's left edge.
FIRST_SCANLINE: Final = 8
_NORMAL_LEFT: Final = 8
#: Left edge and bytes-per-line factor of narrow, normal and wide playfields.
_PLAYFIELDS: Final = {1: (40, 32 / 40), 2: (_NORMAL_LEFT, 1.0), 3: (_NORMAL_LEFT - 32, 48 / 40)}


class SnapshotError(A8Error):
    """A memory snapshot or register listing that cannot describe a screen."""


@dataclass(frozen=True)
class _Mode:
    """How an ANTIC mode line is laid out (normal playfield width)."""

    bytes_per_line: int
    scanlines: int
    #: Text modes take characters from the character set.
    text: bool
    #: Bits per pixel of bitmap modes (text modes: bits per glyph pixel).
    bits: int
    #: Width of one pixel (bitmap) or glyph pixel (text) in high-resolution pixels.
    pixel_width: int


MODES: Final[Mapping[int, _Mode]] = {
    2: _Mode(40, 8, True, 1, 1),
    3: _Mode(40, 10, True, 1, 1),
    4: _Mode(40, 8, True, 2, 2),
    5: _Mode(40, 16, True, 2, 2),
    6: _Mode(20, 8, True, 1, 2),
    7: _Mode(20, 16, True, 1, 2),
    8: _Mode(10, 8, False, 2, 8),
    9: _Mode(10, 4, False, 1, 4),
    10: _Mode(20, 4, False, 2, 4),
    11: _Mode(20, 2, False, 1, 2),
    12: _Mode(20, 1, False, 1, 2),
    13: _Mode(40, 2, False, 2, 2),
    14: _Mode(40, 1, False, 2, 2),
    15: _Mode(40, 1, False, 1, 1),
}


@dataclass(frozen=True)
class ModeLine:
    """One mode line of the display list: where it is drawn and what it reads."""

    mode: int
    first_scanline: int
    address: int


@dataclass(frozen=True)
class ScreenSnapshot:
    """Memory and video registers at one moment (see the module docstring)."""

    memory: bytes
    #: ANTIC and GTIA registers by name (DMACTL, CHACTL, DLISTL, DLISTH, CHBASE,
    #: COLPF0-3, COLBK, PRIOR), as the monitor's ANTIC and GTIA commands list them.
    registers: Mapping[str, int]
    tv: Literal["ntsc", "pal"] = "ntsc"

    def __post_init__(self) -> None:
        if len(self.memory) != 0x10000:
            raise SnapshotError(f"memory snapshot is {len(self.memory)} bytes, not 65536")
        missing = [name for name in _NEEDED_REGISTERS if name not in self.registers]
        if missing:
            raise SnapshotError(f"register listing lacks {', '.join(missing)}")

    def word(self, address: int) -> int:
        return self.memory[address] | self.memory[(address + 1) & 0xFFFF] << 8

    @property
    def display_list(self) -> int:
        return self.registers["DLISTL"] | self.registers["DLISTH"] << 8

    def mode_lines(self) -> list[ModeLine]:
        """The mode lines ANTIC shows in one frame, top to bottom."""
        if not self.registers["DMACTL"] & 0x20:  # display list DMA off: a blank screen
            return []
        lines: list[ModeLine] = []
        pc = self.display_list
        scanline = FIRST_SCANLINE
        address = 0
        width_factor = _PLAYFIELDS.get(self.registers["DMACTL"] & 3, (0, 0.0))[1]
        steps = 0
        while scanline < FIRST_SCANLINE + HEIGHT and steps < 512:
            steps += 1
            instruction = self.memory[pc]
            pc = _next_in_kilobyte(pc, 1)
            mode = instruction & 0x0F
            if mode == 0:
                scanline += ((instruction >> 4) & 7) + 1
                continue
            if mode == 1:
                target = self.word(pc)
                if instruction & 0x40:  # jump and wait for vertical blank: frame ends
                    break
                pc = target
                continue
            if instruction & 0x40:  # load memory scan address
                address = self.word(pc)
                pc = _next_in_kilobyte(pc, 2)
            layout = MODES[mode]
            lines.append(ModeLine(mode, scanline, address))
            scanline += layout.scanlines
            step = round(layout.bytes_per_line * width_factor)
            address = (address & 0xF000) | ((address + step) & 0x0FFF)
        return lines

    def text_lines(self) -> list[str]:
        """The characters of each text mode line (modes 2-7), spelt like ATASCII text.

        Inverse characters read as their normal twins; in ``GRAPHICS 1`` and
        ``2`` lines the colour bits are dropped.
        """
        texts: list[str] = []
        for line in self.mode_lines():
            layout = MODES[line.mode]
            if not layout.text:
                continue
            count = round(layout.bytes_per_line * self._width_factor())
            codes = self._line_bytes(line.address, count)
            wide = line.mode in (6, 7)
            texts.append("".join(_spell(code & (0x3F if wide else 0x7F)) for code in codes))
        return texts

    def _line_bytes(self, address: int, count: int) -> list[int]:
        """Bytes read by ANTIC's memory scan counter, which wraps within 4 KB."""
        return [self.memory[(address & 0xF000) | ((address + i) & 0x0FFF)] for i in range(count)]

    def _width_factor(self) -> float:
        return _PLAYFIELDS.get(self.registers["DMACTL"] & 3, (0, 0.0))[1]

    def image(self, scale: int = 1) -> Image.Image:
        """The picture as an RGB image (``scale`` repeats each pixel)."""
        colours = palette(self.tv)
        background = self.registers["COLBK"]
        pixels = bytearray([background]) * (WIDTH * HEIGHT)
        playfield = _PLAYFIELDS.get(self.registers["DMACTL"] & 3)
        if playfield is not None:
            for line in self.mode_lines():
                for row, values in self._draw(line, playfield):
                    y = line.first_scanline - FIRST_SCANLINE + row
                    if 0 <= y < HEIGHT:
                        left, start = max(0, playfield[0]), max(0, -playfield[0])
                        chunk = values[start : start + WIDTH - left]
                        pixels[y * WIDTH + left : y * WIDTH + left + len(chunk)] = chunk
        picture = Image.frombytes("P", (WIDTH, HEIGHT), bytes(pixels))
        picture.putpalette([channel for colour in colours for channel in colour])
        picture = picture.convert("RGB")
        if scale != 1:
            picture = picture.resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
        return picture

    def _draw(self, line: ModeLine, playfield: tuple[int, float]) -> Iterator[tuple[int, bytes]]:
        """Colour register values of each scanline of a mode line."""
        layout = MODES[line.mode]
        count = round(layout.bytes_per_line * playfield[1])
        data = self._line_bytes(line.address, count)
        for row in range(layout.scanlines):
            if layout.text:
                values = self._text_row(line.mode, data, row)
            else:
                values = self._bitmap_row(line.mode, data)
            yield row, bytes(values)

    def _colour(self, name: str) -> int:
        return self.registers[name] & 0xFE

    def _hires_colours(self) -> tuple[int, int]:
        """Off and on colours of high-resolution pixels: PF2, and PF2's hue at PF1's luminance."""
        off = self._colour("COLPF2")
        return off, (off & 0xF0) | (self._colour("COLPF1") & 0x0E)

    def _text_row(self, mode: int, data: list[int], row: int) -> list[int]:
        chactl = self.registers["CHACTL"]
        values: list[int] = []
        if mode in (2, 3):
            off, on = self._hires_colours()
            base = (self.registers["CHBASE"] & 0xFC) << 8
            for code in data:
                bits = self._glyph_row(base, code & 0x7F, row, mode)
                if code & 0x80:
                    if chactl & 0x02:
                        bits ^= 0xFF
                    if chactl & 0x01:
                        bits = 0
                values += [on if bits & (0x80 >> x) else off for x in range(8)]
        elif mode in (4, 5):
            base = (self.registers["CHBASE"] & 0xFC) << 8
            glyph_row = row if mode == 4 else row // 2
            for code in data:
                bits = self._glyph_row(base, code & 0x7F, glyph_row, mode)
                third = "COLPF3" if code & 0x80 else "COLPF2"
                names = ("COLBK", "COLPF0", "COLPF1", third)
                for x in range(4):
                    colour = self._colour(names[(bits >> (6 - 2 * x)) & 3])
                    values += [colour, colour]
        else:  # modes 6 and 7: 64 characters, colour from the top two bits
            base = (self.registers["CHBASE"] & 0xFE) << 8
            glyph_row = row if mode == 6 else row // 2
            for code in data:
                bits = self._glyph_row(base, code & 0x3F, glyph_row, mode)
                on = self._colour(("COLPF0", "COLPF1", "COLPF2", "COLPF3")[code >> 6])
                off = self._colour("COLBK")
                for x in range(8):
                    colour = on if bits & (0x80 >> x) else off
                    values += [colour, colour]
        return values

    def _glyph_row(self, base: int, char: int, row: int, mode: int) -> int:
        chactl = self.registers["CHACTL"]
        if mode == 3:  # ten scanlines: descender characters are drawn two lines lower
            if char >= 0x60:
                row = (row - 2) % 10
            if row >= 8:
                return 0
        if chactl & 0x04:  # vertical reflection
            row = 7 - row
        return self.memory[(base + char * 8 + row) & 0xFFFF]

    def _bitmap_row(self, mode: int, data: list[int]) -> list[int]:
        layout = MODES[mode]
        values: list[int] = []
        if layout.bits == 1:
            if mode == 15:
                off, on = self._hires_colours()
            else:
                off, on = self._colour("COLBK"), self._colour("COLPF0")
            for byte in data:
                for x in range(8):
                    values += [on if byte & (0x80 >> x) else off] * layout.pixel_width
        else:
            names = ("COLBK", "COLPF0", "COLPF1", "COLPF2")
            for byte in data:
                for x in range(4):
                    colour = self._colour(names[(byte >> (6 - 2 * x)) & 3])
                    values += [colour] * layout.pixel_width
        return values


_NEEDED_REGISTERS: Final = (
    "DMACTL",
    "CHACTL",
    "DLISTL",
    "DLISTH",
    "CHBASE",
    "COLPF0",
    "COLPF1",
    "COLPF2",
    "COLPF3",
    "COLBK",
)


def _next_in_kilobyte(address: int, step: int) -> int:
    """ANTIC's display list counter only counts within its 1 KB block."""
    return (address & 0xFC00) | ((address + step) & 0x03FF)


def _spell(internal: int) -> str:
    """The ATASCII spelling of a screen (internal) character code."""
    if internal < 0x40:
        code = internal + 0x20
    elif internal < 0x60:
        code = internal - 0x40
    else:
        code = internal
    return SPELLING[code]


_REGISTER = re.compile(r"\b([A-Z][A-Z0-9]*)=\s*([0-9A-F]{2})\b")


def parse_registers(listing: str) -> dict[str, int]:
    """Register values from the monitor's ANTIC/GTIA listings (``NAME=XX`` pairs).

    A name listed twice keeps its last value.
    """
    return {name: int(value, 16) for name, value in _REGISTER.findall(listing)}
