"""The solver: known answers on explicit deals, lines that replay, agreement between the
reduced searches and the plain move-by-move search, never weaker than autoplay."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.cli import main
from machfsol.engine.autoplay import greedy_move, greedy_raw_move, play, policy_move
from machfsol.engine.cards import Card
from machfsol.engine.checker import CheckError, check_bytes
from machfsol.engine.deal import deal, parse_order
from machfsol.engine.rules import ACE_BASE, DISCARD, KING_BASE, Position, variant
from machfsol.engine.transcript import Player
from machfsol.errors import MachfsolError
from machfsol.odds import solver
from machfsol.odds.solver import (
    ALL_REDUCTIONS,
    EACH_REDUCTION,
    PLAIN,
    CompiledSearchMissing,
    Reductions,
    Verdict,
    replay,
    search,
    solve,
    solve_seed,
    transcript,
)
from machfsol.odds.solver import compiled as compiled_bridge
from machfsol.odds.solver.concrete import ConcreteSearch
from machfsol.odds.solver.concrete_dead_ends import DeadEnds
from machfsol.odds.solver.concrete_state import card_facts
from machfsol.odds.solver.placement import Placement, chains_best

FIXTURES = Path(__file__).parent / "fixtures" / "solver_deals.json"
DEALS: list[dict[str, Any]] = json.loads(FIXTURES.read_text())["deals"]
CASES = [(d, v) for d in DEALS for v in d["variants"]]


def _id(case: tuple[dict[str, Any], int]) -> str:
    return f"{case[0]['name']}-v{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_known_answers(case: tuple[dict[str, Any], int]) -> None:
    entry, number = case
    order = parse_order(entry["order"])
    expected = Verdict(entry["verdict"])
    for plain in (False, True):
        assert search(order, number, plain=plain).verdict is expected
    solution = solve(order, number)
    assert solution.verdict is expected
    game = variant(number)
    if entry.get("policy_loses"):
        assert not play(Position(order, game), policy_move).is_won()
        assert not solution.by_policy
    if entry.get("greedy_loses"):
        assert not play(Position(order, game), greedy_raw_move).is_won()
    if solution.won:
        report = check_bytes(transcript(order, number, solution, None).encode(), entry["name"])
        assert report.outcome.value == "WON"


def test_variant_2_win_needs_a_move_greedy_would_not_make() -> None:
    entry = next(d for d in DEALS if d["name"] == "variant-2-non-greedy-choice-wins")
    order = parse_order(entry["order"])
    solution = search(order, 2)
    assert solution.won
    position = Position(order, variant(2))
    differs = []
    for move in solution.moves:
        if greedy_move(position) != move:
            differs.append(move)
        position.push(move)
    assert position.is_won()
    assert differs  # greedy alone loses, so the line must leave greedy somewhere


def test_lost_deal_has_no_transcript() -> None:
    entry = DEALS[0]
    order = parse_order(entry["order"])
    solution = solve(order, 1)
    assert solution.verdict is Verdict.LOST and solution.moves == ()
    with pytest.raises(ValueError, match="only a won deal"):
        transcript(order, 1, solution, None)


def test_node_limit_gives_unknown() -> None:
    # Seed 2 of the 52-card deck, variant 1: autoplay loses and the search needs more
    # than a handful of states either way.
    order = deal(2, 52)
    assert search(order, 1, node_limit=5).verdict is Verdict.UNKNOWN


@pytest.mark.parametrize("number", [1, 2])
@pytest.mark.parametrize("size", [20, 24, 28])
def test_reduced_search_agrees_with_plain_search(number: int, size: int) -> None:
    for seed in range(1, 41):
        order = deal(seed, size)
        reduced = search(order, number)
        plain = search(order, number, plain=True)
        assert reduced.verdict is plain.verdict, seed
        assert reduced.verdict is not Verdict.UNKNOWN


#: Each variant-2 reduction alone, then all of them: each must agree with the plain search.
ONE_BY_ONE = EACH_REDUCTION


@pytest.mark.parametrize("which", list(ONE_BY_ONE))
@pytest.mark.parametrize(("size", "seeds"), [(24, range(1, 61)), (32, range(1, 41))])
def test_each_variant_2_reduction_agrees_with_plain_search(
    which: str, size: int, seeds: range
) -> None:
    for seed in seeds:
        order = deal(seed, size)
        # The stock-order test from the first state on (by default only hard deals,
        # beyond STOCK_ORDER_AFTER states, get it).
        reduced = search(order, 2, 10**6, reductions=ONE_BY_ONE[which], stock_order_after=0)
        plain = search(order, 2, 10**6, plain=True)
        assert reduced.verdict is plain.verdict is not Verdict.UNKNOWN, seed


@pytest.mark.parametrize("which", ["plain", *ONE_BY_ONE])
@pytest.mark.parametrize(("size", "seeds"), [(28, range(1, 41)), (36, range(1, 21))])
def test_the_compiled_search_is_the_python_search(which: str, size: int, seeds: range) -> None:
    """Same verdict, same states counted, same winning line: the same search."""
    reductions = PLAIN if which == "plain" else ONE_BY_ONE[which]
    for seed in seeds:
        _assert_same_search(deal(seed, size), 2, seed, reductions=reductions, stock_order_after=0)


#: Deals where the stock-order test cuts states (among seeds 1..60 of 32 to 40 cards).
STOCK_ORDER_FIRES = [(32, 35), (32, 48), (36, 2), (36, 54), (36, 57), (40, 35), (40, 38), (40, 43)]


@pytest.mark.parametrize("after", [0, 100])
def test_the_compiled_stock_order_test_is_the_python_one(after: int) -> None:
    # Deals where the stock-order test cuts states, from the first state on and after
    # the first 100 (the switch itself must happen at the same state in both forms).
    for size, seed in STOCK_ORDER_FIRES:
        _assert_same_search(deal(seed, size), 2, seed, stock_order_after=after)


def _assert_same_search(order: Sequence[Card], number: int, seed: int, **how: Any) -> None:
    """The compiled and the Python search of one deal: same verdict, states and line."""
    python = search(order, number, 10**6, compiled=False, **how)
    compiled = search(order, number, 10**6, compiled=True, **how)
    assert (compiled.verdict, compiled.nodes, compiled.moves) == (
        python.verdict,
        python.nodes,
        python.moves,
    ), seed


def test_the_compiled_search_stops_at_the_node_limit_as_python_does() -> None:
    # 52-card seed 274 needs hundreds of thousands of states: both stop at the limit.
    order = deal(274, 52)
    for limit in (1, 999, 1000, 5000):
        python = search(order, 2, limit, compiled=False)
        compiled = search(order, 2, limit, compiled=True)
        assert python.verdict is compiled.verdict is Verdict.UNKNOWN
        assert python.nodes == compiled.nodes


def test_the_compiled_search_in_variant_1_is_the_plain_python_search() -> None:
    for seed in range(1, 31):
        _assert_same_search(deal(seed, 28), 1, seed, plain=True)


def test_a_missing_compiled_search_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_bridge, "_concrete", None)
    with pytest.raises(CompiledSearchMissing, match=r"not built: reinstall"):
        search(deal(1, 24), 2, compiled=True)
    assert search(deal(1, 24), 2, compiled=False).verdict is not Verdict.UNKNOWN


#: Python run in a fresh interpreter: a compiled module from an older _concrete.c (no
#: REDUCTIONS constant, or fewer bits) stands in for the real one before solver loads.
_STALE_BUILD = """
import sys, types
old = types.ModuleType("machfsol.odds._concrete")
old.search = lambda *arguments: (0, 1, [])
if sys.argv[1] != "none":
    old.REDUCTIONS = int(sys.argv[1])
sys.modules["machfsol.odds._concrete"] = old
from machfsol.engine.deal import deal
from machfsol.odds import solver
print(solver.COMPILED, solver.COMPILED_OUT_OF_DATE)
print(solver.search(deal(1, 24), 2, compiled=False).verdict.name)
try:
    solver.search(deal(1, 24), 2, compiled=True)
except solver.CompiledSearchMissing as error:
    print(error)
"""


@pytest.mark.parametrize("bits", ["none", str(ALL_REDUCTIONS.flags >> 1)])
def test_a_compiled_search_built_from_older_sources_is_set_aside(bits: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", _STALE_BUILD, bits], capture_output=True, text=True, check=True
    )
    compiled, verdict, error = ran.stdout.splitlines()
    assert compiled == "False True"
    assert verdict in {"WON", "LOST"}  # the Python search answers instead
    assert "is out of date: reinstall" in error


#: Python run in a fresh interpreter in which the compiled module cannot be imported,
#: as on a machine that had no C compiler when the package was installed.
_NO_COMPILER = """
import sys
sys.modules["machfsol.odds._concrete"] = None  # import machfsol.odds._concrete fails
from machfsol.cli import main
from machfsol.odds import solver
assert not solver.COMPILED and not solver.COMPILED_OUT_OF_DATE
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (["solve", "--variant", "2", "--deck", "44", "--seed", "1"], "LOST (proved: 574 states"),
        (
            ["solve", "--variant", "2", "--deck", "36", "--seed", "1", "--transcript", "-"],
            "WON (292 states searched by the reduced search)\nMACHFSOL TRANSCRIPT 1\n",
        ),
    ],
)
def test_without_the_compiled_module_the_python_search_answers_alike(
    args: list[str], answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's promise for a machine without a C compiler: the package installs
    without machfsol.odds._concrete and the same search runs in Python, with the same
    answer (and a note saying so)."""
    assert solver.COMPILED
    assert main(args) == 0
    compiled = capsys.readouterr().out
    assert compiled.startswith(answer)
    ran = subprocess.run(
        [sys.executable, "-c", _NO_COMPILER, *args], capture_output=True, text=True, check=True
    )
    assert ran.stdout == compiled
    assert ran.stderr == (
        "machfsol: note: the compiled search is not built; the Python search gives the "
        "same answers, about 60 times slower\n"
    )


#: Python run in a fresh interpreter: a search that claims a win with a line that does
#: not win (an empty one), as a bug in the solver would.
_BROKEN_SEARCH = """
import sys
from machfsol.cli import main
from machfsol.odds.solver import solving
solving.COMPILED = True
solving.compiled_search = lambda *arguments: (True, 1, [])
sys.exit(main(sys.argv[1:]))
"""


def test_a_solver_bug_is_reported_with_its_traceback() -> None:
    """A line that does not win on the engine is a bug to report, not a mistake of the
    user's: the command line lets it through, traceback and all, where a user error
    would be one line."""
    assert not issubclass(solver.SolverBug, MachfsolError)
    args = ["solve", "--variant", "2", "--deck", "44", "--seed", "1"]
    ran = subprocess.run(
        [sys.executable, "-c", _BROKEN_SEARCH, *args], capture_output=True, text=True
    )
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr.startswith("Traceback (most recent call last):\n")
    assert "machfsol.odds.solver.solution.SolverBug: the solver's line does not win" in ran.stderr


def test_the_compiled_search_knows_every_reduction_and_refuses_others() -> None:
    assert solver.COMPILED and not solver.COMPILED_OUT_OF_DATE
    from machfsol.odds import _concrete

    known = _concrete.REDUCTIONS
    assert known == ALL_REDUCTIONS.flags
    order = bytes(card.number for card in deal(1, 24))
    places = (DISCARD, ACE_BASE, KING_BASE)
    with pytest.raises(ValueError, match="unknown reduction bits"):
        _concrete.search(order, 6, 2, False, known + 1, 1000, 1000, places, 0)


def test_reductions_by_name() -> None:
    assert Reductions.only() == PLAIN
    assert Reductions.only(*(f.name for f in fields(Reductions))) == Reductions()
    assert Reductions.only("endgame").flags == 64 and PLAIN.flags == 0
    with pytest.raises(ValueError, match="no such reduction: magic"):
        Reductions.only("magic")


def test_symmetry_needs_kings_that_stay() -> None:
    with pytest.raises(ValueError, match="Kings stay"):
        Reductions(kings_stay=False)


def _assert_lost_for_the_plain_search(
    search: ConcreteSearch,
    stack: tuple[int, ...],
    tab: int,
    ace: int,
    kings: tuple[int, ...],
    fmask: int,
) -> None:
    """The state, searched again from scratch by the plain search, is lost."""
    # The stock position: the first card of the order not drawn yet (every card drawn
    # is on the pile, in the tableau or on a foundation).
    drawn = fmask | tab
    for card in stack:
        drawn |= 1 << card
    position = 0
    while position < search.n and (drawn >> search.order[position]) & 1:
        position += 1
    plain = ConcreteSearch(search.cards, search.game, 10**6, PLAIN)
    assert not plain.wins_from(position, stack, tab, ace, kings, fmask)


class _WatchedDeadEnds(DeadEnds):
    """The dead-end tests of a reduced search, put in its place to watch them."""

    def __init__(self, search: ConcreteSearch) -> None:
        facts = card_facts(search.n, search.game)
        super().__init__(search.order, facts, search.slots, twins=search.reductions.twins)
        self.search = search
        search.dead_ends = self


class _CheckedDeadEnds(_WatchedDeadEnds):
    """Every state the dead-end test calls lost is searched again from scratch by the
    plain search, which must agree."""

    checked = 0

    def is_dead_end(
        self, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        if not super().is_dead_end(stack, tab, ace, kings, fmask):
            return False
        _assert_lost_for_the_plain_search(self.search, stack, tab, ace, kings, fmask)
        _CheckedDeadEnds.checked += 1
        return True


@pytest.mark.parametrize("size", [32, 36])
def test_every_dead_end_is_lost_for_the_plain_search(size: int) -> None:
    before = _CheckedDeadEnds.checked
    for seed in range(1, 31):
        _CheckedDeadEnds(ConcreteSearch(deal(seed, size), variant(2), 10**6)).search.solve()
    assert _CheckedDeadEnds.checked > before  # the test did fire, and was right each time


class _CheckedTwins(_WatchedDeadEnds):
    """Every state that only the twins refinement of the dead-end test calls lost (the
    test without it does not) is searched again from scratch by the plain search,
    which must agree."""

    checked = 0

    def __init__(self, search: ConcreteSearch) -> None:
        super().__init__(search)
        self.without = DeadEnds(
            search.order, card_facts(search.n, search.game), search.slots, twins=False
        )

    def is_dead_end(
        self, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        if not super().is_dead_end(stack, tab, ace, kings, fmask):
            return False
        if self.without.is_dead_end(stack, tab, ace, kings, fmask):
            return True
        _assert_lost_for_the_plain_search(self.search, stack, tab, ace, kings, fmask)
        _CheckedTwins.checked += 1
        return True


def test_every_dead_end_of_the_twins_refinement_is_lost_for_the_plain_search() -> None:
    # Deals where it fires (among seeds 1..40 of 36, 40 and 44 cards), chosen for speed.
    for size, seed in [(36, 1), (40, 18), (40, 29), (40, 37), (40, 38), (44, 1), (44, 9), (44, 24)]:
        _CheckedTwins(ConcreteSearch(deal(seed, size), variant(2), 10**6)).search.solve()
    assert _CheckedTwins.checked >= 150  # the refinement did fire, and was right each time


class _CheckedStockOrder(_WatchedDeadEnds):
    """Every state that only the stock-order test calls lost (the dead-end test does
    not) is searched again from scratch by the plain search, which must agree."""

    checked = 0

    def is_stock_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...], fmask: int
    ) -> bool:
        if not super().is_stock_dead(p, stack, tab, ace, kings, fmask):
            return False
        _assert_lost_for_the_plain_search(self.search, stack, tab, ace, kings, fmask)
        _CheckedStockOrder.checked += 1
        return True


def test_every_dead_end_of_the_stock_order_test_is_lost_for_the_plain_search() -> None:
    # Deals where it fires (among seeds 1..300 of 32 to 44 cards), chosen for speed: the
    # stronger the test, the sooner it cuts a search, so the more deals it takes.
    fires = [(40, 18), (44, 1), (44, 22), (44, 24), (44, 25), (44, 39)]
    fires += [(36, 85), (36, 173), (36, 234), (40, 127), (40, 145), (40, 167)]
    fires += [(44, 155), (44, 163), (44, 271)]
    # Without the placement test, which would cut many of those states first; with the
    # stock-order test from the first state on.
    reductions = Reductions(placement=False)
    for size, seed in [*STOCK_ORDER_FIRES, *fires]:
        search = ConcreteSearch(deal(seed, size), variant(2), 10**6, reductions, 0)
        _CheckedStockOrder(search).search.solve()
    assert _CheckedStockOrder.checked >= 400  # the test did fire, and was right each time


class _CheckedPlacement(Placement):
    """Every state the placement test calls lost (the dead-end and stock-order tests,
    asked first, did not) is searched again from scratch by the plain search, which
    must agree."""

    checked = 0

    def __init__(self, search: ConcreteSearch) -> None:
        super().__init__(search.order, card_facts(search.n, search.game), search.slots)
        self.search = search
        search.placement = self

    def is_dead(
        self, p: int, stack: tuple[int, ...], tab: int, ace: int, kings: tuple[int, ...]
    ) -> bool:
        if not super().is_dead(p, stack, tab, ace, kings):
            return False
        fmask = 0  # the foundations: the Ace piles and the King piles
        for suit in range(4):
            fmask |= ((1 << ((ace >> (4 * suit)) & 15)) - 1) << (suit * self.r)
        for pile in kings:
            while pile:
                fmask |= 1 << ((pile & 63) - 1)
                pile >>= 6
        _assert_lost_for_the_plain_search(self.search, stack, tab, ace, kings, fmask)
        _CheckedPlacement.checked += 1
        return True


def test_every_dead_end_of_the_placement_test_is_lost_for_the_plain_search() -> None:
    # Deals where it fires (among seeds 1..160 of 44 cards: it needs big deals), chosen
    # for speed; benchmarks/solver_heldout.py holds it to the plain search on big deals.
    for seed in [8, 22, 24, 25, 28, 49, 80, 118, 123, 155]:
        search = ConcreteSearch(deal(seed, 44), variant(2), 10**6, stock_order_after=0)
        _CheckedPlacement(search).search.solve()
    assert _CheckedPlacement.checked >= 100  # the test did fire, and was right each time


@settings(max_examples=300, deadline=None)
@given(
    count=st.lists(st.integers(min_value=0, max_value=2), min_size=13, max_size=13),
    one=st.integers(min_value=-1, max_value=12),
    other=st.integers(min_value=-1, max_value=12),
)
def test_the_longest_chains_are_the_most_any_two_chains_take(
    count: list[int], one: int, other: int
) -> None:
    """The placement test's chains, against every pair of chain lengths: a chain goes
    down one rank at a time from its pile's top, to the twos at most, and a rank gives
    each chain on it a card of its own."""
    best = 0
    for first in range(max(one, 0) + 1):
        for second in range(max(other, 0) + 1):
            used = [0] * 13
            for top, length in ((one, first), (other, second)):
                for rank in range(top - length, top):
                    used[rank] += 1
            lowest = min(
                [top - length for top, length in ((one, first), (other, second)) if length] or [1]
            )
            if lowest >= 1 and all(used[rank] <= count[rank] for rank in range(13)):
                best = max(best, first + second)
    assert chains_best(count, one, other) == best


def test_the_stock_order_test_needs_the_dead_end_test() -> None:
    with pytest.raises(ValueError, match="stock-order test is part of the dead-end test"):
        Reductions(twins=False, dead_ends=False)
    assert EACH_REDUCTION["stock_order"] == Reductions.only("dead_ends", "stock_order")


def test_twins_need_the_dead_end_test() -> None:
    with pytest.raises(ValueError, match="part of the dead-end test"):
        Reductions(dead_ends=False)
    assert EACH_REDUCTION["twins"] == Reductions.only("dead_ends", "twins")


@pytest.mark.parametrize("number", [1, 2])
@pytest.mark.parametrize("size", [20, 28, 36, 44, 52])
def test_never_weaker_than_autoplay(number: int, size: int) -> None:
    """Every deal autoplay wins, the search (without the autoplay shortcut) does not
    call lost; solve() wins it."""
    game = variant(number)
    for seed in range(1, 16):
        order = deal(seed, size)
        if play(Position(order, game), policy_move).is_won():
            assert solve(order, game).won
            assert search(order, game, node_limit=20_000).verdict is not Verdict.LOST, seed


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=1, max_value=2_147_483_646),
    number=st.sampled_from([1, 2]),
    size=st.sampled_from([20, 24, 28, 32]),
)
def test_solutions_replay_as_valid_transcripts(seed: int, number: int, size: int) -> None:
    solution = solve_seed(seed, number, size, node_limit=20_000)
    if solution.won:
        order = deal(seed, size)
        assert replay(order, number, solution.moves).is_won()
        text = transcript(order, number, solution, seed)
        report = check_bytes(text.encode(), f"seed {seed}")
        assert report.outcome.value == "WON" and report.seed == seed


def _searched_win(number: int, size: int) -> tuple[int, str]:
    """A deal the policy loses and the search wins, with its transcript."""
    for seed in range(1, 300):
        solution = solve_seed(seed, number, size)
        if solution.won and not solution.by_policy:
            return seed, transcript(deal(seed, size), number, solution, seed)
    raise AssertionError("no searched win in 300 deals")


@pytest.mark.parametrize(("number", "size"), [(1, 40), (2, 52)])
def test_solver_lines_are_player_solver_and_mutations_fail(number: int, size: int) -> None:
    seed, text = _searched_win(number, size)
    assert "\nPLAYER SOLVER\n" in text
    report = check_bytes(text.encode(), "solver.txt")
    assert report.player is Player.SOLVER and report.outcome.value == "WON"
    lines = text.splitlines(keepends=True)
    moves = [i for i, line in enumerate(lines) if line.startswith("M ")]
    forced = [i for i, line in enumerate(lines) if line.startswith("F ")]
    mutations = {
        "a move deleted": lines[: moves[3]] + lines[moves[3] + 1 :],
        "a forced step deleted": lines[: forced[-1]] + lines[forced[-1] + 1 :],
        "two moves swapped": [
            *lines[: moves[1]],
            lines[moves[2]],
            *lines[moves[1] + 1 : moves[2]],
            lines[moves[1]],
            *lines[moves[2] + 1 :],
        ],
        "the result changed": [*lines[:-1], lines[-1].replace("WON", "LOST")],
        "another deal": [line.replace(f"SEED {seed}\n", f"SEED {seed + 1}\n") for line in lines],
    }
    for what, mutated in mutations.items():
        assert mutated != lines, what
        with pytest.raises(CheckError):
            check_bytes("".join(mutated).encode(), what)


NODE_CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "solver_nodes.json").read_text()
)["cases"]


@pytest.mark.parametrize(
    "case", NODE_CASES, ids=[f"v{c['variant']}-{c['deck']}-{c['seed']}" for c in NODE_CASES]
)
def test_same_states_as_the_solver_that_made_the_table(case: dict[str, Any]) -> None:
    # docs/ODDS.md's counts were made by an earlier, slower solver; speed-ups must not
    # change which states are searched (the node counts) nor the answers.
    solution = search(deal(case["seed"], case["deck"]), case["variant"])
    assert (solution.verdict.value, solution.nodes, len(solution.moves)) == (
        case["verdict"],
        case["nodes"],
        case["moves"],
    )
