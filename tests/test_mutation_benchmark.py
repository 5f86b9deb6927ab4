"""benchmarks/mutation.py's list of equivalent mutants stays true to the source.

Each entry of benchmarks/mutation-equivalents.txt names a mutant as the benchmark
prints it; an entry that names no mutant of today's basic_src/machfsol.bas (the line
was rewritten) would be a reason kept for nothing, and a mutant whose variant's line
(``#V1``, ``#V2``) is not read as an entry would count against the score unexplained.
A run over every line takes several sittings: its report is kept as it grows and
taken up again (``--resume``) only when it was made from today's source.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

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


def test_a_report_is_taken_up_again_only_from_todays_source(tmp_path: Path) -> None:
    benchmark = load_benchmark()
    text = read_source().text
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    listed = benchmark.equivalents()
    every = list(benchmark.mutants(text))
    equivalent = next(m for m in every if m.name in listed)
    other = next(m for m in every if m.name not in listed)
    path = tmp_path / "report.json"
    assert benchmark.Report.resumed(path, sha, every, listed).verdicts == {}  # none yet
    judged = [
        benchmark.Verdict(other, "killed", "v1 deck 52 seed 3: ...", 12.0),
        benchmark.Verdict(equivalent, "survived", "", 60.0),  # judged before it was listed
    ]
    first = benchmark.Report(sha, (), {v.mutant.name: v for v in judged})
    first.write(path, "abc")
    assert not path.with_name("report.json.part").exists()
    data = json.loads(path.read_text())
    assert (data["source_sha256"], data["commits"]) == (sha, ["abc"])
    again = benchmark.Report.resumed(path, sha, every, listed)
    assert again.verdicts[other.name] == judged[0]
    assert again.verdicts[equivalent.name].outcome == "equivalent"
    assert again.verdicts[equivalent.name].detail == listed[equivalent.name]
    again.write(path, "def")  # a later sitting's commit is added, the verdicts kept
    data = json.loads(path.read_text())
    assert data["commits"] == ["abc", "def"] and len(data["verdicts"]) == 2
    with pytest.raises(SystemExit, match="made from another source"):
        benchmark.Report.resumed(path, "0" * 64, every, listed)
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(SystemExit, match="not a report of this benchmark"):
        benchmark.Report.resumed(path, sha, every, listed)


def test_the_survivors_of_either_form_of_report(tmp_path: Path) -> None:
    benchmark = load_benchmark()
    old = tmp_path / "old.json"  # the first form: a bare list of verdicts
    old.write_text(
        json.dumps(
            [
                {"line": 96, "variant": None, "column": 44, "outcome": "survived"},
                {"line": 97, "variant": 1, "column": 3, "outcome": "killed"},
            ]
        ),
        encoding="utf-8",
    )
    assert benchmark._survivors(old) == {(96, None, 44)}


def test_an_equivalent_taken_off_the_list_is_judged_again(tmp_path: Path) -> None:
    """A report calls a listed survivor equivalent; once the list no longer has it,
    the report's verdict is dropped (the run's was not kept), and a killed mutant
    the list names is reported as a contradiction, not counted as equivalent."""
    benchmark = load_benchmark()
    text = read_source().text
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    listed = benchmark.equivalents()
    every = list(benchmark.mutants(text))
    dropped, killed = [m for m in every if m.name in listed][:2]
    path = tmp_path / "report.json"
    judged = {
        dropped.name: benchmark.Verdict(dropped, "equivalent", listed[dropped.name], 50.0),
        killed.name: benchmark.Verdict(killed, "killed", "v2 deck 52 seed 9: ...", 8.0),
    }
    benchmark.Report(sha, (), judged).write(path, "abc")
    shorter = {name: why for name, why in listed.items() if name != dropped.name}
    again = benchmark.Report.resumed(path, sha, every, shorter)
    assert list(again.verdicts) == [killed.name]
    assert again.verdicts[killed.name].outcome == "killed"
    assert benchmark.contradicted(again, shorter) == [killed.name]


def test_lines_take_spans_and_lists() -> None:
    benchmark = load_benchmark()
    spans = benchmark.line_numbers("198,250-251,9100-9150")
    assert spans == [range(198, 199), range(250, 252), range(9100, 9151)]
    assert benchmark.line_numbers("0-9999") == [range(0, 10000)]
    with pytest.raises(ValueError):
        benchmark.line_numbers("198,abc")
