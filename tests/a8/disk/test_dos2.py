"""The ATR container and the DOS 2 file system: round trips and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.disk.atr import AtrError, AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import (
    GEOMETRIES,
    Density,
    Dos2Disk,
    Dos2Error,
    FileName,
    bitmap_sectors,
)


def bitmap_free_count(disk: Dos2Disk) -> int:
    """Free sectors counted straight from the VTOC bitmap bytes."""
    vtoc = disk.image.read_sector(360)
    count = sum(1 for _ in bitmap_sectors(vtoc, 10, 0, 720))
    if disk.geometry.has_vtoc2:
        count += sum(1 for _ in bitmap_sectors(disk.image.read_sector(1024), 84, 720, 1024))
    return count


def reopen(disk: Dos2Disk) -> Dos2Disk:
    return Dos2Disk(AtrImage.from_bytes(disk.to_bytes()))


@pytest.mark.parametrize("density", list(Density))
def test_new_disk_has_the_dos_free_count(density: Density) -> None:
    disk = Dos2Disk.new(density)
    expected = {Density.SINGLE: 707, Density.ENHANCED: 1010, Density.DOUBLE: 707}[density]
    assert disk.free_sectors == expected == bitmap_free_count(disk)
    assert check_disk(disk) == []
    assert disk.files() == []


def test_header_and_double_density_boot_sectors() -> None:
    data = Dos2Disk.new(Density.DOUBLE).to_bytes()
    assert data[0:2] == b"\x96\x02"
    assert len(data) == 16 + 3 * 128 + 717 * 256
    paragraphs = (data[2] | data[3] << 8) | data[6] << 16
    assert paragraphs * 16 == len(data) - 16
    assert data[4:6] == (256).to_bytes(2, "little")
    assert data[7:16] == bytes(9)
    image = AtrImage.from_bytes(data)
    assert image.size_of(3) == 128 and image.size_of(4) == 256


def test_single_density_vtoc_layout() -> None:
    vtoc = Dos2Disk.new().image.read_sector(360)
    assert vtoc[0] == 2
    assert vtoc[1] | vtoc[2] << 8 == 707
    assert vtoc[3] | vtoc[4] << 8 == 707
    assert vtoc[10] == 0x0F  # sectors 0-3 in use, 4-7 free
    assert vtoc[10 + 45] == 0x00  # sectors 360-367 in use
    assert vtoc[10 + 46] == 0x7F  # 368 in use, 369-375 free


@pytest.mark.parametrize("size", [0, 1, 124, 125, 126, 250, 251, 252, 253, 254, 5000])
@pytest.mark.parametrize("density", list(Density))
def test_round_trip_of_edge_sizes(density: Density, size: int) -> None:
    data = bytes((i * 7 + 3) % 256 for i in range(size))
    disk = Dos2Disk.new(density)
    entry = disk.add_file("EDGE.DAT", data)
    expected_sectors = max(1, -(-size // disk.geometry.data_bytes))
    assert entry.sector_count == expected_sectors
    disk = reopen(disk)
    assert disk.read_file("EDGE.DAT") == data
    assert [str(e.name) for e in disk.files()] == ["EDGE.DAT"]
    assert check_disk(disk) == []
    disk.remove_file("EDGE.DAT")
    assert disk.free_sectors == GEOMETRIES[density].capacity == bitmap_free_count(disk)
    assert check_disk(disk) == []


@pytest.mark.parametrize("density", list(Density))
def test_a_full_disk(density: Density) -> None:
    disk = Dos2Disk.new(density)
    size = disk.free_sectors * disk.geometry.data_bytes
    data = bytes(i % 251 for i in range(size))
    entry = disk.add_file("FULL", data)
    assert disk.free_sectors == 0 == bitmap_free_count(disk)
    if density is Density.ENHANCED:
        assert entry.flag == 0x03  # uses sectors 720+
    assert check_disk(disk) == []
    with pytest.raises(Dos2Error, match="disk full"):
        disk.add_file("MORE", b"x")
    assert reopen(disk).read_file("FULL") == data


@settings(max_examples=40, deadline=None)
@given(
    density=st.sampled_from(list(Density)),
    operations=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 9000), st.booleans()), max_size=12
    ),
)
def test_random_operations_keep_the_disk_consistent(
    density: Density, operations: list[tuple[int, int, bool]]
) -> None:
    disk = Dos2Disk.new(density)
    model: dict[str, bytes] = {}
    for number, size, remove in operations:
        name = f"FILE{number}.BIN"
        if remove and name in model:
            disk.remove_file(name)
            del model[name]
        else:
            data = bytes([number]) * size
            try:
                disk.add_file(name, data)
            except Dos2Error:
                model.pop(name, None)  # replaced file was removed before the failure
                disk = reopen(disk)
                continue
            model[name] = data
        assert check_disk(disk) == []
        assert disk.free_sectors == bitmap_free_count(disk)
    disk = reopen(disk)
    assert {str(e.name) for e in disk.files()} == set(model)
    for name, data in model.items():
        assert disk.read_file(name) == data


@pytest.mark.parametrize("name", ["", "1ABC", "TOOLONGNAME", "A.LONG", "A-B", "Ä", "A.B.C", "A B"])
def test_names_dos_refuses(name: str) -> None:
    with pytest.raises(Dos2Error, match="file name"):
        FileName.parse(name)


def test_names_are_upper_cased() -> None:
    assert str(FileName.parse("machfsol.1")) == "MACHFSOL.1"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not an ATR image"),
        (b"\x00" * 32, "not an ATR image"),
        (Dos2Disk.new().to_bytes()[:-5], "truncated"),
        (Dos2Disk.new().to_bytes() + b"xx", "after the last sector"),
    ],
)
def test_bad_images(data: bytes, message: str) -> None:
    with pytest.raises(AtrError, match=message):
        AtrImage.from_bytes(data, "BAD.ATR")


def test_wrong_sector_size() -> None:
    data = bytearray(Dos2Disk.new().to_bytes())
    data[4:6] = (512).to_bytes(2, "little")
    with pytest.raises(AtrError, match="sector size 512"):
        AtrImage.from_bytes(bytes(data), "BAD.ATR")


def test_not_a_dos2_geometry() -> None:
    image = AtrImage.blank(100, 128, "SMALL.ATR")
    with pytest.raises(Dos2Error, match="not a DOS 2 disk"):
        Dos2Disk(image)


def test_missing_and_locked_files() -> None:
    disk = Dos2Disk.new()
    with pytest.raises(Dos2Error, match="no file NOPE"):
        disk.read_file("NOPE")
    disk.add_file("KEEP", b"x")
    disk.set_locked("KEEP", True)
    with pytest.raises(Dos2Error, match="locked"):
        disk.remove_file("KEEP")
    assert check_disk(disk) == []


def test_directory_full() -> None:
    disk = Dos2Disk.new()
    for number in range(64):
        disk.add_file(f"F{number}", b"")
    with pytest.raises(Dos2Error, match="directory full"):
        disk.add_file("ONEMORE", b"")
    assert check_disk(disk) == []
