"""How many deals a test disk holds, in each format the builder tries.

For each format (single, enhanced and double density, then the MyDOS sizes), the
most of seeds 1, 2, 3 ... of 52 cards that ``machfsol build --test-disk`` accepts
on a disk of that format: for both variants, and for each one alone. What the
builder accepts is what it bounds the transcripts to (their most, from the
engine's games), not what a run happens to write. Then the time of
``machfsol build --test-disk --seeds 1-100 --variant both``.

    python benchmarks/test_disk_capacity.py --deals 500
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from a8.disk.recording import FORMATS, format_name
from machfsol.atari.basic_game import overlay_listing, to_atascii
from machfsol.atari.build import game_programs
from machfsol.atari.test_disk import TestDiskPlan, deals_that_fit
from machfsol.cli import main as machfsol


def build_time() -> dict[str, float]:
    """Wall and CPU seconds of the issue's command, in a scratch folder."""
    with tempfile.TemporaryDirectory() as scratch:
        before, started = os.times(), time.monotonic()
        args = ["build", "--test-disk", "--seeds", "1-100", "--variant", "both"]
        assert machfsol([*args, "-o", str(Path(scratch) / "TEST.ATR")]) == 0
        after = os.times()
        cpu = after.user + after.system - before.user - before.system
        return {"wall": round(time.monotonic() - started, 1), "cpu": round(cpu, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="seeds tried: 1 to this")
    args = parser.parse_args()
    programs = game_programs()
    overlay = to_atascii(overlay_listing(None))
    seeds = tuple(range(1, args.deals + 1))
    table: dict[str, dict[str, int]] = {format_name(f): {} for f in FORMATS}
    for label, variants in (("both", (1, 2)), ("1", (1,)), ("2", (2,))):
        plan = TestDiskPlan(variants, ((52, seeds),))
        counts = deals_that_fit(programs, overlay, plan, FORMATS)
        for disk_format, count in zip(FORMATS, counts, strict=True):
            table[format_name(disk_format)][label] = count
            print(f"{format_name(disk_format)}: variant(s) {label}: {count}", flush=True)
    print(json.dumps({"fits": table, "build_seeds_1_100_both": build_time()}, indent=1))


if __name__ == "__main__":
    main()
