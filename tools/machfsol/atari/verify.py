"""``machfsol verify``: do the Atari programs play every deal exactly like the engine?

The command boots the game disk in atari800 (or runs the program a user gives, so an
edited BASIC can be tested before it goes on a disk), lets the program autoplay the
chosen deals in its test mode, and replays every transcript it writes on the Python
engine (:mod:`machfsol.engine.checker`). One emulator boot plays many deals
(:mod:`machfsol.atari.verify_batch`); ``--jobs`` emulators run side by side, each on its own
share of the seeds.

Nothing can hang it: every deal has a budget of emulated time, every emulator a
wall-clock limit after which it is killed. A deal that fails, for whatever reason, is
reported with its seed and the first line where the program and the engine part ways;
the transcripts and the emulator logs are kept for a look (the folder is printed).

Exit status: 0 when every deal is verified, 1 when any deal fails, 2 for a bad
command line (seeds, deck, variant).
"""

from __future__ import annotations

import json
import math
import shutil
import statistics
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from a8.basic import tokenize
from a8.basic.convert import LARGEST_LISTING
from a8.basic.program import Program
from a8.emu.emulator import FRAMES_PER_SECOND, EmulatorOptions, TvSystem, require_emulator
from a8.files import write_atomically
from a8.reading import read_at_most
from machfsol.atari.basic_game import BasicSource, kept_lines, overlay_listing, to_atascii
from machfsol.atari.build import build_disk, game_programs
from machfsol.atari.coverage import Coverage, instrument, unrun_reasons
from machfsol.atari.keyboard_game import KeyboardCheck, KeyboardGame, play_on_keyboard
from machfsol.atari.places import default_disk
from machfsol.atari.test_player import Deal
from machfsol.atari.verify_batch import (
    DEAL_FRAMES,
    Batch,
    BatchOutcome,
    DealResult,
    GameDisk,
    GameProgram,
    Launch,
    deals_finished,
    disk_program,
    run_batch,
)
from machfsol.engine.seed_list import format_seed_list
from machfsol.errors import UsageError

#: What ``machfsol verify`` plays when it is not told (--seeds, --deck): seeds 1-60
#: of 52 cards; 195 and 386, where the policy digs deeper than four cards into the
#: discard pile (found by search: its rarest branch, which seeds 1-60 never reach); the
#: two that take the longest ways through the deal number (above 65535, and ten
#: digits); then, on a PAL machine, :data:`DEFAULT_PAL_PLAN`. In a minute on two cores
#: (docs/VERIFY.md).
DEFAULT_PLAN: Final = ((52, (*range(1, 61), 195, 386, 65537, 2147483646)),)
#: Two deals of every deck size but 52, the PAL plan's first groups.
_EVERY_OTHER_SIZE: Final = tuple((deck, (1, 2)) for deck in range(48, 19, -4))
#: The default plan's last deals, played in boots of a PAL machine of their own (50
#: jiffies a second: the time a game took is counted in them, line 263), whatever the
#: TV standard asked for the rest: two deals of every other deck size (each through the
#: options); then 28079 and 28145 of 52 cards (found by search,
#: benchmarks/mutation.py's survivors: seeds 1-3000 have no deal with both), where the
#: policy digs exactly four cards deep into a pile of four (MACHFSOL.2 and .1), and a
#: game is won with the 2 of a suit its last card up, so that undoing the last move
#: leaves that Ace pile at its Ace (.1; 28145 is the plan's 82nd deal, which undoes
#: every move after play-all); then 65535 and 65536, the deal numbers either side of
#: the shuffle's split into two 16-bit halves (lines 600-601: 65536's low half is 0);
#: deals 4 and 7 of 20 cards, won by play-all (their places give them P) with a King
#: pile's top its Ace pile wants left when the last card goes up, from the discard pile
#: and from the stock: with no tableau, the only deals whose last card comes from
#: there, where autoplay must stop at the win (lines 5 and 109 go on at 101) rather
#: than move that top; 99999, whose number typed splits into 100,000s with the low
#: part at its largest (line 8053's bound); last, 86, 101, 109, 90 and 69, whose
#: places give the last two hints from late in the game (K): there MACHFSOL.2's first
#: hint comes where the first King pile's top is the one card an Ace pile wants, of
#: hearts (90) and of diamonds (69), which line 610 counts (found by search; the
#: first three play-all and undo); then 8 and 15 of 20 cards, after a lost game of 52:
#: a deck with no tableau, whose spaces the lay-out must empty itself (line 652: the
#: last deal's cards left there make the policy rescue from a space that is not there);
#: last, 2633 of 52 cards, where MACHFSOL.2's policy finds its rescue by digging to the
#: bottom of a discard pile of five, with five rescues (line 121's bound; found by search,
#: seeds 1-100,000 have two such deals in MACHFSOL.2 and none in MACHFSOL.1; its place
#: gives it a hint at every move), played by the game disk's programs run from the H:
#: folder in a machine with no disk (:data:`DEFAULT_FROM_H`).
DEFAULT_PAL_PLAN: Final = (
    *_EVERY_OTHER_SIZE,
    (52, (28079, 28145, 65535, 65536)),
    (20, (4, 7)),
    (52, (99999, 86, 101, 109, 90, 69)),
    (20, (8, 15)),
    (52, (2633,)),
)
#: How many of the default plan's last PAL deals each program plays run from the H:
#: folder in a machine with no disk, as a player runs it from a DOS disk that is not
#: DOS 2: the game must say once that it cannot read D1 for its record (line 9120).
DEFAULT_FROM_H: Final = 1


def from_h_words(count: int) -> str:
    """The plan's words for its last deals run from H: (:attr:`Plan.from_h`)."""
    deals = "deal" if count == 1 else f"{count} deals"
    return f" (the last {deals} from H:, no disk in the machine)"


#: The default plan in a few words, for ``--help`` (made from the plans above).
DEFAULT_PLAN_TEXT: Final = "; ".join(
    [
        *(f"seeds {format_seed_list(seeds)} of {deck} cards" for deck, seeds in DEFAULT_PLAN),
        "on a PAL machine 1-2 of every other size, "
        + ", ".join(
            f"{format_seed_list(seeds)} of {deck} cards"
            for deck, seeds in DEFAULT_PAL_PLAN[len(_EVERY_OTHER_SIZE) :]
        )
        + from_h_words(DEFAULT_FROM_H),
    ]
)
#: The seeds of --deck without --seeds.
DEFAULT_SEEDS: Final = "1-100"
DEFAULT_JOBS: Final = 2
#: The test mode player's extras (:data:`machfsol.atari.test_mode.EXTRAS`) in turn, by
#: a deal's place in the seed list (:func:`scheduled_deal`).
EXTRAS_CYCLE: Final = ("P", "UP", "H", "HU")
#: The score (won, played) a deal of ten digits starts from: the status line is then
#: one character short of its short form (program line 199), which a win brings
#: (line 200), and 999 played become 1000 at the first move.
TEN_DIGIT_SCORE: Final = (9, 999)
#: More deals than this per boot gains nothing (boot and load take about one deal).
MAX_DEALS_PER_BOOT: Final = 40
#: After this many deals of one program and deck stopped it (a hang, an error, a
#: crash), the rest are not tried: a program that never gets through a deal fails fast.
MAX_STOPPED: Final = 3
#: Failures printed in full; the others are counted (--json has them all).
SHOWN_FAILURES: Final = 10
#: The main job's default: this many seeds of each variant, 52 cards.
MAIN_SEEDS: Final = 20
#: The deal typed on the keyboard for each variant (``--keyboard``), played to its end
#: by :func:`machfsol.atari.keyboard_game.player_moves`: these deals (52 cards) bring every
#: kind of move (draw; tableau, discard and King-pile cards to Ace and King piles).
KEYBOARD_GAMES: Final = {1: 289, 2: 277}
#: Enough moves for any game to end (a game ends within 3N moves).
KEYBOARD_MOVES: Final = 3 * 52
#: In the keyboard game every this many moves one is undone and typed again, and at the
#: end this many moves are undone: the table on the screen then checks undo too.
KEYBOARD_UNDO_EVERY: Final = 7
KEYBOARD_UNDO_LAST: Final = 12


def scheduled_deal(deck: int, seed: int, index: int) -> Deal:
    """The ``index``-th deal of a seed list, as the test mode's player plays it.

    Every deal is played through the player's keys
    (:mod:`machfsol.atari.test_player`), and in every deal the program's own policy
    is held to the engine's at every position: half the deals have their first ten
    moves typed and play-all (P) make the rest, the other half show a hint (H)
    before every move typed (in half of these, K, only from the first move that
    takes a King pile's top up: the program's first hint then counts such tops at a
    position that has one). Besides, by a deal's place in the list: of every two
    with P or H, one with undos (U); every third deal with a player's mistakes (E),
    every fifth with the deal number typed the long way (N), every seventh in lower
    case (L); every second four in Spanish cards (through the options, as a deck
    size other than 52 is); every twelfth, one with mistakes, with an error made in
    the game (X). So a fixed share of any verification goes through each
    path, whatever seeds it is given. A deal of ten digits starts from a score of
    :data:`TEN_DIGIT_SCORE` (the status line's short form)."""
    score = TEN_DIGIT_SCORE if seed > 999_999_999 else None
    extras = EXTRAS_CYCLE[index % 4]
    extras += "K" if index % 8 in (2, 3) else ""
    extras += "E" if index % 3 == 1 else ""
    extras += "X" if index % 12 == 1 else ""
    extras += "N" if index % 5 == 3 else ""
    extras += "L" if index % 7 == 5 else ""
    return Deal(deck, seed, extras, spanish=(index // 4) % 2 == 1, score=score)


@dataclass(frozen=True)
class Plan:
    """What to verify: programs (one per variant, or the user's), and the deals each
    plays, as groups of seeds of one deck size, in order; then ``pal``'s groups, in
    boots of a PAL machine of their own, the last ``from_h`` deals of them by a game
    disk's programs run from H: with no disk."""

    launches: tuple[Launch, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...]
    pal: tuple[tuple[int, tuple[int, ...]], ...] = ()
    from_h: int = 0

    @classmethod
    def every(
        cls, launches: tuple[Launch, ...], decks: Sequence[int], seeds: Sequence[int]
    ) -> Plan:
        """Every seed on every deck size."""
        return cls(launches, tuple((deck, tuple(seeds)) for deck in decks))

    @classmethod
    def default(cls, launches: tuple[Launch, ...]) -> Plan:
        """``machfsol verify`` without --seeds and --deck (:data:`DEFAULT_PLAN`)."""
        return cls(launches, DEFAULT_PLAN, DEFAULT_PAL_PLAN, DEFAULT_FROM_H)

    @property
    def deals(self) -> int:
        return len(self.launches) * len(self.deal_list())

    @property
    def first_pal(self) -> int:
        """Where the PAL deals start in :meth:`deal_list`."""
        return sum(len(seeds) for _deck, seeds in self.groups)

    def deal_list(self) -> tuple[Deal, ...]:
        """The deals each program plays, as the test mode's player plays them (the PAL
        ones last)."""
        pairs = [(deck, seed) for deck, seeds in (*self.groups, *self.pal) for seed in seeds]
        return tuple(scheduled_deal(deck, seed, i) for i, (deck, seed) in enumerate(pairs))

    def describe(self) -> str:
        """The deals in words: ``seeds 1-20 of 52 cards; 1,2 of 40 cards``."""
        words = [
            f"{'seeds ' if i == 0 else ''}{format_seed_list(seeds)} of {deck} cards"
            for i, (deck, seeds) in enumerate(self.groups)
        ]
        words += [
            f"{'on a PAL machine ' if i == 0 else ''}{format_seed_list(seeds)} of {deck} cards"
            for i, (deck, seeds) in enumerate(self.pal)
        ]
        if self.from_h:
            words[-1] += from_h_words(self.from_h)
        return "; ".join(words)

    def batches(self, jobs: int) -> list[Batch]:
        """The deals cut into boots: every emulator busy, no boot longer than needed;
        the programs' boots in turn (the first deals of each come first); the PAL deals
        in boots of their own, last, and of them the last ``from_h`` by each game disk's
        program run from H: with no disk."""
        per_boot = min(MAX_DEALS_PER_BOOT, max(1, math.ceil(self.deals / jobs)))
        deals = self.deal_list()
        from_h = len(deals) - self.from_h
        return [
            *self._boots(deals[: self.first_pal], per_boot, None),
            *self._boots(deals[self.first_pal : from_h], per_boot, "pal"),
            *self._boots(deals[from_h:], per_boot, "pal", from_h=True),
        ]

    def _boots(
        self, deals: tuple[Deal, ...], per_boot: int, tv: TvSystem | None, from_h: bool = False
    ) -> list[Batch]:
        if not deals:
            return []
        count = math.ceil(len(deals) / per_boot)
        size = math.ceil(len(deals) / count)
        # The PAL boots run on a copy of a game disk that is write-protected
        # (MACHFSOL.1's) or has no record file (MACHFSOL.2's): the game must say once
        # that the record is not saved, and why, and count the games all the same.
        disk = tv == "pal" and not from_h
        return [
            Batch(
                launch,
                deals[start : start + size],
                tv,
                protected=disk and launch.variant == 1,
                without_record=disk and launch.variant == 2,
                from_h=from_h and isinstance(launch, GameDisk),
            )
            for start in range(0, len(deals), size)
            for launch in self.launches
        ]


@dataclass(frozen=True)
class Verification:
    """Every deal's verdict, in plan order, and how long it all took."""

    results: tuple[DealResult, ...]
    seconds: float
    #: The keyboard games typed (``--keyboard``), one per variant.
    keyboard: tuple[KeyboardCheck, ...] = ()
    #: "ntsc" or "pal": how long a jiffy is (1/60 or 1/50 s).
    tv: str = "ntsc"
    #: What the machine showed of its OS and BASIC (a8.emu's lines, from the first boot).
    roms: tuple[str, ...] = ()
    #: With --coverage: the lines each program ran, by variant.
    run_lines: dict[int, frozenset[int]] = field(default_factory=dict)
    #: With --coverage: each program's lines run and never run, with the reasons.
    coverage: tuple[Coverage, ...] = ()

    @property
    def ok(self) -> bool:
        return (
            all(result.ok for result in self.results)
            and all(c.ok for c in self.keyboard)
            and all(c.ok for c in self.coverage)
        )

    @property
    def failures(self) -> tuple[DealResult, ...]:
        return tuple(result for result in self.results if not result.ok)

    def deals_per_minute(self) -> float:
        return 60.0 * len(self.results) / self.seconds if self.seconds > 0 else 0.0


# ------------------------------------------------------------------ what to run


def game_disk(path: Path, programs: dict[int, bytes] | None = None) -> Path:
    """Write the game disk (same bytes as ``machfsol build``) to ``path``, holding
    ``programs`` (default: built from the one source, :mod:`machfsol.atari.places`)."""
    programs = game_programs() if programs is None else programs
    write_atomically(path, build_disk(programs, str(path)).to_bytes())
    return path


def disk_launches(
    disk: Path, variants: Sequence[int], source: BasicSource | None = None
) -> tuple[Launch, ...]:
    """Boot ``disk`` once per variant; the test mode's overlay from ``source`` (default:
    the one source)."""
    if not disk.is_file():
        raise UsageError(f"{disk}: disk image not found")
    overlay = to_atascii(overlay_listing(source))
    # atari800 runs in a scratch folder: a relative path would not find the disk there
    return tuple(GameDisk(disk.resolve(), variant, overlay) for variant in variants)


def coverage_launches(
    variants: Sequence[int], source: BasicSource, programs: dict[int, bytes] | None = None
) -> tuple[GameProgram, ...]:
    """The programs of ``source`` (or ``programs``, the user's SAVE files by variant)
    with every line instrumented for --coverage (:mod:`machfsol.atari.coverage`)."""
    overlay = to_atascii(overlay_listing(source))
    programs = game_programs(source) if programs is None else programs
    launches = []
    for variant in variants:
        instrumented = instrument(
            programs[variant], f"MACHFSOL.{variant}", kept_lines(source, variant)
        )
        launches.append(
            GameProgram(instrumented.program, f"MACHFSOL.{variant}", variant, overlay, instrumented)
        )
    return tuple(launches)


def coverage_of(
    verification: Verification, launches: Sequence[Launch], source: BasicSource
) -> tuple[Coverage, ...]:
    """Each instrumented program's coverage, with the reasons ``source`` gives."""
    found = []
    for launch in launches:
        if isinstance(launch, GameProgram) and launch.coverage is not None:
            found.append(
                Coverage(
                    launch.variant,
                    launch.coverage.lines,
                    verification.run_lines.get(launch.variant, frozenset()),
                    unrun_reasons(source, launch.variant),
                    launch.coverage.kept,
                )
            )
    return tuple(found)


def _read_program(path: Path) -> bytes:
    try:
        data = read_at_most(path, LARGEST_LISTING)
    except OSError as error:
        raise UsageError(f"{path}: cannot read the program: {error.strerror}") from None
    if len(data) > LARGEST_LISTING:
        raise UsageError(f"{path}: more than {LARGEST_LISTING:,} bytes: not a program")
    return data


def program_launch(path: Path, variant: int, source: BasicSource | None = None) -> GameProgram:
    """The user's program: a SAVE file as it is, or a listing tokenized here; the test
    mode's overlay from ``source`` (default: the one source)."""
    overlay = to_atascii(overlay_listing(source))
    data = _read_program(path)
    if data[:2] == b"\x00\x00":  # a SAVE file starts with LOMEM, always 0
        Program.from_bytes(data, file=str(path))
        return GameProgram(data, str(path), variant, overlay)
    return GameProgram(tokenize(data, file=str(path)), str(path), variant, overlay)


# ------------------------------------------------------------------ running


def verify(
    plan: Plan,
    work: Path,
    *,
    jobs: int = DEFAULT_JOBS,
    deal_frames: int = DEAL_FRAMES,
    options: EmulatorOptions | None = None,
    progress: Callable[[int], None] | None = None,
    stop_on_failure: bool = False,
) -> Verification:
    """Run ``plan`` on ``jobs`` emulators; transcripts and logs go under ``work``.

    ``progress`` is called now and then with the number of deals finished so far.
    ``stop_on_failure``: a boot ends at its first failed deal, and no other boot
    starts (the deals never played are left out of the results): a quick "does
    anything fail?".
    """
    require_emulator()  # a missing emulator is one error for all, not one per deal
    started = time.monotonic()
    queue = deque(plan.batches(jobs))
    for batch in queue:  # a game disk without its program: one error, before any boot
        if batch.from_h and isinstance(batch.launch, GameDisk):
            disk_program(batch.launch)
    stopped: dict[str, int] = {}
    results: list[DealResult] = []
    running: dict[Future[BatchOutcome], tuple[Batch, Path]] = {}
    boots = 0
    roms: tuple[str, ...] = ()
    run_lines: dict[int, frozenset[int]] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while queue or running:
            if stop_on_failure and any(not result.ok for result in results):
                queue.clear()
            while queue and len(running) < jobs:
                batch = queue.popleft()
                boots += 1
                folder = work / batch.group / f"run{boots}"
                future = pool.submit(
                    run_batch,
                    batch,
                    folder,
                    deal_frames=deal_frames,
                    options=options,
                    stop_on_failure=stop_on_failure,
                )
                running[future] = (batch, folder)
            finished, _ = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                batch, folder = running.pop(future)
                try:
                    outcome = future.result()
                except OSError as error:  # the scratch folder, not the program, failed
                    reason = f"cannot run the emulator: {error}"
                    outcome = BatchOutcome(
                        tuple(_not_run(batch, deal, reason) for deal in batch.deals),
                        (),
                        folder,
                    )
                results += outcome.results
                roms = roms or outcome.roms
                variant = batch.launch.variant
                run_lines[variant] = run_lines.get(variant, frozenset()) | outcome.run_lines
                stopped[batch.group] = stopped.get(batch.group, 0) + outcome.stopped
                if outcome.leftover and stopped[batch.group] >= MAX_STOPPED:
                    reason = f"not run: the program stopped in {MAX_STOPPED} deals already"
                    results += [_not_run(batch, deal, reason) for deal in outcome.leftover]
                elif outcome.leftover:
                    queue.appendleft(replace(batch, deals=outcome.leftover))
            if progress is not None:
                progress(len(results) + sum(deals_finished(f, b) for b, f in running.values()))
    tv = options.tv if options is not None else "ntsc"
    seconds = time.monotonic() - started
    return Verification(
        _in_plan_order(plan, results), seconds, tv=tv, roms=roms, run_lines=run_lines
    )


def _not_run(batch: Batch, deal: Deal, reason: str) -> DealResult:
    return DealResult(
        tv=batch.tv,
        variant=batch.launch.variant,
        deck=deal.deck_size,
        seed=deal.seed,
        ok=False,
        extras=deal.extras,
        spanish=deal.spanish,
        error=reason,
    )


def _in_plan_order(plan: Plan, results: list[DealResult]) -> tuple[DealResult, ...]:
    launch_rank = {launch.variant: index for index, launch in enumerate(plan.launches)}
    deal_rank = {
        (d.deck_size, d.seed, None if index < plan.first_pal else "pal"): index
        for index, d in enumerate(plan.deal_list())
    }

    def key(result: DealResult) -> tuple[int, int]:
        return launch_rank[result.variant], deal_rank[(result.deck, result.seed, result.tv)]

    return tuple(sorted(results, key=key))


def keyboard_checks(
    launches: Sequence[Launch],
    work: Path,
    *,
    jobs: int = DEFAULT_JOBS,
    options: EmulatorOptions | None = None,
) -> tuple[KeyboardCheck, ...]:
    """Type each variant's keyboard game (:data:`KEYBOARD_GAMES`) into its program:
    once a key at a time as the program is ready, once typed ahead at 12 keys a second."""
    games: list[tuple[KeyboardGame, Launch, Path]] = []
    for launch in launches:
        seed = KEYBOARD_GAMES[launch.variant]
        game = replace(
            KeyboardGame.of_seed(launch.variant, seed, KEYBOARD_MOVES),
            undo_every=KEYBOARD_UNDO_EVERY,
            undo_last=KEYBOARD_UNDO_LAST,
        )
        games.append((game, launch, work / f"keyboard-v{launch.variant}"))
        ahead = replace(game, typed_ahead=True)
        games.append((ahead, launch, work / f"keyboard-v{launch.variant}-typed-ahead"))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(play_on_keyboard, game, launch, folder=folder, options=options)
            for game, launch, folder in games
        ]
        return tuple(future.result() for future in futures)


# ------------------------------------------------------------------ reporting


def _median(values: Sequence[int | None], per_second: int) -> str:
    known = [value for value in values if value is not None]
    if not known:
        return "-"
    jiffies = statistics.median(known)
    return f"{jiffies:.0f} ({jiffies / per_second:.1f} s)"


def summary_table(verification: Verification, missing: Collection[DealResult] | None = None) -> str:
    """Deals, verified, failed, won and median jiffies for each variant and deck.

    ``missing``: the results that are deals never played (a test disk that came back
    part-way, :mod:`machfsol.atari.verify_results`): counted in a column of their
    own rather than as failed."""
    groups: dict[tuple[str, int, str], list[DealResult]] = {}
    for result in verification.results:
        variant = str(result.variant)
        tv = result.tv or verification.tv
        groups.setdefault((variant, result.deck, tv), []).append(result)
    header = (
        "variant",
        "deck",
        "deals",
        "verified",
        "failed",
        *(() if missing is None else ("missing",)),
        "won",
        "jiffies/deal",
        "jiffies/game",
    )
    rows = [header]
    for (variant, deck, tv), results in groups.items():
        verified = [result for result in results if result.ok]
        unplayed = 0 if missing is None else sum(result in missing for result in results)
        per_second = FRAMES_PER_SECOND["pal" if tv == "pal" else "ntsc"]
        rows.append(
            (
                variant,
                str(deck) if tv == verification.tv else f"{deck} {tv.upper()}",
                str(len(results)),
                str(len(verified)),
                str(len(results) - len(verified) - unplayed),
                *(() if missing is None else (str(unplayed),)),
                str(sum(result.outcome == "WON" for result in verified)),
                _median([result.deal_jiffies for result in verified], per_second),
                _median([result.game_jiffies for result in verified], per_second),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def failure_lines(
    verification: Verification,
    limit: int = SHOWN_FAILURES,
    leave_out: Collection[DealResult] = (),
) -> list[str]:
    """One line per failed deal: its seed and what differs (the checker's words);
    ``leave_out``: failures said otherwise (deals never played)."""
    failures = [r for r in verification.failures if r not in leave_out]
    lines = [
        f"FAILED variant {r.variant}, deck {_deck_words(r, verification)}, seed {r.seed}: {r.error}"
        for r in failures[:limit]
    ]
    if len(failures) > limit:
        lines.append(f"... and {len(failures) - limit} more failed deals (--json lists all)")
    return lines


def _deck_words(result: DealResult, verification: Verification) -> str:
    """``52``, or ``52 (PAL)`` for a deal played on another TV standard than the rest."""
    tv = result.tv
    return str(result.deck) if tv in (None, verification.tv) else f"{result.deck} ({tv.upper()})"


def keyboard_lines(verification: Verification) -> list[str]:
    """One line per keyboard game: the table matches, or what differs."""
    lines: list[str] = []
    for check in verification.keyboard:
        game = check.game
        what = f"keyboard game, variant {game.variant}, deal {game.seed}, {len(game.moves)} moves"
        if game.undo_every or game.undo_last:
            what += (
                f" (every {game.undo_every}th undone and typed again,"
                f" the last {game.undo_last} undone)"
            )
        if game.typed_ahead:
            what += f", {len(game.keys())} keys typed ahead at 12 a second"
        if check.ok:
            lines.append(f"{what}: the screen shows the engine's table")
        else:
            lines.append(f"FAILED {what}: {'; '.join(check.differences)}")
            if check.screenshot is not None:
                lines.append(f"  the screen: {check.screenshot}")
    return lines


def json_report(verification: Verification) -> str:
    report: dict[str, object] = {
        "ok": verification.ok,
        "tv": verification.tv,
        "jiffies_per_second": FRAMES_PER_SECOND["pal" if verification.tv == "pal" else "ntsc"],
        "roms": list(verification.roms),
        "results": [r.as_json() for r in verification.results],
    }
    if verification.keyboard:
        report["keyboard"] = [
            {
                "variant": check.game.variant,
                "seed": check.game.seed,
                "moves": len(check.game.moves),
                "typed_ahead": check.game.typed_ahead,
                "ok": check.ok,
                "differences": list(check.differences),
            }
            for check in verification.keyboard
        ]
    if verification.coverage:
        report["coverage"] = [coverage.as_json() for coverage in verification.coverage]
    return json.dumps(report, indent=1)


# ------------------------------------------------------------------ the run's folder and output


def without_transcripts(verification: Verification) -> Verification:
    """The verdicts without the paths of transcripts that are not kept."""
    results = tuple(replace(result, transcript=None) for result in verification.results)
    return replace(verification, results=results)


def text_report(verification: Verification, kept: Path | None) -> str:
    results = verification.results
    verified = sum(result.ok for result in results)
    per_second = FRAMES_PER_SECOND["pal" if verification.tv == "pal" else "ntsc"]
    lines = list(verification.roms)
    lines.append(f"TV: {verification.tv.upper()}, a jiffy is 1/{per_second} s")
    if any(result.tv not in (None, verification.tv) for result in results):
        lines.append("deck N PAL: deals played on a PAL machine (a jiffy is 1/50 s)")
    lines += [summary_table(verification), *failure_lines(verification)]
    lines += keyboard_lines(verification)
    for coverage in verification.coverage:
        lines += coverage.report_lines()
    lines.append(
        f"{verified} of {len(results)} deals verified in {verification.seconds:.1f} s "
        f"({verification.deals_per_minute():.0f} deals/min)"
    )
    if kept is not None:
        lines.append(f"transcripts and emulator logs: {kept}")
    lines.append("OK" if verification.ok else "FAILED")
    return "\n".join(lines)


def run_with_progress(
    plan: Plan,
    work: Path,
    jobs: int,
    deal_frames: int,
    options: EmulatorOptions | None = None,
) -> Verification:
    """:func:`verify` with a progress bar on stderr when it is a terminal."""
    from tqdm import tqdm

    with tqdm(
        total=plan.deals, unit="deal", file=sys.stderr, disable=not sys.stderr.isatty()
    ) as bar:

        def show(done: int) -> None:
            if done > bar.n:
                bar.update(done - bar.n)

        verification = verify(
            plan, work, jobs=jobs, deal_frames=deal_frames, options=options, progress=show
        )
        show(len(verification.results))
    return verification


class WorkFolder:
    """Scratch space for the run: the user's --keep folder, or a temporary one that is
    removed unless something failed (then its path is printed)."""

    def __init__(self, keep: Path | None) -> None:
        self.given = keep
        self.path = Path(tempfile.mkdtemp(prefix="machfsol-verify-")) if keep is None else keep
        self.kept: Path | None = keep
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--keep {keep}: cannot make the folder: {error.strerror}") from None

    def keep_if(self, failed: bool) -> None:
        if failed:
            self.kept = self.path

    def __enter__(self) -> WorkFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.kept is None:
            shutil.rmtree(self.path, ignore_errors=True)


# ------------------------------------------------------------------ the main job


def main_job(
    *,
    seeds: Sequence[int] = tuple(range(1, MAIN_SEEDS + 1)),
    disk: Path | None = None,
    jobs: int = DEFAULT_JOBS,
) -> int:
    """Build the game disk, verify both variants on the deals ``seeds`` (52 cards).

    The disk goes to ``disk``, by default where ``machfsol build`` puts it
    (:func:`machfsol.atari.places.default_disk`)."""
    disk = default_disk() if disk is None else disk
    disk.parent.mkdir(parents=True, exist_ok=True)
    game_disk(disk)
    print(f"built {disk}")
    plan = Plan.every(disk_launches(disk, (1, 2)), (52,), seeds)
    print(
        f"verifying {plan.deals} deals in atari800 (variants 1 and 2, "
        f"seeds {format_seed_list(seeds)}, 52 cards)"
    )
    with WorkFolder(None) as work:
        verification = run_with_progress(plan, work.path, jobs, DEAL_FRAMES)
        print("typing a whole game of each variant on the keyboard, checking the screen")
        typed = keyboard_checks(plan.launches, work.path, jobs=jobs)
        verification = replace(verification, keyboard=typed)
        work.keep_if(not verification.ok)
        print(text_report(verification, work.kept))
    print(f"the game disk: {disk.resolve()}")
    return 0 if verification.ok else 1
