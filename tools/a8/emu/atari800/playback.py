"""atari800's ``-playback`` input stream, cut into blocks the emulator reads whole.

The format (atari800 ``src/input.c``): a header line, one line with the seed of
POKEY's random generator, then eight lines per frame: ``KEY SHIFT CONSOL``, the
two joystick ports, the four triggers, and a hexadecimal checksum of the screen.
Each line is read with zlib's ``gzgets`` into a 256-byte buffer and parsed with
``sscanf``, so a line may carry blanks before and after its numbers.

Why blocks: atari800 reads the stream through zlib, which fills its whole buffer
before handing out a single line: 8,192 bytes on the first read (the header
included), 16,384 bytes on every later one (zlib's default ``gzbuffer`` size and
twice that for plain, uncompressed input). Fed through a pipe, the emulator
therefore runs exactly the frames of every complete block and then waits for
the next one. :class:`BlockWriter` pads the lines of a block's frames with blanks
so that each block ends exactly on that boundary: the runner decides the content
of block *n + 1* after seeing what the program did during block *n*.

The checksum atari800 compares is the Adler-32 of the rendered screen, which a
script cannot know in advance; every frame after the first "does not match",
which atari800 only logs (see :mod:`a8.emu.atari800` for the exit status).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from a8.emu.keys import IDLE, Frame

HEADER = b"Atari800 event recording, version: 1\n"
#: POKEY's random generator starts from this scanline counter: fixed, so runs repeat.
RANDOM_SEED_LINE = b"0\n"

#: Bytes of the first block (zlib's input buffer) and of every later one (its output).
FIRST_BLOCK_SIZE = 8192
BLOCK_SIZE = 16384
#: gzgets keeps at most 255 bytes of a line, its newline included.
MAX_LINE_SIZE = 255
LINES_PER_FRAME = 8
#: Every block after the first starts with this byte (a blank before the key line):
#: writing it early lets the runner see when the previous block has been used up.
BLOCK_LEAD_BYTE = b" "


def frame_lines(frame: Frame) -> list[bytes]:
    """The eight unpadded lines of one frame, each ending in a newline."""
    return [
        f"{frame.key} {int(frame.shift)} {frame.console}\n".encode("ascii"),
        b"255\n",  # joystick port 0: nothing pushed
        b"255\n",  # joystick port 1
        b"1\n",  # four triggers: not pressed
        b"1\n",
        b"1\n",
        b"1\n",
        b"00000000\n",  # screen checksum: unknown in advance
    ]


class BlockSizeError(ValueError):
    """The frames given cannot fill a block exactly (too few or too many)."""


def frame_limits(block_size: int = BLOCK_SIZE, fixed: int = 0) -> tuple[int, int]:
    """Fewest and most frames that fit a block of ``block_size`` bytes.

    ``fixed`` bytes of the block are taken by something else (the header).
    Idle frames are the shortest, so the bounds hold for any frames.
    """
    space = block_size - fixed
    shortest = sum(len(line) for line in frame_lines(IDLE))
    longest = LINES_PER_FRAME * MAX_LINE_SIZE
    return -(-space // longest), space // shortest


def pack_block(
    frames: Sequence[Frame], block_size: int, prefix: bytes = b"", lead: bytes = b""
) -> bytes:
    """``prefix`` plus the frames, padded with blanks to exactly ``block_size`` bytes.

    ``prefix`` is whole lines (the header); ``lead`` is put before the first
    frame's first line, within that line. Blanks go before each line's newline,
    filling lines from the first one, so the same frames always give the same bytes.
    """
    lines = [line for frame in frames for line in frame_lines(frame)]
    if not lines:
        raise BlockSizeError("a block needs at least one frame")
    lines[0] = lead + lines[0]
    used = len(prefix) + sum(len(line) for line in lines)
    missing = block_size - used
    room = sum(MAX_LINE_SIZE - len(line) for line in lines)
    if missing < 0 or missing > room:
        raise BlockSizeError(
            f"{len(frames)} frames take {used} bytes, {room} more at most: "
            f"cannot fill a block of {block_size}"
        )
    padded: list[bytes] = []
    for line in lines:
        extra = min(missing, MAX_LINE_SIZE - len(line))
        missing -= extra
        padded.append(line[:-1] + b" " * extra + b"\n")
    return prefix + b"".join(padded)


def split_into_blocks(frame_count: int, low: int, high: int) -> list[int]:
    """Sizes (in frames) of consecutive blocks holding exactly ``frame_count`` frames.

    Every size lies in ``low..high``; ``frame_count`` must be at least ``low``.
    Blocks are as large as possible: fewer blocks means fewer pauses.
    """
    if frame_count < low:
        raise BlockSizeError(f"{frame_count} frames cannot fill a block of {low} or more")
    sizes: list[int] = []
    left = frame_count
    while left > high:
        take = high if left - high >= low else left - low
        sizes.append(take)
        left -= take
    sizes.append(left)
    return sizes


class BlockWriter:
    """Turns runs of frames into the exact bytes of successive playback blocks."""

    def __init__(self) -> None:
        self._blocks_written = 0

    @property
    def first(self) -> bool:
        return self._blocks_written == 0

    def limits(self) -> tuple[int, int]:
        """Fewest and most frames the next block may hold."""
        if self.first:
            return frame_limits(FIRST_BLOCK_SIZE, len(HEADER) + len(RANDOM_SEED_LINE))
        return frame_limits(BLOCK_SIZE, len(BLOCK_LEAD_BYTE))

    def block(self, frames: Sequence[Frame]) -> bytes:
        """The next block, holding exactly ``frames``.

        Blocks after the first start with :data:`BLOCK_LEAD_BYTE`; the caller may
        have sent that byte ahead already and then skips it.
        """
        if self.first:
            data = pack_block(frames, FIRST_BLOCK_SIZE, HEADER + RANDOM_SEED_LINE)
        else:
            data = pack_block(frames, BLOCK_SIZE, lead=BLOCK_LEAD_BYTE)
        self._blocks_written += 1
        return data


def unpadded_stream(frames: Iterable[Frame]) -> bytes:
    """A whole playback file for ``frames`` (no blocks: for a plain ``-playback`` file)."""
    return HEADER + RANDOM_SEED_LINE + b"".join(b"".join(frame_lines(frame)) for frame in frames)
