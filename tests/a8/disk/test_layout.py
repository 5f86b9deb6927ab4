"""The bytes on disk, checked against offsets and values worked out by hand.

The round-trip tests read images back with our own reader, which would agree with
a writer that put everything in the wrong place. These tests look at the raw ATR
bytes instead: every offset and value below is computed by hand from the format
(16-byte header; sectors of 128 bytes, or 256 from sector 4 in double density) and
written out literally, not derived from the code under test.
"""

from __future__ import annotations

import pytest

from a8.disk.dos2 import Density, Dos2Disk

# Byte offsets in the .ATR file of the sectors used below (header included).
SD_SECTOR_4 = 16 + 3 * 128  # 400
SD_SECTOR_5 = 528
SD_SECTOR_6 = 656
SD_SECTOR_7 = 784
SD_SECTOR_359 = 16 + 358 * 128  # 45840
SD_VTOC = 16 + 359 * 128  # 45968
SD_DIRECTORY = 16 + 360 * 128  # 46096
ED_SECTOR_719 = 16 + 718 * 128  # 91920
ED_SECTOR_721 = 16 + 720 * 128  # 92176
ED_SECTOR_722 = 92304
ED_VTOC2 = 16 + 1023 * 128  # 130960
DD_SECTOR_4 = 16 + 3 * 128  # 400: sectors 1-3 are 128 bytes
DD_SECTOR_5 = 400 + 256
DD_VTOC = 16 + 3 * 128 + 356 * 256  # 91536
DD_DIRECTORY = DD_VTOC + 256  # 91792


@pytest.mark.parametrize(
    ("density", "header", "length"),
    [
        # 720 x 128 = 92160 bytes = 5760 (0x1680) paragraphs
        (Density.SINGLE, "96 02 80 16 80 00 00", 92176),
        # 1040 x 128 = 133120 bytes = 8320 (0x2080) paragraphs
        (Density.ENHANCED, "96 02 80 20 80 00 00", 133136),
        # 3 x 128 + 717 x 256 = 183936 bytes = 11496 (0x2CE8) paragraphs, 256-byte sectors
        (Density.DOUBLE, "96 02 E8 2C 00 01 00", 183952),
    ],
)
def test_atr_header(density: Density, header: str, length: int) -> None:
    data = Dos2Disk.new(density).to_bytes()
    assert data[:16] == bytes.fromhex(header) + bytes(9)
    assert len(data) == length


def new_vtoc(capacity: bytes) -> bytes:
    """The VTOC of a freshly formatted disk: 707 free, boot/VTOC/directory in use."""
    bitmap = (
        b"\x0f"  # sectors 0-3 in use, 4-7 free
        + b"\xff" * 44  # 8-359 free
        + b"\x00"  # 360-367: VTOC and directory
        + b"\x7f"  # 368 directory, 369-375 free
        + b"\xff" * 43  # 376-719 free
    )
    return b"\x02" + capacity + b"\xc3\x02" + bytes(5) + bitmap + bytes(28)


@pytest.mark.parametrize(
    ("density", "vtoc_offset", "capacity"),
    [
        (Density.SINGLE, SD_VTOC, b"\xc3\x02"),  # 707
        (Density.ENHANCED, SD_VTOC, b"\xf2\x03"),  # 1010
        (Density.DOUBLE, DD_VTOC, b"\xc3\x02"),
    ],
)
def test_new_disk_vtoc_and_empty_directory(
    density: Density, vtoc_offset: int, capacity: bytes
) -> None:
    data = Dos2Disk.new(density).to_bytes()
    assert data[vtoc_offset : vtoc_offset + 128] == new_vtoc(capacity)
    sector = 256 if density is Density.DOUBLE else 128
    directory = vtoc_offset + sector
    assert data[directory : directory + 8 * sector] == bytes(8 * sector)


def test_new_enhanced_disk_second_vtoc() -> None:
    data = Dos2Disk.new(Density.ENHANCED).to_bytes()
    vtoc2 = data[ED_VTOC2 : ED_VTOC2 + 128]
    assert vtoc2[0:84] == data[SD_VTOC + 16 : SD_VTOC + 100]  # sectors 48-719 repeated
    assert vtoc2[84] == 0x7F  # 720 kept in use, 721-727 free
    assert vtoc2[85:122] == b"\xff" * 37  # 728-1023 free
    assert vtoc2[122:124] == b"\x2f\x01"  # 303 free above 719
    assert vtoc2[124:] == bytes(4)


def test_single_density_files_entries_and_links() -> None:
    disk = Dos2Disk.new()
    first = bytes(range(256)) + bytes(range(44))  # 300 bytes: 125 + 125 + 50
    disk.add_file("ONE.DAT", first)
    disk.add_file("TWO.DAT", b"0123456789")
    data = disk.to_bytes()
    # Directory: flag 0x42, 3 sectors, first sector 4, name and extension padded.
    assert data[SD_DIRECTORY : SD_DIRECTORY + 16] == b"\x42\x03\x00\x04\x00ONE     DAT"
    assert data[SD_DIRECTORY + 16 : SD_DIRECTORY + 32] == b"\x42\x01\x00\x07\x00TWO     DAT"
    assert data[SD_DIRECTORY + 32] == 0x00  # the end of the directory
    # Data sectors: file number << 2 | next >> 8, next & 0xFF, bytes used.
    assert data[SD_SECTOR_4 : SD_SECTOR_4 + 125] == first[:125]
    assert data[SD_SECTOR_4 + 125 : SD_SECTOR_4 + 128] == b"\x00\x05\x7d"
    assert data[SD_SECTOR_5 : SD_SECTOR_5 + 125] == first[125:250]
    assert data[SD_SECTOR_5 + 125 : SD_SECTOR_5 + 128] == b"\x00\x06\x7d"
    assert data[SD_SECTOR_6 : SD_SECTOR_6 + 128] == first[250:] + bytes(75) + b"\x00\x00\x32"
    assert data[SD_SECTOR_7 : SD_SECTOR_7 + 128] == b"0123456789" + bytes(115) + b"\x04\x00\x0a"
    # VTOC: 703 free (0x2BF), sectors 4-7 now in use.
    assert data[SD_VTOC + 3 : SD_VTOC + 5] == b"\xbf\x02"
    assert data[SD_VTOC + 10] == 0x00


def test_deleted_entry_is_flagged_and_reused() -> None:
    disk = Dos2Disk.new()
    disk.add_file("ONE.DAT", bytes(300))
    disk.add_file("TWO.DAT", bytes(10))
    disk.remove_file("ONE.DAT")
    data = disk.to_bytes()
    assert data[SD_DIRECTORY] == 0x80  # deleted; the rest of the entry is kept
    assert data[SD_DIRECTORY + 5 : SD_DIRECTORY + 16] == b"ONE     DAT"
    assert data[SD_VTOC + 3 : SD_VTOC + 5] == b"\xc2\x02"  # 706 free
    assert data[SD_VTOC + 10] == 0x0E  # 4-6 free again, 7 in use
    disk.add_file("NEW", b"x")
    data = disk.to_bytes()
    assert data[SD_DIRECTORY : SD_DIRECTORY + 16] == b"\x42\x01\x00\x04\x00NEW        "


def test_double_density_links_at_the_end_of_256_byte_sectors() -> None:
    disk = Dos2Disk.new(Density.DOUBLE)
    content = bytes(i % 256 for i in range(300))  # 253 + 47
    disk.add_file("ONE.DAT", content)
    data = disk.to_bytes()
    assert data[DD_DIRECTORY : DD_DIRECTORY + 16] == b"\x42\x02\x00\x04\x00ONE     DAT"
    assert data[DD_SECTOR_4 : DD_SECTOR_4 + 253] == content[:253]
    assert data[DD_SECTOR_4 + 253 : DD_SECTOR_4 + 256] == b"\x00\x05\xfd"
    assert data[DD_SECTOR_5 : DD_SECTOR_5 + 256] == content[253:] + bytes(206) + b"\x00\x00\x2f"
    assert data[DD_VTOC + 3 : DD_VTOC + 5] == b"\xc1\x02"  # 705 free


def test_enhanced_density_high_sectors_and_the_03_flag() -> None:
    disk = Dos2Disk.new(Density.ENHANCED)
    disk.add_file("BIG", bytes(708 * 125))  # every sector below 720, then 721
    disk.add_file("B", bytes(200))  # 722, 723
    data = disk.to_bytes()
    # 708 sectors (0x2C4) from sector 4, flagged 0x03: it uses sectors 720 and up.
    assert data[SD_DIRECTORY : SD_DIRECTORY + 16] == b"\x03\xc4\x02\x04\x00BIG        "
    assert data[SD_DIRECTORY + 16 : SD_DIRECTORY + 21] == b"\x03\x02\x00\xd2\x02"  # 722
    # 359 links over the VTOC and directory to 369 (0x171); 719 skips 720 for 721 (0x2D1).
    assert data[SD_SECTOR_359 + 125 : SD_SECTOR_359 + 128] == b"\x01\x71\x7d"
    assert data[ED_SECTOR_719 + 125 : ED_SECTOR_719 + 128] == b"\x02\xd1\x7d"
    assert data[ED_SECTOR_721 + 125 : ED_SECTOR_721 + 128] == b"\x00\x00\x7d"
    # File number 1 and the next sector's top bits share a byte: 1 << 2 | 2.
    assert data[ED_SECTOR_722 + 125 : ED_SECTOR_722 + 128] == b"\x06\xd3\x7d"
    assert data[SD_VTOC + 3 : SD_VTOC + 5] == b"\x00\x00"  # nothing free below 720
    assert data[SD_VTOC + 10 : SD_VTOC + 100] == bytes(90)
    vtoc2 = data[ED_VTOC2 : ED_VTOC2 + 128]
    assert vtoc2[0:84] == bytes(84)
    assert vtoc2[84] == 0x0F  # 720-723 in use, 724-727 free
    assert vtoc2[122:124] == b"\x2c\x01"  # 300 free above 719
