"""One emulator boot that plays a batch of deals in the game's test mode, each judged.

The Atari programs have a test mode (see :mod:`machfsol.atari.test_mode`): when they
find ``H1:MFTEST.CFG`` they play the deals it lists through the player's own keys and
write one transcript per deal, ``T1.TXT``, ``T2.TXT`` ..., with a checksum of the
screen after every step, then ``MFDONE.TXT``. A batch is one boot of atari800 with
such a configuration: many deals per boot, because booting and loading cost more than
a deal.

How the harness follows the program: the input script waits for ``T1.TXT`` (written
when deal 1 is over), then ``T2.TXT``, and so on, and for ``MFDONE.TXT`` after the
last deal; each wait has its own budget of emulated frames. A deal that
takes longer than its budget stops the emulator at once (the program hung, or is far
too slow), instead of letting one bad deal eat the time of the whole batch.

Then every transcript is checked with the engine's checker, its header must name
the deal the harness asked for, and its screens must be the ones the engine's table
makes after each step of the test mode's player (:mod:`machfsol.atari.test_player`,
:mod:`machfsol.atari.screen_model`): a wrong card, count or message on the screen fails
the deal with the step and the place named. A deal that did not finish is judged on what it
wrote: its first line that differs from the engine is usually the cause of the hang,
and is reported as such. The deals after it are handed back to the caller, who runs
them in a fresh boot.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Final

from a8.disk.atr import WRITE_PROTECT_BYTE, AtrImage
from a8.disk.dos2 import Dos2Disk
from a8.emu.emulator import (
    FRAMES_PER_SECOND,
    EmulatorOptions,
    RomSet,
    RunResult,
    TvSystem,
    run,
)
from a8.emu.script import Script
from a8.errors import A8Error
from a8.files import write_atomically
from machfsol.atari.basic_game import PROGRAM_NAMES, overlay_listing, to_atascii
from machfsol.atari.coverage import MAP_ADDRESS, MAP_NAME, Instrumented
from machfsol.atari.record_book import AtariRecord, not_saved, records_of
from machfsol.atari.screen_model import diagnose
from machfsol.atari.test_mode import CONFIG_NAME, DONE_NAME, EOL, OVERLAY_NAME, config_text
from machfsol.atari.test_player import (
    LARGEST_DEAL,
    Deal,
    Step,
    expected_records,
    expected_steps,
    transcript_parts,
)
from machfsol.engine.checker import check_transcript
from machfsol.engine.seed_list import format_seed_list
from machfsol.engine.transcript import Outcome, Player, Transcript, parse
from machfsol.errors import MachfsolError, UsageError

#: A boot's random deals that must not all draw one number (:func:`_random_deals_vary`).
RANDOM_DEALS_COMPARED: Final = 3
#: Frames before the menu key (or the RUN command) is typed. The menu reads the key
#: from the OS keyboard buffer, so a key typed early waits there; 120 frames is well
#: after the OS has set the buffer up.
BOOT_FRAMES: Final = 120
#: Emulated frames allowed for the boot, the loading and the tables before deal 1.
START_FRAMES: Final = 60 * 60
#: Default emulated seconds allowed per deal: a 52-card game played through the keys
#: takes 10-35 s with the built-in ROMs (the longest: hints before every move, undos
#: and mistakes), about three times that with the genuine XL OS and BASIC rev. C.
DEAL_SECONDS: Final = 300
#: ... when a ROM image of your own is in the machine (the genuine XL OS or BASIC
#: rev. C): a deal with hints, undos and mistakes took more than 300 s there.
OWN_ROMS_DEAL_SECONDS: Final = 900
#: ... in NTSC frames (the jiffy clock ticks once per frame: 60 a second, PAL 50).
DEAL_FRAMES: Final = DEAL_SECONDS * 60


def deal_seconds(roms: RomSet) -> int:
    """The emulated seconds a deal is allowed on these ROMs (resolved: files given or
    named by the environment): more with a ROM image of your own, slower code."""
    own = roms.os is not None or roms.basic is not None
    return OWN_ROMS_DEAL_SECONDS if own else DEAL_SECONDS


#: Wall-clock seconds per emulated frame assumed for the kill timeout: 400 frames a
#: second is far slower than atari800 -turbo (about 3,000), so only a stuck emulator
#: is ever killed by it.
MIN_FRAMES_PER_WALL_SECOND: Final = 400
#: Frames for a line typed at BASIC's prompt to run: the map's reservation, its clearing
#: (a few hundred POKEs: well under a second on genuine BASIC).
RESERVE_FRAMES: Final = 120
CLEAR_FRAMES: Final = 600
#: Name the user's program gets in the H: folder.
PROGRAM_NAME: Final = "MFPROG.BAS"


@dataclass(frozen=True)
class GameDisk:
    """Boot a game disk and pick the variant's program from its boot menu.

    ``overlay``: the test mode's overlay the program ENTERs from H: (ATASCII; default:
    the one source's, :func:`~machfsol.atari.basic_game.overlay_listing`).
    """

    path: Path
    variant: int
    overlay: bytes = field(default_factory=lambda: default_overlay(), repr=False)

    @property
    def label(self) -> str:
        return f"v{self.variant}"

    def start(self) -> Script:
        return Script().wait(BOOT_FRAMES).type(str(self.variant))


@dataclass(frozen=True)
class GameProgram:
    """Run a tokenized program (a SAVE file) from the H: folder in a disk-less machine.

    ``variant`` is the variant the user says it plays: the test mode's player types
    that game's moves.
    """

    program: bytes
    source: str
    variant: int
    overlay: bytes = field(default_factory=lambda: default_overlay(), repr=False)
    #: The program is instrumented for --coverage: its map's place and lines.
    coverage: Instrumented | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        return f"program-v{self.variant}"

    def start(self) -> Script:
        script = Script().wait(BOOT_FRAMES)
        if self.coverage is not None:
            # The map below the program: MEMLO raised above it, NEW (BASIC then starts
            # its memory there), the map cleared.
            memlo, end = self.coverage.memlo, MAP_ADDRESS + len(self.coverage.lines) - 1
            script = script.type(f"POKE 743,{memlo % 256}:POKE 744,{memlo // 256}:NEW\n")
            script = script.wait(RESERVE_FRAMES)
            script = script.type(f"FOR I={MAP_ADDRESS} TO {end}:POKE I,0:NEXT I\n")
            script = script.wait(CLEAR_FRAMES)
        return script.type(RUN_FROM_H)


Launch = GameDisk | GameProgram

#: What runs the H: folder's program in BASIC.
RUN_FROM_H: Final = f'RUN "H1:{PROGRAM_NAME}"\n'


def run_from_h() -> Script:
    """Boot a disk-less machine into BASIC and run the H: folder's program."""
    return Script().wait(BOOT_FRAMES).type(RUN_FROM_H)


def disk_program(launch: GameDisk) -> bytes:
    """The game disk's program of ``launch``'s variant (MACHFSOL.1: the tokenized file
    DOS loads, not the boot menu's packed copy), as the disk holds it."""
    name = PROGRAM_NAMES[launch.variant]
    try:
        disk = Dos2Disk(AtrImage.read(launch.path))
        return disk.read_entry(disk.find(name))
    except A8Error as error:
        raise UsageError(f"{launch.path}: no {name} to run from H: ({error})") from None


def default_overlay() -> bytes:
    """The one source's test-mode overlay, as the H: folder holds it (ATASCII)."""
    return to_atascii(overlay_listing())


@dataclass(frozen=True)
class Batch:
    """Deals of one deck size played by one boot of one program."""

    launch: Launch
    deals: tuple[Deal, ...]
    #: The machine's TV standard when it is not the verification's (None): the default
    #: plan plays its last deals on a PAL machine (:data:`machfsol.atari.verify.DEFAULT_PAL_PLAN`).
    tv: TvSystem | None = None
    #: The boot's copy of a game disk is write-protected (ATR header byte 15), or has no
    #: record file: the default plan's PAL boots (MACHFSOL.1's, MACHFSOL.2's), where the
    #: game must say why the record is not saved, and count the games all the same.
    protected: bool = False
    without_record: bool = False
    #: The game disk's program run from the H: folder in a machine with no disk (the
    #: default plan's last PAL deals): the game must say that it cannot read D1.
    from_h: bool = False

    @property
    def deck(self) -> int:
        return self.deals[0].deck_size

    @property
    def seeds(self) -> tuple[int, ...]:
        return tuple(deal.seed for deal in self.deals)

    @property
    def group(self) -> str:
        """Folder name shared by all batches of the same program."""
        return f"{self.launch.label}-h" if self.from_h else self.launch.label

    def start(self) -> Script:
        """The script that starts the batch's program."""
        return run_from_h() if self.from_h else self.launch.start()

    @cached_property
    def steps(self) -> tuple[list[Step], ...]:
        """The steps of the test mode's player, deal by deal, and the screens they must
        leave."""
        # A game disk's boot has a copy of the disk, with its record file, of its own
        # (write-protected: the game says so); a program from H: runs with no disk, and
        # says so.
        notice = not_saved(2, self.launch.variant)
        if isinstance(self.launch, GameDisk) and not self.from_h:
            notice = b""
            if self.protected:
                notice = not_saved(3, self.launch.variant)
            elif self.without_record:
                notice = not_saved(1, self.launch.variant)
        return tuple(expected_steps(self.launch.variant, self.deals, notice=notice))

    @cached_property
    def transcript_ends(self) -> tuple[int, ...]:
        """The number of each deal's own transcript (``T<n>.TXT``): a deal with a
        random deal has that one's written before its own."""
        ends, number = [], 0
        for steps in self.steps:
            number += len(transcript_parts(steps))
            ends.append(number)
        return tuple(ends)


@dataclass(frozen=True)
class DealResult:
    """The verdict on one deal; ``error`` says what differs (None when ok)."""

    variant: int
    deck: int
    seed: int
    ok: bool
    #: What the test mode's player did besides the policy's moves (letters of
    #: :data:`machfsol.atari.test_mode.EXTRAS`), and in which cards.
    extras: str = ""
    spanish: bool = False
    outcome: str | None = None
    on_foundations: int | None = None
    moves: int | None = None
    deal_jiffies: int | None = None
    game_jiffies: int | None = None
    #: Screens checked against the engine's (one per step of the test mode's player).
    screens: int | None = None
    #: The number its random deal drew (N, RETURN), if it made one.
    drawn: int | None = None
    error: str | None = None
    transcript: Path | None = None
    #: The TV standard the deal was played on when it is not the verification's (None).
    tv: TvSystem | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "deck": self.deck,
            "seed": self.seed,
            **({} if self.tv is None else {"tv": self.tv}),
            "extras": self.extras,
            "cards": "spanish" if self.spanish else "french",
            "ok": self.ok,
            "result": self.outcome,
            "on_foundations": self.on_foundations,
            "moves": self.moves,
            "deal_jiffies": self.deal_jiffies,
            "game_jiffies": self.game_jiffies,
            "screens": self.screens,
            **({} if self.drawn is None else {"random_deal": self.drawn}),
            "error": self.error,
            "transcript": None if self.transcript is None else str(self.transcript),
        }


@dataclass(frozen=True)
class BatchOutcome:
    """The results of a batch, and the seeds it never reached (to run again in a new boot)."""

    results: tuple[DealResult, ...]
    leftover: tuple[Deal, ...]
    log: Path
    #: 1 if the program stopped short of the end of the batch (it hung, crawled, or
    #: ended with an error) at the deal after the last result, else 0.
    stopped: int = 0
    #: What the machine showed of its ROMs (a8.emu's report lines).
    roms: tuple[str, ...] = ()
    #: With --coverage: the program's lines this boot ran.
    run_lines: frozenset[int] = frozenset()


def h_folder(folder: Path) -> Path:
    """The H1: folder of a batch run in ``folder`` (the caller watches it for progress)."""
    return folder / "h"


def deals_finished(folder: Path, batch: Batch) -> int:
    """How many deals of ``batch``, running in ``folder``, have finished so far."""
    try:
        written = {path.name for path in h_folder(folder).glob("T*.TXT")}
    except OSError:
        return 0
    return sum(1 for number in batch.transcript_ends if f"T{number}.TXT" in written)


def batch_script(batch: Batch, deal_frames: int) -> Script:
    """Start the program, then follow it deal by deal (see the module docstring)."""
    script = batch.start()
    budget = START_FRAMES + deal_frames
    for number in batch.transcript_ends:
        script = script.wait_for_file(f"T{number}.TXT", budget)
        budget = deal_frames
    return script.wait_for_file(DONE_NAME, budget)


def emulator_options(
    batch: Batch,
    hdir: Path,
    deal_frames: int,
    base: EmulatorOptions | None,
    disk: Path | None = None,
) -> EmulatorOptions:
    """``disk``: the boot's copy of a game disk (None: the launch's own)."""
    frames = START_FRAMES + deal_frames * len(batch.seeds)
    options = base if base is not None else EmulatorOptions()
    if disk is None and isinstance(batch.launch, GameDisk) and not batch.from_h:
        disk = batch.launch.path
    return replace(
        options,
        tv=options.tv if batch.tv is None else batch.tv,
        basic=True,
        disk=disk,
        hdir=hdir,
        max_frames=None,
        timeout_s=60.0 + frames / MIN_FRAMES_PER_WALL_SECOND,
    )


def run_batch(
    batch: Batch,
    folder: Path,
    *,
    deal_frames: int = DEAL_FRAMES,
    options: EmulatorOptions | None = None,
    stop_on_failure: bool = False,
) -> BatchOutcome:
    """Play ``batch`` in atari800 with ``folder`` as scratch space; judge every deal.

    ``stop_on_failure``: each transcript is judged as soon as it is written, and the
    first failed deal ends the boot (the deals after it are left over, not played).

    The transcripts are kept as ``<folder>/../d<deck>-seed<N>.txt`` (LF line ends), the
    emulator's log as ``<folder>/../boot-<first seed>.log``; ``folder`` is removed.
    Raises the emulator's own errors (atari800 missing, a ROM file not found): those
    concern every batch, not one deal.
    """
    hdir = h_folder(folder)
    hdir.mkdir(parents=True, exist_ok=True)
    steps = list(batch.steps)
    coverage = batch.launch.coverage if isinstance(batch.launch, GameProgram) else None
    coverage_map = None if coverage is None else (MAP_ADDRESS, len(coverage.lines))
    (hdir / CONFIG_NAME).write_bytes(config_text(batch.deals, steps, coverage_map))
    (hdir / OVERLAY_NAME).write_bytes(batch.launch.overlay)
    if isinstance(batch.launch, GameProgram):
        (hdir / PROGRAM_NAME).write_bytes(batch.launch.program)
    elif batch.from_h:
        (hdir / PROGRAM_NAME).write_bytes(disk_program(batch.launch))
    disk = None
    if isinstance(batch.launch, GameDisk) and not batch.from_h:
        # The game writes the player's record on its disk: each boot gets a copy, so
        # that its screens do not depend on the boots before it.
        disk = folder / "boot.atr"
        disk.write_bytes(boot_disk(batch.launch.path, batch))
    run_options = emulator_options(batch, hdir, deal_frames, options, disk)
    if stop_on_failure:
        run_options = replace(run_options, stop_on_file=_FailureWatch(batch, steps))
    result = run(run_options, batch_script(batch, deal_frames))
    log = folder.parent / f"boot-{batch.seeds[0]}.log"
    write_atomically(log, _log_text(batch, result).encode("utf-8"))
    judge = _Judge(batch, steps, hdir, folder.parent, result, deal_frames, log)
    outcome = replace(judge.all_deals(), roms=tuple(result.rom_report()))
    if disk is not None and not outcome.leftover and outcome.results:
        problem = record_problem(batch, disk)
        if problem is not None and outcome.results[-1].ok:
            last = replace(outcome.results[-1], ok=False, error=problem)
            outcome = replace(outcome, results=(*outcome.results[:-1], last))
    if batch.tv is not None:
        outcome = replace(outcome, results=tuple(replace(r, tv=batch.tv) for r in outcome.results))
    if coverage is not None and (hdir / MAP_NAME).is_file():
        text = (hdir / MAP_NAME).read_bytes().decode("latin-1")
        outcome = replace(outcome, run_lines=coverage.run_lines(text))
    shutil.rmtree(folder, ignore_errors=True)
    return outcome


def boot_disk(path: Path, batch: Batch) -> bytes:
    """A boot's copy of the game disk at ``path``: as it is, write-protected, or
    without the program's record file (``batch``)."""
    data = path.read_bytes()
    if batch.without_record:
        copy = Dos2Disk(AtrImage.from_bytes(data, str(path)))
        copy.remove(record_name(batch.launch.variant))
        data = copy.to_bytes()
    if batch.protected:
        image = bytearray(data)
        image[WRITE_PROTECT_BYTE] = 1
        data = bytes(image)
    return data


def record_name(variant: int) -> str:
    return f"MACHFSOL.ST{variant}"


def record_problem(batch: Batch, disk: Path) -> str | None:
    """What the record file on a boot's disk holds that the engine's games do not give
    (machfsol.atari.record_book), or None."""
    name = record_name(batch.launch.variant)
    if batch.without_record:
        return None  # (the game never writes a file it did not find)
    try:
        image = Dos2Disk(AtrImage.from_bytes(disk.read_bytes()))
        data = image.read_entry(image.find(name))
    except (A8Error, OSError) as problem:
        return f"the record file {name} on the boot's disk: {problem}"
    found = records_of(data)
    # a write-protected disk keeps its record file as it was: empty
    wanted = {} if batch.protected else expected_records(batch.launch.variant, batch.deals)
    for deck, record in found.items():
        if record != wanted.get(deck, AtariRecord()):
            return (
                f"the record file {name} on the boot's disk holds, for {deck} cards, "
                f"{record}; the engine's games give {wanted.get(deck, AtariRecord())}"
            )
    return None


def _log_text(batch: Batch, result: RunResult) -> str:
    return (
        f"# {_deals_text(batch.deals)}\n"
        f"# command: {' '.join(result.command)}\n"
        f"# ended: {result.reason}, exit status {result.exit_status}, "
        f"{result.frames} frames ({result.tv.upper()})\n"
        + "".join(f"# {line}\n" for line in result.rom_report())
        + result.log
    )


def _deals_text(deals: tuple[Deal, ...]) -> str:
    """``seeds 1-3 of 52 cards, 1 of 40 cards``: a batch's deals, deck by deck."""
    groups: list[tuple[int, list[int]]] = []
    for deal in deals:
        if not groups or groups[-1][0] != deal.deck_size:
            groups.append((deal.deck_size, []))
        groups[-1][1].append(deal.seed)
    return "seeds " + ", ".join(f"{format_seed_list(s)} of {d} cards" for d, s in groups)


class _FailureWatch:
    """Judges each transcript as the program closes it: True (stop) for a failed deal."""

    def __init__(self, batch: Batch, steps: list[list[Step]]) -> None:
        self.batch = batch
        self.steps = steps

    def __call__(self, path: Path) -> bool:
        number = path.stem[1:]
        if not (path.name.startswith("T") and number.isdigit()):
            return False
        ends = self.batch.transcript_ends
        if int(number) not in ends:  # a random deal's: judged with its deal's own
            return False
        index = ends.index(int(number))
        first = ends[index - 1] + 1 if index else 1
        earlier = [path.with_name(f"T{n}.TXT").read_bytes() for n in range(first, int(number))]
        deal, data = self.batch.deals[index], path.read_bytes()
        game = self.batch.launch.variant
        return not judge_transcript(game, deal, self.steps[index], data, None, earlier=earlier).ok


class _Judge:
    """Reads what one boot left in its H: folder and gives each deal its verdict."""

    def __init__(
        self,
        batch: Batch,
        steps: list[list[Step]],
        hdir: Path,
        keep: Path,
        result: RunResult,
        deal_frames: int,
        log: Path,
    ) -> None:
        self.batch = batch
        self.hdir = hdir
        self.keep = keep
        self.result = result
        self.deal_frames = deal_frames
        self.log = log
        self.done = _read_done(hdir / DONE_NAME)
        #: The steps of the test mode's player, deal by deal, and the screens they
        #: must leave.
        self.steps = steps

    @property
    def ended_normally(self) -> bool:
        """The program wrote ``DONE ...`` (not ``ERROR ...``) in MFDONE.TXT."""
        return self.done is not None and self.done[:1] == ["DONE"]

    def all_deals(self) -> BatchOutcome:
        outcome = self._each_deal()
        return replace(outcome, results=_random_deals_vary(outcome.results))

    def _each_deal(self) -> BatchOutcome:
        results: list[DealResult] = []
        deals = self.batch.deals
        ends = self.batch.transcript_ends
        for index, deal in enumerate(deals):
            number = ends[index]
            rest = deals[index + 1 :]
            path = self.hdir / f"T{number}.TXT"
            kept = self.keep / f"d{deal.deck_size}-seed{deal.seed}.txt"
            earlier = self.random_deals(range(ends[index - 1] + 1 if index else 1, number), kept)
            if not path.exists() and self.result.reason == "stopped-on-file":
                # a failed deal ended the boot: the rest were never played
                return BatchOutcome(tuple(results), deals[index:], self.log)
            if not path.exists():  # the program stopped before this deal
                results.append(self.failure(deal, self.why_missing(index + 1)))
                if self.ended_normally:  # a new boot would end the same way
                    results += [self.failure(other, self.why_missing(index + 1)) for other in rest]
                    rest = ()
                return BatchOutcome(tuple(results), rest, self.log, stopped=1)
            data = path.read_bytes()
            write_atomically(kept, data.replace(EOL, b"\n"))
            if self.ended_normally or (self.hdir / f"T{number + 1}.TXT").exists():
                results.append(self.judged(index, data, kept, earlier))
                continue
            # The program stopped in this deal, or just after it (then its transcript
            # is whole, and the next deal is the one without a transcript).
            if _is_whole(data):
                results.append(self.judged(index, data, kept, earlier))
                continue
            results.append(self.stopped_in(deal, data, kept))
            return BatchOutcome(tuple(results), rest, self.log, stopped=1)
        return BatchOutcome(tuple(results), (), self.log)

    def random_deals(self, numbers: range, kept: Path) -> list[bytes]:
        """The transcripts of a deal's random deals written (``numbers``: theirs),
        each kept beside the deal's as ``<deal>-random.txt``."""
        found = []
        for number in numbers:
            path = self.hdir / f"T{number}.TXT"
            if path.exists():
                found.append(path.read_bytes())
                write_atomically(random_kept(kept), found[-1].replace(EOL, b"\n"))
        return found

    def failure(self, deal: Deal, reason: str, transcript: Path | None = None) -> DealResult:
        return DealResult(
            variant=self.batch.launch.variant,
            deck=deal.deck_size,
            seed=deal.seed,
            ok=False,
            extras=deal.extras,
            spanish=deal.spanish,
            error=reason,
            transcript=transcript,
        )

    def why_missing(self, number: int) -> str:
        """Why the program wrote no transcript for its ``number``-th deal."""
        if self.done is not None:
            if self.ended_normally:
                return f"the program stopped after {number - 1} deals ({' '.join(self.done)})"
            return f"the program stopped: {' '.join(self.done)} (in {DONE_NAME})"
        return self.emulator_trouble("no transcript")

    def emulator_trouble(self, what: str) -> str:
        reason = self.result.reason
        if reason == "wait-file-timeout":
            seconds = self.deal_frames // FRAMES_PER_SECOND[self.result.tv]
            why = f"not finished within {seconds} emulated seconds: the program hung or is too slow"
        elif reason == "timeout":
            why = "the emulator stopped responding and was killed"
        elif reason == "emulator-exited":
            why = f"the emulator exited early (status {self.result.exit_status})"
        else:
            why = f"the emulator run ended ({reason}) without {DONE_NAME}"
        return f"{what}: {why} (emulator log: {self.log})"

    def judged(self, index: int, data: bytes, kept: Path, earlier: Sequence[bytes]) -> DealResult:
        """The verdict on a finished transcript (:func:`judge_transcript`)."""
        deal, game = self.batch.deals[index], self.batch.launch.variant
        return judge_transcript(game, deal, self.steps[index], data, kept, earlier=earlier)

    def stopped_in(self, deal: Deal, data: bytes, kept: Path) -> DealResult:
        """A deal cut short: its first difference from the engine, and why it stopped."""
        if self.done is not None:
            trouble = f"the program stopped in this deal: {' '.join(self.done)} (in {DONE_NAME})"
        else:
            trouble = self.emulator_trouble("the deal did not finish")
        divergence = first_divergence(data, str(kept))
        if divergence is not None:
            return self.failure(deal, f"{divergence}; then {trouble}", kept)
        return self.failure(deal, trouble, kept)


def random_kept(kept: Path) -> Path:
    """Where the transcript of a deal's random deal is kept, beside the deal's."""
    return kept.with_name(f"{kept.stem}-random{kept.suffix}")


def judge_transcript(
    game: int,
    deal: Deal,
    steps: Sequence[Step],
    data: bytes,
    kept: Path | None,
    name: str | None = None,
    earlier: Sequence[bytes] = (),
) -> DealResult:
    """The verdict on one deal's finished transcript ``data``: the deal asked for, the
    engine's checker, then each screen against the one ``steps`` leave (the steps of
    the test mode's player in the session that played it). ``kept``: where the
    transcript is kept (None: nowhere); ``name``: what messages call it (default
    ``kept``); ``earlier``: the transcripts the deal's random deals wrote before it
    (:func:`check_random_deal`), whose numbers the screens after them are foreseen
    for."""
    shown = str(kept) if name is None else name
    parts = transcript_parts(steps)
    drawn = None
    try:
        if len(earlier) != len(parts) - 1:
            raise MachfsolError(
                f"{shown}: {len(earlier)} transcripts of random deals before it, the "
                f"engine's player makes {len(parts) - 1}"
            )
        for part, before in zip(parts, earlier, strict=False):
            where = f"{shown} (its random deal)" if kept is None else str(random_kept(kept))
            drawn = check_random_deal(game, deal, part, before, where)
        transcript = parse(data, shown)
        check_header(transcript, game, deal)
        report = check_transcript(transcript)
        check_screens(transcript, parts[-1], drawn)
    except MachfsolError as error:
        return DealResult(
            variant=game,
            deck=deal.deck_size,
            seed=deal.seed,
            ok=False,
            extras=deal.extras,
            spanish=deal.spanish,
            error=str(error),
            transcript=kept,
        )
    timings = dict(transcript.jiffies)
    return DealResult(
        variant=transcript.variant,
        deck=transcript.deck_size,
        seed=deal.seed,
        ok=True,
        extras=deal.extras,
        spanish=deal.spanish,
        outcome=report.outcome.value,
        on_foundations=report.on_foundations,
        moves=report.moves,
        deal_jiffies=timings.get("DEAL"),
        game_jiffies=timings.get("GAME"),
        screens=len(transcript.screens),
        drawn=drawn,
        transcript=kept,
    )


def check_random_deal(game: int, deal: Deal, steps: Sequence[Step], data: bytes, name: str) -> int:
    """The transcript the test mode writes right after a random deal (N, RETURN): a
    deal number the game takes, dealt as the engine deals that number (its forced
    steps made, nothing played), and its screens those of ``steps`` for it. Returns
    the number drawn."""
    transcript = parse(data, name)
    seed = transcript.seed
    if seed is None or not 1 <= seed <= LARGEST_DEAL:
        line = transcript.header_lines.get("SEED", 1)
        raise MachfsolError(
            f"{name}:{line}: the random deal drawn is {seed}, not a deal number 1-{LARGEST_DEAL}"
        )
    check_header(transcript, game, replace(deal, seed=seed))
    moved = next((line for line in transcript.lines if not line.forced), None)
    if moved is not None:
        raise MachfsolError(f"{name}:{moved.number}: a move made in a deal just laid out")
    # The checker's replay of the order and the forced steps; the game not over, as a
    # person's that stops there (QUIT) is.
    unfinished = replace(transcript.result, outcome=Outcome.QUIT)
    check_transcript(replace(transcript, player=Player.HUMAN, result=unfinished))
    check_screens(transcript, steps, seed)
    return seed


def _random_deals_vary(results: Sequence[DealResult]) -> tuple[DealResult, ...]:
    """A boot's random deals must not all be one number: the last of three or more
    that drew the same fails (a random choice repeats two numbers in a row once in
    65,536 times at most on genuine Atari BASIC, whose RND has 16 random bits)."""
    drawn = [index for index, result in enumerate(results) if result.ok and result.drawn]
    numbers = {results[index].drawn for index in drawn}
    if len(drawn) < RANDOM_DEALS_COMPARED or len(numbers) != 1:
        return tuple(results)
    last = results[drawn[-1]]
    why = (
        f"every random deal of this boot drew deal {last.drawn} ({len(drawn)} deals): "
        "RETURN alone at the deal number's prompt must choose one at random"
    )
    return (*results[: drawn[-1]], replace(last, ok=False, error=why), *results[drawn[-1] + 1 :])


def check_header(transcript: Transcript, game: int, deal: Deal) -> None:
    """The transcript must be the deal the harness asked for, played by the policy."""
    wanted = {
        "VARIANT": (transcript.variant, game),
        "DECK": (transcript.deck_size, deal.deck_size),
        "SEED": (transcript.seed, deal.seed),
        "PLAYER": (transcript.player, Player.AUTO),
    }
    for keyword, (found, asked) in wanted.items():
        if asked is not None and found != asked:
            shown = found.value if isinstance(found, Player) else found
            value = asked.value if isinstance(asked, Player) else asked
            line = transcript.header_lines.get(keyword, 1)
            raise MachfsolError(
                f"{transcript.name}:{line}: the deal played has {keyword} {shown}, "
                f"the harness asked for {value}"
            )


def check_screens(transcript: Transcript, steps: Sequence[Step], drawn: int | None = None) -> None:
    """Each SCREEN checksum must be the screen the engine's table makes after that
    step of the test mode's player (``drawn``: the number the deal's random deal
    drew, for the screens that show it); the first that is not names the step and,
    as far as one checksum tells, the place."""
    shown = transcript.screens
    for number, ((line, value), step) in enumerate(zip(shown, steps, strict=False), 1):
        screen = step.screen_for(drawn)
        if screen is not None and value != screen.checksum():
            raise MachfsolError(
                f"{transcript.name}:{line}: screen {number} of {len(steps)}, after "
                f"{step.what}: {diagnose(screen, value)}"
            )
    if len(shown) < len(steps):
        where = f"{transcript.name}:{shown[-1][0]}" if shown else transcript.name
        raise MachfsolError(
            f"{where}: {len(shown)} screens recorded, the engine's player makes "
            f"{len(steps)} steps: none from {steps[len(shown)].what} on"
        )
    if len(shown) > len(steps):
        line = shown[len(steps)][0]
        raise MachfsolError(
            f"{transcript.name}:{line}: {len(shown)} screens recorded, the engine's "
            f"player makes {len(steps)} steps: the program went on after "
            f"{steps[-1].what if steps else 'nothing'}"
        )


def _is_whole(data: bytes) -> bool:
    """The transcript has all its lines, up to RESULT (whether they are right or not)."""
    try:
        parse(data)
    except MachfsolError:
        return False
    return True


def first_divergence(data: bytes, name: str) -> str | None:
    """The checker's complaint about the complete lines of a cut-short transcript.

    The lines written so far are closed with a stand-in RESULT line and checked: an
    error before that line is a real difference from the engine (None if there is
    none, or if the transcript is cut before its MOVES line).
    """
    complete = data[: data.rfind(EOL) + 1] if EOL in data else b""
    lines = complete.count(EOL)
    closed = complete + b"RESULT LOST 0 MOVES 0" + EOL
    try:
        check_transcript(parse(closed, name))
    except MachfsolError as error:
        text = str(error)
        line = text.removeprefix(f"{name}:").split(":", 1)[0]
        if line.isdigit() and int(line) <= lines:
            return text
    return None


def _read_done(path: Path) -> list[str] | None:
    """The words of the program's MFDONE.TXT, or None if it wrote none."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data.replace(EOL, b" ").decode("latin-1").split()
