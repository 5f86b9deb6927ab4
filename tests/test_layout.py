"""The packages' import direction, read from the source (no module is imported).

``a8`` is the general toolchain and knows nothing of the games. Inside ``machfsol`` the
engine is the reference everything else is checked against, so it imports nothing of
the other parts; the Atari side, the terminal game and the odds each build on the engine
(and on ``a8``) but not on one another. Only the command-line wiring at the package's top
(``cli``, ``main_job``) sees every part. A forbidden import anywhere, even inside a
function, fails here with the file and line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[1]
TOOLS = TOP / "tools"

#: What each part of ``machfsol`` may import from ``machfsol`` (prefixes of module names).
ALLOWED: dict[str, tuple[str, ...]] = {
    "engine": ("machfsol.engine", "machfsol.errors"),
    "atari": ("machfsol.atari", "machfsol.engine", "machfsol.errors"),
    "terminal": ("machfsol.terminal", "machfsol.engine", "machfsol.errors"),
    "odds": ("machfsol.odds", "machfsol.engine", "machfsol.errors"),
}
PARTS = tuple(ALLOWED)


def imported_modules(path: Path, root: Path = TOOLS) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, absolute, with the line of the import."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's own package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:  # "from machfsol import engine" imports a part
                yield node.lineno, f"{module}.{alias.name}"


def modules_of(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def is_within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.parametrize("part", PARTS)
def test_each_part_of_machfsol_imports_only_what_it_builds_on(part: str) -> None:
    wrong = [
        f"{path.relative_to(TOOLS)}:{line}: imports {module}"
        for path in modules_of(TOOLS / "machfsol" / part)
        for line, module in imported_modules(path)
        if is_within(module, "machfsol")
        and module not in ("machfsol", "machfsol.__version__")
        and not any(is_within(module, prefix) for prefix in ALLOWED[part])
    ]
    assert wrong == []


def test_the_package_root_imports_no_part_except_in_the_command_wiring() -> None:
    wiring = {"cli.py", "main_job.py", "__main__.py"}
    wrong = [
        f"{path.name}:{line}: imports {module}"
        for path in sorted((TOOLS / "machfsol").glob("*.py"))
        if path.name not in wiring
        for line, module in imported_modules(path)
        if any(is_within(module, f"machfsol.{part}") for part in PARTS)
    ]
    assert wrong == []


#: The emulator backend a8 ships. Runs go through the interface, a8.emu.emulator, whose
#: registry imports the backend when first asked for it; machfsol and the tests never
#: name it, so that another backend (the tests' stand-in machine) can take its place.
EMULATOR_BACKEND = "a8.emu.atari800"
#: The a8 modules that may import it: the registry, and the doctor, which checks
#: atari800's own set-up (the package's own modules are not counted).
BACKEND_IMPORTERS = ("a8/emu/emulator.py", "a8/emu/doctor.py")


def backend_imports(paths: list[Path], root: Path) -> list[str]:
    """The imports of the emulator backend in ``paths`` (files under ``root``)."""
    return [
        f"{path.relative_to(root)}:{line}: imports {module}"
        for path in paths
        for line, module in imported_modules(path, root)
        if is_within(module, EMULATOR_BACKEND)
    ]


def test_machfsol_runs_the_emulator_through_its_interface_only() -> None:
    assert backend_imports(modules_of(TOOLS / "machfsol"), TOOLS) == []


def test_a8_reaches_the_emulator_backend_only_through_the_registry() -> None:
    backend = TOOLS / "a8" / "emu" / "atari800"
    others = [
        path
        for path in modules_of(TOOLS / "a8")
        if backend not in path.parents and str(path.relative_to(TOOLS)) not in BACKEND_IMPORTERS
    ]
    assert backend_imports(others, TOOLS) == []


def test_the_tests_run_the_emulator_through_its_interface_only() -> None:
    """Only the backend's own tests (tests/a8/emu/atari800/) import it."""
    own = TOP / "tests" / "a8" / "emu" / "atari800"
    tests = [path for path in modules_of(TOP / "tests") if own not in path.parents]
    assert backend_imports(tests, TOP) == []


def test_the_emulator_check_fails_on_a_planted_backend_import(tmp_path: Path) -> None:
    """Three ways machfsol could name the backend, one inside a function, all caught;
    the interface's import is not."""
    planted = {
        "lazy.py": "def run():\n    from a8.emu.atari800.session import PipeSession\n",
        "plain.py": "import a8.emu.atari800\n",
        "name.py": "from a8.emu import atari800\n",
        "fine.py": "from a8.emu.emulator import EmulatorOptions, run\n",
    }
    folder = tmp_path / "machfsol" / "atari"
    folder.mkdir(parents=True)
    for name, source in planted.items():
        (folder / name).write_text(source, encoding="utf-8")
    assert backend_imports(modules_of(tmp_path / "machfsol"), tmp_path) == [
        "machfsol/atari/lazy.py:2: imports a8.emu.atari800.session",
        "machfsol/atari/lazy.py:2: imports a8.emu.atari800.session.PipeSession",
        "machfsol/atari/name.py:1: imports a8.emu.atari800",
        "machfsol/atari/plain.py:1: imports a8.emu.atari800",
    ]


def test_every_module_of_machfsol_belongs_to_a_part_or_the_wiring() -> None:
    top = {path.name for path in (TOOLS / "machfsol").glob("*.py")}
    assert top <= {"__init__.py", "__main__.py", "cli.py", "main_job.py", "errors.py"}
    folders = {path.name for path in (TOOLS / "machfsol").iterdir() if path.is_dir()}
    assert folders - {"__pycache__"} <= set(PARTS) | {"data"}


def test_a8_knows_nothing_of_the_games() -> None:
    wrong = [
        f"{path.relative_to(TOOLS)}:{line}: imports {module}"
        for path in modules_of(TOOLS / "a8")
        for line, module in imported_modules(path)
        if is_within(module, "machfsol")
    ]
    assert wrong == []


def test_the_checks_see_imports_inside_functions(tmp_path: Path) -> None:
    """The reader must not miss a lazy import (the kind that hides a cycle)."""
    sample = TOOLS / "machfsol" / "main_job.py"
    modules = {module for _line, module in imported_modules(sample)}
    assert "machfsol.atari.verify" in modules
    assert "machfsol.engine.rules" in modules
