"""The set-up's series writer (series.s) in a simulator (py65), and where the game points it.

``X=USR(Q,A,N,V,D,K)`` must write N items from A, K bytes apart, the values V, V+D,
V+2D ...: with K = 6 each exactly as Atari BASIC keeps that whole number (the
project's own BCD model, a8.basic.bcd, is the oracle), with another K one byte; touch
nothing else but FR0 and the four bytes after it, and leave the stack as BASIC did.
The emulator's verification (every deck size) shows the tables in the real machine.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from a8.basic.bcd import parse
from machfsol.atari import series
from machfsol.atari.basic_game import generate, read_source
from machfsol.atari.shuffle import FORBIDDEN
from tests.ram6502 import RecordingRam, call_usr

CODE_AT = 0x3456
SCRATCH = set(range(0xD4, 0xDE))
STACK = set(range(0x0100, 0x0200))
PATTERN = 0xA5


def run_series(start: int, count: int, first: int, step: int, size: int) -> RecordingRam:
    memory = RecordingRam(PATTERN)
    memory.poke(CODE_AT, list(series.code()))
    call_usr(memory, CODE_AT, [start, count, first, step, size])
    return memory


@settings(deadline=None)  # a 6502 simulator: a few hundred ms on a busy machine
@given(
    count=st.integers(0, 60),
    first=st.integers(0, 99),
    step=st.integers(0, 3),
    start=st.integers(0x4000, 0x7000),  # above the code at CODE_AT
)
def test_numbers_are_basic_s_own(count: int, first: int, step: int, start: int) -> None:
    count = min(count, (99 - first) // step + 1) if step else count
    memory = run_series(start, count, first, step, series.NUMBER_SIZE)
    written = bytes(memory.peek(start + i) for i in range(6 * count))
    assert written == b"".join(parse(str(first + i * step)) for i in range(count))
    assert memory.writes <= set(range(start, start + 6 * count)) | SCRATCH | STACK
    assert memory.peek(start + 6 * count) == PATTERN  # nothing after the last


@settings(deadline=None)
@given(
    count=st.integers(0, 52),
    value=st.integers(0, 255),
    step=st.integers(0, 255),
    size=st.sampled_from([1, 2, 3, 7]),
)
def test_bytes_every_k_bytes(count: int, value: int, step: int, size: int) -> None:
    start = 0x4000
    memory = run_series(start, count, value, step, size)
    for place in range(count * size):
        expected = (value + step * (place // size)) % 256 if place % size == 0 else PATTERN
        assert memory.peek(start + place) == expected
    written = {start + size * i for i in range(count)}
    assert memory.writes <= written | SCRATCH | STACK


def test_every_value_from_0_to_99() -> None:
    memory = run_series(0x3000, 100, 0, 1, 6)
    assert bytes(memory.peek(0x3000 + i) for i in range(600)) == b"".join(
        parse(str(v)) for v in range(100)
    )


def test_the_string_holds_no_quote_end_of_line_or_editor_control() -> None:
    assert not FORBIDDEN & set(series.code())
    assert '"' + "".join(f"{{${byte:02X}}}" for byte in series.code()) + '"' in generate(2)


def test_the_addresses_the_source_gives_are_its_dim_s() -> None:
    """The offsets from BA (element 0 of FF, 11040) of the source's calls are those of
    RK, FA, FB, TA(1) and TB in the DIM of 10020."""
    text = read_source().text
    dim = re.search(r"^10020 DIM A\$\(1\),((?:\w+\(\d+\),?)+)", text, re.MULTILINE)
    assert dim is not None
    offsets: dict[str, int] = {}
    at = 0
    for name, last in re.findall(r"(\w+)\((\d+)\)", dim.group(1)):
        offsets[name] = at
        at += 6 * (int(last) + 1)
    calls = {int(c) for c in re.findall(r"USR\(Q,BA\+(\d+),", text)}
    assert calls == {offsets["RK"], offsets["FA"], offsets["TA"] + 6}  # MACHFSOL.1's
    base = re.search(r"Y=BA\+6\*J\+(\d+)", text)  # MACHFSOL.2's: suit S's FB(J)
    assert base is not None and int(base.group(1)) == offsets["FB"]
    fb = offsets["FB"]
    from_y = {0, *(int(c) for c in re.findall(r"USR\(Q,Y\+(\d+),", text))}
    assert from_y == {0, offsets["TB"] - fb, offsets["FA"] - fb, offsets["TA"] + 6 - fb}
