"""Every problem kind the file system check knows is found on a disk corrupted on purpose."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import ProblemKind, check_disk
from a8.disk.dos2 import Density, Dos2Disk


def patch(disk: Dos2Disk, sector: int, offset: int, values: bytes) -> None:
    raw = bytearray(disk.image.read_sector(sector))
    raw[offset : offset + len(values)] = values
    disk.image.write_sector(sector, bytes(raw))


def two_files(density: Density = Density.SINGLE) -> Dos2Disk:
    """ONE.DAT in sectors 4, 5, 6 (file 0) and TWO.DAT in sector 7 (file 1), any density."""
    disk = Dos2Disk.new(density)
    disk.add_file("ONE.DAT", bytes(2 * disk.geometry.data_bytes + 50))
    disk.add_file("TWO.DAT", bytes(10))
    return disk


def reread(disk: Dos2Disk) -> Dos2Disk:
    return Dos2Disk(disk.image)


def entry_offset(number: int) -> tuple[int, int]:
    return 361 + number // 8, (number % 8) * 16


def set_flag(disk: Dos2Disk, number: int, flag: int) -> None:
    sector, offset = entry_offset(number)
    patch(disk, sector, offset, bytes([flag]))


def set_link(disk: Dos2Disk, sector: int, link: bytes) -> None:
    """Overwrite the first bytes of the link that ends ``sector`` (125 or 253 bytes in)."""
    patch(disk, sector, {128: 125, 256: 253}[disk.image.size_of(sector)], link)


CORRUPTIONS: dict[ProblemKind, Callable[[Dos2Disk], None]] = {
    ProblemKind.VTOC_DOS_CODE: lambda d: patch(d, 360, 0, b"\x00"),
    ProblemKind.VTOC_CAPACITY: lambda d: patch(d, 360, 1, (700).to_bytes(2, "little")),
    ProblemKind.FREE_COUNT: lambda d: patch(d, 360, 3, (1).to_bytes(2, "little")),
    ProblemKind.SYSTEM_SECTOR_FREE: lambda d: patch(d, 360, 10 + 45, b"\x80"),
    ProblemKind.BAD_FLAG: lambda d: set_flag(d, 1, 0x02),
    ProblemKind.FILE_OPEN: lambda d: set_flag(d, 1, 0x43),
    ProblemKind.BAD_NAME: lambda d: patch(d, 361, 16 + 5, b"B\x9bD     "),
    ProblemKind.DUPLICATE_NAME: lambda d: patch(d, 361, 16 + 5, b"ONE     "),
    ProblemKind.ENTRY_AFTER_END: lambda d: set_flag(d, 0, 0x00),
    ProblemKind.CHAIN_OUT_OF_RANGE: lambda d: patch(d, 361, 16 + 3, (2000).to_bytes(2, "little")),
    ProblemKind.CHAIN_LOOP: lambda d: set_link(d, 5, b"\x00\x04"),
    ProblemKind.CHAIN_SYSTEM_SECTOR: lambda d: set_link(d, 6, b"\x01\x68"),
    ProblemKind.BAD_FILE_NUMBER: lambda d: set_link(d, 7, b"\x0c"),
    ProblemKind.BAD_BYTE_COUNT: lambda d: set_link(d, 7, b"\x04\x00\xff"),
    ProblemKind.CROSS_LINKED: lambda d: patch(d, 361, 16 + 3, (5).to_bytes(2, "little")),
    ProblemKind.WRONG_SECTOR_COUNT: lambda d: patch(d, 361, 1, (9).to_bytes(2, "little")),
    ProblemKind.USED_SECTOR_FREE: lambda d: patch(d, 360, 10, b"\x0f"),
    ProblemKind.LOST_SECTOR: lambda d: patch(d, 360, 11, b"\x7f"),
}


#: Kinds found by the tests further down (DOS 2.5 only, MyDOS only, SpartaDOS, the image),
#: by test_damaged_vtoc.py (a VTOC that does not read as one) and by test_dos3.py.
KINDS_TESTED_BELOW = {
    ProblemKind.VTOC_UNREADABLE,
    ProblemKind.BAD_BLOCK_TABLE,
    ProblemKind.BAD_FILE_SIZE,
    ProblemKind.VTOC2_MIRROR,
    ProblemKind.HIGH_FLAG,
    ProblemKind.BOOT_MENU,
    ProblemKind.ATR_SIZE,
    ProblemKind.BAD_DIRECTORY,
    ProblemKind.SECTOR_COUNT,
    ProblemKind.BAD_SECTOR_MAP,
}


def test_every_kind_has_a_corruption() -> None:
    assert set(CORRUPTIONS) | KINDS_TESTED_BELOW == set(ProblemKind)


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize("kind", list(CORRUPTIONS), ids=lambda k: k.value)
def test_corruption_is_found(kind: ProblemKind, density: Density) -> None:
    disk = two_files(density)
    assert check_disk(disk) == []
    CORRUPTIONS[kind](disk)
    found = {problem.kind for problem in check_disk(reread(disk))}
    assert kind in found


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize(
    ("target", "role"), [(360, "VTOC"), (2, "boot"), (365, "directory")], ids=str
)
def test_a_chain_through_a_system_sector_is_reported_not_followed(
    density: Density, target: int, role: str
) -> None:
    disk = two_files(density)
    set_link(disk, 6, bytes([target >> 8, target & 0xFF]))  # ONE.DAT's last sector
    problems = check_disk(reread(disk))
    found = [p for p in problems if p.kind is ProblemKind.CHAIN_SYSTEM_SECTOR]
    assert len(found) == 1 and f"sector {target}, a {role} sector" in found[0].message
    assert not any(p.kind is ProblemKind.CROSS_LINKED for p in problems)


def test_sector_720_is_a_system_sector_on_dos_2_5() -> None:
    disk = two_files(Density.ENHANCED)
    set_link(disk, 6, b"\x02\xd0")  # 720
    found = [p for p in check_disk(reread(disk)) if p.kind is ProblemKind.CHAIN_SYSTEM_SECTOR]
    assert len(found) == 1 and "sector 720, a reserved sector" in found[0].message


def test_a_link_beyond_single_density() -> None:
    disk = two_files()
    set_link(disk, 4, b"\x03\xff")  # next sector 1023: DOS 2.0S stops at 719
    found = [p for p in check_disk(reread(disk)) if p.kind is ProblemKind.CHAIN_OUT_OF_RANGE]
    assert len(found) == 1 and "sector 1023, outside the data sectors 1..719" in found[0].message


def full_enhanced_disk() -> Dos2Disk:
    """A DOS 2.5 disk whose one file BIG uses every sector, 720 and up included."""
    disk = Dos2Disk.new(Density.ENHANCED)
    disk.add_file("BIG", bytes(disk.free_sectors * disk.geometry.data_bytes))
    assert check_disk(disk) == []
    return disk


def test_vtoc2_mirror() -> None:
    disk = full_enhanced_disk()
    patch(disk, 1024, 0, b"\xff")
    found = {problem.kind for problem in check_disk(reread(disk))}
    assert ProblemKind.VTOC2_MIRROR in found


def test_vtoc2_free_count() -> None:
    disk = full_enhanced_disk()
    patch(disk, 1024, 122, (5).to_bytes(2, "little"))
    problems = [p for p in check_disk(reread(disk)) if p.kind is ProblemKind.FREE_COUNT]
    assert len(problems) == 1 and "VTOC2 sector 1024 bytes 122-123" in problems[0].message


def test_high_flag_missing() -> None:
    disk = full_enhanced_disk()
    set_flag(disk, 0, 0x42)  # uses 720+, but flagged as a DOS 2.0 file
    found = {problem.kind for problem in check_disk(reread(disk))}
    assert ProblemKind.HIGH_FLAG in found


def test_high_flag_without_high_sectors() -> None:
    disk = two_files(Density.ENHANCED)
    set_flag(disk, 1, 0x03)  # TWO.DAT lives in sector 7
    found = {problem.kind for problem in check_disk(reread(disk))}
    assert ProblemKind.HIGH_FLAG in found


def test_the_03_flag_is_bad_on_a_dos_2_0_disk() -> None:
    disk = two_files(Density.SINGLE)
    set_flag(disk, 1, 0x03)
    found = {problem.kind for problem in check_disk(reread(disk))}
    assert ProblemKind.BAD_FLAG in found


def test_problem_lines_name_the_disk() -> None:
    disk = two_files()
    CORRUPTIONS[ProblemKind.CHAIN_LOOP](disk)
    lines = [str(p) for p in check_disk(reread(disk))]
    assert lines and all(line.startswith("<image>: ") and "\n" not in line for line in lines)


def test_stale_boot_menu() -> None:
    disk = two_files()
    install_boot_menu(disk, [MenuEntry.parse("ONE.DAT"), MenuEntry.parse("TWO.DAT")], "T")
    assert check_disk(disk) == []
    disk.remove_file("TWO.DAT")  # entry 2 now loads a free sector
    problems = [p for p in check_disk(disk) if p.kind is ProblemKind.BOOT_MENU]
    assert len(problems) == 1 and "entry 2" in problems[0].message
