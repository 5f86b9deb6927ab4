"""How long a test disk's run takes: emulated frames from power-on to the end.

Builds a test disk (``machfsol build --test-disk``) for one variant and a number of
deals, boots it in atari800 with no host device until the last program has ended,
and prints the frames, the emulated and wall seconds, and ``verify --results``'s
verdict. Run it for two deal counts: the difference is the time a deal takes, the
rest the boot and the loading. With ``--h`` the same deals run through atari800's
H: folder instead (``machfsol verify``'s way): the difference per deal between the
two is what recording a deal on the disk adds. (The game disk, booted the same way
through SIO, loads the same program: only the recording differs.)

    python benchmarks/test_disk_timing.py --variant 1 --deals 10 --tv pal --nopatch \\
        --os-rom ~/roms/atarixl-rev2.rom --basic-rom ~/roms/basic-revc.rom
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from a8.emu.emulator import FRAMES_PER_SECOND, EmulatorOptions, run
from a8.emu.script import Script
from machfsol.atari.verify import Plan, game_disk
from machfsol.atari.verify_batch import Batch, GameDisk, run_batch
from machfsol.atari.verify_results import read_results
from machfsol.cli import main as machfsol

TITLES = {1: "KINGS DOWN BY SUIT", 2: "KINGS DOWN ALTERNATING"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=int, choices=(1, 2), required=True)
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--tv", choices=("ntsc", "pal"), default="ntsc")
    parser.add_argument("--nopatch", action="store_true", help="real serial timing")
    parser.add_argument("--os-rom", type=Path)
    parser.add_argument("--basic-rom", type=Path)
    parser.add_argument("--h", action="store_true", help="through the H: folder instead")
    args = parser.parse_args()
    options = EmulatorOptions(
        tv=args.tv, sio_patch=not args.nopatch, os_rom=args.os_rom, basic_rom=args.basic_rom
    )
    per_second = FRAMES_PER_SECOND[args.tv]
    started = time.monotonic()
    report: dict[str, object] = vars(args) | {"os_rom": None, "basic_rom": None}
    if args.h:
        deals = Plan((), ((52, tuple(range(1, args.deals + 1))),)).deal_list()
        with tempfile.TemporaryDirectory() as scratch:
            disk = game_disk(Path(scratch) / "MACHFSOL.ATR")
            batch = Batch(GameDisk(disk, args.variant), deals)
            outcome = run_batch(batch, Path(scratch) / "run", options=options)
            log = outcome.log.read_text(encoding="utf-8")
        frames = int(re.search(r"# ended: .*?, ([0-9]+) frames", log).group(1))  # type: ignore[union-attr]
        verified = sum(result.ok for result in outcome.results)
        report["verdict"] = f"{verified} of {args.deals} verified (game disk, H: folder)"
    else:
        with tempfile.TemporaryDirectory() as scratch:
            disk = Path(scratch) / "TEST.ATR"
            seeds = f"1-{args.deals}"
            build = ["build", "--test-disk", "--seeds", seeds, "--variant", str(args.variant)]
            assert machfsol([*build, "-o", str(disk)]) == 0
            budget = 200 * per_second * (args.deals + 2)
            ready = "READY" if args.basic_rom else "Ready"
            script = Script().wait_for_text(TITLES[args.variant], budget)
            result = run(
                replace(options, host_devices=False, disk=disk, timeout_s=60 + budget / 200),
                script.wait_for_text(ready, budget),
            )
            frames = result.frames
            results = read_results(disk)
            verified = sum(r.ok for r in results.verification.results)
            report["verdict"] = f"{verified} of {args.deals} verified, ok={results.ok}"
            report["machine"] = results.boots[0].machine.describe() if results.boots else []
    report |= {
        "frames": frames,
        "emulated_seconds": round(frames / per_second, 1),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
