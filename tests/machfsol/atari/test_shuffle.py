"""The shuffle's 6502 routine in a simulator (py65), against the engine's generator.

BASIC's side of ``X=USR(ADR("<finder>"))`` and ``X=USR(ADR("<routine>"),N,H,L,X)``
is played here as the Atari BASIC rev. C source describes USR: the arguments pushed on
the 6502 stack (each high byte, then low byte, the first argument on top, the count
last), the string's address in FR0 ($D4), a JMP through it, the result in FR0. The
variable tables and the array area are laid out as BASIC lays them out: the names
(the last character with bit 7 set, a 0 after the last), 8 bytes of value per
variable (an array's: type, number, offset from STARP, dimensions), D(0) at STARP
plus D's offset, six bytes per number. Everything else in memory is left as a
pattern, and every address the code reads or writes can be recorded, so that the
tests can say where it goes: its strings, page 6, BASIC's floating point registers,
the stack, the name table, D's value and D(1..N); nowhere else.

The emulator tests (``machfsol verify``) show the same deals in the real machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from py65.devices.mpu6502 import MPU

from machfsol.atari import shuffle
from machfsol.atari.basic_game import generate
from machfsol.atari.shuffle import routine
from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.deal import MAX_SEED, shuffled_numbers
from tests.ram6502 import Ram, RecordingRam

# BASIC's zero page (Atari BASIC Source Book) and its floating point registers.
VNTP = 0x82
VVTP = 0x86
STARP = 0x8C
FR0 = 0xD4
ROUTINE_ZERO_PAGE = range(0xD4, 0xE2)  # FR0, FRE, FR1: scratch while USR runs
PAGE_6 = range(0x0600, 0x0700)
STACK = range(0x0100, 0x0200)
SENTINEL = 0xFFF0  # where BASIC's USR code would continue after the RTS
PATTERN = 0xA5  # what memory holds before the call
DECIMAL_FLAG = 0x08


#: Names before D( in the test's name table: a scalar D, a string D$, an array DA(,
#: and a pooled constant, so that the finder must tell D( from its look-alikes.
OTHER_NAMES = ["Z1", "X", "D", "D$", "DA(", "SE"]


@dataclass(frozen=True)
class Layout:
    """Where BASIC keeps the program's strings, the variable tables and D."""

    finder: int = 0x2280  # the string constants, inside the statement table
    string: int = 0x2345
    vnt: int = 0x1F00
    vvt: int = 0x2100
    starp: int = 0x2800
    offset: int = 39  # D's offset in the array area (TL$ is dimensioned before it)
    names: tuple[str, ...] = (*OTHER_NAMES, "D(", "W(")

    @property
    def d0(self) -> int:
        return self.starp + self.offset

    @property
    def d_entry(self) -> int:
        return self.vvt + 8 * self.names.index("D(")


@dataclass(frozen=True)
class Call:
    """What the two USR calls did."""

    deal: list[int]
    found: int  # the finder's result
    memory: Ram
    mpu: MPU
    stack_pointer: int


def set_up(layout: Layout, record: bool) -> tuple[Ram, MPU]:
    """The memory as BASIC leaves it when line 7 starts."""
    memory = RecordingRam(PATTERN) if record else Ram(PATTERN)
    mpu = MPU(memory=memory)
    code = routine()
    for start, data in ((layout.finder, code.finder), (layout.string, code.string)):
        for place, value in enumerate(data):
            memory[start + place] = value
    table = b"".join(name[:-1].encode() + bytes([ord(name[-1]) | 0x80]) for name in layout.names)
    for place, value in enumerate(table + b"\0"):
        memory[layout.vnt + place] = value
    for pointer, address in ((VNTP, layout.vnt), (VVTP, layout.vvt), (STARP, layout.starp)):
        memory[pointer], memory[pointer + 1] = address & 0xFF, address >> 8
    for number, name in enumerate(layout.names):
        entry = [0x00, number, 0, 0, 0, 0, 0, 0]  # a scalar 0
        if name.endswith("("):  # an array: dimensioned, its offset in the array area
            offset = layout.offset if name == "D(" else layout.offset + 54 * 6
            entry = [0x41, number, offset & 0xFF, offset >> 8, 54, 0, 0, 0]
        for place, byte in enumerate(entry):
            memory[layout.vvt + 8 * number + place] = byte
    memory.reads.clear()
    memory.writes.clear()
    return memory, mpu


def usr(memory: Ram, mpu: MPU, address: int, *arguments: int) -> int:
    """BASIC's USR(address, arguments...): its pushes, the jump, the result in FR0."""
    memory[FR0], memory[FR0 + 1] = address & 0xFF, address >> 8
    pushed = [(SENTINEL - 1) >> 8, (SENTINEL - 1) & 0xFF]  # JSR's return address
    for argument in reversed(arguments):  # the last argument first: the first ends on top
        pushed += [argument & 0xFF, argument >> 8]
    pushed.append(len(arguments))  # the argument count, pushed last
    for value in pushed:
        memory[0x0100 + mpu.sp] = value
        mpu.sp -= 1
    mpu.pc = address
    for _ in range(200_000):
        if mpu.pc == SENTINEL:
            return int(memory[FR0] + 256 * memory[FR0 + 1])
        mpu.step()
    raise AssertionError(f"USR({address:#06x}, {arguments}) did not return")


def call(seed: int, size: int, layout: Layout = Layout(), *, record: bool = False) -> Call:
    """Run lines 7-8 (``record``: keep the addresses the code reads and writes)."""
    memory, mpu = set_up(layout, record)
    stack_pointer = mpu.sp = 0xF0
    found = usr(memory, mpu, layout.finder)
    usr(memory, mpu, layout.string, size, seed // 65536, seed % 65536, found)
    deal = [number_value(memory, layout.d0 + 6 * position) for position in range(1, size + 1)]
    return Call(deal, found, memory, mpu, stack_pointer)


def number_value(memory: Ram, address: int) -> int:
    """The whole number 0-99 BASIC keeps in the 6 bytes at ``address`` (else a failure)."""
    number = [memory.peek(address + i) for i in range(6)]
    if number == [0] * 6:
        return 0
    assert number[0] == 0x40 and number[2:] == [0] * 4, f"not a BASIC number 1-99: {number}"
    high, low = divmod(number[1], 16)
    assert high < 10 and low < 10, f"not BCD: {number}"
    return 10 * high + low


# ------------------------------------------------------------------ the deals


EDGE_SEEDS = [1, 2, 16807, 65535, 65536, 65537, 127773, 2**24, MAX_SEED - 1, MAX_SEED]


@pytest.mark.parametrize("size", DECK_SIZES)
def test_every_deck_size_deals_as_the_engine_for_the_edge_seeds(size: int) -> None:
    for seed in EDGE_SEEDS:
        assert call(seed, size).deal == shuffled_numbers(seed, size), seed


def test_thousands_of_generator_steps_agree_with_the_engine() -> None:
    """Random seeds: 52 Park-Miller steps each (51 swaps and the step for card 0)."""
    chooser = random.Random(20261201)
    seeds = [chooser.randint(1, MAX_SEED) for _ in range(100)]
    for seed in seeds:
        size = chooser.choice(DECK_SIZES)
        assert call(seed, size).deal == shuffled_numbers(seed, size), (seed, size)
    # 100 deals of 20 to 52 cards: well over 3,000 steps of the generator.


@pytest.mark.parametrize(
    "layout",
    [
        Layout(),
        Layout(starp=0x30F0, offset=0),  # D(1..N) crosses a page boundary at once
        Layout(string=0x7F00, vvt=0x1FF8, starp=0x8000, offset=0x1FA),  # ...and D(0)
        Layout(vnt=0x20F8, vvt=0x21F0, names=("D(",)),  # D is the only variable
        Layout(vnt=0x10FC, vvt=0x1400, names=tuple(f"V{n}" for n in range(100)) + ("D(",)),
    ],
)
def test_d_may_lie_anywhere(layout: Layout) -> None:
    for seed in (1, MAX_SEED):
        result = call(seed, 52, layout)
        assert result.found == layout.d0
        assert result.deal == shuffled_numbers(seed, 52)


# ------------------------------------------------------------------ where it goes


def test_it_touches_only_its_strings_page_6_its_registers_the_stack_and_d() -> None:
    layout = Layout()
    size = 40
    result = call(12345, size, layout, record=True)
    code = routine()
    strings = {
        *range(layout.finder, layout.finder + len(code.finder)),
        *range(layout.string, layout.string + len(code.string)),
    }
    names = range(layout.vnt, layout.vnt + sum(map(len, layout.names)))
    d_numbers = range(layout.d0 + 6, layout.d0 + 6 * (size + 1))
    allowed_writes = {*PAGE_6, *ROUTINE_ZERO_PAGE, *STACK, *d_numbers}
    allowed_reads = allowed_writes | strings | {*names, layout.d_entry + 2, layout.d_entry + 3}
    allowed_reads |= {VNTP, VNTP + 1, VVTP, VVTP + 1, STARP, STARP + 1}
    assert result.memory.writes <= allowed_writes, sorted(result.memory.writes - allowed_writes)
    assert result.memory.reads <= allowed_reads, sorted(result.memory.reads - allowed_reads)
    assert set(d_numbers) <= result.memory.writes  # every byte of D(1..N), D(0) untouched


def test_without_d_the_finder_gives_0_and_the_routine_writes_nothing() -> None:
    layout = Layout(names=tuple(OTHER_NAMES))
    memory, mpu = set_up(layout, record=True)
    mpu.sp = 0xF0
    assert usr(memory, mpu, layout.finder) == 0
    usr(memory, mpu, layout.string, 52, 0, 1, 0)
    assert memory.writes <= {*PAGE_6, *ROUTINE_ZERO_PAGE, *STACK}
    assert mpu.sp == 0xF0


def test_it_returns_with_the_stack_as_basic_left_it_and_binary_mode() -> None:
    result = call(7, 52)
    assert result.mpu.sp == result.stack_pointer
    assert not result.mpu.p & DECIMAL_FLAG


def test_the_routine_and_its_deck_fit_page_6() -> None:
    assembled = routine()
    assert assembled.labels["routine"] == 0x0600
    assert assembled.labels["deck"] + shuffle.DECK_MAX <= 0x0700
    assert len(assembled.string) == assembled.labels["deck"] - assembled.labels["mover"]


def test_the_strings_hold_no_quote_end_of_line_or_editor_control() -> None:
    assembled = routine()
    assert not shuffle.FORBIDDEN & set(assembled.string)
    assert not shuffle.FORBIDDEN & set(assembled.finder)
    mover_size = assembled.labels["routine"] - assembled.labels["mover"]
    decoded = bytes(byte ^ assembled.key for byte in assembled.string[mover_size:])
    assert decoded == assembled.code


def test_the_listing_spells_the_strings_byte_by_byte() -> None:
    listing = generate(1)
    for data in (routine().finder, routine().string):
        assert '"' + "".join(f"{{${byte:02X}}}" for byte in data) + '"' in listing
