"""Naming the file system: synthetic disks built byte by byte, and damaged ones still named.

The corpus (test_corpus.py) covers real disks; these tests pin each rule of
:mod:`a8.disk.detect` on disks built here from the format descriptions, so that a
rule that stops holding is noticed even without a corpus disk of that kind (there
is no public DOS XE disk in the corpus: the one here is built from its boot sector
description).
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import check_image
from a8.disk.detect import UnknownDisk, identify, open_disk
from a8.disk.dos2 import Density, Dos2Disk, mydos_vtoc_code
from a8.disk.dosxe import DosXeDisk


def dos_xe_image() -> AtrImage:
    """A DOS XE boot sector: "X", 3 sectors at $0700, JMP $0730, drive table "AT810"."""
    image = AtrImage.blank(720, 128, "XE.ATR")
    boot = bytearray(128)
    boot[0:9] = b"X\x03\x00\x07\xca\x0c\x4c\x30\x07"
    boot[0x10:0x15] = b"AT810"
    struct.pack_into(">H", boot, 0x2E, 128)
    image.write_sector(1, bytes(boot))
    return image


def mydos_image(sectors: int, size: int) -> AtrImage:
    """A freshly formatted MyDOS disk of any size, built from MyDOS's rules."""
    image = AtrImage.blank(sectors, size, "MY.ATR")
    code = mydos_vtoc_code(sectors, size)
    vtoc_sectors = 1 if code == 2 else (code - 2) * (256 // size)
    joined = bytearray(vtoc_sectors * size)
    used = {0, 1, 2, 3, *range(361, 369), *range(360 - vtoc_sectors + 1, 361)}
    for sector in range(sectors + 1):
        if sector not in used:
            joined[10 + sector // 8] |= 0x80 >> (sector % 8)
    total = sectors - 11 - vtoc_sectors
    struct.pack_into("<BHH", joined, 0, code, total, total)
    for index in range(vtoc_sectors):
        image.write_sector(360 - index, bytes(joined[index * size : (index + 1) * size]))
    return image


@pytest.mark.parametrize(
    ("density", "name"),
    [(Density.SINGLE, "DOS 2.0S"), (Density.ENHANCED, "DOS 2.5"), (Density.DOUBLE, "DOS 2.0D")],
)
def test_dos2_variants(density: Density, name: str) -> None:
    assert identify(Dos2Disk.new(density).image).name == name


#: MyDOS's VTOC code and number of VTOC sectors by disk size: the examples Altirra's
#: diskfsdos2.cpp gives for MyDOS 4.55, and the two large corpus disks (1040 x 128,
#: 3132 x 256), written by MyDOS itself.
MYDOS_SIZES = [
    (720, 128, 2, 1), (943, 128, 2, 1), (944, 128, 3, 2), (1040, 128, 3, 2),
    (1967, 128, 3, 2), (1968, 128, 4, 4), (4016, 128, 5, 6), (720, 256, 2, 1),
    (1023, 256, 2, 1), (1024, 256, 3, 1), (1968, 256, 4, 2), (3132, 256, 4, 2),
]  # fmt: skip


@pytest.mark.parametrize(("sectors", "size", "code", "vtoc_count"), MYDOS_SIZES)
def test_mydos_sizes_and_their_vtoc(sectors: int, size: int, code: int, vtoc_count: int) -> None:
    assert mydos_vtoc_code(sectors, size) == code
    image = mydos_image(sectors, size)
    assert identify(image).name == "MyDOS"
    disk = Dos2Disk(image)
    assert disk.geometry.vtoc_code == code
    assert disk.geometry.vtoc_sectors == tuple(range(360, 360 - vtoc_count, -1))
    assert disk.free_sectors == len(disk.free) == sectors - 11 - vtoc_count
    assert check_image(image).problems == []
    entry = disk.add_file("BIG.DAT", bytes(range(256)) * 40)
    assert entry.long_links == (code > 2)
    assert disk.read_file("BIG.DAT") == bytes(range(256)) * 40
    assert check_image(disk.image).problems == []


def test_dos_xe_is_named_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = dos_xe_image()
    assert isinstance(open_disk(image), DosXeDisk)
    path = tmp_path / "XE.ATR"
    path.write_bytes(image.to_bytes())
    assert main(["atr", "ls", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("DOS XE (720 sectors of 128 bytes)") and "does not read" in out
    assert main(["atr", "check", str(path)]) == 0
    assert "nothing to check inside" in capsys.readouterr().out
    for args in (["get", str(path), "X"], ["rm", str(path), "X"], ["boot", str(path), "--menu=X"]):
        assert main(["atr", *args]) == 1
        assert "DOS XE" in capsys.readouterr().err
    assert path.read_bytes() == image.to_bytes()


def test_xdos_keeps_the_dos2_layout() -> None:
    """XDOS writes "X" in byte 0 too, but not DOS XE's jump: its DOS 2 disk stays DOS 2."""
    disk = Dos2Disk.new()
    disk.write_boot(b"X\x03\x00\x07\x40\x15\x4c\x14\x07")
    assert identify(disk.image).name == "DOS 2.0S"


def test_boot_disk_is_described() -> None:
    image = AtrImage.blank(720, 128)
    image.write_sector(1, b"\x00\x13\x00\x07\x08\x07")
    assert isinstance(open_disk(image), UnknownDisk)
    identity = identify(image)
    assert str(identity) == (
        "no file system I know (720 sectors of 128 bytes; boot record: 19 sectors loaded at $0700)"
    )


@pytest.mark.parametrize(
    ("offset", "value", "why"),
    [(0, 0, "DOS code"), (1, 0, "total"), (10 + 45, 0x80, "VTOC marked free")],
)
def test_one_damaged_sign_still_names_dos2(offset: int, value: int, why: str) -> None:
    disk = Dos2Disk.new()
    disk.add_file("ONE.DAT", b"data")
    raw = bytearray(disk.image.read_sector(360))
    raw[offset] = value
    if offset == 1:
        raw[2] = 0
    disk.image.write_sector(360, bytes(raw))
    assert identify(disk.image).name == "DOS 2.0S", why
    assert check_image(disk.image).problems, why


def test_two_damaged_signs_are_too_many() -> None:
    disk = Dos2Disk.new()  # an empty directory: the live-file sign is missing already
    raw = bytearray(disk.image.read_sector(360))
    raw[0] = 0
    disk.image.write_sector(360, bytes(raw))
    assert isinstance(open_disk(disk.image), UnknownDisk)
