"""The file-system seam: every format registered, the commands blind to which one it is,
and a disk identified and built once per command."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import a8.disk
import a8.disk.dos2.disk as dos2_disk
from a8.cli import main
from a8.disk.detect import FORMATS, UnknownDisk
from a8.disk.dos2 import Dos2Disk
from a8.disk.filesystem import FileSystem, NamedOnly, WritableFileSystem
from tests.test_layout import TOOLS, TOP, imported_modules

#: Modules that hold a format (the registry imports them; the commands do not).
FORMAT_MODULES = {"a8.disk.sparta", "a8.disk.dos3", "a8.disk.dosxe"}


def concrete_file_systems() -> set[type[FileSystem]]:
    """Every class of a8.disk that a disk can be opened as (imports every module)."""
    for module in pkgutil.walk_packages(a8.disk.__path__, "a8.disk."):
        importlib.import_module(module.name)
    found: set[type[FileSystem]] = set()
    pending: list[type[FileSystem]] = [FileSystem]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            pending.append(sub)
            if not getattr(sub, "__abstractmethods__", None):
                found.add(sub)
    return found


def test_every_file_system_is_registered() -> None:
    assert concrete_file_systems() == set(FORMATS) | {UnknownDisk}
    for format_ in FORMATS:
        assert format_.names and issubclass(format_.error, ValueError)


def test_only_the_dos2_family_is_written() -> None:
    assert [f for f in FORMATS if issubclass(f, WritableFileSystem)] == [Dos2Disk]
    assert not any(issubclass(f, WritableFileSystem) for f in (UnknownDisk, NamedOnly))


@pytest.mark.parametrize(
    "module", ["tools/a8/disk/cli.py", "tools/a8/disk/check.py", "tests/fuzz.py"]
)
def test_the_commands_go_through_the_registry(module: str) -> None:
    """No command imports a format's module: a new format needs no change there, nor in
    the fuzzer's disk target. (cli.py and fuzz.py import a8.disk.dos2 for what is DOS
    2's own: `new` and the boot menu.)"""
    path = TOP / module
    root = TOOLS if module.startswith("tools/") else TOP
    wrong = [
        f"{module}:{line}: imports {name}"
        for line, name in imported_modules(path, root)
        if any(name == m or name.startswith(m + ".") for m in FORMAT_MODULES)
    ]
    assert wrong == []


def test_add_identifies_and_builds_the_disk_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: `a8 atr add` identified the disk 4 times and built it twice."""
    disk, source = tmp_path / "D.ATR", tmp_path / "NEW.DAT"
    assert main(["atr", "new", str(disk)]) == 0
    source.write_bytes(b"new")
    calls = {"identified": 0, "built": 0}
    recognise, build = dos2_disk.recognise, Dos2Disk.__init__

    def counted_recognise(*args: object, **kwargs: object) -> object:
        calls["identified"] += 1
        return recognise(*args, **kwargs)  # type: ignore[arg-type]

    def counted_build(self: Dos2Disk, *args: object, **kwargs: object) -> None:
        calls["built"] += 1
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dos2_disk, "recognise", counted_recognise)
    monkeypatch.setattr(Dos2Disk, "__init__", counted_build)
    assert main(["atr", "add", str(disk), str(source)]) == 0
    assert calls == {"identified": 1, "built": 1}
    capsys.readouterr()
