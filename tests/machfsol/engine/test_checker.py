"""The verifier: good transcripts pass; every single mutation of one fails."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.engine.autoplay import POLICIES, play
from machfsol.engine.checker import CheckError, check_bytes
from machfsol.engine.deal import MAX_SEED
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError

seeds = st.integers(min_value=1, max_value=MAX_SEED)
sizes = st.sampled_from([52, 48, 44, 40, 36, 32, 28, 24, 20])
variants = st.sampled_from([1, 2])


def _auto_text(seed: int, number: int, size: int, policy: str = "auto") -> str:
    game = play(Position.from_seed(seed, variant(number), size), POLICIES[policy])
    return of_game(game, seed=seed, player=Player(policy.upper()))


def _random_game(seed: int, number: int, size: int, rnd: random.Random) -> Position:
    game = Position.from_seed(seed, variant(number), size)
    while not game.is_over():
        game.push(rnd.choice(game.legal_moves()))
    return game


def _fails(text: str) -> bool:
    try:
        check_bytes(text.encode(), "m.txt")
    except MachfsolError as error:
        # One line naming the file and the line: "m.txt:<line>: <what differs>".
        assert re.fullmatch(r"m\.txt:\d+: [^\n]+", str(error)), str(error)
        return True
    return False


@settings(max_examples=60, deadline=None)
@given(seeds, variants, sizes, st.sampled_from(["auto", "greedy"]))
def test_autoplay_transcripts_pass(seed: int, number: int, size: int, policy: str) -> None:
    report = check_bytes(_auto_text(seed, number, size, policy).encode(), "a.txt")
    assert report.seed == seed and report.player.value == policy.upper()


@settings(max_examples=60, deadline=None)
@given(seeds, variants, sizes, st.randoms(use_true_random=False))
def test_random_legal_games_pass(seed: int, number: int, size: int, rnd: random.Random) -> None:
    game = _random_game(seed, number, size, rnd)
    assert not _fails(of_game(game, seed=seed, player=Player.HUMAN))


@settings(max_examples=60, deadline=None)
@given(seeds, variants, sizes, st.randoms(use_true_random=False))
def test_cards_are_conserved(seed: int, number: int, size: int, rnd: random.Random) -> None:
    game = Position.from_seed(seed, variant(number), size)
    while not game.is_over():
        game.push(rnd.choice(game.legal_moves()))
        cards = [c for c in game.tableau() if c is not None]
        cards += game.discard()
        cards += [c for pile in game.ace_piles() + game.king_piles() for c in pile]
        cards += game.order[size - game.stock_count() :]
        assert sorted(cards) == sorted(game.order)
        assert game.foundation_count() == sum(len(p) for p in game.ace_piles() + game.king_piles())
    assert len(game.move_stack) <= 3 * size  # RULES.md: a game ends within 3N moves


def _mutations(lines: list[str], rnd: random.Random) -> list[tuple[str, list[str]]]:
    """Single mutations of a transcript's lines: (description, mutated lines)."""
    first = lines.index("MOVES") + 1
    last = len(lines) - 1  # the RESULT line
    moves = range(first, last)
    result = lines[last].split()
    out: list[tuple[str, list[str]]] = []
    i = rnd.choice(moves)
    out.append(("delete", lines[:i] + lines[i + 1 :]))
    j = rnd.choice(moves)
    out.append(("insert", lines[:i] + [lines[j]] + lines[i:]))
    out.append(("insert draw", lines[:i] + ["M S W " + lines[j].split()[3]] + lines[i:]))
    tokens = lines[i].split()
    other = rnd.choice([c for c in lines[6].split()[1:] if c != tokens[3]])
    out.append(("alter card", lines[:i] + [" ".join([*tokens[:3], other])] + lines[i + 1 :]))
    for position, choices in ((1, ["S", "W", "T1", "T2", "KS", "KD"]), (2, ["W", "AS", "KH"])):
        changed = [t for t in choices if t != tokens[position]]
        mutated = list(tokens)
        mutated[position] = rnd.choice(changed)
        out.append(("alter place", lines[:i] + [" ".join(mutated)] + lines[i + 1 :]))
    flipped = list(tokens)
    flipped[0] = "F" if tokens[0] == "M" else "M"
    out.append(("flip M/F", lines[:i] + [" ".join(flipped)] + lines[i + 1 :]))
    k = rnd.choice([m for m in moves if m + 1 < last and lines[m] != lines[m + 1]] or [i])
    if k + 1 < last and lines[k] != lines[k + 1]:
        swapped = list(lines)
        swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        out.append(("swap", swapped))
    a, b = sorted(rnd.sample(moves, 2))
    if lines[a] != lines[b]:
        reordered = list(lines)
        reordered[a], reordered[b] = reordered[b], reordered[a]
        out.append(("reorder", reordered))
    out.append(("truncate", lines[: rnd.randrange(1, last)]))
    seed = int(lines[4].split()[1])
    out.append(("seed", [*lines[:4], f"SEED {seed % MAX_SEED + 1}", *lines[5:]]))
    order = " ".join(lines[6 : first - 1]).split()
    cards = [c for c in order if c != "ORDER"]
    a, b = rnd.sample(range(len(cards)), 2)
    cards[a], cards[b] = cards[b], cards[a]
    order_lines = ["ORDER " + " ".join(cards[n : n + 10]) for n in range(0, len(cards), 10)]
    out.append(("order", lines[:6] + order_lines + lines[first - 1 :]))
    outcome = "LOST" if result[1] == "WON" else "WON"
    out.append(("outcome", lines[:last] + [" ".join([result[0], outcome, *result[2:]])]))
    count = int(result[2])
    out.append(("count", lines[:last] + [" ".join([*result[:2], str(count ^ 1), *result[3:]])]))
    return out


@settings(max_examples=80, deadline=None)
@given(seeds, variants, sizes, st.randoms(use_true_random=False))
def test_every_single_mutation_of_an_autoplay_transcript_fails(
    seed: int, number: int, size: int, rnd: random.Random
) -> None:
    lines = _auto_text(seed, number, size).splitlines()
    for description, mutated in _mutations(lines, rnd):
        assert _fails("\n".join(mutated) + "\n"), description


@settings(max_examples=60, deadline=None)
@given(seeds, variants, sizes, st.randoms(use_true_random=False))
def test_mutations_of_a_human_game_fail(
    seed: int, number: int, size: int, rnd: random.Random
) -> None:
    # A person may choose any legal move, so swapping two independent moves, or
    # choosing another legal destination, is a different legal game: only mutations
    # that no legal game can produce are required to fail here.
    game = _random_game(seed, number, size, rnd)
    lines = of_game(game, seed=seed, player=Player.HUMAN).splitlines()
    for description, mutated in _mutations(lines, rnd):
        if description in ("swap", "reorder", "alter place"):
            continue
        assert _fails("\n".join(mutated) + "\n"), description


def test_failure_names_file_line_and_expectation(tmp_path: object) -> None:
    lines = _auto_text(11, 1, 52).splitlines()
    first = lines.index("MOVES") + 1
    player_line = next(n for n in range(first, len(lines)) if lines[n].startswith("M "))
    mutated = lines[:player_line] + lines[player_line + 1 :]
    with pytest.raises(CheckError, match=rf"^x\.txt:{player_line + 1}: .*(expected|plays)"):
        check_bytes(("\n".join(mutated) + "\n").encode(), "x.txt")


def test_wrong_move_count_is_reported() -> None:
    lines = _auto_text(11, 1, 52).splitlines()
    lines[-1] += "0"
    with pytest.raises(CheckError, match=r"RESULT says \d+0 moves, there are"):
        check_bytes(("\n".join(lines) + "\n").encode(), "x.txt")


def test_wrong_seed_is_reported_at_the_first_differing_card() -> None:
    lines = _auto_text(11, 1, 52).splitlines()
    lines[4] = "SEED 12"
    with pytest.raises(CheckError, match=r"^x\.txt:7: card 1 of the order is \w\w, deal 12"):
        check_bytes(("\n".join(lines) + "\n").encode(), "x.txt")
