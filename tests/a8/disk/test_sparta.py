"""SpartaDOS: listing, reading by path, sparse files, and every problem check finds there."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import ProblemKind, check_image
from a8.disk.sparta import SpartaDisk, SpartaError
from tests.a8.disk.corpus_disks import corpus_disk


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def fast_assembler() -> AtrImage:
    """HolgerJanz's FastAssembler disk: SpartaDOS 2.x/3.x format, 1440 x 256, 7 directories."""
    return corpus_disk("sparta-fastassembler-dd").image()


def test_listing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_disk("sparta-fastassembler-dd").write_to(tmp_path)
    status, out, _ = run(capsys, "ls", str(path))
    lines = out.splitlines()
    assert lines[0] == "SpartaDOS 2.x/3.x (1440 sectors of 256 bytes), volume FA"
    assert "  TESTS         <DIR> 02-11-22 21:26" in lines
    assert "  CONFIG  SYS     157 02-11-22 21:57" in lines
    assert lines[-1].endswith("FREE SECTORS")
    status, out, _ = run(capsys, "ls", str(path), "TESTS")
    assert status == 0 and "  ERROR225ASM      23 07-11-21 12:46" in out.splitlines()


def test_reading_by_path(fast_assembler: AtrImage) -> None:
    disk = SpartaDisk(fast_assembler)
    files = dict(disk.walk())
    assert len(files) == 116
    data = disk.read_file("TESTS>ERROR225.ASM")
    assert len(data) == files["TESTS>ERROR225.ASM"].size == 23
    assert disk.read_file("tests/error225.asm") == data
    assert disk.read_file("TESTS>ERRORREC.OBJ") == b""  # an empty file
    with pytest.raises(SpartaError, match="no file TESTS>NOPE"):
        disk.read_file("TESTS>NOPE")
    with pytest.raises(SpartaError, match="TESTS is a directory"):
        disk.read_file("TESTS")


def set_word(image: AtrImage, sector: int, offset: int, value: int) -> None:
    raw = bytearray(image.read_sector(sector))
    struct.pack_into("<H", raw, offset, value)
    image.write_sector(sector, bytes(raw))


def first_file(image: AtrImage) -> tuple[str, int]:
    disk = SpartaDisk(image)
    path, entry = next((p, e) for p, e in disk.walk() if e.size > 600)
    return path, entry.map_sector


def test_a_sparse_sector_reads_as_zeros(fast_assembler: AtrImage) -> None:
    path, map_sector = first_file(fast_assembler)
    disk = SpartaDisk(fast_assembler)
    whole = disk.read_file(path)
    set_word(fast_assembler, map_sector, 4 + 2, 0)  # the second data sector: never written
    sparse = SpartaDisk(fast_assembler).read_file(path)
    assert sparse[:256] == whole[:256] and sparse[256:512] == bytes(256)
    assert sparse[512:] == whole[512:]


def test_the_corpus_disk_is_clean(fast_assembler: AtrImage) -> None:
    assert check_image(fast_assembler).problems == []


def kinds(image: AtrImage) -> set[ProblemKind]:
    return {p.kind for p in check_image(image).problems}


def test_sector_count(fast_assembler: AtrImage) -> None:
    set_word(fast_assembler, 1, 11, 1400)
    assert ProblemKind.SECTOR_COUNT in kinds(fast_assembler)


def test_free_count(fast_assembler: AtrImage) -> None:
    set_word(fast_assembler, 1, 13, 3)
    assert ProblemKind.FREE_COUNT in kinds(fast_assembler)


def test_a_map_off_the_disk(fast_assembler: AtrImage) -> None:
    path, map_sector = first_file(fast_assembler)
    set_word(fast_assembler, map_sector, 4, 5000)
    assert ProblemKind.BAD_SECTOR_MAP in kinds(fast_assembler)
    with pytest.raises(SpartaError, match="outside the disk"):
        SpartaDisk(fast_assembler).read_file(path)


def test_cross_linked_and_lost(fast_assembler: AtrImage) -> None:
    _, map_sector = first_file(fast_assembler)
    root = SpartaDisk(fast_assembler).superblock.root_map
    data = fast_assembler.read_sector(map_sector)
    lost = data[4] | data[5] << 8
    set_word(fast_assembler, map_sector, 4, root)  # its first data sector is the root's map
    found = kinds(fast_assembler)
    assert ProblemKind.CROSS_LINKED in found
    assert ProblemKind.LOST_SECTOR in found, lost


def test_used_sector_marked_free(fast_assembler: AtrImage) -> None:
    disk = SpartaDisk(fast_assembler)
    root = disk.superblock.root_map
    bitmap = disk.superblock.first_bitmap
    raw = bytearray(fast_assembler.read_sector(bitmap))
    raw[root // 8] |= 0x80 >> (root % 8)
    fast_assembler.write_sector(bitmap, bytes(raw))
    assert ProblemKind.USED_SECTOR_FREE in kinds(fast_assembler)


def test_a_bad_status(fast_assembler: AtrImage) -> None:
    disk = SpartaDisk(fast_assembler)
    first_data = disk.walk_map(disk.superblock.root_map).data_sectors[0]
    raw = bytearray(fast_assembler.read_sector(first_data))
    raw[23] = 0x18  # the first entry: in use and deleted at once
    fast_assembler.write_sector(first_data, bytes(raw))
    assert ProblemKind.BAD_FLAG in kinds(fast_assembler)


def test_512_byte_sectors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_disk("sdx-epi-512").write_to(tmp_path)
    status, out, _ = run(capsys, "ls", str(path))
    assert status == 0 and out.startswith("SpartaDOS X (720 sectors of 512 bytes), volume EPI")


def test_a_damaged_map_length_in_the_superblock_is_not_trusted() -> None:
    """Found by the long fuzzing run: SpartaDOS X's bytes 35-36 (entries per map sector)
    set to 127 made the reader unpack 254 bytes from a 128-byte sector (struct.error)."""
    image = corpus_disk("sdx-fa-sd").image()
    whole = {path: SpartaDisk(image).read_file(path) for path in SpartaDisk(image).paths()}
    set_word(image, 1, 35, 127)
    disk = SpartaDisk(image)
    assert {path: disk.read_file(path) for path in disk.paths()} == whole
    assert check_image(image).problems == []


@pytest.mark.parametrize("boot_sector", [1, 2, 3])
def test_maps_and_data_never_in_the_boot_sectors(
    fast_assembler: AtrImage, boot_sector: int
) -> None:
    """On a 256-byte disk the boot sectors hold 128 bytes: a map there would be read short."""
    path, map_sector = first_file(fast_assembler)
    set_word(fast_assembler, map_sector, 4, boot_sector)  # a data sector in the boot area
    with pytest.raises(SpartaError, match=f"sector {boot_sector}, a boot sector"):
        SpartaDisk(fast_assembler).read_file(path)
    assert ProblemKind.BAD_SECTOR_MAP in kinds(fast_assembler)
    set_word(fast_assembler, map_sector, 4, 0)
    set_word(fast_assembler, map_sector, 0, boot_sector)  # the next map sector
    walked = SpartaDisk(fast_assembler).walk_map(map_sector)  # no struct.error
    assert walked.fault == f"sector map reaches sector {boot_sector}, a boot sector"
