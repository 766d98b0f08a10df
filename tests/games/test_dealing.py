"""Reference dealing, checked against every hand the reference dealer logged."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.games.dealing import MT19937, CardDealer, deal_hands
from showdown.protocol.logfile import parse_log
from tests.conftest import DATA, REFERENCE_LOGS


def test_mt19937_matches_init_genrand_outputs() -> None:
    # The reference generator for seed 5489 starts 3499211612, 581869302 (Matsumoto & Nishimura's
    # mt19937ar.c); numpy's legacy RandomState(int) seeds with the same init_genrand.
    rng = MT19937(5489)
    assert [rng.next_u32() for _ in range(2)] == [3499211612, 581869302]
    for seed in (0, 1, 7, 2**32 - 1):
        ours = MT19937(seed)
        theirs = np.random.RandomState(seed).randint(0, 2**32, size=2000, dtype=np.uint64)
        assert [ours.next_u32() for _ in range(2000)] == theirs.tolist()


@pytest.mark.parametrize("path", REFERENCE_LOGS, ids=lambda p: p.name)
def test_dealing_reproduces_every_logged_hand(path) -> None:
    log = parse_log(path.read_text().splitlines())
    header = log.headers[0]
    game = get_game(header.game)
    deals = list(deal_hands(game, header.seed, log.hands[-1].hand + 1))
    for hand in log.hands:
        hole, board = deals[hand.hand]
        assert hand.hole == hole, hand.hand
        assert hand.board_cards == board[: len(hand.board_cards)], hand.hand


def test_skip_equals_dealing_and_discarding() -> None:
    game = get_game("holdem-limit")
    a = CardDealer(game, 11)
    for _ in range(5):
        a.deal()
    b = CardDealer(game, 11)
    b.skip(5)
    assert a.deal() == b.deal()
    assert list(deal_hands(game, 11, 2, start=3)) == list(deal_hands(game, 11, 5))[3:]


def test_same_seed_same_cards_whatever_the_betting() -> None:
    # Transcript and edge cases both use seed 3: the first hand is Ks|Qs in Kuhn.
    hole, _ = CardDealer(get_game("kuhn"), 3).deal()
    assert hole == ((4 * 11 + 3,), (4 * 10 + 3,))
    assert (DATA / "edge_cases.txt").exists()


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "7", True])
def test_a_seed_outside_the_reference_s_32_bits_is_refused_not_dealt_as_another(seed: object) -> None:
    from showdown.errors import ShowdownError

    # -1 dealt as 2**32 - 1 and 2**32 as 0, without a word; '7' was a TypeError from the bit mask
    with pytest.raises(ShowdownError, match=r"CardDealer: the seed is an integer 0 to 4294967295"):
        CardDealer(get_game("kuhn"), seed)  # type: ignore[arg-type]


def test_a_dealer_takes_the_game_s_name_as_get_game_does() -> None:
    # was: AttributeError: 'str' object has no attribute 'num_ranks'
    assert CardDealer("leduc", 3).deal() == CardDealer(get_game("leduc"), 3).deal()  # type: ignore[arg-type]
    with pytest.raises(ShowdownError, match=r"CardDealer: expected a game"):
        CardDealer(None, 3)  # type: ignore[arg-type]
