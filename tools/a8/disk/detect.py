"""Which file system a disk image holds, from what the DOSes write on it.

Nothing on an Atari disk says "this is DOS 2" outright: each file system is told
apart by structures that must be there and be consistent. The rules, in the order
they are tried (the first that holds wins):

1. **SpartaDOS** (1.1, 2.x/3.x, X; also BW-DOS, which writes the 2.x format):
   sector 1 is a superblock. Byte 32 is the format revision ($11, $20 or $21),
   byte 31 codes the sector size ($80 = 128, $00 = 256, $01 = 512) and must match
   the image, byte 1 loads 3 boot sectors (1 with 512-byte sectors; 0 on disks a PC
   tool made without boot code), bytes 11-12 give the sector count (the image's,
   or more for a truncated image), byte 15 the number of bitmap sectors (enough for that count)
   and bytes 16-17 the first one, bytes 9-10 the root directory's sector map;
   all inside the disk. Sources: the SpartaDOS X user guide's disk-structure
   appendix as summarised in atari8bit tools (Altirra's diskfssdx2.cpp, xedisk's
   sparta.d, atrfs's sparta.c) and the real SpartaDOS/BW-DOS disks of the corpus.
2. **DOS XE**: sector 1 starts with "X", 3 boot sectors, and jumps to $0730 (bytes
   6-8 = JMP $0730); its 256-byte "sectors" (pairs on 128-byte disks) are not
   DOS 2's. Sources: the AtariAge thread "DOS XE technical details" and atrfs's
   dosxe.c. (XDOS also writes "X" in byte 0 but keeps the DOS 2 layout, so the
   jump address decides.)
3. **The DOS 2 family** (DOS 2.0S, 2.5, 2.0D, MyDOS): the VTOC in sector 360 and
   the directory in 361-368 look like theirs (:func:`dos2_family_plausible`: the
   DOS code from 2 (1 is DOS 1, not read here) to 2 + 33 (MyDOS adds one per
   extra 256 bytes of bitmap), a total not above the sector count, the VTOC
   marked in use, live directory entries). See :func:`dos2_variant` for which of
   the four it is.
4. Otherwise: **no file system I know**. Boot disks (games, demos, loaders) carry
   none; the boot record in sector 1 is still described.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass

from a8.disk.atr import AtrError, AtrImage


class FileSystemKind(enum.Enum):
    """The file systems ``a8 atr`` names; the value is how it names them."""

    DOS_20S = "DOS 2.0S"
    DOS_25 = "DOS 2.5"
    DOS_20D = "DOS 2.0D"
    MYDOS = "MyDOS"
    SPARTADOS = "SpartaDOS"
    DOS_XE = "DOS XE"
    UNKNOWN = "no file system I know"

    @property
    def dos2_family(self) -> bool:
        return self in DOS2_FAMILY


DOS2_FAMILY = frozenset(
    {FileSystemKind.DOS_20S, FileSystemKind.DOS_25, FileSystemKind.DOS_20D, FileSystemKind.MYDOS}
)


@dataclass(frozen=True)
class Identity:
    """What :func:`identify` found: the kind, the name to print and a detail line."""

    kind: FileSystemKind
    name: str
    detail: str

    def __str__(self) -> str:
        return f"{self.name} ({self.detail})" if self.detail else self.name


# -- SpartaDOS -------------------------------------------------------------------------

#: Superblock (sector 1) fields used to recognise SpartaDOS.
SPARTA_REVISIONS = {0x11: "SpartaDOS 1.1", 0x20: "SpartaDOS 2.x/3.x", 0x21: "SpartaDOS X"}
SPARTA_SIZE_CODES = {0x80: 128, 0x00: 256, 0x01: 512}


def sparta_revision(image: AtrImage) -> str | None:
    """The SpartaDOS format name if sector 1 is a consistent superblock, else None."""
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


# -- DOS XE -----------------------------------------------------------------------------

DOS_XE_JUMP = bytes([0x4C, 0x30, 0x07])


def is_dos_xe(image: AtrImage) -> bool:
    boot = image.read_sector(1)
    return boot[0] == ord("X") and boot[1] == 3 and boot[6:9] == DOS_XE_JUMP


# -- the DOS 2 family ------------------------------------------------------------------

VTOC_SECTOR = 360
ROOT_DIRECTORY = 361
#: MyDOS codes: 2 + the number of 256-byte pages of bitmap beyond the first sector.
MAX_VTOC_CODE = 2 + 33
#: Directory flag bits no DOS of the family writes.
UNUSED_FLAG_BIT = 0x08


def dos2_family_plausible(image: AtrImage) -> bool:
    """Sectors 360-368 read as a DOS 2 / MyDOS VTOC and directory.

    Four signs are weighed, and three must hold, so that a disk damaged in one of
    them is still recognised (and ``check`` can report the damage): the DOS code is
    2..35; the total is above 0 and not above the sector count; the bitmap marks
    the VTOC sector in use; the directory holds at least one live file whose first
    sector is on the disk. In any case the directory must read as directory
    entries: no flag with bit 3 set (no DOS of the family writes it) or a start
    sector off the disk, except for fewer entries than there are good ones.
    """
    if image.sector_size not in (128, 256) or image.sector_count < 368:
        return False
    vtoc = image.read_sector(VTOC_SECTOR)
    code, total = vtoc[0], struct.unpack_from("<H", vtoc, 1)[0]
    good, bad = _directory_counts(image)
    if bad > good:
        return False
    signs = (
        2 <= code <= MAX_VTOC_CODE,
        0 < total <= image.sector_count,
        not vtoc[10 + VTOC_SECTOR // 8] & (0x80 >> (VTOC_SECTOR % 8)),
        good > 0,
    )
    return sum(1 for sign in signs if sign) >= 3


def _directory_counts(image: AtrImage, first: int = ROOT_DIRECTORY) -> tuple[int, int]:
    """Live entries that look right, and entries that no DOS of the family writes."""
    good = bad = 0
    for sector in range(first, first + 8):
        raw = image.read_sector(sector)[:128]
        for offset in range(0, 128, 16):
            flag = raw[offset]
            if flag == 0:
                return good, bad
            if flag & 0x80:
                continue  # deleted: the rest of the entry does not matter
            start = raw[offset + 3] | raw[offset + 4] << 8
            if flag & UNUSED_FLAG_BIT or not 1 <= start <= image.sector_count:
                bad += 1
            elif flag & 0x40 or flag & 0x13 in (0x03, 0x10):
                good += 1
    return good, bad


#: DOS 2 geometries: (sector count, sector size) -> the variant DOS 2 itself writes.
DOS2_GEOMETRIES = {
    (720, 128): FileSystemKind.DOS_20S,
    (1040, 128): FileSystemKind.DOS_25,
    (720, 256): FileSystemKind.DOS_20D,
}
#: Totals (VTOC bytes 1-2) that the DOS 2 variants write. DOS 2.5 writes 1010 by
#: its documentation and on most real disks, but real DOS 2.5 disks with 707 exist
#: (the DOS 2.0 total, left by formatting or copying tools): both are accepted.
DOS2_TOTALS = {
    FileSystemKind.DOS_20S: (707,),
    FileSystemKind.DOS_25: (1010, 707),
    FileSystemKind.DOS_20D: (707,),
}
#: Directory flags that only MyDOS writes: a subdirectory, and 16-bit sector links.
MYDOS_FLAG_BITS = 0x10 | 0x04


def dos2_variant(image: AtrImage) -> FileSystemKind:
    """Which member of the DOS 2 family a disk with a plausible VTOC is.

    - MyDOS if the VTOC code is 3 or more (a bitmap longer than one sector), if
      the disk has a size DOS 2 never formats, if the total is MyDOS's (it counts
      sector 720: 708 on a 720-sector disk, the sector count less 12 in general),
      or if the directory holds MyDOS-only entries (subdirectories, 16-bit links).
    - Otherwise the DOS 2 variant of the disk's size: DOS 2.5 on 1040 x 128 (MyDOS
      uses code 3 there), DOS 2.0S on 720 x 128, DOS 2.0D on 720 x 256; a damaged
      code or total is then reported by ``check``, not taken for another DOS.
    """
    vtoc = image.read_sector(VTOC_SECTOR)
    code, total = vtoc[0], struct.unpack_from("<H", vtoc, 1)[0]
    kind = DOS2_GEOMETRIES.get((image.sector_count, image.sector_size))
    if kind is None or 2 < code <= MAX_VTOC_CODE:
        return FileSystemKind.MYDOS
    if total not in DOS2_TOTALS[kind] and total == image.sector_count - 12:
        return FileSystemKind.MYDOS
    if _uses_mydos_entries(image):
        return FileSystemKind.MYDOS
    return kind


def _uses_mydos_entries(image: AtrImage) -> bool:
    for sector in range(ROOT_DIRECTORY, ROOT_DIRECTORY + 8):
        raw = image.read_sector(sector)[:128]
        for offset in range(0, 128, 16):
            flag = raw[offset]
            if flag == 0:
                return False
            if not flag & 0x80 and flag & MYDOS_FLAG_BITS:
                return True
    return False


# -- all together ----------------------------------------------------------------------


def identify(image: AtrImage) -> Identity:
    """The file system on ``image`` (see the module's rules)."""
    shape = f"{image.sector_count} sectors of {image.sector_size} bytes"
    try:
        revision = sparta_revision(image)
        if revision is not None:
            return Identity(FileSystemKind.SPARTADOS, revision, shape)
        if is_dos_xe(image):
            return Identity(FileSystemKind.DOS_XE, "DOS XE", shape)
        if dos2_family_plausible(image):
            kind = dos2_variant(image)
            return Identity(kind, kind.value, shape)
    except AtrError:
        pass  # a sector the rules need is missing: not a file system we know
    return Identity(FileSystemKind.UNKNOWN, FileSystemKind.UNKNOWN.value, describe_boot(image))


def describe_boot(image: AtrImage) -> str:
    """What sector 1's boot record says (for disks with no file system we know)."""
    boot = image.read_sector(1)
    count, load = boot[1], boot[2] | boot[3] << 8
    shape = f"{image.sector_count} sectors of {image.sector_size} bytes"
    if count == 0:
        return f"{shape}, no boot record"
    return f"{shape}; boot record: {count} sectors loaded at ${load:04X}"
