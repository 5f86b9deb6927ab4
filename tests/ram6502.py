"""64K of RAM for the 6502 routines the tests run in the py65 simulator: the boot
loader (tests/a8/disk), the shuffle and the fill routines (tests/machfsol/atari).

Each of those tests also proves where a routine reaches: every address it reads or
writes must be one the Atari lets it use. ``RecordingRam`` keeps those addresses;
``peek`` and ``poke`` set memory up and read results back without being counted.
"""

from __future__ import annotations


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
