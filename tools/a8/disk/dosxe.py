"""DOS XE: named, its files not read.

DOS XE (Atari's DOS for the XF551 drive) keeps its own directory in 256-byte
"sectors" (pairs on 128-byte disks) that are not DOS 2's. Its disks are told apart
by the boot sector: it starts with "X", loads 3 boot sectors and jumps to $0730
(bytes 6-8 = JMP $0730). XDOS also writes "X" in byte 0 but keeps the DOS 2 layout,
so the jump address decides. Sources: the AtariAge thread "DOS XE technical
details" and atrfs's dosxe.c (pcrow/atari_8bit_utils).
"""

from __future__ import annotations

from a8.disk.atr import AtrImage
from a8.disk.filesystem import FileSystemError, Identity, NamedOnly, shape_of

DOS_XE_JUMP = bytes([0x4C, 0x30, 0x07])


class DosXeError(FileSystemError):
    """Any read of a DOS XE disk's files (a8 only names it)."""


class DosXeDisk(NamedOnly):
    """A DOS XE disk: recognised by its boot sector, its files not read."""

    names = ("DOS XE",)
    error = DosXeError

    @classmethod
    def recognise(cls, image: AtrImage) -> DosXeDisk | None:
        boot = image.read_sector(1)
        if boot[0] == ord("X") and boot[1] == 3 and boot[6:9] == DOS_XE_JUMP:
            return cls(image, Identity("DOS XE", shape_of(image)))
        return None
