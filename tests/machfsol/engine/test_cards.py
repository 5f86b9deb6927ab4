from __future__ import annotations

import pytest

from machfsol.engine.cards import DECK_SIZES, Card, CardError, Deck, Suit


def test_rank_letters_and_tableau_sizes_per_deck() -> None:
    expected = {
        52: ("A23456789TJQK", 8),
        48: ("A23456789JQK", 8),
        44: ("A2345678JQK", 6),
        40: ("A234567JQK", 6),
        36: ("A6789TJQK", 4),
        32: ("A789TJQK", 4),
        28: ("A89TJQK", 2),
        24: ("A9TJQK", 2),
        20: ("ATJQK", 0),
    }
    assert set(DECK_SIZES) == set(expected)
    for size, (ranks, tableau) in expected.items():
        deck = Deck(size)
        assert deck.ranks == ranks
        assert deck.rank_count * 4 == size
        assert deck.tableau_size == tableau


def test_card_numbers_codes_and_properties() -> None:
    deck = Deck(52)
    assert [c.code for c in deck.cards()[:3]] == ["AS", "2S", "3S"]
    assert deck.card(13).code == "AH"
    assert deck.card(51).code == "KD"
    seven = deck.parse_card("7H")
    assert seven.number == 13 + 6
    assert seven.suit is Suit.H and seven.is_red and seven.rank_index == 6
    assert deck.parse_card("AS").is_ace and deck.parse_card("KC").is_king
    assert Deck(40).parse_card("JS").rank_index == 7  # the sota, 10th of the Spanish deck
    assert Deck(40).parse_card("KD").is_king


def test_suit_order_and_colours() -> None:
    assert [s.letter for s in Suit] == ["S", "H", "C", "D"]
    assert [s.is_red for s in Suit] == [False, True, False, True]


@pytest.mark.parametrize("code", ["8S", "9H", "1S", "as", "7X", "", "10H"])
def test_codes_not_in_a_40_card_deck_are_rejected(code: str) -> None:
    with pytest.raises(CardError):
        Deck(40).parse_card(code)


def test_bad_deck_size() -> None:
    with pytest.raises(CardError, match="deck size 33"):
        Deck(33)


def test_french_and_spanish_names_only_change_display() -> None:
    deck = Deck(40)
    queen = deck.parse_card("QH")
    assert queen.name("french") == "queen of hearts"
    assert queen.name("spanish") == "caballo of cups"
    assert deck.parse_card("JD").name("spanish") == "sota of coins"
    assert deck.parse_card("AS").name("spanish") == "1 of swords"
    assert deck.parse_card("KC").name("spanish") == "rey of clubs"
    assert str(queen) == "QH" == queen.code
    with pytest.raises(CardError):
        queen.name("italian")


def test_cards_are_ordered_hashable_values() -> None:
    assert Card(52, 3) == Deck(52).card(3)
    assert len({Card(52, 3), Card(52, 3)}) == 1
    assert Card(52, 1) < Card(52, 2)
