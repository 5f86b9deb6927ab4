"""The blog's first example game, replayed from a dealing order rebuilt from its story.

fixtures/blog_game1.order holds the order and the reasoning behind it;
fixtures/blog_game1.narrative the cards in the order the blog puts them on
foundations; fixtures/blog_game1.transcript the game as a transcript (PLAYER HUMAN).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from machfsol.engine.checker import check_bytes
from machfsol.engine.deal import parse_order
from machfsol.engine.rules import DRAW, Position, variant
from machfsol.engine.transcript import Outcome, Player, of_game, parse

FIXTURES = Path(__file__).parent / "fixtures"


def _data_lines(name: str) -> list[str]:
    text = (FIXTURES / name).read_text()
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _order() -> str:
    return " ".join(_data_lines("blog_game1.order"))


def _narrative() -> list[tuple[str, str]]:
    tokens = " ".join(_data_lines("blog_game1.narrative")).split()
    return list(zip(tokens[::2], tokens[1::2], strict=True))


def _arrivals(game: Position) -> list[tuple[str, str]]:
    return [
        (step.card.code, step.destination.name)
        for step in game.steps()
        if step.destination.is_ace_pile or step.destination.is_king_pile
    ]


def _play_the_story(order: str | None = None) -> Position:
    """Play as the blog's narrator did: put the next card the story names on its
    foundation as soon as the engine allows, otherwise draw."""
    game = Position(parse_order(_order() if order is None else order, 40), variant(1))
    story = _narrative()
    while not game.is_won():
        arrived = _arrivals(game)
        assert arrived == story[: len(arrived)], "the engine departed from the story"
        card, pile = story[len(arrived)]
        for candidate in game.legal_moves():
            if (
                not candidate.is_draw
                and game.card_to_move(candidate).code == card
                and candidate.destination.name == pile
            ):
                game.push(candidate)
                break
        else:
            assert game.stock_count() > 0, f"stuck before {card} {pile}"
            game.push(DRAW)
    return game


def test_the_story_is_won_and_follows_the_blog() -> None:
    game = _play_the_story()
    assert game.is_won() and game.foundation_count() == 40
    arrived = _arrivals(game)
    story = _narrative()
    assert arrived == story[: len(arrived)]
    # What the story still tells is the final transfer of King piles onto Ace piles,
    # which RULES.md makes automatic once every card is on a foundation.
    rest = story[len(arrived) :]
    assert rest and all(pile.startswith("A") for _card, pile in rest)
    assert {card for card, _pile in rest} == {
        card.code for pile in game.king_piles() for card in pile
    }


#: The cards the blog finds "on the tableau" without naming them when drawn.
UNNAMED = ("3D", "QH", "6D", "7H", "2C", "3C")


@pytest.mark.parametrize("shift", range(1, len(UNNAMED)))
def test_the_unnamed_cards_may_sit_in_any_unnamed_place(shift: int) -> None:
    """The fixture's claim that its choice among the unnamed places changes nothing:
    the six cards rotated among their places still play the story to a win."""
    codes = _order().split()
    places = [codes.index(card) for card in UNNAMED]
    for place, card in zip(places, UNNAMED[shift:] + UNNAMED[:shift], strict=True):
        codes[place] = card
    assert _play_the_story(" ".join(codes)).is_won()


def test_story_details() -> None:
    moves = _play_the_story().move_stack
    game = Position(parse_order(_order(), 40), variant(1))
    discard_when: dict[str, str] = {}
    for move in moves:
        card = game.card_to_move(move).code
        if move.is_draw:
            discard_when.setdefault(card, " ".join(c.code for c in game.discard()))
        game.push(move)
    # Every card before 5D went through the tableau: 5D is the first card drawn onto the
    # discard pile ("the first one to do so until now"), KH is drawn onto it, 5D then
    # fills the Knight of cups' space; 7D stays alone on the pile while 5S and 4D come.
    assert list(discard_when)[:6] == ["5D", "KH", "2S", "7D", "5S", "4D"]
    assert [discard_when[c] for c in ("5D", "KH", "2S", "7D", "5S", "4D")] == [
        "",
        "5D",
        "",
        "",
        "7D",
        "7D",
    ]
    fills = [(s.card.code, s.source.name) for s in game.steps() if s.destination.is_tableau]
    assert ("5D", "W") in fills  # the 5 of coins fills the Knight of cups' space
    # The last three cards of the stock are 5C, JD and AC, and they fill spaces.
    assert [code for code, source in fills if source == "S"][-3:] == ["5C", "JD", "AC"]


def test_fixture_transcript_matches_and_checks() -> None:
    data = (FIXTURES / "blog_game1.transcript").read_bytes()
    report = check_bytes(data, "blog_game1.transcript")
    assert report.outcome is Outcome.WON and report.on_foundations == 40
    transcript = parse(data)
    assert " ".join(card.code for card in transcript.order) == _order()
    replayed = of_game(_play_the_story(), seed=None, player=Player.HUMAN).splitlines()
    stored = data.decode().splitlines()
    assert stored[1].startswith("PROGRAM MACHFSOL-PY ")  # the version may change
    assert stored[:1] + stored[2:] == replayed[:1] + replayed[2:]
