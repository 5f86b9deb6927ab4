"""How the concrete search holds a table, and the facts it looks up about each card.

A state is six plain values, cheap to copy and to hash:

* ``p``, the stock position (the index in the dealing order of the next card drawn);
* ``stack``, the discard pile (a tuple, top last);
* ``tab``, the tableau as a bit mask of card numbers (which space holds a card does not
  matter to the future);
* ``ace``, the Ace piles: 4 bits per suit, the number of cards on it;
* ``kings``, one int per King pile (S, H, C, D): each card + 1 in a 6-bit field, the top
  in the lowest field, the King in the highest; 0 for a pile not started;
* ``fmask``, the cards on a foundation, as a bit mask.

Cards are numbered as in the engine (``suit * R + rank``); a step of a line is
``(card, place)`` with the engine's place numbers, a draw ``(-1, DISCARD)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from machfsol.engine.cards import Deck
from machfsol.engine.rules import ACE_BASE, Variant


@dataclass(frozen=True)
class CardFacts:
    """Per deck size and variant, the facts the concrete search looks up per card, as
    bit masks and tuples (one look-up instead of a divmod or a scan in the inner loop).

    ``fits_mask[c]`` has bit ``t + 1`` when card ``c`` may go on King-pile top ``t`` (a
    King pile's low 6-bit field holds its top + 1); ``takes_mask[v]`` has a bit for each
    card that a King pile whose low field is ``v`` accepts (``v = 0``: empty, none);
    ``host_mask[c]`` a bit for each non-Ace card ``c`` may receive on a King pile. The
    rules come from the Variant (:meth:`Variant.king_pile_accepts`).
    """

    ranks: int
    fits_mask: tuple[int, ...]
    takes_mask: tuple[int, ...]
    host_mask: tuple[int, ...]
    ace_shift: tuple[int, ...]  # 4 * suit: where the card's Ace pile height is kept
    ace_place: tuple[int, ...]  # the engine place of the card's Ace pile
    hosts: tuple[tuple[int, ...], ...]  # the cards each card may go on, on a King pile
    rank: tuple[int, ...]
    is_king: tuple[bool, ...]
    #: Cards from the Queens down to the twos (Aces and Kings are never anywhere but on
    #: a foundation or in the stock when the search looks): the order of the dead-end
    #: test, which is used in variant 2 only, where each has two hosts.
    downwards: tuple[int, ...]
    kings: tuple[int, ...]  # the four Kings, S H C D
    host_pairs: tuple[tuple[int, int], ...]  # each card's two hosts ((0, 0): none)
    #: Twins, the two cards of one colour and rank (S and C, H and D), which share their
    #: two hosts: (card, twin, host, other host), from the Queens down, as ``downwards``,
    #: for the twins refinement of the dead-end test.
    twin_pairs: tuple[tuple[int, int, int, int], ...]
    #: For the placement test: the cards that can lie at each rank on King pile i (the
    #: pile of suit i's King), as bit masks by rank ...
    sits: tuple[tuple[int, ...], ...]
    #: ... and the other pile that takes the same cards (the other King of the colour
    #: in variant 2; None in variant 1).
    partner: tuple[int | None, ...]
    #: By suit and Ace-pile height: the bit mask of the cards on that Ace pile.
    ace_cards: tuple[tuple[int, ...], ...]


@cache
def card_facts(size: int, game: Variant) -> CardFacts:
    cards = Deck(size).cards()
    ranks = size // 4
    takes = [0] * 64
    for card in cards:
        for top in cards:
            if game.king_pile_accepts(top, card):
                takes[top.number + 1] |= 1 << card.number
    host_mask = tuple(
        sum(1 << x.number for x in cards if not x.is_ace and game.king_pile_accepts(c, x))
        for c in cards
    )
    hosts = tuple(tuple(t.number for t in cards if game.king_pile_accepts(t, c)) for c in cards)
    downwards = tuple(s * ranks + rank for rank in range(ranks - 2, 0, -1) for s in range(4))
    host_pairs = tuple((pair[0], pair[-1]) if pair else (0, 0) for pair in hosts)
    sits: list[list[int]] = []
    for suit in range(4):
        rows = [0] * ranks
        rows[ranks - 1] = 1 << (suit * ranks + ranks - 1)
        for rank in range(ranks - 2, 0, -1):
            for host in bits(rows[rank + 1]):
                rows[rank] |= host_mask[host]
        sits.append(rows)
    return CardFacts(
        ranks=ranks,
        fits_mask=tuple(
            sum(1 << (t.number + 1) for t in cards if game.king_pile_accepts(t, c)) for c in cards
        ),
        takes_mask=tuple(takes),
        host_mask=host_mask,
        ace_shift=tuple(4 * (n // ranks) for n in range(size)),
        ace_place=tuple(ACE_BASE + n // ranks for n in range(size)),
        hosts=hosts,
        rank=tuple(c % ranks for c in range(size)),
        is_king=tuple(c % ranks == ranks - 1 for c in range(size)),
        downwards=downwards,
        kings=tuple(s * ranks + ranks - 1 for s in range(4)),
        host_pairs=host_pairs,
        twin_pairs=tuple(
            (card, card + 2 * ranks, *host_pairs[card]) for card in downwards if card // ranks < 2
        ),
        sits=tuple(tuple(rows) for rows in sits),
        partner=tuple(
            next((j for j in range(4) if j != i and sits[j][ranks - 2] == sits[i][ranks - 2]), None)
            for i in range(4)
        ),
        ace_cards=tuple(
            tuple(((1 << height) - 1) << (s * ranks) for height in range(ranks + 1))
            for s in range(4)
        ),
    )


def bits(mask: int) -> list[int]:
    """The cards of a bit mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def pile_cards(pile: int) -> list[int]:
    """A King pile's cards (card + 1 in 6-bit fields, the top lowest), King first."""
    cards = []
    while pile:
        cards.append((pile & 63) - 1)
        pile >>= 6
    return cards[::-1]


def cards_mask(cards: Sequence[int]) -> int:
    return sum(1 << card for card in cards)


#: By a King pile's bit length: the mask of its fields above the King (the highest one).
BELOW_KING = (0, *((1 << (6 * ((length - 1) // 6))) - 1 for length in range(1, 6 * 14)))


def same_above_king(one: int, other: int) -> bool:
    """Do two King piles hold the same cards above their Kings (both Kings alone, say)?"""
    return one & BELOW_KING[one.bit_length()] == other & BELOW_KING[other.bit_length()]
