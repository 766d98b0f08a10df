"""The equilibrium and never-bluff agents: cached LP strategy, seeded sampling, bluffs removed."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from showdown.agents.base import Agent, View, decision_views
from showdown.agents.equilibrium import (
    EquilibriumAgent,
    NeverBluffAgent,
    bluff_infosets,
    cached_strategy_path,
    equilibrium_strategy,
    game_hash,
    never_bluff_strategy,
    raise_equities,
)
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import ActionKind, State
from showdown.solvers.best_response import best_response_values, exploitability
from showdown.solvers.kuhn_analytic import KUHN_VALUE, family_deviation
from showdown.solvers.strategy import Strategy, StrategyError, infoset_key, save_strategy, state_infoset_key
from showdown.solvers.tree import build_tree

KUHN = get_game("kuhn")
LEDUC = get_game("leduc")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """One cache directory for this module's tests (solved once), never the user's."""
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path_factory.getbasetemp() / "showdown-cache"))


# ---------------------------------------------------------------------- in-process play (no network)


def play_hands(
    game: GameDef, agents: tuple[Agent, Agent], hands: int, seed: int, on_action: Callable[[int, View, str], None] | None = None
) -> np.ndarray:
    """Play ``hands`` hands, seats swapped every hand; returns each agent's chips per hand (array hands x 2).

    ``on_action(agent_index, view, action_text)`` sees every decision.
    """
    rng = np.random.default_rng(seed)
    deck = np.array(build_tree(game).deck)
    out = np.zeros((hands, 2))
    n_hole = game.num_hole_cards
    for h in range(hands):
        cards = rng.permutation(deck).tolist()
        hole = (tuple(cards[:n_hole]), tuple(cards[n_hole : 2 * n_hole]))
        state = State.initial(game, hole, tuple(cards[2 * n_hole : 2 * n_hole + game.total_board_cards]))
        seat_of = (h % 2, 1 - h % 2)  # agent i sits in position seat_of[i]
        while not state.finished:
            p = state.current_player
            i = seat_of.index(p)
            view = View.of(state, p, h)
            action = agents[i].act(view)
            if on_action is not None:
                on_action(i, view, str(action))
            state = state.apply(action)
        pay = state.payoffs()
        out[h] = (pay[seat_of[0]], pay[seat_of[1]])
    return out


# ---------------------------------------------------------------------- keys


@pytest.mark.parametrize("game", [KUHN, LEDUC, get_game("kuhn-5")], ids=["kuhn", "leduc", "kuhn-5"])
def test_view_keys_are_the_solvers_keys(game: GameDef) -> None:
    tree = build_tree(game)
    keys = [v.infoset_key for v in decision_views(game)]
    assert set(keys) == set(tree.infoset_keys())
    for v in decision_views(game):
        assert v.infoset_key == infoset_key(v.hole, v.board, v.betting, game.num_board_cards)


def test_view_keys_match_state_keys_in_played_hands() -> None:
    rng = np.random.default_rng(3)
    deck = list(build_tree(LEDUC).deck)
    for _ in range(200):
        cards = rng.permutation(deck).tolist()
        state = State.initial(LEDUC, ((cards[0],), (cards[1],)), (cards[2],))
        while not state.finished:
            assert View.of(state, state.current_player).infoset_key == state_infoset_key(state)
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.integers(len(legal)))])


# ---------------------------------------------------------------------- the equilibrium, cached


def test_kuhn_equilibrium_is_exact_and_in_the_analytic_family() -> None:
    s = equilibrium_strategy(KUHN)
    br0, br1 = best_response_values(KUHN, s)
    # Kuhn (1950); seeds 000/004: the game is worth 17/18 - 1 = -1/18 to the first player.
    assert br0 == pytest.approx(float(KUHN_VALUE), abs=1e-9)
    assert br1 == pytest.approx(-float(KUHN_VALUE), abs=1e-9)
    assert family_deviation(s) < 1e-7


def test_leduc_equilibrium_is_unexploitable() -> None:
    s = equilibrium_strategy(LEDUC)
    assert len(s) == 936  # information sets of Leduc hold'em (OpenSpiel's leduc_poker has 936 too)
    assert abs(exploitability(LEDUC, s)) < 1e-9


def test_the_solution_is_cached_on_disk_and_reloaded_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    first = equilibrium_strategy(LEDUC)
    path = cached_strategy_path(LEDUC)
    assert path.exists() and game_hash(LEDUC) in path.name
    import showdown.solvers.sequence_lp as lp

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved again instead of reading the cache")

    monkeypatch.setattr(lp, "solve_sequence_lp", no_solving)
    start = time.perf_counter()
    again = equilibrium_strategy(LEDUC)
    assert time.perf_counter() - start < 0.5  # milliseconds in practice (about 5 ms for Leduc)
    assert again == first


def test_a_damaged_cache_file_is_solved_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path))
    path = cached_strategy_path(KUHN)
    path.write_text("{not json")
    s = equilibrium_strategy(KUHN)
    assert abs(exploitability(KUHN, s)) < 1e-9
    assert json.loads(path.read_text())["format"] == "showdown-strategy"


def test_the_hash_follows_the_game_definition() -> None:
    assert game_hash(KUHN) == game_hash(get_game("kuhn"))
    assert game_hash(KUHN) != game_hash(get_game("kuhn-4"))
    assert game_hash(KUHN) != game_hash(LEDUC)


def test_strategy_option_plays_the_given_file(tmp_path: Path) -> None:
    from showdown.solvers.kuhn_analytic import kuhn_equilibrium

    path = save_strategy(kuhn_equilibrium(1.0), tmp_path / "k.json")
    agent = make_agent("equilibrium", KUHN, {"strategy": str(path), "seed": 1})
    assert agent.strategy_table(KUHN)["As:/"] == {"c": 0.0, "r": 1.0}


def test_an_incomplete_strategy_file_is_refused(tmp_path: Path) -> None:
    s = equilibrium_strategy(KUHN)
    path = save_strategy(Strategy(KUHN, {k: v for k, v in s.table.items() if k != "Ks:/r"}), tmp_path / "part.json")
    with pytest.raises(StrategyError, match="lacks 1 information sets"):
        make_agent("equilibrium", KUHN, {"strategy": str(path)})


def test_unknown_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="has no option 'bogus'"):
        make_agent("equilibrium", KUHN, {"bogus": 1})
    with pytest.raises(ConfigError):
        make_agent("never-bluff", KUHN, {"threshold": "high"})


def test_games_too_large_say_so() -> None:
    from showdown.errors import SolverError

    with pytest.raises(SolverError, match="too large"):
        make_agent("equilibrium", get_game("holdem-limit"), {})


# ---------------------------------------------------------------------- sampling


def test_sampling_is_seeded_and_follows_the_strategy() -> None:
    views = [v for v in decision_views(KUHN) if v.infoset_key == "Ks:/cr"]
    a = make_agent("equilibrium", KUHN, {"seed": 7})
    b = make_agent("equilibrium", KUHN, {"seed": 7})
    c = make_agent("equilibrium", KUHN, {"seed": 8})
    draws_a = [str(a.act(views[0])) for _ in range(4000)]
    assert draws_a == [str(b.act(views[0])) for _ in range(4000)]
    assert draws_a != [str(c.act(views[0])) for _ in range(4000)]
    z = a.strategy_table(KUHN)["Ks:/cr"]["c"]
    assert Counter(draws_a)["c"] / 4000 == pytest.approx(z, abs=0.03)


def test_actions_are_legal_in_leduc() -> None:
    agent = make_agent("equilibrium", LEDUC, {"seed": 2})
    for view in decision_views(LEDUC):
        action = agent.act(view)
        assert action in view.legal_actions()


# ---------------------------------------------------------------------- dominated plays (seeds 000/004)


def test_equilibrium_table_never_folds_the_ace_nor_calls_with_the_queen() -> None:
    # Seeds 000/004: "P2 should always call with the A and always fold the Q"; likewise P1 after check-bet.
    table = make_agent("equilibrium", KUHN, {}).strategy_table(KUHN)
    for key in ("As:/r", "As:/cr"):
        assert table[key]["f"] == 0.0
    for key in ("Qs:/r", "Qs:/cr"):
        assert table[key]["c"] == 0.0
    assert table["Ks:/"]["r"] == 0.0 and table["Ks:/c"]["r"] == 0.0  # never bet the K
    assert table["As:/c"]["r"] == 1.0  # P2 always bets the A after a check


def test_equilibrium_makes_no_dominated_play_against_always_bluff() -> None:
    eq = make_agent("equilibrium", KUHN, {"seed": 11})
    bluff = make_agent("bluff", KUHN, {})
    bad: list[str] = []

    def watch(i: int, view: View, action: str) -> None:
        if i == 0:
            card = view.infoset_key[:2]
            if view.can_fold() and ((card == "As" and action == "f") or (card == "Qs" and action == "c")):
                bad.append(f"{view.infoset_key} -> {action}")

    chips = play_hands(KUHN, (eq, bluff), 3000, seed=5, on_action=watch)
    assert bad == []
    # exactly 1/9 chip per hand in expectation (both seats; from the strategy tables)
    mean, se = chips[:, 0].mean(), chips[:, 0].std() / np.sqrt(len(chips))
    assert mean > 2 * se and abs(mean - 1 / 9) < 4 * se


# ---------------------------------------------------------------------- never-bluff


def test_kuhn_bluffs_are_the_queen_bets() -> None:
    s = equilibrium_strategy(KUHN)
    # Seeds 000/004: x (P1 bets Q) and b (P2 bets Q after a check) are the bluffs.
    assert set(bluff_infosets(s)) == {"Qs:/", "Qs:/c"}
    eq = raise_equities(s)
    assert eq["Qs:/"] == 0.0 and eq["As:/"] == 1.0 and eq["Ks:/"] == pytest.approx(0.5)


@pytest.mark.parametrize("key", ["Qh:/", "Kh:/c", "Ah:/r", "Qh:Kh/crc/", "Kh:Qs/rc/r", "Ah:As/rrc/c"])
def test_equity_against_a_uniform_range_by_brute_force(key: str) -> None:
    # Under the uniform profile every opponent hand reaches every node equally: the range is uniform.
    from showdown.games.cards import make_deck, parse_card, parse_cards
    from showdown.games.evaluate import hand_value
    from showdown.solvers.strategy import uniform_strategy

    hole, rest = key.split(":")
    mine = parse_card(hole)
    board = parse_cards(rest.split("/")[0])
    deck = [c for c in make_deck(LEDUC.num_ranks, LEDUC.num_suits) if c != mine and c not in board]
    score = count = 0.0
    for opp in deck:
        for card in ([c for c in deck if c != opp] if not board else [board[0]]):
            a, b = hand_value((mine, card)), hand_value((opp, card))
            score += 1.0 if a > b else 0.5 if a == b else 0.0
            count += 1
    assert raise_equities(uniform_strategy(LEDUC))[key] == pytest.approx(score / count, abs=1e-12)


def test_never_bluff_checks_instead_in_kuhn() -> None:
    s = equilibrium_strategy(KUHN)
    nb = make_agent("never-bluff", KUHN, {}).strategy_table(KUHN)
    assert nb["Qs:/"] == {"c": 1.0, "r": 0.0}
    assert nb["Qs:/c"] == {"c": 1.0, "r": 0.0}
    assert {k: v for k, v in nb.items() if k not in ("Qs:/", "Qs:/c")} == {
        k: v for k, v in s.table.items() if k not in ("Qs:/", "Qs:/c")
    }


def test_never_bluff_kuhn_exploitability() -> None:
    s = equilibrium_strategy(KUHN)
    y = s["As:/"]["r"]
    nb = never_bluff_strategy(s)
    br0, br1 = best_response_values(KUHN, nb)
    # From the seeds' indifference equations: a bet from a never-bluffer is always the A, so a best
    # response folds the K to it. As position 0 (P1) that gains 1/9 over the value -1/18 (P2 no longer
    # bets Q after a check); as position 1 (P2) it gains y/18 over 1/18. Exploitability (2 + y) / 36.
    assert br0 == pytest.approx(1 / 18, abs=1e-9)
    assert br1 == pytest.approx((1 + y) / 18, abs=1e-9)
    assert exploitability(KUHN, nb) == pytest.approx((2 + y) / 36, abs=1e-9)


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_never_bluff_kuhn_across_the_family(y: float) -> None:
    from showdown.solvers.kuhn_analytic import kuhn_equilibrium

    s = kuhn_equilibrium(y)
    assert set(bluff_infosets(s)) == ({"Qs:/c"} if y == 0.0 else {"Qs:/", "Qs:/c"})
    assert exploitability(KUHN, never_bluff_strategy(s)) == pytest.approx((2 + y) / 36, abs=1e-9)


def test_never_bluff_checks_when_it_can_and_folds_only_to_a_bet() -> None:
    for game in (KUHN, LEDUC):
        tree = build_tree(game)
        s = equilibrium_strategy(game)
        nb = never_bluff_strategy(s)
        changed = bluff_infosets(s)
        assert changed
        for key in changed:
            before, after = s.table[key], nb.table[key]
            raised = sum(p for a, p in before.items() if a.startswith("r"))
            assert raised > 0.0
            assert sum(p for a, p in after.items() if a.startswith("r")) == 0.0
            if "f" in tree.legal_actions(key):  # facing a bet: fold
                assert after["f"] == pytest.approx(before["f"] + raised) and after["c"] == before["c"]
            else:  # check is possible: check, never fold
                assert "f" not in after and after["c"] == pytest.approx(before["c"] + raised)
        assert {k: v for k, v in nb.table.items() if k not in changed} == {
            k: v for k, v in s.table.items() if k not in changed
        }


def test_never_bluff_leduc_keeps_value_raises() -> None:
    s = equilibrium_strategy(LEDUC)
    bluffs = bluff_infosets(s)
    equities = raise_equities(s)
    assert all(equities[k] < 0.5 for k in bluffs)
    # a pair with the board is never a bluff
    assert not [k for k in bluffs if k[3] != "/" and k[0] == k[3]]
    nb = never_bluff_strategy(s)
    assert exploitability(LEDUC, nb) > 0.1
    raising = [k for k, p in nb.table.items() if any(v > 0 for a, v in p.items() if a.startswith("r"))]
    assert raising and all(equities[k] >= 0.5 for k in raising)


def test_threshold_zero_keeps_the_equilibrium() -> None:
    s = equilibrium_strategy(KUHN)
    agent = make_agent("never-bluff", KUHN, {"threshold": 0.0})
    assert isinstance(agent, NeverBluffAgent)
    assert agent.strategy_table(KUHN) == s.table


def test_agents_register_with_their_names() -> None:
    eq = make_agent("equilibrium", KUHN, {})
    nb = make_agent("never-bluff", KUHN, {"seed": 3})
    assert isinstance(eq, EquilibriumAgent) and eq.name == "equilibrium"
    assert nb.name == "never-bluff"
    assert all(a.kind in (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE) for a in [eq.act(v) for v in decision_views(KUHN)])
