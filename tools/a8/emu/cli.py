"""``a8 emu run`` and ``a8 emu doctor``: the emulator runner from the command line."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from a8.commandline import docs, printable
from a8.emu.doctor import diagnose, report
from a8.emu.emulator import EmulatorOptions, RunResult, run
from a8.emu.launch import LaunchError, stage_program
from a8.emu.script import MAX_FRAMES, Script
from a8.errors import UsageError
from a8.files import (
    Output,
    check_output,
    output_argument,
    refuse_input_as_output,
    write_atomically,
)

#: Frames run when neither a script nor --frames says otherwise (10 s NTSC).
DEFAULT_FRAMES = 600
#: Environment variables giving the default machine and TV system.
MACHINE_ENV = "A8_MACHINE"
TV_ENV = "A8_TV"


class RunArgumentError(UsageError):
    """A value on the ``a8 emu`` command line that cannot make sense (a negative limit,
    a missing H: folder): exit status 2."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``a8 emu`` and its sub-commands."""
    emu = subparsers.add_parser(
        "emu",
        help="run programs and disks headless in atari800",
        description="Run disks and BASIC programs in the atari800 emulator with no window "
        "and no sound, fed by an input script, and check that everything it needs is in "
        f"place. See {docs('EMULATOR.md')}.",
    )
    commands = emu.add_subparsers(dest="emu_command", metavar="ACTION", required=True)

    runner = commands.add_parser(
        "run",
        help="boot a disk, or run a .BAS/.LST program, headless",
        description=(
            "Boot atari800 headless (no window, no sound) and play an input script. "
            "A .ATR boots from drive 1; a .BAS or .LST file is copied into the H: folder "
            "and run from BASIC after boot. Without --script the machine runs --frames "
            "frames. Exit status 0 when the script ran to its end and the emulator quit "
            f"cleanly, 1 otherwise. Scripts: {docs('EMULATOR.md')}."
        ),
    )
    runner.add_argument("target", nargs="?", type=Path, help=".ATR, .BAS or .LST file")
    runner.add_argument(
        "--script", type=Path, help="input script: wait, type, key, screenshot ... (see above)"
    )
    runner.add_argument(
        "--frames",
        type=int,
        default=None,
        help=f"frames to run after the start (default without --script: {DEFAULT_FRAMES})",
    )
    runner.add_argument(
        "--hdir",
        type=Path,
        help="an existing host folder mapped as H1: (default: a new temporary one)",
    )
    add_machine_arguments(runner)
    runner.add_argument("--no-basic", action="store_true", help="boot without BASIC")
    runner.add_argument(
        "--no-sio-patch", action="store_true", help="real SIO timing (atari800 -nopatch)"
    )
    runner.add_argument(
        "--no-host-devices",
        action="store_true",
        help="give the machine no H: (host folder) and no P: (host printer), as a real "
        "800XL has: a .ATR only",
    )
    runner.add_argument("--max-frames", type=int, help="stop after this many frames")
    runner.add_argument("--timeout", type=float, default=120.0, help="wall-clock seconds")
    runner.add_argument("--screenshot", type=Path, help="PNG of the screen at the end")
    runner.add_argument(
        "--print-screen", action="store_true", help="print the text on the screen at the end"
    )
    runner.add_argument(
        "--log", type=output_argument, help="where to keep atari800's log, - for stdout"
    )
    runner.set_defaults(handler=cmd_run)

    doctor = commands.add_parser(
        "doctor",
        help="check that atari800 and everything the runner needs are in place",
        description="Check atari800, Debian contrib, ROM files, H: access and a real "
        "headless run; print the commands that fix what is missing (exit 1 then).",
    )
    doctor.add_argument("--hdir", type=Path, help="an existing H: folder to check for write access")
    add_machine_arguments(doctor)
    doctor.set_defaults(handler=cmd_doctor)


def add_machine_arguments(parser: argparse.ArgumentParser) -> None:
    """``--machine``, ``--tv``, ``--os-rom``, ``--basic-rom``, with environment defaults.

    Shared by every command that runs the emulator (``machfsol verify`` too).
    """
    machine = os.environ.get(MACHINE_ENV) or "xl"
    tv = os.environ.get(TV_ENV) or "ntsc"
    parser.add_argument(
        "--machine",
        choices=["xl", "800"],
        default=machine,
        help=f"800XL or 400/800 (default: ${MACHINE_ENV}, else xl; now {machine})",
    )
    parser.add_argument(
        "--tv",
        choices=["ntsc", "pal"],
        default=tv,
        help=f"60 or 50 frames (jiffies) a second (default: ${TV_ENV}, else ntsc; now {tv})",
    )
    parser.add_argument(
        "--os-rom",
        type=Path,
        help="your own OS ROM image: 16 KB XL/XE or 10 KB 400/800 (default: $A8_OS_ROM "
        "or $A8_800_OS_ROM, else atari800's built-in AltirraOS)",
    )
    parser.add_argument(
        "--basic-rom",
        type=Path,
        help="your own 8 KB BASIC ROM image (default: $A8_BASIC_ROM, else Altirra BASIC)",
    )


def check_machine(machine: str, tv: str) -> None:
    """Values that came from the environment get the same check as typed ones."""
    if machine not in ("xl", "800"):
        raise RunArgumentError(f"${MACHINE_ENV}={machine}: give xl or 800")
    if tv not in ("ntsc", "pal"):
        raise RunArgumentError(f"${TV_ENV}={tv}: give ntsc or pal")


def check_folder(folder: Path) -> None:
    """An H: folder given on the command line must be there: a mistyped name is a
    mistake to report, not a folder to create wherever it points."""
    if not os.path.isdir(folder):
        what = "not a folder" if os.path.lexists(folder) else "no such folder"
        raise RunArgumentError(f"--hdir {folder}: {what} (a8 emu does not create it)")


def cmd_doctor(args: argparse.Namespace) -> int:
    check_machine(args.machine, args.tv)
    if args.hdir is not None:
        check_folder(args.hdir)
    options = EmulatorOptions(
        machine=args.machine, tv=args.tv, os_rom=args.os_rom, basic_rom=args.basic_rom
    )
    return report(diagnose(options, args.hdir))


def _check_limits(args: argparse.Namespace) -> None:
    """Refuse limits that would end the run before it starts, rather than run for nothing."""
    if args.frames is not None and not 0 <= args.frames <= MAX_FRAMES:
        raise RunArgumentError(f"--frames {args.frames}: give 0 to {MAX_FRAMES} frames")
    if args.max_frames is not None and args.max_frames < 1:
        raise RunArgumentError(f"--max-frames {args.max_frames}: give 1 or more frames")
    if not args.timeout > 0:
        raise RunArgumentError(f"--timeout {args.timeout}: give a number of seconds above 0")


def cmd_run(args: argparse.Namespace) -> int:
    _check_limits(args)
    check_machine(args.machine, args.tv)
    if args.hdir is not None:
        check_folder(args.hdir)
    inputs = (args.target, args.script, args.os_rom, args.basic_rom)
    for output in (args.log, args.screenshot):
        if output is not None:
            check_output(output)  # a name the system refuses fails now, not after the run
        refuse_input_as_output(output, *inputs)
    script = Script.load(args.script) if args.script is not None else None
    frames = args.frames if args.frames is not None else (None if script else DEFAULT_FRAMES)
    with tempfile.TemporaryDirectory(prefix="a8emu-h-") as spare:
        hdir: Path = args.hdir if args.hdir is not None else Path(spare)
        disk = None
        start = Script()
        target: Path | None = args.target
        if target is not None:
            if target.suffix.upper() == ".ATR":
                disk = target
            elif target.suffix.upper() in (".BAS", ".LST"):
                if args.no_host_devices:
                    raise RunArgumentError(
                        f"{target}: a program is started from H:, which --no-host-devices "
                        "takes away: give a disk"
                    )
                start = stage_program(target, hdir)
            else:
                raise LaunchError(f"{target}: give a .ATR, .BAS or .LST file")
        options = EmulatorOptions(
            machine=args.machine,
            tv=args.tv,
            basic=not args.no_basic,
            os_rom=args.os_rom,
            basic_rom=args.basic_rom,
            sio_patch=not args.no_sio_patch,
            disk=disk,
            hdir=hdir,
            host_devices=not args.no_host_devices,
            max_frames=args.max_frames,
            timeout_s=args.timeout,
        )
        whole = start + (script or Script())
        if frames:
            whole = whole.wait(frames)
        if args.screenshot is not None:
            whole = whole.screenshot(str(args.screenshot))
        elif args.print_screen:
            whole = whole.screenshot(str(Path(spare) / "screen.png"))
        result = run(options, whole)
    if args.print_screen and result.screens:
        print("\n".join(line.rstrip() for line in result.screens[-1].text_lines()).rstrip())
    return _summarise(result, args.log)


def _summarise(result: RunResult, log: Output | None) -> int:
    if log is None:
        descriptor, name = tempfile.mkstemp(prefix="a8emu-", suffix=".log")
        os.close(descriptor)
        log = Path(name)
    write_atomically(log, result.log.encode("utf-8"))
    tv = f"{result.tv.upper()}, {result.frames_per_second} a second"
    print(
        f"ended: {result.reason}, exit status {result.exit_status}, {result.frames} frames ({tv})"
    )
    for line in result.rom_report():
        print(line)
    for path in result.screenshots:
        if path.exists():  # not the temporary one behind --print-screen
            print(f"screenshot: {printable(str(path))}")
    print(f"log: {printable(str(log))}")
    if not result.ok:
        print(f"the run did not end cleanly ({result.reason})", file=sys.stderr)
        return 1
    return 0
