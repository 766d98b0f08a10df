"""The numpy-free evaluator agrees with the vectorised tables everywhere, and needs no numpy."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter

import pytest

from showdown.games import hand_value as hv
from showdown.games.evaluate import _FLUSH_VALUES, _RANK_KEYS, _rank_table


@pytest.mark.parametrize("num_cards", [5, 6, 7])
def test_every_rank_multiset_has_the_tables_value(num_cards: int) -> None:
    index, table = _rank_table(num_cards)
    checked = 0
    for ranks in itertools.combinations_with_replacement(range(13), num_cards):
        if max(Counter(ranks).values()) > 4:
            continue
        key = sum(hv.RANK_KEYS[r] for r in ranks)
        assert hv.nonflush_value(ranks) == int(table[index[key]]), ranks
        checked += 1
    assert checked == {5: 6175, 6: 18395, 7: 49205}[num_cards]


def test_every_suit_mask_has_the_tables_flush_value() -> None:
    for mask in range(1 << 13):
        assert hv.flush_value(mask) == int(_FLUSH_VALUES[mask]), bin(mask)


def test_the_keys_are_the_tables_keys() -> None:
    assert list(hv.RANK_KEYS) == _RANK_KEYS.tolist()


def test_values_seen_again_come_from_the_memo_unchanged() -> None:
    hand = [48, 45, 42, 39, 32, 1, 6]  # A K Q J T in mixed suits, 2 and 3: an ace-high straight
    first = hv.hand_value(hand)
    assert hv.hand_value(list(reversed(hand))) == first
    assert first == hv.encode(hv.HandCategory.STRAIGHT, 12)


def test_it_imports_without_numpy() -> None:
    code = "import sys, showdown.games.hand_value as h; h.hand_value(list(range(0, 28, 4))); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_hands_of_different_sizes_with_equal_key_sums_are_told_apart() -> None:
    # the deuce's rank key is 0, so 2-2-2-3-3 and 2-2-2-2-3-3 hash alike; the memo is per hand size
    assert hv.hand_category(hv.hand_value([0, 1, 2, 4, 5])) is hv.HandCategory.FULL_HOUSE
    assert hv.hand_category(hv.hand_value([0, 1, 2, 3, 4, 5])) is hv.HandCategory.FOUR_OF_A_KIND


@pytest.mark.parametrize("game", ["holdem-nolimit", "leduc", "kuhn"])
def test_showdown_values_are_each_players_hand_value(game: str) -> None:
    from showdown.games.catalog import get_game
    from showdown.games.dealing import CardDealer

    dealer = CardDealer(get_game(game), 7)
    for _ in range(3000):  # flushes, repeats and first-seen multisets all come up
        hole, board = dealer.deal()
        assert hv.showdown_values(hole, board) == [hv.hand_value((*h, *board)) for h in hole]
