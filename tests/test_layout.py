"""The packages' import direction and private names, read from the source (no module is
imported).

``a8`` is the general toolchain and knows nothing of the games. Inside ``machfsol`` the
engine is the reference everything else is checked against, so it imports nothing of
the other parts; the Atari side, the terminal game and the odds each build on the engine
(and on ``a8``) but not on one another. Only the command-line wiring at the package's top
(``cli``, ``main_job``) sees every part. A forbidden import anywhere, even inside a
function, fails here with the file and line.

A part's private names (``_tab``, ``_push``: a leading underscore) are its own: another
part uses what the owner offers in public (the engine's ``Position`` has a fast
interface for the solver), so that the owner can change its insides. A use of another
part's private name, ``position._tab`` or ``from machfsol.engine.rules import _tables``,
fails here too. Which part a private attribute belongs to is read from where it is
defined (``def _x``, ``self._x = ...``, a module's ``_x = ...``), since the source does
not say what type ``position`` has: a private name that only other parts define is
theirs. Each check is also run on a planted violation, to show that it can fail.
"""

from __future__ import annotations

import ast
import textwrap
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

#: The parts that own their private names: machfsol's four, its top (the wiring and the
#: errors), the toolchain, and the benchmarks (which own nothing anyone uses). A module
#: belongs to the longest of these that prefixes its name.
OWNERS = (*(f"machfsol.{part}" for part in PARTS), "machfsol", "a8", "benchmarks")


def module_name(path: Path, root: Path = TOOLS) -> str:
    """``machfsol.odds.solver.concrete`` for ``root/machfsol/odds/solver/concrete.py``."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path = TOOLS) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, absolute, with the line of the import."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = imported_from(node, package)
            yield node.lineno, module
            for alias in node.names:  # "from machfsol import engine" imports a part
                yield node.lineno, f"{module}.{alias.name}"


def imported_from(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a ``from ... import`` reads, in ``package``."""
    if not node.level:
        return node.module or ""
    # Relative: resolved against the module's own package.
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def modules_of(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def is_within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def wrong_imports(part: str, tools: Path = TOOLS) -> list[str]:
    """The imports of ``part`` that reach a part of machfsol it does not build on."""
    return [
        f"{path.relative_to(tools)}:{line}: imports {module}"
        for path in modules_of(tools / "machfsol" / part)
        for line, module in imported_modules(path, tools)
        if is_within(module, "machfsol")
        and module not in ("machfsol", "machfsol.__version__")
        and not any(is_within(module, prefix) for prefix in ALLOWED[part])
    ]


@pytest.mark.parametrize("part", PARTS)
def test_each_part_of_machfsol_imports_only_what_it_builds_on(part: str) -> None:
    assert wrong_imports(part) == []


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


def plant(root: Path, modules: dict[str, str]) -> Path:
    """Write a small tree of modules (``{"machfsol/odds/x.py": source}``) under ``root``."""
    for name, source in modules.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def test_the_import_check_sees_a_wrong_import_inside_a_function(tmp_path: Path) -> None:
    """The reader must not miss a lazy import (the kind that hides a cycle): one planted
    in a function of a method of a class of the engine, and one inside a ``try``, fail
    the check; the engine's own imports there do not."""
    tools = plant(
        tmp_path,
        {
            "machfsol/engine/rules.py": """
                from machfsol.engine.cards import Deck

                class Position:
                    def hint(self) -> None:
                        def inner() -> None:
                            from machfsol.odds.solver import solve
                        try:
                            import machfsol.terminal.game
                        except ImportError:
                            pass
                """,
        },
    )
    assert wrong_imports("engine", tools) == [
        "machfsol/engine/rules.py:7: imports machfsol.odds.solver",
        "machfsol/engine/rules.py:7: imports machfsol.odds.solver.solve",
        "machfsol/engine/rules.py:9: imports machfsol.terminal.game",
    ]


# ----------------------------------------------------------------------- private names


def owner(module: str) -> str | None:
    """The part ``module`` belongs to (None: not one of the project's)."""
    found = [prefix for prefix in OWNERS if is_within(module, prefix)]
    return max(found, key=len) if found else None


def is_private(name: str) -> bool:
    """``_x`` and ``__x`` are private; ``__x__`` (Python's own) and ``_`` are not."""
    return name.startswith("_") and not name.endswith("__") and name != "_"


class _Definitions(ast.NodeVisitor):
    """The private names a module defines where another module could reach them: its
    functions, classes and module-level names (assigned or imported), its classes'
    methods and attributes, and the attributes its methods set on ``self`` or ``cls``
    (a method's first parameter). A function's local variables are not among them."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.scopes: list[str | None] = [None]  # None: module or class; else ``self``

    def _define(self, name: str) -> None:
        if is_private(name):
            self.names.add(name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._define(node.name)
        arguments = [*node.args.posonlyargs, *node.args.args]
        self.scopes.append(arguments[0].arg if arguments else "")
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._define(node.name)
        self.scopes.append(None)
        self.generic_visit(node)
        self.scopes.pop()

    def _target(self, target: ast.expr) -> None:
        scope = self.scopes[-1]
        if isinstance(target, ast.Name) and scope is None:
            self._define(target.id)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            if scope and target.value.id == scope:
                self._define(target.attr)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._target(element)
        elif isinstance(target, ast.Starred):
            self._target(target.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target)
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        if self.scopes[-1] is None:
            for alias in node.names:
                self._define(alias.asname or alias.name.split(".")[0])

    visit_ImportFrom = visit_Import


class _Uses(ast.NodeVisitor):
    """The private attributes a module uses (``x._y``), each with the class of ``x`` when
    the source says it: a parameter or variable annotated with an imported class, or a
    variable made by calling one. Then the class's part owns the name, whoever else
    defines one of that name."""

    def __init__(self, imports: dict[str, str]) -> None:
        self.imports = imports  # a name the module binds by importing: what it is
        self.types: list[dict[str, str]] = [{}]  # per scope, variable: its class
        self.found: list[tuple[int, str, str | None]] = []  # line, name, class

    def _class_of(self, expression: ast.expr | None) -> str | None:
        if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
            try:  # an annotation written as a string
                expression = ast.parse(expression.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(expression, ast.Name):
            return self.imports.get(expression.id)
        if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
            module = self.imports.get(expression.value.id)
            return None if module is None else f"{module}.{expression.attr}"
        return None

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        scope = {arg.arg: self._class_of(arg.annotation) for arg in every}
        self.types.append({name: kind for name, kind in scope.items() if kind})
        self.generic_visit(node)
        self.types.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        kind = self._class_of(node.annotation)
        if isinstance(node.target, ast.Name) and kind:
            self.types[-1][node.target.id] = kind
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Call):
            kind = self._class_of(node.value.func)
            for target in node.targets:
                if isinstance(target, ast.Name) and kind:
                    self.types[-1][target.id] = kind
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if is_private(node.attr):
            kind = None
            if isinstance(node.value, ast.Name):
                name = node.value.id
                kind = next((scope[name] for scope in reversed(self.types) if name in scope), None)
            self.found.append((node.lineno, node.attr, kind))
        self.generic_visit(node)


def bound_by_imports(tree: ast.Module, package: str) -> dict[str, str]:
    """Every name the module binds by importing (anywhere in it), and what it is:
    ``{"Position": "machfsol.engine.rules.Position", "rules": "machfsol.engine.rules"}``."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            module = imported_from(node, package)
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    return bound


def project_modules(top: Path) -> Iterator[tuple[str, Path]]:
    """Every module of the project in the folder ``top``: the packages under ``tools``,
    and the benchmarks."""
    for package in ("a8", "machfsol"):
        for path in modules_of(top / "tools" / package):
            yield module_name(path, top / "tools"), path
    for path in modules_of(top / "benchmarks"):
        yield module_name(path, top), path


def private_uses(top: Path = TOP) -> list[str]:
    """Every use, in one part, of a private name that belongs to another, with the
    file and line."""
    trees = {
        name: (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
        for name, path in project_modules(top)
    }
    owners: dict[str, set[str]] = {}  # private name: the parts that define it
    for name, (path, tree) in trees.items():
        definitions = _Definitions()
        definitions.visit(tree)
        if is_private(path.stem):  # a private module: machfsol.odds._concrete
            definitions.names.add(path.stem)
        for defined in definitions.names:
            owners.setdefault(defined, set()).add(str(owner(name)))
    wrong: list[tuple[Path, int, str]] = []
    for name, (path, tree) in trees.items():
        part = str(owner(name))
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        uses = _Uses(bound_by_imports(tree, package))
        uses.visit(tree)
        for line, used, kind in uses.found:
            # The class's part when the source says it, else every part defining the name.
            theirs = {str(owner(kind))} if kind and owner(kind) else owners.get(used, set())
            if theirs and part not in theirs:
                where = " and ".join(sorted(theirs))
                wrong.append((path, line, f"uses {used}, private to {where}"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for module, line in _imported_names(node):
                    home = owner(module)
                    if home not in (None, part) and any(map(is_private, module.split("."))):
                        wrong.append((path, line, f"imports {module}, private to {home}"))
    return [f"{path.relative_to(top)}:{line}: {what}" for path, line, what in sorted(wrong)]


def _imported_names(node: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, int]]:
    """The absolute names an import statement takes (``machfsol.engine.rules._tables``
    for ``from machfsol.engine.rules import _tables``); relative imports stay within a
    package, so within a part."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, node.lineno
    elif not node.level:
        for alias in node.names:
            yield f"{node.module}.{alias.name}", node.lineno


def test_no_part_uses_another_parts_private_names() -> None:
    assert private_uses() == []


def test_the_private_name_check_fails_on_planted_uses(tmp_path: Path) -> None:
    """A module of the odds planted with uses of the engine's private names, inside a
    function, a method and a comprehension, is caught at each, and so is a use of a
    name that the odds define too when the receiver is annotated with the engine's
    class; the same uses inside the engine, a private name only the odds define, and
    the private names of the standard library (argparse's ``_actions``) are not."""
    top = plant(
        tmp_path,
        {
            "tools/machfsol/engine/rules.py": """
                _TABLES = {}

                def _tables(size):
                    return _TABLES[size]

                class Position:
                    def __init__(self):
                        self._tab = []
                        self._discard: list[int] = []

                    def _push(self, source, destination):
                        self._discard.append(source)
                """,
            "tools/machfsol/engine/autoplay.py": """
                def play(position):
                    position._push(0, 1)
                    return position._tab
                """,
            "tools/machfsol/odds/solver.py": """
                from machfsol.engine.rules import Position, _tables

                class Search:
                    def __init__(self, position: Position) -> None:
                        self._line = []
                        self.position = position

                    def realize(self) -> None:
                        def inner() -> list[int]:
                            return [card for card in self.position._discard]
                        self.position._push(0, 1)
                        self._line.append(inner())

                def arguments(parser):
                    return parser._actions

                def _tab(position: "Position", other) -> int:
                    return position._tab[0] + other._tab[0]
                """,
            "benchmarks/speed.py": """
                import machfsol.engine.rules as rules

                print(rules._TABLES)
                """,
        },
    )
    assert private_uses(top) == [
        "benchmarks/speed.py:4: uses _TABLES, private to machfsol.engine",
        "tools/machfsol/odds/solver.py:2: imports machfsol.engine.rules._tables, private to "
        "machfsol.engine",
        "tools/machfsol/odds/solver.py:11: uses _discard, private to machfsol.engine",
        "tools/machfsol/odds/solver.py:12: uses _push, private to machfsol.engine",
        "tools/machfsol/odds/solver.py:19: uses _tab, private to machfsol.engine",
    ]
