"""``a8 atr``: commands, one-line errors, images unchanged on failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["atr", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_new_add_ls_get_rm_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    disk = tmp_path / "D.ATR"
    source = tmp_path / "prog.bas"
    source.write_bytes(bytes(range(256)) * 2)
    assert run(capsys, "new", str(disk))[0] == 0
    assert run(capsys, "add", str(disk), str(source))[0] == 0
    assert run(capsys, "add", str(disk), str(source), "--name", "COPY.X")[0] == 0
    status, out, _ = run(capsys, "ls", str(disk))
    assert status == 0
    assert out.splitlines() == ["  PROG    BAS 005", "  COPY    X   005", "697 FREE SECTORS"]
    back = tmp_path / "back"
    assert run(capsys, "get", str(disk), "prog.bas", "-o", str(back))[0] == 0
    assert back.read_bytes() == source.read_bytes()
    assert run(capsys, "rm", str(disk), "COPY.X")[0] == 0
    assert run(capsys, "check", str(disk)) == (0, "", "")


@pytest.mark.parametrize("density", ["single", "enhanced", "double"])
def test_densities(tmp_path: Path, capsys: pytest.CaptureFixture[str], density: str) -> None:
    disk = tmp_path / "D.ATR"
    assert run(capsys, "new", str(disk), "--density", density)[0] == 0
    free = {"single": 707, "enhanced": 1010, "double": 707}[density]
    assert run(capsys, "ls", str(disk))[1] == f"{free:03d} FREE SECTORS\n"


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status, _, err = run(capsys, *args)
    assert status != 0
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_bad_input_leaves_the_image_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = tmp_path / "D.ATR"
    run(capsys, "new", str(disk))
    big = tmp_path / "big"
    big.write_bytes(bytes(125 * 708))
    small = tmp_path / "small"
    small.write_bytes(b"hello")
    before = disk.read_bytes()
    assert "disk full" in one_line_error(capsys, "add", str(disk), str(big))
    assert "file name" in one_line_error(capsys, "add", str(disk), str(small), "--name", "9X")
    assert "cannot read" in one_line_error(capsys, "add", str(disk), str(tmp_path / "none"))
    assert "no file" in one_line_error(capsys, "get", str(disk), "NONE")
    assert "no file" in one_line_error(capsys, "rm", str(disk), "NONE")
    assert "no file" in one_line_error(capsys, "boot", str(disk), "--menu", "NONE.BAS")
    assert disk.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["D.ATR", "big", "small"]


def test_not_an_atr_and_truncated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "JUNK.ATR"
    junk.write_bytes(b"hello world, not a disk")
    assert "JUNK.ATR: not an ATR image" in one_line_error(capsys, "ls", str(junk))
    disk = tmp_path / "D.ATR"
    run(capsys, "new", str(disk))
    disk.write_bytes(disk.read_bytes()[:5000])
    assert "truncated" in one_line_error(capsys, "ls", str(disk))
    assert "cannot read" in one_line_error(capsys, "ls", str(tmp_path / "missing.atr"))


def test_check_reports_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    disk = tmp_path / "D.ATR"
    run(capsys, "new", str(disk))
    data = bytearray(disk.read_bytes())
    data[16 + 359 * 128 + 3] = 0  # free count of the VTOC
    disk.write_bytes(bytes(data))
    status, out, _ = run(capsys, "check", str(disk))
    assert status == 1
    assert "free sectors" in out and out.count("\n") == 1


def test_boot_menu_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = tmp_path / "D.ATR"
    program = tmp_path / "GAME.BAS"
    program.write_bytes(bytes(500))
    run(capsys, "new", str(disk))
    run(capsys, "add", str(disk), str(program))
    status = run(capsys, "boot", str(disk), "--menu", "GAME.BAS=My Game", "--title", "DISK")
    assert status == (0, "", "")
    image = disk.read_bytes()
    assert image[16:18] == bytes([0, 3])  # boot record: 3 sectors
    assert b"DISK\x9b1 My Game\x9b" in image[16 : 16 + 384]
    assert run(capsys, "check", str(disk))[0] == 0
    too_long = [f"--menu=GAME.BAS=A TITLE MUCH TOO LONG FOR THE BOOT SECTORS {n}" for n in range(3)]
    before = disk.read_bytes()
    assert "too long" in one_line_error(capsys, "boot", str(disk), *too_long)
    assert disk.read_bytes() == before
