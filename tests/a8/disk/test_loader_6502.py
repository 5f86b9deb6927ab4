"""The boot loader's 6502 code in a simulator (py65), with the OS played by Python.

The emulator tests show that the loader boots in atari800 with the Altirra ROMs.
These tests show what it relies on, which no boot in one emulator can: every
address it reads or writes outside its own memory is one of the documented OS
locations listed in docs/notes/boot-loader.md, and it enters the ROM only through SIOV.
They also drive the paths a healthy emulated drive seldom takes: a sector that
reads only on the third try, one that never reads, a key that is not in the menu;
and BASIC's LOAD through two models of CIO: one that keeps its loop state in the
zero-page IOCB as the XL OS and AltirraOS do (the loader's shortcut copies whole
sectors), and one that does not (the loader must serve byte by byte).

The OS side is written here from the OS manuals' descriptions (addresses, the
device control block, the handler table, the vector table's "address - 1"
entries), not from the loader's source, so a wrong address in boot.s fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from py65.devices.mpu6502 import MPU

from a8.disk.boot import MenuEntry, assemble_loader, install_boot_menu
from a8.disk.dos2 import Density, Dos2Disk
from tests.ram6502 import RecordingRam

# Documented OS locations (Atari OS manual; "Mapping the Atari").
ICCOMZ = 0x22  # CIO's zero-page IOCB: the command,
ICBALZ = 0x24  # the buffer address (where the next byte goes),
ICBLLZ = 0x28  # the buffer length (bytes still wanted)
ICIDNO = 0x2E  # the X register CIO was called with
GET_RECORD, GET_CHARACTERS = 5, 7
SAVMSC = 0x58
OLDADR = 0x5E  # the cursor's address in screen memory
MEMLO = 0x02E7
CH = 0x02FC
DCB = range(0x0300, 0x030C)  # DDEVIC DUNIT DCOMND DSTATS DBUFLO/HI DTIMLO - DBYTLO/HI DAUX1/2
DSTATS = 0x0303
HATABS_E = range(0x0320, 0x0323)  # third entry: 'E', vector table address
CARTCK = 0xBFFC
EDITRV = range(0xE400, 0xE410)
SIOV = 0xE459
USER_ZERO_PAGE = range(0xCB, 0xD2)  # free for the user under the OS and BASIC

BOOT_ADDRESS = 0x0700
LOADER_RAM = range(0x0700, 0x0A00)  # below the MEMLO the loader sets
STACK = range(0x0100, 0x0200)
SCREEN = range(0x4000, 0x4000 + 960)
#: Where the OS's cursor is when BASIC asks for the line after the menu: the third line.
CURSOR = SCREEN.start + 2 * 40 + 2
BLOCK = 0x80  # the loading bar's block: an inverse space
BASIC_ROM = range(0xA000, 0xC000)

#: Where BASIC asks CIO to put the program (any RAM above MEMLO).
DESTINATION = range(0x2000, 0x8000)
ZERO_PAGE_IOCB = {ICCOMZ, ICBALZ, ICBALZ + 1, ICBLLZ, ICBLLZ + 1}
ALLOWED_READS = {SAVMSC, SAVMSC + 1, OLDADR, OLDADR + 1, CH, DSTATS, CARTCK, *EDITRV}
ALLOWED_READS |= set(USER_ZERO_PAGE) | ZERO_PAGE_IOCB | {ICIDNO}
ALLOWED_WRITES = {
    MEMLO,
    MEMLO + 1,
    CH,
    CARTCK,
    *DCB,
    *HATABS_E,
    *USER_ZERO_PAGE,
    *SCREEN,
    *ZERO_PAGE_IOCB - {ICCOMZ},
    *DESTINATION,
}

KEY_1, KEY_2, KEY_3 = 0x1F, 0x1E, 0x1A  # keyboard codes of the digit keys
#: BASIC's first input line for menu_disk(): PRINTs, the first clearing the screen.
MENU_LINE = b'?"\x7dMenu":?"1 One":?"2 Two"\x9b'
SENTINEL = 0xFFF0  # a return address no code lives at
SIO_TIMEOUT = 0x8A
MENU_SECTOR = 720
END_OF_FILE = 0x88


@dataclass
class Atari:
    """An Atari as the loader sees it just after the OS has read the boot sectors."""

    disk: Dos2Disk
    basic: bool = True
    #: sector -> how many reads of it fail before one succeeds
    failures: dict[int, int] = field(default_factory=dict)
    sio_sectors: list[int] = field(default_factory=list)
    #: GET BYTE calls made by cio_get
    calls: int = 0
    #: where code may run (the packed programs' unpacker adds its own)
    code_ranges: tuple[range, ...] = (LOADER_RAM,)

    def __post_init__(self) -> None:
        self.memory = RecordingRam(0, rom=BASIC_ROM if self.basic else range(0))
        self.mpu = MPU(memory=self.memory)
        boot = b"".join(self.disk.image.read_sector(s) for s in (1, 2, 3))
        self.memory.poke(BOOT_ADDRESS, boot)
        self.memory.poke(HATABS_E.start, bytes([ord("E"), 0x00, 0xE4]))
        self.memory.poke(EDITRV.start, bytes(range(0x10, 0x20)))
        self.memory.poke(SAVMSC, (SCREEN.start).to_bytes(2, "little"))
        self.memory.poke(OLDADR, CURSOR.to_bytes(2, "little"))
        self.memory.poke(CH, b"\xff")
        self.memory.poke(MEMLO, b"\x00\x07")
        if self.basic:
            self.memory.poke(CARTCK, b"\x00")

    # -- running code ----------------------------------------------------------

    def call(
        self,
        address: int,
        *,
        x: int = 0,
        on_step: Callable[[int], None] | None = None,
    ) -> str:
        """JSR ``address`` and run until it returns or halts (branches to itself)."""
        self._push_word(SENTINEL - 1)
        return self.run(address, x=x, on_step=on_step)

    def run(
        self,
        address: int,
        *,
        x: int = 0,
        on_step: Callable[[int], None] | None = None,
    ) -> str:
        """Run from ``address`` (the stack set up) until SENTINEL or a halt."""
        self.mpu.pc, self.mpu.x = address, x
        for _ in range(200_000):
            pc = self.mpu.pc
            if pc == SENTINEL:
                return "returned"
            if on_step is not None:
                on_step(pc)
            if pc == SIOV:
                self._sio()
            else:
                assert any(pc in r for r in self.code_ranges), f"a jump to ${pc:04X}"
                self.mpu.step()
                if self.mpu.pc == pc:
                    return "halted"
        raise AssertionError("the loader did not return")

    def _push_word(self, word: int) -> None:
        self.memory.poke(0x100 + self.mpu.sp - 1, word.to_bytes(2, "little"))
        self.mpu.sp -= 2

    def _return(self, status: int) -> None:
        """RTS from an OS routine with the status in Y and the flags set from it."""
        low = self.memory.peek(0x100 + self.mpu.sp + 1)
        high = self.memory.peek(0x100 + self.mpu.sp + 2)
        self.mpu.sp += 2
        self.mpu.pc = (high << 8 | low) + 1
        self.mpu.y = status
        self.mpu.p &= ~(self.mpu.NEGATIVE | self.mpu.ZERO)
        self.mpu.p |= self.mpu.NEGATIVE if status & 0x80 else 0

    def _word(self, address: int) -> int:
        return self.memory.peek(address) | self.memory.peek(address + 1) << 8

    def _sio(self) -> None:
        """SIOV: a sector read from drive 1, checked field by field."""
        dcb = [self.memory.peek(a) for a in DCB]
        assert dcb[0:4] == [0x31, 1, ord("R"), 0x40], "disk 1, read, data to the computer"
        sector = self._word(0x030A)
        size = self.disk.image.sector_size
        assert self._word(0x0308) == size
        self.sio_sectors.append(sector)
        if self.failures.get(sector, 0) > 0 or not 4 <= sector <= self.disk.image.sector_count:
            self.failures[sector] = self.failures.get(sector, 0) - 1
            self.memory.poke(DSTATS, bytes([SIO_TIMEOUT]))
            self._return(SIO_TIMEOUT)
            return
        self.memory.poke(self._word(0x0304), self.disk.image.read_sector(sector))
        self.memory.poke(DSTATS, b"\x01")
        self._return(1)

    # -- what BASIC and CIO would do -----------------------------------------

    def boot(self) -> None:
        """The OS calls load address + 6: the loader hooks E: and returns at once."""
        assert self.call(BOOT_ADDRESS + 6) == "returned"
        assert not self.mpu.p & self.mpu.CARRY, "carry clear: the boot succeeded"

    def handler_entry(self, offset: int) -> int:
        """The routine the E: handler table gives for a vector (OPEN 0, CLOSE 2, GET 4)."""
        table = self._word(HATABS_E.start + 1)
        return self._word(table + offset) + 1

    def handler_call(
        self, offset: int, x: int, on_step: Callable[[int], None] | None = None
    ) -> None:
        """CIO calls a handler routine: ICIDNO holds the X it was called with."""
        self.memory.poke(ICIDNO, bytes([x]))
        assert self.call(self.handler_entry(offset), x=x, on_step=on_step) == "returned"
        assert self.mpu.x == x, "X (the IOCB) is kept for CIO"

    def get_bytes(self, *, line: bool = False, keys: list[int] | None = None) -> tuple[bytes, int]:
        """GET BYTE from E: until the status is not 1 (or, for ``line``, up to an EOL),
        as a CIO that keeps no loop state in its zero-page IOCB; ``keys`` are pressed
        one at a time whenever CH is empty."""
        pending = list(keys or [])

        def press(pc: int) -> None:
            if self.memory.peek(CH) == 0xFF and pending:
                self.memory.poke(CH, bytes([pending.pop(0)]))

        self.memory.poke(ICCOMZ, bytes([GET_RECORD if line else GET_CHARACTERS]))
        data = bytearray()
        while True:
            self.handler_call(4, 0x10, press)
            if self.mpu.y != 1:
                return bytes(data), self.mpu.y
            data.append(self.mpu.a)
            if line and self.mpu.a == 0x9B:
                return bytes(data), self.mpu.y

    def cio_get(self, command: int, length: int, at: int = DESTINATION.start) -> tuple[bytes, int]:
        """CIO's GET loop as the XL OS and AltirraOS run it (see boot.s): the request in
        the zero-page IOCB; after each byte the handler returns, store it at ICBALZ,
        move ICBALZ up and ICBLLZ down; stop at 0 bytes wanted, an error or (GET
        RECORD) an EOL. Returns the bytes stored and the last status."""
        memory = self.memory
        memory.poke(ICCOMZ, bytes([command]))
        memory.poke(ICBALZ, at.to_bytes(2, "little"))
        memory.poke(ICBLLZ, length.to_bytes(2, "little"))
        status = 1
        while self._word(ICBLLZ):
            self.handler_call(4, 0x70)
            self.calls += 1
            status = self.mpu.y
            if status >= 0x80:
                break
            address = self._word(ICBALZ)
            memory.poke(address, bytes([self.mpu.a]))
            memory.poke(ICBALZ, (address + 1).to_bytes(2, "little"))
            memory.poke(ICBLLZ, (self._word(ICBLLZ) - 1).to_bytes(2, "little"))
            if command == GET_RECORD and self.mpu.a == 0x9B:
                break
        got = length - self._word(ICBLLZ)
        assert DESTINATION.start <= at and at + got <= DESTINATION.stop
        return bytes(memory.peek(at + i) for i in range(got)), status

    def run_command(self, keys: list[int], menu: bytes = MENU_LINE) -> None:
        """BASIC reads its first input line, the menu, and prints it; then its second,
        served once a key of the menu is pressed: RUN "E:"; then it closes its channels
        and opens E: again for the program."""
        assert self.get_bytes(line=True) == (menu, 1)
        assert self.get_bytes(line=True, keys=keys) == (b'RUN "E:"\x9b', 1)
        self.close()
        self.handler_call(0, 0x70)  # OPEN #7
        assert self.mpu.y == 1

    def close(self) -> None:
        self.handler_call(2, 0x10)
        assert self.mpu.y == 1

    def assert_only_documented_locations(self) -> None:
        outside = LOADER_RAM.start, LOADER_RAM.stop
        reads = {a for a in self.memory.reads if not (outside[0] <= a < outside[1])}
        writes = {a for a in self.memory.writes if not (outside[0] <= a < outside[1])}
        assert {f"${a:04X}" for a in reads - ALLOWED_READS - set(STACK)} == set()
        assert {f"${a:04X}" for a in writes - ALLOWED_WRITES - set(STACK)} == set()


def program(variant: int, size: int) -> bytes:
    return bytes((variant * 31 + i * 7) % 256 for i in range(size))


def menu_disk(density: Density = Density.SINGLE) -> Dos2Disk:
    disk = Dos2Disk.new(density)
    disk.add_file("FIRST.BAS", program(1, 700))
    disk.add_file("SECOND.BAS", program(2, 1000))
    entries = [MenuEntry.parse("FIRST.BAS=One"), MenuEntry.parse("SECOND.BAS=Two")]
    install_boot_menu(disk, entries, "Menu")
    return disk


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
def test_the_chosen_program_is_served_to_basic(density: Density) -> None:
    disk = menu_disk(density)
    atari = Atari(disk)
    atari.boot()
    assert atari.memory.writes.isdisjoint(SCREEN)  # BASIC prints the menu, once started
    assert atari.memory.peek(MEMLO + 1) == 0x0A
    atari.run_command([KEY_3, KEY_2])  # 3 is not on the menu: ignored
    # the hook stays through BASIC's CLOSE before RUN
    data, status = atari.get_bytes()
    assert data == program(2, 1000) and status == END_OF_FILE
    entry = disk.find("SECOND.BAS")
    atari.close()  # the program is in: E: is the OS's editor again
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]
    assert atari.sio_sectors == [MENU_SECTOR] + [s for s, _ in disk.chain(entry)]
    atari.assert_only_documented_locations()


def test_the_first_entry_and_the_hook_table() -> None:
    atari = Atari(menu_disk())
    atari.boot()
    table = atari.memory.peek(0x0321) | atari.memory.peek(0x0322) << 8
    assert table in LOADER_RAM
    copied = [atari.memory.peek(table + i) for i in range(16)]
    unchanged = [i for i in range(16) if i not in (0, 1, 2, 3, 4, 5)]
    assert [copied[i] for i in unchanged] == [0x10 + i for i in unchanged]  # the OS's own
    atari.run_command([KEY_1])
    assert atari.get_bytes()[0] == program(1, 700)


def test_without_a_title_the_first_entry_clears_the_screen() -> None:
    disk = menu_disk()
    install_boot_menu(disk, [MenuEntry.parse("FIRST.BAS=One")], "")
    atari = Atari(disk)
    atari.boot()
    atari.run_command([KEY_2, KEY_1], menu=b'?"\x7d1 One"\x9b')  # 2 is not on this menu
    assert atari.get_bytes()[0] == program(1, 700)


def test_a_sector_that_reads_on_the_third_try() -> None:
    disk = menu_disk()
    start = disk.find("FIRST.BAS").start
    atari = Atari(disk, failures={start: 2})
    atari.boot()
    atari.run_command([KEY_1])
    data, status = atari.get_bytes()
    assert data == program(1, 700) and status == END_OF_FILE
    assert atari.sio_sectors.count(start) == 3
    atari.assert_only_documented_locations()


def test_a_sector_that_never_reads() -> None:
    disk = menu_disk()
    start = disk.find("FIRST.BAS").start
    atari = Atari(disk, failures={start: 99})
    atari.boot()
    atari.run_command([KEY_1])
    data, status = atari.get_bytes()
    assert data == b"" and status == SIO_TIMEOUT  # BASIC reports the SIO error
    assert atari.sio_sectors == [MENU_SECTOR] + [start] * 3  # three tries, then it gives up
    screen = bytes(atari.memory.peek(SCREEN.start + i) for i in range(4, 14))
    assert screen == bytes([0x32, 0x25, 0x21, 0x24, 0, 0x25, 0x32, 0x32, 0x2F, 0x32])  # READ ERROR
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]
    atari.assert_only_documented_locations()


def test_the_loading_bar_grows_a_block_every_fourth_sector_where_the_cursor_was() -> None:
    disk = menu_disk()
    atari = Atari(disk)
    atari.boot()
    atari.run_command([KEY_2])
    assert atari.memory.writes.isdisjoint(SCREEN)  # the OPEN cleared nothing
    atari.get_bytes()
    sectors = len(disk.chain(disk.find("SECOND.BAS")))
    blocks = [atari.memory.peek(CURSOR + i) for i in range(1, 40)]
    assert blocks == [BLOCK] * (sectors // 4) + [0] * (39 - sectors // 4)
    written = {a for a in atari.memory.writes if a in SCREEN}
    assert written == set(range(CURSOR + 1, CURSOR + 1 + sectors // 4))


def test_without_basic_a_message_and_nothing_hooked() -> None:
    atari = Atari(menu_disk(), basic=False)
    assert atari.call(BOOT_ADDRESS + 6) == "halted"
    # "NEEDS BASIC" on the top line, from the left margin, in screen codes
    shown = bytes(atari.memory.peek(SCREEN.start + 2 + i) for i in range(11))
    assert shown == bytes([0x2E, 0x25, 0x25, 0x24, 0x33, 0, 0x22, 0x21, 0x33, 0x29, 0x23])
    halt = atari.mpu.pc
    for _ in range(100):  # it stays there
        atari.mpu.step()
        assert atari.mpu.pc == halt
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]
    assert atari.memory.peek(MEMLO + 1) == 0x07
    assert atari.memory.peek(CARTCK) == 0  # tested and put back: it is on the screen
    atari.assert_only_documented_locations()


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize(
    "requests",
    [
        [14, 986],  # BASIC's LOAD: the header, then the rest
        [1, 2, 3, 250, 256, 257, 131],  # every size around the shortcut's limits
        [1000],
        [600, 700],  # more than the file holds: end of file after its last byte
    ],
    ids=["load", "odd", "one", "past-the-end"],
)
def test_get_characters_through_cio_copies_whole_sectors(
    density: Density, requests: list[int]
) -> None:
    disk = menu_disk(density)
    atari = Atari(disk)
    atari.boot()
    atari.run_command([KEY_2])
    data, at, status = bytearray(), DESTINATION.start, 1
    for length in requests:
        got, status = atari.cio_get(GET_CHARACTERS, length, at)
        data += got
        at += len(got)
        if status != 1:
            break
    assert bytes(data) == program(2, 1000)[: sum(requests)]
    if sum(requests) > 1000:
        assert status == END_OF_FILE
    sectors = len(disk.chain(disk.find("SECOND.BAS")))
    # the shortcut starts at the second byte of a request: at most three calls for
    # each request and each sector (its first byte, the copy, a sector's last byte)
    assert atari.calls <= 3 * (len(requests) + sectors)
    assert atari.calls < len(data) // 10
    atari.assert_only_documented_locations()


def test_a_cio_that_keeps_no_zero_page_state_gets_every_byte_one_at_a_time() -> None:
    disk = menu_disk()
    atari = Atari(disk)
    atari.boot()
    atari.run_command([KEY_1])
    atari.memory.poke(ICBLLZ, (700).to_bytes(2, "little"))  # and never lowered
    atari.memory.poke(ICBALZ, DESTINATION.start.to_bytes(2, "little"))
    data, status = atari.get_bytes()
    assert data == program(1, 700) and status == END_OF_FILE
    assert all(atari.memory.peek(a) == 0 for a in range(DESTINATION.start, DESTINATION.start + 700))


def test_get_record_is_never_copied_ahead() -> None:
    """The menu lines, GET RECORD: one byte a call, so CIO stops at the EOL."""
    atari = Atari(menu_disk())
    atari.boot()
    assert atari.cio_get(GET_RECORD, 120) == (MENU_LINE, 1)
    assert atari.calls == len(MENU_LINE)


def test_the_second_stage_is_copied_from_sector_720_at_boot() -> None:
    disk = menu_disk()
    atari = Atari(disk)
    atari.boot()
    loader = assemble_loader()
    stage = loader.second_stage
    start = loader.labels["stage2"]
    in_memory = bytes(atari.memory.peek(start + i) for i in range(len(stage)))
    assert in_memory == stage
    assert disk.image.read_sector(MENU_SECTOR)[-3 - len(stage) : -3] == stage
    assert atari.sio_sectors == [MENU_SECTOR]


def test_an_unreadable_menu_sector_stops_with_a_message() -> None:
    atari = Atari(menu_disk(), failures={MENU_SECTOR: 99})
    assert atari.call(BOOT_ADDRESS + 6) == "halted"
    assert atari.sio_sectors == [MENU_SECTOR] * 3
    screen = bytes(atari.memory.peek(SCREEN.start + i) for i in range(4, 14))
    assert screen == bytes([0x32, 0x25, 0x21, 0x24, 0, 0x25, 0x32, 0x32, 0x2F, 0x32])  # READ ERROR
    assert [atari.memory.peek(a) for a in HATABS_E] == [ord("E"), 0x00, 0xE4]  # not hooked
    atari.assert_only_documented_locations()
