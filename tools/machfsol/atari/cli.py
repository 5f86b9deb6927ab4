"""The ``machfsol`` commands of the Atari side: ``build``, ``listing`` and ``verify``.

The handlers only read their arguments and call the modules that do the work:
:mod:`machfsol.atari.build` (the disk), :mod:`machfsol.atari.basic_game` (the listings
generated from the one source) and :mod:`machfsol.atari.verify` (the emulator against the
engine). Where they read and write by default: :mod:`machfsol.atari.places`.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from a8.commandline import docs
from a8.disk.atr import AtrImage
from a8.emu.cli import add_machine_arguments, check_machine
from a8.emu.emulator import FRAMES_PER_SECOND, EmulatorOptions, require_emulator, resolve_roms
from a8.errors import A8Error
from a8.files import STDOUT, Output, output_argument, refuse_input_as_output, write_atomically
from machfsol.atari.basic_game import (
    VARIANTS,
    generate,
    overlay_listing,
    program_listing,
    read_source,
    to_atascii,
)
from machfsol.atari.build import build_disk, file_name_of, game_programs
from machfsol.atari.places import DISK_NAME, default_disk
from machfsol.atari.test_disk import TestDiskPlan, build_test_disk
from machfsol.atari.verify import (
    DEFAULT_JOBS,
    DEFAULT_PLAN_TEXT,
    DEFAULT_SEEDS,
    Plan,
    WorkFolder,
    coverage_launches,
    coverage_of,
    disk_launches,
    game_disk,
    json_report,
    keyboard_checks,
    program_launch,
    run_with_progress,
    text_report,
    without_transcripts,
)
from machfsol.atari.verify_batch import DEAL_SECONDS, OWN_ROMS_DEAL_SECONDS, Launch, deal_seconds
from machfsol.atari.verify_results import RomFiles, json_text, read_results
from machfsol.atari.verify_results import text_report as results_text
from machfsol.engine.options import BOTH, add_variant, deck_option, seeds_option, variants_of
from machfsol.errors import MachfsolError, UsageError

#: Where ``machfsol build --test-disk`` writes unless told (in the current folder).
TEST_DISK_NAME = "TEST.ATR"
#: Help of ``--source``, shared by the commands that read the one source.
SOURCE_HELP = (
    "the one source of both games to build from, e.g. your edited copy of "
    "basic_src/machfsol.bas with its #V1/#V2 lines (default: the checkout's, in a "
    "checkout's top folder; else the installed package's)"
)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``machfsol build``, ``listing`` and ``verify``."""
    build = subparsers.add_parser(
        "build",
        help="build the bootable game disk MACHFSOL.ATR",
        description="Generate both programs from the one source, tokenize them and write "
        f"the bootable game disk. See {docs('GAME.md')}.",
    )
    build.add_argument(
        "-o",
        "--output",
        type=output_argument,
        metavar="DISK.ATR",
        help="disk image to write, - for stdout (default: MACHFSOL.ATR in the current folder; "
        "atr/MACHFSOL.ATR in the top folder of a checkout of this project)",
    )
    build.add_argument("--source", type=Path, metavar="MY.BAS", help=SOURCE_HELP)
    test_disk = build.add_argument_group(
        "test disk",
        "--test-disk builds a disk that runs the games' test mode on a real Atari with no "
        "DOS and no H: device and records every transcript on itself; machfsol verify "
        f"--results checks it when it comes back. See {docs('VERIFY.md')}.",
    )
    test_disk.add_argument(
        "--test-disk",
        action="store_true",
        help=f"build a test disk (default name {TEST_DISK_NAME}) instead of the game disk",
    )
    test_disk.add_argument(
        "--seeds", metavar="LIST", help="the deals the test disk plays: 1-20 or 5,7,10-12"
    )
    test_disk.add_argument(
        "--deck",
        metavar="SIZES",
        help="deck size, or sizes: 52,40 (every seed on every size; default 52)",
    )
    add_variant(test_disk, many_deals=True)
    test_disk.add_argument(
        "--program",
        type=Path,
        metavar="FILE.BAS",
        help="put this program (SAVE file or listing) on the test disk instead of the game "
        "disk's (with --variant 1 or 2: the game it plays)",
    )
    build.set_defaults(handler=cmd_build)

    listing = subparsers.add_parser(
        "listing",
        help="write the Atari BASIC listing of MACHFSOL.1 or .2 (generated from the one source)",
        description="Write the listing of the program the game disk carries: the one "
        "source's lines for this variant, without REMs, the most used numbers kept in "
        "variables (what LIST shows on the Atari). --remarks writes the source's lines as "
        f"they are, REMs and numbers. See {docs('GAME.md')}.",
    )
    listing.add_argument(
        "variant", type=int, choices=VARIANTS, help="the game: 1 (MACHFSOL.1) or 2 (MACHFSOL.2)"
    )
    listing.add_argument(
        "-o", "--output", type=output_argument, help="file to write (default: standard output)"
    )
    listing.add_argument("--source", type=Path, metavar="MY.BAS", help=SOURCE_HELP)
    listing.add_argument(
        "--atascii",
        action="store_true",
        help="ATASCII line ends (0x9B), as ENTER reads it on an Atari or in atari800",
    )
    remarks = listing.add_mutually_exclusive_group()
    remarks.add_argument(
        "--remarks",
        action="store_true",
        help="the source's lines as written, REMs and numbers (a longer program than the "
        "disk's, for reading)",
    )
    remarks.add_argument(
        "--strip-remarks",
        action="store_true",
        help="the game disk's program, without REMs (the default)",
    )
    listing.set_defaults(handler=run_listing)

    parser = subparsers.add_parser(
        "verify",
        help="play deals on the Atari programs in atari800 and check them against the engine",
        description="Boot the game disk (built in a scratch folder from the one source, or "
        "--source, unless --disk or --program says otherwise) in atari800, autoplay the deals "
        "in the games' test mode and replay every transcript on the engine. Exit 0: all "
        "verified; 1: a deal differs (its seed and first differing line are printed); 2: "
        f"bad arguments or set-up. See {docs('VERIFY.md')}.",
    )
    add_variant(parser, many_deals=True)
    parser.add_argument(
        "--seeds",
        metavar="LIST",
        help="deal numbers: a range or list, e.g. 1-100 or 5,7,10-12 (with --deck only: "
        f"{DEFAULT_SEEDS}); without --seeds and --deck, the default plan: {DEFAULT_PLAN_TEXT}",
    )
    parser.add_argument(
        "--deck",
        metavar="SIZES",
        help="deck size, or sizes: 52,40 (every seed on every size; with --seeds only: 52)",
    )
    parser.add_argument(
        "--jobs", type=int, default=DEFAULT_JOBS, help=f"emulators at once (default {DEFAULT_JOBS})"
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--program",
        type=Path,
        metavar="FILE.BAS",
        help="run this program (SAVE file or listing) instead of the game disk's",
    )
    target.add_argument(
        "--results",
        type=Path,
        metavar="TEST.ATR",
        help="check a test disk that has been run (machfsol build --test-disk): replay "
        "every transcript it recorded on the engine; no emulator. --os-rom/--basic-rom: "
        "confirm that the machine ran exactly those ROM files",
    )
    target.add_argument(
        "--disk",
        type=Path,
        metavar="FILE.ATR",
        help="boot this game disk (default: one built from the one source, in --keep DIR "
        "or a scratch folder)",
    )
    parser.add_argument(
        "--source",
        type=Path,
        metavar="MY.BAS",
        help="build the game disk from this one-source file (both games, #V1/#V2 lines) "
        "instead of the installed or checkout's basic_src/machfsol.bas; with --program or "
        "--disk, only the test mode's overlay (#T lines) comes from it",
    )
    parser.add_argument(
        "--deal-seconds",
        type=int,
        metavar="N",
        help="emulated seconds a deal may take before it counts as hung (default "
        f"{DEAL_SECONDS}; {OWN_ROMS_DEAL_SECONDS} with a ROM image of your own)",
    )
    add_machine_arguments(parser)
    parser.add_argument(
        "--no-sio-patch",
        action="store_true",
        help="the OS's real serial I/O for the disk (atari800 -nopatch): slower, real timing",
    )
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="keep transcripts and emulator logs in DIR"
    )
    parser.add_argument(
        "--keyboard",
        action="store_true",
        help="also type a whole game on the keyboard per variant and check the final screen",
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="run the programs with every line instrumented and list the lines run and "
        "never run, with the reason the source gives for each never run (# unrun: ...); "
        "a line never run without one fails",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=cmd_verify)


def cmd_build(args: argparse.Namespace) -> int:
    if args.test_disk:
        return cmd_build_test_disk(args)
    for flag, value in (
        ("--seeds", args.seeds),
        ("--deck", args.deck),
        ("--variant", None if args.variant == BOTH else args.variant),
        ("--program", args.program),
    ):
        if value is not None:
            raise UsageError(f"{flag} is for a test disk: add --test-disk")
    output: Output = default_disk() if args.output is None else args.output
    refuse_input_as_output(output, args.source)
    programs = game_programs(read_source(args.source))
    disk = build_disk(programs, str(output))
    _write_disk(output, disk.to_bytes())
    sizes = ", ".join(f"{file_name_of(v)} {len(programs[v])} bytes" for v in VARIANTS)
    # With the disk on standard output, the summary goes to stderr, out of its way.
    report = sys.stderr if isinstance(output, str) else sys.stdout
    print(f"{output}: {sizes}, {disk.free_sectors} free sectors", file=report)
    return 0


def _write_disk(output: Output, data: bytes) -> None:
    """Write a built disk image, atomically, making its folder first if need be."""
    if isinstance(output, Path):
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            folder = output.parent
            raise MachfsolError(f"{folder}: cannot create the folder: {error.strerror}") from None
    write_atomically(output, data)


def cmd_build_test_disk(args: argparse.Namespace) -> int:
    """``machfsol build --test-disk``: everything is read and checked, the disk built in
    memory, and only then written (atomically): a refusal leaves no file."""
    output: Output = Path(TEST_DISK_NAME) if args.output is None else args.output
    if args.seeds is None:
        raise UsageError("--test-disk: say which deals it plays with --seeds, e.g. --seeds 1-20")
    seeds = seeds_option(args.seeds)
    decks = _decks("52" if args.deck is None else args.deck)
    variants = variants_of(args.variant)
    if args.program is not None and len(variants) != 1:
        raise UsageError(
            "--program: say which game it plays (--variant 1 or 2): "
            "the test mode types that game's moves"
        )
    refuse_input_as_output(output, args.source, args.program)
    source = read_source(args.source)
    overlay = to_atascii(overlay_listing(source))
    if args.program is not None:
        try:  # a program that cannot be read or tokenized is a bad argument
            programs = {variants[0]: program_launch(args.program, variants[0], source).program}
        except A8Error as error:
            raise UsageError(str(error)) from None
    else:
        programs = game_programs(source)
    plan = TestDiskPlan(variants, tuple((deck, seeds) for deck in decks))
    built = build_test_disk(programs, overlay, plan, str(output))
    _write_disk(output, built.recording.atr)
    disk = built.recording
    report = sys.stderr if isinstance(output, str) else sys.stdout
    print(
        f"{output}: test disk, {plan.describe()}; {disk.format_name}; "
        f"{disk.record_sectors} sectors for the records, {disk.needed_sectors} needed at "
        f"most; MEMLO ${disk.memlo:04X}",
        file=report,
    )
    return 0


def run_listing(args: argparse.Namespace) -> int:
    refuse_input_as_output(args.output, args.source)
    source = read_source(args.source)
    if args.remarks:
        text = generate(args.variant, source=source)
    else:
        text = program_listing(args.variant, source)
    data = to_atascii(text) if args.atascii else text.encode("ascii")
    write_atomically(args.output if args.output is not None else STDOUT, data)
    return 0


def _decks(text: str) -> tuple[int, ...]:
    decks: list[int] = []
    for item in text.split(","):
        if re.fullmatch(r"\s*[0-9]{1,6}\s*", item) is None:  # ASCII digits: int() reads it
            raise UsageError(f"--deck {text!r}: give deck sizes like 52 or 52,40")
        size = deck_option(int(item))
        if size not in decks:
            decks.append(size)
    return tuple(decks)


def _check_disk(path: Path) -> None:
    """``--disk``: an ATR image (a UsageError, exit 2, for anything else)."""
    try:
        AtrImage.read(path)
    except A8Error as error:
        raise UsageError(f"--disk: {error}") from None


def _plan(args: argparse.Namespace, launches: tuple[Launch, ...]) -> Plan:
    """--seeds and --deck, or the default plan without either."""
    if args.seeds is None and args.deck is None:
        return Plan.default(launches)
    seeds = seeds_option(DEFAULT_SEEDS if args.seeds is None else args.seeds)
    return Plan.every(launches, _decks("52" if args.deck is None else args.deck), seeds)


def cmd_verify_results(args: argparse.Namespace) -> int:
    """``machfsol verify --results TEST.ATR``: the plan and the deals come from the disk."""
    for flag, given in (
        ("--seeds", args.seeds is not None),
        ("--deck", args.deck is not None),
        ("--source", args.source is not None),
        ("--keep", args.keep is not None),
        ("--keyboard", args.keyboard),
        ("--coverage", args.coverage),
        ("--no-sio-patch", args.no_sio_patch),
    ):
        if given:
            raise UsageError(f"--results reads the deals from the test disk: {flag} does not apply")
    if not args.results.is_file():
        raise UsageError(f"{args.results}: disk image not found")
    results = read_results(args.results, RomFiles(args.os_rom, args.basic_rom))
    print(json_text(results) if args.json else results_text(results))
    return 0 if results.ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    if args.results is not None:
        return cmd_verify_results(args)
    _plan(args, ())  # bad seeds or decks: exit 2 before anything starts
    if not 1 <= args.jobs <= 16:
        raise UsageError(f"--jobs {args.jobs}: give 1 to 16 emulators")
    if args.deal_seconds is not None and not 1 <= args.deal_seconds <= 3600:
        raise UsageError(f"--deal-seconds {args.deal_seconds}: give 1 to 3600")
    variants = variants_of(args.variant)
    check_machine(args.machine, args.tv)
    options = EmulatorOptions(
        machine=args.machine,
        tv=args.tv,
        os_rom=args.os_rom,
        basic_rom=args.basic_rom,
        sio_patch=not args.no_sio_patch,
    )
    try:  # a bad ROM file is a bad argument: one line, exit 2, before anything starts
        roms = resolve_roms(options)
    except A8Error as error:
        raise UsageError(str(error)) from None
    if args.program is not None and args.variant == "both":
        raise UsageError(
            "--program: say which game it plays (--variant 1 or 2): "
            "the test mode types that game's moves"
        )
    programs: dict[int, bytes] = {}
    # Read before the work folder is made: a bad source leaves no folder behind. The
    # test mode's overlay comes from it whatever the disk or program.
    source = read_source(args.source)
    overlay_listing(source)  # a malformed source is one error, before anything starts
    require_emulator()  # without the emulator: exit 2 (set-up), not 1 ("a deal differs")
    if args.disk is not None:  # booting a file that is no disk would only hang each deal
        _check_disk(args.disk)
    if args.coverage and args.disk is not None:
        raise UsageError(
            "--coverage runs the one source's programs, or --program's, with every line "
            "instrumented: not a --disk"
        )
    if args.program is None and args.disk is None and not args.coverage:
        programs = game_programs(source)
        what = f"game disk built from {source.name}"
    with WorkFolder(args.keep) as work:
        if args.coverage:
            try:
                given = {}
                if args.program is not None:
                    given[variants[0]] = program_launch(args.program, variants[0]).program
                launches: tuple[Launch, ...] = coverage_launches(variants, source, given or None)
            except A8Error as error:
                raise UsageError(str(error)) from None
            shown = source.name if args.program is None else str(args.program)
            what = f"{shown}, every line instrumented (--coverage)"
        elif args.program is not None:
            try:  # a program that cannot be read or tokenized is a bad argument
                launches = (program_launch(args.program, variants[0], source),)
            except A8Error as error:
                raise UsageError(str(error)) from None
            what = str(args.program)
        elif args.disk is not None:
            launches = disk_launches(args.disk, variants, source)
            what = str(args.disk)
        else:
            launches = disk_launches(game_disk(work.path / DISK_NAME, programs), variants, source)
        plan = _plan(args, launches)
        if not args.json:
            print(
                f"machfsol verify: {what}: {plan.deals} deals "
                f"({plan.describe()}) on {args.jobs} "
                f"emulator{'s' if args.jobs > 1 else ''}; {args.machine.upper()} "
                f"{args.tv.upper()}, {roms.describe()}",
                flush=True,
            )
        seconds = deal_seconds(roms) if args.deal_seconds is None else args.deal_seconds
        deal_frames = seconds * FRAMES_PER_SECOND[args.tv]
        verification = run_with_progress(plan, work.path, args.jobs, deal_frames, options)
        if args.keyboard:
            typed = keyboard_checks(launches, work.path, jobs=args.jobs, options=options)
            verification = replace(verification, keyboard=typed)
        if args.coverage:
            verification = replace(
                verification, coverage=coverage_of(verification, launches, source)
            )
        work.keep_if(not verification.ok)
        if work.kept is None:  # the transcripts go with the scratch folder
            verification = without_transcripts(verification)
        if args.json:
            print(json_report(verification))
        else:
            print(text_report(verification, work.kept))
    return 0 if verification.ok else 1
