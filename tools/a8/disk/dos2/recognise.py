"""Whether a disk holds a DOS 2 family file system, which member, and whether its VTOC is sound.

Nothing on the disk says "DOS 2" outright. A disk is recognised in one of two ways:

1. **By its VTOC and directory** (:func:`vtoc_plausible`): at least three of four
   signs in sectors 360-368 hold: a DOS code of 2 in VTOC byte 0 (or the one MyDOS
   writes for the disk's size: 2 + the pages of a longer bitmap), a total
   (bytes 1-2) above 0 and not above the sector count, the VTOC sector marked in
   use in its own bitmap, a live file in the directory; and the directory reads
   as DOS 2 entries (no flag with bit 3 set, no start sector off the disk, beyond
   fewer than the good ones). Three signs of four let ``check`` see a disk damaged
   in one of them.
2. **By its directory and boot sector alone** (:func:`directory_sound`), when the
   VTOC is too damaged for rule 1: DOS itself reads files through the directory
   and the sector chains and never through the VTOC, so DOS 2.5 still lists and
   copies them. The directory must then be beyond doubt: at least one live entry,
   every live entry in a form the family writes (its flag, a printable name, a
   first sector on the disk), at least one file (in the root or a MyDOS
   subdirectory) whose chain runs to its end with its file numbers and the
   directory's sector count; and the boot record loads at most 3 sectors (a disk
   whose boot loads more is a loader's, using the sectors). Without its VTOC a
   MyDOS disk of a size DOS 2 formats is told from DOS 2 only by MyDOS-only
   entries; otherwise it is read by DOS 2's rules, which read the same chains.

Which member (:func:`variant_of`): **MyDOS** if the disk has a size DOS 2 never
formats, if the VTOC code is the one MyDOS writes for the size and above 2 (a
bitmap longer than one sector: 3 on 1040 x 128), if the total is MyDOS's for the
size (it counts sector 720: 708 on 720 sectors), or if the directory holds
MyDOS-only entries (subdirectories, 16-bit links); otherwise the DOS 2 variant of
the size: **DOS 2.5** on 1040 x 128, **DOS 2.0S** on 720 x 128, **DOS 2.0D** on
720 x 256. A damaged code or total is reported (:func:`~a8.disk.dos2.vtoc.vtoc_damage`),
never taken for another DOS.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from a8.disk.atr import AtrImage
from a8.disk.dos2.chain import walk_chain
from a8.disk.dos2.directory import (
    UNUSED_FLAG_BIT,
    VALID_FILE_FLAGS,
    VALID_HIGH_FLAGS,
    VALID_MYDOS_FLAGS,
    DirectoryEntry,
    live_entries,
    plain_name,
)
from a8.disk.dos2.geometry import (
    BY_SIZE,
    DIRECTORY_LENGTH,
    ROOT_DIRECTORY,
    VTOC_BITMAP_OFFSET,
    VTOC_DOS_CODE,
    VTOC_SECTOR,
    Geometry,
    Variant,
    mydos_geometry,
    mydos_vtoc_code,
    system_sectors,
)
from a8.disk.dos2.vtoc import vtoc_damage

#: Totals (VTOC bytes 1-2) that the DOS 2 variants write. DOS 2.5 writes 1010 by
#: its documentation and on most real disks, but real DOS 2.5 disks with 707 exist
#: (the DOS 2.0 total, left by formatting or copying tools): both are accepted.
DOS2_TOTALS = {
    Variant.DOS_20S: (707,),
    Variant.DOS_25: (1010, 707),
    Variant.DOS_20D: (707,),
}
#: Directory flags that only MyDOS writes: a subdirectory, and 16-bit sector links.
MYDOS_FLAG_BITS = 0x10 | 0x04
#: The most sectors a DOS 2 family boot record loads.
BOOT_SECTORS_AT_MOST = 3
#: Every flag a DOS of the family writes for a live entry.
WRITTEN_FLAGS = VALID_FILE_FLAGS | VALID_HIGH_FLAGS | VALID_MYDOS_FLAGS


@dataclass(frozen=True)
class Recognition:
    """A DOS 2 family disk: its rules, and what is wrong with its VTOC (None: sound)."""

    geometry: Geometry
    damage: str | None


def recognise(image: AtrImage) -> Recognition | None:
    """The DOS 2 family file system on ``image``, or None (see the module's rules)."""
    if image.sector_size not in (128, 256) or image.sector_count < 368:
        return None
    vtoc = image.read_sector(VTOC_SECTOR)
    code, total = vtoc[0], struct.unpack_from("<H", vtoc, 1)[0]
    if vtoc_plausible(image):
        geometry = geometry_of(image, variant_of(image, code, total))
        return Recognition(geometry, vtoc_damage(image, geometry))
    if image.read_sector(1)[1] > BOOT_SECTORS_AT_MOST:
        return None
    geometry = geometry_of(image, variant_of(image, None, None))
    if not directory_sound(image, geometry):
        return None
    damage = vtoc_damage(image, geometry) or f"DOS code {code}, total {total}"
    return Recognition(geometry, damage)


def vtoc_plausible(image: AtrImage) -> bool:
    """Sectors 360-368 read as a DOS 2 / MyDOS VTOC and directory (rule 1)."""
    vtoc = image.read_sector(VTOC_SECTOR)
    code, total = vtoc[0], struct.unpack_from("<H", vtoc, 1)[0]
    good, bad = _directory_counts(image)
    if bad > good:
        return False
    signs = (
        code in (VTOC_DOS_CODE, mydos_vtoc_code(image.sector_count, image.sector_size)),
        0 < total <= image.sector_count,
        not vtoc[VTOC_BITMAP_OFFSET + VTOC_SECTOR // 8] & (0x80 >> (VTOC_SECTOR % 8)),
        good > 0,
    )
    return sum(1 for sign in signs if sign) >= 3


def _directory_counts(image: AtrImage) -> tuple[int, int]:
    """Live entries that look right, and entries that no DOS of the family writes."""
    good = bad = 0
    for entry in live_entries(image):
        if entry.flag & UNUSED_FLAG_BIT or not 1 <= entry.start <= image.sector_count:
            bad += 1
        elif entry.flag & 0x40 or entry.flag & 0x13 in (0x03, 0x10):
            good += 1
    return good, bad


def directory_sound(image: AtrImage, geometry: Geometry) -> bool:
    """The root directory is a DOS 2 directory beyond doubt (rule 2): every live entry
    in a form the family writes, and a file whose chain reads to its end in it or in
    one of its MyDOS subdirectories."""
    entries = list(live_entries(image))
    if not entries:
        return False
    for entry in entries:
        written = entry.flag in WRITTEN_FLAGS or entry.open_for_output
        if not written or not plain_name(entry) or not 1 <= entry.start <= image.sector_count:
            return False
    pending, seen = [ROOT_DIRECTORY], set()
    while pending:
        directory = pending.pop(0)
        if directory in seen:
            continue
        seen.add(directory)
        for entry in live_entries(image, directory) if directory != ROOT_DIRECTORY else entries:
            if _readable(image, geometry, entry):
                return True
            if entry.is_directory and usable_directory(image, geometry, entry.start):
                pending.append(entry.start)
    return False


def usable_directory(image: AtrImage, geometry: Geometry, start: int) -> bool:
    """Can sectors ``start``..``start+7`` hold a subdirectory (inside the disk, not system)?"""
    reserved = system_sectors(geometry)
    sectors = range(start, start + DIRECTORY_LENGTH)
    return all(4 <= s <= image.sector_count and s not in reserved for s in sectors)


def _readable(image: AtrImage, geometry: Geometry, entry: DirectoryEntry) -> bool:
    if entry.is_directory or not entry.in_use:
        return False
    chain = walk_chain(image, geometry, entry)
    return chain.sound and len(chain.sectors) == entry.sector_count


def variant_of(image: AtrImage, code: int | None, total: int | None) -> Variant:
    """Which member of the family the disk is (``code`` and ``total``: the VTOC's, if
    it reads as one)."""
    size = (image.sector_count, image.sector_size)
    dos2 = BY_SIZE.get(size)
    if dos2 is None:
        return Variant.MYDOS
    mydos_code = mydos_vtoc_code(*size)
    if code is not None and code > VTOC_DOS_CODE and code == mydos_code:
        return Variant.MYDOS
    mydos_total = total in mydos_geometry(*size).capacities
    if total is not None and total not in DOS2_TOTALS[dos2.variant] and mydos_total:
        return Variant.MYDOS
    if _uses_mydos_entries(image):
        return Variant.MYDOS
    return dos2.variant


def _uses_mydos_entries(image: AtrImage) -> bool:
    return any(entry.flag & MYDOS_FLAG_BITS for entry in live_entries(image, ROOT_DIRECTORY))


def geometry_of(image: AtrImage, variant: Variant) -> Geometry:
    """The rules of a disk of ``variant`` and of this size (MyDOS: with the VTOC code
    MyDOS writes for the size; a VTOC holding another is damaged)."""
    if variant is not Variant.MYDOS:
        return BY_SIZE[(image.sector_count, image.sector_size)]
    return mydos_geometry(image.sector_count, image.sector_size)
