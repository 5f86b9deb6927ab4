"""The ATR container: a 16-byte header followed by the disk's sectors.

ATR is the image format SIO2PC, FujiNet, SDrive and every emulator understand. It
holds no file system, only the sectors a drive would return; :mod:`a8.disk.dos2`
reads the DOS 2 file system inside them.

Double-density images keep sectors 1-3 at 128 bytes (the drive's boot sectors are
read by the OS at 128 bytes whatever the density), so sector offsets are not a plain
multiplication; :class:`AtrImage` hides that.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from a8.errors import A8Error

#: ATR magic word: the bytes 0x96 0x02 (the sum of the letters of "NICKATARI").
ATR_MAGIC = 0x0296

#: Sector sizes this toolchain reads and writes.
SECTOR_SIZES = (128, 256)

#: Sectors that stay 128 bytes long in a double-density image.
SHORT_BOOT_SECTORS = 3


class AtrError(A8Error):
    """An ATR image that cannot be read or written (message names the file)."""


@dataclass(frozen=True)
class HeaderField:
    """One field of the ATR header: its name, byte offset and struct format."""

    name: str
    offset: int
    fmt: str
    meaning: str


#: The ATR header, field by field. Bytes 7..15 are left zero: atari800 reads byte 15
#: as a write-protect flag, and other tools put optional extras there.
HEADER_FIELDS = (
    HeaderField("magic", 0, "<H", "0x0296"),
    HeaderField("paragraphs_low", 2, "<H", "image size in 16-byte paragraphs, low word"),
    HeaderField("sector_size", 4, "<H", "bytes per sector: 128 or 256"),
    HeaderField("paragraphs_high", 6, "<B", "image size in paragraphs, high byte"),
)
HEADER_SIZE = 16


@dataclass(frozen=True)
class AtrHeader:
    """The decoded ATR header."""

    sector_size: int
    data_size: int

    def pack(self) -> bytes:
        paragraphs = self.data_size // 16
        values = {
            "magic": ATR_MAGIC,
            "paragraphs_low": paragraphs & 0xFFFF,
            "sector_size": self.sector_size,
            "paragraphs_high": paragraphs >> 16,
        }
        header = bytearray(HEADER_SIZE)
        for field in HEADER_FIELDS:
            struct.pack_into(field.fmt, header, field.offset, values[field.name])
        return bytes(header)

    @classmethod
    def unpack(cls, data: bytes, source: str) -> AtrHeader:
        if len(data) < HEADER_SIZE:
            raise AtrError(f"{source}: not an ATR image (only {len(data)} bytes, no header)")
        values = {
            field.name: struct.unpack_from(field.fmt, data, field.offset)[0]
            for field in HEADER_FIELDS
        }
        if values["magic"] != ATR_MAGIC:
            raise AtrError(
                f"{source}: not an ATR image (bytes 0-1 are "
                f"{data[0]:02X} {data[1]:02X}, expected 96 02)"
            )
        if values["sector_size"] not in SECTOR_SIZES:
            raise AtrError(
                f"{source}: unsupported sector size {values['sector_size']} at byte 4 "
                "(expected 128 or 256)"
            )
        paragraphs = values["paragraphs_low"] | (values["paragraphs_high"] << 16)
        return cls(sector_size=values["sector_size"], data_size=paragraphs * 16)


def data_size_for(sector_count: int, sector_size: int) -> int:
    """Bytes of sector data in an image of ``sector_count`` sectors."""
    if sector_size == 128:
        return sector_count * 128
    short = min(sector_count, SHORT_BOOT_SECTORS)
    return short * 128 + (sector_count - short) * sector_size


class AtrImage:
    """A mutable disk image: numbered sectors (from 1) of a fixed size."""

    def __init__(self, sector_size: int, data: bytearray, source: str = "<image>") -> None:
        self.sector_size = sector_size
        self.source = source
        self._data = data
        self.sector_count = self._count_sectors(len(data))

    def _count_sectors(self, size: int) -> int:
        if self.sector_size == 128:
            if size % 128:
                raise AtrError(
                    f"{self.source}: {size} bytes of sectors is not n x 128 (a truncated image?)"
                )
            return size // 128
        boot = SHORT_BOOT_SECTORS * 128
        if size < boot or (size - boot) % self.sector_size:
            raise AtrError(
                f"{self.source}: {size} bytes of sectors is not 3 x 128 + n x "
                f"{self.sector_size} (a truncated image, or the wrong sector size at byte 4?)"
            )
        return SHORT_BOOT_SECTORS + (size - boot) // self.sector_size

    @classmethod
    def blank(cls, sector_count: int, sector_size: int, source: str = "<image>") -> AtrImage:
        return cls(sector_size, bytearray(data_size_for(sector_count, sector_size)), source)

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<image>") -> AtrImage:
        header = AtrHeader.unpack(data, source)
        body = data[HEADER_SIZE:]
        if len(body) < header.data_size:
            raise AtrError(
                f"{source}: truncated image (header says {header.data_size} bytes of "
                f"sectors, file has {len(body)})"
            )
        if len(body) > header.data_size:
            raise AtrError(
                f"{source}: {len(body) - header.data_size} bytes after the last sector "
                f"(header says {header.data_size})"
            )
        return cls(header.sector_size, bytearray(body), source)

    @classmethod
    def read(cls, path: str | Path) -> AtrImage:
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise AtrError(f"{path}: cannot read: {error.strerror}") from error
        return cls.from_bytes(data, str(path))

    def to_bytes(self) -> bytes:
        header = AtrHeader(sector_size=self.sector_size, data_size=len(self._data))
        return header.pack() + bytes(self._data)

    def size_of(self, sector: int) -> int:
        """Bytes in ``sector``: 128 for the boot sectors, else the image's size."""
        self._check_number(sector)
        return 128 if sector <= SHORT_BOOT_SECTORS else self.sector_size

    def _offset(self, sector: int) -> int:
        if sector <= SHORT_BOOT_SECTORS or self.sector_size == 128:
            return (sector - 1) * 128
        return SHORT_BOOT_SECTORS * 128 + (sector - 1 - SHORT_BOOT_SECTORS) * self.sector_size

    def _check_number(self, sector: int) -> None:
        if not 1 <= sector <= self.sector_count:
            raise AtrError(f"{self.source}: sector {sector} out of range 1..{self.sector_count}")

    def read_sector(self, sector: int) -> bytes:
        size = self.size_of(sector)
        start = self._offset(sector)
        return bytes(self._data[start : start + size])

    def write_sector(self, sector: int, data: bytes) -> None:
        size = self.size_of(sector)
        if len(data) > size:
            raise AtrError(f"{self.source}: {len(data)} bytes do not fit sector {sector}")
        start = self._offset(sector)
        self._data[start : start + size] = data.ljust(size, b"\0")
