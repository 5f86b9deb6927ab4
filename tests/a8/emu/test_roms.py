"""The user's own ROM files really run, whatever atari800 thinks it knows about them.

No Atari ROM ships with the project, so the tests make their own from the built-in
ones: they save AltirraOS and Altirra BASIC from the machine's memory through the
monitor and pass them back as the user's files:

* as they are (a CRC32 atari800 does not know);
* with one byte changed in a run of fill bytes, and the Atari itself PEEKs it;
* with 4 fill bytes chosen so that the CRC32 is that of the genuine XL OS rev. 2 /
  BASIC rev. C: atari800 5.0.0 files such an image under the genuine ROM's slot and
  ignored it with ``-xlxe_rom F -xl-rev custom`` (the machine then had no OS, or no
  BASIC); the runner's configuration file makes it run.

The XL's 16 KB OS is C000-CFFF, the self-test part (seen at 5000-57FF once PORTB
bit 7 is cleared) and D800-FFFF; the dumps are taken with atari800's SIO patch off,
so they hold no escape codes of its own.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from a8.emu.emulator import EmulatorOptions, RomMismatchError, RunResult, run
from a8.emu.roms import BASIC_ROM_ENV, OS_ROM_ENV, RomError, RomKind
from a8.emu.script import Script

from .crc_forge import forge_crc32

pytestmark = pytest.mark.emulator

GENUINE_XL_REV2 = 0x1F9CD270
GENUINE_BASIC_REVC = 0x7D684184


@dataclass(frozen=True)
class Dumps:
    xl_os: bytes
    basic: bytes
    os_800: bytes


def fill_run(image: bytes) -> int:
    """The middle of the longest run of FF fill bytes: code never runs or reads there."""
    runs = [(len(found.group()), found.start()) for found in re.finditer(rb"\xff{16,}", image)]
    length, start = max(runs)
    return start + length // 2


def memory_after(options: EmulatorOptions, script: Script, folder: Path) -> RunResult:
    result = run(options, script.screenshot(str(folder / "look.png")))
    assert result.ok, result.reason
    return result


@pytest.fixture(scope="session")
def dumps(atari800: str, tmp_path_factory: pytest.TempPathFactory) -> Dumps:
    folder = tmp_path_factory.mktemp("dumps")
    self_test_in_view = (
        Script().wait_for_input(600).type("POKE 54017,PEEK(54017)&127\n").wait_for_input(300)
    )
    xl = memory_after(EmulatorOptions(sio_patch=False), self_test_in_view, folder).screens[0]
    old = memory_after(
        EmulatorOptions(machine="800", sio_patch=False), Script().wait_for_input(600), folder
    ).screens[0]
    memory = xl.memory
    return Dumps(
        xl_os=memory[0xC000:0xD000] + memory[0x5000:0x5800] + memory[0xD800:0x10000],
        basic=memory[0xA000:0xC000],
        os_800=old.memory[0xD800:0x10000],
    )


def save(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def peek(options: EmulatorOptions, address: int, folder: Path) -> tuple[RunResult, int]:
    """Boot, have BASIC print PEEK(address), read the number from the screen."""
    script = Script().wait_for_input(900).type(f"PRINT PEEK({address})\n").wait_for_input(300)
    result = memory_after(options, script, folder)
    lines = [line.strip() for line in result.screens[0].text_lines()]
    row = next(i for i, line in enumerate(lines) if line == f"PRINT PEEK({address})")
    return result, int(lines[row + 1])


def test_the_dumps_are_the_built_in_roms(dumps: Dumps) -> None:
    assert len(dumps.xl_os) == RomKind.XL_OS.size
    assert b"Altirra 8K BASIC 1.55" in dumps.basic
    assert b"AltirraOS" in dumps.os_800


def test_built_in_roms_are_named_from_memory(dumps: Dumps, tmp_path: Path) -> None:
    result = memory_after(EmulatorOptions(), Script().wait_for_input(600), tmp_path)
    assert result.rom_report() == [
        "OS: AltirraOS (built-in)",  # the XL's self test (where its name is) was not in view
        f"BASIC: Altirra BASIC 1.55 (built-in, CRC32 {zlib.crc32(dumps.basic):08X})",
    ]


def test_dumped_roms_given_back_run_and_are_proven(dumps: Dumps, tmp_path: Path) -> None:
    os_rom = save(tmp_path, "os.rom", dumps.xl_os)
    basic_rom = save(tmp_path, "basic.rom", dumps.basic)
    options = EmulatorOptions(os_rom=os_rom, basic_rom=basic_rom)
    result, value = peek(options, 0xA000 + 10, tmp_path)  # "Altirra..." starts at A00A
    assert value == ord("A")
    os_check, basic_check = result.roms
    assert os_check.proven and basic_check.proven
    assert os_check.checked_bytes == 0x1000 + 0x2800  # all of it but the self-test part
    assert os_check.patched_bytes <= 8  # atari800's own patches: SIO vector, checksum test
    assert result.rom_report()[1] == (
        f"BASIC: Altirra BASIC 1.55 (CRC32 {zlib.crc32(dumps.basic):08X}), from {basic_rom}: "
        "in the machine (8192 bytes in view, all equal)"
    )


@pytest.mark.parametrize("machine", ["xl", "800"])
def test_one_changed_byte_is_what_the_machine_sees(
    dumps: Dumps, tmp_path: Path, machine: str
) -> None:
    """An image atari800 cannot know (a new CRC32); the Atari program PEEKs the change."""
    image = dumps.xl_os if machine == "xl" else dumps.os_800
    base = 0xC000 if machine == "xl" else 0xD800
    at = fill_run(image[:0x1000] if machine == "xl" else image)
    changed = bytearray(image)
    changed[at] = 0x5A
    os_rom = save(tmp_path, "os.rom", bytes(changed))
    basic = bytearray(dumps.basic)
    basic_at = fill_run(dumps.basic)
    basic[basic_at] = 0xA5
    basic_rom = save(tmp_path, "basic.rom", bytes(basic))
    options = EmulatorOptions(machine=machine, os_rom=os_rom, basic_rom=basic_rom)  # type: ignore[arg-type]
    _, value = peek(options, base + at, tmp_path)
    assert value == 0x5A
    result, value = peek(options, 0xA000 + basic_at, tmp_path)
    assert value == 0xA5
    assert all(check.proven for check in result.roms)
    assert "unknown" not in result.rom_report()[0]  # still named: AltirraOS's own text


def test_images_atari800_knows_by_crc_are_used(dumps: Dumps, tmp_path: Path) -> None:
    """The bug of issue 10: a known CRC32 made atari800 ignore --os-rom / --basic-rom."""
    os_at, basic_at = fill_run(dumps.xl_os[:0x1000]), fill_run(dumps.basic)
    os_rom = save(tmp_path, "xl.rom", forge_crc32(dumps.xl_os, os_at, GENUINE_XL_REV2))
    basic_rom = save(tmp_path, "b.rom", forge_crc32(dumps.basic, basic_at, GENUINE_BASIC_REVC))
    options = EmulatorOptions(os_rom=os_rom, basic_rom=basic_rom)
    result, value = peek(options, 0xA000 + basic_at, tmp_path)
    assert value == basic_rom.read_bytes()[basic_at]
    assert result.screens[0].memory[0xC000 + os_at] == os_rom.read_bytes()[os_at]
    assert result.rom_report()[0].startswith(f"OS: XL/XE rev. 2 (CRC32 1F9CD270), from {os_rom}")
    assert result.rom_report()[1].startswith(f"BASIC: rev. C (CRC32 7D684184), from {basic_rom}")
    assert all(check.proven for check in result.roms)


def test_roms_from_the_environment(
    dumps: Dumps, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    basic = bytearray(dumps.basic)
    version = basic.index(b"1.55")
    basic[version : version + 4] = b"9.87"
    monkeypatch.setenv(BASIC_ROM_ENV, str(save(tmp_path, "basic.rom", bytes(basic))))
    monkeypatch.setenv(OS_ROM_ENV, str(save(tmp_path, "os.rom", dumps.xl_os)))
    result = memory_after(EmulatorOptions(), Script().wait_for_input(600), tmp_path)
    assert "Altirra 8K BASIC 9.87" in result.screens[0].text_lines()[0]
    assert result.rom_report()[1].startswith("BASIC: Altirra BASIC 9.87")
    assert all(check.proven for check in result.roms)


def test_a_rom_given_but_not_run_is_an_error(dumps: Dumps, tmp_path: Path) -> None:
    """Never a silent fallback: here a later argument makes atari800 use its own OS."""
    changed = bytearray(dumps.xl_os)
    changed[fill_run(dumps.xl_os[:0x1000])] = 0x00
    options = EmulatorOptions(
        os_rom=save(tmp_path, "os.rom", bytes(changed)), extra_args=("-xl-rev", "altirra")
    )
    with pytest.raises(RomMismatchError, match=r"^OS: .* NOT what the machine runs \(C"):
        run(options, Script().wait(60))


@pytest.mark.parametrize(
    ("size", "message"),
    [
        (100, "100 bytes, an XL/XE OS ROM has 16384"),
        (8192, "8192 bytes, an XL/XE OS ROM has 16384 (that is the size of a BASIC ROM)"),
    ],
)
def test_wrong_size_is_a_one_line_error(tmp_path: Path, size: int, message: str) -> None:
    rom = save(tmp_path, "os.rom", bytes(size))
    with pytest.raises(RomError) as raised:
        run(EmulatorOptions(os_rom=rom), Script().wait(10))
    assert str(raised.value) == f"{rom} (from --os-rom): {message}"


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RomError, match=r"nope.rom \(from --basic-rom\): ROM file not found$"):
        run(EmulatorOptions(basic_rom=tmp_path / "nope.rom"), Script())
    with pytest.raises(RomError, match="is a folder, not a ROM file$"):
        run(EmulatorOptions(machine="800", os_rom=tmp_path), Script())
