"""DOS 2 directories: eight sectors of eight 16-byte entries, read and written in place.

An entry is a flag byte, the file's sector count, its first sector and its name
(8 + 3 bytes, padded with spaces). A flag of 0 is the end of the directory: DOS
reads no further. The root directory is sectors 361-368; a MyDOS subdirectory is
the eight sectors from its entry's first sector.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterator
from dataclasses import dataclass

from a8.disk.atr import AtrImage
from a8.disk.dos2.geometry import DIRECTORY_LENGTH, ENTRIES_PER_SECTOR, ENTRY_SIZE, ROOT_DIRECTORY
from a8.disk.names import FileName

#: Directory entry: flag, sector count, start sector, name (8), extension (3).
DIRECTORY_ENTRY = struct.Struct("<BHH8s3s")


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

#: Flag bytes DOS 2 and DOS 2.5 write for a closed file (plain or locked).
VALID_FILE_FLAGS = frozenset({0x42, 0x62})
VALID_HIGH_FLAGS = frozenset({0x03, 0x23})
#: MyDOS adds 16-bit-link files and subdirectories (plain or locked).
VALID_MYDOS_FLAGS = frozenset({0x46, 0x66, 0x10, 0x30})
#: Flag bits no DOS of the family writes.
UNUSED_FLAG_BIT = 0x08

# The same bits as plain ints, for the properties read once per entry per walk.
_OPEN, _LONG, _SUBDIRECTORY = int(Flag.OPEN_OR_HIGH), int(Flag.LONG_LINKS), int(Flag.SUBDIRECTORY)
_LOCKED, _IN_USE, _DELETED = int(Flag.LOCKED), int(Flag.IN_USE), int(Flag.DELETED)
_HIGH = int(FLAG_HIGH_FILE)


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


def read_entries(image: AtrImage, directory: int = ROOT_DIRECTORY) -> Iterator[DirectoryEntry]:
    """All 64 slots of the directory starting at sector ``directory``, in order."""
    for index in range(DIRECTORY_LENGTH):
        raw = image.read_sector(directory + index)
        for slot in range(ENTRIES_PER_SECTOR):
            offset = slot * ENTRY_SIZE
            yield DirectoryEntry.unpack(
                index * ENTRIES_PER_SECTOR + slot, raw[offset : offset + ENTRY_SIZE], directory
            )


def write_entry(image: AtrImage, entry: DirectoryEntry) -> None:
    """Put ``entry`` back in its slot."""
    sector = entry.directory + entry.number // ENTRIES_PER_SECTOR
    raw = bytearray(image.read_sector(sector))
    offset = (entry.number % ENTRIES_PER_SECTOR) * ENTRY_SIZE
    raw[offset : offset + ENTRY_SIZE] = entry.pack()
    image.write_sector(sector, bytes(raw))


def live_entries(image: AtrImage, directory: int = ROOT_DIRECTORY) -> Iterator[DirectoryEntry]:
    """The entries before the end marker that are not deleted (whatever their flag)."""
    for entry in read_entries(image, directory):
        if entry.is_end:
            return
        if not entry.deleted:
            yield entry


def plain_name(entry: DirectoryEntry) -> bool:
    """Names that are odd but not damage: printable, no blanks inside, not empty.

    Tools that write disks on other computers store names no DOS would create
    (a digit first, ``&``, lower case): DOS lists them and wildcards reach them,
    so they are not reported. A name with control bytes, inner blanks or none at
    all is what a damaged directory sector looks like, and is reported.
    """
    raw = entry.name.name + entry.name.ext
    return bool(entry.name.name) and all(0x21 <= byte <= 0x7E for byte in raw)
