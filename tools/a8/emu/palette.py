"""The 256 colours of the Atari's GTIA as RGB, for drawing screenshots.

A colour register holds a hue (high nibble) and a luminance (low nibble). GTIA
turns the luminance into one of 16 voltage levels and the hue into a phase
delay of the colour subcarrier: hue 0 is grey, each further hue is delayed by a
fixed angle more than the one before, starting from the colour burst's phase at
hue 1. A TV decodes that as YIQ (NTSC) or YUV (PAL), and its tube has a gamma.

NTSC is modelled with the physical figures atari800 uses for its default
palette: GTIA's 16 luma levels from its data sheet, 26.8 degrees between hues,
the colour burst at 303 degrees, chroma amplitude 0.175, video levels 16-235, a
CRT gamma of 2.35 and sRGB output. So NTSC screenshots should have atari800's
own default colours (the emulator offers no way to read its palette back, so
this is by construction, not compared pixel by pixel).

PAL GTIA decodes differently on even and odd lines and a PAL TV averages the
two; that is not modelled here: PAL colours use the same levels with a YUV
decoder and 23.2 degrees between hues, an approximation of the emulator's.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final, Literal

RGB = tuple[int, int, int]

#: GTIA's output level for each luminance value, relative to white (data sheet).
LUMA_LEVELS: Final = (
    0.6941, 0.7091, 0.7241, 0.7401, 0.7560, 0.7741, 0.7931, 0.8121,
    0.8260, 0.8470, 0.8700, 0.8930, 0.9160, 0.9420, 0.9690, 1.0000,
)  # fmt: skip
#: Phase of hue 1 (the colour burst) and the delay between hues, in degrees.
BURST_ANGLE: Final = 303.0
HUE_STEP: Final = {"ntsc": 26.8, "pal": 23.2}
CHROMA: Final = 0.175
#: Video black and white in 8-bit studio levels.
BLACK_LEVEL: Final = 16
WHITE_LEVEL: Final = 235
CRT_GAMMA: Final = 2.35


def _luma(luminance: int) -> float:
    span = LUMA_LEVELS[15] - LUMA_LEVELS[0]
    relative = (LUMA_LEVELS[luminance] - LUMA_LEVELS[0]) / span
    return (BLACK_LEVEL + relative * (WHITE_LEVEL - BLACK_LEVEL)) / 255


def _to_srgb(signal: float) -> int:
    """A gamma-encoded TV signal level as an 8-bit sRGB value."""
    linear = signal**CRT_GAMMA if signal >= 0 else signal / 12.92
    small = linear <= 0.0031308
    encoded = linear * 12.92 if small else 1.055 * linear ** (1 / 2.4) - 0.055
    return max(0, min(255, int(encoded * 255)))


def _ntsc(y: float, angle: float, saturation: float) -> tuple[float, float, float]:
    i, q = saturation * math.cos(angle), saturation * math.sin(angle)
    return (
        y + 0.9563 * i + 0.6210 * q,
        y - 0.2721 * i - 0.6474 * q,
        y - 1.1070 * i + 1.7046 * q,
    )


def _pal(y: float, angle: float, saturation: float) -> tuple[float, float, float]:
    u, v = saturation * math.cos(angle), saturation * math.sin(angle)
    return (y + 1.13983 * v, y - 0.39465 * u - 0.58060 * v, y + 2.03211 * u)


@cache
def palette(tv: Literal["ntsc", "pal"] = "ntsc") -> tuple[RGB, ...]:
    """RGB for each of the 256 register values."""
    decode = _ntsc if tv == "ntsc" else _pal
    colours: list[RGB] = []
    for value in range(256):
        hue, luminance = value >> 4, value & 0x0F
        angle = math.radians(BURST_ANGLE + (hue - 1) * HUE_STEP[tv])
        red, green, blue = decode(_luma(luminance), angle, CHROMA if hue else 0.0)
        colours.append((_to_srgb(red), _to_srgb(green), _to_srgb(blue)))
    return tuple(colours)
