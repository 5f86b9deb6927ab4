"""Why a move is refused, in the terminal game's words.

The engine says which rule a move breaks, with the card and the pile
(machfsol.engine.refusals); this module turns that into the phrase both terminal games
show, e.g. ``the Ace pile of spades takes only spades`` for the jack of clubs put there.
A phrase names the pile whose rule refuses the move and the card that rule asks for,
never the moving card's own suit in place of the pile's.

When the player named no single pile (``3`` alone, ``3 k``, the full-screen ``A``), the
refusals of every pile allowed are put together into one reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.engine.cards import Card
from machfsol.engine.refusals import Refusal, Rule
from machfsol.engine.rules import KingBuild, Place, Position
from machfsol.terminal.table_view import CardFace, pile_suit, tableau_number


def king_rule(build: KingBuild) -> str:
    """What a King pile takes, in words."""
    if build is KingBuild.SAME_SUIT:
        return "one rank lower, same suit"
    return "one rank lower, other colour"


def source_problem(refusal: Refusal, position: Position, face: CardFace) -> str | None:
    """The phrase for a refusal that is about the source (nothing there to move), or
    None when there is a card and the destination is the problem."""
    rule = refusal.rule
    source = refusal.move.source
    if rule is Rule.NO_SUCH_SPACE:
        size = position.deck.tableau_size
        if size == 0:
            return f"a {position.deck.size}-card deck has no tableau spaces"
        return f"there is no space {tableau_number(source)}: this table has spaces 1 to {size}"
    if rule is Rule.EMPTY:
        if source is Place.S:
            return "the stock is empty: no card to draw"
        return f"{face.place_name(source)} is empty"
    if rule is Rule.ACE_PILES_KEEP:
        return "nothing leaves an Ace pile: its cards stay there"
    if rule is Rule.STOCK_ONLY_DRAWS:
        return "the stock only deals onto the discard pile"
    return None


def phrase(refusal: Refusal, position: Position, face: CardFace) -> str:
    """The reason one move to one pile is refused (lower case, no final stop)."""
    about_source = source_problem(refusal, position, face)
    if about_source is not None:
        return about_source
    rule = refusal.rule
    pile = face.place_name(refusal.pile)
    if rule is Rule.NOT_A_FOUNDATION:
        return "cards go only to Ace piles and King piles; spaces fill by themselves"
    if rule is Rule.KING_PILE_TO_KING_PILE:
        return "nothing moves from one King pile to another (King-pile cards go only to Ace piles)"
    if rule is Rule.OTHER_SUIT:
        suit = face.suit_name(pile_suit(refusal.pile))
        return f"{pile} takes only {suit}"
    if rule is Rule.ACE_PILE_NEEDS:
        assert refusal.needed is not None
        return f"its Ace pile needs the {face.name(refusal.needed)}"
    if rule is Rule.KING_NOT_OUT:
        return f"{pile} has not started: its King is not out yet"
    if rule is Rule.KING_PILE_CLOSED:
        return f"{pile} is closed: its King went to its Ace pile"
    assert rule is Rule.KING_PILE_TAKES and refusal.needed is not None
    top = face.name(refusal.needed)
    return f"{pile} shows the {top} and takes {king_rule(position.variant.king_build)}"


def combined(card: Card, refusals: Sequence[Refusal], position: Position, face: CardFace) -> str:
    """The reason no pile among those the player allowed takes ``card``: the refusals
    of each allowed pile, put together."""
    if len(refusals) == 1:
        return phrase(refusals[0], position, face)
    source = refusals[0].move.source
    aces = [r for r in refusals if r.move.destination.is_ace_pile]
    kings = [r for r in refusals if r.move.destination.is_king_pile]
    own = next((r for r in aces if pile_suit(r.move.destination) == card.suit), None)
    ace_reason = phrase(own, position, face) if own is not None else ""
    if not kings:  # "A": its own Ace pile is the one that counts
        return ace_reason
    if source.is_king_pile:
        if not aces:
            return phrase(kings[0], position, face)
        return f"{ace_reason} (King-pile cards go only to Ace piles)"
    king_reason = f"no King pile takes it (they take {king_rule(position.variant.king_build)})"
    if not aces:
        return king_reason
    return f"{ace_reason}, and {king_reason}"
