"""Speed of ``machfsol verify``: how long the default verification takes, deals per minute.

Usage: .venv/bin/python benchmarks/verify_speed.py [SEEDS] [JOBS]

Without SEEDS (or with ``default``): the default verification, what ``machfsol verify``
runs when it is not told what to play (both variants, the default plan of
:data:`machfsol.atari.verify.DEFAULT_PLAN`); with SEEDS: seeds 1..SEEDS of both
variants, 52 cards. JOBS atari800 emulators at once (default 2), on the game disk
built from basic_src/, exactly as ``machfsol verify`` does (the same functions). It
prints the wall-clock time, build included, deals per minute and the machine's load.
The target: the default verification in under a minute with 2 emulators on a 2-core
machine; docs/VERIFY.md records the measured figures.

Wall-clock time is what a user waits for, so that is what is measured; on a shared
machine other work slows the emulators down (the load average is printed with the
figure for that reason).
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from machfsol.atari.verify import Plan, disk_launches, game_disk, verify

#: The default verification's limit, in wall-clock seconds.
TARGET_SECONDS = 60


def main() -> int:
    size = sys.argv[1] if len(sys.argv) > 1 else "default"
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, {jobs} emulators")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="verify-speed-") as folder:
        work = Path(folder)
        started = time.monotonic()
        disk = game_disk(work / "MACHFSOL.ATR")
        built = time.monotonic() - started
        launches = disk_launches(disk, (1, 2))
        if size == "default":
            plan = Plan.default(launches)
        else:
            plan = Plan.every(launches, (52,), range(1, int(size) + 1))
        verification = verify(plan, work / "runs", jobs=jobs)
        total = time.monotonic() - started
    load_after = os.getloadavg()[0]
    verified = sum(result.ok for result in verification.results)
    print(f"plan: {plan.describe()}, both variants")
    print(f"disk built in {built:.1f} s")
    print(
        f"{verified} of {plan.deals} deals verified in {verification.seconds:.1f} s: "
        f"{verification.deals_per_minute():.0f} deals/min; {total:.1f} s in all "
        f"(load average {load_before:.1f} before, {load_after:.1f} after)"
    )
    if size == "default":
        print(f"target: under {TARGET_SECONDS} s: {'met' if total < TARGET_SECONDS else 'NOT met'}")
    return 0 if verification.ok else 1


if __name__ == "__main__":
    sys.exit(main())
