"""The packages ship their data and find it through the package, never the repository.

How it works is told in docs/ARCHITECTURE.md ("How a module ships and finds its data"):
a data file sits in its package folder under tools/, pyproject.toml's package-data
patterns put it in the wheel, and the module reads it with importlib.resources.

The slow tests prove it as a user would meet it: they build the sdist and the wheel
(``python -m build``), install the wheel into a fresh virtual environment outside the
checkout, and run the commands from an empty folder. pip fetches the dependencies from
the index it is configured with (pip.conf); nothing else is downloaded.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
import readme_renderer.markdown
import trove_classifiers

from a8 import __version__ as a8_version
from machfsol import __version__ as machfsol_version

REPOSITORY = Path(__file__).resolve().parents[1]
TOOLS = REPOSITORY / "tools"
#: Folders of the repository that the sdist carries whole (MANIFEST.in).
SDIST_FOLDERS = ("basic_src", "atr", "docs", "emu_scripts", "tests", "benchmarks", ".ci")


def pyproject() -> dict[str, object]:
    with (REPOSITORY / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def package_data_patterns() -> list[str]:
    """The file-name patterns that pyproject.toml ships from every package."""
    settings = pyproject()["tool"]
    assert isinstance(settings, dict)
    patterns: list[str] = settings["setuptools"]["package-data"]["*"]
    return patterns


def extension_sources() -> set[Path]:
    """The C sources of the compiled modules (pyproject.toml's ext-modules): built into
    the wheel, carried by the sdist, not data."""
    settings = pyproject()["tool"]
    assert isinstance(settings, dict)
    modules: list[dict[str, list[str]]] = settings["setuptools"]["ext-modules"]
    return {REPOSITORY / source for module in modules for source in module["sources"]}


def data_files() -> list[Path]:
    """Every file under tools/ that is not Python source, a compiled module's source or
    build (an editable install builds it beside its source), or a cache."""
    sources = extension_sources()
    return sorted(
        path
        for path in TOOLS.rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc")
        and path not in sources
        and not path.name.endswith(tuple(EXTENSION_SUFFIXES))
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


def test_every_package_data_pattern_matches_a_file() -> None:
    """A pattern with no file behind it promises a kind of data the packages do not have."""
    names = [path.name for path in data_files()]
    unused = [p for p in package_data_patterns() if not fnmatch.filter(names, p)]
    assert unused == [], f"remove from [tool.setuptools.package-data]: {unused}"


#: Where the README's links and images point: the project on the web.
PROJECT_URL = "https://github.com/machfsol/machfsol"


def test_the_metadata_a_package_index_shows() -> None:
    """Authors, addresses, classifiers PyPI knows, and a README that renders there: the
    links absolute, since a package index has none of the repository's files."""
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["authors"] == [{"name": "The MAChFsol authors"}]
    assert set(project["urls"]) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(url.startswith(PROJECT_URL) for url in project["urls"].values())
    unknown = set(project["classifiers"]) - set(trove_classifiers.classifiers)
    assert project["classifiers"] and unknown == set()
    html = readme_renderer.markdown.render(
        (REPOSITORY / "README.md").read_text(encoding="utf-8"), variant="GFM"
    )
    assert html is not None, "README.md does not render as a package index renders it"
    targets = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert len(targets) > 20
    relative = [t for t in targets if not t.startswith(("https://", "#"))]
    assert relative == [], "links a package index cannot follow"
    assert "dist/" in (REPOSITORY / ".gitignore").read_text().splitlines()


def test_dask_is_an_extra_not_a_dependency() -> None:
    """`machfsol odds --cluster` alone needs Dask distributed (and its 20 packages)."""
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert not any(r.startswith("distributed") for r in project["dependencies"])
    assert project["optional-dependencies"]["cluster"] == ["distributed>=2024.8"]
    assert "machfsol[cluster]" in project["optional-dependencies"]["dev"]


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


def test_the_versions_agree() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert a8_version == machfsol_version == project["version"]


def test_both_packages_declare_their_types() -> None:
    assert (TOOLS / "a8" / "py.typed").is_file()
    assert (TOOLS / "machfsol" / "py.typed").is_file()


# ------------------------------------------------------------------ built and installed


@dataclass(frozen=True)
class Installed:
    """The sdist and wheel built from this checkout, and a virtual environment outside
    it with the wheel installed."""

    sdist: Path
    wheel: Path
    venv: Path
    empty: Path  # a folder with nothing in it, where the commands run

    def environment(self) -> dict[str, str]:
        """The user's environment with the new virtual environment first on PATH, and
        nothing that would let Python find the checkout's tools/ instead."""
        env = {
            name: value
            for name, value in os.environ.items()
            if name not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
        }
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return env

    def run(self, *command: str, timeout: float = 300) -> str:
        """Run an installed command in the empty folder; its standard output."""
        return checked(
            [str(self.venv / "bin" / command[0]), *command[1:]],
            self.empty,
            self.environment(),
            timeout,
        )

    def attempt(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Run an installed command that may fail; what it did."""
        return subprocess.run(
            [str(self.venv / "bin" / command[0]), *command[1:]],
            cwd=self.empty,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )


def checked(command: Sequence[str], cwd: Path, env: dict[str, str], timeout: float) -> str:
    """Run ``command``; fail loudly, with its output, if it does not exit 0."""
    result = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, (
        f"`{' '.join(command)}` in {cwd} exited {result.returncode}\n"
        f"--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
    )
    return result.stdout


def not_sources(folder: str, names: list[str]) -> set[str]:
    """What a build must not see: version control, environments, caches and earlier
    build output (setuptools reads an old egg-info's file list and would ship from it)."""
    top = {".git", ".venv", "build", "dist", "out"} if Path(folder) == REPOSITORY else set()
    return {
        name
        for name in names
        if name in top
        or name == "__pycache__"
        or name.endswith((".egg-info", "_cache", ".pyc"))
        or name == ".hypothesis"
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    place = tmp_path_factory.mktemp("packaging")
    assert not place.is_relative_to(REPOSITORY)
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    source = place / "source"
    shutil.copytree(REPOSITORY, source, symlinks=True, ignore=not_sources)
    dist = place / "dist"
    # The sdist first, then the wheel built from the unpacked sdist (build's default).
    checked(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        place,
        environment,
        timeout=600,
    )
    (sdist,) = dist.glob("machfsol-*.tar.gz")
    # A platform wheel: it holds the compiled search (machfsol.odds._concrete).
    (wheel,) = dist.glob("machfsol-*.whl")
    venv = place / "venv"
    checked([sys.executable, "-m", "venv", str(venv)], place, environment, timeout=300)
    checked(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        place,
        environment,
        timeout=600,
    )
    empty = place / "empty"
    empty.mkdir()
    return Installed(sdist, wheel, venv, empty)


def repository_files(folder: str) -> set[str]:
    """The files of a repository folder, as paths relative to the repository."""
    return {
        path.relative_to(REPOSITORY).as_posix()
        for path in (REPOSITORY / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


@pytest.mark.slow
def test_the_sdist_holds_the_tests_docs_and_sources(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as archive:
        top = f"machfsol-{machfsol_version}/"
        members = {
            member.name.removeprefix(top): member
            for member in archive.getmembers()
            if member.isfile() or member.islnk()
        }
        wanted = set().union(*(repository_files(folder) for folder in SDIST_FOLDERS))
        assert wanted - set(members) == set()
        packaged = members["tools/machfsol/atari/machfsol.bas"]
        copy = archive.extractfile(packaged)
        assert copy is not None
        assert copy.read() == (REPOSITORY / "basic_src" / "machfsol.bas").read_bytes()
    assert {"README.md", "LICENSE", "pyproject.toml", "tools/a8/cli.py"} <= set(members)


@pytest.mark.slow
def test_the_wheel_holds_every_data_file(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        assert (
            wheel.read("machfsol/atari/machfsol.bas")
            == (REPOSITORY / "basic_src" / "machfsol.bas").read_bytes()
        )
    wanted = {path.relative_to(TOOLS).as_posix() for path in data_files()}
    assert {"a8/py.typed", "machfsol/py.typed", "a8/__main__.py"} <= wanted | names
    assert wanted - names == set()
    assert not any(name.startswith("tests/") for name in names)
    # The compiled search's C source is for building (the sdist), not for the wheel.
    assert not [name for name in names if name.endswith(".c")]
    # PEP 639: the licence text travels with the wheel, named in its metadata.
    licences = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
    assert licences, sorted(names)
    assert (
        zipfile.Path(installed.wheel, licences[0]).read_text()
        == (REPOSITORY / "LICENSE").read_text()
    )


@pytest.mark.slow
def test_the_wheel_holds_the_compiled_search(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
    assert any(
        name.startswith("machfsol/odds/_concrete.") and name.endswith(tuple(EXTENSION_SUFFIXES))
        for name in names
    ), names
    assert "machfsol/odds/_concrete.pyi" in names
    report = installed.run(
        "python", "-c", "from machfsol.odds import solver; print(solver.COMPILED)"
    )
    assert report == "True\n"
    assert installed.run("machfsol", "solve", "--variant", "2", "--deck", "44", "--seed", "1") == (
        "LOST (proved: 574 states searched by the reduced search, none wins)\n"
    )


@pytest.mark.slow
def test_the_plain_install_leaves_dask_out(installed: Installed) -> None:
    """Dask distributed is the extra machfsol[cluster]; --cluster without it is one line
    saying how to get it, exit status 2."""
    found = installed.run("python", "-c", "import importlib.util as u; print(u.find_spec('dask'))")
    assert found == "None\n"
    result = installed.attempt(
        "machfsol", "odds", "--deck", "20", "--deals", "2", "--cluster", "local"
    )
    assert result.returncode == 2 and result.stdout == ""
    assert "pip install 'machfsol[cluster]'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_wheel_built_without_a_c_compiler_runs_the_python_search(
    installed: Installed, tmp_path: Path
) -> None:
    """The README's promise: on a machine without a C compiler the build says so and goes
    on, and the package runs the same search in Python, with the same answers."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environment["CC"] = "/bin/false"  # a compiler that cannot compile anything
    dist = tmp_path / "dist"
    checked(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(installed.sdist)],
        tmp_path,
        environment,
        timeout=600,
    )
    (wheel,) = dist.glob("machfsol-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [name for name in names if "_concrete." in name and not name.endswith(".pyi")]
    venv = tmp_path / "venv"
    checked([sys.executable, "-m", "venv", str(venv)], tmp_path, environment, timeout=300)
    checked(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        tmp_path,
        environment,
        timeout=600,
    )
    plain = Installed(installed.sdist, wheel, venv, installed.empty)
    result = plain.attempt("machfsol", "solve", "--variant", "2", "--deck", "44", "--seed", "1")
    assert result.returncode == 0
    assert result.stdout == "LOST (proved: 574 states searched by the reduced search, none wins)\n"
    assert "the compiled search is not built" in result.stderr


@pytest.mark.slow
def test_the_installed_package_is_not_the_checkout(installed: Installed) -> None:
    where = installed.run(
        "python", "-c", "import a8, machfsol; print(a8.__file__); print(machfsol.__file__)"
    )
    for line in where.splitlines():
        assert Path(line).is_relative_to(installed.venv), where


@pytest.mark.slow
def test_the_commands_and_their_versions(installed: Installed) -> None:
    assert installed.run("a8", "--version") == f"a8 {a8_version}\n"
    assert installed.run("machfsol", "--version") == f"machfsol {machfsol_version}\n"
    assert installed.run("python", "-m", "a8", "--version") == f"a8 {a8_version}\n"
    assert installed.run("python", "-m", "machfsol", "--version") == (
        f"machfsol {machfsol_version}\n"
    )
    assert installed.run("machfsol", "deal", "--seed", "7").strip()


@pytest.mark.slow
def test_the_toolchain_on_small_inputs(installed: Installed) -> None:
    folder = installed.empty / "toolchain"
    folder.mkdir()
    (folder / "HELLO.LST").write_text('10 PRINT "HELLO"\n20 GOTO 10\n', encoding="ascii")
    run = installed.run
    run("a8", "tokenize", "toolchain/HELLO.LST", "-o", "toolchain/HELLO.BAS")
    assert run("a8", "list", "toolchain/HELLO.BAS") == '10 PRINT "HELLO"\n20 GOTO 10\n'
    run("a8", "atr", "new", "toolchain/HELLO.ATR")
    run("a8", "atr", "add", "toolchain/HELLO.ATR", "toolchain/HELLO.BAS")
    listing = run("a8", "atr", "ls", "toolchain/HELLO.ATR").splitlines()
    assert listing[0] == "DOS 2.0S (720 sectors of 128 bytes)"  # the file system, named
    assert listing[1].split() == ["HELLO", "BAS", "001"]
    assert sorted(path.name for path in folder.iterdir()) == ["HELLO.ATR", "HELLO.BAS", "HELLO.LST"]


@pytest.mark.slow
@pytest.mark.emulator
def test_build_and_verify_from_an_empty_folder(atari800: str, installed: Installed) -> None:
    """The installed game: build writes ./MACHFSOL.ATR, the very disk committed in
    atr/; verify plays both games in atari800 and leaves nothing behind."""
    folder = installed.empty / "game"
    folder.mkdir()
    game = Installed(installed.sdist, installed.wheel, installed.venv, folder)
    game.run("machfsol", "build")
    assert (folder / "MACHFSOL.ATR").read_bytes() == (
        REPOSITORY / "atr" / "MACHFSOL.ATR"
    ).read_bytes()
    (folder / "MACHFSOL.ATR").unlink()
    report = game.run("machfsol", "verify", "--seeds", "1-5", "--variant", "both", timeout=900)
    assert "game disk built from " + str(installed.venv) in report
    assert "10 of 10 deals verified" in report and report.rstrip().endswith("OK"), report
    assert list(folder.iterdir()) == []
