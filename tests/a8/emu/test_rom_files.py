"""ROM files and the proof of what ran, without an emulator."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from a8.emu.roms import (
    RomCheck,
    RomError,
    RomImage,
    RomKind,
    emulator_patch,
    image_name,
    internal_to_atascii,
    load_rom,
)


def image(kind: RomKind, fill: int = 0x11) -> RomImage:
    return RomImage(kind, bytes([fill]) * kind.size, Path("my.rom"), "--os-rom")


def test_load_rom_checks_the_size(tmp_path: Path) -> None:
    rom = tmp_path / "x.rom"
    rom.write_bytes(bytes(10240))
    assert load_rom(rom, RomKind.OS_800).crc32 == zlib.crc32(bytes(10240))
    with pytest.raises(RomError, match=r"10240 bytes, a BASIC ROM has 8192 \(that is the size"):
        load_rom(rom, RomKind.BASIC)


def test_names_by_crc_and_by_altirra_text() -> None:
    assert image_name(RomKind.BASIC, b"x" * 100 + b"Altirra 8K BASIC 1.55") == "Altirra BASIC 1.55"
    internal = bytes(code - 0x20 if code < 0x60 else code for code in b"AltirraOS for XL/XE 3.28")
    assert internal_to_atascii(internal) == b"AltirraOS for XL/XE 3.28"
    assert image_name(RomKind.XL_OS, internal) == "AltirraOS 3.28"
    assert image_name(RomKind.XL_OS, bytes(16)) == "unknown XL/XE OS"


def test_atari800_patches_are_told_apart() -> None:
    memory = bytearray(0x10000)
    memory[0xE459:0xE45C] = bytes([0xF2, 0x01, 0x60])  # escape, code, RTS
    memory[0xE43C:0xE43E] = bytes([0xD2, 0x05])  # escape-and-return, code
    memory[0xC31D:0xC31F] = bytes([0xEA, 0xEA])  # checksum test turned off
    patched = (0xE459, 0xE45A, 0xE45B, 0xE43C, 0xE43D, 0xC31D)
    assert all(emulator_patch(bytes(memory), at) for at in patched)
    memory[0xC31E] = 0x00
    assert not emulator_patch(bytes(memory), 0xC31E)
    assert not emulator_patch(bytes(memory), 0xE000)


def test_a_look_proves_or_contradicts_the_file() -> None:
    basic = image(RomKind.BASIC)
    memory = bytearray(0x10000)
    memory[0xA000:0xC000] = basic.data
    check = RomCheck(RomKind.BASIC, basic).look(bytes(memory), portb=0xFD)
    assert check.proven and check.checked_bytes == 8192
    assert RomCheck(RomKind.BASIC, basic).look(bytes(memory), portb=0xFF).looks == 0  # off
    memory[0xB000] = 0x99
    wrong = check.look(bytes(memory), portb=0xFD)
    assert not wrong.proven
    assert wrong.report() == (
        "BASIC: unknown BASIC (CRC32 "
        f"{basic.crc32:08X}), from my.rom: NOT what the machine runs "
        "(B000 holds 99 in the machine, 11 in the file)"
    )


def test_the_xl_self_test_part_counts_only_when_in_view() -> None:
    xl = image(RomKind.XL_OS)
    memory = bytearray(0x10000)
    memory[0xC000:0xD000] = xl.data[:0x1000]
    memory[0xD800:0x10000] = xl.data[0x1800:]
    check = RomCheck(RomKind.XL_OS, xl).look(bytes(memory), portb=0xFD)
    assert check.proven and check.checked_bytes == 0x3800 and check.seen is None
    check = check.look(bytes(memory), portb=0x7D)  # self test in view: RAM there differs
    assert check.mismatch is not None and check.mismatch.address == 0x5000
