"""a8.files.write_atomically: whole files or nothing, and one-line errors."""

from __future__ import annotations

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
