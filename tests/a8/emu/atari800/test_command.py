"""atari800's command line and configuration file, without running it."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.emu.atari800.command import command_line, config_text
from a8.emu.emulator import EmulatorError, EmulatorOptions
from a8.emu.roms import RomImage, RomKind


def image(kind: RomKind, fill: int = 0x11) -> RomImage:
    return RomImage(kind, bytes([fill]) * kind.size, Path("my.rom"), "--os-rom")


def test_command_line_leaves_the_roms_to_the_configuration(tmp_path: Path) -> None:
    """ROM choices go in atari800's configuration file, where no CRC32 check applies."""
    options = EmulatorOptions(os_rom=tmp_path / "os.rom", tv="pal")
    args = command_line(options, Path("atari800"), tmp_path / "c.cfg", tmp_path, tmp_path)
    assert "-xl" in args and "-pal" in args and "-basic" in args
    assert not any(arg.endswith("_rom") or arg.endswith("-rev") for arg in args)
    with pytest.raises(EmulatorError, match="unknown TV system 'secam'"):
        command_line(EmulatorOptions(tv="secam"), Path("a"), tmp_path, tmp_path, tmp_path)  # type: ignore[arg-type]


def test_config_selects_custom_slots_or_the_built_in_ones(tmp_path: Path) -> None:
    xl, basic = image(RomKind.XL_OS), image(RomKind.BASIC)
    text = config_text("xl", xl, basic, tmp_path / "os.rom", tmp_path / "basic.rom")
    assert text.splitlines() == [
        "Atari 800 Emulator, Version 5.0.0",
        f"ROM_XL/XE_CUSTOM={tmp_path / 'os.rom'}",
        "OS_XL/XE_VERSION=CUSTOM",
        f"ROM_BASIC_CUSTOM={tmp_path / 'basic.rom'}",
        "BASIC_VERSION=CUSTOM",
    ]
    assert config_text("800", None, None, None, None).splitlines()[1:] == [
        "OS_400/800_VERSION=ALTIRRA",
        "BASIC_VERSION=ALTIRRA",
    ]


def test_no_host_devices_means_no_h_folder_and_no_patches(tmp_path: Path) -> None:
    """Without host devices the machine gets no H: from atari800 at all: no folder on
    the command line, and its H: (which it adds to HATABS even without a folder) and
    P: patches off in the configuration."""
    hdir = tmp_path / "h"
    plain = command_line(EmulatorOptions(), Path("a"), tmp_path / "c", tmp_path / "p", hdir)
    assert plain[plain.index("-H1") + 1] == str(hdir.absolute())
    assert "ENABLE_H_PATCH=0" not in config_text("xl", None, None, None, None)
    bare = EmulatorOptions(host_devices=False)
    args = command_line(bare, Path("a"), tmp_path / "c", tmp_path / "p", hdir)
    assert not any(arg.startswith("-H") or arg.startswith("-h") for arg in args)
    assert str(hdir.absolute()) not in args
    lines = config_text("xl", None, None, None, None, host_devices=False).splitlines()
    assert lines[1:3] == ["ENABLE_H_PATCH=0", "ENABLE_P_PATCH=0"]
