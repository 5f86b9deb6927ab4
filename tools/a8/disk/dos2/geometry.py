"""The rules of one DOS 2 family disk: what differs between DOS 2.0S, 2.5, 2.0D and MyDOS.

They share one design (see :mod:`a8.disk.dos2`) and differ in a few numbers kept
here as data in :class:`Geometry`: the disk's size, the totals the variant writes,
which sectors hold the VTOC, whether a second VTOC maps sectors 720-1023, the
names the DOS accepts, and whether links hold 16-bit sector numbers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from a8.disk.names import DOS2_NAMES, MYDOS_NAMES, NameRules

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
#: The disks MyDOS formats: 720 sectors (a single-density floppy's) up to 65,535 (the
#: most SIO's two-byte sector numbers reach), of 128 or 256 bytes.
MYDOS_SECTOR_COUNTS = range(720, 65536)
MYDOS_SECTOR_SIZES = (128, 256)
#: The VTOC's bitmap starts at this byte (after the DOS code, total and free count).
VTOC_BITMAP_OFFSET = 10


class Variant(enum.Enum):
    """The members of the family; the value is the name ``a8 atr`` gives them."""

    DOS_20S = "DOS 2.0S"
    DOS_25 = "DOS 2.5"
    DOS_20D = "DOS 2.0D"
    MYDOS = "MyDOS"


class Density(enum.Enum):
    """The three DOS 2 disk formats ``a8 atr new`` writes."""

    SINGLE = "single"
    ENHANCED = "enhanced"
    DOUBLE = "double"


@dataclass(frozen=True)
class Geometry:
    """The rules of one DOS 2 family disk: what differs between the variants."""

    variant: Variant
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
        return self.variant.value

    @property
    def is_mydos(self) -> bool:
        return self.variant is Variant.MYDOS

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


def _geometry(variant: Variant, count: int, size: int, capacities: tuple[int, ...]) -> Geometry:
    return Geometry(variant, count, size, capacities, has_vtoc2=variant is Variant.DOS_25)


GEOMETRIES = {
    Density.SINGLE: _geometry(Variant.DOS_20S, 720, 128, (707,)),
    Density.ENHANCED: _geometry(Variant.DOS_25, 1040, 128, (1010, 707)),
    Density.DOUBLE: _geometry(Variant.DOS_20D, 720, 256, (707,)),
}
#: The DOS 2 variant of each size DOS 2 formats: (sector count, sector size) -> rules.
BY_SIZE = {(g.sector_count, g.sector_size): g for g in GEOMETRIES.values()}


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


def mydos_geometry(sector_count: int, sector_size: int, code: int | None = None) -> Geometry:
    """MyDOS's rules for a disk of this size (``code``: the one its VTOC holds, if sound)."""
    code = mydos_vtoc_code(sector_count, sector_size) if code is None else code
    vtoc_sectors = mydos_vtoc_sectors(code, sector_size)
    capacity = sector_count - len(BOOT_SECTORS) - DIRECTORY_LENGTH - len(vtoc_sectors)
    return Geometry(
        Variant.MYDOS,
        sector_count,
        sector_size,
        (capacity,),
        vtoc_sectors=vtoc_sectors,
        vtoc_code=code,
        names=MYDOS_NAMES,
        long_links=code > VTOC_DOS_CODE,
    )


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
