"""The Atari DOS 2 file system (DOS 2.0S, DOS 2.5 enhanced, DOS 2.0D) on an ATR image.

Layout (sector numbers from 1):

- 1-3: boot sectors (DOS.SYS's loader, or :mod:`a8.disk.boot`'s menu loader).
- 360: the VTOC: DOS code 2, total and free sector counts, and a bitmap with one bit
  per sector 0..719 (most significant bit first, 1 = free).
- 361-368: the directory, 8 entries of 16 bytes per sector (64 files).
- data sectors: the file's bytes, then three link bytes: file number << 2 | the next
  sector's top two bits, the next sector's low byte, and the count of bytes used.
- DOS 2.5 enhanced density adds sectors 720..1023, tracked by a second VTOC in sector
  1024; a file that uses any of them is flagged 0x03 instead of 0x42 so that DOS 2.0
  leaves it alone.

Everything here works on an in-memory :class:`~a8.disk.atr.AtrImage`; the command
line writes the image back atomically only when an operation has fully succeeded.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterator
from dataclasses import dataclass, replace

from a8.disk.atr import AtrImage
from a8.errors import A8Error

VTOC_SECTOR = 360
DIRECTORY_SECTORS = range(361, 369)
ENTRIES_PER_SECTOR = 8
ENTRY_SIZE = 16
MAX_FILES = len(DIRECTORY_SECTORS) * ENTRIES_PER_SECTOR
BOOT_SECTORS = range(1, 4)
#: Sector numbers are 10 bits in the links: nothing above 1023 can hold data.
HIGHEST_LINKABLE = 1023
#: The VTOC's bitmap covers sectors 0..719; DOS 2.5's second VTOC covers 720..1023.
FIRST_HIGH_SECTOR = 720
VTOC2_SECTOR = 1024

VTOC_DOS_CODE = 2
#: VTOC fields: DOS code, total usable sectors, free sectors (struct format, offset).
VTOC_HEADER = struct.Struct("<BHH")
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
    LOCKED = 0x20
    IN_USE = 0x40
    DELETED = 0x80


#: The flag DOS 2 writes for an ordinary closed file.
FLAG_FILE = Flag.IN_USE | Flag.DOS2
#: The flag DOS 2.5 writes for a file that uses sectors 720 and above.
FLAG_HIGH_FILE = Flag.OPEN_OR_HIGH | Flag.DOS2


class Density(enum.Enum):
    """The three DOS 2 disk formats."""

    SINGLE = "single"
    ENHANCED = "enhanced"
    DOUBLE = "double"


@dataclass(frozen=True)
class Geometry:
    """What differs between the densities: sizes, capacity, and the second VTOC."""

    density: Density
    sector_count: int
    sector_size: int
    capacity: int
    dos_name: str
    has_vtoc2: bool

    @property
    def data_bytes(self) -> int:
        """File bytes per data sector (the last three bytes are the link)."""
        return self.sector_size - 3

    @property
    def highest_data_sector(self) -> int:
        return HIGHEST_LINKABLE if self.has_vtoc2 else FIRST_HIGH_SECTOR - 1


GEOMETRIES = {
    Density.SINGLE: Geometry(Density.SINGLE, 720, 128, 707, "DOS 2.0S", False),
    Density.ENHANCED: Geometry(Density.ENHANCED, 1040, 128, 1010, "DOS 2.5", True),
    Density.DOUBLE: Geometry(Density.DOUBLE, 720, 256, 707, "DOS 2.0D", False),
}


def system_sectors(geometry: Geometry) -> frozenset[int]:
    """Sectors that are never free: 0 (no such sector), boot, VTOC(s), directory, 720."""
    reserved = {0, *BOOT_SECTORS, VTOC_SECTOR, *DIRECTORY_SECTORS}
    if geometry.has_vtoc2:
        reserved.add(FIRST_HIGH_SECTOR)
    return frozenset(reserved)


def bitmap_range(geometry: Geometry) -> range:
    """Sectors that have a bit in the VTOC bitmaps."""
    return range(0, geometry.highest_data_sector + 1)


@dataclass(frozen=True)
class FileName:
    """A DOS 2 file name: 1-8 characters and an extension of 0-3 (letters, digits)."""

    name: str
    ext: str

    @classmethod
    def parse(cls, text: str) -> FileName:
        base, _, ext = text.upper().partition(".")
        where = f"file name {text!r}"
        if not base or len(base) > 8:
            raise Dos2Error(f"{where}: the name needs 1 to 8 characters before the dot")
        if len(ext) > 3 or "." in ext:
            raise Dos2Error(f"{where}: the extension has at most 3 characters")
        if not base[0].isascii() or not base[0].isalpha():
            raise Dos2Error(f"{where}: the name must start with a letter")
        for char in base + ext:
            if not (char.isascii() and char.isalnum()):
                raise Dos2Error(f"{where}: {char!r} is not a letter or digit")
        return cls(base, ext)

    @classmethod
    def from_entry(cls, name: bytes, ext: bytes) -> FileName:
        return cls(
            name.decode("latin-1").rstrip(" "),
            ext.decode("latin-1").rstrip(" "),
        )

    def raw(self) -> tuple[bytes, bytes]:
        return (
            self.name.ljust(8).encode("latin-1"),
            self.ext.ljust(3).encode("latin-1"),
        )

    def is_valid(self) -> bool:
        try:
            return FileName.parse(str(self)) == self
        except Dos2Error:
            return False

    def __str__(self) -> str:
        return f"{self.name}.{self.ext}" if self.ext else self.name


@dataclass(frozen=True)
class DirectoryEntry:
    """One 16-byte slot of the directory."""

    number: int
    flag: int
    sector_count: int
    start: int
    name: FileName

    @property
    def in_use(self) -> bool:
        """A live file: DOS 2's 0x40 bit, or DOS 2.5's 0x03 high-sector form."""
        if self.flag & Flag.DELETED:
            return False
        return bool(self.flag & Flag.IN_USE) or self.uses_high_sectors

    @property
    def uses_high_sectors(self) -> bool:
        """Flagged in DOS 2.5's form for a file with sectors from 720 up (0x03, not 0x42)."""
        return self.flag & FLAG_HIGH_FILE == FLAG_HIGH_FILE and not self.flag & Flag.IN_USE

    @property
    def is_end(self) -> bool:
        """A never-used slot: DOS stops reading the directory here."""
        return self.flag == 0

    @property
    def locked(self) -> bool:
        return bool(self.flag & Flag.LOCKED)

    def pack(self) -> bytes:
        name, ext = self.name.raw()
        return DIRECTORY_ENTRY.pack(self.flag, self.sector_count, self.start, name, ext)

    @classmethod
    def unpack(cls, number: int, raw: bytes) -> DirectoryEntry:
        flag, count, start, name, ext = DIRECTORY_ENTRY.unpack(raw)
        return cls(number, flag, count, start, FileName.from_entry(name, ext))


@dataclass(frozen=True)
class Link:
    """The three bytes that end every data sector."""

    file_number: int
    next_sector: int
    bytes_used: int

    def pack(self) -> bytes:
        return bytes(
            [
                (self.file_number << 2) | (self.next_sector >> 8),
                self.next_sector & 0xFF,
                self.bytes_used,
            ]
        )

    @classmethod
    def unpack(cls, raw: bytes) -> Link:
        return cls(raw[0] >> 2, ((raw[0] & 0x03) << 8) | raw[1], raw[2])


def geometry_of(image: AtrImage) -> Geometry:
    for geometry in GEOMETRIES.values():
        if (image.sector_count, image.sector_size) == (
            geometry.sector_count,
            geometry.sector_size,
        ):
            return geometry
    raise Dos2Error(
        f"{image.source}: {image.sector_count} sectors of {image.sector_size} bytes is not "
        "a DOS 2 disk (720x128, 1040x128 or 720x256)"
    )


class Dos2Disk:
    """A DOS 2 file system on an ATR image, changed in memory."""

    def __init__(self, image: AtrImage) -> None:
        self.image = image
        self.geometry = geometry_of(image)
        self.free = self._read_bitmap()

    # -- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, density: Density = Density.SINGLE, source: str = "<image>") -> Dos2Disk:
        """A formatted, empty disk: every sector free but the system's."""
        geometry = GEOMETRIES[density]
        disk = cls(AtrImage.blank(geometry.sector_count, geometry.sector_size, source))
        reserved = system_sectors(geometry)
        disk.free = {s for s in bitmap_range(geometry) if s not in reserved}
        disk._write_vtoc()
        return disk

    def to_bytes(self) -> bytes:
        return self.image.to_bytes()

    # -- the VTOC -----------------------------------------------------------------

    def _vtoc(self) -> bytes:
        return self.image.read_sector(VTOC_SECTOR)[:128]

    def _vtoc2(self) -> bytes:
        return self.image.read_sector(VTOC2_SECTOR)

    def _read_bitmap(self) -> set[int]:
        """Free sectors according to the VTOC bitmap(s) (the free counts are not used)."""
        free = set(bitmap_sectors(self._vtoc(), VTOC_BITMAP_OFFSET, 0, FIRST_HIGH_SECTOR))
        if self.geometry.has_vtoc2:
            free |= set(
                bitmap_sectors(
                    self._vtoc2(),
                    VTOC2_BITMAP_OFFSET,
                    FIRST_HIGH_SECTOR,
                    HIGHEST_LINKABLE + 1,
                )
            )
        return free

    def _write_vtoc(self) -> None:
        geometry = self.geometry
        low_free = self.free_below_720()
        vtoc = bytearray(self.image.read_sector(VTOC_SECTOR))
        VTOC_HEADER.pack_into(vtoc, 0, VTOC_DOS_CODE, geometry.capacity, low_free)
        vtoc[VTOC_BITMAP_OFFSET : VTOC_BITMAP_OFFSET + VTOC_BITMAP_BYTES] = _bitmap_bytes(
            self.free, 0, FIRST_HIGH_SECTOR
        )
        self.image.write_sector(VTOC_SECTOR, bytes(vtoc))
        if geometry.has_vtoc2:
            vtoc2 = bytearray(self._vtoc2())
            vtoc2[0:VTOC2_MIRROR_BYTES] = vtoc[
                VTOC2_MIRROR_FROM : VTOC2_MIRROR_FROM + VTOC2_MIRROR_BYTES
            ]
            vtoc2[VTOC2_BITMAP_OFFSET : VTOC2_BITMAP_OFFSET + VTOC2_BITMAP_BYTES] = _bitmap_bytes(
                self.free, FIRST_HIGH_SECTOR, HIGHEST_LINKABLE + 1
            )
            high_free = len(self.free) - low_free
            VTOC2_FREE.pack_into(vtoc2, VTOC2_FREE_OFFSET, high_free)
            self.image.write_sector(VTOC2_SECTOR, bytes(vtoc2))

    def free_below_720(self) -> int:
        """Free sectors the VTOC's own count covers (DOS 2.5's VTOC2 counts the rest)."""
        return sum(1 for s in self.free if s < FIRST_HIGH_SECTOR)

    @property
    def free_sectors(self) -> int:
        """Free sectors as DOS reports them (from the VTOC counts)."""
        total: int = VTOC_HEADER.unpack_from(self._vtoc())[2]
        if self.geometry.has_vtoc2:
            total += VTOC2_FREE.unpack_from(self._vtoc2(), VTOC2_FREE_OFFSET)[0]
        return total

    # -- the directory ------------------------------------------------------------

    def entries(self) -> Iterator[DirectoryEntry]:
        """All 64 directory slots, in order."""
        for index, sector in enumerate(DIRECTORY_SECTORS):
            raw = self.image.read_sector(sector)
            for slot in range(ENTRIES_PER_SECTOR):
                offset = slot * ENTRY_SIZE
                yield DirectoryEntry.unpack(
                    index * ENTRIES_PER_SECTOR + slot, raw[offset : offset + ENTRY_SIZE]
                )

    def files(self) -> list[DirectoryEntry]:
        """Live files up to the directory's end marker, as DOS lists them."""
        found = []
        for entry in self.entries():
            if entry.is_end:
                break
            if entry.in_use:
                found.append(entry)
        return found

    def find(self, name: str | FileName) -> DirectoryEntry:
        wanted = name if isinstance(name, FileName) else FileName.parse(name)
        for entry in self.files():
            if entry.name == wanted:
                return entry
        raise Dos2Error(f"{self.image.source}: no file {wanted} on the disk")

    def _write_entry(self, entry: DirectoryEntry) -> None:
        sector = DIRECTORY_SECTORS[entry.number // ENTRIES_PER_SECTOR]
        raw = bytearray(self.image.read_sector(sector))
        offset = (entry.number % ENTRIES_PER_SECTOR) * ENTRY_SIZE
        raw[offset : offset + ENTRY_SIZE] = entry.pack()
        self.image.write_sector(sector, bytes(raw))

    # -- reading ------------------------------------------------------------------

    def chain(self, entry: DirectoryEntry) -> list[tuple[int, Link]]:
        """The file's sectors and their links, refusing broken chains."""
        where = f"{self.image.source}: {entry.name}"
        sectors: list[tuple[int, Link]] = []
        seen: set[int] = set()
        sector = entry.start
        while True:
            if not 1 <= sector <= self.geometry.highest_data_sector:
                raise Dos2Error(f"{where}: chain reaches sector {sector}, outside the disk")
            if sector in seen:
                raise Dos2Error(f"{where}: chain loops back to sector {sector}")
            seen.add(sector)
            link = self.link(sector)
            if link.file_number != entry.number:
                raise Dos2Error(
                    f"{where}: sector {sector} belongs to file number {link.file_number}, "
                    f"not {entry.number}"
                )
            if link.bytes_used > self.geometry.data_bytes:
                raise Dos2Error(f"{where}: sector {sector} claims {link.bytes_used} bytes")
            sectors.append((sector, link))
            if link.next_sector == 0:
                return sectors
            sector = link.next_sector

    def link(self, sector: int) -> Link:
        """The link bytes that end data sector ``sector``."""
        raw = self.image.read_sector(sector)
        return Link.unpack(raw[self.geometry.data_bytes : self.geometry.sector_size])

    def read_file(self, name: str | FileName) -> bytes:
        entry = self.find(name)
        parts = []
        for sector, link in self.chain(entry):
            parts.append(self.image.read_sector(sector)[: link.bytes_used])
        return b"".join(parts)

    # -- writing ------------------------------------------------------------------

    def add_file(self, name: str | FileName, data: bytes) -> DirectoryEntry:
        """Store ``data`` as a new file (replacing an unlocked file of that name).

        Everything that can refuse the file (a locked file of that name, a broken
        chain, a full directory, too few free sectors) is checked before anything
        changes, so a refused file leaves the disk as it was, in memory too.
        """
        file_name = name if isinstance(name, FileName) else FileName.parse(name)
        source = self.image.source
        existing = next((e for e in self.files() if e.name == file_name), None)
        reclaimed: set[int] = set()
        if existing is not None:
            if existing.locked:
                raise Dos2Error(f"{source}: {existing.name} is locked")
            reclaimed = {sector for sector, _ in self.chain(existing)}
        elif not any(e.is_end or e.flag & Flag.DELETED for e in self.entries()):
            raise Dos2Error(f"{source}: directory full ({MAX_FILES} files), cannot add {file_name}")
        per_sector = self.geometry.data_bytes
        count = max(1, -(-len(data) // per_sector))
        reserved = system_sectors(self.geometry)
        available = sorted(
            s
            for s in self.free | reclaimed
            if s <= self.geometry.highest_data_sector and s not in reserved
        )
        if count > len(available):
            raise Dos2Error(
                f"{source}: disk full: {file_name} needs {count} sectors, {len(available)} free"
            )
        if existing is not None:
            self.remove_file(existing.name)
        slot = next(e for e in self.entries() if e.is_end or e.flag & Flag.DELETED)
        sectors = available[:count]
        for index, sector in enumerate(sectors):
            chunk = data[index * per_sector : (index + 1) * per_sector]
            following = sectors[index + 1] if index + 1 < count else 0
            link = Link(slot.number, following, len(chunk))
            self.image.write_sector(sector, chunk.ljust(per_sector, b"\0") + link.pack())
            self.free.discard(sector)
        high = any(s >= FIRST_HIGH_SECTOR for s in sectors)
        flag = FLAG_HIGH_FILE if high else FLAG_FILE
        entry = DirectoryEntry(slot.number, int(flag), count, sectors[0], file_name)
        self._write_entry(entry)
        self._write_vtoc()
        return entry

    def remove_file(self, name: str | FileName) -> None:
        entry = self.find(name)
        if entry.locked:
            raise Dos2Error(f"{self.image.source}: {entry.name} is locked")
        for sector, _ in self.chain(entry):
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


def bitmap_sectors(raw: bytes, offset: int, first: int, stop: int) -> Iterator[int]:
    """Free sectors among ``first..stop-1`` in a bitmap starting at ``raw[offset]``.

    DOS 2 bitmaps give one bit per sector, most significant bit first, 1 = free.
    """
    for sector in range(first, stop):
        bit = sector - first
        if raw[offset + bit // 8] & (0x80 >> (bit % 8)):
            yield sector


def _bitmap_bytes(free: set[int], first: int, stop: int) -> bytes:
    """The bitmap of sectors ``first..stop-1`` (the inverse of :func:`bitmap_sectors`)."""
    out = bytearray(-(-(stop - first) // 8))
    for sector in range(first, stop):
        if sector in free:
            bit = sector - first
            out[bit // 8] |= 0x80 >> (bit % 8)
    return bytes(out)
