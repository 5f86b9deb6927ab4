"""The table as the Atari games show it, read back from the screen's text.

The keyboard path of the games is verified by comparing what the screen shows with
what the engine says the table is after the same moves. Both sides are reduced to a
:class:`TableView`: the top card of each Ace pile and King pile, the tableau, the
stock count and the discard pile's top and size, as card codes (``7H``).

Reading the screen relies on the game's labels and card spelling, not on exact
columns, so that moving things around on the screen does not break the check:

- a suit row (one per suit, S H C D from the top) starts with the suit's sign and its
  Ace-pile top, holds tableau spaces as ``<key> <card>``, and ends with the King-pile
  top and its key (``Q W E R``);
- ``STOCK <count>`` and ``DISCARD <top> (<count>)`` are on one line below.

A card is two characters: the rank (``A 2-9 T J Q K``; Spanish style ``1-9 X S C R``)
and the suit (the Atari's spade, heart, club and diamond signs; Spanish ``e c b o``).
Red cards are in inverse video, which the screen text does not keep. ``--`` is an
empty place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from machfsol.engine.cards import Card
from machfsol.engine.rules import Position
from machfsol.errors import MachfsolError

#: Suit signs as the screen text spells them, French and Spanish, in suit order S H C D.
FRENCH_SUITS: Final = "\u2660\u2665\u2663\u2666"
SPANISH_SUITS: Final = "ecbo"
SUIT_LETTERS: Final = "SHCD"
#: Spanish rank characters that differ from the card codes' letters.
SPANISH_RANKS: Final = {"1": "A", "X": "T", "S": "J", "C": "Q", "R": "K"}
#: The keys of the King piles of S H C D, shown after each pile.
KING_KEYS: Final = "QWER"

_CARD = r"(?:--|\S\S)"
_SUIT_ROW = re.compile(rf"^(\S) +({_CARD}) .*?({_CARD}) ([{KING_KEYS}])\s*$")
_TABLEAU_SPACE = re.compile(rf"(?<= )([1-8]) ({_CARD})(?= |$)")
_STOCK = re.compile(r"\bSTOCK +(\d+)\b")
_DISCARD = re.compile(rf"\bDISCARD +({_CARD}) +\( *(\d+)\)")


class TableReadError(MachfsolError):
    """The screen does not show a game table (message: what is missing)."""


@dataclass(frozen=True)
class TableView:
    """What a player sees of the table; None is an empty place."""

    ace_tops: tuple[str | None, ...]
    king_tops: tuple[str | None, ...]
    tableau: tuple[str | None, ...]
    stock: int
    discard_top: str | None
    discard_count: int

    @classmethod
    def of_position(cls, position: Position) -> TableView:
        """The engine's table."""
        discard = position.discard()
        return cls(
            ace_tops=tuple(_top(pile) for pile in position.ace_piles()),
            king_tops=tuple(_top(pile) for pile in position.king_piles()),
            tableau=tuple(None if card is None else card.code for card in position.tableau()),
            stock=position.stock_count(),
            discard_top=_top(discard),
            discard_count=len(discard),
        )

    @classmethod
    def as_shown(cls, position: Position) -> TableView:
        """The engine's table as the game shows it: a won game with the final transfer
        (docs/RULES.md) on the screen, each Ace pile topped by its King, the King piles
        empty; any other position as it is."""
        table = cls.of_position(position)
        if not position.is_won():
            return table
        kings = tuple(f"K{suit}" for suit in SUIT_LETTERS)
        return replace(table, ace_tops=kings, king_tops=(None,) * len(table.king_tops))

    @classmethod
    def read(cls, lines: Sequence[str]) -> TableView:
        """The table shown by the screen ``lines`` (see the module docstring)."""
        aces: list[str | None] = []
        kings: list[str | None] = []
        spaces: dict[int, str | None] = {}
        stock: int | None = None
        discard: tuple[str | None, int] | None = None
        for line in lines:
            row = _SUIT_ROW.match(line)
            if row is not None and row.group(1) in FRENCH_SUITS + SPANISH_SUITS:
                sign, ace, king, key = row.groups()
                suit = len(aces)
                if suit >= 4 or _suit_index(sign) != suit or KING_KEYS.index(key) != suit:
                    raise TableReadError(f"suit row {line.strip()!r} is out of order")
                aces.append(_code(ace))
                kings.append(_code(king))
                middle = line[row.end(2) : row.start(3)]
                for number, card in _TABLEAU_SPACE.findall(middle):
                    spaces[int(number)] = _code(card)
            if (found := _STOCK.search(line)) is not None:
                stock = int(found.group(1))
            if (shown := _DISCARD.search(line)) is not None:
                discard = (_code(shown.group(1)), int(shown.group(2)))
        if len(aces) != 4:
            raise TableReadError(f"found {len(aces)} suit rows, not 4")
        if stock is None or discard is None:
            raise TableReadError("no 'STOCK n' and 'DISCARD card (n)' on the screen")
        if sorted(spaces) != list(range(1, len(spaces) + 1)):
            raise TableReadError(f"tableau spaces {sorted(spaces)} are not 1..n")
        return cls(
            ace_tops=tuple(aces),
            king_tops=tuple(kings),
            tableau=tuple(spaces[number] for number in sorted(spaces)),
            stock=stock,
            discard_top=discard[0],
            discard_count=discard[1],
        )

    def differences(self, expected: TableView) -> list[str]:
        """What differs from ``expected``, place by place (empty: the same table)."""
        found: list[str] = []

        def compare(place: str, shown: object, wanted: object) -> None:
            if shown != wanted:
                found.append(
                    f"{place}: the screen shows {_shown(shown)}, expected {_shown(wanted)}"
                )

        for index, letter in enumerate(SUIT_LETTERS):
            compare(f"A{letter}", self.ace_tops[index], expected.ace_tops[index])
            compare(f"K{letter}", self.king_tops[index], expected.king_tops[index])
        if len(self.tableau) != len(expected.tableau):
            compare("tableau size", len(self.tableau), len(expected.tableau))
        for index, (shown, wanted) in enumerate(zip(self.tableau, expected.tableau, strict=False)):
            compare(f"T{index + 1}", shown, wanted)
        compare("stock", self.stock, expected.stock)
        compare("discard top", self.discard_top, expected.discard_top)
        compare("discard size", self.discard_count, expected.discard_count)
        return found


def _top(pile: Sequence[Card]) -> str | None:
    return pile[-1].code if pile else None


def _shown(value: object) -> str:
    return "--" if value is None else str(value)


def _suit_index(sign: str) -> int:
    return FRENCH_SUITS.index(sign) if sign in FRENCH_SUITS else SPANISH_SUITS.index(sign)


def _code(text: str) -> str | None:
    """The card code of a card as shown (None for ``--``)."""
    if text == "--":
        return None
    rank, sign = text[0], text[1]
    if sign not in FRENCH_SUITS + SPANISH_SUITS:
        raise TableReadError(f"{text!r} is not a card")
    if sign in SPANISH_SUITS:
        rank = SPANISH_RANKS.get(rank, rank)
    return rank + SUIT_LETTERS[_suit_index(sign)]
