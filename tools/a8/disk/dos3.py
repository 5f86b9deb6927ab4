"""Atari DOS 3 (1983, for the 1050 drive): files in 1 KB blocks chained by one table. Read only.

DOS 3 shares nothing with DOS 2 but the 128-byte sector:

- Sectors 1-9 hold DOS's boot code (the boot record loads 9 sectors), 10-15 are
  unused, 16-23 are the directory and 24 is the **block table**. Files live in
  **blocks** of 8 sectors (1 KB) from sector 25: block *n* is sectors 25 + 8n to
  32 + 8n, so a 720-sector disk has 87 blocks and a 1040-sector one 127.
- The directory is 64 entries of 16 bytes. The first is DOS's own header: 14 zero
  bytes, the disk's block count, and $A5 (the format's mark). Then each file:
  status (bit 7: the entry was used, bit 6: the file exists, bit 1: locked, bit 0:
  open for writing; $C0 a file, $C2 locked, $80 deleted), name (8) and extension
  (3) padded with spaces, its number of blocks, its first block, and its length
  in bytes (2 bytes, low first). A status of 0 ends the directory.
- The block table holds one byte per block: the file's next block ($00-$7F),
  $FD for a file's last block, $FE for a free block, $FF for none (past the end
  of the disk). Every file has at least one block, an empty one too.
- The length is kept in 16 bits, so a file of 64 KB or more keeps only the low
  part: the whole length is the one that fits the block count, between the
  blocks before the last (full) and all of them.

``a8 atr`` lists and reads DOS 3 disks (ls, get, check) and never writes them.
Sources, read for facts only: atrfs's dos3.c (pcrow/atari_8bit_utils, which cites
the AtariAge thread "DOS 3 history"), Altirra's diskfsdos3.cpp (the 16-bit
length wrapping), and Atariki's "Format AtariDOS 3" (statuses, the header, at
least one block per file); the tests build DOS 3 disks byte by byte from them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

from a8.disk.atr import AtrImage
from a8.disk.filesystem import DirectoryTree, FileSystemError, Identity, columns, shape_of
from a8.disk.names import FileName
from a8.disk.problems import Checker, Problem, ProblemKind, runs

SECTOR_SIZE = 128
BOOT_SECTORS = 9
DIRECTORY = range(16, 24)
BLOCK_TABLE = 24
FIRST_BLOCK_SECTOR = 25
SECTORS_PER_BLOCK = 8
BLOCK_SIZE = SECTORS_PER_BLOCK * SECTOR_SIZE
#: The block table is one sector: one byte per block, block numbers up to $7F.
MOST_BLOCKS = SECTOR_SIZE
ENTRY_SIZE = 16
ENTRIES = len(DIRECTORY) * SECTOR_SIZE // ENTRY_SIZE
#: The header entry: 14 zero bytes, the block count, the format's mark.
MARK = 0xA5
#: Directory entry: status, name (8), extension (3), blocks, first block, length.
ENTRY = struct.Struct("<B8s3sBBH")

LAST = 0xFD
FREE = 0xFE
NONE = 0xFF

USED, EXISTS, LOCKED, OPEN = 0x80, 0x40, 0x02, 0x01
#: Status bits DOS 3 never sets.
UNUSED_STATUS_BITS = 0x3C


class Dos3Error(FileSystemError):
    """A DOS 3 read that cannot be done (missing file, broken chain, a write...)."""


def block_count(image: AtrImage) -> int:
    """The blocks of 8 sectors after sector 24 (no more than the table can number)."""
    return min(max(image.sector_count - BLOCK_TABLE, 0) // SECTORS_PER_BLOCK, MOST_BLOCKS)


def block_sectors(block: int) -> range:
    start = FIRST_BLOCK_SECTOR + block * SECTORS_PER_BLOCK
    return range(start, start + SECTORS_PER_BLOCK)


@dataclass(frozen=True)
class Dos3Entry:
    """One directory entry (not the header)."""

    number: int
    status: int
    name: FileName
    blocks: int
    start: int
    #: The length's low 16 bits, as DOS 3 keeps it.
    length: int

    @property
    def is_end(self) -> bool:
        return self.status == 0

    @property
    def in_use(self) -> bool:
        """A file DIR shows: used, existing, not left open for writing."""
        return self.status & (USED | EXISTS | OPEN) == USED | EXISTS

    @property
    def open_for_output(self) -> bool:
        return self.status & (USED | EXISTS | OPEN) == USED | EXISTS | OPEN

    @property
    def deleted(self) -> bool:
        return self.status & (USED | EXISTS) == USED

    @property
    def locked(self) -> bool:
        return bool(self.status & LOCKED)

    @property
    def is_directory(self) -> bool:
        return False

    def size(self, blocks: int | None = None) -> int | None:
        """The file's length in bytes with ``blocks`` blocks (the entry's own count if
        None): the one that agrees with the 16 bits kept, or None if none does."""
        count = self.blocks if blocks is None else blocks
        if count < 1:
            return None
        floor = (count - 1) * BLOCK_SIZE
        size = floor + (self.length - floor) % 0x10000
        return size if size <= count * BLOCK_SIZE else None


@dataclass(frozen=True)
class BlockChain:
    """A file's blocks as far as the table could be followed, and why it stopped."""

    blocks: list[int]
    kind: ProblemKind | None = None
    fault: str = ""


def recognised(image: AtrImage) -> bool:
    """Sector 16 starts with DOS 3's header, and two of three further signs hold: the
    boot record loads 9 sectors; the header's block count is the disk's; the block
    table holds only values DOS 3 writes. Two of three let ``check`` see a disk damaged
    in one of them."""
    if image.sector_size != SECTOR_SIZE or image.sector_count < FIRST_BLOCK_SECTOR + 7:
        return False
    header = image.read_sector(DIRECTORY.start)
    if any(header[:14]) or header[15] != MARK:
        return False
    count = block_count(image)
    table = image.read_sector(BLOCK_TABLE)[:count]
    signs = (
        image.read_sector(1)[1] == BOOT_SECTORS,
        header[14] == count,
        all(value < count or value in (LAST, FREE, NONE) for value in table),
    )
    return sum(signs) >= 2


class Dos3Disk(DirectoryTree[Dos3Entry]):
    """A DOS 3 file system, read from an ATR image."""

    names = ("DOS 3",)
    error = Dos3Error

    def __init__(self, image: AtrImage) -> None:
        super().__init__(image, Identity("DOS 3", shape_of(image)))
        self.block_count = block_count(image)

    @classmethod
    def recognise(cls, image: AtrImage) -> Dos3Disk | None:
        return cls(image) if recognised(image) else None

    @property
    def has_subdirectories(self) -> bool:
        return False

    @property
    def root(self) -> int:
        return DIRECTORY.start

    def table(self) -> bytes:
        return self.image.read_sector(BLOCK_TABLE)

    def entries(self) -> Iterator[Dos3Entry]:
        """Every entry after the header, in order, to the last slot."""
        raw = b"".join(self.image.read_sector(sector) for sector in DIRECTORY)
        for number in range(1, ENTRIES):
            status, name, ext, blocks, start, length = ENTRY.unpack_from(raw, number * ENTRY_SIZE)
            yield Dos3Entry(number, status, FileName.from_entry(name, ext), blocks, start, length)

    def listed(self, directory: int = DIRECTORY.start) -> list[Dos3Entry]:
        found = []
        for entry in self.entries():
            if entry.is_end:
                break
            if entry.in_use:
                found.append(entry)
        return found

    def walk_blocks(self, entry: Dos3Entry) -> BlockChain:
        """Follow ``entry``'s blocks through the table to the block marked last."""
        table = self.table()
        blocks: list[int] = []
        block = entry.start
        while True:
            if block >= self.block_count:
                fault = f"reaches block {block}, past the disk's {self.block_count} blocks"
                return BlockChain(blocks, ProblemKind.CHAIN_OUT_OF_RANGE, fault)
            if block in blocks:
                return BlockChain(blocks, ProblemKind.CHAIN_LOOP, f"loops back to block {block}")
            blocks.append(block)
            value = table[block]
            if value == LAST:
                return BlockChain(blocks)
            if value >= self.block_count:
                what = {FREE: "free", NONE: "no block"}.get(value, "no value DOS 3 writes")
                fault = f"block table byte {block} is ${value:02X} ({what}) inside the file"
                return BlockChain(blocks, ProblemKind.BAD_BLOCK_TABLE, fault)
            block = value

    def read_entry(self, entry: Dos3Entry) -> bytes:
        where = f"{self.source}: {entry.name}"
        chain = self.walk_blocks(entry)
        if chain.kind is not None:
            raise Dos3Error(f"{where}: {chain.fault}")
        if len(chain.blocks) != entry.blocks:
            raise Dos3Error(
                f"{where}: the directory says {entry.blocks} blocks, the chain has "
                f"{len(chain.blocks)}"
            )
        size = entry.size()
        if size is None:
            raise Dos3Error(f"{where}: length {entry.length} cannot fill {entry.blocks} block(s)")
        data = b"".join(
            self.image.read_sector(sector)
            for block in chain.blocks
            for sector in block_sectors(block)
        )
        return data[:size]

    def entry_line(self, entry: Dos3Entry) -> str:
        """Locked mark, name, extension, blocks (1 KB each), length in bytes."""
        lock = "*" if entry.locked else " "
        size = entry.size()
        shown_size = "?" if size is None else str(size)
        return f"{lock} {columns(entry.name)} {entry.blocks:03d} {shown_size:>6}"

    def free_blocks(self) -> int:
        return sum(1 for value in self.table()[: self.block_count] if value == FREE)

    def free_line(self) -> str:
        return f"{self.free_blocks():03d} FREE BLOCKS"

    def check(self) -> list[Problem]:
        return _Dos3Checker(self).run()


class _Dos3Checker(Checker):
    """DOS 3's facts kept twice: the files' block chains and the block table's marks."""

    def __init__(self, disk: Dos3Disk) -> None:
        super().__init__(disk.source)
        self.disk = disk
        #: block -> the file that uses it
        self.blocks: dict[int, str] = {}
        #: blocks of a file left open for writing: neither free nor used for sure
        self.unsettled: set[int] = set()

    def run(self) -> list[Problem]:
        disk = self.disk
        header = disk.image.read_sector(DIRECTORY.start)
        if header[14] != disk.block_count:
            self.report(
                ProblemKind.SECTOR_COUNT,
                f"directory header byte 14: {header[14]} blocks, the image has {disk.block_count}",
            )
        seen: dict[str, int] = {}
        ended = False
        for entry in disk.entries():
            where = f"directory entry {entry.number}"
            if entry.is_end:
                ended = True
            elif entry.deleted:
                continue
            elif ended:
                self.report(
                    ProblemKind.ENTRY_AFTER_END,
                    f"{where} ({entry.name}) follows the end of the directory: DOS never sees it",
                )
            elif entry.status & UNUSED_STATUS_BITS:
                self.report(
                    ProblemKind.BAD_FLAG, f"{where} ({entry.name}): bad status {entry.status:02X}"
                )
            elif entry.open_for_output:
                self.report(
                    ProblemKind.FILE_OPEN,
                    f"{where} ({entry.name}): status {entry.status:02X}: "
                    "file left open for writing",
                )
                self.unsettled.update(disk.walk_blocks(entry).blocks)
            else:
                key = str(entry.name).upper()
                if key in seen:
                    self.report(
                        ProblemKind.DUPLICATE_NAME,
                        f"{where}: {entry.name} already in entry {seen[key]}",
                    )
                seen.setdefault(key, entry.number)
                self.check_file(entry, f"{entry.name} (entry {entry.number})")
        self.check_table()
        return self.problems

    def check_file(self, entry: Dos3Entry, where: str) -> None:
        chain = self.disk.walk_blocks(entry)
        for block in chain.blocks:
            if block in self.blocks:
                self.report(
                    ProblemKind.CROSS_LINKED,
                    f"{where}: block {block} also belongs to {self.blocks[block]}",
                )
                return
            self.blocks[block] = str(entry.name)
        if chain.kind is not None:
            self.report(chain.kind, f"{where}: {chain.fault}")
            return
        if len(chain.blocks) != entry.blocks:
            self.report(
                ProblemKind.WRONG_SECTOR_COUNT,
                f"{where}: directory says {entry.blocks} blocks, chain has {len(chain.blocks)}",
            )
        elif entry.size() is None:
            self.report(
                ProblemKind.BAD_FILE_SIZE,
                f"{where}: length {entry.length} cannot fill {entry.blocks} block(s)",
            )

    def check_table(self) -> None:
        table = self.disk.table()
        lost: list[int] = []
        for block in range(self.disk.block_count):
            value, owner = table[block], self.blocks.get(block)
            if value == FREE and owner is not None:
                self.report(
                    ProblemKind.USED_SECTOR_FREE,
                    f"block {block} of {owner} is marked free in the block table",
                )
            elif value not in (FREE, NONE) and owner is None and block not in self.unsettled:
                lost.append(block)
            if value not in (LAST, FREE, NONE) and value >= self.disk.block_count:
                self.report(
                    ProblemKind.BAD_BLOCK_TABLE,
                    f"block table byte {block} is ${value:02X}, no value DOS 3 writes",
                )
        for first, last in runs(lost):
            if first == last:
                message = f"block {first} is marked in use but belongs to no file"
            else:
                message = f"blocks {first}-{last} are marked in use but belong to no file"
            self.report(ProblemKind.LOST_SECTOR, message)
