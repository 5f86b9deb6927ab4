"""The player's record routines in a simulator (py65), the OS's SIO played by Python.

Each routine runs as the game calls it: its two strings where a program keeps them,
the second ``GAP`` bytes after the first, the mover copying both to $0580. The drive
is a DOS 2 disk made as ``machfsol build`` makes the game disk's record file; SIOV
reads and writes its sectors as the OS manuals say (the device control block, the
status in Y and DSTATS), and answers the status command with the write-protect bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from py65.devices.mpu6502 import MPU

from a8.disk.dos2 import Density, Dos2Disk, FileName
from machfsol.atari import record_code
from tests.ram6502 import RecordingRam

SIOV = 0xE459
RETURN_ADDRESS = 0xFFF0
BUFFER = 0x4000
FIRST = 0x3000  # where the program keeps a routine's first string
SAVMSC = 0x58
SCREEN = 0x9C40
RTCLOK = 0x12
PAL_REGISTER = 0xD014
DCB = 0x0300
DVSTAT = 0x02EA
TIMEOUT = 138


def record_disk(name: str = "MACHFSOL.ST1", data: bytes = bytes(90)) -> Dos2Disk:
    disk = Dos2Disk.new(Density.SINGLE, "test")
    disk.add_file(FileName.parse("MACHFSOL.1"), bytes(300))
    disk.add_file(FileName.parse(name), data)
    return disk


@dataclass
class Atari:
    """Memory, a screen, a clock and drive 1 (None: no drive answers)."""

    disk: Dos2Disk | None = None
    write_protected: bool = False
    pal: bool = False
    writes: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.memory = RecordingRam(0)
        self.memory.poke(SAVMSC, [SCREEN & 0xFF, SCREEN >> 8])
        self.memory.poke(PAL_REGISTER, [0x01 if self.pal else 0x0F])
        self.memory.poke(BUFFER, [0xA5] * record_code.BUFFER_SIZE)  # DIM leaves garbage

    def clock(self, jiffies: int) -> None:
        self.memory.poke(RTCLOK, list(jiffies.to_bytes(3, "big")))

    def call(self, name: str, *arguments: int) -> int:
        """X=USR(ADR(first string), arguments...): the result."""
        first, second = record_code.strings_of(name)
        self.memory.poke(FIRST, list(first))
        self.memory.poke(FIRST + len(first), [0x11] * record_code.GAP)
        self.memory.poke(FIRST + len(first) + record_code.GAP, list(second))
        mpu = MPU(memory=self.memory)
        mpu.sp = 0xF0
        pushed = [(RETURN_ADDRESS - 1) >> 8, (RETURN_ADDRESS - 1) & 0xFF]
        for value in reversed(arguments):
            pushed += [value & 0xFF, value >> 8]
        for value in [*pushed, len(arguments)]:
            self.memory[0x0100 + mpu.sp] = value
            mpu.sp -= 1
        self.memory.poke(0xD4, [FIRST & 0xFF, FIRST >> 8])  # USR jumps through FR0
        mpu.pc = FIRST
        for _ in range(400_000):
            if mpu.pc == RETURN_ADDRESS:
                assert mpu.sp == 0xF0, f"{name} left the stack unbalanced"
                return self.memory.peek(0xD4) | self.memory.peek(0xD5) << 8
            if mpu.pc == SIOV:
                self._sio(mpu)
            else:
                mpu.step()
        raise AssertionError(f"{name} did not return")

    def _word(self, address: int) -> int:
        return self.memory.peek(address) | self.memory.peek(address + 1) << 8

    def _sio(self, mpu: MPU) -> None:
        device, unit, command, direction = (self.memory.peek(DCB + i) for i in range(4))
        assert (device, unit) == (0x31, 1)
        buffer, size, sector = self._word(0x0304), self._word(0x0308), self._word(0x030A)
        status = 1
        if self.disk is None:
            status = TIMEOUT
        elif command == ord("R"):
            assert (direction, size) == (0x40, 128)
            self.memory.poke(buffer, list(self.disk.image.read_sector(sector)))
        elif command == ord("P"):
            assert (direction, size) == (0x80, 128)
            if self.write_protected:
                status = 144
            else:
                data = bytes(self.memory.peek(buffer + i) for i in range(128))
                self.disk.image.write_sector(sector, data)
                self.writes.append(sector)
        elif command == ord("S"):
            assert (direction, size, buffer) == (0x40, 4, DVSTAT)
            self.memory.poke(DVSTAT, [0x10 | (0x08 if self.write_protected else 0), 0, 1, 0])
        else:
            raise AssertionError(f"SIO command {command:#x}")
        self.memory.poke(0x0303, [status])
        low = self.memory.peek(0x100 + mpu.sp + 1)
        high = self.memory.peek(0x100 + mpu.sp + 2)
        mpu.sp += 2
        mpu.pc = (high << 8 | low) + 1
        mpu.y = status
        mpu.p &= ~(mpu.NEGATIVE | mpu.ZERO)
        mpu.p |= mpu.NEGATIVE if status & 0x80 else 0

    def record(self, deck: int) -> tuple[int, ...]:
        at = BUFFER + 10 * (deck // 4) - 50
        words = tuple(self._word(at + 2 * i) for i in range(4))
        return (*words, self.memory.peek(at + 9), self.memory.peek(at + 8))

    def row(self, row: int) -> str:
        codes = [self.memory.peek(SCREEN + 40 * row + i) for i in range(40)]
        return "".join(chr(code + 0x20) if code < 0x40 else "?" for code in codes)


FILE, KEEPER, LINES = record_code.SOURCES


def test_find_reads_the_record_and_saves_it_back() -> None:
    data = bytes(range(90))
    atari = Atari(record_disk(data=data))
    assert atari.call(FILE, 0, BUFFER, 1) == 0
    assert bytes(atari.memory.peek(BUFFER + i) for i in range(90)) == data
    for i in range(90):
        atari.memory[BUFFER + i] = 89 - i
    assert atari.call(FILE, 1, BUFFER) == 0
    entry = atari.disk.find("MACHFSOL.ST1")  # type: ignore[union-attr]
    assert atari.disk.read_entry(entry) == bytes(89 - i for i in range(90))  # type: ignore[union-attr]


def test_why_the_record_is_not_saved() -> None:
    assert Atari(record_disk(name="MACHFSOL.ST2")).call(FILE, 0, BUFFER, 1) == 1
    assert Atari(None).call(FILE, 0, BUFFER, 1) == 2
    assert Atari(record_disk(), write_protected=True).call(FILE, 0, BUFFER, 1) == 3
    assert Atari(record_disk(name="MACHFSOL.ST2")).call(FILE, 0, BUFFER, 2) == 0


def test_a_game_won_counts_once_with_its_time() -> None:
    atari = Atari(record_disk())
    atari.call(FILE, 0, BUFFER, 1)
    atari.clock(1000)
    atari.call(KEEPER, 0, BUFFER)
    atari.clock(1000 + 60 * 125 + 59)  # 2:05 and 59 jiffies
    assert atari.call(KEEPER, 2, BUFFER, 52, 1) == 1
    assert atari.record(52) == (1, 1, 1, 1, 2, 5)
    assert atari.call(KEEPER, 2, BUFFER, 52, 1) == 0
    assert atari.record(52) == (1, 1, 1, 1, 2, 5)
    atari.call(LINES, 1, BUFFER, 52)
    assert atari.row(16)[12:25] == "TIME 2:05    "
    assert atari.row(19).rstrip() == "RECORD WON 1/1 STREAK 1/1 BEST 2:05"


def test_a_game_left_counts_as_lost_and_back_takes_it_back() -> None:
    atari = Atari(record_disk())
    atari.call(FILE, 0, BUFFER, 1)
    atari.call(KEEPER, 0, BUFFER)
    atari.call(KEEPER, 2, BUFFER, 24, 1)
    atari.call(KEEPER, 0, BUFFER)
    assert atari.call(KEEPER, 3, BUFFER, 24) == 1
    assert atari.record(24) == (2, 1, 0, 1, 0, 0)
    assert atari.call(KEEPER, 3, BUFFER, 24) == 0
    assert atari.call(KEEPER, 4, BUFFER, 24) == 1
    assert atari.record(24) == (1, 1, 1, 1, 0, 0)
    assert atari.call(KEEPER, 4, BUFFER, 24) == 0


def test_a_lost_end_shows_the_record_with_the_game_lost() -> None:
    atari = Atari(record_disk(name="MACHFSOL.ST2"), pal=True)
    atari.call(FILE, 0, BUFFER, 2)
    atari.call(KEEPER, 0, BUFFER)
    atari.clock(50 * 61)
    atari.call(KEEPER, 2, BUFFER, 40, 0)
    atari.call(LINES, 1, BUFFER, 40)
    assert atari.row(16)[12:25] == "TIME 1:01    "
    assert atari.row(19).rstrip() == "RECORD WON 0/1 STREAK 0/0"
    atari.call(LINES, 0, BUFFER, 40)
    assert atari.row(17).rstrip() == "RECORD WON 0/0 STREAK 0/0"


def test_the_programs_keep_each_routines_strings_a_gap_apart() -> None:
    from machfsol.atari.build import game_programs

    for program in game_programs().values():
        for name in record_code.SOURCES:
            first, second = record_code.strings_of(name)
            at = program.index(first)
            assert program.index(second) - (at + len(first)) == record_code.GAP, name
