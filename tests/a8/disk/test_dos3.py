"""Atari DOS 3: disks assembled here byte by byte from the format's description, read back.

No DOS 3 disk image with a licence that lets it ship was found in a public
repository (see docs/notes/2026-12-02-dos3.md), so the disks are built here, every
byte placed by hand from the documented layout and written out literally, not
with the reader under test: a reader that put anything in the wrong place would
not read these files back.

The layout (docs/notes/disk-formats.md, tools/a8/disk/dos3.py): 128-byte sectors; sectors 1-9
boot, 16-23 directory (entry 0 a header: 14 zeros, the block count, $A5), 24 the
block table (one byte per block: next block, $FD last, $FE free, $FF none);
block n is sectors 25 + 8n to 32 + 8n.
"""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import ProblemKind, check_image
from a8.disk.detect import identify, open_disk
from a8.disk.dos3 import Dos3Disk, Dos3Error
from a8.errors import A8Error
from tests.fuzz import atr_regions, atr_target, fuzz, scan

HEADER = 16
SECTOR = 128


def offset(sector: int) -> int:
    """Where sector ``sector`` starts in the .ATR file (16-byte header, 128-byte sectors)."""
    return HEADER + (sector - 1) * SECTOR


def block_offset(block: int) -> int:
    return offset(25 + 8 * block)


#: The files on the test disk, their content made from their name so that a block
#: read from the wrong place shows.
HELLO = b"HELLO"
PROGRAM = bytes((i * 7 + 3) % 256 for i in range(2500))  # blocks 1, 2 and 5: 1024+1024+452
BIG = bytes((i * 13 + i // 1024) % 256 for i in range(67_484))  # 66 blocks, over 64 KB


def dos3_disk(sectors: int = 720) -> bytearray:
    """A DOS 3 disk of ``sectors`` sectors (720: 87 blocks; 1040: 127 blocks) with:

    entry 1  $C0 HELLO.TXT  1 block  (block 0)          5 bytes
    entry 2  $C2 PROG.BAS   3 blocks (blocks 1, 2, 5)   2500 bytes, locked
    entry 3  $80 OLD.DAT    deleted (it was block 3, now free)
    entry 4  $C0 EMPTY      1 block  (block 4)          0 bytes (every file has a block)
    entry 5  $C0 BIG.DAT    66 blocks (6-71)            67,484 bytes: 1,948 kept in 16 bits
    entry 6  $00            the end of the directory
    """
    blocks = (sectors - 24) // 8
    data = bytearray(HEADER + sectors * SECTOR)
    # ATR header: magic 96 02, size in 16-byte paragraphs, sector size 128.
    struct.pack_into("<HHH", data, 0, 0x0296, sectors * SECTOR // 16 & 0xFFFF, SECTOR)
    # Sector 1: boot record: flag 1, 9 boot sectors, load at $3200, init at $3206.
    data[offset(1) : offset(1) + 6] = b"\x01\x09\x00\x32\x06\x32"
    directory = offset(16)
    # Entry 0: the header: 14 zero bytes, the block count, $A5.
    data[directory + 14 : directory + 16] = bytes([blocks, 0xA5])
    entries = [
        b"\xc0HELLO   TXT\x01\x00" + struct.pack("<H", 5),
        b"\xc2PROG    BAS\x03\x01" + struct.pack("<H", 2500),
        b"\x80OLD     DAT\x01\x03" + struct.pack("<H", 40),
        b"\xc0EMPTY      \x01\x04" + struct.pack("<H", 0),
        b"\xc0BIG     DAT\x42\x06" + struct.pack("<H", 67_484 & 0xFFFF),
    ]
    for number, entry in enumerate(entries, start=1):
        data[directory + 16 * number : directory + 16 * (number + 1)] = entry
    # Sector 24: the block table.
    table = bytearray([0xFE] * blocks + [0xFF] * (128 - blocks))
    table[0] = 0xFD  # HELLO.TXT: one block
    table[1], table[2], table[5] = 2, 5, 0xFD  # PROG.BAS: 1 -> 2 -> 5
    table[4] = 0xFD  # EMPTY
    for block in range(6, 71):
        table[block] = block + 1  # BIG.DAT: 6 -> 7 -> ... -> 71
    table[71] = 0xFD
    data[offset(24) : offset(24) + 128] = table
    # The files' bytes, block by block.
    data[block_offset(0) : block_offset(0) + 5] = HELLO
    for index, block in enumerate((1, 2, 5)):
        chunk = PROGRAM[index * 1024 : (index + 1) * 1024]
        data[block_offset(block) : block_offset(block) + len(chunk)] = chunk
    data[block_offset(3) : block_offset(3) + 40] = b"deleted " * 5
    for index in range(66):
        chunk = BIG[index * 1024 : (index + 1) * 1024]
        data[block_offset(6 + index) : block_offset(6 + index) + len(chunk)] = chunk
    return data


FILES = {"HELLO.TXT": HELLO, "PROG.BAS": PROGRAM, "EMPTY": b"", "BIG.DAT": BIG}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


def image_of(data: bytes | bytearray) -> AtrImage:
    return AtrImage.from_bytes(bytes(data), "D3.ATR")


@pytest.mark.parametrize(("sectors", "blocks"), [(720, 87), (1040, 127)])
def test_listed_and_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sectors: int, blocks: int
) -> None:
    path = tmp_path / "D3.ATR"
    path.write_bytes(dos3_disk(sectors))
    status, out, err = run(capsys, "ls", str(path))
    assert (status, err) == (0, "")
    free = blocks - 72 + 1  # block 3 was freed; 72 and above were never used
    assert out.splitlines() == [
        f"DOS 3 ({sectors} sectors of 128 bytes)",
        "  HELLO   TXT 001      5",
        "* PROG    BAS 003   2500",
        "  EMPTY       001      0",
        "  BIG     DAT 066  67484",
        f"{free:03d} FREE BLOCKS",
    ]
    for name, data in FILES.items():
        target = tmp_path / "out.bin"
        assert run(capsys, "get", str(path), name.lower(), "-o", str(target)) == (0, "", "")
        assert target.read_bytes() == data
    assert run(capsys, "get", str(path), "OLD.DAT")[2] == f"{path}: no file OLD.DAT on the disk\n"
    assert run(capsys, "check", str(path)) == (
        0,
        f"{path}: DOS 3 ({sectors} sectors of 128 bytes): no problems\n",
        "",
    )


def test_get_names_the_output_after_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "D3.ATR"
    path.write_bytes(dos3_disk())
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "get", str(path), "prog.bas") == (0, "", "")
    assert (tmp_path / "PROG.BAS").read_bytes() == PROGRAM


WRITES = [
    ["add", "{disk}", "{file}"],
    ["add", "{disk}", "{file}", "--force"],
    ["rm", "{disk}", "HELLO.TXT"],
    ["boot", "{disk}", "--menu=PROG.BAS"],
]


@pytest.mark.parametrize("args", WRITES, ids=lambda a: " ".join(a[:1] + a[3:]))
def test_never_written(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    path = tmp_path / "D3.ATR"
    path.write_bytes(dos3_disk())
    (tmp_path / "f.txt").write_bytes(b"data")
    before = path.read_bytes()
    words = [
        a.replace("{disk}", str(path)).replace("{file}", str(tmp_path / "f.txt")) for a in args
    ]
    status, _, err = run(capsys, *words)
    assert status == 1
    assert err == (
        f"{path}: DOS 3 (720 sectors of 128 bytes): a8 reads its files but writes only "
        "DOS 2.0S, DOS 2.5, DOS 2.0D and MyDOS; the image is unchanged\n"
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["D3.ATR", "f.txt"]


def test_the_reader_s_own_objects() -> None:
    disk = open_disk(image_of(dos3_disk()))
    assert isinstance(disk, Dos3Disk)
    assert list(disk.paths()) == list(FILES)
    assert list(disk.directories()) == [""]
    assert disk.walk_blocks(disk.find("PROG.BAS")).blocks == [1, 2, 5]
    with pytest.raises(Dos3Error, match="no such directory"):
        disk.listing("SUB")


# -- recognition -------------------------------------------------------------------------


def set_byte(data: bytearray, sector: int, at: int, value: int) -> bytearray:
    data[offset(sector) + at] = value
    return data


@pytest.mark.parametrize(
    ("sector", "at", "value", "why"),
    [(1, 1, 3, "boot loads 3 sectors"), (16, 14, 0x7F, "block count"), (24, 9, 0x90, "table")],
)
def test_one_damaged_sign_still_names_dos3(sector: int, at: int, value: int, why: str) -> None:
    image = image_of(set_byte(dos3_disk(), sector, at, value))
    assert identify(image).name == "DOS 3", why
    assert check_image(image).problems or sector == 1, why


def test_the_header_mark_is_required() -> None:
    assert identify(image_of(set_byte(dos3_disk(), 16, 15, 0xA4))).name != "DOS 3"
    assert identify(image_of(set_byte(dos3_disk(), 16, 3, 0x01))).name != "DOS 3"
    two = set_byte(set_byte(dos3_disk(), 1, 1, 3), 16, 14, 0x7F)
    assert identify(image_of(two)).name == "no file system I know"


def test_a_dos2_disk_stays_dos2() -> None:
    from a8.disk.dos2 import Dos2Disk

    disk = Dos2Disk.new()
    disk.add_file("ONE.DAT", bytes(2000))  # sector 16 holds file data
    assert identify(disk.image).name == "DOS 2.0S"


# -- check -------------------------------------------------------------------------------


def entry_at(number: int, field: int) -> tuple[int, int]:
    """Sector and offset of byte ``field`` of directory entry ``number``."""
    return 16 + number // 8, (number % 8) * 16 + field


def set_entry(data: bytearray, number: int, field: int, value: int) -> bytearray:
    sector, at = entry_at(number, field)
    return set_byte(data, sector, at, value)


def rename(data: bytearray, number: int, name: bytes) -> bytearray:
    for index, byte in enumerate(name):
        set_entry(data, number, 1 + index, byte)
    return data


CORRUPTIONS = {
    ProblemKind.CHAIN_LOOP: lambda d: set_byte(d, 24, 2, 1),  # PROG: 1 -> 2 -> 1
    ProblemKind.CHAIN_OUT_OF_RANGE: lambda d: set_entry(d, 1, 13, 120),  # HELLO from block 120
    ProblemKind.BAD_BLOCK_TABLE: lambda d: set_byte(d, 24, 2, 0xFE),  # PROG's 2nd block "free"
    ProblemKind.USED_SECTOR_FREE: lambda d: set_byte(d, 24, 2, 0xFE),
    ProblemKind.WRONG_SECTOR_COUNT: lambda d: set_entry(d, 2, 12, 4),  # PROG: 4 blocks?
    ProblemKind.BAD_FILE_SIZE: lambda d: set_entry(d, 1, 15, 0x08),  # HELLO: 2053 bytes in 1 KB
    ProblemKind.CROSS_LINKED: lambda d: set_entry(d, 4, 13, 5),  # EMPTY in PROG's last block
    ProblemKind.LOST_SECTOR: lambda d: set_byte(d, 24, 80, 0xFD),  # block 80: nobody's
    ProblemKind.ENTRY_AFTER_END: lambda d: set_entry(d, 1, 0, 0x00),
    ProblemKind.DUPLICATE_NAME: lambda d: rename(d, 4, b"HELLO   TXT"),  # EMPTY -> HELLO.TXT
    ProblemKind.BAD_FLAG: lambda d: set_entry(d, 1, 0, 0xC4),
    ProblemKind.FILE_OPEN: lambda d: set_entry(d, 1, 0, 0xC1),
    ProblemKind.SECTOR_COUNT: lambda d: set_byte(d, 16, 14, 0x7F),
}  # fmt: skip


@pytest.mark.parametrize("kind", list(CORRUPTIONS), ids=lambda k: k.value)
def test_corruption_is_found(kind: ProblemKind, tmp_path: Path) -> None:
    image = image_of(CORRUPTIONS[kind](dos3_disk()))
    assert isinstance(open_disk(image), Dos3Disk)
    report = check_image(image)
    assert kind in {problem.kind for problem in report.problems}
    for problem in report.problems:
        assert "\n" not in str(problem)
    disk = open_disk(image)
    for path in disk.paths():  # a damaged file is refused in one line, never a traceback
        try:
            disk.read_file(path)
        except A8Error as error:
            assert "\n" not in str(error) and str(error).startswith("D3.ATR: ")


def test_a_damaged_chain_is_refused_by_get(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "D3.ATR"
    path.write_bytes(set_byte(dos3_disk(), 24, 2, 1))
    status, _, err = run(capsys, "get", str(path), "PROG.BAS", "-o", str(tmp_path / "out"))
    assert status == 1 and err == f"{path}: PROG.BAS: loops back to block 1\n"
    assert not (tmp_path / "out").exists()


# -- fuzzing ------------------------------------------------------------------------------


def test_damaged_dos3_disks_never_traceback() -> None:
    seeds = [bytes(dos3_disk()), bytes(dos3_disk(1040))]
    report = fuzz("DOS 3", atr_target, seeds, 600, seed=3, expected=(A8Error,), regions=atr_regions)
    assert report.tracebacks == 0, [f"{c.error} at {c.where}" for c in report.crashes]
    assert report.accepted and report.refused


def test_every_byte_of_the_directory_and_table_to_every_edge_value() -> None:
    data = bytes(dos3_disk())
    positions = [*range(offset(1), offset(1) + 8), *range(offset(16), offset(16) + 96)]
    positions += range(offset(24), offset(24) + 90)
    report = scan("DOS 3 scan", atr_target, data, positions, expected=(A8Error,))
    assert report.tracebacks == 0, [c.error for c in report.crashes]
    assert report.tried > 1500


def test_the_fixture_is_what_the_notes_cross_checked(tmp_path: Path) -> None:
    """docs/notes/2026-12-02-dos3.md reads tests/a8/disk/fixtures/dos3-sd.atr.gz with
    atrfs; the file must be this test's disk, byte for byte."""
    fixture = Path(__file__).parent / "fixtures" / "dos3-sd.atr.gz"
    assert gzip.decompress(fixture.read_bytes()) == bytes(dos3_disk())
