"""a8.reading: inputs read no further than their format allows, one-line errors."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from a8.reading import InputError, read_at_most, read_handle, read_input


def test_a_file_within_its_bound_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "P.BAS"
    path.write_bytes(b"x" * 100)
    assert read_input(path, 100, "any test file") == b"x" * 100
    assert read_at_most(path, 10) == b"x" * 11  # one more than the bound: "too large"


def test_a_larger_file_is_refused_with_its_size(tmp_path: Path) -> None:
    path = tmp_path / "P.BAS"
    path.write_bytes(b"x" * 70_000)
    with pytest.raises(InputError) as caught:
        read_input(path, 65_536, "any Atari BASIC SAVE file")
    assert str(caught.value) == f"{path}: 70,000 bytes: larger than any Atari BASIC SAVE file"


def test_an_endless_device_is_refused_after_the_bound() -> None:
    with pytest.raises(InputError, match=r"^/dev/zero: more than 1,000 bytes: larger than"):
        read_input("/dev/zero", 1000, "any test file")


@pytest.mark.parametrize(
    ("name", "reason"),
    [("missing", "No such file or directory"), ("X" * 300, "File name too long")],
    ids=["missing", "too long"],
)
def test_an_unreadable_name_is_one_line(tmp_path: Path, name: str, reason: str) -> None:
    with pytest.raises(InputError, match=f": cannot read: {reason}$"):
        read_input(tmp_path / name, 10, "any test file")


def test_a_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read: Is a directory"):
        read_input(tmp_path, 10, "any test file")


def test_the_bare_dash_is_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"from a pipe")))
    assert read_input("-", 100, "any test file") == b"from a pipe"
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="standard input: cannot read: standard input is closed"):
        read_input("-", 100, "any test file")


def test_an_open_handle_is_read_to_its_bound() -> None:
    assert read_handle(io.BytesIO(b"abc"), "H", 3, "it") == b"abc"
    with pytest.raises(InputError, match="H: more than 2 bytes: larger than it"):
        read_handle(io.BytesIO(b"abc"), "H", 2, "it")
