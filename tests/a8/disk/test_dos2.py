"""The ATR container and the DOS 2 file system: round trips and bad input."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from a8.disk.atr import AtrError, AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import (
    GEOMETRIES,
    Density,
    Dos2Disk,
    Dos2Error,
)
from a8.disk.names import FileName, FileNameError


def bitmap_free_count(disk: Dos2Disk) -> int:
    """Free sectors counted bit by bit in the raw VTOC bitmap bytes (10-99; VTOC2 84-121)."""
    count = sum(byte.bit_count() for byte in disk.image.read_sector(360)[10:100])
    if disk.geometry.has_vtoc2:
        count += sum(byte.bit_count() for byte in disk.image.read_sector(1024)[84:122])
    return count


def vtoc_free_count(disk: Dos2Disk) -> int:
    """The free count DOS prints: VTOC bytes 3-4, plus VTOC2 bytes 122-123 for DOS 2.5."""
    vtoc = disk.image.read_sector(360)
    count = vtoc[3] | vtoc[4] << 8
    if disk.geometry.has_vtoc2:
        vtoc2 = disk.image.read_sector(1024)
        count += vtoc2[122] | vtoc2[123] << 8
    return count


def reopen(disk: Dos2Disk) -> Dos2Disk:
    return Dos2Disk(AtrImage.from_bytes(disk.to_bytes()))


@pytest.mark.parametrize("density", list(Density))
def test_new_disk_has_the_dos_free_count(density: Density) -> None:
    disk = Dos2Disk.new(density)
    expected = {Density.SINGLE: 707, Density.ENHANCED: 1010, Density.DOUBLE: 707}[density]
    assert disk.free_sectors == expected == bitmap_free_count(disk) == vtoc_free_count(disk)
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


#: Sizes at the edges of a sector (125 or 253 data bytes), mixed with any size.
SIZES = st.one_of(
    st.sampled_from([0, 1, 124, 125, 126, 250, 251, 252, 253, 254, 255, 506, 507]),
    st.integers(0, 9000),
)
#: One operation: add FILE<n> with a size, add it with exactly the room left (the
#: disk is then full), add it one byte too big (refused), remove it.
OPERATIONS = st.tuples(st.sampled_from(["add", "fill", "overfill", "remove"]), st.integers(0, 5))


def assert_consistent(disk: Dos2Disk, model: dict[str, bytes]) -> None:
    """The check is clean, the free counts match the bitmaps, the files are the model's."""
    assert check_disk(disk) == []
    assert disk.free_sectors == vtoc_free_count(disk) == bitmap_free_count(disk)
    assert sorted(str(e.name) for e in disk.files()) == sorted(model)
    for name, data in model.items():
        assert disk.read_file(name) == data


def sectors_for(disk: Dos2Disk, name: str) -> int:
    """Sectors a file called ``name`` can take: the free ones plus those it would replace."""
    sectors = vtoc_free_count(disk)
    if any(str(e.name) == name for e in disk.files()):
        sectors += disk.find(name).sector_count
    return sectors


@settings(max_examples=60, deadline=None)
@given(
    density=st.sampled_from(list(Density)),
    operations=st.lists(st.tuples(OPERATIONS, SIZES), max_size=12),
)
@example(Density.SINGLE, [(("add", 0), 0), (("add", 1), 125), (("add", 2), 126), (("fill", 3), 0)])
@example(
    Density.ENHANCED, [(("add", 0), 0), (("add", 1), 125), (("add", 2), 126), (("fill", 3), 0)]
)
@example(Density.DOUBLE, [(("add", 0), 0), (("add", 1), 253), (("add", 2), 254), (("fill", 3), 0)])
@example(Density.ENHANCED, [(("fill", 0), 0), (("remove", 0), 0), (("overfill", 1), 0)])
@example(Density.SINGLE, [(("fill", 0), 0), (("add", 1), 0), (("remove", 2), 0)])
def test_random_operations_keep_the_disk_consistent(
    density: Density, operations: list[tuple[tuple[str, int], int]]
) -> None:
    """Any sequence of adds and removes, refused ones included.

    After each operation the check is clean, the free counts match the bitmaps and
    every file reads back; a refused operation leaves the image byte-identical.
    """
    disk = Dos2Disk.new(density)
    per_sector = disk.geometry.data_bytes
    model: dict[str, bytes] = {}
    for (action, number), size in operations:
        name = f"FILE{number}.BIN"
        before = disk.to_bytes()
        room = sectors_for(disk, name)
        if action == "fill":
            size = room * per_sector
        elif action == "overfill":
            size = room * per_sector + 1
        if action == "remove":
            refused = name not in model
            if refused:
                with pytest.raises(Dos2Error, match="no file"):
                    disk.remove_file(name)
            else:
                disk.remove_file(name)
                del model[name]
        else:
            data = bytes([number]) * size
            refused = max(1, -(-size // per_sector)) > room
            if refused:
                with pytest.raises(Dos2Error, match="disk full"):
                    disk.add_file(name, data)
            else:
                disk.add_file(name, data)
                model[name] = data
        if refused:
            assert disk.to_bytes() == before
        elif action == "fill":
            assert vtoc_free_count(disk) == 0
        assert_consistent(disk, model)
    assert_consistent(reopen(disk), model)


@pytest.mark.parametrize(
    "name", ["", "1ABC", "TOOLONGNAME", "A.LONG", "A-B", "Ä", "A.B.C", "A B", "ß", "A.", "É.BAS"]
)
def test_names_dos_refuses(name: str) -> None:
    with pytest.raises(FileNameError, match="file name"):
        FileName.parse(name)


def test_names_are_upper_cased_ascii_only() -> None:
    assert str(FileName.parse("machfsol.1")) == "MACHFSOL.1"
    with pytest.raises(FileNameError, match="'ß' is not a letter or digit"):
        FileName.parse("maß")  # "ß".upper() is "SS": never transliterated


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not an ATR image"),
        (b"\x00" * 32, "not an ATR image"),
        (b"\x96\x02\x00\x00\x80\x00" + bytes(10), "no sectors after the header"),
    ],
)
def test_bad_images(data: bytes, message: str) -> None:
    with pytest.raises(AtrError, match=message):
        AtrImage.from_bytes(data, "BAD.ATR")


def test_unsupported_sector_size() -> None:
    data = bytearray(Dos2Disk.new().to_bytes())
    data[4:6] = (1024).to_bytes(2, "little")
    with pytest.raises(AtrError, match="sector size 1024"):
        AtrImage.from_bytes(bytes(data), "BAD.ATR")


def test_not_a_dos2_disk() -> None:
    image = AtrImage.blank(100, 128, "SMALL.ATR")
    with pytest.raises(Dos2Error, match="not a DOS 2 disk: no file system I know"):
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
