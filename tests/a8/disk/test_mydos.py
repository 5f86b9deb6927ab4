"""MyDOS: subdirectories, 16-bit links, its names, and writing them as MyDOS does."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import ProblemKind, check_image
from a8.disk.dos2 import Dos2Disk, Dos2Error, Flag
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
