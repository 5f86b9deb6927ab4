"""The DOS 2 family of file systems: DOS 2.0S, DOS 2.5 (enhanced), DOS 2.0D and MyDOS.

They share one design, and differ in a few numbers kept as data in
:class:`~a8.disk.dos2.geometry.Geometry` (the rules of one disk):

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

One module per part of the design: :mod:`~a8.disk.dos2.geometry` (the variants'
numbers), :mod:`~a8.disk.dos2.vtoc` (bitmaps, counts, damage),
:mod:`~a8.disk.dos2.directory` (entries), :mod:`~a8.disk.dos2.chain` (links),
:mod:`~a8.disk.dos2.recognise` (which disk is one, and which member),
:mod:`~a8.disk.dos2.disk` (:class:`Dos2Disk`, reading and writing) and
:mod:`~a8.disk.dos2.check` (``a8 atr check``). The sources of these rules, checked
against each other and against real disks, are listed in docs/notes/disk-formats.md.
"""

from a8.disk.dos2.directory import DirectoryEntry, Flag
from a8.disk.dos2.disk import Dos2Disk, Dos2Error
from a8.disk.dos2.geometry import (
    DIRECTORY_LENGTH,
    GEOMETRIES,
    ROOT_DIRECTORY,
    Density,
    Geometry,
    Variant,
    mydos_vtoc_code,
    system_sectors,
)
from a8.disk.names import FileName

__all__ = [
    "DIRECTORY_LENGTH",
    "GEOMETRIES",
    "ROOT_DIRECTORY",
    "Density",
    "DirectoryEntry",
    "Dos2Disk",
    "Dos2Error",
    "FileName",
    "Flag",
    "Geometry",
    "Variant",
    "mydos_vtoc_code",
    "system_sectors",
]
