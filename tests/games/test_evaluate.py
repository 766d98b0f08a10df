"""Hand evaluation: category counts, tricky hands, scalar/vector agreement, brute-force checks."""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.errors import CardError
from showdown.games.cards import make_card, parse_cards
from showdown.games.evaluate import (
    CATEGORY_SHIFT,
    MAX_RANK,
    HandCategory,
    _rank_table,
    categories,
    category,
    hand_category,
    hand_value,
    hand_values,
    values_on_boards,
)
from showdown.games.hand_value import RANK_KEYS

SLOT_SHIFTS = (44, 33, 22, 11, 0)


def value(text: str) -> int:
    """Value of cards written like ``"AsKd"`` or with ACPC separators ``"Ah|As/Ks"`` (all pooled)."""
    return hand_value(parse_cards(text.replace("|", "").replace("/", "")))


def all_combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n), lexicographic, as an int8 array."""
    combos = itertools.combinations(range(n), k)
    return np.fromiter(combos, dtype=np.dtype((np.int8, k)), count=math.comb(n, k))


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n rows of k distinct cards out of 52."""
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k]


# ------------------------------------------------------------------------------------------
# an independent, obviously-correct reference: (category, tie-break ranks) of a 5-card hand


def reference_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Textbook ranking of up to 5 cards (straights/flushes only with exactly 5)."""
    ranks = [c >> 2 for c in cards]
    groups = sorted(Counter(ranks).items(), key=lambda g: (g[1], g[0]), reverse=True)
    ordered = tuple(r for r, _ in groups)
    sizes = [n for _, n in groups]
    straight_top = None
    flush = False
    if len(cards) == 5:
        flush = len({c & 3 for c in cards}) == 1
        distinct = sorted(set(ranks), reverse=True)
        if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top is not None and flush:
        return HandCategory.STRAIGHT_FLUSH, (straight_top,)
    if sizes[0] == 4:
        return HandCategory.FOUR_OF_A_KIND, ordered
    if sizes[:2] == [3, 2]:
        return HandCategory.FULL_HOUSE, ordered
    if flush:
        return HandCategory.FLUSH, ordered
    if straight_top is not None:
        return HandCategory.STRAIGHT, (straight_top,)
    if sizes[0] == 3:
        return HandCategory.THREE_OF_A_KIND, ordered
    if sizes[:2] == [2, 2]:
        return HandCategory.TWO_PAIR, ordered
    if sizes[0] == 2:
        return HandCategory.PAIR, ordered
    return HandCategory.HIGH_CARD, ordered


def reference_value(cards: Sequence[int]) -> int:
    """Best reference key over all 5-card subsets (or the whole hand below 5), in value layout."""
    size = min(len(cards), 5)
    cat, ranks = max(reference_key(sub) for sub in itertools.combinations(cards, size))
    out = int(cat) << CATEGORY_SHIFT
    for shift, rank in zip(SLOT_SHIFTS, ranks):
        out |= rank << shift
    return out


# ------------------------------------------------------------------------------------------
# category counts

FIVE_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3744,
    HandCategory.FLUSH: 5108,
    HandCategory.STRAIGHT: 10200,
    HandCategory.THREE_OF_A_KIND: 54912,
    HandCategory.TWO_PAIR: 123552,
    HandCategory.PAIR: 1098240,
    HandCategory.HIGH_CARD: 1302540,
}

SEVEN_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41584,
    HandCategory.FOUR_OF_A_KIND: 224848,
    HandCategory.FULL_HOUSE: 3473184,
    HandCategory.FLUSH: 4047644,
    HandCategory.STRAIGHT: 6180020,
    HandCategory.THREE_OF_A_KIND: 6461620,
    HandCategory.TWO_PAIR: 31433400,
    HandCategory.PAIR: 58627800,
    HandCategory.HIGH_CARD: 23294460,
}


def category_counts(values: np.ndarray) -> dict[HandCategory, int]:
    counts = np.bincount(categories(values), minlength=len(HandCategory))
    return {cat: int(counts[cat]) for cat in HandCategory}


def test_five_card_category_counts() -> None:
    hands = all_combinations(52, 5)
    assert len(hands) == 2_598_960
    values = hand_values(hands)
    assert category_counts(values) == FIVE_CARD_COUNTS
    # 7462 distinct 5-card hand classes is the classic count
    assert len(np.unique(values)) == 7462


@pytest.mark.slow
def test_seven_card_category_counts() -> None:
    tails = all_combinations(52, 5)
    total = np.zeros(len(HandCategory), dtype=np.int64)
    hands_seen = 0
    for a, b in itertools.combinations(range(52), 2):
        rest = tails[np.searchsorted(tails[:, 0], b + 1) :]
        if not len(rest):
            continue
        hands = np.empty((len(rest), 7), dtype=np.int8)
        hands[:, 0], hands[:, 1], hands[:, 2:] = a, b, rest
        total += np.bincount(categories(hand_values(hands)), minlength=len(HandCategory))
        hands_seen += len(rest)
    assert hands_seen == 133_784_560
    assert {cat: int(total[cat]) for cat in HandCategory} == SEVEN_CARD_COUNTS


@pytest.mark.parametrize(("num_cards", "multisets"), [(5, 6175), (6, 18395), (7, 49205)])
def test_rank_key_sums_are_a_perfect_hash(num_cards: int, multisets: int) -> None:
    # a collision between two rank multisets would merge two entries of the lookup
    sums = {
        sum(RANK_KEYS[r] for r in ranks)
        for ranks in itertools.combinations_with_replacement(range(13), num_cards)
        if max(Counter(ranks).values()) <= 4
    }
    assert len(sums) == multisets
    assert len(_rank_table(num_cards)[1]) == multisets


# ------------------------------------------------------------------------------------------
# hand-picked cases


def test_wheel_is_the_lowest_straight() -> None:
    wheel = value("As2d3h4c5s")
    assert category(wheel) == "straight"
    assert wheel < value("2d3h4c5s6s")
    assert wheel > value("AsAdAh4c5s")
    assert wheel > value("AsAdAhKcQs")
    # with seven cards, the six-high straight beats the wheel it contains
    assert value("As2d3h4c5s6d9c") == value("2d3h4c5s6sKdJc")
    assert value("As2d3h4c5s6d9c") > value("As2d3h4c5sKdJc")


def test_steel_wheel_is_a_straight_flush() -> None:
    steel = value("As2s3s4s5s")
    assert hand_category(steel) is HandCategory.STRAIGHT_FLUSH
    assert steel < value("2s3s4s5s6s")
    assert steel > value("AsAdAhAcKs")
    assert value("AsKsQsJsTs") > value("KsQsJsTs9s")
    assert hand_category(value("As2s3s4s5s6d6h")) is HandCategory.STRAIGHT_FLUSH


def test_flush_beats_straight_and_full_house_beats_flush() -> None:
    flush = value("2h5h9hJhKh3c4d")
    assert category(flush) == "flush"
    assert flush > value("9c8d7h6s5c2d2h")
    assert value("2c2d2h5s5c9h8h") > value("AhKhQhJh9h")
    # seven cards: flush and straight together is ranked as the flush
    both = value("4h5h6h7h9h8c2d")
    assert category(both) == "flush"
    # the flush uses its best five cards of the suit
    assert value("AhKh9h7h5h3h2h") == value("AhKh9h7h5hQcJd")


def test_kickers_decide() -> None:
    assert value("AsKd9h7c5s") > value("AsQd9h7c5s")
    assert value("AsKd9h7c4s") < value("AsKd9h7c5s")
    assert value("AsAdKh7c5s") > value("AsAdQh7c5s")
    assert value("AsAdKh7c5s") > value("AhAcKd7h4s")
    assert value("AsAdKh7c5s") == value("AhAcKd7h5d")
    # only the best five cards count: the sixth and seventh do not play
    assert value("AsKdQh9c7s3d2c") == value("AhKcQd9s7d4h3c")


def test_two_pair_from_three_pairs() -> None:
    three_pairs = value("KsKdQhQc5s5dAh")
    assert category(three_pairs) == "two pair"
    # top two pairs plus the best remaining card as kicker (the third pair's rank can be it)
    assert three_pairs == value("KsKdQhQcAh2d3c")
    assert value("KsKdQhQc5s5d2h") == value("KsKdQhQc5s3d2h")
    assert value("KsKdQhQc5s5d2h") > value("KsKdQhQc4s3d2h")


def test_full_house_from_two_trips() -> None:
    two_trips = value("KsKdKh5s5d5hAh")
    assert category(two_trips) == "full house"
    assert two_trips == value("KsKdKh5s5dAd2h")
    assert two_trips > value("QsQdQhAsAd2h2c")
    assert value("AsAdAh2s2d") > value("KsKdKhAsAd")


def test_quads_kicker_comes_from_the_board() -> None:
    quads = value("7s7d7h7cAsKdKh")
    assert category(quads) == "four of a kind"
    assert quads > value("7s7d7h7cKsQdQh")
    assert quads == value("7s7d7h7cAd2c3c")
    assert value("8s8d8h8c2s") > value("7s7d7h7cAd")


def test_suits_never_break_ties() -> None:
    assert value("AsKd9h7c5s") == value("AhKc9d7s5h")
    assert value("AsKsQsJsTs") == value("AhKhQhJhTh")
    assert value("2c3d4h5s7c") == value("2d3h4s5c7d")


def test_kuhn_single_card() -> None:
    assert value("As") > value("Ks") > value("Qs") > value("Js")
    assert category(value("As")) == "high card"
    # N-card Kuhn: one suit, ranks far past the ace
    many = [make_card(rank, 3) for rank in range(100)]
    values = [hand_value([c]) for c in many]
    assert values == sorted(values) and len(set(values)) == 100
    assert hand_values(np.array(many)[:, None]).tolist() == values


def test_leduc_two_cards() -> None:
    assert category(value("Ah/As")) == "pair"
    assert value("Js/Jh") > value("Ah/Ks")  # any pair beats any high card
    assert value("Ks/Kh") > value("Qs/Qh")  # higher pair wins
    assert value("Ah|As/Ks") == value("As|Ah/Ks")  # identical ranks split
    assert value("Ah/Ks") == value("As/Ks")
    assert value("Ah/Ks") > value("Ah/Qs")


def test_small_hands_with_arbitrary_ranks() -> None:
    trips = [make_card(50, 0), make_card(50, 1), make_card(50, 2), make_card(7, 0)]
    two_pair = [make_card(90, 0), make_card(90, 1), make_card(80, 2), make_card(80, 3)]
    assert category(hand_value(trips)) == "three of a kind"
    assert category(hand_value(two_pair)) == "two pair"
    assert hand_value(trips) > hand_value(two_pair)
    assert category(hand_value([make_card(MAX_RANK, s) for s in range(4)])) == "four of a kind"


def test_category_names() -> None:
    names = [category(hand_value(parse_cards(t))) for t in (
        "2c4d6h8sTc", "2c2d6h8sTc", "2c2d6h6sTc", "2c2d2h8sTc", "2c3d4h5s6c",
        "2c4c6c8cTc", "2c2d2h8s8c", "2c2d2h2s8c", "2c3c4c5c6c",
    )]
    assert names == [
        "high card", "pair", "two pair", "three of a kind", "straight",
        "flush", "full house", "four of a kind", "straight flush",
    ]
    assert str(HandCategory.THREE_OF_A_KIND) == "three of a kind"
    with pytest.raises(CardError):
        category(9 << CATEGORY_SHIFT)


def test_bad_hands_are_rejected() -> None:
    with pytest.raises(CardError):
        hand_value([])
    with pytest.raises(CardError):
        hand_value(list(range(8)))
    with pytest.raises(CardError):
        hand_value([0, 1, 2, 3, 3])  # duplicate
    with pytest.raises(CardError):
        hand_value([5, 5])  # duplicate, small path
    with pytest.raises(CardError):
        hand_value([0, 1, 2, 3, 52])  # no rank past the ace with 5+ cards
    with pytest.raises(CardError):
        hand_value([-1])
    with pytest.raises(CardError):
        hand_values(np.array([[0, 1, 2, 3, 3]]))
    with pytest.raises(CardError):
        hand_values(np.array([[7, 7]]))
    with pytest.raises(CardError):
        hand_values(np.array([[0, 1, 2, 3, 60]]))
    with pytest.raises(CardError):
        hand_values(np.zeros((3, 8), dtype=int))
    with pytest.raises(CardError):
        hand_values(np.zeros(3, dtype=int))
    assert hand_values(np.zeros((0, 7), dtype=int)).shape == (0,)


# ------------------------------------------------------------------------------------------
# cross-checks


@pytest.mark.parametrize("num_cards", [1, 2, 3, 4, 5, 6, 7])
def test_matches_the_reference_evaluator(num_cards: int) -> None:
    rng = np.random.default_rng(num_cards)
    hands = random_hands(rng, 1500, num_cards)
    expected = [reference_value(h) for h in hands.tolist()]
    assert [hand_value(h) for h in hands.tolist()] == expected
    assert hand_values(hands).tolist() == expected


@pytest.mark.parametrize("num_cards", [6, 7])
def test_best_of_all_five_card_subsets(num_cards: int) -> None:
    rng = np.random.default_rng(100 + num_cards)
    hands = random_hands(rng, 20_000, num_cards)
    subsets = list(itertools.combinations(range(num_cards), 5))
    five = hands[:, subsets].reshape(-1, 5)
    best = hand_values(five).reshape(len(hands), len(subsets)).max(axis=1)
    assert np.array_equal(hand_values(hands), best)


def test_batches_larger_than_one_chunk() -> None:
    rng = np.random.default_rng(7)
    hands = random_hands(rng, 150_000, 7).astype(np.int64)
    values = hand_values(hands)
    sample = rng.choice(len(hands), 300, replace=False)
    assert [hand_value(h) for h in hands[sample].tolist()] == values[sample].tolist()


@st.composite
def hand_batches(draw: st.DrawFn) -> list[list[int]]:
    num_cards = draw(st.integers(1, 7))
    top = 52 if num_cards >= 5 else 4 * (MAX_RANK + 1)
    card = st.integers(0, top - 1)
    hand = st.lists(card, min_size=num_cards, max_size=num_cards, unique=True)
    return draw(st.lists(hand, min_size=1, max_size=20))


@settings(max_examples=200, deadline=None)
@given(hand_batches())
def test_vectorised_equals_scalar(batch: list[list[int]]) -> None:
    assert hand_values(np.array(batch)).tolist() == [hand_value(h) for h in batch]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
    ),
    st.permutations(range(4)),
)
def test_suit_permutation_invariance(cards: list[int], perm: list[int]) -> None:
    permuted = [(c & ~3) | perm[c & 3] for c in cards]
    assert hand_value(permuted) == hand_value(cards)


@pytest.mark.slow
def test_vectorised_throughput() -> None:
    hands = random_hands(np.random.default_rng(1), 1_000_000, 7)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        hand_values(hands)
        best = min(best, time.perf_counter() - start)
    assert len(hands) / best >= 2_000_000


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 2), (4, 2), (5, 2), (3, 4), (5, 1)]), st.booleans())
def test_values_on_boards_equal_the_general_evaluator(seed, sizes, suited):
    """Every hand on every board, as ``hand_values`` ranks it; flush-heavy decks when ``suited``."""
    board_size, hand_size = sizes
    rng = np.random.default_rng(seed)
    deck = np.array([c for c in range(52) if c % 4 < 2]) if suited else np.arange(52)
    boards = np.array([rng.choice(deck, board_size, replace=False) for _ in range(6)])
    hands = np.array([rng.choice(deck, hand_size, replace=False) for _ in range(9)])
    got = values_on_boards(boards, hands)
    assert got.shape == (6, 9)
    for r, board in enumerate(boards):
        for h, hand in enumerate(hands):
            if not set(board) & set(hand):
                assert got[r, h] == hand_values(np.concatenate([board, hand])[None, :])[0]


def test_values_on_boards_rejects_card_counts_it_cannot_rank():
    with pytest.raises(CardError):
        values_on_boards(np.zeros((1, 2), dtype=int), np.zeros((1, 2), dtype=int))
