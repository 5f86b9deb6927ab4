"""The DOS 2 family of file systems: DOS 2.0S, DOS 2.5 (enhanced), DOS 2.0D and MyDOS.

They share one design, and differ in a few numbers kept as data in
:class:`Geometry` (the rules of one disk):

- 1-3: boot sectors. 360: the VTOC: DOS code, total and free sector counts, then a
  bitmap with one bit per sector from sector 0, most significant bit first, 1 =
  free. 361-368: the directory, 8 entries of 16 bytes in the first 128 bytes of
  each sector (64 files).
- Data sectors end with three link bytes: file number << 2 | the next sector's top
  two bits, the next sector's low byte, and the count of bytes used. The file
  number is the entry's slot in its directory; a DOS checks it on every sector.
- **DOS 2.0S** (720 x 128) and **2.0D** (720 x 256): the bitmap covers sectors
  0-719; sector 720 cannot be used (DOS 2 counts sectors from 0, the drive from 1).
  Total 707.
- **DOS 2.5** (1040 x 128): sectors 720-1023 are mapped by a second VTOC in sector
  1024 (bytes 0-83 repeat the VTOC bitmap of sectors 48-719, bytes 84-121 map
  720-1023, bytes 122-123 count the free ones); sector 720 stays in use. A file
  using sectors from 720 up is flagged 0x03 instead of 0x42 so that DOS 2.0 leaves
  it alone. The VTOC's own free count covers sectors below 720 only.
- **MyDOS** (any size from 720 sectors, 128 or 256 bytes): sector 720 is an
  ordinary sector (708 sectors on a 720-sector disk); a bitmap longer than the
  VTOC sector continues in sectors 359, 358 ... (pairs of 128-byte sectors, one
  256-byte sector per step; the DOS code is 2 + the number of those 256-byte
  pages); subdirectories are entries flagged 0x10 whose 8 directory sectors start
  at the entry's first sector; on disks whose code is above 2, files are flagged
  0x46 and their links hold a 16-bit next sector and no file number.

The sources of these rules, checked against each other and against real disks,
are listed in docs/ATR.md. Everything here works on an in-memory
:class:`~a8.disk.atr.AtrImage`; the command line writes the image back
atomically only when an operation has fully succeeded.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from a8.disk.atr import AtrImage
from a8.disk.detect import FileSystemKind, identify
from a8.disk.names import (
    DOS2_NAMES,
    MYDOS_NAMES,
    FileNameError,
    NameRules,
    is_path,
    lookup,
    path_parts,
)
from a8.disk.names import FileName as FileName  # re-exported: callers build names here
from a8.errors import A8Error

VTOC_SECTOR = 360
DIRECTORY_SECTORS = range(361, 369)
ROOT_DIRECTORY = DIRECTORY_SECTORS.start
DIRECTORY_LENGTH = len(DIRECTORY_SECTORS)
ENTRIES_PER_SECTOR = 8
ENTRY_SIZE = 16
MAX_FILES = DIRECTORY_LENGTH * ENTRIES_PER_SECTOR
BOOT_SECTORS = range(1, 4)
#: Sector numbers are 10 bits in the ordinary links: nothing above 1023 can hold data.
HIGHEST_LINKABLE = 1023
#: The VTOC's bitmap covers sectors 0..719 in DOS 2; DOS 2.5's VTOC2 covers 720..1023.
FIRST_HIGH_SECTOR = 720
VTOC2_SECTOR = 1024

VTOC_DOS_CODE = 2
#: VTOC fields: DOS code, total usable sectors, free sectors (struct format, offset).
VTOC_HEADER = struct.Struct("<BHH")
VTOC_FREE_OFFSET = 3
VTOC_BITMAP_OFFSET = 10
VTOC_BITMAP_BYTES = 90
#: DOS 2.5's VTOC2: bytes 0..83 repeat the VTOC bitmap of sectors 48..719, bytes
#: 84..121 map sectors 720..1023, bytes 122..123 count the free sectors above 719.
VTOC2_MIRROR_BYTES = 84
VTOC2_MIRROR_FROM = VTOC_BITMAP_OFFSET + 6
VTOC2_BITMAP_OFFSET = 84
VTOC2_BITMAP_BYTES = 38
VTOC2_FREE = struct.Struct("<H")
VTOC2_FREE_OFFSET = 122

#: Directory entry: flag, sector count, start sector, name (8), extension (3).
DIRECTORY_ENTRY = struct.Struct("<BHH8s3s")


class Dos2Error(A8Error):
    """A DOS 2 operation that cannot be done (disk full, bad name, missing file...)."""


class Flag(enum.IntFlag):
    """Bits of a directory entry's flag byte."""

    OPEN_OR_HIGH = 0x01  # DOS 2.0: opened for output; DOS 2.5: uses sectors >= 720
    DOS2 = 0x02
    LONG_LINKS = 0x04  # MyDOS: links hold a 16-bit sector number, no file number
    SUBDIRECTORY = 0x10  # MyDOS
    LOCKED = 0x20
    IN_USE = 0x40
    DELETED = 0x80


#: The flag DOS 2 writes for an ordinary closed file.
FLAG_FILE = Flag.IN_USE | Flag.DOS2
#: The flag DOS 2.5 writes for a file that uses sectors 720 and above.
FLAG_HIGH_FILE = Flag.OPEN_OR_HIGH | Flag.DOS2
#: The flag MyDOS writes for a file with 16-bit links.
FLAG_LONG_FILE = FLAG_FILE | Flag.LONG_LINKS

# The same bits as plain ints, for the properties read once per entry per walk.
_OPEN, _LONG, _SUBDIRECTORY = int(Flag.OPEN_OR_HIGH), int(Flag.LONG_LINKS), int(Flag.SUBDIRECTORY)
_LOCKED, _IN_USE, _DELETED = int(Flag.LOCKED), int(Flag.IN_USE), int(Flag.DELETED)
_HIGH = int(FLAG_HIGH_FILE)


class Density(enum.Enum):
    """The three DOS 2 disk formats ``a8 atr new`` writes."""

    SINGLE = "single"
    ENHANCED = "enhanced"
    DOUBLE = "double"


@dataclass(frozen=True)
class Geometry:
    """The rules of one DOS 2 family disk: what differs between the variants."""

    kind: FileSystemKind
    sector_count: int
    sector_size: int
    #: Totals the variant writes in VTOC bytes 1-2 (the first is what ``new`` writes).
    capacities: tuple[int, ...]
    #: The VTOC sectors, in the order the bitmap runs through them.
    vtoc_sectors: tuple[int, ...] = (VTOC_SECTOR,)
    vtoc_code: int = VTOC_DOS_CODE
    has_vtoc2: bool = False
    names: NameRules = DOS2_NAMES
    long_links: bool = False

    @property
    def dos_name(self) -> str:
        return self.kind.value

    @property
    def is_mydos(self) -> bool:
        return self.kind is FileSystemKind.MYDOS

    @property
    def capacity(self) -> int:
        return self.capacities[0]

    @property
    def data_bytes(self) -> int:
        """File bytes per data sector (the last three bytes are the link)."""
        return self.sector_size - 3

    @property
    def highest_data_sector(self) -> int:
        if self.is_mydos:
            return self.sector_count
        return HIGHEST_LINKABLE if self.has_vtoc2 else FIRST_HIGH_SECTOR - 1

    @property
    def bitmap_end(self) -> int:
        """Sectors 0..bitmap_end-1 have a bit in the VTOC bitmap(s)."""
        return self.highest_data_sector + 1

    @property
    def bitmap_capacity(self) -> int:
        """Bits the VTOC sectors can hold (MyDOS: after the 10 header bytes)."""
        return (len(self.vtoc_sectors) * self.sector_size - VTOC_BITMAP_OFFSET) * 8


def _geometry(kind: FileSystemKind, count: int, size: int, capacities: tuple[int, ...]) -> Geometry:
    return Geometry(kind, count, size, capacities, has_vtoc2=kind is FileSystemKind.DOS_25)


GEOMETRIES = {
    Density.SINGLE: _geometry(FileSystemKind.DOS_20S, 720, 128, (707,)),
    Density.ENHANCED: _geometry(FileSystemKind.DOS_25, 1040, 128, (1010, 707)),
    Density.DOUBLE: _geometry(FileSystemKind.DOS_20D, 720, 256, (707,)),
}
_BY_KIND = {geometry.kind: geometry for geometry in GEOMETRIES.values()}


def mydos_vtoc_code(sector_count: int, sector_size: int) -> int:
    """The DOS code MyDOS writes for a disk of this size (2 + extra 256-byte pages).

    The first VTOC sector holds the bits of sectors 0..943 (128-byte sectors) or
    0..1023 (256-byte sectors, where the 10-bit links also stop); beyond that the
    whole bitmap is counted in 256-byte pages.
    """
    limit = 943 if sector_size == 128 else 1023
    if sector_count <= limit:
        return VTOC_DOS_CODE
    pages = -(-(VTOC_BITMAP_OFFSET + (sector_count + 1 + 7) // 8) // 256)
    return VTOC_DOS_CODE + pages


def mydos_vtoc_sectors(code: int, sector_size: int) -> tuple[int, ...]:
    """The VTOC sectors of a MyDOS disk with DOS code ``code``: 360, then down."""
    pages = max(code - VTOC_DOS_CODE, 0)
    count = 1 if pages == 0 else pages * (256 // sector_size)
    return tuple(VTOC_SECTOR - i for i in range(count))


def mydos_geometry(image: AtrImage) -> Geometry:
    code = image.read_sector(VTOC_SECTOR)[0]
    vtoc_sectors = mydos_vtoc_sectors(code, image.sector_size)
    capacity = image.sector_count - len(BOOT_SECTORS) - DIRECTORY_LENGTH - len(vtoc_sectors)
    return Geometry(
        FileSystemKind.MYDOS,
        image.sector_count,
        image.sector_size,
        (capacity,),
        vtoc_sectors=vtoc_sectors,
        vtoc_code=code,
        names=MYDOS_NAMES,
        long_links=code > VTOC_DOS_CODE,
    )


def geometry_of(image: AtrImage) -> Geometry:
    """The rules of ``image``, whose file system must be one of the DOS 2 family."""
    identity = identify(image)
    if identity.kind is FileSystemKind.MYDOS:
        return mydos_geometry(image)
    if identity.kind in _BY_KIND:
        return _BY_KIND[identity.kind]
    raise Dos2Error(f"{image.source}: not a DOS 2 disk: {identity}")


def system_sectors(geometry: Geometry) -> frozenset[int]:
    """Sectors that are never free nor file data: 0, boot, VTOC(s), root directory, 720."""
    reserved = {0, *BOOT_SECTORS, *geometry.vtoc_sectors, *DIRECTORY_SECTORS}
    if geometry.has_vtoc2:
        reserved |= {FIRST_HIGH_SECTOR, VTOC2_SECTOR}
    elif not geometry.is_mydos:
        reserved.add(FIRST_HIGH_SECTOR)
    return frozenset(reserved)


def bitmap_range(geometry: Geometry) -> range:
    """Sectors that have a bit in the VTOC bitmaps."""
    return range(0, geometry.bitmap_end)


@dataclass(frozen=True)
class DirectoryEntry:
    """One 16-byte slot of a directory (the root, or a MyDOS subdirectory)."""

    number: int
    flag: int
    sector_count: int
    start: int
    name: FileName
    #: First sector of the directory holding the entry.
    directory: int = ROOT_DIRECTORY

    @property
    def is_end(self) -> bool:
        """A never-used slot: DOS stops reading the directory here."""
        return self.flag == 0

    @property
    def deleted(self) -> bool:
        return bool(self.flag & _DELETED)

    @property
    def is_directory(self) -> bool:
        """A MyDOS subdirectory."""
        return self.flag & (_DELETED | _SUBDIRECTORY) == _SUBDIRECTORY

    @property
    def open_for_output(self) -> bool:
        """Flagged as being written (0x41, 0x43, 0x47): DOS does not show it."""
        return self.flag & (_DELETED | _IN_USE | _OPEN) == _IN_USE | _OPEN

    @property
    def uses_high_sectors(self) -> bool:
        """Flagged in DOS 2.5's form for a file with sectors from 720 up (0x03, not 0x42)."""
        return self.flag & ~_LOCKED == _HIGH

    @property
    def in_use(self) -> bool:
        """A file DOS shows: 0x40 set (not open for output), or DOS 2.5's 0x03 form."""
        flag = self.flag
        if flag & (_DELETED | _SUBDIRECTORY) or flag == 0:
            return False
        return flag & ~_LOCKED == _HIGH or flag & (_IN_USE | _OPEN) == _IN_USE

    @property
    def long_links(self) -> bool:
        return bool(self.flag & _LONG)

    @property
    def locked(self) -> bool:
        return bool(self.flag & _LOCKED)

    def pack(self) -> bytes:
        name, ext = self.name.raw()
        return DIRECTORY_ENTRY.pack(self.flag, self.sector_count, self.start, name, ext)

    @classmethod
    def unpack(cls, number: int, raw: bytes, directory: int = ROOT_DIRECTORY) -> DirectoryEntry:
        flag, count, start, name, ext = DIRECTORY_ENTRY.unpack(raw)
        return cls(number, flag, count, start, FileName.from_entry(name, ext), directory)


@dataclass(frozen=True)
class Link:
    """The three bytes that end every data sector."""

    file_number: int | None
    next_sector: int
    bytes_used: int

    def pack(self) -> bytes:
        if self.file_number is None:
            return bytes([self.next_sector >> 8, self.next_sector & 0xFF, self.bytes_used])
        return bytes(
            [
                (self.file_number << 2) | (self.next_sector >> 8),
                self.next_sector & 0xFF,
                self.bytes_used,
            ]
        )

    @classmethod
    def unpack(cls, raw: bytes, long: bool = False) -> Link:
        if len(raw) != 3:
            raise ValueError(f"a link is 3 bytes, not {len(raw)}")
        if long:
            return cls(None, raw[0] << 8 | raw[1], raw[2])
        return cls(raw[0] >> 2, ((raw[0] & 0x03) << 8) | raw[1], raw[2])


class ChainFault(enum.Enum):
    """Why a file's sector chain cannot be followed to its end."""

    OUT_OF_RANGE = "chain-out-of-range"
    SYSTEM_SECTOR = "chain-system-sector"
    LOOP = "chain-loop"
    FILE_NUMBER = "bad-file-number"
    BYTE_COUNT = "bad-byte-count"


@dataclass(frozen=True)
class Chain:
    """A file's sectors and links as far as they could be followed, and why it stopped."""

    sectors: list[tuple[int, Link]]
    fault: ChainFault | None = None
    fault_sector: int = 0
    message: str = ""
    #: Faults that do not stop the walk (DOS reads on): file numbers, byte counts.
    warnings: list[tuple[ChainFault, int, str]] = field(default_factory=list)


class Dos2Disk:
    """A DOS 2 family file system on an ATR image, changed in memory."""

    def __init__(self, image: AtrImage, geometry: Geometry | None = None) -> None:
        self.image = image
        self.geometry = geometry if geometry is not None else geometry_of(image)
        self.free = self._read_bitmap()

    # -- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, density: Density = Density.SINGLE, source: str = "<image>") -> Dos2Disk:
        """A formatted, empty disk: every sector free but the system's."""
        geometry = GEOMETRIES[density]
        image = AtrImage.blank(geometry.sector_count, geometry.sector_size, source)
        disk = cls(image, geometry)
        reserved = system_sectors(geometry)
        disk.free = {s for s in bitmap_range(geometry) if s not in reserved}
        vtoc = bytearray(image.read_sector(VTOC_SECTOR))
        VTOC_HEADER.pack_into(vtoc, 0, VTOC_DOS_CODE, geometry.capacity, 0)
        image.write_sector(VTOC_SECTOR, bytes(vtoc))
        disk._write_vtoc()
        return disk

    def to_bytes(self) -> bytes:
        return self.image.to_bytes()

    # -- the VTOC -----------------------------------------------------------------

    def vtoc_bytes(self) -> bytes:
        """The VTOC sectors joined in bitmap order (360, then 359 ... for MyDOS)."""
        return b"".join(self.image.read_sector(s) for s in self.geometry.vtoc_sectors)

    def _vtoc(self) -> bytes:
        return self.image.read_sector(VTOC_SECTOR)

    def _vtoc2(self) -> bytes:
        return self.image.read_sector(VTOC2_SECTOR)

    def _read_bitmap(self) -> set[int]:
        """Free sectors according to the VTOC bitmap(s) (the free counts are not used)."""
        geometry = self.geometry
        if geometry.has_vtoc2:
            free = set(bitmap_sectors(self._vtoc(), VTOC_BITMAP_OFFSET, 0, FIRST_HIGH_SECTOR))
            free |= set(
                bitmap_sectors(
                    self._vtoc2(), VTOC2_BITMAP_OFFSET, FIRST_HIGH_SECTOR, HIGHEST_LINKABLE + 1
                )
            )
            return free
        end = min(geometry.bitmap_end, geometry.bitmap_capacity)
        return set(bitmap_sectors(self.vtoc_bytes(), VTOC_BITMAP_OFFSET, 0, end))

    def _write_vtoc(self) -> None:
        """Write the bitmap(s) and free count(s); the DOS code and total stay as they are."""
        geometry = self.geometry
        if geometry.has_vtoc2:
            self._write_dos25_vtoc()
            return
        joined = bytearray(self.vtoc_bytes())
        end = min(geometry.bitmap_end, geometry.bitmap_capacity)
        bitmap = _bitmap_bytes(self.free, 0, end)
        start = VTOC_BITMAP_OFFSET
        # Keep the bits past the end of the disk as they are: only the last byte is shared.
        joined[start : start + len(bitmap) - 1] = bitmap[:-1]
        tail_bits = end % 8 or 8
        keep = 0xFF >> tail_bits
        last = start + len(bitmap) - 1
        joined[last] = (joined[last] & keep) | (bitmap[-1] & ~keep & 0xFF)
        struct.pack_into("<H", joined, VTOC_FREE_OFFSET, self.free_below(end))
        size = geometry.sector_size
        for index, sector in enumerate(geometry.vtoc_sectors):
            self.image.write_sector(sector, bytes(joined[index * size : (index + 1) * size]))

    def _write_dos25_vtoc(self) -> None:
        vtoc = bytearray(self._vtoc())
        vtoc[VTOC_BITMAP_OFFSET : VTOC_BITMAP_OFFSET + VTOC_BITMAP_BYTES] = _bitmap_bytes(
            self.free, 0, FIRST_HIGH_SECTOR
        )
        low_free = self.free_below(FIRST_HIGH_SECTOR)
        struct.pack_into("<H", vtoc, VTOC_FREE_OFFSET, low_free)
        self.image.write_sector(VTOC_SECTOR, bytes(vtoc))
        vtoc2 = bytearray(self._vtoc2())
        vtoc2[0:VTOC2_MIRROR_BYTES] = vtoc[
            VTOC2_MIRROR_FROM : VTOC2_MIRROR_FROM + VTOC2_MIRROR_BYTES
        ]
        vtoc2[VTOC2_BITMAP_OFFSET : VTOC2_BITMAP_OFFSET + VTOC2_BITMAP_BYTES] = _bitmap_bytes(
            self.free, FIRST_HIGH_SECTOR, HIGHEST_LINKABLE + 1
        )
        VTOC2_FREE.pack_into(vtoc2, VTOC2_FREE_OFFSET, len(self.free) - low_free)
        self.image.write_sector(VTOC2_SECTOR, bytes(vtoc2))

    def free_below(self, end: int) -> int:
        return sum(1 for s in self.free if s < end)

    def free_below_720(self) -> int:
        """Free sectors the VTOC's own count covers on DOS 2.5 (VTOC2 counts the rest)."""
        return self.free_below(FIRST_HIGH_SECTOR)

    @property
    def free_sectors(self) -> int:
        """Free sectors as DOS reports them (from the VTOC counts)."""
        total: int = VTOC_HEADER.unpack_from(self._vtoc())[2]
        if self.geometry.has_vtoc2:
            total += VTOC2_FREE.unpack_from(self._vtoc2(), VTOC2_FREE_OFFSET)[0]
        return total

    # -- directories --------------------------------------------------------------

    def entries(self, directory: int = ROOT_DIRECTORY) -> Iterator[DirectoryEntry]:
        """All 64 slots of the directory starting at sector ``directory``, in order."""
        for index in range(DIRECTORY_LENGTH):
            raw = self.image.read_sector(directory + index)
            for slot in range(ENTRIES_PER_SECTOR):
                offset = slot * ENTRY_SIZE
                yield DirectoryEntry.unpack(
                    index * ENTRIES_PER_SECTOR + slot,
                    raw[offset : offset + ENTRY_SIZE],
                    directory,
                )

    def listed(self, directory: int = ROOT_DIRECTORY) -> list[DirectoryEntry]:
        """Files and subdirectories up to the end marker, as DOS lists them."""
        found = []
        for entry in self.entries(directory):
            if entry.is_end:
                break
            if self.is_file(entry) or (self.geometry.is_mydos and entry.is_directory):
                found.append(entry)
        return found

    def is_file(self, entry: DirectoryEntry) -> bool:
        """A file DOS shows (DOS 2.5's 0x03 form only counts on DOS 2.5 disks)."""
        if entry.uses_high_sectors and not self.geometry.has_vtoc2:
            return False
        return entry.in_use

    def files(self, directory: int = ROOT_DIRECTORY) -> list[DirectoryEntry]:
        """Live files (not subdirectories) up to the directory's end marker."""
        return [entry for entry in self.listed(directory) if self.is_file(entry)]

    def directory_ok(self, start: int) -> bool:
        """Can sectors ``start``..``start+7`` hold a subdirectory (inside the disk, not system)?"""
        reserved = system_sectors(self.geometry)
        sectors = range(start, start + DIRECTORY_LENGTH)
        return all(4 <= s <= self.image.sector_count and s not in reserved for s in sectors)

    def resolve_directory(self, parts: list[str]) -> int:
        """The first sector of the subdirectory named by ``parts`` (from the root)."""
        directory = ROOT_DIRECTORY
        walked: list[str] = []
        for part in parts:
            entry = self._lookup(directory, part)
            walked.append(str(entry.name) if entry else part)
            where = f"{self.image.source}: {'>'.join(walked)}"
            if entry is None:
                raise Dos2Error(f"{where}: no such directory")
            if not entry.is_directory:
                raise Dos2Error(f"{where}: not a directory")
            if not self.directory_ok(entry.start):
                raise Dos2Error(
                    f"{where}: its sectors {entry.start}-{entry.start + 7} are not usable"
                )
            directory = entry.start
        return directory

    def _lookup(self, directory: int, wanted: str) -> DirectoryEntry | None:
        """The listed entry a user means by ``wanted``: exact spelling first, then any case."""
        return lookup(self.listed(directory), wanted, lambda entry: entry.name)

    def split_path(self, path: str) -> tuple[int, str]:
        """The directory sector and the last name of ``path`` (``DIR>NAME`` on MyDOS)."""
        if not (self.geometry.is_mydos and is_path(path)):
            return ROOT_DIRECTORY, path
        parts = path_parts(path)
        if not parts:
            raise Dos2Error(f"{self.image.source}: {path!r}: no file name")
        return self.resolve_directory(parts[:-1]), parts[-1]

    def find(self, name: str | FileName, directory: int | None = None) -> DirectoryEntry:
        """The live file called ``name`` (a path with subdirectories on MyDOS)."""
        if isinstance(name, FileName):
            wanted, folder = str(name), directory or ROOT_DIRECTORY
        else:
            folder, wanted = self.split_path(name) if directory is None else (directory, name)
        entry = self._lookup(folder, wanted)
        if entry is None:
            raise Dos2Error(f"{self.image.source}: no file {_shown(wanted)} on the disk")
        if entry.is_directory:
            raise Dos2Error(f"{self.image.source}: {entry.name} is a directory")
        return entry

    def _write_entry(self, entry: DirectoryEntry) -> None:
        sector = entry.directory + entry.number // ENTRIES_PER_SECTOR
        raw = bytearray(self.image.read_sector(sector))
        offset = (entry.number % ENTRIES_PER_SECTOR) * ENTRY_SIZE
        raw[offset : offset + ENTRY_SIZE] = entry.pack()
        self.image.write_sector(sector, bytes(raw))

    # -- reading ------------------------------------------------------------------

    def link(self, sector: int, long: bool = False) -> Link:
        """The link bytes that end data sector ``sector``."""
        raw = self.image.read_sector(sector)
        return Link.unpack(raw[self.geometry.data_bytes : self.geometry.sector_size], long)

    def walk(self, entry: DirectoryEntry) -> Chain:
        """Follow ``entry``'s chain as DOS would, noting every fault on the way.

        The walk stops at a sector outside the disk's data sectors, at a system
        sector (boot, VTOC, directory, 720, VTOC2: never file data), or where the
        chain loops; a wrong file number or byte count is noted and the walk goes
        on (DOS itself stops with an error there, so the file cannot be read).
        """
        geometry = self.geometry
        reserved = system_sectors(geometry)
        sectors: list[tuple[int, Link]] = []
        warnings: list[tuple[ChainFault, int, str]] = []
        seen: set[int] = set()
        sector = entry.start
        long = entry.long_links
        while True:
            if not 1 <= sector <= min(geometry.highest_data_sector, self.image.sector_count):
                return Chain(
                    sectors,
                    ChainFault.OUT_OF_RANGE,
                    sector,
                    f"chain reaches sector {sector}, outside the data sectors "
                    f"1..{min(geometry.highest_data_sector, self.image.sector_count)}",
                    warnings,
                )
            if sector in reserved:
                return Chain(
                    sectors,
                    ChainFault.SYSTEM_SECTOR,
                    sector,
                    f"chain reaches sector {sector}, a {system_role(geometry, sector)} sector",
                    warnings,
                )
            if sector in seen:
                return Chain(
                    sectors,
                    ChainFault.LOOP,
                    sector,
                    f"chain loops back to sector {sector}",
                    warnings,
                )
            seen.add(sector)
            link = self.link(sector, long)
            if not long and link.file_number != entry.number:
                warnings.append(
                    (
                        ChainFault.FILE_NUMBER,
                        sector,
                        f"sector {sector} carries file number {link.file_number}, "
                        f"not {entry.number}",
                    )
                )
            if link.bytes_used > geometry.data_bytes:
                warnings.append(
                    (
                        ChainFault.BYTE_COUNT,
                        sector,
                        f"sector {sector} claims {link.bytes_used} bytes used "
                        f"(at most {geometry.data_bytes})",
                    )
                )
            sectors.append((sector, link))
            if link.next_sector == 0:
                return Chain(sectors, warnings=_unnumbered(sectors, warnings))
            sector = link.next_sector

    def chain(self, entry: DirectoryEntry) -> list[tuple[int, Link]]:
        """The file's sectors and their links, refusing a chain DOS could not follow."""
        walked = self.walk(entry)
        where = f"{self.image.source}: {entry.name}"
        if walked.fault is not None:
            raise Dos2Error(f"{where}: {walked.message}")
        if walked.warnings:
            raise Dos2Error(f"{where}: {walked.warnings[0][2]}")
        return walked.sectors

    def read_file(self, name: str | FileName) -> bytes:
        entry = self.find(name)
        parts = []
        for sector, link in self.chain(entry):
            parts.append(self.image.read_sector(sector)[: link.bytes_used])
        return b"".join(parts)

    def all_files(self) -> Iterator[tuple[str, DirectoryEntry]]:
        """Every live file with its path (``DIR>NAME.EXT`` in MyDOS subdirectories)."""
        pending = [(ROOT_DIRECTORY, "")]
        seen: set[int] = set()
        while pending:
            directory, prefix = pending.pop(0)
            if directory in seen:
                continue
            seen.add(directory)
            for entry in self.listed(directory):
                if entry.is_directory:
                    if self.directory_ok(entry.start):
                        pending.append((entry.start, f"{prefix}{entry.name}>"))
                else:
                    yield f"{prefix}{entry.name}", entry

    # -- who owns what -------------------------------------------------------------

    def directories(self) -> Iterator[int]:
        """The first sector of the root and of every reachable MyDOS subdirectory."""
        pending = [ROOT_DIRECTORY]
        seen: set[int] = set()
        while pending:
            directory = pending.pop(0)
            if directory in seen:
                continue
            seen.add(directory)
            yield directory
            if not self.geometry.is_mydos:
                continue
            for entry in self.listed(directory):
                if entry.is_directory and self.directory_ok(entry.start):
                    pending.append(entry.start)

    def owned_sectors(self) -> set[int]:
        """Every sector a live file's chain or a subdirectory uses (as far as they go)."""
        owned: set[int] = set()
        for directory in self.directories():
            if directory != ROOT_DIRECTORY:
                owned.update(range(directory, directory + DIRECTORY_LENGTH))
            for entry in self.entries(directory):
                if entry.is_end:
                    break
                if self.is_file(entry) or entry.open_for_output:
                    owned.update(sector for sector, _ in self.walk(entry).sectors)
        return owned

    # -- writing ------------------------------------------------------------------

    def parse_new_name(self, text: str) -> FileName:
        """A new file's name under this disk's rules (Dos2Error if they refuse it)."""
        try:
            return FileName.parse(text, self.geometry.names)
        except FileNameError as error:
            raise Dos2Error(str(error)) from None

    def add_file(
        self, name: str | FileName, data: bytes, directory: int = ROOT_DIRECTORY
    ) -> DirectoryEntry:
        """Store ``data`` as a new file (replacing an unlocked file of that name).

        Everything that can refuse the file (a locked file of that name, a broken
        chain, a full directory, too few free sectors) is checked before anything
        changes, so a refused file leaves the disk as it was, in memory too.
        """
        file_name = name if isinstance(name, FileName) else self.parse_new_name(name)
        source = self.image.source
        existing = self._lookup(directory, str(file_name))
        reclaimed: set[int] = set()
        if existing is not None:
            if existing.is_directory:
                raise Dos2Error(f"{source}: {existing.name} is a directory")
            if existing.locked:
                raise Dos2Error(f"{source}: {existing.name} is locked")
            reclaimed = {sector for sector, _ in self.chain(existing)}
        elif not any(self._free_slot(e) for e in self.entries(directory)):
            raise Dos2Error(f"{source}: directory full ({MAX_FILES} files), cannot add {file_name}")
        geometry = self.geometry
        per_sector = geometry.data_bytes
        count = max(1, -(-len(data) // per_sector))
        reserved = system_sectors(geometry)
        in_use = self.owned_sectors() - reclaimed
        highest = min(geometry.highest_data_sector, self.image.sector_count)
        available = sorted(
            s
            for s in self.free | reclaimed
            if 1 <= s <= highest and s not in reserved and s not in in_use
        )
        if count > len(available):
            raise Dos2Error(
                f"{source}: disk full: {file_name} needs {count} sectors, {len(available)} free"
            )
        if existing is not None:
            self._delete(existing)
        slot = next(e for e in self.entries(directory) if self._free_slot(e))
        sectors = available[:count]
        long = geometry.long_links
        for index, sector in enumerate(sectors):
            chunk = data[index * per_sector : (index + 1) * per_sector]
            following = sectors[index + 1] if index + 1 < count else 0
            link = Link(None if long else slot.number, following, len(chunk))
            self.image.write_sector(sector, chunk.ljust(per_sector, b"\0") + link.pack())
            self.free.discard(sector)
        high = geometry.has_vtoc2 and any(s >= FIRST_HIGH_SECTOR for s in sectors)
        flag = FLAG_HIGH_FILE if high else FLAG_LONG_FILE if long else FLAG_FILE
        entry = DirectoryEntry(slot.number, int(flag), count, sectors[0], file_name, directory)
        self._write_entry(entry)
        self._write_vtoc()
        return entry

    @staticmethod
    def _free_slot(entry: DirectoryEntry) -> bool:
        return entry.is_end or entry.deleted

    def remove_file(self, name: str | FileName) -> None:
        entry = self.find(name)
        if entry.locked:
            raise Dos2Error(f"{self.image.source}: {entry.name} is locked")
        self._delete(entry)

    def _delete(self, entry: DirectoryEntry) -> None:
        """Free the file's sectors (never a system sector: the chain is checked first)."""
        sectors = [sector for sector, _ in self.chain(entry)]
        reserved = system_sectors(self.geometry)
        for sector in sectors:
            if sector in reserved:  # chain() refuses these; kept as a last guard
                raise Dos2Error(f"{self.image.source}: {entry.name}: system sector {sector}")
            self.free.add(sector)
        self._write_entry(replace(entry, flag=int(Flag.DELETED)))
        self._write_vtoc()

    def set_locked(self, name: str | FileName, locked: bool) -> None:
        entry = self.find(name)
        flag = entry.flag | Flag.LOCKED if locked else entry.flag & ~Flag.LOCKED
        self._write_entry(replace(entry, flag=int(flag)))

    def write_boot(self, code: bytes) -> None:
        """Put ``code`` (at most 384 bytes) in boot sectors 1-3."""
        if len(code) > 3 * 128:
            raise Dos2Error(f"{self.image.source}: boot code of {len(code)} bytes exceeds 384")
        padded = code.ljust(3 * 128, b"\0")
        for sector in BOOT_SECTORS:
            start = (sector - 1) * 128
            self.image.write_sector(sector, padded[start : start + 128])


def _unnumbered(
    sectors: list[tuple[int, Link]], warnings: list[tuple[ChainFault, int, str]]
) -> list[tuple[ChainFault, int, str]]:
    """Drop the file-number warnings of a chain whose links all carry file number 0.

    Some DOSes of the family do not number files (DOS II+/D on double-density
    disks, MyDOS's 16-bit links below sector 256): their links carry 0 in every
    sector. A chain that does so consistently is that form, not damage; one whose
    numbers differ from sector to sector is damage and keeps its warnings.
    """
    if sectors and all(link.file_number == 0 for _, link in sectors):
        return [w for w in warnings if w[0] is not ChainFault.FILE_NUMBER]
    return warnings


def system_role(geometry: Geometry, sector: int) -> str:
    """What system sector ``sector`` is, for messages."""
    if sector == 0:
        return "non-existent"
    if sector in BOOT_SECTORS:
        return "boot"
    if sector in geometry.vtoc_sectors or sector == VTOC2_SECTOR:
        return "VTOC"
    if sector in DIRECTORY_SECTORS:
        return "directory"
    return "reserved"


def _shown(text: str) -> str:
    """A user-given name, safe to print on one line."""
    return text if text.isprintable() else repr(text)


def bitmap_sectors(raw: bytes, offset: int, first: int, stop: int) -> Iterator[int]:
    """Free sectors among ``first..stop-1`` in a bitmap starting at ``raw[offset]``.

    DOS 2 bitmaps give one bit per sector, most significant bit first, 1 = free.
    Bits past the end of ``raw`` read as in use.
    """
    for sector in range(first, stop):
        bit = sector - first
        index = offset + bit // 8
        if index < len(raw) and raw[index] & (0x80 >> (bit % 8)):
            yield sector


def _bitmap_bytes(free: set[int], first: int, stop: int) -> bytes:
    """The bitmap of sectors ``first..stop-1`` (the inverse of :func:`bitmap_sectors`)."""
    out = bytearray(-(-(stop - first) // 8))
    for sector in range(first, stop):
        if sector in free:
            bit = sector - first
            out[bit // 8] |= 0x80 >> (bit % 8)
    return bytes(out)
