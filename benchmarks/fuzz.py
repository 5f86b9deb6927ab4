"""The long fuzzing run: every parser, many damaged inputs; inputs tried, tracebacks found.

    .venv/bin/python benchmarks/fuzz.py                 # about 12 minutes on the project machine
    .venv/bin/python benchmarks/fuzz.py --rounds 2000   # a quick look

Targets (the parsers users feed files to):

- listing: ``a8 tokenize`` then ``a8 list`` of the result, on pieces of the corpus
  listings (tests/a8/basic/fixtures/corpus);
- BAS: ``a8 list`` (UTF-8 and ATASCII) of tokenized programs: the corpus listings
  tokenized, and the SAVE files genuine Atari BASIC rev. C wrote (../shared/revc-gold);
- ATR: what ``a8 atr ls/get/check/add/rm/boot`` do, on the real disks of
  tests/a8/disk/corpus and new disks, damage aimed at headers, boot sectors, VTOCs,
  directories and links; then a byte-by-byte scan (every byte of the header, sector
  1, the VTOC(s), the first directory sector set to each edge value) of one disk of
  each file system;
- transcript: ``machfsol check`` (parse and replay) of autoplayed games with timing
  lines, in LF and ATASCII line ends;
- script: ``a8 emu run --script``'s reading of input scripts (the examples, every
  command, issue 28's ``wait 999999999999`` and control characters);
- command lines: ``a8`` and ``machfsol`` run on real command lines with words
  replaced by long names, ``/dev/zero``, ``./-``, control characters, the input as
  the output, numbers out of range (tests/a8/test_command_lines.py; atari800
  hidden, so nothing waits for the emulator).

Each input must end in a result or a one-line error; any other exception is
counted as a traceback and the first few are saved with ``--save DIR`` (input file
plus the error). Exit status 1 if any traceback was found. The same ``--seed`` gives
the same inputs. Figures: docs/notes/fuzzing.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the seeds are the tests' (tests/ is a package)

from tests.a8.test_command_lines import (  # noqa: E402
    A8_INPUTS,
    A8_LINES,
    MACHFSOL_INPUTS,
    MACHFSOL_LINES,
    fill,
)
from tests.a8.test_fuzz import LISTINGS, disk_seeds, listing_seeds, script_seeds  # noqa: E402
from tests.fuzz import (  # noqa: E402
    EDGE_BYTES,
    FuzzReport,
    atr_regions,
    atr_target,
    fuzz,
    fuzz_command_lines,
    listing_target,
    program_target,
    scan,
    script_target,
)
from tests.machfsol.engine.test_transcript_fuzz import check, transcript_seeds  # noqa: E402

from a8.basic import tokenize  # noqa: E402
from a8.cli import main as a8_main  # noqa: E402
from a8.errors import A8Error  # noqa: E402
from machfsol.cli import main as machfsol_main  # noqa: E402
from machfsol.errors import MachfsolError  # noqa: E402

CORPUS = ROOT / "tests" / "a8" / "disk" / "corpus"
GOLD = ROOT.parent / "shared" / "revc-gold"
#: One disk of each file system for the byte scan.
SCANNED = (
    "dos20s-fujinet-tcp",
    "dos25-fujinet-autorun2",
    "dos20d-fujinet-amac",
    "mydos-xedisk-dirs",
    "mydos-1040-comms",
    "sparta-ramcart",
    "sdx-fa-sd",
    "sdx-puzzle-dd",
)


def scan_positions(data: bytes) -> list[int]:
    """The header, and the first bytes of sector 1, sector 4 (SpartaDOS's bitmap or root
    map), the VTOC (360) and the first directory sector (361), for any sector size."""
    regions = atr_regions(data)  # header, sectors 1-12, 359, 360, 361-368, ...
    header, sector1, sector4, vtoc, directory = (
        regions[0],
        regions[1],
        regions[4],
        regions[14],
        regions[15],
    )
    positions = [*header, *sector1[:48], *sector4[:48], *vtoc[:48], *directory[:64]]
    return [p for p in positions if p < len(data)]


def command_lines(rounds: int, seed: int) -> list[FuzzReport]:
    """Both commands' command lines, in a scratch folder, their output thrown away,
    atari800 hidden and standard input empty (as tests/a8/test_command_lines.py)."""
    reports = []
    with tempfile.TemporaryDirectory(prefix="fuzz-commands-") as name:
        folder = Path(name)
        fill(folder)
        os.environ["A8_ATARI800"] = str(folder / "no-atari800")
        sys.stdin = io.StringIO("")
        here = Path.cwd()
        os.chdir(folder)
        try:
            with open(os.devnull, "wb") as sink, contextlib.ExitStack() as quiet:
                out = io.TextIOWrapper(sink, write_through=True)
                quiet.enter_context(contextlib.redirect_stdout(out))
                quiet.enter_context(contextlib.redirect_stderr(io.StringIO()))
                for what, main, lines, inputs in (
                    ("a8 command lines", a8_main, A8_LINES, A8_INPUTS),
                    ("machfsol command lines", machfsol_main, MACHFSOL_LINES, MACHFSOL_INPUTS),
                ):
                    reports.append(fuzz_command_lines(
                        what, main, lines, rounds, folder=name, inputs=inputs, seed=seed
                    ))  # fmt: skip
        finally:
            os.chdir(here)
    return reports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=60000, help="random inputs per parser")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", type=Path, help="folder for the inputs that gave tracebacks")
    args = parser.parse_args()

    programs = [tokenize(path.read_bytes(), file=path.name) for path in LISTINGS]
    programs += [path.read_bytes() for path in sorted(GOLD.glob("*.bas"))]
    reports: list[FuzzReport] = []
    runs = [
        ("listing", listing_target, listing_seeds(), (A8Error,), None),
        ("BAS", program_target, programs, (A8Error,), None),
        ("ATR", atr_target, disk_seeds(), (A8Error,), atr_regions),
        ("transcript", check, transcript_seeds(), (MachfsolError,), None),
        ("script", script_target, script_seeds(), (A8Error,), None),
    ]
    start = time.perf_counter()
    for name, target, seeds, expected, regions in runs:
        began = time.perf_counter()
        report = fuzz(
            name, target, seeds, args.rounds, seed=args.seed, expected=expected, regions=regions
        )
        reports.append(report)
        print(f"{report.line()} ({time.perf_counter() - began:.0f} s)", flush=True)
    for disk in SCANNED:
        data = gzip.decompress((CORPUS / f"{disk}.atr.gz").read_bytes())
        began = time.perf_counter()
        report = scan(f"ATR byte scan of {disk}", atr_target, data, scan_positions(data),
                      expected=(A8Error,), values=EDGE_BYTES)  # fmt: skip
        reports.append(report)
        print(f"{report.line()} ({time.perf_counter() - began:.0f} s)", flush=True)
    for report in command_lines(args.rounds // 20, args.seed):
        reports.append(report)
        print(report.line(), flush=True)
    tried = sum(r.tried for r in reports)
    tracebacks = sum(r.tracebacks for r in reports)
    minutes = (time.perf_counter() - start) / 60
    print(f"total: {tried} inputs tried, tracebacks found: {tracebacks} ({minutes:.1f} min)")
    for report in reports:
        for number, crash in enumerate(report.crashes):
            print(f"  {crash.target}: {crash.error} at {crash.where} (seed {crash.seed}, "
                  f"round {crash.round})")  # fmt: skip
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                stem = f"{crash.target.split()[0]}-{number}"
                (args.save / f"{stem}.bin").write_bytes(crash.data)
                (args.save / f"{stem}.txt").write_text(f"{crash.error}\n{crash.where}\n")
    return 1 if tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
