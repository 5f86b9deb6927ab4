"""``a8 emu doctor``: is everything the emulator runner needs in place?

Each check says what it found and, when something is missing, the exact
commands that fix it. The last check is a real run on the machine and ROMs asked
for: boot BASIC headless, wait until it waits for a key, map the XL's self-test
ROM in (so the whole OS is in view), type a line that writes a file to the H:
folder, wait for it, read the machine's memory and quit. That exercises the SDL
dummy drivers, the playback pipe, the H: device, the monitor and its breakpoint,
and it names the OS and BASIC the machine really ran, from their bytes in memory
(:mod:`a8.emu.roms`): "OS: XL/XE rev. 2 (CRC32 1F9CD270)", "BASIC: rev. C ..." or
the built-in "AltirraOS 3.28", "Altirra BASIC 1.55".
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from a8.emu.atari800.executable import (
    CHECKOUT_SETUP,
    find_executable,
    headless_environment,
    install_hint,
)
from a8.emu.emulator import EmulatorMissingError, EmulatorOptions, RomSet, resolve_roms, run
from a8.emu.roms import ENVIRONMENT, RomCheck, RomKind, os_kind
from a8.emu.script import Script
from a8.errors import A8Error

#: The component of Debian 12 that ships atari800.
CONTRIB_FIX: Final = (
    "printf 'Types: deb\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm\\n"
    "Components: contrib\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n' "
    "| sudo tee /etc/apt/sources.list.d/contrib.sources && sudo apt-get update"
)
INSTALL_FIX: Final = "sudo apt-get install -y atari800"

#: Maps the XL's self-test ROM in at 5000-57FF, so the whole OS image is in view.
SELF_TEST_IN_VIEW: Final = "POKE 54017,PEEK(54017)&127\n"


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def _apt_sources() -> Iterator[Path]:
    yield Path("/etc/apt/sources.list")
    folder = Path("/etc/apt/sources.list.d")
    if folder.is_dir():
        yield from sorted(folder.iterdir())


def check_contrib() -> Check:
    """Debian's contrib component, where atari800 lives."""
    for path in _apt_sources():
        if path.suffix not in ("", ".list", ".sources") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith("#"):
                continue
            if "contrib" in stripped.split():
                return Check("apt contrib", True, f"enabled in {path}")
    if not Path("/etc/debian_version").exists():
        return Check("apt contrib", True, "not a Debian system: install atari800 your own way")
    return Check("apt contrib", False, "the contrib component is not enabled", CONTRIB_FIX)


def check_atari800() -> tuple[Check, Path | None]:
    """atari800 found and running. When it is missing the fix is the install alone:
    enabling contrib, when needed, is the contrib check's own fix, printed above."""
    try:
        path = find_executable()
    except EmulatorMissingError as error:
        fixes = [INSTALL_FIX]
        if CHECKOUT_SETUP.is_file():
            fixes.append("bash .ci/setup    # or all of it: this checkout's set-up")
        return Check("atari800", False, error.reason, "\n".join(fixes)), None
    try:
        done = subprocess.run(
            [str(path), "-v"],
            capture_output=True,
            timeout=20,
            env=headless_environment(),
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return Check("atari800", False, f"{path}: does not run: {error}", INSTALL_FIX), None
    version = (done.stdout + done.stderr).decode("utf-8", "replace").strip().splitlines()
    first = version[0] if version else f"exit status {done.returncode}"
    good = "Version" in first
    return Check("atari800", good, f"{path}: {first}", "" if good else install_hint()), path


def check_roms(options: EmulatorOptions) -> tuple[list[Check], RomSet | None]:
    """The ROM files asked for (options or environment variables): readable, right size."""
    try:
        roms = resolve_roms(options)
    except A8Error as error:
        kind = os_kind(options.machine)
        variables = f"${ENVIRONMENT[kind]} / ${ENVIRONMENT[RomKind.BASIC]}"
        fix = f"give the right file with --os-rom / --basic-rom, or fix or unset {variables}"
        return [Check("ROM files", False, str(error), fix)], None
    checks = [
        Check(f"{image.kind.role} file", True, f"{image.path} ({image.source}): {image.describe()}")
        for image in (roms.os, roms.basic)
        if image is not None
    ]
    if not checks:
        checks.append(Check("ROM files", True, "none given: atari800's built-in AltirraOS/BASIC"))
    return checks, roms


def check_run(options: EmulatorOptions) -> list[Check]:
    """Boot headless, wait for the prompt's key wait, write a file through H:, read the ROMs."""
    with tempfile.TemporaryDirectory(prefix="a8doctor-") as folder:
        hdir = Path(folder) / "h"
        png = Path(folder) / "screen.png"
        script = Script().wait_for_input(900)
        if options.machine == "xl":
            script = script.type(SELF_TEST_IN_VIEW).wait_for_input(300)
        script = (
            script.type('OPEN #1,8,0,"H1:DOCTOR.TXT":PRINT #1;"OK":CLOSE #1\n')
            .wait_for_file("DOCTOR.TXT", 600)
            .screenshot(str(png))
        )
        started = time.monotonic()
        try:
            result = run(replace(options, hdir=hdir, timeout_s=60), script)
        except A8Error as error:
            return [Check("headless run", False, str(error))]
        seconds = time.monotonic() - started
        written = (hdir / "DOCTOR.TXT").read_bytes() if (hdir / "DOCTOR.TXT").exists() else b""
        if not result.ok or written != b"OK\x9b" or not png.exists():
            last = result.log.strip().splitlines()[-3:]
            return [
                Check(
                    "headless run",
                    False,
                    f"ended {result.reason}, exit status {result.exit_status}, "
                    f"H: file {written!r}; log: {' | '.join(last)}",
                    "check that the H: folder is writable and SDL's dummy drivers exist "
                    "(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy atari800 -nosound); "
                    "a ROM that does not boot to BASIC's prompt fails here too",
                )
            ]
        tv = f"{options.tv.upper()}, {result.frames_per_second} frames/s"
        run_check = Check(
            "headless run",
            True,
            f"{options.machine.upper()} {tv}: boot + key wait + H: file + screenshot + quit: "
            f"{result.frames} frames in {seconds:.2f} s",
        )
        return [run_check, *(_rom_seen(check) for check in result.roms)]


def _rom_seen(check: RomCheck) -> Check:
    """What the machine showed of one ROM, as a line of the report."""
    return Check(check.role, check.proven, check.report().removeprefix(f"{check.role}: "))


def check_hdir_writable(folder: Path | None) -> Check:
    target = folder if folder is not None else Path(tempfile.gettempdir())
    probe = target / f".a8doctor-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return Check("H: folder", False, f"{target}: not writable: {error.strerror}")
    return Check("H: folder", True, f"{target} is writable")


def diagnose(options: EmulatorOptions | None = None, hdir: Path | None = None) -> list[Check]:
    """All checks, in order; the run is only tried when atari800 and the ROMs are there."""
    options = options if options is not None else EmulatorOptions()
    checks = [check_contrib()]
    found, path = check_atari800()
    checks.append(found)
    rom_checks, roms = check_roms(options)
    checks += rom_checks
    checks.append(check_hdir_writable(hdir))
    if path is not None and roms is not None:
        checks += check_run(options)
    return checks


def report(checks: list[Check], say: Callable[[str], None] = print) -> int:
    """Print the checks; 0 when all passed, 1 otherwise."""
    for check in checks:
        say(f"[{'ok' if check.ok else 'MISSING'}] {check.name}: {check.detail}")
        if not check.ok and check.fix:
            for line in check.fix.splitlines():
                say(f"    fix: {line}")
    failed = [check.name for check in checks if not check.ok]
    if failed:
        say(f"{len(failed)} problem(s): {', '.join(failed)}")
        return 1
    say("everything needed to run atari800 headless is in place")
    return 0
