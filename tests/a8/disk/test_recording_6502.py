"""The recording disk's boot loader in a simulator (py65), the OS played by Python.

The boot sectors read RECORDER.SYS along its sector chain straight into place: each
sector lands where its bytes belong, and its last three bytes, the link, are read
before the next sector covers them. The loader's own state (the sector it asks for,
the buffer, the command, the tries left) must then lie outside the memory it loads.
Kept among the resident variables, it was overwritten by the read that covered it,
and where a sector's link landed on the sector number, storing the next sector's
number overwrote the link's byte count before the loader read it: the load stood
still and the boot called code it had never loaded (issue 25, MEMLO $12C1).

Which layouts that hit depended on where the tables put the variables, so one test
builds a disk for every MEMLO in a range as wide as a 125-byte sector's data (single
and enhanced density): every resident byte then meets every place in a sector, the
link's three included. The loader's state no longer depends on the layout (it is in
the boot sectors), and every test here also checks that the CPU writes nothing into
the memory being loaded, so the other tests take one layout each, double density's
253-byte sectors included.

The SIO model is written from the OS manuals (the device control block, SIOV's status
in Y and DSTATS), not from the boot code: a read puts the sector in the buffer; a read
that fails, as a checksum error does on a real drive, has written the bytes it got
into the buffer all the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from py65.devices.mpu6502 import MPU

from a8.disk.atr import AtrImage
from a8.disk.dos2 import GEOMETRIES, Density, Dos2Disk
from a8.disk.recording import (
    SYSTEM_ADDRESS,
    SYSTEM_NAME,
    RecordingDisk,
    RecordingProgram,
    RecordSpace,
    ServedFile,
    build_recording_disk,
)
from tests.ram6502 import RecordingRam

BOOT_ADDRESS = 0x0700
BOOT_SECTORS = range(BOOT_ADDRESS, SYSTEM_ADDRESS)
DCB = 0x0300  # DDEVIC DUNIT DCOMND DSTATS DBUFLO/HI DTIMLO - DBYTLO/HI DAUX1/2
DSTATS = 0x0303
CARTCK = 0xBFFC
BASIC_ROM = range(0xA000, 0xC000)
SIOV = 0xE459
SENTINEL = 0xFFF0  # a return address no code lives at
CHECKSUM_ERROR = 0x8F
#: What a read cut short by a checksum error leaves in the buffer, in this model.
NOISE = 0xA5


@dataclass
class Boot:
    """An Atari with BASIC, just after the OS has read the boot sectors to $0700."""

    image: AtrImage
    #: sector -> how many reads of it fail (after writing noise into the buffer)
    failures: dict[int, int] = field(default_factory=dict)
    reads: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.memory = RecordingRam(0, rom=BASIC_ROM)
        self.mpu = MPU(memory=self.memory)
        self.memory.poke(BOOT_ADDRESS, b"".join(self.image.read_sector(s) for s in (1, 2, 3)))
        self.memory.poke(CARTCK, b"\x00")

    def load(self) -> int:
        """Run the OS's call of the boot code (load address + 6) until the code leaves
        the boot sectors for the first time: the address it went to."""
        self.mpu.sp = 0xFD
        self.memory.poke(0x01FE, (SENTINEL - 1).to_bytes(2, "little"))
        self.mpu.pc = BOOT_ADDRESS + 6
        for _ in range(100_000):
            pc = self.mpu.pc
            if pc == SIOV:
                self._sio()
            elif pc in BOOT_SECTORS:
                self.mpu.step()
                assert self.mpu.pc != pc, f"the boot code halted at ${pc:04X}"
            else:
                return pc
        raise AssertionError("the boot code did not leave the boot sectors")

    def _word(self, address: int) -> int:
        return self.memory.peek(address) | self.memory.peek(address + 1) << 8

    def _sio(self) -> None:
        """SIOV: a sector read from drive 1 (nothing else is asked while loading)."""
        device, unit, command, direction = (self.memory.peek(DCB + i) for i in range(4))
        assert (device, unit, command, direction) == (0x31, 1, ord("R"), 0x40)
        sector, buffer = self._word(0x030A), self._word(0x0304)
        assert self._word(0x0308) == self.image.size_of(sector)
        self.reads.append(sector)
        status = 1
        if self.failures.get(sector, 0) > 0:
            self.failures[sector] -= 1
            self.memory.poke(buffer, bytes([NOISE]) * self.image.size_of(sector))
            status = CHECKSUM_ERROR
        else:
            self.memory.poke(buffer, self.image.read_sector(sector))
        self.memory.poke(DSTATS, bytes([status]))
        low, high = (
            self.memory.peek(0x100 + self.mpu.sp + 1),
            self.memory.peek(0x100 + self.mpu.sp + 2),
        )
        self.mpu.sp += 2
        self.mpu.pc = (high << 8 | low) + 1
        self.mpu.y = status
        self.mpu.p &= ~(self.mpu.NEGATIVE | self.mpu.ZERO)
        self.mpu.p |= self.mpu.NEGATIVE if status & 0x80 else 0


def _name(letter: str, length: int) -> str:
    """A file name of ``length`` characters (1 to 12, the dot included)."""
    if length <= 8:
        return letter * length
    stem = min(8, length - 2)
    return letter * stem + "." + letter * (length - stem - 1)


def disk_grown_by(extra: int, density: Density) -> RecordingDisk:
    """A recording disk whose tables are ``extra`` bytes longer than the shortest this
    recipe makes: two programs, their names' lengths and their served files chosen so.

    A served file is a table entry of 16 bytes; a program's name is in its RUN line,
    one byte a character.
    """
    served, rest = divmod(extra, 16)
    first = 1 + min(rest, 11)
    second = 1 + rest - (first - 1)
    files = [ServedFile(f"F{i}.TXT", b"X\x9b") for i in range(served)]
    programs = [
        RecordingProgram(_name("P", first), bytes(10), tuple(files[:8])),
        RecordingProgram(_name("Q", second), bytes(10), tuple(files[8:])),
    ]
    return build_recording_disk(programs, RecordSpace(1, 10, boots=1), density=density)


def recorder_sys(built: RecordingDisk) -> tuple[AtrImage, bytes, list[int]]:
    """The disk's image, RECORDER.SYS's bytes and its sectors."""
    disk = Dos2Disk(AtrImage.from_bytes(built.atr))
    entry = disk.find(SYSTEM_NAME)
    return disk.image, disk.read_entry(entry), [sector for sector, _ in disk.chain(entry)]


def boot_problem(built: RecordingDisk, failures: dict[int, int] | None = None) -> str | None:
    """What goes wrong when the boot code loads this disk's RECORDER.SYS, or None.

    It must read RECORDER.SYS's sectors in their order (each failed read once more),
    call the boot-time code, which starts at MEMLO, with RECORDER.SYS in place byte
    for byte, and write nothing itself into the memory it loads (SIO's writes are not
    the CPU's: the model's reads do not count).
    """
    image, system, chain = recorder_sys(built)
    failures = dict(failures or {})
    boot = Boot(image, dict(failures))
    went_to = boot.load()
    where = f"MEMLO ${built.memlo:04X}"
    if went_to != built.memlo:
        return f"{where}: the boot went to ${went_to:04X}"
    asked = [s for sector in chain for s in [sector] * (1 + failures.get(sector, 0))]
    if boot.reads != asked:
        return f"{where}: the boot read sectors {boot.reads}, not {asked}"
    loaded = range(SYSTEM_ADDRESS, SYSTEM_ADDRESS + len(system))
    wrong = [a for a in loaded if boot.memory.peek(a) != system[a - SYSTEM_ADDRESS]]
    if wrong:
        return f"{where}: {len(wrong)} bytes loaded wrong, the first at ${wrong[0]:04X}"
    written = sorted(boot.memory.writes & set(loaded))
    if written:
        return f"{where}: the boot code wrote into its own load at ${written[0]:04X}"
    return None


@pytest.mark.slow
def test_every_memlo_in_a_sector_wide_range_boots() -> None:
    data = GEOMETRIES[Density.SINGLE].data_bytes
    disks = [disk_grown_by(extra, Density.SINGLE) for extra in range(data)]
    first = disks[0].memlo
    assert [built.memlo for built in disks] == list(range(first, first + data))
    assert [problem for built in disks if (problem := boot_problem(built))] == []


def test_the_layout_of_issue_25_boots() -> None:
    """The disk reported: one program of 18217 bytes named with 10 characters, three
    served files; MEMLO $12C1."""
    served = tuple(ServedFile(f"F{i}.TXT", b"X\x9b") for i in range(3))
    programs = [RecordingProgram("PROGRAM1.1", bytes(18217), served)]
    built = build_recording_disk(programs, RecordSpace(11, 4000))
    assert (built.density, built.memlo) == (Density.SINGLE, 0x12C1)
    assert boot_problem(built) is None


@pytest.mark.parametrize("density", [Density.SINGLE, Density.DOUBLE], ids=["125", "253"])
def test_a_read_that_fails_once_anywhere_is_tried_again(density: Density) -> None:
    """Each sector of RECORDER.SYS in turn fails once, its buffer filled with noise as
    a checksum error leaves it: the second try reads it into the same place."""
    built = disk_grown_by(0, density)
    _, _, chain = recorder_sys(built)
    assert [problem for s in chain if (problem := boot_problem(built, {s: 1}))] == []
