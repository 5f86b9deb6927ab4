"""``a8 atr``: commands, one-line errors, images unchanged on failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from a8.basic import tokenize
from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.cli import PAST_THE_END
from a8.disk.dos2 import Dos2Disk
from a8.disk.packed import unpack_program


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
    assert out.splitlines() == [
        "DOS 2.0S (720 sectors of 128 bytes)",
        "  PROG    BAS 005",
        "  COPY    X   005",
        "697 FREE SECTORS",
    ]
    back = tmp_path / "back"
    assert run(capsys, "get", str(disk), "prog.bas", "-o", str(back))[0] == 0
    assert back.read_bytes() == source.read_bytes()
    assert run(capsys, "rm", str(disk), "COPY.X")[0] == 0
    assert run(capsys, "check", str(disk)) == (
        0,
        f"{disk}: DOS 2.0S (720 sectors of 128 bytes): no problems\n",
        "",
    )


@pytest.mark.parametrize(
    ("density", "name"),
    [("single", "DOS 2.0S"), ("enhanced", "DOS 2.5"), ("double", "DOS 2.0D")],
)
def test_densities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], density: str, name: str
) -> None:
    disk = tmp_path / "D.ATR"
    assert run(capsys, "new", str(disk), "--density", density)[0] == 0
    free = {"single": 707, "enhanced": 1010, "double": 707}[density]
    lines = run(capsys, "ls", str(disk))[1].splitlines()
    assert lines[0].startswith(name + " (") and lines[1:] == [f"{free:03d} FREE SECTORS"]


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


def locked_and_full(disk: Dos2Disk) -> None:
    """A locked file KEEP, then 63 small files: the directory is full."""
    disk.add_file("KEEP", b"x")
    disk.set_locked("KEEP", True)
    for number in range(63):
        disk.add_file(f"F{number}", b"")


def image_with_sector_size(size: int) -> bytes:
    data = bytearray(Dos2Disk.new().to_bytes())
    data[4:6] = size.to_bytes(2, "little")
    return bytes(data)


#: Files that are not disk images: every command refuses them.
NOT_IMAGES = {
    "not an ATR image": b"hello world, not a disk image at all",
    "no header": b"\x96\x02",
    "unsupported sector size 1024": image_with_sector_size(1024),
}

#: Images whose file system a8 does not know: named by ls and check, never written.
FOREIGN_IMAGES = {
    "truncated": Dos2Disk.new().to_bytes()[:5000],
    "sector size 512": image_with_sector_size(512),
    "720 x 128 read as 256": image_with_sector_size(256),
    "boot sectors only": AtrImage.blank(100, 128).to_bytes(),
}

ALL_COMMANDS = [
    ["ls"],
    ["check"],
    ["add", "{file}"],
    ["get", "F.TXT"],
    ["rm", "F.TXT"],
    ["boot", "--menu=F"],
]


@pytest.mark.parametrize("message", list(NOT_IMAGES))
@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: c[0])
def test_files_that_are_not_images_are_refused_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], message: str, command: list[str]
) -> None:
    disk = tmp_path / "BAD.ATR"
    disk.write_bytes(NOT_IMAGES[message])
    (tmp_path / "f.txt").write_bytes(b"data")
    args = [a.replace("{file}", str(tmp_path / "f.txt")) for a in command]
    error = one_line_error(capsys, args[0], str(disk), *args[1:])
    assert error.startswith(f"{disk}: ") and message in error
    assert disk.read_bytes() == NOT_IMAGES[message]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BAD.ATR", "f.txt"]


@pytest.mark.parametrize("image", list(FOREIGN_IMAGES))
def test_foreign_images_are_named_and_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], image: str
) -> None:
    disk = tmp_path / "FOREIGN.ATR"
    data = FOREIGN_IMAGES[image]
    disk.write_bytes(data)
    (tmp_path / "f.txt").write_bytes(b"data")
    status, out, err = run(capsys, "ls", str(disk))
    short = AtrImage.from_bytes(data, str(disk)).truncation()  # "truncated": said, on stderr
    assert (status, err) == (
        0,
        "" if short is None else f"{disk}: warning: {short}; {PAST_THE_END}\n",
    )
    assert out.startswith("no file system I know (")
    status, out, err = run(capsys, "check", str(disk))
    assert err == "" and "nothing to check inside" in out.splitlines()[-1]
    for command in ALL_COMMANDS[2:]:
        args = [a.replace("{file}", str(tmp_path / "f.txt")) for a in command]
        error = one_line_error(capsys, args[0], str(disk), *args[1:])
        assert "no file system I know" in error
    assert disk.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FOREIGN.ATR", "f.txt"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "{disk}", "{file}", "--name", "ONEMORE"], "directory full"),
        (["add", "{disk}", "{file}", "--name", "KEEP"], "KEEP is locked"),
        (["rm", "{disk}", "KEEP"], "KEEP is locked"),
        (["add", "{disk}", "{file}", "--name", "A.B.C"], "file name"),
        (["rm", "{disk}", "NAME_"], "no file NAME_ on the disk"),
        (["add", "{disk}", "{tmp}/prog.list"], "'prog.list': the extension has at most 3"),
        (
            ["add", "{disk}", "{tmp}/my-prog.bas"],
            "'-' is not allowed (DOS 2 names use letters, digits) (give the name",
        ),
        (["get", "{disk}", "KEEP", "-o", "{tmp}/missing/KEEP"], "cannot write"),
        (["get", "{disk}", "KEEP", "-o", "{tmp}"], "cannot write"),
        (["boot", "{disk}", "--menu=KEEP=caf\u00e9"], "title"),
        (["boot", "{disk}", *[f"--menu=F{n}" for n in range(10)]], "1 to 9 entries"),
    ],
)
def test_refused_operations_leave_the_disk_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    disk = Dos2Disk.new(source="D.ATR")
    locked_and_full(disk)
    path = tmp_path / "D.ATR"
    path.write_bytes(disk.to_bytes())
    (tmp_path / "f.txt").write_bytes(b"data")
    before = path.read_bytes()
    fields = {"{disk}": str(path), "{file}": str(tmp_path / "f.txt"), "{tmp}": str(tmp_path)}
    for key, value in fields.items():
        args = [a.replace(key, value) for a in args]
    assert message in one_line_error(capsys, *args)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["D.ATR", "f.txt"]


def test_a_missing_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read" in one_line_error(capsys, "ls", str(tmp_path / "missing.atr"))
    assert "cannot read" in one_line_error(capsys, "check", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_check_reports_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    disk = tmp_path / "D.ATR"
    run(capsys, "new", str(disk))
    data = bytearray(disk.read_bytes())
    data[16 + 359 * 128 + 3] = 0  # free count of the VTOC
    disk.write_bytes(bytes(data))
    status, out, err = run(capsys, "check", str(disk))
    assert (status, err) == (1, "")
    lines = out.splitlines()
    assert len(lines) == 2 and "free sectors" in lines[0]
    assert lines[1] == f"{disk}: DOS 2.0S (720 sectors of 128 bytes): 1 problem(s)"


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
    menu = image[16 + 719 * 128 : 16 + 720 * 128]  # sector 720
    assert menu.startswith(b'?"\x7dDISK":?"1 My Game"\x9bRUN "E:"\x9b')
    assert run(capsys, "check", str(disk))[0] == 0
    too_long = [f"--menu=GAME.BAS=A TITLE MUCH TOO LONG FOR THE BOOT SECTORS {n}" for n in range(3)]
    before = disk.read_bytes()
    assert "too long" in one_line_error(capsys, "boot", str(disk), *too_long)
    assert disk.read_bytes() == before


#: The ``a8`` command in a process of its own, run by this interpreter.
A8 = [sys.executable, "-c", "import sys; from a8.cli import main; sys.exit(main())"]


def test_adds_at_once_each_land(tmp_path: Path) -> None:
    """Issue 28: two ``a8 atr add`` on one image at once lost a file in 5 of 15 runs,
    both exiting 0. Twelve at once, three rounds: every file is on the disk."""
    disk = tmp_path / "D.ATR"
    assert main(["atr", "new", str(disk)]) == 0
    names = []
    for round_ in range(3):
        batch = []
        for number in range(12):
            name = f"R{round_}F{number}.DAT"
            (tmp_path / name).write_bytes(name.encode() * 40)
            batch.append(name)
        writers = [
            subprocess.Popen([*A8, "atr", "add", str(disk), str(tmp_path / name)]) for name in batch
        ]
        assert [writer.wait(120) for writer in writers] == [0] * len(batch)
        names += batch
    on_disk = {str(entry.name) for entry in Dos2Disk(AtrImage.read(disk)).listed()}
    assert on_disk == set(names)
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_hard_linked_image_is_refused_and_both_names_keep_the_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = tmp_path / "D.ATR"
    assert run(capsys, "new", str(disk))[0] == 0
    os.link(disk, tmp_path / "OTHER.ATR")
    before = disk.read_bytes()
    (tmp_path / "X.DAT").write_bytes(b"x")
    for args in (["add", str(disk), str(tmp_path / "X.DAT")], ["rm", str(disk), "X.DAT"]):
        status, _, err = run(capsys, *args)
        assert status == 1 and "the file has 2 names (hard links)" in err
        assert err.count("\n") == 1
    assert disk.read_bytes() == (tmp_path / "OTHER.ATR").read_bytes() == before
    assert disk.stat().st_ino == (tmp_path / "OTHER.ATR").stat().st_ino


def test_a_temporary_left_by_a_killed_writer_goes_with_the_next_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disk = tmp_path / "D.ATR"
    assert run(capsys, "new", str(disk))[0] == 0
    stale = tmp_path / ".D.ATR.k1lled00.tmp"
    stale.write_bytes(disk.read_bytes())  # what SIGKILL before the rename leaves
    (tmp_path / "X.DAT").write_bytes(b"x")
    assert run(capsys, "add", str(disk), str(tmp_path / "X.DAT"))[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["D.ATR", "X.DAT"]


def test_get_over_its_own_image_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: ``a8 atr get self.atr OK.BAS -o self.atr`` replaced the disk by the file."""
    disk = tmp_path / "self.atr"
    assert run(capsys, "new", str(disk))[0] == 0
    (tmp_path / "OK.BAS").write_bytes(b"x" * 44)
    assert run(capsys, "add", str(disk), str(tmp_path / "OK.BAS"))[0] == 0
    before = disk.read_bytes()
    status, _, err = run(capsys, "get", str(disk), "OK.BAS", "-o", str(tmp_path / "." / disk.name))
    assert status == 1 and "is also the input" in err and err.count("\n") == 1
    assert disk.read_bytes() == before


def test_new_with_a_name_too_long_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "new", str(tmp_path / ("X" * 300)))
    assert status == 1 and err.endswith(": cannot write: File name too long\n")
    assert err.count("\n") == 1


def test_unbounded_inputs_are_refused_after_their_format_s_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was a MemoryError under a memory limit: /dev/zero read until memory ran out."""
    disk = tmp_path / "D.ATR"
    assert run(capsys, "new", str(disk))[0] == 0
    before = disk.read_bytes()
    status, _, err = run(capsys, "add", str(disk), "/dev/zero")
    assert (
        status == 1 and err == f"/dev/zero: more than 92,176 bytes: larger than the disk {disk}\n"
    )
    assert disk.read_bytes() == before
    assert run(capsys, "ls", "/dev/zero")[2] == (
        "/dev/zero: not an ATR image (bytes 0-1 are 00 00, expected 96 02)\n"
    )
    huge = tmp_path / "huge.atr"  # a 92 KB header on a file larger than any disk
    with huge.open("wb") as handle:
        handle.write(before[:16])
        handle.truncate(40 * 2**20)
    status, _, err = run(capsys, "check", str(huge))
    assert status == 1
    assert err == (
        f"{huge}: more than 33,553,920 bytes: "
        "larger than any ATR image (after its 16-byte header)\n"
    )
    header = bytearray(before[:16])
    header[2:4] = b"\xff\xff"
    header[6] = 0xFF  # 268 MB of sectors declared
    (tmp_path / "claims.atr").write_bytes(bytes(header) + before[16:])
    assert "more than any disk holds" in run(capsys, "ls", str(tmp_path / "claims.atr"))[2]


@pytest.mark.parametrize("mydos", [False, True], ids=["dos2", "mydos"])
@pytest.mark.parametrize(
    "args",
    [
        ["add", "{disk}", "{file}", "--name", "\u00df"],
        ["add", "{disk}", "{file}", "--name", "ABCDEFGHIJ.TXT"],
        ["add", "{disk}", "{file}", "--name", "A.TOOLONG"],
        ["add", "{disk}", "{tmp}/\u00df.bas"],
        ["get", "{disk}", "\u00df"],
        ["get", "{disk}", "ABCDEFGHIJ.TXT"],
        ["rm", "{disk}", "\u00df"],
        ["rm", "{disk}", "ABCDEFGHIJ.TXT"],
        ["ls", "{disk}", "\u00df"],
        ["boot", "{disk}", "--menu=\u00df=GAME"],
        ["boot", "{disk}", "--menu=ABCDEFGHIJ.BAS"],
    ],
    ids=lambda a: "-".join(a[0:1] + a[2:]).replace("{tmp}/", ""),
)
def test_a_name_no_dos_takes_is_refused_naming_the_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], mydos: bool
) -> None:
    """Was: ``add --name ß`` said "file name 'ß': ..." without the disk it was for."""
    path = tmp_path / "D.ATR"
    disk = Dos2Disk.new_mydos(2000, 256, str(path)) if mydos else Dos2Disk.new(source=str(path))
    path.write_bytes(disk.to_bytes())
    (tmp_path / "f.txt").write_bytes(b"data")
    (tmp_path / "\u00df.bas").write_bytes(b"data")
    fields = {"{disk}": str(path), "{file}": str(tmp_path / "f.txt"), "{tmp}": str(tmp_path)}
    for key, value in fields.items():
        args = [a.replace(key, value) for a in args]
    before = path.read_bytes()
    assert one_line_error(capsys, *args).startswith(f"{path}: ")
    assert path.read_bytes() == before


def test_add_packed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--packed stores the stub and the packed program; anything but BASIC is refused."""
    disk = tmp_path / "D.ATR"
    program = tmp_path / "GAME.BAS"
    lines = "".join(f'{10 * n} PRINT "A LINE THAT COMES BACK";{n}\n' for n in range(1, 200))
    program.write_bytes(tokenize(lines))
    assert run(capsys, "new", str(disk))[0] == 0
    assert run(capsys, "add", str(disk), str(program), "--name", "GAME.PK", "--packed")[0] == 0
    stored = Dos2Disk(AtrImage.read(disk)).read_file("GAME.PK")
    assert unpack_program(stored) == program.read_bytes()
    assert len(stored) < len(program.read_bytes()) / 2
    before = disk.read_bytes()
    text = tmp_path / "NOTES.TXT"
    text.write_bytes(b"not a program\x9b")
    status, out, err = run(capsys, "add", str(disk), str(text), "--packed")
    assert status == 1 and out == ""
    assert (
        err == f"{text}: byte 0: not an Atari BASIC SAVE file (its first two bytes must be 00 00)\n"
    )
    assert disk.read_bytes() == before
