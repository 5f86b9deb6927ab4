"""Helpers shared by the engine tests: building dealing orders by hand."""

from __future__ import annotations

from machfsol.engine.cards import Card, Deck
from machfsol.engine.rules import VARIANTS, Move, Place, Position


def order_with(size: int, first: str) -> tuple[Card, ...]:
    """A dealing order starting with the codes in ``first``, then the rest of the deck
    in its unshuffled order (spades Ace..King, hearts, clubs, diamonds)."""
    deck = Deck(size)
    head = [deck.parse_card(code) for code in first.split()]
    rest = [card for card in deck.cards() if card not in head]
    return tuple(head + rest)


def position(size: int, first: str, variant: int = 1) -> Position:
    return Position(order_with(size, first), VARIANTS[variant])


def move(text: str) -> Move:
    """``"T1 AS"`` -> Move(Place.T1, Place.AS)."""
    source, destination = text.split()
    return Move(Place[source], Place[destination])


def codes(cards: object) -> str:
    """Codes of a sequence of cards (None shown as --)."""
    assert isinstance(cards, tuple | list)
    return " ".join("--" if card is None else card.code for card in cards)
