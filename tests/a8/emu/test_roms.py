"""The user's own ROM files: options and environment variables really reach atari800.

No Atari ROM ships with the project, so the test makes its own from the built-in
ones: it saves the 800's OS and BASIC from memory, changes one visible detail in
each (BASIC's version in its banner, the OS's default background colour), and
checks that the machine booted with those files shows the changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.emu.emulator import BASIC_ROM_ENV, EmulatorOptions, run
from a8.emu.script import Script

pytestmark = pytest.mark.emulator

SHOW = Script().wait(120).screenshot


@pytest.fixture(scope="module")
def patched_roms(atari800: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("roms")
    result = run(EmulatorOptions(machine="800"), SHOW(str(folder / "built-in.png")))
    memory = result.screens[0].memory
    basic = bytearray(memory[0xA000:0xC000])
    operating_system = bytearray(memory[0xD800:0x10000])
    version = basic.index(b"1.55")
    basic[version : version + 4] = b"9.87"
    colours = operating_system.index(bytes([0x28, 0xCA, 0x94, 0x46, 0x00]))  # COLOR0-4 at boot
    operating_system[colours + 2] = 0x24
    (folder / "basic.rom").write_bytes(bytes(basic))
    (folder / "os.rom").write_bytes(bytes(operating_system))
    return folder / "os.rom", folder / "basic.rom"


def test_rom_files_from_options(patched_roms: tuple[Path, Path], tmp_path: Path) -> None:
    os_rom, basic_rom = patched_roms
    options = EmulatorOptions(machine="800", os_rom=os_rom, basic_rom=basic_rom)
    result = run(options, SHOW(str(tmp_path / "s.png")))
    assert result.ok
    screen = result.screens[0]
    assert "Altirra 8K BASIC 9.87" in screen.text_lines()[0]
    assert screen.registers["COLPF2"] == 0x24


def test_basic_rom_from_the_environment(
    patched_roms: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(BASIC_ROM_ENV, str(patched_roms[1]))
    result = run(EmulatorOptions(machine="xl"), SHOW(str(tmp_path / "s.png")))
    assert result.ok
    assert "9.87" in result.screens[0].text_lines()[0]
