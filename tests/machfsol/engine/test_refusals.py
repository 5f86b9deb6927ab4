"""Why a move is refused: the rule, the card and the pile, for every move of many tables."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from machfsol.engine.autoplay import choose_move
from machfsol.engine.refusals import Refusal, Rule, refusal, top_card
from machfsol.engine.rules import Move, Place, Position, variant
from tests.machfsol.support import position as table


def tables(number: int, size: int, seeds: range, every: int = 3) -> Iterator[Position]:
    """Tables met in random games of deals ``seeds`` (every ``every``-th one, and the
    last), so that every kind of pile and top comes up."""
    for seed in seeds:
        chooser = random.Random(seed)
        position = Position.from_seed(seed, variant(number), size)
        step = 0
        while True:
            if step % every == 0 or position.is_over():
                yield position.copy()
            legal = position.legal_moves()
            if not legal or position.is_won():
                break
            policy = choose_move(position)
            position.push(policy if chooser.random() < 0.7 and policy else chooser.choice(legal))
            step += 1


def every_move() -> list[Move]:
    return [Move(source, destination) for source in Place for destination in Place]


MOVES = every_move()


@pytest.mark.parametrize(("number", "size"), [(1, 52), (2, 52), (2, 40), (1, 28), (2, 20)])
def test_a_refusal_exactly_when_the_engine_refuses(number: int, size: int) -> None:
    for position in tables(number, size, range(1, 9)):
        for move in MOVES:
            found = refusal(position, move)
            assert (found is None) == position.is_legal(move), (position, move)
            if found is not None:
                check(position, found)


def check(position: Position, found: Refusal) -> None:
    """What each rule says, checked against the table itself."""
    move = found.move
    card = top_card(position, move.source)
    deck = position.deck
    if found.rule in (Rule.NO_SUCH_SPACE, Rule.EMPTY, Rule.ACE_PILES_KEEP, Rule.STOCK_ONLY_DRAWS):
        assert found.card is None and found.pile is move.source
        if found.rule is Rule.NO_SUCH_SPACE:
            assert move.source.is_tableau and move.source - Place.T1 >= deck.tableau_size
        elif found.rule is Rule.EMPTY:
            assert card is None if move.source is not Place.S else position.stock_count() == 0
        elif found.rule is Rule.ACE_PILES_KEEP:
            assert move.source.is_ace_pile
        else:
            assert move.source is Place.S and move.destination is not Place.W
        return
    assert found.card == card and card is not None
    if found.rule is Rule.NOT_A_FOUNDATION:
        assert not (move.destination.is_ace_pile or move.destination.is_king_pile)
        return
    if found.rule is Rule.KING_PILE_TO_KING_PILE:
        assert move.source.is_king_pile and move.destination.is_king_pile
        assert found.pile is move.source
        return
    assert found.pile is move.destination
    suit = int(found.pile - (Place.AS if found.pile.is_ace_pile else Place.KS))
    if found.rule is Rule.OTHER_SUIT:
        assert found.pile.is_ace_pile and suit != card.suit
    elif found.rule is Rule.ACE_PILE_NEEDS:
        height = len(position.ace_piles()[suit])
        assert found.pile.is_ace_pile and suit == card.suit
        assert found.needed == deck.card(suit * deck.rank_count + height) != card
    elif found.rule is Rule.KING_NOT_OUT:
        assert not position.king_piles()[suit] and len(position.ace_piles()[suit]) < deck.rank_count
    elif found.rule is Rule.KING_PILE_CLOSED:
        assert not position.king_piles()[suit]
        assert len(position.ace_piles()[suit]) == deck.rank_count
    else:
        assert found.rule is Rule.KING_PILE_TAKES
        top = position.king_piles()[suit][-1]
        assert found.needed == top and not position.variant.king_pile_accepts(top, card)


def test_the_jack_of_clubs_on_the_ace_pile_of_spades() -> None:
    """The issue's example: the pile that refuses is the spades', for a spade."""
    position = table(52, "2H 5C JC 9S 4H 6C 8D TS")
    found = refusal(position, Move(Place.T3, Place.AS))
    assert found is not None and found.rule is Rule.OTHER_SUIT
    assert found.card is not None and found.card.code == "JC" and found.pile is Place.AS
    needs = refusal(position, Move(Place.T3, Place.AC))
    assert needs is not None and needs.rule is Rule.ACE_PILE_NEEDS
    assert needs.needed is not None and needs.needed.code == "AC"


def test_legal_moves_have_no_refusal() -> None:
    position = Position.from_seed(1, variant(1))
    assert all(refusal(position, move) is None for move in position.legal_moves())


def test_the_tables_meet_every_rule() -> None:
    """The tables above are enough: every rule refuses some move there."""
    seen = {
        found.rule
        for number, size in [(1, 52), (2, 52), (2, 40), (1, 28), (2, 20)]
        for position in tables(number, size, range(1, 9), every=6)
        for move in MOVES
        if (found := refusal(position, move)) is not None
    }
    assert seen == set(Rule)
