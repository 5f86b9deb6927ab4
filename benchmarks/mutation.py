"""Mutation benchmark: does the default ``machfsol verify`` catch a changed game?

Usage: .venv/bin/python benchmarks/mutation.py [--lines A-B,...] [--every N] [--jobs J]
       [--json REPORT.json [--resume]] [--again OLD.json]

Makes the mutants of the game's lines below 10000 in basic_src/machfsol.bas
(benchmarks/mutants.py: operators swapped, constants one off, jumps sent to the next
line), one change each, and runs on each the default verification, what
``machfsol verify --source MUTANT.BAS`` runs when it is not told what to play (both
variants, :data:`machfsol.atari.verify.DEFAULT_PLAN`, the game disk built from the
mutant). A mutant is:

* not a valid program: the source does not generate or tokenize;
* the same program: both variants tokenize to the very bytes of the original (a jump
  to a REM line, which the generator sends to the line after it anyway);
* equivalent: listed with its reason in benchmarks/mutation-equivalents.txt (a
  change no player can see: shown there line by line);
* killed: some deal fails (its first failure is kept in the report);
* survived: every deal passes.

The score is killed / (killed + survived); the target is 95%, figures in
docs/VERIFY.md. A program the mutant leaves unchanged for one variant is verified on
the other only (the unchanged one is the original, which passes). To save time the
verification of a mutant stops at its first failed deal (each transcript is judged as
the program closes it; no later boot starts): the verdict is the default
verification's, as every deal before the failed one passed.

``--every N`` takes every N-th mutant (a quicker sample); ``--lines A-B`` only lines
A to B (or several spans: ``--lines 198,250-269``); ``--json REPORT.json`` writes every
verdict there, the file rewritten as each comes, so that a stopped run keeps them;
``--resume`` goes on with that report (a run over every line takes hours: it may take
several sittings, and runs of other
``--lines`` add to the same report): its verdicts are kept, only the mutants it has
not judged are run, and it must come from today's source (its SHA-256 is in the
report, beside the commits the checks came from: verdicts made before a change of the
checks are yours to judge again, e.g. with ``--again``); ``--tally`` judges nothing:
the figures of the ``--json`` report (with today's list of equivalents) and its
survivors; ``--again OLD.json`` only the survivors of an earlier report, judged again
with today's checks and list of equivalents (with ``--json OLD.json --resume``, their
new verdicts replace the old in that report); ``--os-rom F --basic-rom F``: the
default verification as it runs with your own ROM images (``$A8_OS_ROM`` and
``$A8_BASIC_ROM``), e.g. the genuine XL OS and Atari BASIC rev. C, whose arithmetic
may take paths the built-in ROMs' does not.
Each verdict is printed as it comes; stopped (Ctrl-C, SIGTERM), the benchmark reports
the mutants judged so far.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a8.emu.emulator import EmulatorOptions, resolve_roms
from a8.errors import A8Error
from a8.files import write_atomically
from machfsol.atari.basic_game import BasicSource, read_source
from machfsol.atari.build import game_programs
from machfsol.atari.verify import Plan, disk_launches, game_disk, verify
from machfsol.atari.verify_batch import DEAL_SECONDS, deal_seconds
from machfsol.errors import MachfsolError

sys.path.insert(0, str(Path(__file__).parent))
from mutants import Mutant, mutants  # noqa: E402

EQUIVALENTS = Path(__file__).with_name("mutation-equivalents.txt")
TARGET = 0.95


@dataclass(frozen=True)
class Verdict:
    mutant: Mutant
    outcome: str  # killed, survived, invalid, same program, equivalent
    detail: str
    seconds: float

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.mutant.name,
            "line": self.mutant.number,
            "variant": self.mutant.variant,
            "kind": self.mutant.kind.value,
            "column": self.mutant.start,
            "old": self.mutant.old,
            "new": self.mutant.new,
            "outcome": self.outcome,
            "detail": self.detail,
            "seconds": round(self.seconds, 1),
        }


def equivalents() -> dict[str, str]:
    """Mutant names (as :attr:`Mutant.name` spells them) and why each is equivalent."""
    found = {}
    for text in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        # "# " starts a comment; "#V1 "/"#V2 " a mutant of one variant's line
        if text.strip() and not text.startswith("# "):
            name, _, reason = text.partition(" | ")
            found[name.strip()] = reason.strip()
    return found


def judge(
    mutant: Mutant,
    lines: list[str],
    original: dict[int, bytes],
    why: str | None,
    options: EmulatorOptions | None = None,
    seconds: int = DEAL_SECONDS,
) -> Verdict:
    started = time.monotonic()
    text = "\n".join(mutant.apply(lines)) + "\n"
    source = BasicSource(f"mutant {mutant.name}", text)
    try:
        programs = game_programs(source)
    except (MachfsolError, A8Error) as error:
        return Verdict(mutant, "invalid", str(error), time.monotonic() - started)
    changed = tuple(v for v in (1, 2) if programs[v] != original[v])
    if not changed:
        return Verdict(mutant, "same program", "", time.monotonic() - started)
    if why is not None:
        return Verdict(mutant, "equivalent", why, time.monotonic() - started)
    with tempfile.TemporaryDirectory(prefix="mutant-") as folder:
        work = Path(folder)
        disk = game_disk(work / "MUTANT.ATR", programs)
        launches = disk_launches(disk, changed, source)
        plan = Plan.default(launches)
        verification = verify(
            plan, work, jobs=1, deal_frames=seconds * 60, options=options, stop_on_failure=True
        )
        if verification.failures:
            failed = verification.failures[0]
            detail = f"v{failed.variant} deck {failed.deck} seed {failed.seed}: "
            detail += (failed.error or "").replace(str(work), "")
            return Verdict(mutant, "killed", detail, time.monotonic() - started)
    return Verdict(mutant, "survived", "", time.monotonic() - started)


def original_failure(
    source: BasicSource,
    original: dict[int, bytes],
    options: EmulatorOptions | None,
    seconds: int,
) -> str | None:
    """The default verification's first failure on the unchanged source (None: it
    passes). A mutant is killed when a deal fails: with the original failing too, every
    mutant would be, and the score would say nothing."""
    with tempfile.TemporaryDirectory(prefix="original-") as folder:
        work = Path(folder)
        disk = game_disk(work / "ORIGINAL.ATR", original)
        plan = Plan.default(disk_launches(disk, (1, 2), source))
        verification = verify(
            plan, work, jobs=2, deal_frames=seconds * 60, options=options, stop_on_failure=True
        )
        if not verification.failures:
            return None
        failed = verification.failures[0]
        where = f"v{failed.variant} deck {failed.deck} seed {failed.seed}"
        return f"{where}: {(failed.error or '').replace(str(work), '')}"


def _verdicts(report: Path) -> tuple[str | None, list[str], list[dict[str, Any]]]:
    """An earlier report (--json): the SHA-256 of the source it mutated (None in a
    report of the first form, a bare list), the commits its checks came from, its
    verdicts."""
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
        if isinstance(data, list):
            return None, [], data
        verdicts, commits = data["verdicts"], data["commits"]
        if not isinstance(verdicts, list) or not isinstance(commits, list):
            raise TypeError("verdicts or commits is not a list")
        return str(data["source_sha256"]), [str(c) for c in commits], verdicts
    except (OSError, ValueError, TypeError, KeyError) as error:
        sys.exit(f"mutation.py: {report}: not a report of this benchmark ({error})")


def _survivors(report: Path) -> set[tuple[int, int | None, int]]:
    """The mutants an earlier report has as survived: line, variant, column."""
    try:
        return {
            (int(v["line"]), v["variant"], int(v["column"]))
            for v in _verdicts(report)[2]
            if v["outcome"] == "survived"
        }
    except (ValueError, TypeError, KeyError) as error:
        sys.exit(f"mutation.py: {report}: not a report of this benchmark ({error})")


@dataclass(frozen=True)
class Report:
    """What a report holds: the verdicts of the mutants of one source judged so far
    (any lines: runs of other --lines add to it), and the commits the checks came
    from."""

    source_sha256: str
    commits: tuple[str, ...]
    verdicts: dict[str, Verdict]

    @classmethod
    def resumed(
        cls, path: Path, source_sha256: str, every: list[Mutant], known: dict[str, str]
    ) -> Report:
        """The report at ``path`` (--resume; empty if there is none yet), which must be
        of today's source. A survivor listed as equivalent since is equivalent; one no
        longer listed that the report calls equivalent is left out, to be judged again
        (its run's verdict was not kept); a killed one stays killed, and the list's
        reason for it is said to be wrong (:func:`contradicted`)."""
        if not path.exists():
            return cls(source_sha256, (), {})
        made_from, commits, verdicts = _verdicts(path)
        if made_from != source_sha256:
            sys.exit(
                f"mutation.py: {path}: made from another source than today's "
                f"{read_source().name}; start a new report (another --json file)"
            )
        by_name = {m.name: m for m in every}
        kept = {}
        try:
            for v in verdicts:
                mutant = by_name[str(v["name"])]
                outcome, detail = str(v["outcome"]), str(v["detail"])
                if outcome == "equivalent" and mutant.name not in known:
                    continue
                if mutant.name in known and outcome == "survived":
                    outcome, detail = "equivalent", known[mutant.name]
                kept[mutant.name] = Verdict(mutant, outcome, detail, float(v["seconds"]))
        except (ValueError, TypeError, KeyError) as error:
            sys.exit(f"mutation.py: {path}: not a report of this benchmark ({error})")
        return cls(source_sha256, tuple(commits), kept)

    def write(self, path: Path, commit: str) -> None:
        """The report as it stands, replaced whole (never half written)."""
        commits = [*self.commits, *([commit] if commit not in self.commits else [])]
        data = {
            "source_sha256": self.source_sha256,
            "commits": commits,
            "verdicts": [v.as_json() for v in sorted(self.verdicts.values(), key=_order)],
        }
        write_atomically(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))


def contradicted(report: Report, known: dict[str, str]) -> list[str]:
    """The mutants benchmarks/mutation-equivalents.txt lists whose verification failed:
    a player can tell them from the program, so their reasons are wrong."""
    return [name for name, v in report.verdicts.items() if name in known and v.outcome == "killed"]


def _commit() -> str:
    """The commit the checks come from, for the report's reader ("" outside git)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def _order(verdict: Verdict) -> tuple[int, int, int]:
    return verdict.mutant.number, verdict.mutant.variant or 0, verdict.mutant.start


def line_numbers(text: str) -> list[range]:
    """The spans of ``--lines``: ``A-B`` or ``A``, separated by commas (ValueError if not)."""
    spans = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        spans.append(range(int(low), int(high or low) + 1))
    return spans


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lines",
        default="0-9999",
        help="line numbers A-B, or several: 198,250-269 (default 0-9999)",
    )
    parser.add_argument("--every", type=int, default=1, help="every N-th mutant (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants at once (default 2)")
    parser.add_argument("--json", type=Path, help="write every verdict to this JSON file")
    parser.add_argument(
        "--resume", action="store_true", help="go on with the --json report: judge the rest"
    )
    parser.add_argument(
        "--tally",
        action="store_true",
        help="judge nothing: the --json report's figures, with today's equivalents",
    )
    parser.add_argument("--again", type=Path, help="only the survivors of this --json report")
    parser.add_argument("--os-rom", type=Path, help="verify on this OS ROM (default: built-in)")
    parser.add_argument("--basic-rom", type=Path, help="and this BASIC ROM (default: built-in)")
    args = parser.parse_args()
    if (args.resume or args.tally) and args.json is None:
        parser.error("--resume and --tally read the report --json names")
    try:
        wanted = line_numbers(args.lines)
    except ValueError:
        parser.error(f"--lines {args.lines}: give line numbers A-B, or several: 198,250-269")
    source = read_source()
    source_sha256 = hashlib.sha256(source.text.encode("utf-8")).hexdigest()
    commit = _commit()
    lines = source.text.splitlines()
    every = list(mutants(source.text))
    chosen = [m for m in every if any(m.number in span for span in wanted)][:: args.every]
    if args.again is not None:
        survivors = _survivors(args.again)
        chosen = [m for m in chosen if (m.number, m.variant, m.start) in survivors]
    original = game_programs(source)
    known = equivalents()
    options = None
    if args.os_rom is not None or args.basic_rom is not None:
        options = EmulatorOptions(os_rom=args.os_rom, basic_rom=args.basic_rom)
    try:  # as machfsol verify allows (the ROMs named by the environment count too)
        seconds = deal_seconds(resolve_roms(options or EmulatorOptions()))
    except A8Error as error:
        sys.exit(f"mutation.py: {error}")
    report = Report(source_sha256, (), {})
    if args.resume or args.tally:
        if args.tally and not args.json.exists():
            sys.exit(f"mutation.py: {args.json}: no such report")
        report = Report.resumed(args.json, source_sha256, every, known)
    for name in contradicted(report, known):
        print(f"listed as equivalent, but killed: {name} (a wrong reason, or a kill to look at)")
    verdicts = [report.verdicts[m.name] for m in chosen if m.name in report.verdicts]
    todo = [m for m in chosen if m.name not in report.verdicts]
    if args.again is not None and not args.tally:  # judged again, whatever --json holds
        verdicts, todo = [], chosen
    print(f"{len(chosen)} mutants of lines {args.lines} of {source.name}", flush=True)
    if verdicts:
        print(f"{len(verdicts)} judged already ({args.json}), {len(todo)} to judge", flush=True)
    if args.tally:
        for verdict in verdicts:
            if verdict.outcome == "survived":
                print(f"SURVIVED {verdict.mutant.name}")
        todo = []
    if todo:
        print("the original first: the default verification must pass it", flush=True)
        failure = original_failure(source, original, options, seconds)
        if failure is not None:
            sys.exit(f"mutation.py: the original fails the default verification: {failure}")
    started = time.monotonic()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stopped: report so far
    pool = ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [
            pool.submit(judge, m, lines, original, known.get(m.name), options, seconds)
            for m in todo
        ]
        for number, future in enumerate(futures, start=len(verdicts) + 1):
            verdict = future.result()
            verdicts.append(verdict)
            report.verdicts[verdict.mutant.name] = verdict
            if verdict.outcome == "survived":
                print(f"SURVIVED {verdict.mutant.name}", flush=True)
            print(f"[{number}/{len(chosen)}] {verdict.outcome} {verdict.mutant.name}", flush=True)
            if args.json is not None:
                report.write(args.json, commit)
    except KeyboardInterrupt:
        print(f"stopped: {len(verdicts)} of {len(chosen)} mutants judged", flush=True)
        pool.shutdown(wait=False, cancel_futures=True)
    else:
        pool.shutdown()
    counts = Counter(v.outcome for v in verdicts)
    killed, survived = counts["killed"], counts["survived"]
    score = killed / (killed + survived) if killed + survived else 1.0
    print(
        f"{len(verdicts)} mutants in {time.monotonic() - started:.0f} s: "
        + ", ".join(
            f"{counts[o]} {o}"
            for o in ("killed", "survived", "equivalent", "same program", "invalid")
        )
    )
    by_kind: dict[str, Counter[str]] = {}
    for verdict in verdicts:
        by_kind.setdefault(verdict.mutant.kind.value, Counter())[verdict.outcome] += 1
    for kind, kind_counts in sorted(by_kind.items()):
        print(f"  {kind}: " + ", ".join(f"{n} {o}" for o, n in sorted(kind_counts.items())))
    print(
        f"killed {score:.1%} of the mutants not equivalent (target {TARGET:.0%}): "
        f"{'met' if score >= TARGET else 'NOT met'}"
    )
    if args.json is not None and not args.tally:
        report.write(args.json, commit)
    return 0 if score >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
