"""What can be wrong on a disk, and the bookkeeping every file system's check shares.

Every file system keeps the same facts twice: which sectors each file owns (DOS
2's chains, SpartaDOS's sector maps, DOS 3's block chains) and which sectors are
free (a bitmap or an allocation table, and a free count). A check rebuilds the
first from the directories and compares it with the second, reporting every
disagreement as one :class:`Problem`. :class:`Checker` is that shared part:
who owns each sector, a sector claimed twice, and the bitmap against the owners.
Each file system's own checks live beside its reader (``Dos2Disk.check``,
``SpartaDisk.check``, ``Dos3Disk.check``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from a8.disk.atr import AtrImage


class ProblemKind(enum.Enum):
    """What can be wrong on a disk. ``blocks_writing``: add/rm refuse such a disk."""

    ATR_SIZE = "atr-size"
    VTOC_DOS_CODE = "vtoc-dos-code"
    VTOC_CAPACITY = "vtoc-capacity"
    VTOC_UNREADABLE = "vtoc-unreadable"
    FREE_COUNT = "free-count"
    VTOC2_MIRROR = "vtoc2-mirror"
    SYSTEM_SECTOR_FREE = "system-sector-free"
    BAD_FLAG = "bad-flag"
    FILE_OPEN = "file-open"
    BAD_NAME = "bad-name"
    DUPLICATE_NAME = "duplicate-name"
    ENTRY_AFTER_END = "entry-after-end"
    BAD_DIRECTORY = "bad-directory"
    CHAIN_OUT_OF_RANGE = "chain-out-of-range"
    CHAIN_SYSTEM_SECTOR = "chain-system-sector"
    CHAIN_LOOP = "chain-loop"
    BAD_FILE_NUMBER = "bad-file-number"
    BAD_BYTE_COUNT = "bad-byte-count"
    CROSS_LINKED = "cross-linked"
    WRONG_SECTOR_COUNT = "wrong-sector-count"
    HIGH_FLAG = "high-flag"
    USED_SECTOR_FREE = "used-sector-free"
    LOST_SECTOR = "lost-sector"
    BOOT_MENU = "boot-menu"
    SECTOR_COUNT = "sector-count"
    BAD_SECTOR_MAP = "bad-sector-map"
    BAD_BLOCK_TABLE = "bad-block-table"
    BAD_FILE_SIZE = "bad-file-size"

    @property
    def blocks_writing(self) -> bool:
        """A disk with this problem is not changed: writing could destroy data."""
        return self not in HARMLESS_TO_WRITES


#: Problems a write cannot make worse: sectors nobody uses, counts the write rewrites,
#: a stale boot menu, names and flags of other files, a file left open (add and rm
#: keep away from its sectors).
HARMLESS_TO_WRITES = frozenset(
    {
        ProblemKind.LOST_SECTOR,
        ProblemKind.FREE_COUNT,
        ProblemKind.VTOC2_MIRROR,
        ProblemKind.BOOT_MENU,
        ProblemKind.BAD_NAME,
        ProblemKind.HIGH_FLAG,
        ProblemKind.FILE_OPEN,
    }
)


@dataclass(frozen=True)
class Problem:
    """One disagreement, with a message a user can act on."""

    kind: ProblemKind
    message: str

    def __str__(self) -> str:
        return f"{self.message} [{self.kind.value}]"


def container_problems(image: AtrImage) -> list[Problem]:
    """What is wrong with the ATR container itself, whatever it holds."""
    mismatch = image.size_mismatch()
    if mismatch is None:
        return []
    return [Problem(ProblemKind.ATR_SIZE, f"{image.source}: ATR header: {mismatch}")]


class Checker:
    """The problems found so far, and who owns each sector (the shared part of a check)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []
        #: sector -> name of its owner ("the system", a file name ...)
        self.owner: dict[int, str] = {}

    def report(self, kind: ProblemKind, message: str) -> None:
        self.problems.append(Problem(kind, f"{self.source}: {message}"))

    def claim(self, sector: int, owner: str, where: str) -> bool:
        """Record ``owner`` for ``sector``; report and refuse if someone has it already."""
        if sector in self.owner:
            self.report(
                ProblemKind.CROSS_LINKED,
                f"{where}: sector {sector} also belongs to {self.owner[sector]}",
            )
            return False
        self.owner[sector] = owner
        return True

    def compare_bitmap(self, sectors: Iterable[int], free: set[int], system: set[int]) -> None:
        """Every sector in use must be marked so, and every sector marked so must be used."""
        lost: list[int] = []
        for sector in sectors:
            is_free = sector in free
            owner = self.owner.get(sector)
            if is_free and sector in system:
                self.report(
                    ProblemKind.SYSTEM_SECTOR_FREE,
                    f"sector {sector} is reserved for the system but marked free",
                )
            elif is_free and owner is not None:
                self.report(
                    ProblemKind.USED_SECTOR_FREE,
                    f"sector {sector} of {owner} is marked free in the bitmap",
                )
            elif not is_free and owner is None:
                lost.append(sector)
        for first, last in runs(lost):
            if first == last:
                message = f"sector {first} is marked in use but belongs to no file"
            else:
                message = f"sectors {first}-{last} are marked in use but belong to no file"
            self.report(ProblemKind.LOST_SECTOR, message)


def runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs in a sorted list: [3, 4, 5, 9] -> [(3, 5), (9, 9)]."""
    found: list[tuple[int, int]] = []
    for number in numbers:
        if found and found[-1][1] == number - 1:
            found[-1] = (found[-1][0], number)
        else:
            found.append((number, number))
    return found
