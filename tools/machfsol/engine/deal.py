"""Seeded deals that an Atari BASIC program reproduces bit for bit.

The generator is Park and Miller's "minimal standard" ``x' = 16807 x mod (2^31 - 1)``,
computed with Schrage's method so that no intermediate value exceeds about 2.15e9:
Atari BASIC's 6-byte BCD floats hold such integers exactly, so the BASIC program can do
the very same integer steps (with ``INT`` of a quotient corrected by one when the
remainder falls outside ``0..q-1``, since division is inexact there). Every step here is
written the way the BASIC program writes it.

The shuffle is Fisher-Yates from the top index down: for ``i = N-1`` down to ``1``,
advance ``x``, take ``j = x mod (i+1)`` as an exact integer remainder, swap cards ``i`` and
``j``. Card 0 of the result is dealt first (the top of the stock).
"""

from __future__ import annotations

import re

from machfsol.engine.cards import DECK_SIZES, Card, CardError, Deck

MODULUS = 2147483647
MULTIPLIER = 16807
SCHRAGE_Q = MODULUS // MULTIPLIER  # 127773
SCHRAGE_R = MODULUS % MULTIPLIER  # 2836
MIN_SEED = 1
MAX_SEED = MODULUS - 1

#: A seed as typed: ASCII digits only (``str.isdigit`` would also take "²", which
#: ``int`` rejects, and "５"), and short enough that ``int`` converts it at once.
_SEED_TEXT = re.compile(r"[0-9]{1,20}")


class SeedError(CardError):
    """A seed that is not a whole number in 1..2147483646."""


def validate_seed(seed: int) -> int:
    """Return ``seed`` if it is a valid deal number, else raise SeedError."""
    if not MIN_SEED <= seed <= MAX_SEED:
        raise SeedError(f"seed {seed} is outside {MIN_SEED}..{MAX_SEED}")
    return seed


def parse_seed(text: str) -> int:
    """Parse a seed given as decimal text (as typed on a command line)."""
    stripped = text.strip()
    if not _SEED_TEXT.fullmatch(stripped):
        shown = stripped if len(stripped) <= 24 else stripped[:21] + "..."
        raise SeedError(f"seed {shown!r} is not a whole number in {MIN_SEED}..{MAX_SEED}")
    return validate_seed(int(stripped))


def next_random(x: int) -> int:
    """One Park-Miller step by Schrage's method: ``16807 x mod 2147483647``.

    ``x = q*hi + lo`` with ``q = 127773``; then ``16807 x = 16807 lo - r hi (mod m)``
    with ``r = 2836``, and both products stay below 2^31, so every value is exact in BCD.
    """
    hi = x // SCHRAGE_Q
    lo = x - hi * SCHRAGE_Q
    x = MULTIPLIER * lo - SCHRAGE_R * hi
    if x <= 0:
        x += MODULUS
    return x


def shuffled_numbers(seed: int, size: int) -> list[int]:
    """Card numbers in dealing order for deal ``seed`` of a ``size``-card deck."""
    validate_seed(seed)
    Deck(size)  # validates the size
    numbers = list(range(size))
    x = seed
    for i in range(size - 1, 0, -1):
        x = next_random(x)
        j = x % (i + 1)
        numbers[i], numbers[j] = numbers[j], numbers[i]
    return numbers


def deal(seed: int, size: int = 52) -> tuple[Card, ...]:
    """The dealing order of deal number ``seed``: card 0 is the top of the stock."""
    cards = Deck(size).cards()
    return tuple(cards[n] for n in shuffled_numbers(seed, size))


def parse_order(text: str, size: int | None = None) -> tuple[Card, ...]:
    """Parse an explicit dealing order such as ``"AS 7H ..."`` (a deck someone shuffled).

    The deck size is the number of codes unless ``size`` is given; every card of that
    deck must appear exactly once.
    """
    codes = text.split()
    if size is None:
        size = len(codes)
        if size not in DECK_SIZES:
            raise CardError(f"--order has {size} cards, which is not a deck size")
    deck = Deck(size)
    if len(codes) != size:
        raise CardError(f"--order has {len(codes)} cards, a {size}-card deck needs {size}")
    cards = tuple(deck.parse_card(code) for code in codes)
    seen: set[Card] = set()
    for position, card in enumerate(cards, start=1):
        if card in seen:
            raise CardError(f"--order: card {position} ({card.code}) appears twice")
        seen.add(card)
    return cards
