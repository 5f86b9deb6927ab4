"""The 256 colours of the Atari's GTIA as RGB, for drawing screenshots.

A colour register holds a hue (high nibble) and a luminance (low nibble, even
values). Hue 0 is grey; hues 1 to 15 go round the colour wheel from gold through
red, purple, blue, cyan and green back to orange. The TV turns luminance and the
phase of the colour signal into a picture; this module does the same with the
YIQ (NTSC) or YUV (PAL) equations and a display gamma.

These are our own computed palettes, close to what atari800 shows with its
default settings but not its exact values (atari800 offers no way to read them
back). Screenshots therefore have the machine's colours as a TV would show
them, not a pixel-exact copy of the emulator's window.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final, Literal

RGB = tuple[int, int, int]

#: Phase of hue 1 and the step between hues, in degrees on the colour wheel.
_FIRST_HUE_ANGLE: Final = {"ntsc": -15.0, "pal": -25.0}
_HUE_STEP: Final = {"ntsc": 24.0, "pal": 22.5}
_SATURATION: Final = 0.24
_BLACK_LEVEL: Final = 0.04
_GAMMA: Final = 1.1


def _clamp(value: float) -> int:
    level: float = max(0.0, min(1.0, value)) ** (1 / _GAMMA)
    return max(0, min(255, round(255 * level)))


@cache
def palette(tv: Literal["ntsc", "pal"] = "ntsc") -> tuple[RGB, ...]:
    """RGB for each of the 256 register values (odd values = the even one below)."""
    colours: list[RGB] = []
    for value in range(256):
        hue, luminance = value >> 4, (value & 0x0F) >> 1
        y = _BLACK_LEVEL + (1 - _BLACK_LEVEL) * luminance / 7
        if hue == 0:
            i = q = 0.0
        else:
            angle = math.radians(_FIRST_HUE_ANGLE[tv] + (hue - 1) * _HUE_STEP[tv])
            i, q = _SATURATION * math.cos(angle), _SATURATION * math.sin(angle)
        red = y + 0.956 * i + 0.621 * q
        green = y - 0.272 * i - 0.647 * q
        blue = y - 1.106 * i + 1.703 * q
        colours.append((_clamp(red), _clamp(green), _clamp(blue)))
    return tuple(colours)
