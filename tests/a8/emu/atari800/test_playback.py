"""Playback blocks: exact sizes, line limits, and the frames they carry."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from a8.emu.atari800.playback import (
    BLOCK_LEAD_BYTE,
    BLOCK_SIZE,
    FIRST_BLOCK_SIZE,
    HEADER,
    MAX_LINE_SIZE,
    BlockWriter,
    split_into_blocks,
)
from a8.emu.keys import IDLE, Frame, keystroke_for_char

frames_strategy = st.lists(
    st.builds(
        Frame,
        key=st.sampled_from([-1, -5, 0x0C, 0x3F, 0x5E, 0xBF]),
        shift=st.booleans(),
        console=st.integers(0, 7),
    ),
    min_size=9,
    max_size=254,
)


def parse_frames(lines: list[bytes]) -> list[Frame]:
    """Read frames back the way atari800 does: one number group per line."""
    frames = []
    for start in range(0, len(lines), 8):
        key, shift, console = (int(word) for word in lines[start].split())
        assert [int(line) for line in lines[start + 1 : start + 3]] == [255, 255]
        assert [int(line) for line in lines[start + 3 : start + 7]] == [1, 1, 1, 1]
        assert int(lines[start + 7], 16) == 0
        frames.append(Frame(key, bool(shift), console))
    return frames


@given(frames_strategy)
def test_first_block_is_exact_and_reads_back(frames: list[Frame]) -> None:
    writer = BlockWriter()
    data = writer.block(frames[:200])
    assert len(data) == FIRST_BLOCK_SIZE
    assert data.startswith(HEADER)
    lines = data.splitlines(keepends=True)
    assert all(len(line) <= MAX_LINE_SIZE for line in lines)
    assert parse_frames(lines[2:]) == frames[:200]


@given(frames_strategy)
def test_later_blocks_are_exact_and_start_with_the_lead_byte(frames: list[Frame]) -> None:
    writer = BlockWriter()
    writer.block([IDLE] * 10)
    data = writer.block(frames)
    assert len(data) == BLOCK_SIZE
    assert data.startswith(BLOCK_LEAD_BYTE)
    lines = data.splitlines(keepends=True)
    assert all(len(line) <= MAX_LINE_SIZE for line in lines)
    assert parse_frames(lines) == frames


def test_limits() -> None:
    writer = BlockWriter()
    assert writer.limits() == (4, 254)
    writer.block([IDLE] * 4)
    assert writer.limits() == (9, 511)


def test_blocks_are_deterministic() -> None:
    frames = [Frame.holding(keystroke_for_char("A"))] * 20
    assert BlockWriter().block(frames) == BlockWriter().block(frames)


@given(st.integers(9, 5000))
def test_split_into_blocks(count: int) -> None:
    sizes = split_into_blocks(count, 9, 511)
    assert sum(sizes) == count
    assert all(9 <= size <= 511 for size in sizes)
