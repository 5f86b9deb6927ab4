"""The test disk: the games' regression test for a real 800XL, recorded on the disk itself.

``machfsol verify`` runs the games' test mode in atari800, which serves the
configuration and takes the transcripts through its own ``H:`` device. A real
machine has no ``H:``: this disk brings its own. It is a recording disk
(:mod:`a8.disk.recording`): its boot code gives BASIC an ``H:`` that serves each
program its files from the disk and records every file the program writes on the
same disk, resumably. The games run on it unchanged, byte for byte the programs
of the game disk (:func:`machfsol.atari.build.game_programs`), and find there what
the emulator's ``H:`` folder gives them:

=================  ==============================================================
``MACHFSOL.1/.2``  the programs, as the game disk carries them (or the user's)
``MFTEST1.CFG``    each program's configuration (``MFTEST.CFG`` as the program
``MFTEST2.CFG``    asks for it; :func:`machfsol.atari.test_mode.config_text`),
                   served resumably
``MFTEST.LST``     the test mode's overlay, which the programs ENTER
``MFPLAN.TXT``     the plan: which programs play which deals. Served to the
                   programs too (so that the disk builder puts it on the disk),
                   never opened by them; ``machfsol verify --results`` reads it
``RECORDS.TXT``    the transcripts and done markers the programs write, and a
                   machine record per boot (:mod:`a8.disk.recorded`)
=================  ==============================================================

Every deal's configuration starts with its ``S`` line and is played from a fresh
deal, never "as it is" (:attr:`machfsol.atari.test_player.Session.as_is`): after a
power cut the disk serves the configuration from its magic line, then from the
deal after the last transcript recorded, and that deal plays exactly as it would
have after the others. Only the screen's counters of deals played and won, and the
first table a boot records, depend on the boot: the checker replays each boot's
deals as a session of their own (:mod:`machfsol.atari.verify_results`).

The records must fit: a deal's transcript is bounded from the engine's game of it
(its moves and the steps of the test mode's player) before anything is built, and
a disk that cannot hold every deal asked is refused with the sizes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from a8.disk.dos2 import Geometry
from a8.disk.recording import (
    FORMATS,
    RecordingDisk,
    RecordingError,
    RecordingProgram,
    RecordSpace,
    ServedFile,
    build_recording_disk,
    format_name,
)
from machfsol.atari.build import file_name_of
from machfsol.atari.test_mode import CONFIG_NAME, EOL, OVERLAY_NAME, config_text
from machfsol.atari.test_player import Deal, Step, expected_steps
from machfsol.atari.verify import Plan
from machfsol.engine.autoplay import play
from machfsol.engine.rules import Position, variant
from machfsol.engine.seed_list import format_seed_list, parse_seed_list
from machfsol.engine.transcript import PROGRAM, Player, of_game
from machfsol.errors import MachfsolError

PLAN_NAME: Final = "MFPLAN.TXT"
PLAN_MAGIC: Final = "MACHFSOL TEST DISK 1"
#: Boots the record file leaves room for: each writes a machine record, and each
#: run that reaches the end of a configuration a done marker.
BOOTS: Final = 10
#: The longest done marker (``BAD LINE`` and a 40-character line).
DONE_BYTES: Final = 64
#: The longest number a JIFFIES line may carry (BASIC prints up to 9 digits, then
#: E notation) and a SCREEN checksum (0-65535).
JIFFIES_DIGITS: Final = 10
SCREEN_DIGITS: Final = 5
SCREENS_PER_LINE: Final = 5
#: Bytes allowed beyond the bound, for a program that strays (its record is then
#: still whole, and the checker says where it strayed).
SLACK: Final = 64


class TestDiskError(MachfsolError):
    """A test disk that cannot be built or read (its plan)."""

    __test__ = False  # a class named Test... is not a pytest test


@dataclass(frozen=True)
class TestDiskPlan:
    """What a test disk plays: its programs' variants, in the order they run, and the
    deals each plays (groups of seeds of one deck size, in order; the extras of each
    deal by its place, :func:`machfsol.atari.verify.scheduled_deal`)."""

    __test__ = False

    variants: tuple[int, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...]

    def deals(self) -> tuple[Deal, ...]:
        """The deals every program plays, as the test mode's player plays them."""
        return Plan((), self.groups).deal_list()

    def describe(self) -> str:
        """``variants 1 and 2: seeds 1-20 of 52 cards``."""
        names = " and ".join(str(v) for v in self.variants)
        word = "variants" if len(self.variants) > 1 else "variant"
        return f"{word} {names}: {Plan((), self.groups).describe()}"

    def text(self) -> bytes:
        """The plan as the disk holds it (ATASCII lines, readable with DOS)."""
        lines = [PLAN_MAGIC]
        lines += [f"PROGRAM {file_name_of(v)} VARIANT {v}" for v in self.variants]
        lines += [f"DECK {deck} SEEDS {format_seed_list(seeds)}" for deck, seeds in self.groups]
        lines.append("END")
        return EOL.join(line.encode("ascii") for line in lines) + EOL

    @classmethod
    def parse(cls, data: bytes, where: str) -> TestDiskPlan:
        """A plan as :meth:`text` writes it; a TestDiskError naming ``where`` and the line."""
        lines = data.decode("latin-1").split(EOL.decode("latin-1"))
        if lines[:1] != [PLAN_MAGIC]:
            raise TestDiskError(f"{where}: line 1 is not {PLAN_MAGIC!r}: not a test disk's plan")
        variants: list[int] = []
        groups: list[tuple[int, tuple[int, ...]]] = []
        for number, line in enumerate(lines[1:], start=2):
            words = line.split()
            if words == ["END"]:
                if not variants or not groups:
                    raise TestDiskError(f"{where}:{number}: the plan names no program or deal")
                return cls(tuple(variants), tuple(groups))
            try:
                if len(words) == 4 and words[0] == "PROGRAM" and words[2] == "VARIANT":
                    variants.append(int(words[3]))
                    if words[1] != str(file_name_of(variants[-1])) or variants[-1] not in (1, 2):
                        raise ValueError(line)
                elif len(words) == 4 and words[0] == "DECK" and words[2] == "SEEDS":
                    groups.append((int(words[1]), parse_seed_list(words[3])))
                    Deal(groups[-1][0], groups[-1][1][0])  # a deck size the games have
                else:
                    raise ValueError(line)
            except (ValueError, KeyError):
                raise TestDiskError(f"{where}:{number}: not a line of a plan: {line!r}") from None
        raise TestDiskError(f"{where}: the plan has no END line")


@dataclass(frozen=True)
class TestDisk:
    """A test disk, built: the recording disk and what the deals take."""

    __test__ = False

    recording: RecordingDisk
    plan: TestDiskPlan
    #: The record bytes the transcripts take at most, all programs.
    transcript_bytes: int


def transcript_bound(game: int, deal: Deal, steps: Sequence[Step], program: str) -> int:
    """The most bytes the Atari's transcript of ``deal`` takes, from the engine's game.

    The Atari writes the engine's lines (the header with its own PROGRAM line, the
    order, the moves, RESULT), then three JIFFIES lines and the screens' checksums,
    five a line: one per step of the test mode's player, and the first table when the
    deal is a boot's first. Numbers are bounded by their widest.
    """
    position = play(Position.from_seed(deal.seed, variant(game), deal.deck_size))
    engine = of_game(position, seed=deal.seed, player=Player.AUTO)
    text = len(engine) - len(PROGRAM) + len(f"{program} ATARI")
    jiffies = 3 * len(f"JIFFIES PLAY {'9' * JIFFIES_DIGITS}\n")
    screens = len(steps) + 1
    lines = math.ceil(screens / SCREENS_PER_LINE)
    screen_bytes = lines * (len("SCREEN\n")) + screens * (1 + SCREEN_DIGITS)
    return text + jiffies + screen_bytes + SLACK


def build_test_disk(
    programs: Mapping[int, bytes],
    overlay: bytes,
    plan: TestDiskPlan,
    source: str,
    disk_format: Geometry | None = None,
) -> TestDisk:
    """The test disk running ``programs`` (SAVE files by variant, in ``plan``'s order)
    on ``plan``'s deals, ``overlay`` the test mode's listing (ATASCII), on the
    smallest format that holds it (or ``disk_format``).

    A disk that cannot hold the programs, their files and every deal's transcript is
    a TestDiskError: the sizes, and how many of the first deals would fit."""
    contents = _Contents.of(programs, overlay, plan)
    try:
        return contents.build(len(contents.deals), source, disk_format)
    except RecordingError as error:
        raise TestDiskError(
            f"{error} ({len(contents.deals)} deals for each of {len(plan.variants)} "
            f"program(s)); {contents.what_fits(source, disk_format)}"
        ) from None


def deals_that_fit(
    programs: Mapping[int, bytes],
    overlay: bytes,
    plan: TestDiskPlan,
    formats: Sequence[Geometry],
    source: str = "test disk",
) -> tuple[int, ...]:
    """How many of ``plan``'s first deals a test disk of each of ``formats`` holds
    (for each of its programs): what the builder accepts, the transcripts bounded
    as it bounds them."""
    contents = _Contents.of(programs, overlay, plan)
    return tuple(contents.most(source, disk_format) for disk_format in formats)


@dataclass(frozen=True)
class _Contents:
    """What goes on a test disk, worked out once: the steps of the test mode's player
    for every deal of every program, and each transcript's bound. The first deals of
    a plan have the first steps (one session plays them in order), so any number of
    the first deals is a slice of these."""

    programs: Mapping[int, bytes]
    overlay: bytes
    plan: TestDiskPlan
    deals: tuple[Deal, ...]
    steps: Mapping[int, list[list[Step]]]
    bounds: Mapping[int, list[int]]

    @classmethod
    def of(cls, programs: Mapping[int, bytes], overlay: bytes, plan: TestDiskPlan) -> _Contents:
        deals = plan.deals()
        steps = {game: list(expected_steps(game, deals, as_is=False)) for game in plan.variants}
        # (the keys only: the screens do not go into the configuration)
        bounds = {
            game: [
                transcript_bound(game, deal, own, str(file_name_of(game)))
                for deal, own in zip(deals, steps[game], strict=True)
            ]
            for game in plan.variants
        }
        return cls(programs, overlay, plan, deals, steps, bounds)

    def build(self, count: int, source: str, disk_format: Geometry | None = None) -> TestDisk:
        """The disk of the first ``count`` deals, of the smallest format that holds
        them or of ``disk_format`` (RecordingError if it cannot be built)."""
        plan = self.first(count)
        deals = self.deals[:count]
        recording_programs = []
        for game in plan.variants:
            served = (
                ServedFile(CONFIG_NAME, config_text(deals, self.steps[game][:count]), True),
                ServedFile(OVERLAY_NAME, self.overlay),
                ServedFile(PLAN_NAME, plan.text()),
            )
            name = str(file_name_of(game))
            recording_programs.append(RecordingProgram(name, self.programs[game], served))
        transcripts = sum(sum(self.bounds[game][:count]) for game in plan.variants)
        space = RecordSpace(
            records=count * len(plan.variants) + BOOTS,
            data_bytes=transcripts + BOOTS * DONE_BYTES,
            boots=BOOTS,
        )
        recording = build_recording_disk(
            recording_programs, space, density=disk_format, source=source
        )
        return TestDisk(recording, plan, transcripts)

    def first(self, count: int) -> TestDiskPlan:
        """The plan of the first ``count`` deals."""
        groups: list[tuple[int, list[int]]] = []
        for deal in self.deals[:count]:
            if not groups or groups[-1][0] != deal.deck_size:
                groups.append((deal.deck_size, []))
            groups[-1][1].append(deal.seed)
        return TestDiskPlan(
            self.plan.variants, tuple((deck, tuple(seeds)) for deck, seeds in groups)
        )

    def most(self, source: str, disk_format: Geometry | None = None) -> int:
        """The most of the first deals a disk holds (of ``disk_format``, or of any)."""
        low, high = 0, len(self.deals) + 1  # low fits (none: nothing to check); high does not
        while high - low > 1:
            middle = (low + high) // 2
            try:
                self.build(middle, source, disk_format)
            except RecordingError:
                high = middle
            else:
                low = middle
        return low

    def what_fits(self, source: str, disk_format: Geometry | None = None) -> str:
        """The most of the first deals a disk holds, in words."""
        low = self.most(source, disk_format)
        if low == 0 and disk_format is not None:
            return f"not even one deal fits on {format_name(disk_format)}"
        if low == 0:
            largest = FORMATS[-1]
            return (
                f"not even one deal fits (every format tried, up to {largest.dos_name}'s "
                f"{largest.sector_count} sectors)"
            )
        return (
            f"the first {low} deals fit ({self.first(low).describe()}): give fewer seeds, "
            "or make a disk per variant"
        )
