"""The user's own ROM files: options and environment variables really reach atari800.

No Atari ROM ships with the project, so the test makes its own from the built-in
ones: it saves the OS and BASIC from memory, changes one visible detail in each
(BASIC's version in its banner, the OS's default background colour), and checks
that the machine booted with those files shows the changes. The XL's 16 KB OS
is C000-CFFF, the self-test part (seen at 5000-57FF once PORTB bit 7 is
cleared) and D800-FFFF.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.emu.emulator import BASIC_ROM_ENV, EmulatorOptions, run
from a8.emu.script import Script

pytestmark = pytest.mark.emulator

SHOW = Script().wait(120).screenshot
BOOT_COLOURS = bytes([0x28, 0xCA, 0x94, 0x46, 0x00])  # COLOR0-4 as the OS sets them


@pytest.fixture(scope="module")
def patched_roms(atari800: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("roms")
    result = run(EmulatorOptions(machine="800"), SHOW(str(folder / "built-in.png")))
    memory = result.screens[0].memory
    basic = bytearray(memory[0xA000:0xC000])
    operating_system = bytearray(memory[0xD800:0x10000])
    version = basic.index(b"1.55")
    basic[version : version + 4] = b"9.87"
    colours = operating_system.index(BOOT_COLOURS)
    operating_system[colours + 2] = 0x24
    (folder / "basic.rom").write_bytes(bytes(basic))
    (folder / "os.rom").write_bytes(bytes(operating_system))
    return folder / "os.rom", folder / "basic.rom"


@pytest.fixture(scope="module")
def patched_xl_os(atari800: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("xl")
    self_test_in_view = Script().wait_for_text("Ready", 600).type("POKE 54017,PEEK(54017)&127\n")
    result = run(EmulatorOptions(), self_test_in_view.wait(10).screenshot(str(folder / "s.png")))
    memory = result.screens[0].memory
    rom = bytearray(memory[0xC000:0xD000] + memory[0x5000:0x5800] + memory[0xD800:0x10000])
    rom[rom.index(BOOT_COLOURS) + 2] = 0x24
    (folder / "xl.rom").write_bytes(bytes(rom))
    return folder / "xl.rom"


def test_xl_os_rom(patched_xl_os: Path, tmp_path: Path) -> None:
    script = Script().wait_for_text("Ready", 600).type('PRINT "XL"\n').wait(10)
    result = run(EmulatorOptions(os_rom=patched_xl_os), script.screenshot(str(tmp_path / "x.png")))
    assert result.ok
    assert "-xlxe_rom" in result.command
    assert result.screens[0].registers["COLPF2"] == 0x24
    assert any(line.strip() == "XL" for line in result.screens[0].text_lines())


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
