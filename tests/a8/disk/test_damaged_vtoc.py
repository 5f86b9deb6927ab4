"""DOS 2 disks whose VTOC is damaged: DOS 2.5 still lists and copies their files, so does a8.

DOS reads a file through the directory and the sector chain and never through
the VTOC, which it needs only to write. Each test damages the VTOC of a disk in
one way real disks get damaged (byte 0, the free count, the bitmap, the whole
sector zeroed or overwritten), then proves: the disk is still named by its DOS,
every file lists and reads back byte for byte, ``ls`` and ``get`` say on standard
error, in one line naming the disk, what is damaged; ``add``, ``rm`` and ``boot``
are refused in one line and leave the image byte for byte as it was; ``check``
reports the damage. The same damage is then done to every DOS 2 family disk of
the real-disk corpus.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import ProblemKind, check_image
from a8.disk.detect import identify, open_disk
from a8.disk.dos2 import Density, Dos2Disk, Dos2Error
from tests.a8.disk.corpus_disks import CorpusDisk, corpus_disks

VTOC = 360


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


def patched(offset: int, values: bytes) -> Callable[[bytearray], None]:
    def damage(vtoc: bytearray) -> None:
        vtoc[offset : offset + len(values)] = values

    return damage


def zeroed(vtoc: bytearray) -> None:
    vtoc[:] = bytes(len(vtoc))


def overwritten(vtoc: bytearray) -> None:
    """What a sector a loader or another DOS wrote over the VTOC looks like."""
    vtoc[:] = random.Random(360).randbytes(len(vtoc))


def bitmap_garbage(vtoc: bytearray) -> None:
    vtoc[10:100] = random.Random(10).randbytes(90)


#: The damage, what ``check`` must report for it, and what the warning names.
DAMAGE: dict[str, tuple[Callable[[bytearray], None], ProblemKind, str]] = {
    "byte 0 is 0": (patched(0, b"\x00"), ProblemKind.VTOC_DOS_CODE, "DOS code 0, expected 2"),
    "byte 0 is 7": (patched(0, b"\x07"), ProblemKind.VTOC_DOS_CODE, "DOS code 7, expected 2"),
    "byte 0 is $FF": (patched(0, b"\xff"), ProblemKind.VTOC_DOS_CODE, "DOS code 255"),
    "free count $FFFF": (patched(3, b"\xff\xff"), ProblemKind.FREE_COUNT, "free count 65535"),
    "total 0": (patched(1, b"\x00\x00"), ProblemKind.VTOC_CAPACITY, "total 0"),
    "bitmap all free": (
        patched(10, b"\xff" * 90),
        ProblemKind.SYSTEM_SECTOR_FREE,
        "marks sector 0 (non-existent) free",
    ),
    "bitmap garbage": (bitmap_garbage, ProblemKind.SYSTEM_SECTOR_FREE, "its bitmap marks sector"),
    "all zeros": (zeroed, ProblemKind.VTOC_UNREADABLE, "all zeros"),
    "overwritten": (overwritten, ProblemKind.VTOC_UNREADABLE, "DOS code"),
}

#: Files of every shape: empty, one sector, several, and (on DOS 2.5) past sector 720.
FILES = {
    "EMPTY.DAT": b"",
    "ONE.DAT": b"one sector",
    "PROG.BAS": bytes(range(256)) * 9,
}


def written_disk(density: Density, folder: Path) -> tuple[Path, dict[str, bytes]]:
    disk = Dos2Disk.new(density, "D.ATR")
    files = dict(FILES)
    if density is Density.ENHANCED:
        files["HIGH.DAT"] = bytes(i % 251 for i in range(90_000))  # runs past sector 720
    for name, data in files.items():
        disk.add_file(name, data)
    path = folder / "D.ATR"
    path.write_bytes(disk.to_bytes())
    return path, files


def damage_vtoc(path: Path, damage: Callable[[bytearray], None]) -> None:
    image = AtrImage.read(path)
    vtoc = bytearray(image.read_sector(VTOC))
    damage(vtoc)
    image.write_sector(VTOC, bytes(vtoc))
    path.write_bytes(image.to_bytes())


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_vtoc_is_read_and_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], density: Density, how: str
) -> None:
    damage, kind, said = DAMAGE[how]
    path, files = written_disk(density, tmp_path)
    name = identify(AtrImage.read(path)).name
    damage_vtoc(path, damage)
    before = path.read_bytes()

    status, out, err = run(capsys, "ls", str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{name} (") and lines[0].endswith(", VTOC damaged)")
    listed = {line[2:10].strip() + "." + line[10:13].strip() for line in lines[1:-1]}
    assert listed == set(files)
    assert lines[-1].endswith("FREE SECTORS (counted from the files)")
    assert err.count("\n") == 1 and err.startswith(f"{path}: warning: VTOC sector 360")
    assert said in err

    for file_name, data in files.items():
        target = tmp_path / "out.bin"
        status, _, err = run(capsys, "get", str(path), file_name, "-o", str(target))
        assert status == 0 and target.read_bytes() == data
        assert err.count("\n") == 1 and "damaged" in err

    source = tmp_path / "new.dat"
    source.write_bytes(b"new")
    for args in (
        ["add", str(path), str(source)],
        ["add", str(path), str(source), "--force"],
        ["rm", str(path), "ONE.DAT"],
        ["boot", str(path), "--menu", "PROG.BAS"],
    ):
        status, _, err = run(capsys, *args)
        assert status == 1 and err.count("\n") == 1
        assert "VTOC sector 360 is damaged" in err and "the image is unchanged" in err
        assert path.read_bytes() == before

    status, out, err = run(capsys, "check", str(path))
    assert status == 1 and err == ""
    assert f"[{kind.value}]" in out
    assert out.splitlines()[-1].startswith(f"{path}: {name} (")


def test_a_stale_free_count_is_no_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A count a DOS can leave behind (FoxDOS never updates it) is reported, not damage:
    the disk is written, and the write puts the right count back."""
    path, _ = written_disk(Density.SINGLE, tmp_path)
    damage_vtoc(path, patched(3, b"\x01\x00"))
    assert run(capsys, "ls", str(path))[2] == ""
    source = tmp_path / "new.dat"
    source.write_bytes(b"new")
    assert run(capsys, "add", str(path), str(source)) == (0, "", "")
    assert check_image(AtrImage.read(path)).problems == []


def test_the_library_refuses_too() -> None:
    """Writing through Dos2Disk directly is refused like the commands (nothing changes)."""
    disk = Dos2Disk.new()
    disk.add_file("ONE.DAT", b"one")
    raw = bytearray(disk.image.read_sector(VTOC))
    raw[0] = 0
    disk.image.write_sector(VTOC, bytes(raw))
    damaged = Dos2Disk(disk.image)
    before = damaged.to_bytes()
    for write in (
        lambda: damaged.add_file("TWO.DAT", b"two"),
        lambda: damaged.remove_file("ONE.DAT"),
        lambda: damaged.set_locked("ONE.DAT", True),
        lambda: damaged.write_boot(b"\x00\x03"),
    ):
        with pytest.raises(Dos2Error, match="VTOC sector 360 is damaged"):
            write()
    assert damaged.to_bytes() == before
    assert damaged.read_file("ONE.DAT") == b"one"


def test_a_garbage_directory_is_still_no_dos2_disk() -> None:
    """With the VTOC gone, only a directory beyond doubt makes a DOS 2 disk: a boot
    disk's code over sectors 360-368 does not (the corpus's boot-garbage-vtoc too)."""
    image = AtrImage.blank(720, 128, "BOOT.ATR")
    image.write_sector(1, b"\x00\x03\x00\x07\x40\x15")
    noise = random.Random(368)
    for sector in range(360, 369):
        image.write_sector(sector, noise.randbytes(128))
    assert identify(image).name == "no file system I know"
    entry = bytearray(128)  # one entry in DOS 2's form whose chain is not a file's
    entry[:16] = b"\x42\x03\x00\x04\x00ONE     DAT"
    image.write_sector(361, bytes(entry))
    image.write_sector(360, bytes(128))
    assert identify(image).name == "no file system I know"


def test_a_boot_record_of_more_than_three_sectors_is_a_loader_s() -> None:
    path_disk = Dos2Disk.new()
    path_disk.add_file("ONE.DAT", b"one")
    image = path_disk.image
    image.write_sector(360, bytes(128))
    assert identify(image).name == "DOS 2.0S"
    image.write_sector(1, b"\x00\x13\x00\x07")
    assert identify(image).name == "no file system I know"


def dos2_corpus() -> list[CorpusDisk]:
    return [disk for disk in corpus_disks() if isinstance(open_disk(disk.image()), Dos2Disk)]


@pytest.mark.parametrize("disk", dos2_corpus(), ids=str)
@pytest.mark.parametrize("how", ["all zeros", "overwritten", "byte 0 is 7", "free count $FFFF"])
def test_every_real_dos2_disk_reads_the_same_with_its_vtoc_damaged(
    disk: CorpusDisk, how: str
) -> None:
    """Without a sound VTOC a MyDOS disk of a size DOS 2 formats may be named DOS 2
    (only its VTOC told them apart), but every file reads the same."""
    image = disk.image()
    whole = open_disk(image)
    files = {path: whole.read_file(path) for path in whole.paths()}
    vtoc = bytearray(image.read_sector(VTOC))
    DAMAGE[how][0](vtoc)
    image.write_sector(VTOC, bytes(vtoc))
    damaged = open_disk(image)
    assert isinstance(damaged, Dos2Disk) and damaged.damage is not None
    assert damaged.identity.name in (disk.file_system, "DOS 2.0S", "DOS 2.0D", "DOS 2.5")
    assert {path: damaged.read_file(path) for path in damaged.paths()} == files
    assert damaged.refusal() is not None
