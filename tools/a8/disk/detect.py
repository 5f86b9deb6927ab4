"""Which file system a disk holds: the registry of the formats a8 knows, tried in order.

Nothing on an Atari disk says "this is DOS 2" outright: each file system is told
apart by structures that must be there and be consistent, and each format's
module holds its own rules (its class's ``recognise``). The registry tries them in
this order, and the first that recognises the disk wins:

1. **SpartaDOS** (1.1, 2.x/3.x, X; also BW-DOS): sector 1 is a consistent
   superblock (:mod:`a8.disk.sparta`).
2. **DOS XE**: sector 1 starts with "X" and jumps to $0730 (:mod:`a8.disk.dosxe`).
3. **DOS 3**: sector 16 starts with DOS 3's directory header (:mod:`a8.disk.dos3`).
4. **The DOS 2 family** (DOS 2.0S, 2.5, 2.0D, MyDOS): the VTOC and directory in
   sectors 360-368 look like theirs, or, with a damaged VTOC, the directory and
   the boot sector alone (:mod:`a8.disk.dos2.recognise`).
5. Otherwise: **no file system I know** (:class:`UnknownDisk`). Boot disks (games,
   demos, loaders) carry none; the boot record in sector 1 is still described.

The stricter rules go first: a superblock, a boot sector's jump or DOS 3's header
are exact marks, while the DOS 2 family is recognised by signs that may be damaged.
Adding a format is its module and its line in :data:`FORMATS`.
"""

from __future__ import annotations

from a8.disk.atr import AtrError, AtrImage
from a8.disk.dos2 import Dos2Disk
from a8.disk.dos3 import Dos3Disk
from a8.disk.dosxe import DosXeDisk
from a8.disk.filesystem import FileSystem, Identity, NamedOnly, WritableFileSystem, shape_of
from a8.disk.sparta import SpartaDisk


class UnknownDisk(NamedOnly):
    """A disk with no file system a8 knows (a boot disk, a game): described, not read."""

    names = ("no file system I know",)

    @classmethod
    def recognise(cls, image: AtrImage) -> UnknownDisk:
        return cls(image, Identity("no file system I know", describe_boot(image)))

    def listing(self, directory: str | None = None) -> list[str]:
        return []


#: The formats a8 knows, in the order they are tried.
FORMATS: tuple[type[FileSystem], ...] = (SpartaDisk, DosXeDisk, Dos3Disk, Dos2Disk)


def open_disk(image: AtrImage) -> FileSystem:
    """The file system on ``image``: the first format that recognises it, built once."""
    for format_ in FORMATS:
        try:
            disk = format_.recognise(image)
        except AtrError:
            continue  # a sector the rules need is missing: not this format
        if disk is not None:
            return disk
    return UnknownDisk.recognise(image)


def identify(image: AtrImage) -> Identity:
    """What ``image`` holds, as ``a8 atr`` names it."""
    return open_disk(image).identity


def written_formats() -> str:
    """The names of the file systems a8 writes, for messages."""
    names = [name for f in FORMATS if issubclass(f, WritableFileSystem) for name in f.names]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def describe_boot(image: AtrImage) -> str:
    """What sector 1's boot record says (for disks with no file system we know)."""
    boot = image.read_sector(1)
    count, load = boot[1], boot[2] | boot[3] << 8
    if count == 0:
        return f"{shape_of(image)}, no boot record"
    return f"{shape_of(image)}; boot record: {count} sectors loaded at ${load:04X}"
