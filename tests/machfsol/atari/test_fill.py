"""The set-up's fill routine (fill.s) in a simulator (py65), and where the game points it.

BASIC's side of ``X=USR(F,A,L,D)`` is played as the Atari BASIC rev. C source describes
USR (see test_shuffle.py): the arguments on the 6502 stack, the first on top, each high
byte then low byte, the count last; the string's address in FR0; the result in FR0.
The routine must copy L bytes from A-D to A forward, one at a time (so that an
overlapping copy repeats the D bytes before A), touch nothing else but its registers
and the stack, and return with the stack as BASIC left it. Then the source: the
addresses it gives the routine are those of the arrays its DIM lays out.

The emulator tests (``machfsol verify``, every deck size) show the tables in the real
machine.
"""

from __future__ import annotations

import re

import pytest
from py65.devices.mpu6502 import MPU

from machfsol.atari import fill, shuffle
from machfsol.atari.basic_game import generate, read_source
from tests.ram6502 import RecordingRam

FR0 = 0xD4
ROUTINE_ZERO_PAGE = range(0xD4, 0xDA)
STACK = range(0x0100, 0x0200)
SENTINEL = 0xFFF0
PATTERN = 0xA5
CODE_AT = 0x3456


def run_fill(start: int, length: int, distance: int, before: bytes) -> tuple[RecordingRam, MPU]:
    """USR(F, start, length, distance) with ``before`` in the bytes below ``start``."""
    memory = RecordingRam(PATTERN)
    memory.poke(CODE_AT, fill.code())
    memory.poke(start - len(before), before)
    mpu = MPU(memory=memory)
    mpu.sp = 0xF0
    memory.poke(FR0, CODE_AT.to_bytes(2, "little"))
    pushed = [(SENTINEL - 1) >> 8, (SENTINEL - 1) & 0xFF]
    for argument in reversed((start, length, distance)):
        pushed += [argument & 0xFF, argument >> 8]
    pushed.append(3)
    for value in pushed:
        memory.poke(0x0100 + mpu.sp, [value])
        mpu.sp -= 1
    mpu.pc = CODE_AT
    for _ in range(100_000):
        if mpu.pc == SENTINEL:
            return memory, mpu
        mpu.step()
    raise AssertionError(f"USR(F, {start:#x}, {length}, {distance}) did not return")


@pytest.mark.parametrize(
    ("start", "length", "distance"),
    [
        (0x2806, 630, 6),  # FF(1..51) and WT(0..53) from FF(0): crosses pages
        (0x28FE, 312, 6),  # starts 2 bytes below a page boundary
        (0x2A00, 6 * 39, 6 * 13),  # RK: 13 ranks repeated over three more suits
        (0x2BFA, 6 * 51, 6),  # SU of one suit
        (0x2C00, 6, 6),  # one element
        (0x2D00, 0, 6),  # nothing to do
        (0x2E00, 1000, 250),
    ],
)
def test_it_repeats_the_bytes_below_a_over_l_bytes(start: int, length: int, distance: int) -> None:
    before = bytes((7 * place + 3) % 256 for place in range(distance))
    memory, mpu = run_fill(start, length, distance, before)
    after = [memory.peek(start + place) for place in range(length)]
    assert after == [before[place % distance] for place in range(length)]
    source = range(start - distance, start - distance + length)
    code = range(CODE_AT, CODE_AT + len(fill.code()))
    allowed_writes = {*range(start, start + length), *ROUTINE_ZERO_PAGE, *STACK}
    assert memory.writes <= allowed_writes, sorted(memory.writes - allowed_writes)[:5]
    assert memory.reads <= allowed_writes | set(source) | set(code)
    assert mpu.sp == 0xF0  # the stack as BASIC left it


def test_the_string_holds_no_quote_end_of_line_or_editor_control() -> None:
    assert not shuffle.FORBIDDEN & set(fill.code())
    listing = generate(2)
    assert '"' + "".join(f"{{${byte:02X}}}" for byte in fill.code()) + '"' in listing


def test_the_addresses_the_source_gives_are_its_dim_s() -> None:
    """FF, WT, PT, SU and RK follow A$(1) in the DIM, in this order; the offsets of the
    source's calls (element 1 of FF, PT(0), PT(1), SU(1) and RK(0) from FF(0)) are theirs."""
    text = read_source().text
    dim = re.search(r"^10020 DIM A\$\(1\),((?:\w+\(\d+\),?)+)", text, re.MULTILINE)
    assert dim is not None
    arrays = re.findall(r"(\w+)\((\d+)\)", dim.group(1))
    offsets: dict[str, int] = {}
    at = 0
    for name, last in arrays:
        offsets[name] = at
        at += 6 * (int(last) + 1)
    assert [name for name, _ in arrays[:5]] == ["FF", "WT", "PT", "SU", "RK"]
    ff_and_wt = offsets["PT"] // 6  # FF and WT are set as one run of numbers
    assert f"FF(0)=0:X=USR(L,BA+6,{6 * (ff_and_wt - 1)},6)" in text
    assert f"PT(0)=-1:X=USR(L,BA+{offsets['PT'] + 6},{offsets['SU'] - offsets['PT'] - 6},6)" in text
    assert f"SU(J)=I:X=USR(L,BA+{offsets['SU'] + 6}+6*J,6*NR1,6)" in text
    assert f"X=USR(L,BA+{offsets['RK']}+6*NR,18*NR,6*NR)" in text


def test_variant_1_fills_its_king_pile_table_s_constant_columns() -> None:
    """FB and TB of MACHFSOL.1 hold 52 and 53 for every card: filled from FB(0), TB(0)."""
    text = read_source().text
    dim = re.search(r"^10020 DIM A\$\(1\),((?:\w+\(\d+\),?)+)", text, re.MULTILINE)
    assert dim is not None
    arrays = re.findall(r"(\w+)\((\d+)\)", dim.group(1))
    assert [name for name, _ in arrays[:7]] == ["FF", "WT", "PT", "SU", "RK", "FB", "TB"]
    fb = 6 * sum(int(last) + 1 for _, last in arrays[:5])
    tb = fb + 6 * (int(arrays[5][1]) + 1)
    line = f"FB(0)=52:X=USR(L,BA+{fb + 6},{6 * int(arrays[5][1])},6):TB(0)=53:X=USR(L,BA+{tb + 6},"
    assert line in generate(1) and line not in generate(2)
