"""LZ, the byte-oriented compression of packed programs (:mod:`a8.disk.packed`).

A serial disk drive gives an Atari some 2.2 KB a second, so a program that loads
from the boot menu starts sooner when fewer sectors carry it, and a 6502 can undo a
simple compression faster than the drive could have sent the bytes saved. The format
is chosen for the unpacker (``packed.s``): every token starts on a byte, the output is
its own dictionary (a copy reads bytes already unpacked, at any distance), and the
tokens are:

=========  ===============================================================
token      meaning
=========  ===============================================================
0x00-0x7F  the next ``token + 1`` bytes of the stream are output as they are
0x80-0xBF  copy ``(token & 0x3F) + 2`` bytes from ``d + 1`` bytes back; ``d``
           is the next byte
0xC0-0xFF  copy ``(token & 0x3F) + 3`` bytes from ``d + 1`` bytes back; ``d``
           is the next two bytes, low first
=========  ===============================================================

A stream is the output's length (two bytes, low first) and tokens until the output
is that long. A copy may overlap what it writes (a distance of 1 repeats a byte).
:func:`pack` chooses the tokens that make the shortest stream (a shortest path over
the positions), so the same input always packs to the same bytes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from a8.errors import A8Error

#: The longest run of bytes as they are, and the longest copies.
MAX_LITERALS = 128
NEAR_LENGTHS = range(2, 0x3F + 3)
FAR_LENGTHS = range(3, 0x3F + 4)
NEAR_DISTANCE = 256
FAR_DISTANCE = 65536
MAX_SIZE = 0xFFFF
#: How many earlier places with the same first three bytes are tried for a copy:
#: more find little in BASIC programs and take longer.
_CANDIDATES = 512


class PackError(A8Error):
    """A stream that does not unpack: cut short, or a copy from before its start."""


@dataclass(frozen=True)
class _Copy:
    length: int
    distance: int


def pack(data: bytes) -> bytes:
    """The shortest stream of ``data`` in the format above."""
    if len(data) > MAX_SIZE:
        raise PackError(f"{len(data)} bytes: a packed stream holds at most {MAX_SIZE}")
    size = len(data)
    near, far = _longest_copies(data)
    # cost[i]: the bytes of the shortest stream for data[i:]; step[i]: its first token
    cost = [0] * (size + 1)
    step: list[int | _Copy] = [0] * (size + 1)
    # the cheapest literal run from i is min over k of 1 + k + cost[i + k]:
    # a window minimum of (j + cost[j]) over j in i+1 .. i+MAX_LITERALS
    window: deque[int] = deque()
    for i in range(size - 1, -1, -1):
        j = i + 1
        while window and window[-1] + cost[window[-1]] >= j + cost[j]:
            window.pop()
        window.append(j)
        if window[0] > i + MAX_LITERALS:
            window.popleft()
        best_end = window[0]
        best = 1 + best_end - i + cost[best_end]
        choice: int | _Copy = best_end - i
        for lengths, (longest, distance), token_bytes in (
            (NEAR_LENGTHS, near[i], 2),
            (FAR_LENGTHS, far[i], 3),
        ):
            for length in range(lengths.start, min(longest, lengths.stop - 1) + 1):
                total = token_bytes + cost[i + length]
                if total < best:
                    best, choice = total, _Copy(length, distance)
        cost[i] = best
        step[i] = choice
    out = bytearray(size.to_bytes(2, "little"))
    i = 0
    while i < size:
        choice = step[i]
        if isinstance(choice, int):
            out.append(choice - 1)
            out += data[i : i + choice]
            i += choice
        elif choice.distance <= NEAR_DISTANCE and choice.length <= NEAR_LENGTHS.stop - 1:
            out += bytes([0x80 | (choice.length - 2), choice.distance - 1])
            i += choice.length
        else:
            out.append(0xC0 | (choice.length - 3))
            out += (choice.distance - 1).to_bytes(2, "little")
            i += choice.length
    return bytes(out)


def _longest_copies(data: bytes) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """For each place: the longest earlier match within NEAR_DISTANCE, and at any
    distance, as (length, distance); (0, 0) when there is none of two bytes."""
    size = len(data)
    near: list[tuple[int, int]] = []
    far: list[tuple[int, int]] = []
    seen: dict[bytes, list[int]] = {}
    longest_wanted = FAR_LENGTHS.stop - 1
    for i in range(size):
        best_near = best_far = (0, 0)
        key = data[i : i + 2]
        places = seen.setdefault(key, [])
        for j in reversed(places[-_CANDIDATES:]):
            length = _common_length(data, j, i, min(longest_wanted, size - i))
            distance = i - j
            if distance <= NEAR_DISTANCE and length > best_near[0]:
                best_near = (length, distance)
            if length > best_far[0]:
                best_far = (length, distance)
            if best_far[0] == longest_wanted and (
                distance > NEAR_DISTANCE or best_near[0] >= NEAR_LENGTHS.stop - 1
            ):
                break  # nothing longer to find, near or far
        places.append(i)
        near.append(best_near)
        far.append(best_far)
    return near, far


def _common_length(data: bytes, earlier: int, here: int, limit: int) -> int:
    """How many bytes from ``here`` repeat those from ``earlier`` (at most ``limit``)."""
    length = 0
    while length < limit and data[earlier + length] == data[here + length]:
        length += 1
    return length


def unpack(stream: bytes) -> bytes:
    """The bytes ``stream`` holds (what the 6502 unpacker writes)."""
    if len(stream) < 2:
        raise PackError("a packed stream starts with its length: 2 bytes")
    size = int.from_bytes(stream[:2], "little")
    out = bytearray()
    at = 2

    def take(count: int) -> bytes:
        nonlocal at
        if at + count > len(stream):
            raise PackError(f"the stream ends at byte {len(stream)}, inside a token")
        taken = stream[at : at + count]
        at += count
        return taken

    while len(out) < size:
        token = take(1)[0]
        if token < 0x80:
            length, distance = token + 1, 0
        elif token < 0xC0:
            length, distance = (token & 0x3F) + 2, take(1)[0] + 1
        else:
            length, distance = (token & 0x3F) + 3, int.from_bytes(take(2), "little") + 1
        if len(out) + length > size:
            raise PackError(f"byte {at}: a token runs past the {size} bytes of output")
        if distance == 0:
            out += take(length)
            continue
        if distance > len(out):
            raise PackError(f"byte {at}: a copy from {distance} bytes back, before the start")
        for _ in range(length):
            out.append(out[-distance])
    return bytes(out)
