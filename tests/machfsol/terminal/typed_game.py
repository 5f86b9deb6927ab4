"""Games typed on the terminal game's keys, for the tests: which moves, which keys.

The moves are a mixture a player might make (not the policy's: every kind of move comes
up, draws and plays, to Ace and King piles, from spaces, the discard pile and King
piles): :func:`machfsol.atari.keyboard_game.player_moves`, the games the Atari keyboard
tests type. A move is typed the short way (the source's key alone when the card has one
legal place, as the game allows) or the long way (source and destination keys, as on
the Atari: the second key then does nothing more).
"""

from __future__ import annotations

from machfsol.engine.rules import Move, Place, Position

#: The full-screen game's King-pile keys, spades hearts clubs diamonds.
KING_KEYS = "ZXCV"


def source_key(place: Place) -> str:
    if place.is_tableau:
        return str(place - Place.T1 + 1)
    if place is Place.W:
        return "0"
    return KING_KEYS[place - Place.KS]


def destination_key(place: Place) -> str:
    return "A" if place.is_ace_pile else KING_KEYS[place - Place.KS]


def two_keys(move: Move) -> str:
    """The Atari's way: the source's key, then the destination's (SPACE for a draw)."""
    if move.is_draw:
        return " "
    return source_key(move.source) + destination_key(move.destination)


def short_keys(position: Position, move: Move) -> str:
    """The fewest keys: the source's alone when the card has one legal place."""
    if move.is_draw:
        return " "
    places = [m for m in position.legal_moves() if m.source == move.source]
    if len(places) == 1:
        return source_key(move.source)
    return two_keys(move)
