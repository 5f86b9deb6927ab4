"""DOS 2 sector chains: every data sector ends with a link to the next one.

The last three bytes of a data sector are the link: the file number (the entry's
slot in its directory) shifted left twice with the next sector's top two bits,
the next sector's low byte, and the count of bytes used. MyDOS's 16-bit links
(files flagged 0x46) hold the whole next sector number and no file number. A
chain ends at a link to sector 0.

A DOS follows a chain without looking at the VTOC, which is why files stay readable
on a disk whose VTOC is damaged.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from a8.disk.atr import AtrImage
from a8.disk.dos2.directory import DirectoryEntry
from a8.disk.dos2.geometry import Geometry, system_role, system_sectors


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

    @property
    def sound(self) -> bool:
        """Followed to its end with nothing wrong on the way."""
        return self.fault is None and not self.warnings


def read_link(image: AtrImage, geometry: Geometry, sector: int, long: bool = False) -> Link:
    """The link bytes that end data sector ``sector``."""
    raw = image.read_sector(sector)
    return Link.unpack(raw[geometry.data_bytes : geometry.sector_size], long)


def walk_chain(image: AtrImage, geometry: Geometry, entry: DirectoryEntry) -> Chain:
    """Follow ``entry``'s chain as DOS would, noting every fault on the way.

    The walk stops at a sector outside the disk's data sectors, at a system
    sector (boot, VTOC, directory, 720, VTOC2: never file data), or where the
    chain loops; a wrong file number or byte count is noted and the walk goes
    on (DOS itself stops with an error there, so the file cannot be read).
    """
    reserved = system_sectors(geometry)
    highest = min(geometry.highest_data_sector, image.sector_count)
    sectors: list[tuple[int, Link]] = []
    warnings: list[tuple[ChainFault, int, str]] = []
    seen: set[int] = set()
    sector = entry.start
    long = entry.long_links
    while True:
        if not 1 <= sector <= highest:
            message = f"chain reaches sector {sector}, outside the data sectors 1..{highest}"
            return Chain(sectors, ChainFault.OUT_OF_RANGE, sector, message, warnings)
        if sector in reserved:
            role = system_role(geometry, sector)
            message = f"chain reaches sector {sector}, a {role} sector"
            return Chain(sectors, ChainFault.SYSTEM_SECTOR, sector, message, warnings)
        if sector in seen:
            message = f"chain loops back to sector {sector}"
            return Chain(sectors, ChainFault.LOOP, sector, message, warnings)
        seen.add(sector)
        link = read_link(image, geometry, sector, long)
        if not long and link.file_number != entry.number:
            warnings.append(
                (
                    ChainFault.FILE_NUMBER,
                    sector,
                    f"sector {sector} carries file number {link.file_number}, not {entry.number}",
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
