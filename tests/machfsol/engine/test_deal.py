from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from machfsol.engine.cards import CardError
from machfsol.engine.deal import (
    MODULUS,
    SeedError,
    deal,
    next_random,
    parse_order,
    parse_seed,
    shuffled_numbers,
)

FIXTURES = Path(__file__).parent / "fixtures"


def test_generator_check_value() -> None:
    x = 1
    for _ in range(10000):
        x = next_random(x)
    assert x == 1043618065


def test_thousand_steps_match_the_altirra_basic_measurement() -> None:
    x = 1
    for _ in range(1000):
        x = next_random(x)
    assert x == 522329230


@given(st.integers(min_value=1, max_value=MODULUS - 1))
def test_schrage_equals_direct_modular_product(x: int) -> None:
    assert next_random(x) == 16807 * x % MODULUS


@given(st.integers(min_value=1, max_value=MODULUS - 1))
def test_schrage_intermediates_stay_below_bcd_exact_limit(x: int) -> None:
    hi, lo = divmod(x, 127773)
    assert 16807 * lo < 2**31 and 2836 * hi < 2**31


def _golden() -> list[tuple[int, int, str]]:
    rows = []
    for line in (FIXTURES / "golden_deals.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            seed, size, order = line.split(" ", 2)
            rows.append((int(seed), int(size), order))
    return rows


@pytest.mark.parametrize(("seed", "size", "order"), _golden())
def test_golden_deals(seed: int, size: int, order: str) -> None:
    assert " ".join(card.code for card in deal(seed, size)) == order


def test_fisher_yates_by_hand_for_a_small_deck() -> None:
    # Re-derive the 20-card shuffle of seed 1 step by step, as the BASIC program does it.
    cards = list(range(20))
    x = 1
    for i in range(19, 0, -1):
        x = 16807 * x % MODULUS
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert shuffled_numbers(1, 20) == cards


@given(st.integers(min_value=1, max_value=MODULUS - 1), st.sampled_from([52, 40, 20]))
def test_every_deal_is_a_whole_deck(seed: int, size: int) -> None:
    assert sorted(shuffled_numbers(seed, size)) == list(range(size))


@pytest.mark.parametrize(
    "text", ["0", "2147483647", "-5", "x", "", "1.5", "²", "５", "1" * 5000, "99999999999999"]
)
def test_bad_seeds(text: str) -> None:
    with pytest.raises(SeedError):
        parse_seed(text)


def test_good_seed_limits() -> None:
    assert parse_seed("1") == 1
    assert parse_seed("2147483646") == 2147483646


def test_explicit_order() -> None:
    order = " ".join(card.code for card in deal(9, 40))
    assert parse_order(order) == deal(9, 40)
    assert parse_order(order, 40) == deal(9, 40)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS 2S", "not a deck size"),
        ("AS " * 20, "appears twice"),
        ("ZZ " + "AS " * 19, "not a card"),
    ],
)
def test_bad_orders(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_order(text)


def test_order_size_must_match_deck_option() -> None:
    with pytest.raises(CardError, match="needs 52"):
        parse_order(" ".join(card.code for card in deal(3, 40)), 52)
