"""The DOS 2 VTOC: which sectors are free, as bitmaps and counts, and when it is damaged.

Sector 360 holds the DOS code (byte 0), the total of usable sectors (1-2), the
free count (3-4) and, from byte 10, one bit per sector from sector 0, most
significant bit first, 1 = free. MyDOS continues a longer bitmap in sectors 359,
358 ...; DOS 2.5 maps sectors 720-1023 in a second VTOC, sector 1024 (bytes 0-83
repeat the VTOC's bitmap of sectors 48-719, bytes 84-121 map 720-1023, bytes
122-123 count the free ones above 719).

DOS reads files through the directory and the sector chains, never through the
VTOC: it needs the VTOC only to write. :func:`vtoc_damage` says when a VTOC is
not one a DOS of the family wrote, so that such a disk is read (with a warning)
and never written.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from a8.disk.atr import AtrImage
from a8.disk.dos2.geometry import (
    BOOT_SECTORS,
    DIRECTORY_SECTORS,
    FIRST_HIGH_SECTOR,
    HIGHEST_LINKABLE,
    VTOC2_SECTOR,
    VTOC_BITMAP_OFFSET,
    VTOC_SECTOR,
    Geometry,
    system_role,
)

#: VTOC fields: DOS code, total usable sectors, free sectors (struct format, offset).
VTOC_HEADER = struct.Struct("<BHH")
VTOC_FREE_OFFSET = 3
VTOC_BITMAP_BYTES = 90
#: DOS 2.5's VTOC2: bytes 0..83 repeat the VTOC bitmap of sectors 48..719, bytes
#: 84..121 map sectors 720..1023, bytes 122..123 count the free sectors above 719.
VTOC2_MIRROR_BYTES = 84
VTOC2_MIRROR_FROM = VTOC_BITMAP_OFFSET + 6
VTOC2_BITMAP_OFFSET = 84
VTOC2_BITMAP_BYTES = 38
VTOC2_FREE = struct.Struct("<H")
VTOC2_FREE_OFFSET = 122


def vtoc_bytes(image: AtrImage, geometry: Geometry) -> bytes:
    """The VTOC sectors joined in bitmap order (360, then 359 ... for MyDOS)."""
    return b"".join(image.read_sector(s) for s in geometry.vtoc_sectors)


def read_free(image: AtrImage, geometry: Geometry) -> set[int]:
    """Free sectors according to the VTOC bitmap(s) (the free counts are not used)."""
    if geometry.has_vtoc2:
        vtoc, vtoc2 = image.read_sector(VTOC_SECTOR), image.read_sector(VTOC2_SECTOR)
        free = set(bitmap_sectors(vtoc, VTOC_BITMAP_OFFSET, 0, FIRST_HIGH_SECTOR))
        free |= set(
            bitmap_sectors(vtoc2, VTOC2_BITMAP_OFFSET, FIRST_HIGH_SECTOR, HIGHEST_LINKABLE + 1)
        )
        return free
    end = min(geometry.bitmap_end, geometry.bitmap_capacity)
    return set(bitmap_sectors(vtoc_bytes(image, geometry), VTOC_BITMAP_OFFSET, 0, end))


def free_count(image: AtrImage, geometry: Geometry) -> int:
    """Free sectors as DOS reports them (from the VTOC counts)."""
    total: int = VTOC_HEADER.unpack_from(image.read_sector(VTOC_SECTOR))[2]
    if geometry.has_vtoc2:
        total += VTOC2_FREE.unpack_from(image.read_sector(VTOC2_SECTOR), VTOC2_FREE_OFFSET)[0]
    return total


def write_vtoc(image: AtrImage, geometry: Geometry, free: set[int]) -> None:
    """Write the bitmap(s) and free count(s); the DOS code and total stay as they are."""
    if geometry.has_vtoc2:
        _write_dos25_vtoc(image, free)
        return
    joined = bytearray(vtoc_bytes(image, geometry))
    end = min(geometry.bitmap_end, geometry.bitmap_capacity)
    bitmap = bitmap_bytes(free, 0, end)
    start = VTOC_BITMAP_OFFSET
    # Keep the bits past the end of the disk as they are: only the last byte is shared.
    joined[start : start + len(bitmap) - 1] = bitmap[:-1]
    tail_bits = end % 8 or 8
    keep = 0xFF >> tail_bits
    last = start + len(bitmap) - 1
    joined[last] = (joined[last] & keep) | (bitmap[-1] & ~keep & 0xFF)
    struct.pack_into("<H", joined, VTOC_FREE_OFFSET, sum(1 for s in free if s < end))
    size = geometry.sector_size
    for index, sector in enumerate(geometry.vtoc_sectors):
        image.write_sector(sector, bytes(joined[index * size : (index + 1) * size]))


def _write_dos25_vtoc(image: AtrImage, free: set[int]) -> None:
    vtoc = bytearray(image.read_sector(VTOC_SECTOR))
    vtoc[VTOC_BITMAP_OFFSET : VTOC_BITMAP_OFFSET + VTOC_BITMAP_BYTES] = bitmap_bytes(
        free, 0, FIRST_HIGH_SECTOR
    )
    low_free = sum(1 for s in free if s < FIRST_HIGH_SECTOR)
    struct.pack_into("<H", vtoc, VTOC_FREE_OFFSET, low_free)
    image.write_sector(VTOC_SECTOR, bytes(vtoc))
    vtoc2 = bytearray(image.read_sector(VTOC2_SECTOR))
    vtoc2[0:VTOC2_MIRROR_BYTES] = vtoc[VTOC2_MIRROR_FROM : VTOC2_MIRROR_FROM + VTOC2_MIRROR_BYTES]
    vtoc2[VTOC2_BITMAP_OFFSET : VTOC2_BITMAP_OFFSET + VTOC2_BITMAP_BYTES] = bitmap_bytes(
        free, FIRST_HIGH_SECTOR, HIGHEST_LINKABLE + 1
    )
    VTOC2_FREE.pack_into(vtoc2, VTOC2_FREE_OFFSET, len(free) - low_free)
    image.write_sector(VTOC2_SECTOR, bytes(vtoc2))


def vtoc_damage(image: AtrImage, geometry: Geometry) -> str | None:
    """What makes the VTOC one no DOS of the family wrote, or None for a sound VTOC.

    Damage is what no DOS writes and no stale count explains: a DOS code or total
    other than the variant's, a free count above the total, or a bitmap that marks
    the boot sectors, a VTOC sector or the directory free. (A free count that
    differs from the bitmap but is possible is a count a DOS left behind: ``check``
    reports it and the next write corrects it.)
    """
    vtoc = image.read_sector(VTOC_SECTOR)
    if not any(vtoc):
        return "all zeros"
    code, total, free = VTOC_HEADER.unpack_from(vtoc)
    if code != geometry.vtoc_code:
        return f"DOS code {code}, expected {geometry.vtoc_code}"
    if total not in geometry.capacities:
        expected = " or ".join(str(c) for c in geometry.capacities)
        return f"total {total}, expected {expected}"
    if free > total:
        return f"free count {free} above the total {total}"
    marked = read_free(image, geometry)
    for sector in (0, *BOOT_SECTORS, *geometry.vtoc_sectors, *DIRECTORY_SECTORS):
        if sector in marked:
            return f"its bitmap marks sector {sector} ({system_role(geometry, sector)}) free"
    return None


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


def bitmap_bytes(free: set[int], first: int, stop: int) -> bytes:
    """The bitmap of sectors ``first..stop-1`` (the inverse of :func:`bitmap_sectors`)."""
    out = bytearray(-(-(stop - first) // 8))
    for sector in range(first, stop):
        if sector in free:
            bit = sector - first
            out[bit // 8] |= 0x80 >> (bit % 8)
    return bytes(out)
