"""a8.files.write_atomically: whole files or nothing, one-line errors, never the wrong door."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from a8.files import OutputError, write_atomically


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
