"""``a8 emu doctor``: is everything the emulator runner needs in place?

Each check says what it found and, when something is missing, the exact
commands that fix it. The last check is a real run: boot BASIC headless, type a
line that writes a file to the H: folder, wait for it, take a screenshot and
quit, which exercises the SDL dummy drivers, the playback pipe, the H: device
and the monitor together.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from a8.emu.emulator import (
    BASIC_ROM_ENV,
    INSTALL_HINT,
    OS_800_ROM_ENV,
    OS_ROM_ENV,
    EmulatorOptions,
    find_atari800,
    headless_environment,
    run,
)
from a8.emu.script import Script
from a8.errors import A8Error

#: The component of Debian 12 that ships atari800.
CONTRIB_FIX: Final = (
    "printf 'Types: deb\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm\\n"
    "Components: contrib\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n' "
    "| sudo tee /etc/apt/sources.list.d/contrib.sources && sudo apt-get update"
)
INSTALL_FIX: Final = "sudo apt-get install -y atari800"

#: Sizes of the ROM files the environment variables may name.
ROM_SIZES: Final = {OS_ROM_ENV: 16384, OS_800_ROM_ENV: 10240, BASIC_ROM_ENV: 8192}


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
    try:
        path = find_atari800()
    except A8Error as error:
        return Check("atari800", False, str(error), f"{CONTRIB_FIX}\n{INSTALL_FIX}"), None
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
    return Check("atari800", good, f"{path}: {first}", "" if good else INSTALL_HINT), path


def check_roms() -> list[Check]:
    """The user's own ROM files named by environment variables, if any."""
    checks: list[Check] = []
    for variable, size in ROM_SIZES.items():
        value = os.environ.get(variable)
        if not value:
            continue
        path = Path(value)
        if not path.is_file():
            checks.append(Check(variable, False, f"{value}: no such file", f"unset {variable}"))
        elif path.stat().st_size != size:
            checks.append(
                Check(
                    variable,
                    False,
                    f"{value}: {path.stat().st_size} bytes, a ROM of this kind has {size}",
                    f"point {variable} at the right ROM file, or unset it",
                )
            )
        else:
            checks.append(Check(variable, True, f"{value} ({size} bytes)"))
    if not checks:
        checks.append(Check("ROM files", True, "none configured: built-in AltirraOS/BASIC"))
    return checks


def check_run() -> Check:
    """Boot headless, write a file through H:, wait for it, screenshot, quit."""
    with tempfile.TemporaryDirectory(prefix="a8doctor-") as folder:
        hdir = Path(folder) / "h"
        png = Path(folder) / "screen.png"
        script = (
            Script()
            .wait(150)
            .type('OPEN #1,8,0,"H1:DOCTOR.TXT":PRINT #1;"OK":CLOSE #1\n')
            .wait_for_file("DOCTOR.TXT", 600)
            .screenshot(str(png))
        )
        started = time.monotonic()
        try:
            result = run(EmulatorOptions(hdir=hdir, timeout_s=60), script)
        except A8Error as error:
            return Check("headless run", False, str(error))
        seconds = time.monotonic() - started
        written = (hdir / "DOCTOR.TXT").read_bytes() if (hdir / "DOCTOR.TXT").exists() else b""
        if not result.ok or written != b"OK\x9b" or not png.exists():
            last = result.log.strip().splitlines()[-3:]
            return Check(
                "headless run",
                False,
                f"ended {result.reason}, exit status {result.exit_status}, "
                f"H: file {written!r}; log: {' | '.join(last)}",
                "check that the H: folder is writable and SDL's dummy drivers exist "
                "(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy atari800 -nosound)",
            )
        return Check(
            "headless run",
            True,
            f"boot + H: file + screenshot + quit: {result.frames} frames in {seconds:.2f} s",
        )


def check_hdir_writable(folder: Path | None) -> Check:
    target = folder if folder is not None else Path(tempfile.gettempdir())
    probe = target / f".a8doctor-{os.getpid()}"
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return Check("H: folder", False, f"{target}: not writable: {error.strerror}")
    return Check("H: folder", True, f"{target} is writable")


def diagnose(hdir: Path | None = None) -> list[Check]:
    """All checks, in order; the run is only tried when atari800 is there."""
    checks = [check_contrib()]
    found, path = check_atari800()
    checks.append(found)
    checks += check_roms()
    checks.append(check_hdir_writable(hdir))
    if path is not None:
        checks.append(check_run())
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
