"""One test (or more) per rule of docs/RULES.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.engine.autoplay import play
from machfsol.engine.cards import Deck
from machfsol.engine.deal import MAX_SEED
from machfsol.engine.rules import DRAW, VARIANTS, IllegalMoveError, Place, Position, variant
from machfsol.errors import MachfsolError
from tests.machfsol.support import codes, move, position


def test_deal_fills_spaces_in_order_and_sends_aces_and_kings_away() -> None:
    # 28 cards: ranks A89TJQK, two spaces.
    game = position(28, "AS 8H KD 9C TC")
    assert codes(game.tableau()) == "8H 9C"
    assert codes(game.ace_piles()[0]) == "AS"
    assert codes(game.king_piles()[3]) == "KD"
    assert game.stock_count() == 28 - 4
    steps = [f"{s.source.name} {s.destination.name} {s.card.code}" for s in game.opening_steps()]
    assert steps == ["S T1 AS", "T1 AS AS", "S T1 8H", "S T2 KD", "T2 KD KD", "S T2 9C"]
    assert all(step.forced for step in game.opening_steps())


def test_twenty_card_deck_has_no_tableau() -> None:
    game = position(20, "TS")
    assert game.tableau() == ()
    assert game.legal_moves() == [DRAW]
    game.push(DRAW)
    assert codes(game.discard()) == "TS"


def test_drawn_ace_or_king_goes_to_its_foundation_at_once() -> None:
    game = position(20, "AH KC TS")
    steps = game.push(DRAW)
    assert [(s.source.name, s.destination.name, s.forced) for s in steps] == [
        ("S", "W", False),
        ("W", "AH", True),
    ]
    game.push(DRAW)
    assert codes(game.king_piles()[2]) == "KC"
    assert game.discard() == ()


def test_ace_pile_builds_up_by_suit_only() -> None:
    game = position(20, "AS TH TS")  # ranks ATJQK: TS follows AS
    game.push(DRAW)
    game.push(DRAW)
    assert not game.is_legal(move("W AS"))  # TH is not a spade
    assert not game.is_legal(move("W AH"))  # no Ace of hearts out
    game.push(DRAW)
    assert game.is_legal(move("W AS"))
    game.push(move("W AS"))
    assert codes(game.ace_piles()[0]) == "AS TS"


def test_variant_1_king_piles_build_down_by_suit() -> None:
    game = position(20, "KS QH QS", variant=1)
    game.push(DRAW)
    game.push(DRAW)
    assert not game.is_legal(move("W KS"))
    game.push(DRAW)
    assert game.legal_moves() == [DRAW, move("W KS")]


def test_variant_2_king_piles_build_down_in_alternating_colour() -> None:
    game = position(20, "KS QC QH", variant=2)
    game.push(DRAW)
    game.push(DRAW)
    assert not game.is_legal(move("W KS"))  # black on black
    game.push(DRAW)
    assert game.is_legal(move("W KS"))  # red queen on the black King of spades
    game.push(move("W KS"))
    assert codes(game.king_piles()[0]) == "KS QH"


@pytest.mark.parametrize(
    ("top", "card", "one", "two"),
    [("KS", "QS", True, False), ("KS", "QH", False, True), ("KS", "QD", False, True),
     ("KS", "QC", False, False), ("QH", "JH", True, False), ("QH", "JS", False, True),
     ("QH", "TS", False, False), ("QH", "KS", False, False)],
)  # fmt: skip
def test_king_pile_acceptance_is_one_function_of_the_variant(
    top: str, card: str, one: bool, two: bool
) -> None:
    deck = Deck(52)
    assert VARIANTS[1].king_pile_accepts(deck.parse_card(top), deck.parse_card(card)) is one
    assert VARIANTS[2].king_pile_accepts(deck.parse_card(top), deck.parse_card(card)) is two


def test_empty_space_is_filled_from_the_discard_top_first() -> None:
    # 28 cards: spaces hold 8S and 9H; draw 9S onto the discard; AS and KS stay in stock.
    game = position(28, "8S 9H 9S AS")
    game.push(DRAW)  # 9S on the discard
    game.push(DRAW)  # AS drawn: goes to its Ace pile at once
    game.push(move("T1 AS"))  # 8S leaves space 1: the discard top 9S fills it
    assert codes(game.tableau()) == "9S 9H"
    assert game.discard() == ()


def test_empty_space_is_filled_from_the_stock_when_the_discard_is_empty() -> None:
    game = position(28, "8S 9H AS 9C")  # the deal fills 8S 9H; AS then 9C in the stock
    game.push(DRAW)  # AS goes to its pile: the discard stays empty
    assert game.discard() == ()
    game.push(move("T1 AS"))
    assert codes(game.tableau()) == "9C 9H"


def test_lowest_empty_space_is_filled_first() -> None:
    # 36 cards (A6789TJQK), four spaces: AS 6S in the deal, then 7S 8S ...
    game = position(36, "6S 7S 9H 9C AS 8S TD JD")
    game.push(DRAW)  # AS
    game.push(move("T1 AS"))  # 6S leaves space 1 -> filled by 8S from the stock
    assert codes(game.tableau()) == "8S 7S 9H 9C"


def test_filled_ace_leaves_the_space_empty_again_and_it_refills() -> None:
    # 28 cards, two spaces: 8S 9H dealt; the stock then holds AH, then 8H.
    game = position(28, "8S 9H AS AH 8H")
    game.push(DRAW)  # AS to its pile
    steps = game.push(move("T1 AS"))  # 8S leaves; AH fills space 1, goes away; 8H fills
    assert [f"{s.source.name} {s.destination.name} {s.card.code}" for s in steps] == [
        "T1 AS 8S",
        "S T1 AH",
        "T1 AH AH",
        "S T1 8H",
    ]
    assert codes(game.tableau()) == "8H 9H"


def test_king_pile_top_moves_to_its_own_ace_pile_only() -> None:
    # 20 cards ATJQK, variant 2: KS, QH on it, then AH TH JH: QH may go to hearts.
    game = position(20, "KS QH AH TH JH", variant=2)
    game.push(DRAW)
    game.push(DRAW)
    game.push(move("W KS"))
    for _ in range(3):
        game.push(DRAW)
        if game.legal_moves()[1:]:
            game.push(game.legal_moves()[1])
    assert codes(game.ace_piles()[1]) == "AH TH JH"
    assert game.is_legal(move("KS AH"))
    assert not game.is_legal(move("KS AS"))
    game.push(move("KS AH"))
    assert codes(game.king_piles()[0]) == "KS"


def test_nothing_moves_off_an_ace_pile_or_onto_the_tableau() -> None:
    game = position(28, "AS 8S 9H")
    for source in (Place.AS, Place.AH):
        for destination in Place:
            assert not game.is_legal(move(f"{source.name} {destination.name}"))
    assert not game.is_legal(move("T1 T2"))
    assert not game.is_legal(move("T1 W"))
    assert not game.is_legal(move("W T1"))
    assert not game.is_legal(move("T3 AS"))  # no such space in a 28-card deck


def test_emptied_king_pile_takes_nothing() -> None:
    # variant 2, 20 cards (ATJQK): clubs A T J Q K, then QH, which would fit on KC.
    game = position(20, "AC TC JC QC KC QH", variant=2)
    game.push(DRAW)  # AC, forced to its Ace pile
    for _ in range(3):
        game.push(DRAW)
        game.push(move("W AC"))
    game.push(DRAW)  # KC, forced to its King pile
    assert codes(game.ace_piles()[2]) == "AC TC JC QC"
    assert codes(game.king_piles()[2]) == "KC"
    game.push(move("KC AC"))
    assert game.king_piles()[2] == ()
    game.push(DRAW)  # QH
    assert not game.is_legal(move("W KC"))
    assert game.legal_moves() == [DRAW]


def test_won_when_every_card_is_on_a_foundation() -> None:
    game = position(20, "AS TS JS QS KS AH TH JH QH KH AC TC JC QC KC AD TD JD QD KD")
    while not game.is_over():
        moves = game.legal_moves()
        game.push(moves[-1] if len(moves) > 1 else moves[0])
    assert game.is_won()
    assert game.foundation_count() == 20


@pytest.mark.parametrize("number", [1, 2])
@pytest.mark.parametrize("size", [52, 40, 28, 20])
def test_the_final_transfer_of_king_piles_is_always_possible(number: int, size: int) -> None:
    """RULES.md's proof, checked on won games: once every card is on a foundation,
    King-pile tops can always go to their Ace piles until the King piles are empty."""
    won = 0
    for seed in range(1, 400):
        game = play(Position.from_seed(seed, variant(number), size))
        if not game.is_won():
            continue
        won += 1
        while any(game.king_piles()):
            transfers = [m for m in game.legal_moves() if m.source.is_king_pile]
            assert transfers, f"seed {seed}: stuck with King piles {game.king_piles()}"
            game.push(transfers[0])
        assert [len(pile) for pile in game.ace_piles()] == [size // 4] * 4
        if won == 10:
            return
    pytest.fail(f"only {won} won games")


def test_lost_when_no_legal_move_is_left() -> None:
    # Draw the whole stock first: cards get buried under others, and the game is lost.
    game = Position.from_seed(1, variant(1), 52)
    while game.stock_count():
        game.push(DRAW)
    while not game.is_over():
        game.push(game.legal_moves()[0])
    assert game.legal_moves() == []
    assert not game.is_won()
    assert game.foundation_count() < 52


def test_push_pop_restores_the_table() -> None:
    game = Position.from_seed(5, variant(2), 52)
    keys = [game.key()]
    moves = []
    while not game.is_over():
        moves.append(game.legal_moves()[-1])
        game.push(moves[-1])
        keys.append(game.key())
    for expected_move in reversed(moves):
        assert game.pop() == expected_move
        keys.pop()
        assert game.key() == keys[-1]
    with pytest.raises(IllegalMoveError):
        game.pop()


def test_illegal_push_is_refused_with_a_message() -> None:
    game = Position.from_seed(1, variant(1), 52)
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.push(move("W AS"))


def test_copy_is_independent_and_key_is_hashable() -> None:
    game = Position.from_seed(3, variant(1), 40)
    clone = game.copy()
    clone.push(DRAW)
    assert game.key() != clone.key()
    assert len({game.key(), clone.key(), game.copy().key()}) == 2
    assert clone.pop() == DRAW and clone.key() == game.key()
    light = game.copy(history=False)
    assert light.key() == game.key() and light.move_stack == () and light.steps() == ()
    light.push(DRAW)
    assert light.pop() == DRAW and light.key() == game.key()
    with pytest.raises(IllegalMoveError):
        light.pop()


def test_bad_variant_and_order() -> None:
    with pytest.raises(MachfsolError, match="variant 3"):
        variant(3)
    with pytest.raises(MachfsolError):
        Position(Deck(20).cards()[:-1], variant(1))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=MAX_SEED),
    st.sampled_from([1, 2]),
    st.sampled_from([52, 48, 44, 40, 36, 32, 28, 24, 20]),
    st.randoms(use_true_random=False),
)
def test_fast_push_equals_the_settle_procedure(
    seed: int, number: int, size: int, rnd: random.Random
) -> None:
    """The hot path of push must do exactly what RULES.md's "settle" procedure does."""
    game = Position.from_seed(seed, variant(number), size)
    while not game.is_over():
        chosen = rnd.choice(game.legal_moves())
        source, destination = int(chosen.source), int(chosen.destination)
        slow = game.copy()
        slow._transfer(slow.top_number(source), source, destination, False)
        slow.settle()
        game.push(chosen)
        assert game.key() == slow.key()
        assert game._steps == slow._steps
        assert game._playable == slow._playable == _playable_from_scratch(game)
        before = len(game._steps)
        game.settle()
        assert len(game._steps) == before  # nothing left to settle


def _playable_from_scratch(game: Position) -> list[int]:
    counts = [0] * (game.deck.size + 1)
    for suit, pile in enumerate(game.ace_piles()):
        if len(pile) < game.deck.rank_count:
            counts[suit * game.deck.rank_count + len(pile)] += 1
    for pile in game.king_piles():
        if pile:
            for card in game.deck.cards():
                if game.variant.king_pile_accepts(pile[-1], card):
                    counts[card.number] += 1
    return counts


def test_is_playable() -> None:
    game = position(20, "AS TS JH", 1)
    deck = game.deck
    assert game.is_playable(deck.parse_card("TS")) is False  # no Ace of spades yet
    game.push(DRAW)
    assert game.is_playable(deck.parse_card("TS"))
    assert not game.is_playable(deck.parse_card("JS"))


def _lost_game_with_a_pile(number: int, size: int) -> Position:
    """The first deal (from seed 1) that autoplay loses with two or more discards."""
    for seed in range(1, 200):
        game = play(Position.from_seed(seed, variant(number), size))
        if not game.is_won() and len(game.discard()) > 1:
            return game
    raise AssertionError("no lost game with a discard pile in 200 deals")


@pytest.mark.parametrize(("number", "size"), [(1, 52), (2, 40), (1, 20)])
def test_redeal_house_rule_deals_the_pile_again_in_drawing_order(number: int, size: int) -> None:
    game = _lost_game_with_a_pile(number, size)
    pile = game.discard()  # bottom first: the order the cards were discarded
    tableau, aces, kings = game.tableau(), game.ace_piles(), game.king_piles()
    on_foundations = game.foundation_count()
    game.turn_over_discard()
    assert game.discard() == () and game.stock_count() == len(pile)
    assert (game.tableau(), game.ace_piles(), game.king_piles()) == (tableau, aces, kings)
    assert game.foundation_count() == on_foundations
    # The redeal is not a move: the history starts afresh and cannot be undone.
    assert game.move_stack == () and game.steps() == ()
    with pytest.raises(IllegalMoveError):
        game.pop()
    # Drawing it all again (a discard never holds an Ace or King: nothing is forced)
    # gives back the same pile: the first card drawn is the first one discarded.
    assert game.legal_moves()[0] == DRAW
    while game.stock_count():
        game.push(DRAW)
    assert game.discard() == pile
    assert [step.card for step in game.steps()] == list(pile)


def test_redeal_house_rule_refuses_while_the_stock_has_cards() -> None:
    game = Position.from_seed(1, variant(1), 52)
    with pytest.raises(IllegalMoveError, match="stock is not used up"):
        game.turn_over_discard()
    assert game.stock_count() > 0


def test_after_a_redeal_play_goes_on_and_pops_back_to_the_redeal() -> None:
    game = _lost_game_with_a_pile(2, 52)
    game.turn_over_discard()
    start = str(game)
    play(game)
    assert game.move_stack  # the policy played on after the redeal
    while game.move_stack:
        game.pop()
    assert str(game) == start
