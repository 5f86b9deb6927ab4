"""Regression tests, one per finding of the fuzzing run reported in issue 13.

Each test rebuilds the damaged input the fuzzer found (or its kind) and checks the
fixed behaviour: a one-line refusal or a reported problem instead of a traceback;
system sectors never read or freed as file data; the header's write-protect flag
honoured and bytes 7-15 kept; ``new`` that does not overwrite; names neither
transliterated nor replaced, and printed on one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import ProblemKind, check_disk
from a8.disk.dos2 import Density, Dos2Disk


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status, _, err = run(capsys, *args)
    assert status == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def write_disk(tmp_path: Path, disk: Dos2Disk, name: str = "D.ATR") -> Path:
    path = tmp_path / name
    path.write_bytes(disk.to_bytes())
    return path


def two_files(density: Density = Density.SINGLE) -> Dos2Disk:
    """ONE.DAT in sectors 4, 5, 6 (file 0) and TWO.DAT in sector 7 (file 1)."""
    disk = Dos2Disk.new(density)
    disk.add_file("ONE.DAT", bytes(2 * disk.geometry.data_bytes + 50))
    disk.add_file("TWO.DAT", b"two")
    return disk


def set_next(disk: Dos2Disk, sector: int, target: int) -> None:
    """Make ``sector``'s link point at ``target`` (file number 0 kept)."""
    raw = bytearray(disk.image.read_sector(sector))
    at = disk.geometry.data_bytes
    raw[at] = (raw[at] & 0xFC) | target >> 8
    raw[at + 1] = target & 0xFF
    disk.image.write_sector(sector, bytes(raw))


# -- tracebacks ----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [1, 2, 3])
@pytest.mark.parametrize("command", ["get", "rm", "add"])
def test_a_double_density_chain_into_the_boot_sectors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: int, command: str
) -> None:
    """Was: IndexError in Link.unpack (a 128-byte boot sector read as a 256-byte one)."""
    disk = two_files(Density.DOUBLE)
    set_next(disk, 5, target)
    path = write_disk(tmp_path, disk)
    before = path.read_bytes()
    (tmp_path / "one.dat").write_bytes(b"new")
    args = {
        "get": ["get", str(path), "ONE.DAT", "-o", str(tmp_path / "out")],
        "rm": ["rm", str(path), "ONE.DAT"],
        "add": ["add", str(path), str(tmp_path / "one.dat")],
    }[command]
    error = one_line_error(capsys, *args)
    assert f"sector {target}, a boot sector" in error
    assert path.read_bytes() == before
    assert not (tmp_path / "out").exists()


def test_a_boot_menu_whose_entry_count_runs_past_sector_3() -> None:
    """Was: IndexError in menu_start_sectors; now a boot-menu problem."""
    disk = two_files()
    install_boot_menu(disk, [MenuEntry.parse("ONE.DAT")], "T")
    from a8.disk.boot import LOAD_ADDRESS, assemble_loader

    count_at = assemble_loader().labels["p_entry3"] + 1 - LOAD_ADDRESS
    for value in (3 * 9 + 3, 0xFF, 0, 2):
        raw = bytearray(disk.image.read_sector(1 + count_at // 128))
        raw[count_at % 128] = value
        disk.image.write_sector(1 + count_at // 128, bytes(raw))
        problems = check_disk(disk)
        assert [p.kind for p in problems] == [ProblemKind.BOOT_MENU], value


# -- system sectors ------------------------------------------------------------------------


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
@pytest.mark.parametrize("target", [360, 361, 368, 2])
def test_system_sectors_are_never_file_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], density: Density, target: int
) -> None:
    disk = two_files(density)
    set_next(disk, 4, target)
    path = write_disk(tmp_path, disk)
    before = path.read_bytes()
    problems = check_disk(Dos2Disk(AtrImage.read(path)))
    assert ProblemKind.CHAIN_SYSTEM_SECTOR in {p.kind for p in problems}
    assert "ONE.DAT" in one_line_error(capsys, "get", str(path), "ONE.DAT", "-o", "-")
    assert "a8 atr check" in one_line_error(capsys, "rm", str(path), "ONE.DAT")
    assert path.read_bytes() == before  # the VTOC still marks 360-368 in use


def test_dos25_sector_720_and_vtoc2_are_system_sectors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = two_files(Density.ENHANCED)
    set_next(disk, 4, 720)
    path = write_disk(tmp_path, disk)
    before = path.read_bytes()
    assert "sector 720" in one_line_error(capsys, "get", str(path), "ONE.DAT", "-o", "-")
    one_line_error(capsys, "rm", str(path), "ONE.DAT")
    assert path.read_bytes() == before


# -- the ATR header -------------------------------------------------------------------------


def protected(disk: Dos2Disk, flag: int = 1, extra: bytes = b"") -> bytes:
    data = bytearray(disk.to_bytes())
    data[7 : 7 + len(extra)] = extra
    data[15] = flag
    return bytes(data)


@pytest.mark.parametrize(
    "command",
    [["add", "{file}"], ["rm", "TWO.DAT"], ["boot", "--menu=TWO.DAT"]],
    ids=lambda c: c[0],
)
def test_write_protect_is_honoured_and_force_overrides_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = tmp_path / "P.ATR"
    data = protected(two_files(), 0x3F, b"\x01\x02\x03\x04\x05\x06\x07\x08")
    path.write_bytes(data)
    (tmp_path / "f.txt").write_bytes(b"data")
    args = [a.replace("{file}", str(tmp_path / "f.txt")) for a in command]
    error = one_line_error(capsys, args[0], str(path), *args[1:])
    assert "write-protected (ATR header byte 15 is 3F); give --force" in error
    assert path.read_bytes() == data
    assert run(capsys, args[0], str(path), *args[1:], "--force") == (0, "", "")
    changed = path.read_bytes()
    assert changed != data and changed[:16] == data[:16]  # bytes 7-15 kept, 15 included


def test_reading_a_protected_image_needs_no_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "P.ATR"
    path.write_bytes(protected(two_files()))
    assert run(capsys, "ls", str(path))[0] == 0
    assert run(capsys, "check", str(path))[0] == 0
    assert run(capsys, "get", str(path), "TWO.DAT", "-o", str(tmp_path / "two"))[0] == 0
    assert (tmp_path / "two").read_bytes() == b"two"


# -- new ------------------------------------------------------------------------------------


def test_new_does_not_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "D.ATR"
    path.write_bytes(b"precious")
    assert "already exists; give --force" in one_line_error(capsys, "new", str(path))
    assert path.read_bytes() == b"precious"
    link = tmp_path / "LINK.ATR"
    link.symlink_to(tmp_path / "nowhere.atr")  # even a dangling link is not replaced
    one_line_error(capsys, "new", str(link))
    assert link.is_symlink() and not (tmp_path / "nowhere.atr").exists()
    assert run(capsys, "new", str(path), "--force") == (0, "", "")
    assert path.read_bytes() == Dos2Disk.new().to_bytes()


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ß", "'ß' is not a letter or digit"),  # was stored as SS
        ("", "the name needs 1 to 8 characters"),  # was: the host file's name
        ("ÄPFEL.BAS", "'Ä' is not a letter or digit"),
        ("A\x9bB", "is not a letter or digit"),
    ],
)
def test_names_are_neither_transliterated_nor_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    path = write_disk(tmp_path, Dos2Disk.new())
    before = path.read_bytes()
    source = tmp_path / "prog.bas"
    source.write_bytes(b"x")
    assert message in one_line_error(capsys, "add", str(path), str(source), "--name", name)
    assert path.read_bytes() == before


def test_names_with_control_bytes_stay_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name holding $9B (ATASCII's end of line) and $0A is shown in ATASCII's UTF-8 spelling."""
    disk = two_files()
    raw = bytearray(disk.image.read_sector(361))
    raw[16 + 5 : 16 + 13] = b"T\x9bO\n\x00   "
    disk.image.write_sector(361, bytes(raw))
    path = write_disk(tmp_path, disk)
    status, out, _ = run(capsys, "ls", str(path))
    assert status == 0 and "  T{EOL}O◣♥ DAT 001" in out.splitlines()
    status, out, _ = run(capsys, "check", str(path))
    assert "bad file name 'T{EOL}O◣♥.DAT'" in out and len(out.splitlines()) == 2
    # the spelling shown is the name to type
    assert run(capsys, "get", str(path), "T{EOL}O◣♥.DAT", "-o", str(tmp_path / "x"))[0] == 0
    assert (tmp_path / "x").read_bytes() == b"two"
