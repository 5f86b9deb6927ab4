"""MyDOS: subdirectories, 16-bit links, its names, and writing them as MyDOS does."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import ProblemKind, check_image
from a8.disk.dos2 import Dos2Disk, Dos2Error, Flag
from a8.disk.dos2.geometry import mydos_geometry
from a8.disk.dos2.vtoc import VTOC_HEADER
from tests.a8.disk.corpus_disks import corpus_disk


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def dirs(tmp_path: Path) -> Path:
    """xedisk's MYDIRS.ATR: written by MyDOS 4.50, subdirectories three deep."""
    return corpus_disk("mydos-xedisk-dirs").write_to(tmp_path)


def test_subdirectories_are_listed_and_read(dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "ls", str(dirs))
    assert status == 0 and " :DIR2        008" in out.splitlines()
    status, out, _ = run(capsys, "ls", str(dirs), "DIR2>DIR21")
    assert out.splitlines()[1:] == [" :DIR211      008", " :DIR212      008", "609 FREE SECTORS"]
    disk = Dos2Disk(AtrImage.read(dirs))
    assert list(disk.paths()) == ["DIR2>DIR21>DIR212>FILE2121"]
    for spelling in ("DIR2>DIR21>DIR212>FILE2121", "dir2/dir21/dir212/file2121"):
        assert disk.read_file(spelling) == disk.read_file("DIR2:DIR21:DIR212:FILE2121")
    with pytest.raises(Dos2Error, match="DIR9: no such directory"):
        disk.read_file("DIR9>X")
    with pytest.raises(Dos2Error, match="DIR1 is a directory"):
        disk.read_file("DIR1")


def test_add_and_rm_in_a_subdirectory(dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = dirs.parent / "new.dat"
    source.write_bytes(bytes(range(200)) * 5)
    assert run(capsys, "add", str(dirs), str(source), "--name", "DIR1>DIR11>NEW_@.DAT")[0] == 0
    _, out, _ = run(capsys, "ls", str(dirs), "DIR1>DIR11")
    assert "  NEW_@   DAT 008" in out.splitlines()
    back = dirs.parent / "back"
    assert run(capsys, "get", str(dirs), "DIR1>DIR11>NEW_@.DAT", "-o", str(back))[0] == 0
    assert back.read_bytes() == source.read_bytes()
    assert check_image(AtrImage.read(dirs)).problems == []
    assert run(capsys, "rm", str(dirs), "DIR1>DIR11>NEW_@.DAT")[0] == 0
    assert check_image(AtrImage.read(dirs)).problems == []
    assert "no file" in run(capsys, "get", str(dirs), "DIR1>DIR11>NEW_@.DAT", "-o", "-")[2]


def test_a_subdirectory_on_system_sectors_is_reported(dirs: Path) -> None:
    image = AtrImage.read(dirs)
    raw = bytearray(image.read_sector(361))
    raw[3:5] = (358).to_bytes(2, "little")  # DIR1's 8 sectors would run over 360-365
    image.write_sector(361, bytes(raw))
    kinds = {p.kind for p in check_image(image).problems}
    assert ProblemKind.BAD_DIRECTORY in kinds


def test_large_disks_get_16_bit_links(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On a 1040-sector MyDOS disk (code 3), new files are flagged $46, links carry no number."""
    path = corpus_disk("mydos-1040-comms").write_to(tmp_path)
    source = tmp_path / "big.dat"
    source.write_bytes(bytes(range(256)) * 20)
    assert run(capsys, "add", str(path), str(source), "--name", "BIG.DAT") == (0, "", "")
    disk = Dos2Disk(AtrImage.read(path))
    entry = disk.find("BIG.DAT")
    assert entry.flag == Flag.IN_USE | Flag.DOS2 | Flag.LONG_LINKS
    first = disk.image.read_sector(entry.start)
    assert first[125] == disk.chain(entry)[1][0] >> 8  # the high byte, no file number
    assert disk.read_file("BIG.DAT") == source.read_bytes()
    assert check_image(disk.image).problems == []


@pytest.mark.parametrize("name", ["_START", "@X.COM", "A_B@.C_D"])
def test_mydos_names_are_mydos_names(tmp_path: Path, name: str) -> None:
    mydos = Dos2Disk(corpus_disk("mydos-xedisk-450").image())
    mydos.add_file(name, b"x")
    assert mydos.read_file(name) == b"x"
    dos2 = Dos2Disk.new()
    with pytest.raises(Dos2Error):
        dos2.add_file(dos2.parse_new_name(name), b"x")


def test_sector_720_is_data_on_mydos() -> None:
    disk = Dos2Disk(corpus_disk("mydos-xedisk-450").image())
    assert 720 in disk.free or 720 in disk.owned_sectors()
    disk.add_file("FILL.DAT", bytes(disk.geometry.data_bytes * len(disk.free)))
    assert 720 not in disk.free and not disk.free
    assert check_image(disk.image).problems == []


# --- new MyDOS disks of any size ------------------------------------------------------------


@pytest.mark.parametrize("name", ["mydos-1040-comms", "mydos-dd-3132"])
def test_a_new_disk_has_the_vtoc_mydos_wrote_on_a_real_one(name: str) -> None:
    """The DOS code, total and VTOC sectors of a disk MyDOS formatted, on a new one."""
    real = corpus_disk(name).image()
    new = Dos2Disk.new_mydos(real.sector_count, real.sector_size)
    code, total, _ = VTOC_HEADER.unpack_from(real.read_sector(360))
    assert VTOC_HEADER.unpack_from(new.image.read_sector(360)) == (code, total, total)
    assert new.geometry.vtoc_sectors == Dos2Disk(real).geometry.vtoc_sectors
    assert Dos2Disk(AtrImage.from_bytes(new.to_bytes(), "NEW.ATR")).geometry == new.geometry


@settings(max_examples=15, deadline=None)
@given(st.integers(720, 65535), st.sampled_from([128, 256]), st.binary(min_size=1, max_size=30_000))
def test_new_disks_of_any_size_are_clean_and_round_trip(count: int, size: int, data: bytes) -> None:
    disk = Dos2Disk.new_mydos(count, size, "NEW.ATR")
    image = AtrImage.from_bytes(disk.to_bytes(), "NEW.ATR")
    assert check_image(image).problems == []
    found = Dos2Disk(image)
    assert found.geometry == mydos_geometry(count, size)
    assert found.free_sectors == found.geometry.capacity == len(found.available_sectors())
    found.add_file("DATA.BIN", data)
    again = Dos2Disk(AtrImage.from_bytes(found.to_bytes(), "NEW.ATR"))
    assert again.read_file("DATA.BIN") == data and check_image(again.image).problems == []


def test_a_file_past_sector_1023_links_16_bits_wide() -> None:
    disk = Dos2Disk.new_mydos(2880, 256, "BIG.ATR")
    data = bytes(range(251)) * 1300  # 1290 sectors: from 4 to past 1023
    disk.add_file("BIG.DAT", data)
    image = AtrImage.from_bytes(disk.to_bytes(), "BIG.ATR")
    assert check_image(image).problems == []
    found = Dos2Disk(image)
    entry = found.find("BIG.DAT")
    assert entry.flag == Flag.IN_USE | Flag.DOS2 | Flag.LONG_LINKS
    chain = [sector for sector, _ in found.chain(entry)]
    assert 1023 in chain and 1024 in chain and chain[-1] > 1300
    assert image.read_sector(1023)[253:255] == bytes([1024 >> 8, 1024 & 0xFF])  # no file number
    assert found.read_file("BIG.DAT") == data
    found.remove_file("BIG.DAT")
    assert found.free_sectors == found.geometry.capacity


def test_atr_new_makes_a_mydos_disk_of_the_size_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "BIG.ATR"
    assert run(capsys, "new", str(path), "--sectors", "5760") == (0, "", "")
    assert len(path.read_bytes()) == 16 + 3 * 128 + 5757 * 256
    status, out, _ = run(capsys, "check", str(path))
    assert status == 0 and out == f"{path}: MyDOS (5760 sectors of 256 bytes): no problems\n"
    small = tmp_path / "SD.ATR"
    assert run(capsys, "new", str(small), "--sectors", "1040", "--sector-size", "128")[0] == 0
    _, out, _ = run(capsys, "ls", str(small))
    assert out.splitlines() == ["MyDOS (1040 sectors of 128 bytes)", "1027 FREE SECTORS"]
    assert run(capsys, "new", str(tmp_path / "D.ATR"), "--density", "double")[0] == 0
    assert Dos2Disk(AtrImage.read(tmp_path / "D.ATR")).geometry.dos_name == "DOS 2.0D"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--sectors", "719"], "X.ATR: a MyDOS disk has 720 to 65535 sectors, not 719"),
        (["--sectors", "65536"], "X.ATR: a MyDOS disk has 720 to 65535 sectors, not 65536"),
        (
            ["--sectors", "2880", "--sector-size", "512"],
            "X.ATR: a MyDOS disk has sectors of 128 or 256 bytes, not 512",
        ),
        (["--sector-size", "128"], "X.ATR: --sector-size is for a MyDOS disk: give its size"),
    ],
)
def test_atr_new_refuses_a_size_no_disk_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    path = tmp_path / "X.ATR"
    status, out, err = run(capsys, "new", str(path), *args)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert said.replace("X.ATR", str(path)) in err
    assert list(tmp_path.iterdir()) == []
