"""Real disks from public repositories (tests/a8/disk/corpus): named, read, checked, written.

Each disk was written by a real DOS or a real tool (see corpus/README.md for where
each comes from and how DOS files were zeroed). ``check`` must be clean on the
intact ones and find exactly the recorded, hand-verified problems on the others;
every file must read back, and the binary load files among them must be whole
(their segments account for every byte), which a reader following a chain or a
sector map wrongly would not achieve.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import check_image
from a8.disk.cli import PAST_THE_END
from a8.disk.detect import identify
from a8.disk.dos2 import Dos2Disk
from tests.a8.disk.corpus_disks import (
    CorpusDisk,
    corpus_disks,
    is_binary_load_file,
    read_every_file,
)

DISKS = corpus_disks()
WRITABLE = {"DOS 2.0S", "DOS 2.5", "DOS 2.0D", "MyDOS"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_corpus_covers_every_file_system_and_its_forms() -> None:
    names = {disk.file_system for disk in DISKS}
    assert names >= WRITABLE | {"SpartaDOS 2.x/3.x", "SpartaDOS X", "no file system I know"}
    assert len(DISKS) >= 50
    assert sum(disk.binary_load_files for disk in DISKS) >= 300
    assert sum(1 for disk in DISKS if not disk.problems) >= 40


@pytest.mark.parametrize("disk", DISKS, ids=str)
def test_named_and_checked(disk: CorpusDisk) -> None:
    image = disk.image()
    assert identify(image).name == disk.file_system
    report = check_image(image)
    assert sorted({p.kind.value for p in report.problems}) == list(disk.problems)
    for problem in report.problems:
        assert "\n" not in str(problem)


@pytest.mark.parametrize("disk", DISKS, ids=str)
def test_every_file_reads(disk: CorpusDisk) -> None:
    files = read_every_file(disk.image())
    assert len(files) == disk.files
    assert sum(is_binary_load_file(data) for _, data in files) == disk.binary_load_files


@pytest.mark.parametrize("disk", DISKS, ids=str)
def test_the_command_line_on_every_disk(
    disk: CorpusDisk, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = disk.write_to(tmp_path)
    status, out, err = run(capsys, "ls", str(path))
    short = disk.image().truncation()  # an image shorter than its header: said once
    assert status == 0 and err == (
        "" if short is None else f"{path}: warning: {short}; {PAST_THE_END}\n"
    )
    assert out.splitlines()[0].startswith(disk.file_system)
    status, out, err = run(capsys, "check", str(path))
    assert status == (1 if disk.problems else 0) and err == ""
    assert out.splitlines()[-1].startswith(f"{path}: {disk.file_system}")
    for name, data in read_every_file(disk.image())[:8]:
        target = tmp_path / "out.bin"
        status, _, err = run(capsys, "get", str(path), name, "-o", str(target))
        assert (status, err) == (0, "") and target.read_bytes() == data


def kinds_on(path: Path) -> list[str]:
    return sorted(p.kind.value for p in check_image(AtrImage.read(path)).problems)


@pytest.mark.parametrize("disk", DISKS, ids=str)
def test_writes_only_where_they_are_safe(
    disk: CorpusDisk, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """add and rm work on DOS 2 family disks with nothing a write could make worse,
    and never add to check's findings (they may fix a count); elsewhere the image
    stays byte for byte as it was."""
    path = disk.write_to(tmp_path)
    source = tmp_path / "new.dat"
    source.write_bytes(bytes(range(256)) * 3)
    before, findings = path.read_bytes(), kinds_on(path)
    image = disk.image()
    add = ["add", str(path), str(source), "--name", "A8TEST.DAT"]
    if image.write_protected:
        status, _, err = run(capsys, *add)
        assert status == 1 and "write-protected" in err and path.read_bytes() == before
        add.append("--force")
    status, _, err = run(capsys, *add)
    if disk.file_system in WRITABLE and not check_image(image).blocking():
        if "disk full" in err:
            assert Dos2Disk(image).free_sectors < 7 and path.read_bytes() == before
            return
        assert (status, err) == (0, "")
        assert path.read_bytes()[:16] == before[:16]  # the header, bytes 7-15 included
        assert set(kinds_on(path)) <= set(findings)
        assert run(capsys, "get", str(path), "A8TEST.DAT", "-o", str(tmp_path / "back"))[0] == 0
        assert (tmp_path / "back").read_bytes() == source.read_bytes()
        assert run(capsys, "rm", str(path), "A8TEST.DAT", "--force") == (0, "", "")
        assert set(kinds_on(path)) <= set(findings)
    else:
        assert status == 1 and err.count("\n") == 1 and "unchanged" in err
        assert path.read_bytes() == before
        assert run(capsys, "rm", str(path), "ANY.DAT", "--force")[0] == 1
        assert path.read_bytes() == before
