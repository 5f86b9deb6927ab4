"""Why a move is not legal: the rule it breaks, the card it would move and the pile.

:meth:`Position.is_legal <machfsol.engine.rules.Position.is_legal>` answers yes or no;
a player who is told "no" wants to know why, and the answer has to name the right card,
the right pile and the right rule (moving the jack of clubs to the Ace pile of spades is
refused because that pile takes only spades, not because of anything about clubs).
:func:`refusal` gives that answer as data, a :class:`Refusal`; each front end words it
in its own language and keys, and the tests hold every front end's message to it.

It reads the table only through the Position's public queries, so it stays true to the
rules module whatever that module keeps inside.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from machfsol.engine.cards import Card
from machfsol.engine.rules import Move, Place, Position


class Rule(enum.Enum):
    """The rule a refused move breaks (docs/RULES.md)."""

    NO_SUCH_SPACE = "no such space"  # a tableau space beyond this deck's tableau
    EMPTY = "empty"  # nothing to take from the source
    STOCK_ONLY_DRAWS = "the stock only deals onto the discard pile"
    ACE_PILES_KEEP = "nothing leaves an Ace pile"
    NOT_A_FOUNDATION = "cards go only to Ace and King piles"
    KING_PILE_TO_KING_PILE = "King-pile cards go only to their Ace piles"
    OTHER_SUIT = "an Ace pile takes only its own suit"
    ACE_PILE_NEEDS = "an Ace pile takes its suit's cards in order, up from the Ace"
    KING_NOT_OUT = "a King pile starts only when its King comes out"
    KING_PILE_CLOSED = "a King pile whose King went to its Ace pile takes nothing"
    KING_PILE_TAKES = "a King pile takes the card one rank lower (same suit or other colour)"


@dataclass(frozen=True)
class Refusal:
    """Why a move is refused.

    ``card`` is the card the move would take (None when the source has none); ``pile``
    the place whose rule refuses it (the destination, or the source for the rules about
    sources); ``needed`` the card the rule asks for instead: the next card of an Ace
    pile (ACE_PILE_NEEDS), or the top card of the King pile (KING_PILE_TAKES), whose
    one-rank-lower card of the right suit or colour is what it takes.
    """

    rule: Rule
    move: Move
    card: Card | None
    pile: Place
    needed: Card | None = None


def refusal(position: Position, move: Move) -> Refusal | None:
    """Why ``move`` is not legal in ``position``; None when it is legal."""
    if position.is_legal(move):
        return None
    source, destination = move.source, move.destination
    if source is Place.S:
        if destination is not Place.W:
            return Refusal(Rule.STOCK_ONLY_DRAWS, move, None, source)
        return Refusal(Rule.EMPTY, move, None, source)
    if source.is_ace_pile:
        return Refusal(Rule.ACE_PILES_KEEP, move, None, source)
    if source.is_tableau and _space(source) > position.deck.tableau_size:
        return Refusal(Rule.NO_SUCH_SPACE, move, None, source)
    card = top_card(position, source)
    if card is None:
        return Refusal(Rule.EMPTY, move, None, source)
    if not (destination.is_ace_pile or destination.is_king_pile):
        return Refusal(Rule.NOT_A_FOUNDATION, move, card, destination)
    if destination.is_king_pile:
        if source.is_king_pile:
            return Refusal(Rule.KING_PILE_TO_KING_PILE, move, card, source)
        return _king_pile_refusal(position, move, card)
    suit = pile_suit(destination)
    if suit != card.suit:
        return Refusal(Rule.OTHER_SUIT, move, card, destination)
    deck = position.deck
    height = len(position.ace_piles()[suit])
    needed = deck.card(suit * deck.rank_count + height)
    return Refusal(Rule.ACE_PILE_NEEDS, move, card, destination, needed)


def _king_pile_refusal(position: Position, move: Move, card: Card) -> Refusal:
    pile = move.destination
    suit = pile_suit(pile)
    cards = position.king_piles()[suit]
    if not cards:
        aces = position.ace_piles()[suit]
        closed = len(aces) == position.deck.rank_count
        rule = Rule.KING_PILE_CLOSED if closed else Rule.KING_NOT_OUT
        return Refusal(rule, move, card, pile)
    return Refusal(Rule.KING_PILE_TAKES, move, card, pile, cards[-1])


def top_card(position: Position, source: Place) -> Card | None:
    """The card a move from ``source`` would take (None: nothing there, or a place
    nothing is taken from)."""
    if source.is_tableau:
        tableau = position.tableau()
        index = _space(source) - 1
        return tableau[index] if index < len(tableau) else None
    if source is Place.W:
        discard = position.discard()
        return discard[-1] if discard else None
    if source.is_king_pile:
        pile = position.king_piles()[pile_suit(source)]
        return pile[-1] if pile else None
    return None


def pile_suit(place: Place) -> int:
    """The suit (0-3: spades, hearts, clubs, diamonds) of an Ace or King pile."""
    base = Place.AS if place.is_ace_pile else Place.KS
    return int(place) - int(base)


def _space(place: Place) -> int:
    return int(place) - int(Place.T1) + 1
