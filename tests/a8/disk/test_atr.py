"""The ATR container as real images have it: header bytes kept, odd layouts, odd sizes."""

from __future__ import annotations

import pytest

from a8.disk.atr import AtrError, AtrImage, BootLayout
from a8.disk.check import ProblemKind, check_image
from a8.disk.detect import identify, open_disk
from a8.disk.dos2 import Density, Dos2Disk


def header(size: int, sector_size: int, extra: bytes = bytes(9)) -> bytes:
    paragraphs = size // 16
    return (
        b"\x96\x02"
        + (paragraphs & 0xFFFF).to_bytes(2, "little")
        + sector_size.to_bytes(2, "little")
        + bytes([paragraphs >> 16])
        + extra
    )


def numbered_sectors(count: int, size: int) -> list[bytes]:
    """Sector n holds n in every byte (boot sectors 128 bytes), to see where each lands."""
    return [bytes([n % 256]) * (128 if n <= 3 else size) for n in range(1, count + 1)]


def test_bytes_7_to_15_are_kept_by_every_change() -> None:
    disk = Dos2Disk.new()
    extra = bytes([0, 2, 0, 0, 0x55, 0, 0, 0, 1])
    data = header(92160, 128, extra) + disk.to_bytes()[16:]
    image = AtrImage.from_bytes(data, "X.ATR")
    assert image.write_protected
    changed = Dos2Disk(image)
    changed.add_file("NEW.DAT", b"data")
    assert changed.to_bytes()[:16] == data[:16]


def test_short_boot_sectors_in_double_density() -> None:
    sectors = numbered_sectors(720, 256)
    image = AtrImage.from_bytes(header(183936, 256) + b"".join(sectors), "DD.ATR")
    assert image.layout is BootLayout.SHORT and image.sector_count == 720
    assert image.read_sector(2) == bytes([2]) * 128 and image.read_sector(4) == bytes([4]) * 256


def test_boot_sectors_packed_in_256_byte_slots() -> None:
    """SIO2PC's layout: 3 x 128 bytes, then 384 zero bytes, then sector 4 at byte 768."""
    sectors = numbered_sectors(720, 256)
    body = b"".join(sectors[:3]) + bytes(384) + b"".join(sectors[3:])
    image = AtrImage.from_bytes(header(184320, 256) + body, "PACKED.ATR")
    assert image.layout is BootLayout.PACKED and image.sector_count == 720
    assert [image.read_sector(n)[0] for n in (1, 2, 3, 4, 720)] == [1, 2, 3, 4, 720 % 256]
    image.write_sector(4, b"\xaa" * 256)
    assert image.to_bytes()[16 + 768 : 16 + 768 + 256] == b"\xaa" * 256


def test_boot_sectors_each_in_its_own_slot() -> None:
    sectors = numbered_sectors(720, 256)
    body = b"".join(s.ljust(256, b"\0") for s in sectors)
    image = AtrImage.from_bytes(header(184320, 256) + body, "SLOTTED.ATR")
    assert image.layout is BootLayout.SLOTTED
    assert [image.read_sector(n)[0] for n in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert image.size_of(2) == 128


def test_a_header_larger_than_the_file() -> None:
    """The FujiNet mount-and-boot image: 92160 bytes declared, 512 there. The disk is
    the header's; the sectors the file lacks are missing, not blank."""
    boot = bytes([0, 4, 0, 7]) + bytes(508)
    image = AtrImage.from_bytes(header(92160, 128) + boot, "SHORT.ATR")
    assert (image.sector_count, image.whole_sectors) == (720, 4)
    assert image.size_mismatch() == "header says 92160 bytes of sectors, the file has only 512"
    assert image.truncation() == (
        "the file holds 4 of the 720 sectors its header declares (92160 bytes; the file has 512)"
    )
    assert image.read_sector(4) == bytes(128)
    with pytest.raises(AtrError, match="sector 5 is not in the file: it holds 4 of the 720"):
        image.read_sector(5)
    assert {p.kind for p in check_image(image).problems} == {ProblemKind.ATR_SIZE}
    with pytest.raises(AtrError, match="not changing an image of unclear size"):
        image.check_writable()


def test_a_truncated_disk_is_named_by_its_header_size() -> None:
    """A DOS 2 disk cut short after its directory (a download that stopped): still
    DOS 2.0S, its files on the sectors present read; the check names the first sector
    it misses."""
    disk = Dos2Disk.new(Density.SINGLE)
    disk.add(disk.new_file("A.TXT"), b"hello" * 10)
    data = disk.to_bytes()[: 16 + 400 * 128]
    image = AtrImage.from_bytes(data, "CUT.ATR")
    assert identify(image).name == "DOS 2.0S"
    assert open_disk(image).read_file("A.TXT") == b"hello" * 10
    problems = check_image(image).problems
    assert [p.kind for p in problems] == [ProblemKind.ATR_SIZE] * 2
    assert "is not in the file: it holds 400 of the 720 sectors" in str(problems[1])


def test_a_partial_last_sector_is_not_in_the_file_and_is_never_written() -> None:
    data = Dos2Disk.new().to_bytes()[:-50]
    image = AtrImage.from_bytes(data, "CUT.ATR")
    assert (image.sector_count, image.whole_sectors) == (720, 719)
    with pytest.raises(AtrError, match="sector 720 is not in the file"):
        image.read_sector(720)
    with pytest.raises(AtrError, match="unclear size"):
        image.check_writable(force=True)


def test_bytes_after_the_declared_size_are_not_sectors() -> None:
    data = Dos2Disk.new(Density.SINGLE).to_bytes() + b"\x01" * 128
    image = AtrImage.from_bytes(data, "LONG.ATR")
    assert image.sector_count == 720 and image.to_bytes() == data
    assert "the file has 92288" in str(image.size_mismatch())
    assert check_image(image).identity.name == "DOS 2.0S"
