"""Where the commands read the one source and write the game disk (machfsol.atari.places).

The source is package data found through the package; the disk goes where the user says
or to the current folder, except in a checkout's top folder, where ``machfsol build``
updates the checkout's atr/MACHFSOL.ATR.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.basic.program import Program
from a8.disk.atr import AtrImage
from a8.disk.dos2 import Dos2Disk
from machfsol.atari import places
from machfsol.atari.basic_game import generate, read_source
from machfsol.cli import main

REPOSITORY = Path(__file__).resolve().parents[3]
SOURCE = REPOSITORY / "basic_src" / "machfsol.bas"


def make_checkout(folder: Path, source: str | None = None, name: str = "machfsol") -> Path:
    """A minimal checkout of the project: its pyproject.toml and the one source."""
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n', encoding="utf-8")
    (folder / "basic_src").mkdir()
    text = SOURCE.read_text(encoding="ascii") if source is None else source
    (folder / "basic_src" / "machfsol.bas").write_text(text, encoding="ascii")
    return folder


def disk_listing(disk: Path, variant: int) -> bytes:
    """The tokenized program of ``variant`` on a game disk."""
    return Dos2Disk(AtrImage.read(disk)).read_file(f"MACHFSOL.{variant}")


def test_the_package_ships_the_one_source() -> None:
    """The package's copy is basic_src/machfsol.bas itself: in a git checkout a link to
    it (so an editable install reads the file people edit), in a built package a copy."""
    packaged = places.packaged_source()
    assert packaged.read_bytes() == SOURCE.read_bytes()
    linked = REPOSITORY / "tools" / "machfsol" / "atari" / places.SOURCE_RESOURCE
    if (REPOSITORY / ".git").exists():
        assert linked.is_symlink(), f"{linked} must stay a link to basic_src/machfsol.bas"
        assert linked.resolve() == SOURCE.resolve()


def test_the_repository_is_a_checkout() -> None:
    assert places.is_checkout(REPOSITORY)


@pytest.mark.parametrize(
    ("pyproject", "with_source"),
    [
        (None, True),  # no pyproject.toml
        ('[project]\nname = "other"\n', True),  # another project
        ("[project\nname =", True),  # not TOML
        ('[project]\nname = "machfsol"\n', False),  # no basic_src/machfsol.bas
        ('project = "machfsol"\n', True),  # no [project] table
    ],
)
def test_what_is_not_a_checkout(tmp_path: Path, pyproject: str | None, with_source: bool) -> None:
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    if with_source:
        (tmp_path / "basic_src").mkdir()
        (tmp_path / "basic_src" / "machfsol.bas").write_text("10 END\n", encoding="ascii")
    assert not places.is_checkout(tmp_path)


def test_defaults_outside_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert places.default_disk() == Path("MACHFSOL.ATR")
    assert places.default_source() == places.packaged_source()


def test_defaults_in_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(make_checkout(tmp_path))
    assert places.default_disk() == Path("atr/MACHFSOL.ATR")
    assert places.default_source() == Path("basic_src/machfsol.bas")
    monkeypatch.chdir(tmp_path / "basic_src")  # a sub-folder is an ordinary folder
    assert places.default_disk() == Path("MACHFSOL.ATR")


def test_build_writes_into_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["build"]) == 0
    assert [path.name for path in tmp_path.iterdir()] == ["MACHFSOL.ATR"]
    assert capsys.readouterr().out.startswith("MACHFSOL.ATR: MACHFSOL.1 ")
    # the same bytes as the repository's committed disk: the package's source is the one
    assert (tmp_path / "MACHFSOL.ATR").read_bytes() == (
        REPOSITORY / "atr" / "MACHFSOL.ATR"
    ).read_bytes()


def test_build_in_a_checkout_updates_its_disk_from_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkout's own basic_src/machfsol.bas is built, into its atr/MACHFSOL.ATR."""
    edited = SOURCE.read_text(encoding="ascii") + '#V2 32000 PRINT "EDITED IN THE CHECKOUT"\n'
    monkeypatch.chdir(make_checkout(tmp_path, edited))
    assert main(["build"]) == 0
    disk = tmp_path / "atr" / "MACHFSOL.ATR"
    assert b"EDITED IN THE CHECKOUT" in disk_listing(disk, 2)
    assert b"EDITED IN THE CHECKOUT" not in disk_listing(disk, 1)


def test_build_and_listing_from_a_users_source(tmp_path: Path) -> None:
    mine = tmp_path / "MY.BAS"
    mine.write_text(
        SOURCE.read_text(encoding="ascii") + '#V1 32000 PRINT "MY EDIT"\n', encoding="ascii"
    )
    disk = tmp_path / "MY.ATR"
    assert main(["build", "--source", str(mine), "-o", str(disk)]) == 0
    assert Program.from_bytes(disk_listing(disk, 1)).lines[-1].number == 32000
    assert b"MY EDIT" not in disk_listing(disk, 2)
    listing = tmp_path / "MY1.LST"
    assert main(["listing", "1", "--source", str(mine), "-o", str(listing)]) == 0
    assert listing.read_text(encoding="ascii").endswith('32000 PRINT "MY EDIT"\n')
    assert "REM" not in listing.read_text(encoding="ascii")  # the disk's form: no REMs
    assert main(["listing", "1", "--source", str(mine), "--remarks", "-o", str(listing)]) == 0
    assert listing.read_text(encoding="ascii").startswith("0 GOTO 10000:REM MACHFSOL")
    assert read_source(mine).name == str(mine)


def test_a_bad_users_source_is_one_line_naming_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "MY.BAS"
    mine.write_text("10 REM\n#V3 20 END\n", encoding="ascii")
    disk = tmp_path / "MY.ATR"
    assert main(["build", "--source", str(mine), "-o", str(disk)]) == 1
    assert capsys.readouterr().err == f"machfsol: {mine}:2: no variant 3 (only 1 and 2)\n"
    assert not disk.exists()
    assert main(["build", "--source", str(tmp_path / "NONE.BAS")]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"machfsol: {tmp_path / 'NONE.BAS'}: cannot read the BASIC source")
    assert error.count("\n") == 1


def test_verify_reads_a_bad_source_before_making_any_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "MY.BAS"
    mine.write_text("10 GOTO 20\n", encoding="ascii")
    keep = tmp_path / "kept"
    assert main(["verify", "--source", str(mine), "--keep", str(keep), "--seeds", "1"]) == 1
    error = capsys.readouterr().err
    assert error == f"machfsol: {mine}:1: line 10 jumps to missing line 20\n"
    assert not keep.exists()


def test_verify_source_with_a_disk_gives_the_test_modes_overlay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --disk (or --program) the source gives only the overlay the program ENTERs in
    test mode: it is read, and a malformed one refused, before the disk is looked at."""
    mine = tmp_path / "MY.BAS"
    mine.write_text("10 GOTO 20\n", encoding="ascii")
    assert main(["verify", "--source", str(mine), "--disk", str(tmp_path / "NONE.ATR")]) == 1
    assert capsys.readouterr().err == f"machfsol: {mine}:1: line 10 jumps to missing line 20\n"


@pytest.mark.emulator
def test_verify_a_users_source(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A user's edited copy of the one source: its disk is built in --keep, and verified."""
    mine = tmp_path / "MY.BAS"
    mine.write_text(
        SOURCE.read_text(encoding="ascii") + '#V1 32000 PRINT "MY EDIT"\n', encoding="ascii"
    )
    keep = tmp_path / "kept"
    status = main(
        ["verify", "--source", str(mine), "--variant", "1", "--seeds", "4", "--keep", str(keep)]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith(f"machfsol verify: game disk built from {mine}: 1 deals")
    assert b"MY EDIT" in disk_listing(keep / "MACHFSOL.ATR", 1)
    assert generate(1, source=read_source(mine)).endswith('32000 PRINT "MY EDIT"\n')


@pytest.mark.emulator
def test_verify_writes_nothing_in_the_current_folder(
    atari800: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --keep the disk is built, booted and removed in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "--variant", "2", "--seeds", "5"]) == 0
    assert list(tmp_path.iterdir()) == []
