"""benchmarks/mutation.py's list of equivalent mutants stays true to the source.

Each entry of benchmarks/mutation-equivalents.txt names a mutant as the benchmark
prints it; an entry that names no mutant of today's basic_src/machfsol.bas (the line
was rewritten) would be a reason kept for nothing, and a mutant whose variant's line
(``#V1``, ``#V2``) is not read as an entry would count against the score unexplained.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from machfsol.atari.basic_game import read_source

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def load_benchmark() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # mutation.py imports its neighbour mutants.py
    try:
        spec = importlib.util.spec_from_file_location(
            "mutation_benchmark", BENCHMARKS / "mutation.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_every_listed_equivalent_is_a_mutant_of_the_source() -> None:
    benchmark = load_benchmark()
    listed = benchmark.equivalents()
    names = {mutant.name for mutant in benchmark.mutants(read_source().text)}
    assert listed, "no equivalent read from the list"
    assert sorted(set(listed) - names) == []
    assert all(reason for reason in listed.values())
    # one variant's lines are entries too, not comments
    assert any(name.startswith("#V1 ") for name in listed)
