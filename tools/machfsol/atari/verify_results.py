"""``machfsol verify --results``: a test disk that comes back from an Atari, checked.

A test disk (:mod:`machfsol.atari.test_disk`) records on itself what the games'
test mode wrote: a transcript per deal and a done marker per program, and a
machine record at every boot (:mod:`a8.disk.recorded`). This module reads them
back and judges every transcript with the code ``machfsol verify`` uses for the
emulator's (:func:`machfsol.atari.verify_batch.judge_transcript`): the deal asked
for, the engine's checker, every screen.

Which deal a transcript is: the disk's plan (``MFPLAN.TXT``) lists the deals each
program plays, in order, and a program's transcripts are recorded in that order,
each once (a deal cut short by a power cut is not recorded, and is played again
after the boot). Which screens it must show: a boot starts a new session of the
test mode's player (the first table recorded first, the deals played and won
counted from zero), so the transcripts of one program are judged boot by boot,
each boot's deals as one session, the way the Atari played them.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from a8.disk.atr import AtrImage
from a8.disk.dos2 import Dos2Disk, Dos2Error
from a8.disk.machine_record import MachineRecord, MachineRecordError
from a8.disk.names import FileName
from a8.disk.recorded import MachineBoot, Record, Recording, read_recording
from a8.disk.recording import numbered_name
from a8.emu.emulator import FRAMES_PER_SECOND
from a8.errors import A8Error
from machfsol.atari.record_book import not_saved
from machfsol.atari.test_disk import PLAN_NAME, TestDiskError, TestDiskPlan
from machfsol.atari.test_mode import CONFIG_NAME, DONE_NAME, EOL, config_text
from machfsol.atari.test_player import Deal, Step, expected_steps
from machfsol.atari.verify import (
    Verification,
    failure_lines,
    json_report,
    summary_table,
)
from machfsol.atari.verify_batch import DealResult, judge_transcript
from machfsol.engine.seed_list import format_seed_list
from machfsol.errors import MachfsolError

#: The names the test mode gives its transcripts (labels on the disk: T1.TXT again
#: after a boot).
TRANSCRIPT_NAME: Final = re.compile(r"T[0-9]+\.TXT")


class ResultsError(MachfsolError):
    """A disk that is not a test disk, or whose records cannot be read."""


@dataclass(frozen=True)
class RomFiles:
    """ROM files the user says the machine ran, to be confirmed by its records."""

    os_rom: Path | None = None
    basic_rom: Path | None = None


@dataclass(frozen=True)
class DiskResults:
    """Every deal a test disk asked for, judged, and the machines that played them."""

    source: str
    plan: TestDiskPlan
    boots: tuple[MachineBoot, ...]
    #: Every deal of every program, in plan order: judged, or missing.
    verification: Verification
    #: The deals never recorded (among ``verification.results``).
    missing: tuple[DealResult, ...]
    #: Transcripts beyond the deals asked, and other records the checker did not expect.
    strays: tuple[str, ...]
    #: Each boot's confirmation of the ROM files given (empty without files).
    rom_checks: tuple[str, ...] = ()
    roms_confirmed: bool = True

    @property
    def ok(self) -> bool:
        return self.verification.ok and not self.missing and not self.strays and self.roms_confirmed


def read_plan(image: AtrImage) -> TestDiskPlan:
    """The plan a test disk carries."""
    disk = Dos2Disk.recognise(image)
    if disk is None:
        raise ResultsError(f"{image.source}: not a test disk: no DOS 2 file system")
    try:
        data = disk.read_entry(disk.find(PLAN_NAME))
    except Dos2Error:
        raise ResultsError(f"{image.source}: not a test disk: it has no {PLAN_NAME}") from None
    try:
        return TestDiskPlan.parse(data, f"{image.source}: {PLAN_NAME}")
    except TestDiskError as error:
        raise ResultsError(str(error)) from None


def read_results(path: Path, roms: RomFiles = RomFiles()) -> DiskResults:
    """Judge every deal the test disk at ``path`` asked for (ResultsError: not one)."""
    try:
        image = AtrImage.read(path)
        recording = read_recording(image)
    except A8Error as error:  # not an ATR, not a recording disk, damaged records
        raise ResultsError(str(error)) from None
    plan = read_plan(image)
    if recording.state.programs != len(plan.variants):
        raise ResultsError(
            f"{image.source}: {PLAN_NAME} names {len(plan.variants)} programs, the "
            f"disk's state {recording.state.programs}"
        )
    deals = plan.deals()
    _check_configuration(image, plan, deals)
    results: list[DealResult] = []
    missing: list[DealResult] = []
    strays: list[str] = []
    for number, game in enumerate(plan.variants, start=1):
        # The test disk has no record file: each boot says so at its first table, or,
        # on a disk of 256-byte sectors, which the record's 128-byte reads do not
        # read, that the disk is not read.
        reason = 1 if image.sector_size == 128 else 2
        judged, why, extra = _program(recording, number, game, deals, image.source, reason)
        results += judged
        for deal in deals[len(judged) :]:
            gone = DealResult(
                game, deal.deck_size, deal.seed, False, deal.extras, deal.spanish, error=why
            )
            results.append(gone)
            missing.append(gone)
        strays += extra
    tv = recording.boots[0].machine.tv.lower() if recording.boots else "ntsc"
    roms_shown = tuple(
        line for boot in recording.boots[:1] for line in boot.machine.describe()[1:3]
    )
    verification = Verification(tuple(results), 0.0, tv=tv, roms=roms_shown)
    checks, confirmed = _confirm(recording.boots, roms)
    return DiskResults(
        image.source,
        plan,
        recording.boots,
        verification,
        tuple(missing),
        tuple(strays),
        checks,
        confirmed,
    )


def _check_configuration(image: AtrImage, plan: TestDiskPlan, deals: Sequence[Deal]) -> None:
    """Refuse a disk whose test configuration this machfsol would not write.

    Its programs typed the keys of the configuration on the disk, and the transcripts
    are judged against this machfsol's player: a disk made by a version whose player
    types other keys would fail every deal, each with a mismatch that hides why. The
    configuration is rebuilt from the disk's own plan and compared first."""
    disk = Dos2Disk.recognise(image)
    assert disk is not None  # read_plan found its plan
    shared = FileName.parse(CONFIG_NAME)
    for number, game in enumerate(plan.variants, start=1):
        stored: FileName | None = None
        for name in (numbered_name(shared, number), shared):
            with contextlib.suppress(Dos2Error):
                data = disk.read_entry(disk.find(str(name)))
                stored = name
                break
        if stored is None:
            raise ResultsError(f"{image.source}: not a test disk: it has no {shared}")
        ours = config_text(deals, list(expected_steps(game, deals, as_is=False)))
        if data == ours:
            continue
        theirs, mine = _deal_lines(data), _deal_lines(ours)
        index = next(
            (i for i, lines in enumerate(mine) if i >= len(theirs) or theirs[i] != lines),
            None,
        )
        where = f"its {stored} is not the one this version writes"
        if index is not None:
            deal = deals[index]
            where = (
                f"the keys its {stored} types in variant {game}'s deal {index + 1} (seed "
                f"{deal.seed} of {deal.deck_size} cards) are not this version's"
            )
        raise ResultsError(
            f"{image.source}: made by another version of machfsol: {where}; build the "
            "disk again with this version (machfsol build --test-disk) and play it, or "
            "check it with the version that made it"
        )


def _deal_lines(config: bytes) -> list[list[bytes]]:
    """A test configuration's lines, deal by deal (each from its ``S`` line)."""
    deals: list[list[bytes]] = []
    for line in config.split(EOL):
        if line.startswith(b"S "):
            deals.append([])
        if deals:
            deals[-1].append(line)
    return deals


def _program(
    recording: Recording,
    number: int,
    game: int,
    deals: Sequence[Deal],
    source: str,
    reason: int,
) -> tuple[list[DealResult], str, list[str]]:
    """Program ``number``'s transcripts judged, boot by boot; why the rest are missing;
    the records it wrote beyond the deals asked. ``reason``: why the game says at each
    boot that the record is not saved (machfsol.atari.record_book.not_saved)."""
    own = [
        (index, record)
        for index, record in enumerate(recording.records)
        if record.program == number and TRANSCRIPT_NAME.fullmatch(record.name)
    ]
    done = [r for r in recording.records if r.program == number and r.name == DONE_NAME]
    strays = [
        f"{source}: record {r.number} ({r.name}) of program {number}: a transcript beyond "
        f"the {len(deals)} deals asked"
        for _, r in own[len(deals) :]
    ]
    own = own[: len(deals)]
    results: list[DealResult] = []
    start = 0
    while start < len(own):
        boot = _boot_of(recording.boots, own[start][0])
        end = start
        while end < len(own) and _boot_of(recording.boots, own[end][0]) == boot:
            end += 1
        session = deals[start:end]
        steps = expected_steps(
            game,
            session,
            as_is=False,
            first=start + 1,
            total=len(deals),
            notice=not_saved(reason, game),
        )
        for (_, record), deal, deal_steps in zip(own[start:end], session, steps, strict=True):
            results.append(_judged(record, game, deal, deal_steps, source))
        start = end
    return results, _why_missing(recording, number, done, len(results)), strays


def _boot_of(boots: Sequence[MachineBoot], index: int) -> int:
    """The boot that wrote the program record at ``index`` (0 when no boot is recorded)."""
    found = 0
    for boot in boots:
        if boot.first_record <= index:
            found = boot.number
    return found


def _judged(
    record: Record, game: int, deal: Deal, steps: Sequence[Step], source: str
) -> DealResult:
    name = f"{source} record {record.number} ({record.name})"
    return judge_transcript(game, deal, steps, record.data, None, name)


def _why_missing(recording: Recording, number: int, done: Sequence[Record], played: int) -> str:
    """Why program ``number``'s deals after its ``played`` first are not recorded."""
    if done:
        words = done[-1].data.replace(b"\x9b", b" ").decode("latin-1").split()
        if words[:1] == ["DONE"]:
            return f"not recorded: the program ended after {played} deals ({' '.join(words)})"
        return f"not recorded: the program stopped: {' '.join(words)} (its {DONE_NAME})"
    if not recording.boots:
        return "not recorded: the disk has not been booted"
    if recording.state.next_sector == 0:
        return "not recorded: the disk's record file is full"
    if recording.state.program + 1 < number:
        return "not recorded: the run has not reached this program yet (boot the disk again)"
    return "not recorded: the run stopped in this program (boot the disk again to go on)"


def _confirm(boots: Sequence[MachineBoot], roms: RomFiles) -> tuple[tuple[str, ...], bool]:
    """Each boot's machine against the ROM files given: the lines, and whether all hold."""
    lines: list[str] = []
    confirmed = True
    for boot in boots:
        machine: MachineRecord = boot.machine
        for kind, path, matches in (
            ("OS", roms.os_rom, machine.os_matches),
            ("BASIC", roms.basic_rom, machine.basic_matches),
        ):
            if path is None:
                continue
            try:
                same = matches(path.read_bytes())
            except OSError as error:
                raise ResultsError(f"{path}: cannot read the ROM file: {error.strerror}") from None
            except MachineRecordError as error:
                raise ResultsError(f"{path}: {error}") from None
            confirmed = confirmed and same
            verdict = "the machine ran exactly" if same else "the machine's check differs from"
            lines.append(f"boot {machine.boot}: {kind}: {verdict} {path}")
    return tuple(lines), confirmed


# ------------------------------------------------------------------ reporting


def _missing_lines(results: DiskResults) -> list[str]:
    """The missing deals, a line per program and reason: ``seeds 4-6 of 52 cards``."""
    groups: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for result in results.missing:
        groups.setdefault((result.variant, result.error or ""), []).append(
            (result.deck, result.seed)
        )
    lines = []
    for (game, why), pairs in groups.items():
        decks: dict[int, list[int]] = {}
        for deck, seed in pairs:
            decks.setdefault(deck, []).append(seed)
        which = "; ".join(f"{format_seed_list(s)} of {d} cards" for d, s in decks.items())
        lines.append(f"MISSING variant {game}: seeds {which}: {why}")
    return lines


def text_report(results: DiskResults) -> str:
    verification = results.verification
    per_second = FRAMES_PER_SECOND["pal" if verification.tv == "pal" else "ntsc"]
    lines = [f"machfsol verify --results {results.source}: {results.plan.describe()}"]
    if not results.boots:
        lines.append("no boot recorded: the disk has not been booted")
    for boot in results.boots:
        first, *facts = boot.machine.describe()
        lines.append(f"machine at {first}:")
        lines += [f"  {fact}" for fact in facts]
    lines += list(results.rom_checks)
    lines.append(f"TV: {verification.tv.upper()}, a jiffy is 1/{per_second} s")
    lines.append(summary_table(verification, results.missing))
    lines += failure_lines(verification, leave_out=results.missing)
    lines += _missing_lines(results)
    lines += [f"FAILED {stray}" for stray in results.strays]
    verified = sum(result.ok for result in verification.results)
    boots = len(results.boots)
    lines.append(
        f"{verified} of {len(verification.results)} deals verified, recorded in {boots} "
        f"boot{'s' if boots != 1 else ''}"
    )
    lines.append("OK" if results.ok else "FAILED")
    return "\n".join(lines)


def json_text(results: DiskResults) -> str:
    """``verify --json``'s object, with the disk's machines, missing deals and strays."""
    report = json.loads(json_report(results.verification))
    report["ok"] = results.ok
    report["disk"] = results.source
    report["plan"] = results.plan.describe()
    report["machines"] = [
        {
            "boot": boot.machine.boot,
            "first_record": boot.first_record,
            "os": boot.machine.os_name,
            "basic": boot.machine.basic_name,
            "tv": boot.machine.tv,
            "os_checks": [f"{check:08X}" for check in boot.machine.os_checks],
            "basic_check": f"{boot.machine.basic_check:08X}",
            "memlo": boot.machine.memlo,
            "memtop": boot.machine.memtop,
            "devices": boot.machine.devices,
        }
        for boot in results.boots
    ]
    report["rom_checks"] = list(results.rom_checks)
    report["missing"] = [
        {"variant": r.variant, "deck": r.deck, "seed": r.seed, "why": r.error}
        for r in results.missing
    ]
    report["strays"] = list(results.strays)
    return json.dumps(report, indent=1)
