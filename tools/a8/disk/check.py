"""``a8 atr check``: what is inconsistent on a disk, per file system.

Every file system keeps the same facts twice: which sectors each file owns (DOS
2's chains and directory counts, SpartaDOS's sector maps and sizes) and which
sectors are free (the bitmap and its free count). The checks rebuild the first
from the directories and compare it with the second, reporting every
disagreement as one :class:`Problem`. Each kind is something a real corruption
produces; the tests corrupt images on purpose for every kind, and the corpus of
real disks in tests/a8/disk/corpus must come out clean (or with the findings
recorded there, each one verified by hand).

What is checked, per file system:

- **any image**: the ATR header's size against the file (``atr-size``).
- **DOS 2.0S, 2.5, 2.0D, MyDOS**: the VTOC (DOS code, total, free counts, DOS
  2.5's second VTOC and its mirror), every directory entry (flags, names,
  duplicates, entries after the end), every file's chain (inside the data
  sectors, never through a system sector, no loops, file numbers, byte counts,
  the directory's sector count, DOS 2.5's 0x03 flag), MyDOS subdirectories
  (their eight sectors), and the bitmap against the sectors really used.
- **SpartaDOS**: the superblock (sector count, free count against the bitmap),
  every directory and file's sector map (inside the disk, no loops, long enough
  for the file's size), cross-links, and the bitmap against the sectors used.
- **DOS XE, no file system I know**: nothing beyond the header (the report says
  so).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from a8.disk.atr import AtrImage
from a8.disk.boot import BootError, menu_start_sectors
from a8.disk.detect import FileSystemKind, Identity, identify
from a8.disk.dos2 import (
    DIRECTORY_LENGTH,
    FIRST_HIGH_SECTOR,
    ROOT_DIRECTORY,
    VTOC2_FREE,
    VTOC2_FREE_OFFSET,
    VTOC2_MIRROR_BYTES,
    VTOC2_MIRROR_FROM,
    VTOC2_SECTOR,
    VTOC_HEADER,
    VTOC_SECTOR,
    ChainFault,
    DirectoryEntry,
    Dos2Disk,
    bitmap_range,
    mydos_vtoc_code,
    system_sectors,
)
from a8.disk.sparta import SpartaDisk, SpartaError, Status


class ProblemKind(enum.Enum):
    """What can be wrong on a disk. ``blocks_writing``: add/rm refuse such a disk."""

    ATR_SIZE = "atr-size"
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
    BAD_DIRECTORY = "bad-directory"
    CHAIN_OUT_OF_RANGE = "chain-out-of-range"
    CHAIN_SYSTEM_SECTOR = "chain-system-sector"
    CHAIN_LOOP = "chain-loop"
    BAD_FILE_NUMBER = "bad-file-number"
    BAD_BYTE_COUNT = "bad-byte-count"
    CROSS_LINKED = "cross-linked"
    WRONG_SECTOR_COUNT = "wrong-sector-count"
    HIGH_FLAG = "high-flag"
    USED_SECTOR_FREE = "used-sector-free"
    LOST_SECTOR = "lost-sector"
    BOOT_MENU = "boot-menu"
    SECTOR_COUNT = "sector-count"
    BAD_SECTOR_MAP = "bad-sector-map"

    @property
    def blocks_writing(self) -> bool:
        """A disk with this problem is not changed: writing could destroy data."""
        return self not in HARMLESS_TO_WRITES


#: Problems a write cannot make worse: sectors nobody uses, counts the write rewrites,
#: a stale boot menu, names and flags of other files, a file left open (add and rm
#: keep away from its sectors).
HARMLESS_TO_WRITES = frozenset(
    {
        ProblemKind.LOST_SECTOR,
        ProblemKind.FREE_COUNT,
        ProblemKind.VTOC2_MIRROR,
        ProblemKind.BOOT_MENU,
        ProblemKind.BAD_NAME,
        ProblemKind.HIGH_FLAG,
        ProblemKind.FILE_OPEN,
    }
)

_CHAIN_KINDS = {
    ChainFault.OUT_OF_RANGE: ProblemKind.CHAIN_OUT_OF_RANGE,
    ChainFault.SYSTEM_SECTOR: ProblemKind.CHAIN_SYSTEM_SECTOR,
    ChainFault.LOOP: ProblemKind.CHAIN_LOOP,
    ChainFault.FILE_NUMBER: ProblemKind.BAD_FILE_NUMBER,
    ChainFault.BYTE_COUNT: ProblemKind.BAD_BYTE_COUNT,
}


@dataclass(frozen=True)
class Problem:
    """One disagreement, with a message a user can act on."""

    kind: ProblemKind
    message: str

    def __str__(self) -> str:
        return f"{self.message} [{self.kind.value}]"


@dataclass(frozen=True)
class Report:
    """What ``check`` found on one image."""

    identity: Identity
    problems: list[Problem]
    #: False when the file system is one ``check`` cannot look into.
    checked: bool

    def blocking(self) -> list[Problem]:
        return [p for p in self.problems if p.kind.blocks_writing]


#: Flag bytes DOS 2 and DOS 2.5 write for a closed file (plain or locked).
VALID_FILE_FLAGS = {0x42, 0x62}
VALID_HIGH_FLAGS = {0x03, 0x23}
#: MyDOS adds 16-bit-link files and subdirectories (plain or locked).
VALID_MYDOS_FLAGS = {0x46, 0x66, 0x10, 0x30}


def check_image(image: AtrImage) -> Report:
    """Identify the file system on ``image`` and check it."""
    identity = identify(image)
    problems = container_problems(image)
    if identity.kind.dos2_family:
        problems += check_disk(Dos2Disk(image))
        return Report(identity, problems, True)
    if identity.kind is FileSystemKind.SPARTADOS:
        problems += check_sparta(SpartaDisk(image))
        return Report(identity, problems, True)
    return Report(identity, problems, False)


def container_problems(image: AtrImage) -> list[Problem]:
    mismatch = image.size_mismatch()
    if mismatch is None:
        return []
    return [Problem(ProblemKind.ATR_SIZE, f"{image.source}: ATR header: {mismatch}")]


def check_disk(disk: Dos2Disk) -> list[Problem]:
    """Every problem found on a DOS 2 family disk (an empty list: the disk is clean)."""
    return _Dos2Checker(disk).run()


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []
        #: sector -> name of its owner ("the system", a file name ...)
        self.owner: dict[int, str] = {}

    def report(self, kind: ProblemKind, message: str) -> None:
        self.problems.append(Problem(kind, f"{self.source}: {message}"))

    def claim(self, sector: int, owner: str, where: str) -> bool:
        """Record ``owner`` for ``sector``; report and refuse if someone has it already."""
        if sector in self.owner:
            self.report(
                ProblemKind.CROSS_LINKED,
                f"{where}: sector {sector} also belongs to {self.owner[sector]}",
            )
            return False
        self.owner[sector] = owner
        return True

    def compare_bitmap(self, sectors: Iterable[int], free: set[int], system: set[int]) -> None:
        """Every sector in use must be marked so, and every sector marked so must be used."""
        lost: list[int] = []
        for sector in sectors:
            is_free = sector in free
            owner = self.owner.get(sector)
            if is_free and sector in system:
                self.report(
                    ProblemKind.SYSTEM_SECTOR_FREE,
                    f"sector {sector} is reserved for the system but marked free",
                )
            elif is_free and owner is not None:
                self.report(
                    ProblemKind.USED_SECTOR_FREE,
                    f"sector {sector} of {owner} is marked free in the bitmap",
                )
            elif not is_free and owner is None:
                lost.append(sector)
        for first, last in _runs(lost):
            if first == last:
                message = f"sector {first} is marked in use but belongs to no file"
            else:
                message = f"sectors {first}-{last} are marked in use but belong to no file"
            self.report(ProblemKind.LOST_SECTOR, message)


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs in a sorted list: [3, 4, 5, 9] -> [(3, 5), (9, 9)]."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


class _Dos2Checker(_Checker):
    def __init__(self, disk: Dos2Disk) -> None:
        super().__init__(disk.image.source)
        self.disk = disk
        self.geometry = disk.geometry
        #: Sectors of files left open for output: neither free nor in use for sure.
        self.unsettled: set[int] = set()

    def run(self) -> list[Problem]:
        self.check_vtoc_header()
        for sector in system_sectors(self.geometry):
            self.owner[sector] = "the system"
        self.check_directory(ROOT_DIRECTORY, "")
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
            if not entry.name.follows(self.geometry.names) and not _plain_name(entry):
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
            self.unsettled.update(sector for sector, _ in self.disk.walk(entry).sectors)
        else:
            self.report(ProblemKind.BAD_FLAG, f"{where} ({entry.name}): bad flag {flag:02X}")
        return False

    def check_chain(self, entry: DirectoryEntry, path: str) -> None:
        where = f"{path}{entry.name} (entry {entry.number})"
        walked = self.disk.walk(entry)
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
        boot = b"".join(self.disk.image.read_sector(s) for s in (1, 2, 3))
        try:
            starts = menu_start_sectors(boot)
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


def _plain_name(entry: DirectoryEntry) -> bool:
    """Names that are odd but not damage: printable, no blanks inside, not empty.

    Tools that write disks on other computers store names no DOS would create
    (a digit first, ``&``, lower case): DOS lists them and wildcards reach them,
    so they are not reported. A name with control bytes, inner blanks or none at
    all is what a damaged directory sector looks like, and is reported.
    """
    raw = entry.name.name + entry.name.ext
    return bool(entry.name.name) and all(0x21 <= byte <= 0x7E for byte in raw)


# -- SpartaDOS ------------------------------------------------------------------------


def check_sparta(disk: SpartaDisk) -> list[Problem]:
    return _SpartaChecker(disk).run()


class _SpartaChecker(_Checker):
    def __init__(self, disk: SpartaDisk) -> None:
        super().__init__(disk.image.source)
        self.disk = disk
        self.block = disk.superblock

    def run(self) -> list[Problem]:
        image, block = self.disk.image, self.block
        if block.total != image.sector_count:
            self.report(
                ProblemKind.SECTOR_COUNT,
                f"superblock bytes 11-12: {block.total} sectors, "
                f"the image has {image.sector_count}",
            )
        boot = 1 if image.sector_size == 512 else 3
        self.owner[0] = "the system"
        for sector in range(1, boot + 1):
            self.owner[sector] = "the boot sectors"
        for index in range(block.bitmap_count):
            self.owner[block.first_bitmap + index] = "the bitmap"
        self.claim_dos_sectors(boot)
        self.check_directory(block.root_map, "", 0)
        free = self.disk.free_in_bitmap()
        counted = len(free)
        if counted != block.free:
            self.report(
                ProblemKind.FREE_COUNT,
                f"superblock bytes 13-14: {block.free} free sectors, but the bitmap has {counted}",
            )
        last = min(block.total, image.sector_count)
        system = {0, *range(1, boot + 1)}
        system |= {block.first_bitmap + i for i in range(block.bitmap_count)}
        if block.total not in self.owner and block.total not in free:
            # SpartaDOS leaves the very last sector of many disks unused and marked so
            # (seen on the corpus's SpartaDOS 3.x, X and BW-DOS disks; Altirra allows
            # for it too): that is not a lost sector.
            self.owner[block.total] = "SpartaDOS (the last sector)"
        self.compare_bitmap(range(1, last + 1), free, system)
        return self.problems

    def claim_dos_sectors(self, boot: int) -> None:
        """SpartaDOS 1.1 keeps DOS itself in the sectors after the boot sectors (byte 37)."""
        if self.block.revision != 0x11:
            return
        count = self.disk.image.read_sector(1)[37]
        for sector in range(boot + 1, boot + 1 + count):
            self.claim(sector, "SpartaDOS 1.1 (its DOS sectors)", "superblock byte 37")

    def claim_map(self, first_map: int, size: int | None, owner: str, where: str) -> bool:
        walked = self.disk.walk_map(first_map, size)
        ok = True
        for sector in walked.map_sectors:
            ok = self.claim(sector, owner, where) and ok
        for sector in walked.data_sectors:
            if sector:
                ok = self.claim(sector, owner, where) and ok
        if walked.fault:
            self.report(ProblemKind.BAD_SECTOR_MAP, f"{where}: {walked.fault}")
            return False
        return ok

    def check_directory(self, map_sector: int, path: str, depth: int) -> None:
        where = f"directory {path or '(root)'}"
        if depth > 32:
            self.report(
                ProblemKind.BAD_DIRECTORY, f"{where}: directories nested too deep (a loop?)"
            )
            return
        try:
            length = self.disk.directory_length(map_sector)
        except SpartaError as error:
            self.report(ProblemKind.BAD_DIRECTORY, f"{where}: {str(error).split(': ', 1)[-1]}")
            return
        if not self.claim_map(map_sector, length, f"directory {path or '(root)'}", where):
            return
        seen: dict[str, str] = {}
        for entry in self.disk.entries(map_sector):
            in_use, deleted = entry.status & Status.IN_USE, entry.status & Status.DELETED
            if bool(in_use) == bool(deleted):
                self.report(
                    ProblemKind.BAD_FLAG,
                    f"{where}: {entry.name}: status {entry.status:02X} is neither a file in "
                    "use nor a deleted one",
                )
                continue
            if not entry.in_use:
                continue
            name = f"{path}{entry.name}"
            key = str(entry.name).upper()
            if key in seen:
                self.report(ProblemKind.DUPLICATE_NAME, f"{where}: {entry.name} appears twice")
            seen[key] = name
            if entry.open_for_output:
                self.report(ProblemKind.FILE_OPEN, f"{name}: file left open for writing")
            if entry.is_directory:
                self.check_directory(entry.map_sector, name + ">", depth + 1)
            else:
                self.claim_map(entry.map_sector, entry.size, name, name)
