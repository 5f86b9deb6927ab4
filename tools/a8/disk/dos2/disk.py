"""A DOS 2 family disk, read and changed in memory: :class:`Dos2Disk`.

Reading follows the directory and the sector chains, as DOS does, so it works on
a disk whose VTOC is damaged (:mod:`a8.disk.dos2.recognise` still recognises it by
its directory): such a disk is read with a warning and never written. Writing
allocates from the VTOC's bitmap, keeps away from every sector a file or a
subdirectory really uses, and checks everything that can refuse a file before it
changes anything. The command line writes the image back atomically only when an
operation has fully succeeded.
"""

from __future__ import annotations

from dataclasses import replace

from a8.disk.atr import AtrImage
from a8.disk.dos2.chain import Chain, Link, read_link, walk_chain
from a8.disk.dos2.check import check_dos2
from a8.disk.dos2.directory import (
    FLAG_FILE,
    FLAG_HIGH_FILE,
    FLAG_LONG_FILE,
    DirectoryEntry,
    Flag,
    read_entries,
    write_entry,
)
from a8.disk.dos2.geometry import (
    BOOT_SECTORS,
    DIRECTORY_LENGTH,
    FIRST_HIGH_SECTOR,
    GEOMETRIES,
    MAX_FILES,
    MYDOS_SECTOR_COUNTS,
    MYDOS_SECTOR_SIZES,
    ROOT_DIRECTORY,
    VTOC_SECTOR,
    Density,
    Geometry,
    bitmap_range,
    mydos_geometry,
    system_sectors,
)
from a8.disk.dos2.recognise import recognise, usable_directory
from a8.disk.dos2.vtoc import VTOC_HEADER, free_count, read_free, write_vtoc
from a8.disk.filesystem import (
    FileSystemError,
    Identity,
    NewFile,
    WritableFileSystem,
    columns,
    shape_of,
)
from a8.disk.names import FileName, FileNameError
from a8.disk.problems import Problem


class Dos2Error(FileSystemError):
    """A DOS 2 operation that cannot be done (disk full, bad name, missing file...)."""


class Dos2Disk(WritableFileSystem[DirectoryEntry]):
    """A DOS 2 family file system on an ATR image, changed in memory."""

    names = ("DOS 2.0S", "DOS 2.5", "DOS 2.0D", "MyDOS")
    error = Dos2Error

    def __init__(
        self, image: AtrImage, geometry: Geometry | None = None, *, damage: str | None = None
    ) -> None:
        if geometry is None:
            found = recognise(image)
            if found is None:
                from a8.disk.detect import identify  # the registry names what it is instead

                raise Dos2Error(f"{image.source}: not a DOS 2 disk: {identify(image)}")
            geometry, damage = found.geometry, found.damage
        detail = shape_of(image) + (", VTOC damaged" if damage else "")
        super().__init__(image, Identity(geometry.dos_name, detail))
        self.geometry = geometry
        #: What is wrong with the VTOC (None: sound); a damaged disk is never written.
        self.damage = damage
        self.free = read_free(image, geometry)

    @classmethod
    def recognise(cls, image: AtrImage) -> Dos2Disk | None:
        found = recognise(image)
        return None if found is None else cls(image, found.geometry, damage=found.damage)

    # -- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, density: Density | Geometry = Density.SINGLE, source: str = "<image>") -> Dos2Disk:
        """A formatted, empty disk of a DOS 2 density or of the rules given (MyDOS:
        :meth:`new_mydos`): every sector free but the system's."""
        geometry = GEOMETRIES[density] if isinstance(density, Density) else density
        image = AtrImage.blank(geometry.sector_count, geometry.sector_size, source)
        vtoc = bytearray(image.read_sector(VTOC_SECTOR))
        VTOC_HEADER.pack_into(vtoc, 0, geometry.vtoc_code, geometry.capacity, 0)
        image.write_sector(VTOC_SECTOR, bytes(vtoc))
        disk = cls(image, geometry)
        reserved = system_sectors(geometry)
        disk.free = {s for s in bitmap_range(geometry) if s not in reserved}
        write_vtoc(image, geometry, disk.free)
        return disk

    @classmethod
    def new_mydos(
        cls, sector_count: int, sector_size: int = 256, source: str = "<image>"
    ) -> Dos2Disk:
        """An empty MyDOS disk of any size MyDOS formats, laid out as MyDOS lays it
        out (and as a8 reads it): the VTOC from sector 360 down, as many sectors as
        the bitmap needs, the directory in 361-368, sector 720 an ordinary one, and
        16-bit links from 1024 sectors up. Drives such as SDrive, FujiNet and SIO2PC
        serve such images; DOS 2.5 cannot read the larger ones."""
        if sector_size not in MYDOS_SECTOR_SIZES:
            raise Dos2Error(
                f"{source}: a MyDOS disk has sectors of 128 or 256 bytes, not {sector_size}"
            )
        if sector_count not in MYDOS_SECTOR_COUNTS:
            low, high = MYDOS_SECTOR_COUNTS.start, MYDOS_SECTOR_COUNTS.stop - 1
            raise Dos2Error(
                f"{source}: a MyDOS disk has {low} to {high} sectors, not {sector_count}"
            )
        return cls.new(mydos_geometry(sector_count, sector_size), source)

    # -- what the commands see ------------------------------------------------------

    def warnings(self) -> list[str]:
        if self.damage is None:
            return []
        return [
            f"{self.source}: warning: VTOC sector {VTOC_SECTOR} is damaged ({self.damage}); "
            "files are read through the directory, and a8 does not write this disk"
        ]

    def refusal(self) -> str | None:
        if self.damage is None:
            return None
        return (
            f"{self.source}: {self.identity}: VTOC sector {VTOC_SECTOR} is damaged "
            f"({self.damage}); a8 reads its files but does not write it"
        )

    def check(self) -> list[Problem]:
        return check_dos2(self)

    @property
    def free_sectors(self) -> int:
        """Free sectors as DOS reports them (from the VTOC counts); on a damaged VTOC,
        the data sectors no file uses."""
        if self.damage is None:
            return free_count(self.image, self.geometry)
        highest = min(self.geometry.highest_data_sector, self.image.sector_count)
        used = self.owned_sectors() | system_sectors(self.geometry)
        return sum(1 for sector in range(1, highest + 1) if sector not in used)

    def free_below(self, end: int) -> int:
        return sum(1 for s in self.free if s < end)

    def entry_line(self, entry: DirectoryEntry) -> str:
        """DOS 2's line: ``*`` for locked, ``<`` for a file in DOS 2.5's sectors 720 and
        above (flag 0x03), ``:`` for a MyDOS subdirectory, name, extension, sectors."""
        lock = "*" if entry.locked else " "
        mark = ":" if entry.is_directory else "<" if entry.uses_high_sectors else " "
        return f"{lock}{mark}{columns(entry.name)} {entry.sector_count:03d}"

    def free_line(self) -> str:
        line = f"{self.free_sectors:03d} FREE SECTORS"
        return line if self.damage is None else f"{line} (counted from the files)"

    # -- directories ----------------------------------------------------------------

    @property
    def root(self) -> int:
        return ROOT_DIRECTORY

    @property
    def has_subdirectories(self) -> bool:
        return self.geometry.is_mydos

    def entries(self, directory: int = ROOT_DIRECTORY) -> list[DirectoryEntry]:
        """All 64 slots of the directory starting at sector ``directory``, in order."""
        return list(read_entries(self.image, directory))

    def listed(self, directory: int = ROOT_DIRECTORY) -> list[DirectoryEntry]:
        """Files and subdirectories up to the end marker, as DOS lists them."""
        found = []
        for entry in read_entries(self.image, directory):
            if entry.is_end:
                break
            if self.is_file(entry) or (self.geometry.is_mydos and entry.is_directory):
                found.append(entry)
        return found

    def is_file(self, entry: DirectoryEntry) -> bool:
        """A file DOS shows (DOS 2.5's 0x03 form only counts on DOS 2.5 disks)."""
        if entry.uses_high_sectors and not self.geometry.has_vtoc2:
            return False
        return entry.in_use

    def files(self, directory: int = ROOT_DIRECTORY) -> list[DirectoryEntry]:
        """Live files (not subdirectories) up to the directory's end marker."""
        return [entry for entry in self.listed(directory) if self.is_file(entry)]

    def subdirectory(self, entry: DirectoryEntry) -> int | None:
        return entry.start if entry.is_directory and self.directory_ok(entry.start) else None

    def directory_ok(self, start: int) -> bool:
        """Can sectors ``start``..``start+7`` hold a subdirectory (inside the disk, not system)?"""
        return usable_directory(self.image, self.geometry, start)

    def directory_sectors(self) -> list[int]:
        """The first sector of the root and of every reachable MyDOS subdirectory."""
        return [directory for _, directory in self._directories()]

    # -- reading ------------------------------------------------------------------

    def link(self, sector: int, long: bool = False) -> Link:
        """The link bytes that end data sector ``sector``."""
        return read_link(self.image, self.geometry, sector, long)

    def walk_chain(self, entry: DirectoryEntry) -> Chain:
        """Follow ``entry``'s chain as DOS would, noting every fault on the way."""
        return walk_chain(self.image, self.geometry, entry)

    def chain(self, entry: DirectoryEntry) -> list[tuple[int, Link]]:
        """The file's sectors and their links, refusing a chain DOS could not follow."""
        walked = self.walk_chain(entry)
        where = f"{self.source}: {entry.name}"
        if walked.fault is not None:
            raise Dos2Error(f"{where}: {walked.message}")
        if walked.warnings:
            raise Dos2Error(f"{where}: {walked.warnings[0][2]}")
        return walked.sectors

    def read_entry(self, entry: DirectoryEntry) -> bytes:
        sectors = self.chain(entry)
        return b"".join(self.image.read_sector(s)[: link.bytes_used] for s, link in sectors)

    def owned_sectors(self) -> set[int]:
        """Every sector a live file's chain or a subdirectory uses (as far as they go)."""
        owned: set[int] = set()
        for directory in self.directory_sectors():
            if directory != ROOT_DIRECTORY:
                owned.update(range(directory, directory + DIRECTORY_LENGTH))
            for entry in read_entries(self.image, directory):
                if entry.is_end:
                    break
                if self.is_file(entry) or entry.open_for_output:
                    owned.update(sector for sector, _ in self.walk_chain(entry).sectors)
        return owned

    # -- writing ------------------------------------------------------------------

    def _writable(self) -> None:
        refusal = self.refusal()
        if refusal is not None:
            raise Dos2Error(refusal)

    def parse_new_name(self, text: str) -> FileName:
        """A new file's name under this disk's rules (Dos2Error naming the disk if they
        refuse it: the name alone does not say which disk of a command it was for)."""
        try:
            return FileName.parse(text, self.geometry.names)
        except FileNameError as error:
            raise Dos2Error(f"{self.source}: {error}") from None

    def new_file(self, path: str, *, nested: bool = True) -> NewFile:
        directory, leaf = self.split_path(path) if nested else (ROOT_DIRECTORY, path)
        return NewFile(directory, self.parse_new_name(leaf))

    def add(self, new: NewFile, data: bytes) -> None:
        self.add_file(new.name, data, new.directory)

    def remove(self, path: str) -> None:
        self.remove_file(path)

    def add_file(
        self, name: str | FileName, data: bytes, directory: int = ROOT_DIRECTORY
    ) -> DirectoryEntry:
        """Store ``data`` as a new file (replacing an unlocked file of that name).

        Everything that can refuse the file (a locked file of that name, a broken
        chain, a full directory, too few free sectors) is checked before anything
        changes, so a refused file leaves the disk as it was, in memory too.
        """
        self._writable()
        file_name = name if isinstance(name, FileName) else self.parse_new_name(name)
        existing = self.lookup(directory, str(file_name))
        reclaimed: set[int] = set()
        if existing is not None:
            if existing.is_directory:
                raise Dos2Error(f"{self.source}: {existing.name} is a directory")
            if existing.locked:
                raise Dos2Error(f"{self.source}: {existing.name} is locked")
            reclaimed = {sector for sector, _ in self.chain(existing)}
        elif not any(self._free_slot(e) for e in read_entries(self.image, directory)):
            raise Dos2Error(
                f"{self.source}: directory full ({MAX_FILES} files), cannot add {file_name}"
            )
        sectors = self._allocate(file_name, len(data), reclaimed)
        if existing is not None:
            self._delete(existing)
        slot = next(e for e in read_entries(self.image, directory) if self._free_slot(e))
        geometry = self.geometry
        per_sector = geometry.data_bytes
        long = geometry.long_links
        for index, sector in enumerate(sectors):
            chunk = data[index * per_sector : (index + 1) * per_sector]
            following = sectors[index + 1] if index + 1 < len(sectors) else 0
            link = Link(None if long else slot.number, following, len(chunk))
            self.image.write_sector(sector, chunk.ljust(per_sector, b"\0") + link.pack())
            self.free.discard(sector)
        high = geometry.has_vtoc2 and any(s >= FIRST_HIGH_SECTOR for s in sectors)
        flag = FLAG_HIGH_FILE if high else FLAG_LONG_FILE if long else FLAG_FILE
        entry = DirectoryEntry(
            slot.number, int(flag), len(sectors), sectors[0], file_name, directory
        )
        write_entry(self.image, entry)
        write_vtoc(self.image, geometry, self.free)
        return entry

    def available_sectors(self, reclaimed: frozenset[int] = frozenset()) -> list[int]:
        """The sectors a new file may take, lowest first (the order ``add_file`` uses):
        free in the bitmap (or in ``reclaimed``, a replaced file's), used by nothing,
        neither a system sector nor past the last data sector."""
        geometry = self.geometry
        reserved = system_sectors(geometry)
        in_use = self.owned_sectors() - reclaimed
        highest = min(geometry.highest_data_sector, self.image.sector_count)
        return sorted(
            s
            for s in self.free | reclaimed
            if 1 <= s <= highest and s not in reserved and s not in in_use
        )

    def _allocate(self, name: FileName, size: int, reclaimed: set[int]) -> list[int]:
        """The sectors a file of ``size`` bytes goes to: the first of
        :meth:`available_sectors`; refused if too few."""
        count = max(1, -(-size // self.geometry.data_bytes))
        available = self.available_sectors(frozenset(reclaimed))
        if count > len(available):
            raise Dos2Error(
                f"{self.source}: disk full: {name} needs {count} sectors, {len(available)} free"
            )
        return available[:count]

    @staticmethod
    def _free_slot(entry: DirectoryEntry) -> bool:
        return entry.is_end or entry.deleted

    def remove_file(self, name: str) -> None:
        self._writable()
        entry = self.find(name)
        if entry.locked:
            raise Dos2Error(f"{self.source}: {entry.name} is locked")
        self._delete(entry)

    def _delete(self, entry: DirectoryEntry) -> None:
        """Free the file's sectors (never a system sector: the chain is checked first)."""
        sectors = [sector for sector, _ in self.chain(entry)]
        reserved = system_sectors(self.geometry)
        for sector in sectors:
            if sector in reserved:  # chain() refuses these; kept as a last guard
                raise Dos2Error(f"{self.source}: {entry.name}: system sector {sector}")
            self.free.add(sector)
        write_entry(self.image, replace(entry, flag=int(Flag.DELETED)))
        write_vtoc(self.image, self.geometry, self.free)

    def set_locked(self, name: str, locked: bool) -> None:
        self._writable()
        entry = self.find(name)
        flag = entry.flag | Flag.LOCKED if locked else entry.flag & ~Flag.LOCKED
        write_entry(self.image, replace(entry, flag=int(flag)))

    def write_system_sector(self, sector: int, data: bytes) -> None:
        """Write ``data`` into ``sector``, one DOS never gives to a file (DOS 2.0 and 2.5:
        720). On MyDOS, which does, the sector must be free: it is then marked in use."""
        self._writable()
        geometry = self.geometry
        if sector not in system_sectors(geometry):
            if sector in self.owned_sectors():
                raise Dos2Error(
                    f"{self.source}: sector {sector} is part of a file; the image is unchanged"
                )
            if sector in self.free:
                self.free.discard(sector)
                write_vtoc(self.image, geometry, self.free)
        self.image.write_sector(sector, data)

    def write_boot(self, code: bytes) -> None:
        """Put ``code`` (at most 384 bytes) in boot sectors 1-3."""
        self._writable()
        if len(code) > 3 * 128:
            raise Dos2Error(f"{self.source}: boot code of {len(code)} bytes exceeds 384")
        padded = code.ljust(3 * 128, b"\0")
        for sector in BOOT_SECTORS:
            start = (sector - 1) * 128
            self.image.write_sector(sector, padded[start : start + 128])
