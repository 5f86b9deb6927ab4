"""The SpartaDOS file system (SpartaDOS 1.1, 2.x/3.x and X; BW-DOS writes it too), read only.

SpartaDOS keeps no chains in its data sectors. Instead:

- Sector 1 is a superblock (after the OS's boot record bytes 0-8): bytes 9-10
  the root directory's sector map, 11-12 the sector count, 13-14 the free count,
  15 the number of bitmap sectors and 16-17 the first one, 22-29 the volume name,
  31 the sector size code, 32 the format revision ($11, $20; $21 = SpartaDOS X,
  which adds the sector size at 33-34, the entries per map sector at 35-36 and the
  sectors per cluster at 37).
- Every file and directory has a *sector map*: a chain of map sectors, each
  holding the next and previous map sector (words 0 and 1) and then the file's
  data sectors in order (0 = a sector of zeros never written: a sparse file).
- A directory is a file of 23-byte entries. The first is its header: the parent's
  map sector (bytes 1-2) and the directory's length in bytes (3-5). Then: status
  (bit 3 in use, bit 4 deleted, bit 5 subdirectory, bit 0 protected, bit 1
  hidden, bit 7 open for writing), sector map (2), size in bytes (3), name (8),
  extension (3), date (day, month, year) and time (hours, minutes, seconds).
- The bitmap: one bit per sector from sector 0, most significant bit first,
  1 = free, in the bitmap sectors that follow each other from bytes 16-17.

Sources: the SpartaDOS X user guide's disk format appendix as described by the
atari8bit tools that read it (Altirra's diskfssdx2.cpp, xedisk's sparta.d, atrfs's
sparta.c), checked on the real SpartaDOS, SpartaDOS X and BW-DOS disks of the test
corpus. ``a8 atr`` reads SpartaDOS disks (ls, get, check) and never writes them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

from a8.disk.atr import AtrImage
from a8.disk.filesystem import DirectoryTree, FileSystemError, Identity, columns, shape_of
from a8.disk.names import FileName
from a8.disk.problems import Checker, Problem, ProblemKind

#: Superblock (sector 1) fields used to recognise SpartaDOS.
SPARTA_REVISIONS = {0x11: "SpartaDOS 1.1", 0x20: "SpartaDOS 2.x/3.x", 0x21: "SpartaDOS X"}
SPARTA_SIZE_CODES = {0x80: 128, 0x00: 256, 0x01: 512}


def sparta_revision(image: AtrImage) -> str | None:
    """The SpartaDOS format name if sector 1 is a consistent superblock, else None.

    Byte 32 is the format revision ($11, $20 or $21), byte 31 codes the sector size
    ($80 = 128, $00 = 256, $01 = 512) and must match the image, byte 1 loads 3 boot
    sectors (1 with 512-byte sectors; 0 on disks a PC tool made without boot code),
    bytes 11-12 give the sector count (the image's, or more for a truncated image),
    byte 15 the number of bitmap sectors (enough for that count) and bytes 16-17 the
    first one, bytes 9-10 the root directory's sector map; all inside the disk.
    """
    boot = image.read_sector(1)
    if len(boot) < 40:
        return None
    revision = boot[32]
    if revision not in SPARTA_REVISIONS:
        return None
    if SPARTA_SIZE_CODES.get(boot[31]) != image.sector_size:
        return None
    if revision == 0x21 and struct.unpack_from("<H", boot, 33)[0] != image.sector_size:
        return None
    boot_sectors = 1 if image.sector_size == 512 else 3
    if boot[1] not in (boot_sectors, 0):  # 0: a disk made by a PC tool, with no boot code
        return None
    root, total, free, bitmaps, first_bitmap = struct.unpack_from("<HHHBH", boot, 9)
    if total < 16 or free > total:
        return None
    bits = image.sector_size * 8
    if not bitmaps or bitmaps * bits < total + 1 or (bitmaps - 1) * bits >= total + 1:
        return None
    last = min(total, image.sector_count)
    if not boot_sectors < first_bitmap <= last or first_bitmap + bitmaps - 1 > last:
        return None
    if not boot_sectors < root <= last:
        return None
    return SPARTA_REVISIONS[revision]


ENTRY_SIZE = 23
SUPERBLOCK = struct.Struct("<HHHBHHH8sBBB")
SUPERBLOCK_OFFSET = 9
#: Directory entry: status, sector map, size (3 bytes, read separately), name, ext, date, time.
ENTRY = struct.Struct("<BH3s8s3s3s3s")


class SpartaError(FileSystemError):
    """A SpartaDOS read that cannot be done (missing file, broken sector map...)."""


class Status:
    """Bits of a directory entry's status byte."""

    PROTECTED = 0x01
    HIDDEN = 0x02
    ARCHIVED = 0x04
    IN_USE = 0x08
    DELETED = 0x10
    DIRECTORY = 0x20
    OPEN = 0x80


@dataclass(frozen=True)
class Superblock:
    """Sector 1's file-system fields."""

    root_map: int
    total: int
    free: int
    bitmap_count: int
    first_bitmap: int
    volume: bytes
    revision: int
    entries_per_map: int
    sectors_per_cluster: int

    @classmethod
    def read(cls, image: AtrImage) -> Superblock:
        boot = image.read_sector(1)
        root, total, free, bitmaps, first_bitmap, _, _, volume, _, _, revision = (
            SUPERBLOCK.unpack_from(boot, SUPERBLOCK_OFFSET)
        )
        # A map sector holds its two links and then as many sector numbers as fit: the
        # count SpartaDOS X also writes in bytes 35-36 is computed, never trusted (as
        # Altirra does), so a damaged superblock cannot make a map longer than a sector.
        per_map = image.sector_size // 2 - 2
        per_cluster = (boot[37] or 1) if revision == 0x21 else 1
        return cls(root, total, free, bitmaps, first_bitmap, volume, revision, per_map, per_cluster)


@dataclass(frozen=True)
class SpartaEntry:
    """One directory entry (not the header)."""

    status: int
    map_sector: int
    size: int
    name: FileName
    date: tuple[int, int, int]
    time: tuple[int, int, int]
    #: The map sector of the directory that holds it.
    parent: int

    @property
    def is_end(self) -> bool:
        return self.status == 0

    @property
    def in_use(self) -> bool:
        return bool(self.status & Status.IN_USE) and not self.status & Status.DELETED

    @property
    def is_directory(self) -> bool:
        return self.in_use and bool(self.status & Status.DIRECTORY)

    @property
    def locked(self) -> bool:
        return bool(self.status & Status.PROTECTED)

    @property
    def open_for_output(self) -> bool:
        return self.in_use and bool(self.status & Status.OPEN)


@dataclass(frozen=True)
class MapWalk:
    """The map sectors and data sectors of one file, and what stopped the walk."""

    map_sectors: list[int]
    data_sectors: list[int]
    fault: str = ""


class SpartaDisk(DirectoryTree[SpartaEntry]):
    """A SpartaDOS file system, read from an ATR image."""

    names = tuple(SPARTA_REVISIONS.values())
    error = SpartaError

    def __init__(self, image: AtrImage, revision: str | None = None) -> None:
        revision = revision or sparta_revision(image)
        if revision is None:
            raise SpartaError(f"{image.source}: not a SpartaDOS disk")
        super().__init__(image, Identity(revision, shape_of(image)))
        self.revision_name = revision
        self.superblock = Superblock.read(image)

    @classmethod
    def recognise(cls, image: AtrImage) -> SpartaDisk | None:
        revision = sparta_revision(image)
        return None if revision is None else cls(image, revision)

    def _readable(self) -> None:
        """Refuse what a8 does not read: clusters of several sectors (hard-disk format)."""
        if self.superblock.sectors_per_cluster != 1:
            raise SpartaError(
                f"{self.source}: {self.superblock.sectors_per_cluster} sectors per cluster "
                "(SpartaDOS X hard-disk format) is not read by a8"
            )

    def heading(self) -> str:
        return f"{self.identity}, volume {self.volume_name.strip() or '(none)'}"

    def entry_line(self, entry: SpartaEntry) -> str:
        """SpartaDOS's listing: name, extension, size in bytes (or <DIR>), date and time."""
        lock = "*" if entry.locked else " "
        size = "<DIR>" if entry.is_directory else str(entry.size)
        day, month, year = entry.date
        hour, minute, _ = entry.time
        return (
            f"{lock} {columns(entry.name)} {size:>7} "
            f"{day:02d}-{month:02d}-{year:02d} {hour:02d}:{minute:02d}"
        )

    def free_line(self) -> str:
        return f"{self.superblock.free:03d} FREE SECTORS"

    def check(self) -> list[Problem]:
        self._readable()
        return _SpartaChecker(self).run()

    @property
    def boot_sectors(self) -> int:
        """Sectors 1..n hold the boot code: never a map or file data."""
        return 1 if self.image.sector_size == 512 else 3

    def _off(self, sector: int) -> str:
        return "a boot sector" if 1 <= sector <= self.boot_sectors else "outside the disk"

    @property
    def volume_name(self) -> str:
        return FileName(self.superblock.volume.rstrip(b" ")).name_text

    # -- sector maps ---------------------------------------------------------------

    def walk_map(self, first_map: int, size: int | None = None) -> MapWalk:
        """Follow a sector map from ``first_map``; stop at anything outside the disk or a loop.

        With ``size`` given, only the data sectors holding those bytes are taken
        (SpartaDOS may leave allocated sectors beyond the end of a file).
        """
        image = self.image
        per_map = self.superblock.entries_per_map
        size_bytes = image.sector_size
        wanted = None if size is None else -(-size // size_bytes)
        maps: list[int] = []
        data: list[int] = []
        sector = first_map
        while sector:
            if not self.boot_sectors < sector <= image.sector_count:
                return MapWalk(
                    maps, data, f"sector map reaches sector {sector}, {self._off(sector)}"
                )
            if sector in maps:
                return MapWalk(maps, data, f"sector map loops back to sector {sector}")
            maps.append(sector)
            raw = image.read_sector(sector)
            entries = struct.unpack_from(f"<{per_map}H", raw, 4)
            for number in entries:
                if wanted is not None and len(data) >= wanted:
                    break
                if number and not self.boot_sectors < number <= image.sector_count:
                    return MapWalk(
                        maps, data, f"sector map lists sector {number}, {self._off(number)}"
                    )
                data.append(number)
            if wanted is not None and len(data) >= wanted:
                break
            sector = raw[0] | raw[1] << 8
        if wanted is not None and len(data) < wanted:
            return MapWalk(maps, data, f"sector map ends after {len(data)} of {wanted} sectors")
        return MapWalk(maps, data)

    def read_map(self, first_map: int, size: int, what: str) -> bytes:
        """The ``size`` bytes of the file whose map starts at ``first_map``."""
        walked = self.walk_map(first_map, size)
        if walked.fault:
            raise SpartaError(f"{self.image.source}: {what}: {walked.fault}")
        parts = []
        for number in walked.data_sectors:
            if number == 0:
                parts.append(bytes(self.image.sector_size))
            else:
                parts.append(self.image.read_sector(number))
        return b"".join(parts)[:size]

    # -- directories ---------------------------------------------------------------

    def directory_length(self, map_sector: int) -> int:
        """The length in bytes of a directory, from its header (entry 0)."""
        walked = self.walk_map(map_sector)
        if walked.fault or not walked.data_sectors or walked.data_sectors[0] == 0:
            raise SpartaError(
                f"{self.image.source}: directory at map sector {map_sector}: "
                f"{walked.fault or 'no first sector'}"
            )
        head = self.image.read_sector(walked.data_sectors[0])
        return head[3] | head[4] << 8 | head[5] << 16

    def entries(self, map_sector: int) -> Iterator[SpartaEntry]:
        """The entries of the directory whose map starts at ``map_sector``, to its end."""
        length = self.directory_length(map_sector)
        data = self.read_map(map_sector, length, f"directory at map sector {map_sector}")
        for offset in range(ENTRY_SIZE, len(data) - ENTRY_SIZE + 1, ENTRY_SIZE):
            raw = data[offset : offset + ENTRY_SIZE]
            status, map_, size, name, ext, date, time = ENTRY.unpack(raw)
            entry = SpartaEntry(
                status,
                map_,
                size[0] | size[1] << 8 | size[2] << 16,
                FileName.from_entry(name, ext),
                (date[0], date[1], date[2]),
                (time[0], time[1], time[2]),
                map_sector,
            )
            if entry.is_end:
                return
            yield entry

    @property
    def root(self) -> int:
        return self.superblock.root_map

    def listed(self, directory: int | None = None) -> list[SpartaEntry]:
        """Files and subdirectories in use (hidden ones too), as DIR lists them."""
        self._readable()
        folder = self.superblock.root_map if directory is None else directory
        return [entry for entry in self.entries(folder) if entry.in_use]

    def subdirectory(self, entry: SpartaEntry) -> int | None:
        return entry.map_sector if entry.is_directory else None

    def read_entry(self, entry: SpartaEntry) -> bytes:
        return self.read_map(entry.map_sector, entry.size, str(entry.name))

    # -- the bitmap ------------------------------------------------------------------

    def free_in_bitmap(self) -> set[int]:
        """Sectors the bitmap marks free (1 bits), among sectors 0..total."""
        block = self.superblock
        raw = b"".join(
            self.image.read_sector(block.first_bitmap + i)
            for i in range(block.bitmap_count)
            if self.image.has_sector(block.first_bitmap + i)
        )
        free = set()
        for sector in range(0, min(block.total + 1, len(raw) * 8)):
            if raw[sector // 8] & (0x80 >> (sector % 8)):
                free.add(sector)
        return free


# -- check ------------------------------------------------------------------------------


class _SpartaChecker(Checker):
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
