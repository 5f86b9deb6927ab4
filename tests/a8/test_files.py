"""a8.files.write_atomically: whole files or nothing, one-line errors, never the wrong door."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from a8 import files
from a8.files import (
    OutputError,
    check_output,
    is_stdout,
    output_argument,
    output_exists,
    refuse_input_as_output,
    updating,
    write_atomically,
)


def test_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "OUT.BIN"
    write_atomically(target, b"first")
    write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in tmp_path.iterdir()] == ["OUT.BIN"]


def test_a_missing_folder_is_an_error_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "OUT.BIN"
    with pytest.raises(OutputError, match=r"OUT\.BIN: cannot write: No such file"):
        write_atomically(target, b"data")


def test_a_folder_in_the_way_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "OUT.BIN").mkdir()
    with pytest.raises(OutputError, match=r"OUT\.BIN: cannot write: Is a directory"):
        write_atomically(tmp_path / "OUT.BIN", b"data")
    assert [p.name for p in tmp_path.iterdir()] == ["OUT.BIN"]


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.bin"
    target.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to("real.bin")
    write_atomically(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    dangling = tmp_path / "dangling.bin"
    dangling.symlink_to("made.bin")
    write_atomically(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "made.bin").read_bytes() == b"made"


def test_a_read_only_file_is_refused_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "ro.bin"
    target.write_bytes(b"keep")
    target.chmod(0o444)
    with pytest.raises(OutputError, match=r"ro\.bin: cannot write: the file is read-only"):
        write_atomically(target, b"new")
    assert target.read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.bin"]


def test_permissions_of_a_replaced_file_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "script.sh"
    target.write_bytes(b"old")
    target.chmod(0o751)
    write_atomically(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o751


def test_devices_are_written_in_place(tmp_path: Path) -> None:
    write_atomically("/dev/null", b"discarded")
    assert Path("/dev/null").is_char_device()  # still the device, even for root


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomically(fifo, b"through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_dash_is_standard_output(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    write_atomically("-", b"to stdout\x9b")
    assert capfdbinary.readouterr().out == b"to stdout\x9b"


# -- who writes: the bare dash, long names, the input itself ----------------------------


def test_only_the_bare_dash_is_standard_output(tmp_path: Path) -> None:
    """argparse's type=Path turns ``./-`` into ``-``; output_argument keeps them apart."""
    assert output_argument("-") == "-" and is_stdout(output_argument("-"))
    named = output_argument("./-")
    assert isinstance(named, Path) and not is_stdout(named)
    write_atomically(tmp_path / "-", b"a file")
    assert (tmp_path / "-").read_bytes() == b"a file"


def test_a_name_too_long_is_one_error_not_a_traceback(tmp_path: Path) -> None:
    long = tmp_path / ("X" * 300)
    with pytest.raises(OutputError, match=r"X: cannot write: File name too long"):
        write_atomically(long, b"data")
    with pytest.raises(OutputError, match="File name too long"):
        check_output(long)
    with pytest.raises(OutputError, match="File name too long"):
        output_exists(long)


def test_a_long_name_the_system_takes_is_written(tmp_path: Path) -> None:
    """The temporary file's name is the target's with 14 more characters: cut to fit."""
    target = tmp_path / ("Y" * 250)
    write_atomically(target, b"one")
    write_atomically(target, b"two")
    assert target.read_bytes() == b"two" and len(list(tmp_path.iterdir())) == 1


def test_check_output_refuses_a_missing_folder_and_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="No such file"):
        check_output(tmp_path / "missing" / "out.png")
    with pytest.raises(OutputError, match="Is a directory"):
        check_output(tmp_path)
    check_output(tmp_path / "new.png")
    check_output("-")


def test_the_input_is_not_an_output(tmp_path: Path) -> None:
    source = tmp_path / "same.lst"
    source.write_bytes(b"10 PRINT\n")
    (tmp_path / "link.lst").symlink_to("same.lst")
    for output in (source, tmp_path / "." / "same.lst", tmp_path / "link.lst"):
        with pytest.raises(OutputError, match="is also the input"):
            refuse_input_as_output(output, tmp_path / "other", source)
    refuse_input_as_output(tmp_path / "new.bas", source)  # a new name
    refuse_input_as_output("-", source)  # standard output
    refuse_input_as_output(Path("/dev/null"), Path("/dev/null"))  # nothing to lose


# -- hard links, stale temporaries ---------------------------------------------------------


def test_a_file_with_other_hard_links_is_refused_not_split(tmp_path: Path) -> None:
    """Renaming a new file over one name would leave the other on the old content."""
    one = tmp_path / "one.atr"
    one.write_bytes(b"old")
    os.link(one, tmp_path / "two.atr")
    with pytest.raises(OutputError, match=r"one\.atr: cannot write: the file has 2 names"):
        write_atomically(one, b"new")
    with pytest.raises(OutputError, match="2 names"), updating(one):
        pass
    assert one.read_bytes() == (tmp_path / "two.atr").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.atr", "two.atr"]


def test_a_stale_temporary_goes_with_the_next_write(tmp_path: Path) -> None:
    """A writer killed between the temporary and the rename leaves ``.NAME.XXXXXXXX.tmp``;
    the next write of NAME removes it. Another file's, or one being written, stays."""
    target = tmp_path / "D.ATR"
    target.write_bytes(b"disk")
    stale = tmp_path / ".D.ATR.abcd1234.tmp"
    stale.write_bytes(b"a whole image, never renamed")
    other = tmp_path / ".E.ATR.abcd1234.tmp"
    other.write_bytes(b"another file's")
    busy = tmp_path / ".D.ATR.busy5678.tmp"
    busy.write_bytes(b"being written")
    with busy.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a writer holds its temporary
        write_atomically(target, b"new disk")
    assert target.read_bytes() == b"new disk"
    assert not stale.exists() and other.exists() and busy.exists()


def test_a_writer_that_cannot_get_the_lock_gives_up_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "LOCK_WAIT_SECONDS", 0.2)
    target = tmp_path / "D.ATR"
    target.write_bytes(b"disk")
    with target.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(OutputError, match="another program has been changing it"):
            write_atomically(target, b"new")
    assert target.read_bytes() == b"disk"


# -- writers at once -----------------------------------------------------------------------


def _append_slowly(path: str, line: str) -> None:
    """A read-modify-write with time between the read and the write."""
    with updating(path) as update:
        old = update.handle.read()
        time.sleep(0.05)
        update.write(old + line.encode() + b"\n")


def test_read_modify_writes_at_once_never_lose_a_change(tmp_path: Path) -> None:
    """Without the lock, each writer replaces the file with its own read plus one line,
    and most lines are lost; with it, every line lands."""
    target = tmp_path / "log.txt"
    target.write_bytes(b"")
    lines = [f"writer {number}" for number in range(12)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(6) as pool:
        pool.starmap(_append_slowly, [(str(target), line) for line in lines])
    assert sorted(target.read_text().splitlines()) == sorted(lines)
    assert [p.name for p in tmp_path.iterdir()] == ["log.txt"]


def test_a_plain_write_waits_for_a_read_modify_write(tmp_path: Path) -> None:
    """write_atomically takes the same lock: it lands after the change, not under it."""
    target = tmp_path / "D.ATR"
    target.write_bytes(b"old")
    started = threading.Event()

    def change() -> None:
        with updating(target) as update:
            started.set()
            time.sleep(0.3)
            update.write(update.handle.read() + b" changed")

    worker = threading.Thread(target=change)
    worker.start()
    started.wait(5)
    write_atomically(target, b"replaced")
    worker.join(5)
    assert target.read_bytes() == b"replaced"
