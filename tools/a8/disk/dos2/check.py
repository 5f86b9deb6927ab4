"""``a8 atr check`` on the DOS 2 family: the VTOC, every directory entry and chain, the bitmap.

What is checked: the VTOC (DOS code, total, free counts, DOS 2.5's second VTOC
and its mirror; a VTOC that does not read as one at all), every directory entry
(flags, names, duplicates, entries after the end), every file's chain (inside the
data sectors, never through a system sector, no loops, file numbers, byte counts,
the directory's sector count, DOS 2.5's 0x03 flag), MyDOS subdirectories (their
eight sectors), the bitmap against the sectors really used, and a boot menu of
:mod:`a8.disk.boot` against the files' first sectors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from a8.disk.boot import MENU_SECTOR, BootError, menu_start_sectors
from a8.disk.dos2.chain import ChainFault
from a8.disk.dos2.directory import (
    VALID_FILE_FLAGS,
    VALID_HIGH_FLAGS,
    VALID_MYDOS_FLAGS,
    DirectoryEntry,
    plain_name,
)
from a8.disk.dos2.geometry import (
    DIRECTORY_LENGTH,
    FIRST_HIGH_SECTOR,
    ROOT_DIRECTORY,
    VTOC2_SECTOR,
    VTOC_SECTOR,
    bitmap_range,
    mydos_vtoc_code,
    system_sectors,
)
from a8.disk.dos2.recognise import vtoc_plausible
from a8.disk.dos2.vtoc import (
    VTOC2_FREE,
    VTOC2_FREE_OFFSET,
    VTOC2_MIRROR_BYTES,
    VTOC2_MIRROR_FROM,
    VTOC_HEADER,
)
from a8.disk.problems import Checker, Problem, ProblemKind

if TYPE_CHECKING:
    from a8.disk.dos2.disk import Dos2Disk

_CHAIN_KINDS = {
    ChainFault.OUT_OF_RANGE: ProblemKind.CHAIN_OUT_OF_RANGE,
    ChainFault.SYSTEM_SECTOR: ProblemKind.CHAIN_SYSTEM_SECTOR,
    ChainFault.LOOP: ProblemKind.CHAIN_LOOP,
    ChainFault.FILE_NUMBER: ProblemKind.BAD_FILE_NUMBER,
    ChainFault.BYTE_COUNT: ProblemKind.BAD_BYTE_COUNT,
}


def check_dos2(disk: Dos2Disk) -> list[Problem]:
    """Every problem found on a DOS 2 family disk (an empty list: the disk is clean)."""
    return _Dos2Checker(disk).run()


class _Dos2Checker(Checker):
    def __init__(self, disk: Dos2Disk) -> None:
        super().__init__(disk.image.source)
        self.disk = disk
        self.geometry = disk.geometry
        #: Sectors of files left open for output: neither free nor in use for sure.
        self.unsettled: set[int] = set()

    def run(self) -> list[Problem]:
        readable = vtoc_plausible(self.disk.image)
        if readable:
            self.check_vtoc_header()
        else:
            # Recognised by its directory alone: the VTOC's counts and bitmap mean
            # nothing, so they are not compared, one finding says why.
            damage = self.disk.damage or "damaged"
            self.report(
                ProblemKind.VTOC_UNREADABLE,
                f"VTOC sector {VTOC_SECTOR} does not read as a VTOC ({damage}): "
                "the files are read through the directory, the disk is not written",
            )
        for sector in system_sectors(self.geometry):
            self.owner[sector] = "the system"
        self.check_directory(ROOT_DIRECTORY, "")
        if readable:
            self.check_bitmap()
        self.check_boot_menu()
        return self.problems

    def check_vtoc_header(self) -> None:
        geometry = self.geometry
        vtoc = self.disk.image.read_sector(VTOC_SECTOR)
        code, capacity, free = VTOC_HEADER.unpack_from(vtoc)
        if geometry.is_mydos:
            expected_code = mydos_vtoc_code(geometry.sector_count, geometry.sector_size)
            if code != expected_code:
                self.report(
                    ProblemKind.VTOC_DOS_CODE,
                    f"VTOC sector {VTOC_SECTOR} byte 0: DOS code {code}, but MyDOS writes "
                    f"{expected_code} on a disk of {geometry.sector_count} sectors",
                )
        elif code != 2:
            self.report(
                ProblemKind.VTOC_DOS_CODE,
                f"VTOC sector {VTOC_SECTOR} byte 0: DOS code {code}, expected 2",
            )
        if capacity not in geometry.capacities:
            expected = " or ".join(str(c) for c in geometry.capacities)
            self.report(
                ProblemKind.VTOC_CAPACITY,
                f"VTOC sector {VTOC_SECTOR} bytes 1-2: total {capacity} sectors, "
                f"expected {expected} for {geometry.dos_name}",
            )
        counted_end = FIRST_HIGH_SECTOR if geometry.has_vtoc2 else geometry.bitmap_end
        counted = self.disk.free_below(counted_end)
        if free != counted:
            self.report(
                ProblemKind.FREE_COUNT,
                f"VTOC sector {VTOC_SECTOR} bytes 3-4: {free} free sectors, "
                f"but the bitmap has {counted}",
            )
        if geometry.has_vtoc2:
            vtoc2 = self.disk.image.read_sector(VTOC2_SECTOR)
            high_free = len(self.disk.free) - counted
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

    def check_directory(self, directory: int, path: str) -> None:
        seen_names: dict[str, int] = {}
        ended = False
        subdirectories: list[tuple[DirectoryEntry, str]] = []
        for entry in self.disk.entries(directory):
            where = f"{path}directory entry {entry.number}"
            if entry.is_end:
                ended = True
                continue
            if entry.deleted:
                continue
            if ended:
                self.report(
                    ProblemKind.ENTRY_AFTER_END,
                    f"{where} ({entry.name}) follows the end of the directory: DOS never sees it",
                )
                continue
            if not self.check_flag(entry, where):
                continue
            if not entry.name.follows(self.geometry.names) and not plain_name(entry):
                self.report(ProblemKind.BAD_NAME, f"{where}: bad file name {str(entry.name)!r}")
            key = str(entry.name).upper()
            if key in seen_names:
                self.report(
                    ProblemKind.DUPLICATE_NAME,
                    f"{where}: {entry.name} already in entry {seen_names[key]}",
                )
            seen_names.setdefault(key, entry.number)
            if entry.is_directory:
                subdirectories.append((entry, f"{path}{entry.name}>"))
            else:
                self.check_chain(entry, path)
        for entry, sub_path in subdirectories:
            self.check_subdirectory(entry, sub_path)

    def check_subdirectory(self, entry: DirectoryEntry, path: str) -> None:
        where = f"{path[:-1]} (a directory)"
        if not self.disk.directory_ok(entry.start):
            self.report(
                ProblemKind.BAD_DIRECTORY,
                f"{where}: its sectors {entry.start}-{entry.start + DIRECTORY_LENGTH - 1} "
                "are not usable directory sectors",
            )
            return
        sectors = range(entry.start, entry.start + DIRECTORY_LENGTH)
        if not all(self.claim(s, f"directory {path[:-1]}", where) for s in sectors):
            return
        self.check_directory(entry.start, path)

    def check_flag(self, entry: DirectoryEntry, where: str) -> bool:
        """Report a flag no DOS of the family writes; True if the entry is a file or directory."""
        flag = entry.flag
        valid = set(VALID_FILE_FLAGS)
        if self.geometry.has_vtoc2:
            valid |= VALID_HIGH_FLAGS
        if self.geometry.is_mydos:
            valid |= VALID_MYDOS_FLAGS
        if flag in valid:
            return True
        if entry.open_for_output:
            # A file whose writing never finished: DOS hides it, its chain and the
            # bitmap are whatever they were when the program stopped, so nothing
            # more is said about its sectors (add/rm still keep away from them).
            self.report(
                ProblemKind.FILE_OPEN,
                f"{where} ({entry.name}): flag {flag:02X}: file left open for output",
            )
            self.unsettled.update(sector for sector, _ in self.disk.walk_chain(entry).sectors)
        else:
            self.report(ProblemKind.BAD_FLAG, f"{where} ({entry.name}): bad flag {flag:02X}")
        return False

    def check_chain(self, entry: DirectoryEntry, path: str) -> None:
        where = f"{path}{entry.name} (entry {entry.number})"
        walked = self.disk.walk_chain(entry)
        high = False
        for sector, _ in walked.sectors:
            high = high or sector >= FIRST_HIGH_SECTOR
            if not self.claim(sector, f"{path}{entry.name}", where):
                return
        for fault, _, message in walked.warnings:
            self.report(_CHAIN_KINDS[fault], f"{where}: {message}")
        if walked.fault is not None:
            self.report(_CHAIN_KINDS[walked.fault], f"{where}: {walked.message}")
            if walked.fault is ChainFault.LOOP:
                return
        elif len(walked.sectors) != entry.sector_count:
            self.report(
                ProblemKind.WRONG_SECTOR_COUNT,
                f"{where}: directory says {entry.sector_count} sectors, "
                f"chain has {len(walked.sectors)}",
            )
        if self.geometry.has_vtoc2 and high != entry.uses_high_sectors:
            expected = "03" if high else "42"
            self.report(
                ProblemKind.HIGH_FLAG,
                f"{where}: flag {entry.flag:02X} but DOS 2.5 flags a file "
                f"{'using' if high else 'not using'} sectors 720+ as {expected}",
            )
        if self.geometry.long_links and not entry.long_links and not walked.fault:
            last = max((s for s, _ in walked.sectors), default=0)
            if last > 1023:
                self.report(
                    ProblemKind.BAD_FLAG,
                    f"{where}: flag {entry.flag:02X} has no 16-bit links but uses sector {last}",
                )

    def check_bitmap(self) -> None:
        geometry = self.geometry
        system = set(system_sectors(geometry))
        sectors = [
            s
            for s in bitmap_range(geometry)
            if s <= self.disk.image.sector_count and (s in self.owner or s not in self.unsettled)
        ]
        if geometry.is_mydos and FIRST_HIGH_SECTOR not in self.owner:
            # Disks made for MyDOS by tools that keep DOS 2's habit leave sector 720
            # marked in use (seen on the corpus's FujiNet disks): one sector, not lost.
            sectors = [s for s in sectors if s != FIRST_HIGH_SECTOR or s in self.disk.free]
        if geometry.has_vtoc2 and self._dos20_total():
            # A DOS 2.5 disk that keeps DOS 2.0's total of 707 leaves sectors 720-1023
            # out of the file system (its VTOC2 maps them in use): they are not lost.
            sectors = [s for s in sectors if s < FIRST_HIGH_SECTOR or s in self.disk.free]
        self.compare_bitmap(sectors, self.disk.free, system)

    def _dos20_total(self) -> bool:
        total: int = VTOC_HEADER.unpack_from(self.disk.image.read_sector(VTOC_SECTOR))[1]
        return total == 707

    def check_boot_menu(self) -> None:
        """A boot menu of :mod:`a8.disk.boot` must still point at the files' first sectors."""
        image = self.disk.image
        boot = b"".join(image.read_sector(s) for s in (1, 2, 3))
        menu = image.read_sector(MENU_SECTOR) if image.sector_count >= MENU_SECTOR else b""
        try:
            starts = menu_start_sectors(boot, menu)
        except BootError as error:
            self.report(ProblemKind.BOOT_MENU, str(error))
            return
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
