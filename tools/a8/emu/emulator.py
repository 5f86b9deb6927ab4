"""The emulator interface: what a run is given, what it gives back, and who runs it.

Everything outside the backends (the ``a8 emu`` commands, ``machfsol``, the tests)
goes through this module. :class:`EmulatorOptions` say which machine to start and
how, a :class:`~a8.emu.script.Script` what to type and what to wait for, and
:func:`run` hands both to a backend. The backend starts its emulator, lets the
script runner (:mod:`a8.emu.runner`, the same for every backend) play the script
into it, always ends it, and returns a :class:`RunResult`.

A backend (:class:`Backend`) has a name, says whether its emulator can run here
(``require``) and runs a script (``run``). a8 ships one, atari800
(:mod:`a8.emu.atari800`), the default. The registry finds a backend by name; the
built-in ones are imported when first asked for, since a backend builds on this
module rather than the other way round. A new emulator, or a test's stand-in
machine, is added with :func:`register_backend`, or with :func:`using_backend` for
the runs of one with-block.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, Protocol, cast

from a8.emu.keywait import KeyEvent, KeyPress
from a8.emu.roms import RomCheck, RomImage, RomKind, os_kind, resolve_rom
from a8.emu.screen import ScreenSnapshot
from a8.emu.script import Script
from a8.errors import A8Error, UsageError

Machine = Literal["xl", "800"]
TvSystem = Literal["ntsc", "pal"]
#: Frames (and jiffies: the OS's clock ticks once a frame) per second.
FRAMES_PER_SECOND: Final = {"ntsc": 60, "pal": 50}

#: Why a run ended.
Reason = Literal[
    "script-end",
    "timeout",
    "max-frames",
    "wait-file-timeout",
    "wait-text-timeout",
    "wait-input-timeout",
    "stopped-on-file",
    "emulator-exited",
]


class EmulatorMissingError(UsageError):
    """The emulator is not installed (message says how to install it): a set-up
    problem, exit status 2. ``reason`` is the message without the hint."""

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(f"{reason}: {hint}" if hint else reason)
        self.reason = reason


class EmulatorError(A8Error):
    """The emulator could not be started or driven (a missing disk, a crash at start ...)."""


class RomMismatchError(EmulatorError):
    """The machine ran other ROM code than the file given (never a silent fallback)."""


@dataclass(frozen=True)
class EmulatorOptions:
    """How to start the emulated machine.

    With no ROM files given (and none in the environment variables of
    :mod:`a8.emu.roms`: ``A8_OS_ROM``, ``A8_800_OS_ROM``, ``A8_BASIC_ROM``)
    atari800's built-in free AltirraOS and Altirra BASIC are used.
    """

    machine: Machine = "xl"
    tv: TvSystem = "ntsc"
    basic: bool = True
    os_rom: Path | None = None
    basic_rom: Path | None = None
    #: False runs the real SIO code (``-nopatch``): slower, exact disk timing.
    sio_patch: bool = True
    #: Disk image in drive 1 (the machine boots from it).
    disk: Path | None = None
    #: Host folder mapped read-write as H1: (a fresh temporary one when None).
    hdir: Path | None = None
    #: The emulator's devices that reach the host: H: (``hdir``) and P: (printing).
    #: False gives the machine neither, as a real 800XL has (then no ``wait-file``).
    host_devices: bool = True
    #: Stop after this many frames (reason ``max-frames``).
    max_frames: int | None = None
    #: Kill the emulator after this many wall-clock seconds (reason ``timeout``).
    timeout_s: float = 120.0
    #: Hold OPTION while the machine boots: an XL then starts with BASIC disabled.
    option_held: bool = False
    #: Run as fast as possible (``-turbo``); False paces the machine in real time.
    turbo: bool = True
    #: More atari800 arguments; it runs in an empty folder, so paths must be absolute.
    extra_args: tuple[str, ...] = ()
    #: Record the program's keyboard reading (:mod:`a8.emu.keywait`) from the first
    #: pause on; a script with a ``wait-input`` step does so anyway.
    watch_keys: bool = False
    #: The backend that runs the machine, by its name in the registry; None: the
    #: default one (atari800, unless :func:`using_backend` says otherwise).
    backend: str | None = None
    #: Called with each file a ``wait-file`` step has seen written and closed; True
    #: ends the script there (reason ``stopped-on-file``, the emulator ended the
    #: normal way). A caller that judges the files as they come stops a run whose
    #: outcome it already knows instead of running it to the end.
    stop_on_file: Callable[[Path], bool] | None = None


@dataclass(frozen=True)
class RunResult:
    """What a run produced."""

    #: The emulator's exit status (negative: killed by that signal).
    exit_status: int
    #: Everything the emulator printed, minus atari800's per-frame checksum lines.
    log: str
    #: Frames emulated with script input.
    frames: int
    reason: Reason
    screenshots: tuple[Path, ...] = ()
    #: The screens captured by the script's screenshot steps, in order.
    screens: tuple[ScreenSnapshot, ...] = ()
    #: Frames whose screen checksum differed from the script's (atari800: all but the first).
    checksum_mismatches: int = 0
    #: The command line that was run.
    command: tuple[str, ...] = field(default=())
    #: What the looks at the machine's memory showed about its OS and BASIC ROMs.
    roms: tuple[RomCheck, ...] = ()
    tv: TvSystem = "ntsc"
    #: The program's keyboard reading, when watched (:mod:`a8.emu.keywait`).
    key_events: tuple[KeyEvent, ...] = ()
    #: Every key (or console key) the script pressed, with its frame and jiffy.
    key_presses: tuple[KeyPress, ...] = ()

    @property
    def ok(self) -> bool:
        """The script ran to its end and the emulator then exited cleanly (status 0)."""
        return self.reason == "script-end" and self.exit_status == 0

    @property
    def frames_per_second(self) -> int:
        """60 (NTSC) or 50 (PAL): frames, and the OS's jiffies, per second."""
        return FRAMES_PER_SECOND[self.tv]

    def rom_report(self) -> list[str]:
        """One line per ROM: what it is and what the machine showed (see RomCheck)."""
        return [check.report() for check in self.roms]


@dataclass(frozen=True)
class RomSet:
    """The ROM images a run uses (None: the emulator's built-in one of that kind)."""

    os: RomImage | None
    basic: RomImage | None

    def describe(self) -> str:
        """Short, for reports: ``OS XL/XE rev. 2, BASIC rev. C``."""
        os_name = self.os.name if self.os is not None else "AltirraOS (built-in)"
        basic = self.basic.name if self.basic is not None else "Altirra BASIC (built-in)"
        return f"OS {os_name}, BASIC {basic}"


def resolve_roms(options: EmulatorOptions) -> RomSet:
    """Read and check the ROM files of ``options`` (or of the environment variables).

    A missing, unreadable or wrong-size file is a one-line :class:`~a8.emu.roms.RomError`.
    """
    if options.machine not in ("xl", "800"):
        raise EmulatorError(f"unknown machine {options.machine!r} (xl or 800)")
    os_image = resolve_rom(options.os_rom, os_kind(options.machine), "--os-rom")
    basic = resolve_rom(options.basic_rom, RomKind.BASIC, "--basic-rom") if options.basic else None
    return RomSet(os_image, basic)


def rom_checks(options: EmulatorOptions, roms: RomSet) -> list[RomCheck]:
    """What a run should prove about its ROMs: the OS, and BASIC when it is on."""
    checks = [RomCheck(os_kind(options.machine), roms.os)]
    if options.basic:
        checks.append(RomCheck(RomKind.BASIC, roms.basic))
    return checks


def refuse_rom_mismatch(result: RunResult) -> RunResult:
    """``result``, unless the machine showed other ROM code than a file given."""
    wrong = [check for check in result.roms if check.mismatch is not None]
    if wrong:
        raise RomMismatchError(wrong[0].report())
    return result


class Backend(Protocol):
    """An emulator that runs scripts: what the registry holds."""

    @property
    def name(self) -> str:
        """The name options and messages call it by (``atari800``)."""
        ...

    def require(self) -> None:
        """Raise :class:`EmulatorMissingError`, saying how to install it, when the
        emulator cannot run here."""
        ...

    def run(self, options: EmulatorOptions, script: Script) -> RunResult:
        """Start the machine, play ``script`` with :mod:`a8.emu.runner`, always end it.

        Raises :class:`EmulatorMissingError` without the emulator,
        :class:`EmulatorError` for options that cannot work (a missing disk file),
        :class:`~a8.emu.roms.RomError` for a ROM file that cannot be used, and
        :class:`RomMismatchError` when the machine runs other ROM code than the file.
        """
        ...


#: The backend runs use when their options name none.
DEFAULT_BACKEND: Final = "atari800"
#: The backends a8 ships, by name: the module whose ``BACKEND`` is the backend.
BUILT_IN: Final = {"atari800": "a8.emu.atari800"}


@dataclass
class _Registry:
    """The backends added at run time, and the name of the default one."""

    added: dict[str, Backend] = field(default_factory=dict)
    default: str = DEFAULT_BACKEND


_REGISTRY = _Registry()


def register_backend(backend: Backend) -> None:
    """Make ``backend`` known by its name (a built-in one's name is refused)."""
    if backend.name in BUILT_IN:
        raise EmulatorError(f"emulator backend {backend.name!r} is built in")
    _REGISTRY.added[backend.name] = backend


def backend_named(name: str | None = None) -> Backend:
    """The backend called ``name`` (None: the default one)."""
    name = _REGISTRY.default if name is None else name
    if name in _REGISTRY.added:
        return _REGISTRY.added[name]
    if name in BUILT_IN:
        return cast(Backend, importlib.import_module(BUILT_IN[name]).BACKEND)
    known = ", ".join(sorted({*BUILT_IN, *_REGISTRY.added}))
    raise EmulatorError(f"unknown emulator backend {name!r} (known: {known})")


@contextlib.contextmanager
def using_backend(backend: Backend) -> Iterator[Backend]:
    """Within the with-block, ``backend`` is registered and runs whose options name no
    backend use it (a test's stand-in machine runs a caller's script this way)."""
    register_backend(backend)
    previous = _REGISTRY.default
    _REGISTRY.default = backend.name
    try:
        yield backend
    finally:
        _REGISTRY.default = previous
        _REGISTRY.added.pop(backend.name, None)


def run(options: EmulatorOptions, script: Script) -> RunResult:
    """Boot the machine, play ``script`` into it, and always end the emulator.

    Screenshot paths in the script are relative to the current directory. The
    options' backend runs it (see :meth:`Backend.run` for the errors).
    """
    return backend_named(options.backend).run(options, script)


def require_emulator(backend: str | None = None) -> None:
    """Raise :class:`EmulatorMissingError` when the backend's emulator cannot run here."""
    backend_named(backend).require()


def find_atari800() -> Path:
    """The atari800 executable (``$A8_ATARI800``, else the one on PATH).

    Here, not only in the backend, because the test suite's set-up needs the path and
    may import the interface only (tests/test_layout.py): a missing emulator fails the
    tests that need it once, with how to install it. Commands ask
    :func:`require_emulator` instead, which works for every backend.
    """
    from a8.emu.atari800.executable import find_executable

    return find_executable()
