"""Every refused move's message against the engine's reason: the right card, pile and rule.

The engine says why a move is refused (machfsol.engine.refusals); the terminal games
must say the same thing in words. Here every move from every place to every place, on
tables met in many games of both variants and several deck sizes, is tried on the
sitting both games share, and its message is held to what the engine's refusal says,
spelled out rule by rule below (not by the code under test).
"""

from __future__ import annotations

import io

import pytest

from machfsol.engine.cards import Suit
from machfsol.engine.refusals import Refusal, Rule, refusal, top_card
from machfsol.engine.rules import KingBuild, Move, Place, Position, variant
from machfsol.terminal.full_screen import FullScreenGame
from machfsol.terminal.game import Refused, Sitting
from machfsol.terminal.play import Session
from machfsol.terminal.table_view import CardFace, Style
from tests.machfsol.engine.test_refusals import MOVES, tables
from tests.machfsol.support import order_with

SUITS = {
    Style.FRENCH: ("spades", "hearts", "clubs", "diamonds"),
    Style.SPANISH: ("swords", "cups", "clubs", "coins"),
}


def expected(found: Refusal, position: Position, face: CardFace) -> str:
    """What the message must say for ``found``, written out rule by rule."""
    move = found.move
    suits = SUITS[face.style]

    def pile(place: Place) -> str:
        kind, suit = ("Ace", place - Place.AS) if place.is_ace_pile else ("King", place - Place.KS)
        return f"the {kind} pile of {suits[suit]}"

    def card(which: object) -> str:
        return which.name(face.style.value)  # type: ignore[attr-defined]

    rule = found.rule
    if rule is Rule.NO_SUCH_SPACE:
        size = position.deck.tableau_size
        if size == 0:
            return f"a {position.deck.size}-card deck has no tableau spaces"
        space = move.source - Place.T1 + 1
        return f"there is no space {space}: this table has spaces 1 to {size}"
    if rule is Rule.EMPTY:
        if move.source is Place.S:
            return "the stock is empty: no card to draw"
        if move.source is Place.W:
            return "the discard pile is empty"
        if move.source.is_tableau:
            return f"space {move.source - Place.T1 + 1} is empty"
        return f"{pile(move.source)} is empty"
    if rule is Rule.ACE_PILES_KEEP:
        return "nothing leaves an Ace pile: its cards stay there"
    if rule is Rule.STOCK_ONLY_DRAWS:
        return "the stock only deals onto the discard pile"
    moving = top_card(position, move.source)
    assert moving is not None
    if rule is Rule.NOT_A_FOUNDATION:
        reason = "cards go only to Ace piles and King piles; spaces fill by themselves"
    elif rule is Rule.KING_PILE_TO_KING_PILE:
        reason = (
            "nothing moves from one King pile to another (King-pile cards go only to Ace piles)"
        )
    elif rule is Rule.OTHER_SUIT:
        reason = f"{pile(found.pile)} takes only {suits[found.pile - Place.AS]}"
    elif rule is Rule.KING_NOT_OUT:
        reason = f"{pile(found.pile)} has not started: its King is not out yet"
    elif rule is Rule.KING_PILE_CLOSED:
        reason = f"{pile(found.pile)} is closed: its King went to its Ace pile"
    elif rule is Rule.ACE_PILE_NEEDS:
        reason = f"its Ace pile needs the {card(found.needed)}"
    else:
        assert rule is Rule.KING_PILE_TAKES
        build = position.variant.king_build
        takes = "same suit" if build is KingBuild.SAME_SUIT else "other colour"
        reason = (
            f"{pile(found.pile)} shows the {card(found.needed)} and takes one rank lower, {takes}"
        )
    return f"the {card(moving)} cannot go there: {reason}"


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize(("number", "size"), [(1, 52), (2, 52), (2, 40), (1, 28), (2, 20)])
def test_every_refusal_names_the_engines_card_pile_and_rule(
    number: int, size: int, style: Style
) -> None:
    face = CardFace(style)
    rules = set()
    for position in tables(number, size, range(1, 7), every=4):
        sitting = Sitting(variant(number), face)
        sitting.new_deal(position.order, None)
        for move in position.move_stack:
            sitting.position.push(move)
        for move in MOVES:
            found = refusal(sitting.position, move)
            if found is None:
                continue
            rules.add(found.rule)
            outcome = sitting.play(move)
            assert outcome == Refused(expected(found, sitting.position, face)), move
    assert len(rules) >= 9


def test_the_jack_of_clubs_is_refused_by_the_spades_pile() -> None:
    """The issue's example, in the line game: ``3 as`` with the jack of clubs in space 3
    says that the Ace pile of spades takes only spades (not "only clubs")."""
    out = io.StringIO()
    session = Session(variant(1), CardFace(), out)
    session.start(order_with(52, "2H 5C JC 9S 4H 6C 8D TS"), None)
    session.obey("3 as")
    said = out.getvalue().splitlines()[-1]
    assert said == "the jack of clubs cannot go there: the Ace pile of spades takes only spades"
    assert "only clubs" not in out.getvalue()


def test_the_full_screen_game_says_the_same() -> None:
    sitting = Sitting(variant(2), CardFace())
    sitting.new_deal(order_with(52, "2H 5C JC 9S 4H 6C 8D TS"), None)
    game = FullScreenGame(sitting)
    for key in "3A":
        game.press(key)
    assert game.message == "The jack of clubs cannot go there: its Ace pile needs the ace of clubs."


def test_a_king_pile_top_refused_by_another_suits_ace_pile() -> None:
    """A card on a King pile (variant 2: a red queen on the King of spades) asked onto
    the wrong Ace pile: the pile named is the one that refuses."""
    order = order_with(52, "2H 5C JC 9S 4H 6C 8D TS KS QH")
    sitting = Sitting(variant(2), CardFace())
    sitting.new_deal(order, None)
    position = sitting.position
    position.push(Move(Place.S, Place.W))  # KS to its King pile
    position.push(Move(Place.S, Place.W))  # QH onto the discard pile
    position.push(Move(Place.W, Place.KS))
    assert position.king_piles()[Suit.S][-1].code == "QH"
    outcome = sitting.play(Move(Place.KS, Place.AD))
    assert outcome == Refused(
        "the queen of hearts cannot go there: the Ace pile of diamonds takes only diamonds"
    )
