"""A search's winning line, played as real moves on the engine's Position.

Neither search plays on the engine: the token model's line is made of pulls and draws,
the concrete search's of (card, place) steps. Each is turned back into the player's
moves here, through the Position's fast interface, and the caller then checks that the
game is won: the engine, the reference, has the last word on every line the solver
returns. A step that the engine does not allow is a :class:`SolverBug`.
"""

from __future__ import annotations

from collections.abc import Sequence

from machfsol.engine.rules import DISCARD, NOWHERE, STOCK, TABLEAU_BASE, Place, Position
from machfsol.odds.solver.solution import SolverBug

# ---------------------------------------------------------------- the token model's line


def realize_token_line(position: Position, line: Sequence[str]) -> None:
    """Play the token model's line ('P' pull, 'D' draw) as real moves on ``position``.

    A pull plays a token: the first tableau card the engine says is playable (its
    space takes the discard top). Between steps, discard tops the model absorbs are
    played, or pulled by a token, as the model assumes.
    """
    ranks = position.deck.rank_count
    _absorb(position, ranks)
    for step in line:
        if step == "D":
            position.push_places(STOCK, DISCARD)
        elif not _play_first_playable(position):
            raise SolverBug("a pull with no playable tableau card")
        _absorb(position, ranks)
    while _play_first_playable(position):
        _absorb(position, ranks)


def _closure(position: Position, ranks: int) -> tuple[list[int], list[int]]:
    """P, the foundation cards plus the tokens (tableau cards playable in some order),
    as each suit's two sides: the ranks below ``ace[suit]`` and from ``king[suit]`` up."""
    ace = position.ace_pile_heights()
    king = [ranks if top == NOWHERE else top % ranks for top in position.king_pile_tops()]
    tab = {card for card in position.tableau_numbers() if card >= 0}
    grown = True
    while grown:
        grown = False
        for card in list(tab):
            suit, rank = divmod(card, ranks)
            if ace[suit] == rank:
                ace[suit] += 1
            elif king[suit] == rank + 1:
                king[suit] -= 1
            else:
                continue
            tab.discard(card)
            grown = True
    return ace, king


def _play_first_playable(position: Position) -> bool:
    """Play the first tableau card a foundation takes now (a token); False if none."""
    for index, card in enumerate(position.tableau_numbers()):
        if card >= 0 and position.is_playable_number(card):
            position.push_places(TABLEAU_BASE + index, position.destinations_of(card)[0])
            return True
    return False


def _absorb(position: Position, ranks: int) -> None:
    """Absorb discard tops that extend P: play them, or pull them with a token."""
    while (top := position.top_number(DISCARD)) != NOWHERE:
        if position.is_playable_number(top):
            position.push_places(DISCARD, position.destinations_of(top)[0])
            continue
        suit, rank = divmod(top, ranks)
        ace, king = _closure(position, ranks)
        # Is the card below it in its suit in P, or the card above it?
        below = rank > 0 and (rank - 1 < ace[suit] or rank - 1 >= king[suit])
        above = rank < ranks - 1 and (rank + 1 < ace[suit] or rank + 1 >= king[suit])
        if not (below or above) or not _play_first_playable(position):
            return


# ------------------------------------------------------------ the concrete search's line


def realize_concrete_line(position: Position, line: Sequence[tuple[int, int]]) -> None:
    """Play the concrete search's line (``(card, place)`` steps, ``(-1, DISCARD)`` a
    draw) on ``position``: find where each card lies and move it."""
    for card, place in line:
        if position.is_won():
            return  # King-pile tops moving to Ace piles after the win are not needed
        if card < 0:
            position.push_places(STOCK, DISCARD)
            continue
        source = position.source_of(card)
        if source == NOWHERE:
            raise SolverBug(f"card {position.deck.card(card)} is not playable in the line")
        if not position.is_legal_places(source, place):
            raise SolverBug(f"solver move {Place(source).name} {Place(place).name} is not legal")
        position.push_places(source, place)
