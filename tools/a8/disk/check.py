"""A file system check for DOS 2 disks: the VTOC against the files' sector chains.

DOS 2 keeps the same facts twice: which sectors a file owns (its chain of links, and
the count in its directory entry) and which sectors are free (the VTOC bitmap and
its free counts). The check rebuilds the first from the directory and chains and
compares it with the second, reporting every disagreement as one :class:`Problem`.
Each problem kind is something a real corruption produces; the tests corrupt an
image on purpose for every kind and expect it to be found.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from a8.disk.boot import menu_start_sectors
from a8.disk.dos2 import (
    FIRST_HIGH_SECTOR,
    VTOC2_FREE,
    VTOC2_FREE_OFFSET,
    VTOC2_MIRROR_BYTES,
    VTOC2_MIRROR_FROM,
    VTOC2_SECTOR,
    VTOC_DOS_CODE,
    VTOC_HEADER,
    VTOC_SECTOR,
    DirectoryEntry,
    Dos2Disk,
    Flag,
    bitmap_range,
    system_sectors,
)


class ProblemKind(enum.Enum):
    """What can be wrong on a DOS 2 disk."""

    VTOC_DOS_CODE = "vtoc-dos-code"
    VTOC_CAPACITY = "vtoc-capacity"
    FREE_COUNT = "free-count"
    VTOC2_MIRROR = "vtoc2-mirror"
    SYSTEM_SECTOR_FREE = "system-sector-free"
    BAD_FLAG = "bad-flag"
    FILE_OPEN = "file-open"
    BAD_NAME = "bad-name"
    DUPLICATE_NAME = "duplicate-name"
    ENTRY_AFTER_END = "entry-after-end"
    CHAIN_OUT_OF_RANGE = "chain-out-of-range"
    CHAIN_LOOP = "chain-loop"
    BAD_FILE_NUMBER = "bad-file-number"
    BAD_BYTE_COUNT = "bad-byte-count"
    CROSS_LINKED = "cross-linked"
    WRONG_SECTOR_COUNT = "wrong-sector-count"
    HIGH_FLAG = "high-flag"
    USED_SECTOR_FREE = "used-sector-free"
    LOST_SECTOR = "lost-sector"
    BOOT_MENU = "boot-menu"


@dataclass(frozen=True)
class Problem:
    """One disagreement, with a message a user can act on."""

    kind: ProblemKind
    message: str

    def __str__(self) -> str:
        return f"{self.message} [{self.kind.value}]"


#: Flag bytes DOS 2 and DOS 2.5 write for a closed file (plain or locked).
VALID_FILE_FLAGS = {0x42, 0x62}
VALID_HIGH_FLAGS = {0x03, 0x23}


def check_disk(disk: Dos2Disk) -> list[Problem]:
    """Every problem found on ``disk`` (an empty list means the disk is clean)."""
    return _Checker(disk).run()


class _Checker:
    def __init__(self, disk: Dos2Disk) -> None:
        self.disk = disk
        self.geometry = disk.geometry
        self.source = disk.image.source
        self.problems: list[Problem] = []
        #: sector -> name of its owner ("the VTOC", a file name ...)
        self.owner: dict[int, str] = {}

    def report(self, kind: ProblemKind, message: str) -> None:
        self.problems.append(Problem(kind, f"{self.source}: {message}"))

    def run(self) -> list[Problem]:
        self.check_vtoc_header()
        for sector in system_sectors(self.geometry):
            self.owner[sector] = "the system"
        self.check_directory()
        self.check_bitmap()
        self.check_boot_menu()
        return self.problems

    def check_vtoc_header(self) -> None:
        vtoc = self.disk.image.read_sector(VTOC_SECTOR)
        code, capacity, free = VTOC_HEADER.unpack_from(vtoc)
        if code != VTOC_DOS_CODE:
            self.report(
                ProblemKind.VTOC_DOS_CODE,
                f"VTOC sector {VTOC_SECTOR} byte 0: DOS code {code}, expected 2",
            )
        if capacity != self.geometry.capacity:
            self.report(
                ProblemKind.VTOC_CAPACITY,
                f"VTOC sector {VTOC_SECTOR} bytes 1-2: total {capacity} sectors, "
                f"expected {self.geometry.capacity} for {self.geometry.dos_name}",
            )
        low_free = self.disk.free_below_720()
        if free != low_free:
            self.report(
                ProblemKind.FREE_COUNT,
                f"VTOC sector {VTOC_SECTOR} bytes 3-4: {free} free sectors, "
                f"but the bitmap has {low_free}",
            )
        if self.geometry.has_vtoc2:
            vtoc2 = self.disk.image.read_sector(VTOC2_SECTOR)
            high_free = len(self.disk.free) - low_free
            (count,) = VTOC2_FREE.unpack_from(vtoc2, VTOC2_FREE_OFFSET)
            if count != high_free:
                self.report(
                    ProblemKind.FREE_COUNT,
                    f"VTOC2 sector {VTOC2_SECTOR} bytes 122-123: {count} free sectors "
                    f"above 719, but its bitmap has {high_free}",
                )
            mirror = vtoc[VTOC2_MIRROR_FROM : VTOC2_MIRROR_FROM + VTOC2_MIRROR_BYTES]
            if vtoc2[:VTOC2_MIRROR_BYTES] != mirror:
                self.report(
                    ProblemKind.VTOC2_MIRROR,
                    f"VTOC2 sector {VTOC2_SECTOR} bytes 0-83 differ from the VTOC bitmap "
                    "of sectors 48-719",
                )

    def check_directory(self) -> None:
        seen_names: dict[str, int] = {}
        ended = False
        for entry in self.disk.entries():
            where = f"directory entry {entry.number}"
            if entry.is_end:
                ended = True
                continue
            if entry.flag & Flag.DELETED:
                continue
            if ended:
                self.report(
                    ProblemKind.ENTRY_AFTER_END,
                    f"{where} ({entry.name}) follows the end of the directory: DOS never sees it",
                )
                continue
            self.check_flag(entry, where)
            if not entry.in_use:
                continue
            if not entry.name.is_valid():
                self.report(ProblemKind.BAD_NAME, f"{where}: bad file name {str(entry.name)!r}")
            key = str(entry.name)
            if key in seen_names:
                self.report(
                    ProblemKind.DUPLICATE_NAME,
                    f"{where}: {key} already in directory entry {seen_names[key]}",
                )
            seen_names.setdefault(key, entry.number)
            self.check_chain(entry)

    def check_flag(self, entry: DirectoryEntry, where: str) -> None:
        flag = entry.flag
        valid = set(VALID_FILE_FLAGS)
        if self.geometry.has_vtoc2:
            valid |= VALID_HIGH_FLAGS
        if flag in valid:
            return
        if flag & Flag.IN_USE and flag & Flag.OPEN_OR_HIGH:
            self.report(
                ProblemKind.FILE_OPEN,
                f"{where} ({entry.name}): flag {flag:02X}: file left open for output",
            )
        else:
            self.report(ProblemKind.BAD_FLAG, f"{where} ({entry.name}): bad flag {flag:02X}")

    def check_chain(self, entry: DirectoryEntry) -> None:
        where = f"{entry.name} (entry {entry.number})"
        sector = entry.start
        count = 0
        visited: set[int] = set()
        high = False
        while True:
            if not 1 <= sector <= self.geometry.highest_data_sector:
                self.report(
                    ProblemKind.CHAIN_OUT_OF_RANGE,
                    f"{where}: chain reaches sector {sector}, outside "
                    f"1..{self.geometry.highest_data_sector}",
                )
                break
            if sector in visited:
                self.report(ProblemKind.CHAIN_LOOP, f"{where}: chain loops back to sector {sector}")
                break
            visited.add(sector)
            count += 1
            high = high or sector >= FIRST_HIGH_SECTOR
            if sector in self.owner:
                self.report(
                    ProblemKind.CROSS_LINKED,
                    f"{where}: sector {sector} also belongs to {self.owner[sector]}",
                )
                break
            self.owner[sector] = str(entry.name)
            link = self.disk.link(sector)
            if link.file_number != entry.number:
                self.report(
                    ProblemKind.BAD_FILE_NUMBER,
                    f"{where}: sector {sector} carries file number {link.file_number}",
                )
            if link.bytes_used > self.geometry.data_bytes:
                self.report(
                    ProblemKind.BAD_BYTE_COUNT,
                    f"{where}: sector {sector} claims {link.bytes_used} bytes used "
                    f"(at most {self.geometry.data_bytes})",
                )
            if link.next_sector == 0:
                break
            sector = link.next_sector
        if count != entry.sector_count:
            self.report(
                ProblemKind.WRONG_SECTOR_COUNT,
                f"{where}: directory says {entry.sector_count} sectors, chain has {count}",
            )
        if self.geometry.has_vtoc2 and high != entry.uses_high_sectors:
            expected = "03" if high else "42"
            self.report(
                ProblemKind.HIGH_FLAG,
                f"{where}: flag {entry.flag:02X} but DOS 2.5 flags a file "
                f"{'using' if high else 'not using'} sectors 720+ as {expected}",
            )

    def check_bitmap(self) -> None:
        system = system_sectors(self.geometry)
        for sector in bitmap_range(self.geometry):
            is_free = sector in self.disk.free
            owner = self.owner.get(sector)
            if is_free and sector in system:
                self.report(
                    ProblemKind.SYSTEM_SECTOR_FREE,
                    f"sector {sector} is reserved for the system but marked free",
                )
            elif is_free and owner is not None:
                self.report(
                    ProblemKind.USED_SECTOR_FREE,
                    f"sector {sector} of {owner} is marked free in the VTOC",
                )
            elif not is_free and owner is None:
                self.report(
                    ProblemKind.LOST_SECTOR,
                    f"sector {sector} is marked in use but belongs to no file",
                )

    def check_boot_menu(self) -> None:
        """A boot menu of :mod:`a8.disk.boot` must still point at the files' first sectors."""
        boot = b"".join(self.disk.image.read_sector(s) for s in (1, 2, 3))
        starts = menu_start_sectors(boot)
        if starts is None:
            return
        files = {entry.start for entry in self.disk.files()}
        for number, start in enumerate(starts, start=1):
            if start not in files:
                self.report(
                    ProblemKind.BOOT_MENU,
                    f"boot menu entry {number} loads sector {start}, where no file starts "
                    "(run `a8 atr boot` again)",
                )
