"""atari800's command line and configuration file for a run's options.

Why a configuration file: atari800 5.0.0 checks the CRC32 of a file given with
``-xlxe_rom``/``-basic_rom`` and, when it knows the image (the genuine XL OS rev. 2,
BASIC rev. C ...), files it under that image's own slot, so ``-xl-rev custom`` then
finds no custom ROM and the machine runs without it. The keys of its configuration
file are read without any CRC check (``src/sysrom.c``), so the runner writes one
that puts every image in the *custom* slot of its kind and selects that slot,
whatever the image is. The runner copies the bytes it checked into the run's own
folder and names that copy, so the emulator loads exactly those bytes (and the
configuration line stays short: atari800 reads lines of at most 255 bytes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from a8.emu.emulator import EmulatorError, EmulatorOptions, Machine, RomSet
from a8.emu.roms import RomError, RomImage, RomKind, os_kind

#: atari800 draws one frame of this many (``-refresh``): nobody sees its picture.
REFRESH_EVERY: Final = 50


def command_line(
    options: EmulatorOptions, executable: Path, config: Path, playback: Path, hdir: Path
) -> list[str]:
    """The atari800 arguments for ``options``; ``config`` selects the ROMs (see write_config)."""
    args = [str(executable.absolute()), "-config", str(config.absolute()), "-no-autosave-config"]
    if options.machine not in ("xl", "800"):
        raise EmulatorError(f"unknown machine {options.machine!r} (xl or 800)")
    args.append("-xl" if options.machine == "xl" else "-atari")
    if options.tv not in ("ntsc", "pal"):
        raise EmulatorError(f"unknown TV system {options.tv!r} (ntsc or pal)")
    args.append(f"-{options.tv}")
    args.append("-basic" if options.basic else "-nobasic")
    if not options.sio_patch:
        args.append("-nopatch")
    # atari800 runs in an empty folder of its own: every path it gets is absolute
    args.append("-nosound")
    # The run is headless and every look at the screen reads the machine's memory
    # (a8.emu.screen): atari800's own picture is never shown, so it draws only one
    # frame in REFRESH_EVERY (the machine's timing is the same; a quarter faster).
    args += ["-refresh", str(REFRESH_EVERY)]
    if options.host_devices:
        args += ["-H1", str(hdir.absolute()), "-hreadwrite"]
    args += ["-playback", str(playback.absolute())]
    if options.turbo:
        args.append("-turbo")
    args += list(options.extra_args)
    if options.disk is not None:
        if not options.disk.is_file():
            raise EmulatorError(f"{options.disk}: disk image not found")
        args.append(str(options.disk.absolute()))
    return args


def write_config(
    roms: RomSet, machine: Machine, folder: Path, *, host_devices: bool = True
) -> Path:
    """atari800's configuration file for ``roms``, with copies of the images beside it.

    The copies are what the emulator loads: exactly the bytes that were checked,
    under a short path (atari800 reads configuration lines of at most 255 bytes).
    """
    folder.mkdir(parents=True, exist_ok=True)
    os_copy = _copy(roms.os, folder / "os.rom")
    basic_copy = _copy(roms.basic, folder / "basic.rom")
    config = folder / "atari800.cfg"
    text = config_text(machine, roms.os, roms.basic, os_copy, basic_copy, host_devices)
    config.write_text(text, "ascii")
    return config


def _copy(image: RomImage | None, path: Path) -> Path | None:
    if image is None:
        return None
    path.write_bytes(image.data)
    return path


def config_text(
    machine: Machine,
    os_image: RomImage | None,
    basic: RomImage | None,
    os_copy: Path | None,
    basic_copy: Path | None,
    host_devices: bool = True,
) -> str:
    """atari800's configuration file selecting these images (or the built-in ones).

    Without ``host_devices``, atari800's H: and P: patches are off: it neither adds
    its H: to the machine's handler table (it would, even with no ``-H1`` folder)
    nor rewrites the OS's P: handler, and its ESC codes are nowhere in the OS but
    at SIOV (and nowhere at all with ``-nopatch``).
    """
    lines = ["Atari 800 Emulator, Version 5.0.0"]
    if not host_devices:
        lines += ["ENABLE_H_PATCH=0", "ENABLE_P_PATCH=0"]
    kind = os_kind(machine)
    for image, copy, image_kind in ((os_image, os_copy, kind), (basic, basic_copy, RomKind.BASIC)):
        if image is not None and copy is not None:
            lines += [
                f"{image_kind.file_key}={_config_path(copy)}",
                f"{image_kind.version_key}=CUSTOM",
            ]
        else:
            lines.append(f"{image_kind.version_key}=ALTIRRA")
    return "\n".join(lines) + "\n"


def _config_path(path: Path) -> str:
    text = str(path.absolute())
    if len(text) > 200 or text != text.strip() or "\n" in text:
        raise RomError(f"{text}: atari800 cannot read this path from its configuration")
    return text
