from __future__ import annotations

import time

import numpy as np
import pytest

from showdown.errors import SolverError
from showdown.games.cards import parse_card
from showdown.games.catalog import get_game
from showdown.games.state import RAISE, State, parse_betting
from showdown.solvers.strategy import state_infoset_key
from showdown.solvers.tree import NodeKind, build_tree, check_solvable, estimate_size


def test_kuhn_tree_has_nine_betting_nodes_and_six_infosets_per_player() -> None:
    tree = build_tree(get_game("kuhn"))
    assert [n.betting for n in tree.nodes] == ["", "c", "cc", "cr", "crf", "crc", "r", "rf", "rc"]
    assert set(tree.infoset_keys(0)) == {f"{c}s:/{b}" for c in "QKA" for b in ("", "cr")}
    assert set(tree.infoset_keys(1)) == {f"{c}s:/{b}" for c in "QKA" for b in ("c", "r")}


def test_kuhn_terminal_coefficients_are_the_chips_at_stake() -> None:
    tree = build_tree(get_game("kuhn"))
    by_betting = {n.betting: n for n in tree.nodes}
    assert by_betting["cc"].kind is NodeKind.SHOWDOWN and by_betting["cc"].coef == 1.0
    assert by_betting["rc"].coef == 2.0 and by_betting["crc"].coef == 2.0
    assert by_betting["rf"].kind is NodeKind.FOLD and by_betting["rf"].coef == 1.0
    assert by_betting["crf"].coef == -1.0


def test_leduc_has_936_information_sets() -> None:
    # OpenSpiel's leduc_poker (suits distinguished, as in ACPC keys) has 936 information sets.
    tree = build_tree(get_game("leduc"))
    assert len(tree.infoset_keys()) == 936
    assert len(tree.nodes) == 85
    assert "Qh:Kh/rrc/r" in tree.key_index
    assert tree.legal_actions("Qh:Kh/rrc/r") == ("f", "c", "r")
    assert tree.legal_actions("Qh:Kh/rrc/rr") == ("f", "c")


def test_chance_probabilities_sum_to_one_in_every_round() -> None:
    for name in ("kuhn", "kuhn-10", "leduc"):
        tree = build_tree(get_game(name))
        for r in range(tree.game.num_rounds):
            assert tree.valid[r].sum() * tree.chance_weight[r] == pytest.approx(1.0, abs=1e-12)


def test_leduc_terminal_matrices_agree_with_state_payoffs() -> None:
    game = get_game("leduc")
    tree = build_tree(game)
    rng = np.random.default_rng(7)
    for node in tree.nodes:
        if node.kind is NodeKind.DECISION:
            continue
        m = tree.terminal_matrix(node) / tree.chance_weight[node.round]
        for _ in range(10):
            b, h0, h1 = (int(v) for v in rng.choice(np.argwhere(tree.valid[node.round])))
            hole = (tuple(tree.hands[h0]), tuple(tree.hands[h1]))
            board = tuple(tree.boards[node.round][b])
            if not board:  # a round-1 ending: any board card will do
                used = set(hole[0]) | set(hole[1])
                board = (next(c for c in tree.deck if c not in used),)
            state = State.initial(game, hole, board)
            for actions in parse_betting(node.betting):
                state = state.apply_all(actions)
            assert state.is_terminal
            assert m[b, h0, h1] == pytest.approx(state.payoffs()[0])


def test_tree_keys_match_keys_formed_from_dealt_states() -> None:
    game = get_game("leduc")
    tree = build_tree(game)
    state = State.initial(game, ((parse_card("As"),), (parse_card("Qh"),)), (parse_card("Kh"),))
    state = state.apply_betting("rrc/r")
    assert state.current_player == 1
    assert state_infoset_key(state) == "Qh:Kh/rrc/r"
    assert state_infoset_key(state.apply(RAISE), 0) == "As:Kh/rrc/rr"
    assert state_infoset_key(state.apply(RAISE)) in tree.key_index


def test_kuhn_100_cards_have_rank_text_only() -> None:
    # Decks past 13 ranks use ranks 13..112, none of which has ACPC text: no card reads like "As".
    tree = build_tree(get_game("kuhn-100"))
    keys = tree.infoset_keys(0)
    assert len(keys) == 200
    assert "r57s:/cr" in tree.key_index and "r13s:/" in tree.key_index and "r112s:/" in tree.key_index
    assert not any(k[0] in "23456789TJQKA" for k in keys)


def test_sequences_are_numbered_after_their_parents() -> None:
    for name in ("kuhn", "leduc"):
        tree = build_tree(get_game(name))
        for p in (0, 1):
            seqs = tree.sequences[p]
            assert np.all(seqs.parent_seq < seqs.first_seq)
            assert seqs.num_sequences == 1 + int(seqs.num_actions.sum())


@pytest.mark.parametrize("name", ["holdem-limit", "holdem-nolimit"])
def test_holdem_is_refused_at_once(name: str) -> None:
    start = time.perf_counter()
    with pytest.raises(SolverError, match="too large"):
        build_tree(get_game(name))
    assert time.perf_counter() - start < 1.0
    assert estimate_size(get_game(name)).num_hands == 1326


@pytest.mark.parametrize("name", ["kuhn3p", "holdem-limit-3p"])
def test_three_player_games_are_refused(name: str) -> None:
    with pytest.raises(SolverError, match="2-player"):
        check_solvable(get_game(name))


def test_trees_are_cached_per_game() -> None:
    assert build_tree(get_game("leduc")) is build_tree(get_game("leduc"))


@pytest.mark.parametrize("num_cards", [1, 2, 3, 5, 7])
def test_small_showdowns_are_ranked_as_the_batch_evaluator_ranks_them(num_cards: int) -> None:
    """Up to SCALAR_RANKING_ROWS cells are ranked one by one (no evaluator tables at start-up), more in
    one batch: the same integers either way."""
    from showdown.games.evaluate import hand_values
    from showdown.solvers.tree import SCALAR_RANKING_ROWS, _hand_strengths

    rng = np.random.default_rng(num_cards)
    for rows in (SCALAR_RANKING_ROWS, SCALAR_RANKING_ROWS + 1):
        cards = np.array([rng.choice(52, num_cards, replace=False) for _ in range(rows)])
        assert np.array_equal(_hand_strengths(cards), hand_values(cards))
