"""Cards and decks: suits, the ranks kept in each deck size, card codes and names.

A card is identified everywhere (engine, transcripts, Atari programs) by its *number*
``n = suit * R + rank_index`` in a deck of ``R`` ranks per suit, and shown by its *code*,
a rank letter and a suit letter such as ``7H``. Numbers make the engine fast and are what
the BASIC programs store; codes are what people and transcripts read.

Shorter decks drop ranks from the middle (Spanish 40-card decks have no 8 and 9) or from
the bottom (Piquet decks start at 7), so the rank letters depend on the deck size; the
Ace is always rank index 0 and the King always the last one. Spanish style only changes
how a card is *displayed* (sota, caballo, rey; coins, cups, swords, clubs), never its code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from machfsol.errors import MachfsolError


class CardError(MachfsolError):
    """A card code, deck size or dealing order is not valid."""


class Suit(enum.IntEnum):
    """The four suits in table order, top to bottom: Spades, Hearts, Clubs, Diamonds."""

    S = 0
    H = 1
    C = 2
    D = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; spades and clubs black (variant 2 alternates)."""
        return self in (Suit.H, Suit.D)

    @property
    def french_name(self) -> str:
        return ("spades", "hearts", "clubs", "diamonds")[self]

    @property
    def spanish_name(self) -> str:
        """Usual mapping: swords=spades, cups=hearts, clubs=clubs, coins=diamonds."""
        return ("swords", "cups", "clubs", "coins")[self]


#: Rank letters, low to high, for each supported deck size (Ace first, King last).
RANK_LETTERS: dict[int, str] = {
    52: "A23456789TJQK",
    48: "A23456789JQK",
    44: "A2345678JQK",
    40: "A234567JQK",
    36: "A6789TJQK",
    32: "A789TJQK",
    28: "A89TJQK",
    24: "A9TJQK",
    20: "ATJQK",
}

#: Tableau size for each deck size (the blog's table: fewer cards, fewer spaces).
TABLEAU_SIZES: dict[int, int] = {
    52: 8,
    48: 8,
    44: 6,
    40: 6,
    36: 4,
    32: 4,
    28: 2,
    24: 2,
    20: 0,
}

DECK_SIZES: tuple[int, ...] = tuple(RANK_LETTERS)

_FRENCH_RANK_NAMES = {
    "A": "ace",
    "T": "10",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
# In a Spanish deck the three court cards are the sota (squire, 10), caballo (knight,
# 11) and rey (king, 12); they keep the letters J, Q, K in codes.
_SPANISH_RANK_NAMES = {
    "A": "1",
    "T": "10",
    "J": "sota",
    "Q": "caballo",
    "K": "rey",
}


@dataclass(frozen=True)
class Deck:
    """One deck size: its ranks, its tableau size and the numbering of its cards."""

    size: int

    def __post_init__(self) -> None:
        if self.size not in RANK_LETTERS:
            sizes = ", ".join(str(s) for s in DECK_SIZES)
            raise CardError(f"deck size {self.size} is not one of {sizes}")

    @property
    def ranks(self) -> str:
        """Rank letters, low to high (index 0 is the Ace, the last one the King)."""
        return RANK_LETTERS[self.size]

    @property
    def rank_count(self) -> int:
        return self.size // 4

    @property
    def tableau_size(self) -> int:
        return TABLEAU_SIZES[self.size]

    def card(self, number: int) -> Card:
        """The card numbered ``number`` (``suit * R + rank_index``)."""
        if not 0 <= number < self.size:
            raise CardError(f"card number {number} is outside a {self.size}-card deck")
        return Card(self.size, number)

    def cards(self) -> tuple[Card, ...]:
        """The whole deck in its unshuffled order: S, H, C, D, each Ace to King."""
        return _all_cards(self.size)

    def parse_card(self, code: str) -> Card:
        """The card with code ``code`` (e.g. ``7H``); CardError if not in this deck."""
        number = _code_numbers(self.size).get(code)
        if number is None:
            raise CardError(f"{code!r} is not a card of the {self.size}-card deck")
        return Card(self.size, number)


@cache
def _all_cards(size: int) -> tuple[Card, ...]:
    """Made once per deck size: cards are immutable values, and dealing (thousands of
    deals a second in autoplay benchmarks) only picks from this tuple."""
    return tuple(Card(size, n) for n in range(size))


@cache
def _code_numbers(size: int) -> dict[str, int]:
    letters = RANK_LETTERS[size]
    return {
        letters[rank] + suit.letter: suit * len(letters) + rank
        for suit in Suit
        for rank in range(len(letters))
    }


@dataclass(frozen=True, order=True)
class Card:
    """A card of a given deck size, by number (immutable, hashable, ordered by number)."""

    deck_size: int
    number: int

    @property
    def rank_count(self) -> int:
        return self.deck_size // 4

    @property
    def suit(self) -> Suit:
        return Suit(self.number // self.rank_count)

    @property
    def rank_index(self) -> int:
        """0 for the Ace, ``R - 1`` for the King."""
        return self.number % self.rank_count

    @property
    def rank_letter(self) -> str:
        return RANK_LETTERS[self.deck_size][self.rank_index]

    @property
    def code(self) -> str:
        """Rank letter then suit letter, e.g. ``TS`` or ``AH``."""
        return self.rank_letter + self.suit.letter

    @property
    def is_ace(self) -> bool:
        return self.rank_index == 0

    @property
    def is_king(self) -> bool:
        return self.rank_index == self.rank_count - 1

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def name(self, style: str = "french") -> str:
        """Readable name, e.g. ``queen of hearts`` or ``caballo of cups`` (display only)."""
        letter = self.rank_letter
        if style == "spanish":
            rank = _SPANISH_RANK_NAMES.get(letter, letter)
            return f"{rank} of {self.suit.spanish_name}"
        if style == "french":
            rank = _FRENCH_RANK_NAMES.get(letter, letter)
            return f"{rank} of {self.suit.french_name}"
        raise CardError(f"card style {style!r} is not french or spanish")

    def __str__(self) -> str:
        return self.code
