"""A file system on a disk image: the one interface every format gives the commands.

``a8 atr`` never asks which DOS wrote a disk. It asks the registry
(:mod:`a8.disk.detect`) to open the image, and gets a :class:`FileSystem`: the
first format, in the registry's order, whose :meth:`FileSystem.recognise` says
the disk is its own. Every command then speaks to that object only:

- every format **identifies** itself (:attr:`FileSystem.identity`, the first line
  of ``ls`` and of ``check``'s verdict) and says what damage it reads around
  (:meth:`FileSystem.warnings`, one line each on standard error);
- a format that reads files (a :class:`DirectoryTree`) **lists** a directory,
  names every file (:meth:`FileSystem.paths`), **reads** one, and **checks** itself;
- a format that writes files (a :class:`WritableFileSystem`) also **adds** and
  **removes** them, and says when one of its disks must not be written
  (:meth:`WritableFileSystem.refusal`);
- a format that is only named (:class:`NamedOnly`: DOS XE) says so when asked for
  its files.

The directories of the Atari's file systems all work alike: a root, entries with a
name, some of them subdirectories, paths written ``DIR>SUB>NAME.EXT``. So
:class:`DirectoryTree` walks, looks up and lists them once for every format; a
format gives its root, its entries, how one of them is read and how DOS prints it.
Adding a format is one module with one class, and its line in
:data:`a8.disk.detect.FORMATS` (CONTRIBUTING.md walks through it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar

from a8.disk.atr import AtrImage
from a8.disk.names import FileName, is_path, lookup, path_parts
from a8.disk.problems import Problem
from a8.errors import A8Error


class FileSystemError(A8Error):
    """A read or write that the disk's file system refuses (the message names the disk)."""


@dataclass(frozen=True)
class Identity:
    """What a disk holds, as ``a8 atr`` names it: the format's name and a detail line."""

    name: str
    detail: str

    def __str__(self) -> str:
        return f"{self.name} ({self.detail})" if self.detail else self.name


def shape_of(image: AtrImage) -> str:
    """The detail every format starts with: the image's sector count and size."""
    return f"{image.sector_count} sectors of {image.sector_size} bytes"


def shown(text: str) -> str:
    """A user-given name, safe to print on one line."""
    return text if text.isprintable() else repr(text)


class FileSystem(ABC):
    """A file system a8 names on an image (subclasses read and write its files)."""

    #: The names this class gives its disks (for messages such as what a8 writes).
    names: ClassVar[tuple[str, ...]]
    #: The error this format raises (a subclass of :class:`FileSystemError`).
    error: ClassVar[type[FileSystemError]] = FileSystemError

    def __init__(self, image: AtrImage, identity: Identity) -> None:
        self.image = image
        self.identity = identity

    @classmethod
    @abstractmethod
    def recognise(cls, image: AtrImage) -> FileSystem | None:
        """This format's file system on ``image``, or None if the disk is not one.

        A sector the rules need may be missing from a short image: reading it raises
        :class:`~a8.disk.atr.AtrError`, which the registry takes as "not this format".
        """

    @property
    def source(self) -> str:
        return self.image.source

    def heading(self) -> str:
        """The first line of ``ls``: the identity (and what else the format names)."""
        return str(self.identity)

    def warnings(self) -> list[str]:
        """Damage the reader works around, one line each (empty for a sound disk)."""
        return []

    @abstractmethod
    def listing(self, directory: str | None = None) -> list[str]:
        """The directory as the DOS lists it (the root if ``directory`` is None)."""

    @abstractmethod
    def paths(self) -> Iterator[str]:
        """The path of every file on the disk, directories walked once each."""

    @abstractmethod
    def directories(self) -> Iterator[str]:
        """The path of every directory ("" for the root), each once."""

    @abstractmethod
    def read_file(self, path: str) -> bytes:
        """The bytes of the file at ``path`` (an error naming the disk if it cannot)."""

    @abstractmethod
    def file_name(self, path: str) -> FileName:
        """The stored name of the file a user means by ``path``."""

    def check(self) -> list[Problem] | None:
        """Every problem found inside the file system, or None if it is not checked."""
        return None


class NamedOnly(FileSystem):
    """A file system a8 recognises and names but whose files it does not read."""

    def listing(self, directory: str | None = None) -> list[str]:
        return [f"(a8 names {self.identity.name} disks but does not read their files)"]

    def paths(self) -> Iterator[str]:
        return iter(())

    def directories(self) -> Iterator[str]:
        return iter(())

    def read_file(self, path: str) -> bytes:
        raise self.error(f"{self.source}: {self.identity}: no files a8 can read")

    def file_name(self, path: str) -> FileName:
        raise self.error(f"{self.source}: {self.identity}: no files a8 can read")


class Entry(Protocol):
    """What the shared walk needs of a directory entry."""

    @property
    def name(self) -> FileName: ...

    @property
    def is_directory(self) -> bool: ...


E = TypeVar("E", bound=Entry)


class DirectoryTree(FileSystem, Generic[E]):
    """Files in directories: the walk, the lookup by path and the listing, shared.

    A format names its directories by an int of its own (DOS 2: the first directory
    sector; SpartaDOS: the first sector map) and gives:
    :attr:`root`, :meth:`listed` (what DIR shows of a directory), :meth:`subdirectory`
    (the directory an entry opens, if it is a usable one), :meth:`read_entry`,
    :meth:`entry_line` and :meth:`free_line` (how the DOS prints them).
    """

    @property
    @abstractmethod
    def root(self) -> int:
        """The root directory."""

    @property
    def has_subdirectories(self) -> bool:
        """Paths (``DIR>NAME``) mean something on this disk; else a name is only a name."""
        return True

    @abstractmethod
    def listed(self, directory: int) -> list[E]:
        """Files and subdirectories of ``directory``, as the DOS lists them."""

    def subdirectory(self, entry: E) -> int | None:
        """The directory ``entry`` opens, or None if it is no directory a DOS could read."""
        return None

    @abstractmethod
    def read_entry(self, entry: E) -> bytes:
        """The bytes of the file ``entry`` (an error naming the disk if it cannot)."""

    @abstractmethod
    def entry_line(self, entry: E) -> str:
        """One line of the DOS's directory listing."""

    @abstractmethod
    def free_line(self) -> str:
        """The listing's last line: the free space."""

    # -- the walk -----------------------------------------------------------------------

    def walk(self) -> Iterator[tuple[str, E]]:
        """Every file with its path (``DIR>NAME.EXT`` in subdirectories), directories
        walked once each, the root first, then breadth first."""
        for path, directory in self._directories():
            for entry in self.listed(directory):
                if not entry.is_directory:
                    yield f"{path}{entry.name}", entry

    def _directories(self) -> Iterator[tuple[str, int]]:
        """Every reachable directory with its path prefix ("" or ``DIR>``), each once."""
        pending = [("", self.root)]
        seen: set[int] = set()
        while pending:
            prefix, directory = pending.pop(0)
            if directory in seen:
                continue
            seen.add(directory)
            yield prefix, directory
            for entry in self.listed(directory):
                if entry.is_directory:
                    opened = self.subdirectory(entry)
                    if opened is not None:
                        pending.append((f"{prefix}{entry.name}>", opened))

    def paths(self) -> Iterator[str]:
        return (path for path, _ in self.walk())

    def directories(self) -> Iterator[str]:
        return (prefix.removesuffix(">") for prefix, _ in self._directories())

    # -- looking up ---------------------------------------------------------------------

    def find_directory(self, path: str | list[str] | None) -> int:
        """The directory at ``path`` (``A>B``, ``A/B`` or its parts; the root if empty)."""
        parts = path_parts(path) if isinstance(path, str) else list(path or [])
        directory = self.root
        walked: list[str] = []
        for part in parts:
            entry = lookup(self.listed(directory), part, _name_of)
            walked.append(str(entry.name) if entry else shown(part))
            where = f"{self.source}: {'>'.join(walked)}"
            if entry is None:
                raise self.error(f"{where}: no such directory")
            if not entry.is_directory:
                raise self.error(f"{where}: not a directory")
            opened = self.subdirectory(entry)
            if opened is None:
                raise self.error(f"{where}: not a directory a DOS could read")
            directory = opened
        return directory

    def split_path(self, path: str) -> tuple[int, str]:
        """The directory and the last name of ``path`` (``DIR>NAME`` where paths mean
        something on this disk)."""
        if not (self.has_subdirectories and is_path(path)):
            return self.root, path
        parts = path_parts(path)
        if not parts:
            raise self.error(f"{self.source}: {shown(path)}: no file name")
        return self.find_directory(parts[:-1]), parts[-1]

    def lookup(self, directory: int, wanted: str) -> E | None:
        """The listed entry a user means by ``wanted``: exact spelling first, then any case."""
        return lookup(self.listed(directory), wanted, _name_of)

    def find(self, path: str) -> E:
        """The file at ``path`` (a directory is refused, and so is a missing file)."""
        directory, leaf = self.split_path(path)
        entry = self.lookup(directory, leaf)
        if entry is None:
            shown_path = ">".join(path_parts(path)) if self.has_subdirectories else path
            raise self.error(f"{self.source}: no file {shown(shown_path)} on the disk")
        if entry.is_directory:
            raise self.error(f"{self.source}: {entry.name} is a directory")
        return entry

    def read_file(self, path: str) -> bytes:
        return self.read_entry(self.find(path))

    def file_name(self, path: str) -> FileName:
        return self.find(path).name

    def listing(self, directory: str | None = None) -> list[str]:
        folder = self.find_directory(directory)
        return [*(self.entry_line(entry) for entry in self.listed(folder)), self.free_line()]


def _name_of(entry: Entry) -> FileName:
    return entry.name


def columns(name: FileName) -> str:
    """Name and extension in DOS's 8 + 3 columns (a longer spelling gets a blank after it)."""
    base, ext = name.name_text, name.ext_text
    return f"{base:<8}{' ' if len(base) > 8 else ''}{ext:<3}"


@dataclass(frozen=True)
class NewFile:
    """Where a new file goes: its directory and its name, checked against the DOS's rules."""

    directory: int
    name: FileName


class WritableFileSystem(DirectoryTree[E]):
    """A file system a8 also writes: files added and removed in memory."""

    def refusal(self) -> str | None:
        """Why this disk must not be written (damage the DOS itself would not survive),
        or None."""
        return None

    @abstractmethod
    def new_file(self, path: str, *, nested: bool = True) -> NewFile:
        """Where a file called ``path`` would go (``nested``: ``DIR>NAME`` is a path),
        refused now if the DOS does not take the name. Nothing changes yet."""

    @abstractmethod
    def add(self, new: NewFile, data: bytes) -> None:
        """Store ``data`` as ``new`` (replacing an unlocked file of that name), all or nothing."""

    @abstractmethod
    def remove(self, path: str) -> None:
        """Delete the file at ``path`` and free what it used."""

    def to_bytes(self) -> bytes:
        return self.image.to_bytes()
