"""The ATR container: a 16-byte header followed by the disk's sectors.

ATR is the image format SIO2PC, FujiNet, SDrive and every emulator understand. It
holds no file system, only the sectors a drive would return; the registry
(:mod:`a8.disk.detect`) opens the file system inside (:mod:`a8.disk.filesystem`).

Real images are less tidy than the format's description, and the emulators accept
them, so this reader does too (and :mod:`a8.disk.check` reports what is odd):

- Double-density images normally keep sectors 1-3 at 128 bytes (the OS reads the
  boot sectors at 128 bytes whatever the density). Some tools store every sector in
  a 256-byte slot instead: either the three boot sectors packed into the first 384
  bytes followed by 384 zero bytes (SIO2PC's way), or each boot sector at the start
  of its own slot. atari800 tells them apart by bytes 0x180-0x2FF of the sector
  data (all zero: packed); so do we. :class:`BootLayout` names the three layouts.
- The header's size can disagree with the file's length (atari800 and Altirra both
  boot such images). The sectors here are the ones the header declares, as far
  as the file holds them: bytes after the declared size are not sectors, and a
  last partial sector is read as if padded with zeros. Such an image is read,
  never written (:meth:`AtrImage.check_writable`).
- Header bytes 7-15 belong to other tools: byte 15 is the write-protect flag that
  atari800 honours, others keep flags or checksums there. They are read, never
  changed; the whole header is written back as it was.

Sector sizes 128, 256 and 512 are read (512-byte sectors are SpartaDOS X hard-disk
style images; they have no short boot sectors).

A file is read up to :data:`LARGEST_IMAGE` bytes, the most any disk can hold (65,535
sectors, the most SIO's sector numbers reach, of 512 bytes): a header that declares
more, or a longer file, is refused before it fills the memory.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from a8.errors import A8Error
from a8.file_kinds import kind_of
from a8.reading import read_handle

#: ATR magic word: the bytes 0x96 0x02 (the sum of the letters of "NICKATARI").
ATR_MAGIC = 0x0296

#: Sector sizes this toolchain reads.
SECTOR_SIZES = (128, 256, 512)

#: Sectors that stay 128 bytes long in a double-density image.
SHORT_BOOT_SECTORS = 3

#: The byte atari800 reads as write protection (any non-zero value protects).
WRITE_PROTECT_BYTE = 15

#: The most sector data any disk holds: 65,535 sectors (SIO numbers sectors in two
#: bytes) of 512 bytes. Real images are smaller: 16 MB for the largest MyDOS and
#: SpartaDOS hard-disk partitions of 256-byte sectors.
LARGEST_SECTOR_DATA = 65535 * 512


class AtrError(A8Error):
    """An ATR image that cannot be read or written (message names the file)."""


@dataclass(frozen=True)
class HeaderField:
    """One field of the ATR header: its name, byte offset and struct format."""

    name: str
    offset: int
    fmt: str
    meaning: str


#: The ATR header, field by field. Bytes 7..15 are not interpreted but kept as they
#: are (byte 15 is atari800's write-protect flag, see :data:`WRITE_PROTECT_BYTE`).
HEADER_FIELDS = (
    HeaderField("magic", 0, "<H", "0x0296"),
    HeaderField("paragraphs_low", 2, "<H", "image size in 16-byte paragraphs, low word"),
    HeaderField("sector_size", 4, "<H", "bytes per sector: 128, 256 (or 512)"),
    HeaderField("paragraphs_high", 6, "<B", "image size in paragraphs, high byte"),
)
HEADER_SIZE = 16
#: The longest file read as an ATR image.
LARGEST_IMAGE = HEADER_SIZE + LARGEST_SECTOR_DATA


class BootLayout(enum.Enum):
    """Where sectors 1-3 sit in the sector data of an image."""

    #: 3 x 128 bytes, then the other sectors (all 128-byte images, normal DD images).
    SHORT = "3 x 128 bytes"
    #: 3 x 128 bytes packed into the first two 256-byte slots, the third slot zero.
    PACKED = "3 x 128 bytes packed in 768"
    #: each boot sector at the start of its own 256-byte slot.
    SLOTTED = "one 256-byte slot each"
    #: no short sectors at all (512-byte sectors: one 512-byte boot sector).
    NONE = "no short boot sectors"


@dataclass(frozen=True)
class AtrHeader:
    """The decoded ATR header, with its raw bytes (bytes 7-15 are kept as they are)."""

    sector_size: int
    data_size: int
    raw: bytes

    @classmethod
    def new(cls, sector_size: int, data_size: int) -> AtrHeader:
        """A header of our own: every byte not in :data:`HEADER_FIELDS` is zero."""
        paragraphs = data_size // 16
        values = {
            "magic": ATR_MAGIC,
            "paragraphs_low": paragraphs & 0xFFFF,
            "sector_size": sector_size,
            "paragraphs_high": paragraphs >> 16,
        }
        header = bytearray(HEADER_SIZE)
        for field in HEADER_FIELDS:
            struct.pack_into(field.fmt, header, field.offset, values[field.name])
        return cls(sector_size, data_size, bytes(header))

    def pack(self) -> bytes:
        return self.raw

    @property
    def write_protected(self) -> bool:
        return self.raw[WRITE_PROTECT_BYTE] != 0

    @classmethod
    def unpack(cls, data: bytes, source: str) -> AtrHeader:
        if len(data) < HEADER_SIZE:
            raise AtrError(f"{source}: not an ATR image (only {len(data)} bytes, no header)")
        values = {
            field.name: struct.unpack_from(field.fmt, data, field.offset)[0]
            for field in HEADER_FIELDS
        }
        if values["magic"] != ATR_MAGIC:
            kind = kind_of(data)
            if kind is not None:
                raise AtrError(f"{source}: not an ATR image: it is {kind.said()}")
            raise AtrError(
                f"{source}: not an ATR image (bytes 0-1 are "
                f"{data[0]:02X} {data[1]:02X}, expected 96 02)"
            )
        if values["sector_size"] not in SECTOR_SIZES:
            raise AtrError(
                f"{source}: unsupported sector size {values['sector_size']} at byte 4 "
                "(expected 128, 256 or 512)"
            )
        paragraphs = values["paragraphs_low"] | (values["paragraphs_high"] << 16)
        return cls(values["sector_size"], paragraphs * 16, bytes(data[:HEADER_SIZE]))


def data_size_for(sector_count: int, sector_size: int) -> int:
    """Bytes of sector data in an image of ``sector_count`` sectors (short boot sectors)."""
    if sector_size in (128, 512):
        return sector_count * sector_size
    short = min(sector_count, SHORT_BOOT_SECTORS)
    return short * 128 + (sector_count - short) * sector_size


def _layout_of(sector_size: int, body: bytes) -> BootLayout:
    """How the boot sectors are stored, decided as atari800 decides it."""
    if sector_size == 128:
        return BootLayout.SHORT
    if sector_size == 512:
        return BootLayout.NONE
    if len(body) % 256 or len(body) < 3 * 256:
        return BootLayout.SHORT
    return BootLayout.PACKED if not any(body[0x180:0x300]) else BootLayout.SLOTTED


class AtrImage:
    """A mutable disk image: numbered sectors (from 1) of a fixed size."""

    def __init__(
        self,
        sector_size: int,
        data: bytearray,
        source: str = "<image>",
        *,
        header: AtrHeader | None = None,
        layout: BootLayout | None = None,
    ) -> None:
        self.sector_size = sector_size
        self.source = source
        self._data = data
        self.layout = layout if layout is not None else _layout_of(sector_size, bytes(data))
        self.header = header or AtrHeader.new(sector_size, len(data))
        self._trailing = b""
        self.sector_count, self.partial_bytes = self._count_sectors(len(data))
        #: The sectors the file holds whole: all of them, but in a truncated image
        #: (a download cut short), whose sector_count is the header's.
        self.whole_sectors = self.sector_count

    def _count_sectors(self, size: int) -> tuple[int, int]:
        """Sectors in ``size`` bytes (a partial last one included), and its length."""
        if self.layout is BootLayout.SHORT and self.sector_size == 256:
            boot = SHORT_BOOT_SECTORS * 128
            if size <= boot:
                whole, partial = divmod(size, 128)
            else:
                whole, partial = divmod(size - boot, self.sector_size)
                whole += SHORT_BOOT_SECTORS
        else:
            whole, partial = divmod(size, self.sector_size)
        return whole + (1 if partial else 0), partial

    @classmethod
    def blank(cls, sector_count: int, sector_size: int, source: str = "<image>") -> AtrImage:
        return cls(sector_size, bytearray(data_size_for(sector_count, sector_size)), source)

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<image>") -> AtrImage:
        """The image in ``data``: the sectors the header declares, as far as the file has them.

        Bytes after the declared size are not sectors (atari800 ignores them too);
        they are kept, so that the image would be written back whole.
        """
        header = AtrHeader.unpack(data, source)
        body = bytearray(data[HEADER_SIZE:])
        trailing = b""
        if 0 < header.data_size < len(body):
            trailing = bytes(body[header.data_size :])
            del body[header.data_size :]
        image = cls(header.sector_size, body, source, header=header)
        image._trailing = trailing
        if image.sector_count == 0:
            raise AtrError(f"{source}: no sectors after the header ({len(body)} bytes)")
        if header.data_size > len(body):
            # Truncated: the disk is as large as the header says; the sectors the file
            # lacks (a partial last one too) are missing, not blank.
            image.whole_sectors = image.sector_count - (1 if image.partial_bytes else 0)
            image.sector_count, image.partial_bytes = image._count_sectors(header.data_size)
        return image

    @classmethod
    def read(cls, path: str | Path) -> AtrImage:
        """The image in the file at ``path``, read no further than
        :data:`LARGEST_IMAGE` allows."""
        try:
            with open(path, "rb") as handle:
                return cls.read_from(handle, str(path))
        except OSError as error:
            raise AtrError(f"{path}: cannot read: {error.strerror}") from None

    @classmethod
    def read_from(cls, handle: BinaryIO, source: str) -> AtrImage:
        """The image in an open file, from where it stands: the header first (a file
        that is no ATR image is refused after 16 bytes), then the sectors."""
        try:
            header = handle.read(HEADER_SIZE)  # a buffered file: all 16, or the end
        except OSError as error:
            raise AtrError(f"{source}: cannot read: {error.strerror}") from None
        if len(header) == HEADER_SIZE:
            declared = AtrHeader.unpack(header, source).data_size
            if declared > LARGEST_SECTOR_DATA:
                raise AtrError(
                    f"{source}: the header says {declared:,} bytes of sectors, more than "
                    f"any disk holds (65,535 sectors of 512 bytes: {LARGEST_SECTOR_DATA:,})"
                )
        rest = read_handle(
            handle, source, LARGEST_SECTOR_DATA, "any ATR image (after its 16-byte header)"
        )
        return cls.from_bytes(header + rest, source)

    def to_bytes(self) -> bytes:
        return self.header.pack() + bytes(self._data) + self._trailing

    # -- what is unusual about the container (for check and for writing) ----------

    def size_mismatch(self) -> str | None:
        """How the header's size disagrees with the file, or None if it agrees."""
        declared, actual = self.header.data_size, len(self._data) + len(self._trailing)
        if declared == actual:
            return None
        if actual < declared:
            return f"header says {declared} bytes of sectors, the file has only {actual}"
        return f"header says {declared} bytes of sectors, the file has {actual}"

    @property
    def write_protected(self) -> bool:
        """Byte 15 of the header is set: atari800 mounts the image read-only."""
        return self.header.write_protected

    def check_writable(self, force: bool = False) -> None:
        """Refuse to change an image we could not write back faithfully, or a protected one."""
        mismatch = self.size_mismatch()
        if mismatch is not None or self.partial_bytes:
            what = mismatch or f"{self.partial_bytes} bytes of a partial last sector"
            raise AtrError(f"{self.source}: {what}; not changing an image of unclear size")
        if self.write_protected and not force:
            raise AtrError(
                f"{self.source}: write-protected (ATR header byte 15 is "
                f"{self.header.raw[WRITE_PROTECT_BYTE]:02X}); give --force to change it anyway"
            )

    # -- sectors -------------------------------------------------------------------

    def size_of(self, sector: int) -> int:
        """Bytes in ``sector``: 128 for the boot sectors, else the image's size."""
        self._check_number(sector)
        if sector <= SHORT_BOOT_SECTORS and self.layout is not BootLayout.NONE:
            return 128
        return self.sector_size

    def _offset(self, sector: int) -> int:
        size = self.sector_size
        if self.layout is BootLayout.SHORT:
            if sector <= SHORT_BOOT_SECTORS or size == 128:
                return (sector - 1) * 128
            return SHORT_BOOT_SECTORS * 128 + (sector - 1 - SHORT_BOOT_SECTORS) * size
        if self.layout is BootLayout.PACKED and sector <= SHORT_BOOT_SECTORS:
            return (sector - 1) * 128
        return (sector - 1) * size

    def _check_number(self, sector: int) -> None:
        if not 1 <= sector <= self.sector_count:
            raise AtrError(f"{self.source}: sector {sector} out of range 1..{self.sector_count}")

    def has_sector(self, sector: int) -> bool:
        return 1 <= sector <= self.sector_count

    def truncation(self) -> str | None:
        """How much of the disk a file shorter than its header holds (a download cut
        short, or an image made short on purpose), or None if it holds every sector."""
        if self.whole_sectors == self.sector_count:
            return None
        declared, actual = self.header.data_size, len(self._data)
        return (
            f"the file holds {self.whole_sectors} of the {self.sector_count} sectors its "
            f"header declares ({declared} bytes; the file has {actual})"
        )

    def _check_present(self, sector: int) -> None:
        if sector > self.whole_sectors:
            raise AtrError(
                f"{self.source}: sector {sector} is not in the file: it holds "
                f"{self.whole_sectors} of the {self.sector_count} sectors its header declares"
            )

    def read_sector(self, sector: int) -> bytes:
        size = self.size_of(sector)
        self._check_present(sector)
        start = self._offset(sector)
        return bytes(self._data[start : start + size]).ljust(size, b"\0")

    def write_sector(self, sector: int, data: bytes) -> None:
        size = self.size_of(sector)
        self._check_present(sector)
        if len(data) > size:
            raise AtrError(f"{self.source}: {len(data)} bytes do not fit sector {sector}")
        start = self._offset(sector)
        self._data[start : start + size] = data.ljust(size, b"\0")
