"""64K of RAM for the 6502 routines the tests run in the py65 simulator: the boot
loader (tests/a8/disk), the shuffle and the fill routines (tests/machfsol/atari); and
the call of a USR routine as BASIC makes it.

Each of those tests also proves where a routine reaches: every address it reads or
writes must be one the Atari lets it use. ``RecordingRam`` keeps those addresses;
``peek`` and ``poke`` set memory up and read results back without being counted.
"""

from __future__ import annotations

from py65.devices.mpu6502 import MPU


class Ram(list[int]):
    """64K of RAM, every byte ``fill`` to start with."""

    def __init__(self, fill: int = 0) -> None:
        super().__init__([fill] * 0x10000)
        self.reads: set[int] = set()
        self.writes: set[int] = set()

    def peek(self, address: int) -> int:
        return list.__getitem__(self, address)

    def poke(self, address: int, data: bytes | list[int]) -> None:
        for offset, value in enumerate(data):
            list.__setitem__(self, address + offset, value)


class RecordingRam(Ram):
    """Ram that records every address the simulated CPU reads and writes (slower);
    writes into ``rom`` (a cartridge, say) are recorded and change nothing."""

    def __init__(self, fill: int = 0, rom: range = range(0)) -> None:
        super().__init__(fill)
        self.rom = rom

    def __getitem__(self, address: int) -> int:  # type: ignore[override]
        self.reads.add(address)
        return super().__getitem__(address)

    def __setitem__(self, address: int, value: int) -> None:  # type: ignore[override]
        self.writes.add(address)
        if address not in self.rom:
            super().__setitem__(address, value)


#: Where a USR routine returns to in the simulator: the call is over when the CPU gets
#: there (nothing is run at that address).
RETURN_ADDRESS = 0xFFF0


def call_usr(memory: Ram, routine: int, arguments: list[int], steps: int = 200_000) -> None:
    """Run the routine at ``routine`` as BASIC's ``USR(routine, arguments...)`` calls it:
    the return address and each argument (high byte on top) on the stack, their count
    last; the addresses read and written before the call are forgotten. Fails if it
    does not return, or leaves the stack unbalanced."""
    mpu = MPU(memory=memory)
    mpu.sp = 0xF0
    pushed = [(RETURN_ADDRESS - 1) >> 8, (RETURN_ADDRESS - 1) & 0xFF]  # as JSR leaves it
    for value in reversed(arguments):  # PLA then takes the first argument's high byte
        pushed += [value & 0xFF, value >> 8]
    for value in [*pushed, len(arguments)]:
        memory[0x0100 + mpu.sp] = value
        mpu.sp -= 1
    memory.reads.clear()
    memory.writes.clear()
    mpu.pc = routine
    for _ in range(steps):
        if mpu.pc == RETURN_ADDRESS:
            assert mpu.sp == 0xF0, "the routine left the stack unbalanced"
            return
        mpu.step()
    raise AssertionError("the routine did not return")
