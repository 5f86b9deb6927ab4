"""A packed program's unpacker (a8/disk/packed.s) in the simulator, after the boot loader.

The boot loader's model (test_loader_6502.Atari: the OS played by Python) boots a disk
whose menu runs a packed program; BASIC's part is played here: it LOADs the stub
through the loader, calls the stub's USR as BASIC does, then LOADs the program from
the E: handler the unpacker leaves. The program BASIC gets must be the one packed,
whatever it holds, and each way it can fail must say why.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.basic.convert import list_program
from a8.disk import lz
from a8.disk.boot import MenuEntry, assemble_loader, install_boot_menu
from a8.disk.dos2 import Density, Dos2Disk
from a8.disk.packed import pack_program, stub, unpacker
from tests.a8.disk.test_loader_6502 import (
    DESTINATION,
    GET_CHARACTERS,
    HATABS_E,
    KEY_1,
    LOADER_RAM,
    SCREEN,
    SENTINEL,
    SIO_TIMEOUT,
    Atari,
)

#: SAVE files genuine BASIC rev. C wrote (the toolchain's gold data): the largest three.
GOLD = sorted(
    (Path(__file__).parents[1] / "basic" / "fixtures" / "revc-gold").glob("*.bas"),
    key=lambda path: (-path.stat().st_size, path.name),
)[:3]

MEMTOP = 0x02E5
APPMHI = 0x0E
TOP = 0x9C1F  # MEMTOP with BASIC and a text screen
FR0 = 0xD4
#: Where the unpacker runs: the mover in the string, the rest in the line buffer and page 6.
UNPACKER_RAM = range(0x0580, 0x0700)


class PackedAtari(Atari):
    def __post_init__(self) -> None:
        super().__post_init__()
        self.code_ranges = (LOADER_RAM, UNPACKER_RAM, DESTINATION)

    def load_stub(self) -> None:
        """The menu's RUN "E:": BASIC LOADs the stub (header, then the rest) and closes E:."""
        self.run_command([KEY_1], menu=self.menu_line())
        head = stub()
        header, status = self.cio_get(GET_CHARACTERS, 14)
        body, status = self.cio_get(GET_CHARACTERS, len(head) - 14, DESTINATION.start + 14)
        assert header + body == head and status == 1
        self.close()
        self.memory.poke(MEMTOP, TOP.to_bytes(2, "little"))
        self.memory.poke(APPMHI, (DESTINATION.start + len(head) + 100).to_bytes(2, "little"))

    def menu_line(self) -> bytes:
        return b'?"\x7d1 Packed"\x9b'

    def usr(self) -> int:
        """E=USR(A,A,B): A and B the addresses of the stub's two strings."""
        first, second = unpacker()
        head = stub()
        a = DESTINATION.start + head.index(first)
        b = DESTINATION.start + head.index(second)
        for byte in [(SENTINEL - 1) >> 8, (SENTINEL - 1) & 0xFF]:
            self._push(byte)
        for value in (b, a):  # PLA takes the first argument's high byte first
            self._push(value & 0xFF)
            self._push(value >> 8)
        self._push(2)  # the arguments after the routine's address
        self.memory.writes.clear()  # what the USR writes, from here
        assert self.run(a) == "returned"
        return self._word(FR0)

    def _push(self, byte: int) -> None:
        self.memory.poke(0x100 + self.mpu.sp, bytes([byte]))
        self.mpu.sp -= 1

    def basic_load(self, size: int) -> bytes:
        """RUN "E:" from the stub: CLOSE, OPEN, the header, the rest, CLOSE."""
        self.close()
        assert self.handler_entry(4) != self._loader_get(), "a CLOSE before the load unhooks"
        self.handler_call(0, 0x70)
        header, status = self.cio_get(GET_CHARACTERS, 14)
        body, status = self.cio_get(GET_CHARACTERS, size - 14, DESTINATION.start + 14)
        assert status == 1
        self.close()
        return header + body

    def _loader_get(self) -> int:
        return assemble_loader().labels["get"]


def packed_disk(program: bytes, density: Density = Density.SINGLE) -> Dos2Disk:
    disk = Dos2Disk.new(density)
    disk.add_file("PROGRAM.BAS", program)
    disk.add_file("PROGRAM.PK", pack_program(program))
    install_boot_menu(disk, [MenuEntry.parse("PROGRAM.PK=Packed")], "")
    return disk


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize("path", GOLD, ids=lambda p: p.name)
def test_basic_loads_the_program_that_was_packed(density: Density, path: Path) -> None:
    program = path.read_bytes()
    disk = packed_disk(program, density)
    atari = PackedAtari(disk)
    atari.boot()
    atari.load_stub()
    assert atari.usr() == 0
    unpacked = bytes(atari.memory.peek(TOP - len(program) + i) for i in range(len(program)))
    assert unpacked == program  # just under MEMTOP
    assert atari.basic_load(len(program)) == program
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]  # unhooked
    chain = [s for s, _ in disk.chain(disk.find("PROGRAM.PK"))]
    assert atari.sio_sectors[1:] == chain  # every sector once, in order


def test_a_sector_of_the_stream_that_never_reads_gives_basic_its_status() -> None:
    program = GOLD[0].read_bytes()
    disk = packed_disk(program)
    chain = [s for s, _ in disk.chain(disk.find("PROGRAM.PK"))]
    atari = PackedAtari(disk, failures={chain[-1]: 99})
    atari.boot()
    atari.load_stub()
    assert atari.usr() == SIO_TIMEOUT  # the stub prints DISK ERROR 138
    assert atari.sio_sectors[-3:] == [chain[-1]] * 3
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]  # not hooked


def test_a_file_cut_short_is_damaged() -> None:
    program = GOLD[0].read_bytes()
    disk = Dos2Disk.new(Density.SINGLE)
    disk.add_file("PROGRAM.PK", pack_program(program)[:-40])
    install_boot_menu(disk, [MenuEntry.parse("PROGRAM.PK=Packed")], "")
    atari = PackedAtari(disk)
    atari.boot()
    atari.load_stub()
    assert atari.usr() == 2  # PACKED PROGRAM DAMAGED


def test_a_stream_longer_than_it_says_is_damaged() -> None:
    program = GOLD[0].read_bytes()
    packed = bytearray(pack_program(program))
    at = len(stub())
    packed[at : at + 2] = (len(program) - 5).to_bytes(2, "little")  # 5 bytes fewer
    disk = Dos2Disk.new(Density.SINGLE)
    disk.add_file("PROGRAM.PK", bytes(packed))
    install_boot_menu(disk, [MenuEntry.parse("PROGRAM.PK=Packed")], "")
    atari = PackedAtari(disk)
    atari.boot()
    atari.load_stub()
    assert atari.usr() == 2
    below = TOP - (len(program) - 5)
    written = {a for a in atari.memory.writes if a >= DESTINATION.start} - set(SCREEN)
    assert written <= set(range(below, TOP))  # (and the loading bar)


def test_a_program_that_does_not_fit_is_not_unpacked() -> None:
    program = GOLD[0].read_bytes()
    atari = PackedAtari(packed_disk(program))
    atari.boot()
    atari.load_stub()
    atari.memory.poke(APPMHI, (TOP - len(program) + 1).to_bytes(2, "little"))
    assert atari.usr() == 3  # TOO LARGE FOR THE MEMORY LEFT
    assert atari.memory.writes.isdisjoint(range(0x2000, 0x10000))


def test_loaded_without_the_boot_loader_the_stub_says_so() -> None:
    program = GOLD[0].read_bytes()
    atari = PackedAtari(packed_disk(program))
    atari.boot()
    atari.load_stub()
    readsec = assemble_loader().labels["readsec"]
    atari.memory.poke(readsec, b"\x60")  # DOS's code there, say
    assert atari.usr() == 1  # LOAD IT FROM ITS DISK'S BOOT MENU
    assert atari.memory.writes.isdisjoint(range(0x2000, 0x10000))


def test_the_stub_lists_as_basic() -> None:
    """The stub is an ordinary program: its lines say what each result means."""
    listing = list_program(stub())
    assert 'E=USR(A,A,B):IF E=0 THEN RUN "E:"' in listing
    for text in ("LOAD IT FROM ITS DISK'S BOOT MENU", "PACKED PROGRAM DAMAGED", "DISK ERROR"):
        assert text in listing


@settings(deadline=None, max_examples=20)
@given(
    st.binary(min_size=14, max_size=600).flatmap(lambda b: st.sampled_from([b, b * 5, b[::-1] + b]))
)
def test_the_6502_unpacks_whatever_python_packs(data: bytes) -> None:
    """Any bytes, as Python packs them: the unpacker writes exactly them under MEMTOP."""
    disk = Dos2Disk.new(Density.SINGLE)
    disk.add_file("PROGRAM.PK", stub() + lz.pack(data))
    install_boot_menu(disk, [MenuEntry.parse("PROGRAM.PK=Packed")], "")
    atari = PackedAtari(disk)
    atari.boot()
    atari.load_stub()
    assert atari.usr() == 0
    assert bytes(atari.memory.peek(TOP - len(data) + i) for i in range(len(data))) == data
    assert atari.basic_load(len(data)) == data
