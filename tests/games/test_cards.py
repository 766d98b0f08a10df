from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.errors import CardError
from showdown.games.cards import format_card, format_cards, make_deck, parse_card, parse_cards


def test_card_index_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("Td") == 8 * 4 + 1


def test_deck_keeps_highest_ranks_and_last_suits_in_reference_order() -> None:
    # docs/protocol.md section 1: Kuhn is Qs Ks As, Leduc Qh Kh Ah Qs Ks As (suit by suit, ranks low to high).
    assert format_cards(make_deck(3, 1)) == "QsKsAs"
    assert format_cards(make_deck(4, 1)) == "JsQsKsAs"
    assert format_cards(make_deck(3, 2)) == "QhKhAhQsKsAs"
    assert len(make_deck(13, 4)) == 52


def test_bad_card_text_raises_card_error() -> None:
    for text in ("1s", "Ax", "A", "Asd", ""):
        with pytest.raises(CardError):
            parse_card(text)
    with pytest.raises(CardError):
        parse_cards("AsK")


def test_ranks_beyond_ace_have_no_text_form() -> None:
    deck = make_deck(100, 1)
    assert len(deck) == 100
    with pytest.raises(CardError, match="no ACPC text form"):
        format_card(max(deck))


@given(st.lists(st.integers(0, 51), max_size=7))
def test_cards_round_trip(cards: list[int]) -> None:
    assert list(parse_cards(format_cards(cards))) == cards
