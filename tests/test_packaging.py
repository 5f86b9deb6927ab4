"""The packages ship their data and find it through the package, never the repository.

How it works is told in docs/ARCHITECTURE.md ("How a module ships and finds its data"):
a data file sits in its package folder under tools/, pyproject.toml's package-data
patterns put it in the wheel, and the module reads it with importlib.resources.
"""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
TOOLS = REPOSITORY / "tools"


def package_data_patterns() -> list[str]:
    """The file-name patterns that pyproject.toml ships from every package."""
    with (REPOSITORY / "pyproject.toml").open("rb") as handle:
        settings = tomllib.load(handle)
    patterns: list[str] = settings["tool"]["setuptools"]["package-data"]["*"]
    return patterns


def data_files() -> list[Path]:
    """Every file under tools/ that is not Python source or a cache."""
    return sorted(
        path
        for path in TOOLS.rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc")
        and "__pycache__" not in path.parts
        and not any(part.endswith(".egg-info") for part in path.parts)
    )


def test_every_data_file_under_tools_ships_in_the_wheel() -> None:
    """A new kind of data file needs its pattern in pyproject.toml, or an installed
    package would miss it (the slow test below proves it on a real wheel)."""
    patterns = package_data_patterns()
    missing = [
        str(path.relative_to(REPOSITORY))
        for path in data_files()
        if not any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    ]
    assert missing == [], f"add a pattern to [tool.setuptools.package-data]: {missing}"


def test_no_module_looks_for_files_beside_its_own_code() -> None:
    """``__file__`` leads to paths into the repository or site-packages; data is read
    with importlib.resources.files(package) instead."""
    wrong = [
        f"{path.relative_to(REPOSITORY)}:{node.lineno}"
        for path in sorted(TOOLS.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.Name) and node.id == "__file__"
    ]
    assert wrong == []
