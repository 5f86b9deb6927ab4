"""``a8 atr check``: what is inconsistent on a disk, whatever its file system.

The image is opened once through the registry (:mod:`a8.disk.detect`); the ATR
container is checked here (its header's size against the file), and the file
system checks itself (:meth:`a8.disk.filesystem.FileSystem.check`: the DOS 2
family in :mod:`a8.disk.dos2.check`, SpartaDOS and DOS 3 beside their readers).
Each kind of problem is something a real corruption produces; the tests corrupt
images on purpose for every kind, and the corpus of real disks in
tests/a8/disk/corpus must come out clean (or with the findings recorded there,
each one verified by hand). A file system a8 only names (DOS XE, none) is checked
no further than its container, and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from a8.disk.atr import AtrError, AtrImage
from a8.disk.detect import open_disk
from a8.disk.filesystem import FileSystem, Identity
from a8.disk.problems import Problem, ProblemKind, container_problems

__all__ = ["Problem", "ProblemKind", "Report", "check_disk", "check_image"]


@dataclass(frozen=True)
class Report:
    """What ``check`` found on one image."""

    identity: Identity
    problems: list[Problem]
    #: False when the file system is one ``check`` cannot look into.
    checked: bool

    def blocking(self) -> list[Problem]:
        return [p for p in self.problems if p.kind.blocks_writing]


def check_image(image: AtrImage) -> Report:
    """Identify the file system on ``image`` and check it."""
    return check_file_system(open_disk(image))


def check_file_system(disk: FileSystem) -> Report:
    """The container's problems and the file system's own. On a truncated image the
    file system's check stops at the first sector missing, which it names."""
    try:
        found = disk.check()
    except AtrError as error:
        if disk.image.truncation() is None:
            raise
        found = [Problem(ProblemKind.ATR_SIZE, f"{error}: the check stops there")]
    problems = container_problems(disk.image) + (found or [])
    return Report(disk.identity, problems, found is not None)


def check_disk(disk: FileSystem) -> list[Problem]:
    """Every problem found inside ``disk``'s file system (an empty list: it is clean)."""
    return disk.check() or []
