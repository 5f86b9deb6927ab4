"""Speed of ``machfsol verify``: deals verified per minute with K emulators.

Usage: .venv/bin/python benchmarks/verify_speed.py [SEEDS] [JOBS]

Verifies seeds 1..SEEDS (default 100) of both variants, 52 cards, on the game disk
built from basic_src/, with JOBS atari800 emulators at once (default 2), exactly as
``machfsol verify --seeds 1-SEEDS --jobs JOBS`` does (it is the same function), and
prints the wall-clock time, deals per minute and the machine's load. The target is
at least 200 deals a minute with 2 emulators on a 2-core machine; docs/VERIFY.md
records the measured figures.

Wall-clock time is what a user waits for, so that is what is measured; on a shared
machine other work slows the emulators down (the load average is printed with the
figure for that reason). The disk build (tokenizing both programs) is timed apart.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from machfsol.atari.verify import Plan, disk_launches, game_disk, verify


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, {jobs} emulators")
    with tempfile.TemporaryDirectory(prefix="verify-speed-") as folder:
        work = Path(folder)
        started = time.monotonic()
        disk = game_disk(work / "MACHFSOL.ATR")
        built = time.monotonic() - started
        plan = Plan(disk_launches(disk, (1, 2)), (52,), tuple(range(1, seeds + 1)))
        load_before = os.getloadavg()[0]
        verification = verify(plan, work / "runs", jobs=jobs)
        load_after = os.getloadavg()[0]
    verified = sum(result.ok for result in verification.results)
    print(f"disk built in {built:.1f} s")
    print(
        f"{verified} of {plan.deals} deals verified in {verification.seconds:.1f} s: "
        f"{verification.deals_per_minute():.0f} deals/min "
        f"(load average {load_before:.1f} before, {load_after:.1f} after)"
    )
    return 0 if verification.ok else 1


if __name__ == "__main__":
    sys.exit(main())
