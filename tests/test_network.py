"""Which code may open a network socket: only machfsol.odds.cluster (``machfsol odds
--cluster``, docs/ODDS.md). Every other command works on files, pipes and the
terminal; a module that starts to use the network must be reviewed and documented
(docs/ARCHITECTURE.md, "The network"), and then added here."""

from __future__ import annotations

import ast
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"

#: Libraries that open sockets, or servers and clients over them (the standard
#: library's and the project's dependencies').
NETWORK_MODULES = frozenset(
    {
        "socket",
        "socketserver",
        "ssl",
        "asyncio",
        "http",
        "urllib",
        "xmlrpc",
        "ftplib",
        "smtplib",
        "poplib",
        "imaplib",
        "telnetlib",
        "multiprocessing.connection",
        "multiprocessing.managers",
        "distributed",
        "dask",
        "tornado",
    }
)

#: The modules allowed to, and what for.
ALLOWED = {
    # The Dask client and the local cluster (bound to 127.0.0.1); ssl only loads the
    # TLS files to check them before the study starts; asyncio runs one Dask
    # connection, limited in time, to tell a scheduler from another kind of server.
    "machfsol/odds/cluster.py": {"distributed", "dask", "ssl", "asyncio"},
}


def network_imports(source: Path) -> set[str]:
    """The network libraries that ``source`` imports (at its top or in a function)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            found |= {".".join(parts[:n]) for n in (1, 2) if ".".join(parts[:n]) in NETWORK_MODULES}
    return found


def test_network_imports_sees_every_form(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "import socket\nimport os, http.server\nfrom multiprocessing import managers\n"
        "def f():\n    from distributed import Client\n    import dask.config\n"
        "from multiprocessing import Pool\nimport sslx\n"
    )
    expected = {"socket", "http", "multiprocessing.managers", "distributed", "dask"}
    assert network_imports(source) == expected


def test_only_the_cluster_module_uses_the_network() -> None:
    used = {
        path.relative_to(TOOLS).as_posix(): imports
        for path in sorted(TOOLS.rglob("*.py"))
        if (imports := network_imports(path))
    }
    assert set(used) <= set(ALLOWED), f"network libraries used outside the cluster: {used}"
    for module, imports in used.items():
        assert imports <= ALLOWED[module], (module, imports)
