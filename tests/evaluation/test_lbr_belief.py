"""LBR's estimate with the agent's cards and draws integrated out over its range (``evaluation.lbr_belief``):
unbiased (every term has mean zero when the range is the exact posterior), much narrower than the
card-by-card terms, and used only where the range is exact."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.agents.registry import make_agent
from showdown.evaluation.lbr import LocalBestResponse
from showdown.evaluation.lbr_belief import Round, belief_action_term, hidden_cards_term
from showdown.evaluation.lbr_runs import _reseed, agent_for, play_hands
from showdown.games.catalog import get_game

Z = 4.5  # a false failure of a mean-zero check below 1e-5


def test_the_hidden_cards_term_is_zero_when_the_range_is_the_hand_held() -> None:
    rounds = [Round(150.0, np.array([0.2, 0.9, 0.5])), Round(400.0, np.array([0.1, 0.8, 0.3]))]
    held = np.array([0.0, 1.0, 0.0])
    assert hidden_cards_term(rounds, 1200.0, held, 1) == 0.0


def test_the_hidden_cards_term_weighs_each_round_by_what_the_pot_grew_in_it() -> None:
    """Against a range of two equally likely hands, each round's equity gap times the chips put in that
    round (the last round's: to the showdown's pot; after a fold, minus the pot: the chance terms'
    equity against the real hand is all that is left of it)."""
    rounds = [Round(100.0, np.array([0.25, 0.75])), Round(300.0, np.array([0.5, 1.0]))]
    posterior = np.array([1.0, 1.0])
    showdown = hidden_cards_term(rounds, 1000.0, posterior, 0)
    assert showdown == pytest.approx(200 * (0.5 - 0.25) + 700 * (0.75 - 0.5))
    folded = hidden_cards_term(rounds, 0.0, posterior, 0)
    assert folded == pytest.approx(200 * (0.5 - 0.25) - 300 * (0.75 - 0.5))


def test_the_belief_action_term_is_the_value_taken_less_the_ranges_mean() -> None:
    values = {"f": (0.25, 100.0), "c": (0.5, -40.0), "r900": (0.25, 300.0)}
    expected = 0.25 * 100 + 0.5 * -40 + 0.25 * 300
    assert belief_action_term(values, "c") == pytest.approx(-40 - expected)
    assert belief_action_term(values, "r500") == 0.0  # an action its range never takes: no term
    mean = sum(p * belief_action_term(values, key) for key, (p, _) in values.items())
    assert mean == pytest.approx(0.0, abs=1e-12)


def _terms(game_name: str, agent_name: str, hands: int, seed: int, options: dict[str, str] | None = None) -> np.ndarray:
    game = get_game(game_name)
    agent = agent_for(game, agent_name, None, dict(options or {}))
    _reseed(agent, seed)
    lbr = LocalBestResponse(game, agent, actions="fc" if game.is_limit else "fcpa")
    assert lbr.belief
    rng = np.random.default_rng([seed, 1])
    rows = []
    for k in range(hands):
        cards = [int(c) for c in np.random.default_rng([seed, k]).permutation(np.array(lbr.deck))]
        lbr.play(rng, k % 2, cards, hand=k)
        rows.append((lbr.hidden_cards, lbr.action_correction))
    return np.array(rows)


@pytest.mark.parametrize(("game_name", "agent", "hands", "options"), [
    ("leduc", "cfr", 3000, {}), ("holdem-nolimit", "random", 300, {}), ("holdem-nolimit", "cfr", 600, {"search": "off"}),
    ("holdem-nolimit", "probe-tiny", 150, {}),
])
def test_the_terms_have_mean_zero(game_name: str, agent: str, hands: int, options: dict[str, str]) -> None:
    """The agent's cards are drawn from the range LBR keeps, and its actions from what that range plays:
    a term that leaned on the real cards or the action taken would be far off zero in as many hands."""
    terms = _terms(game_name, agent, hands, 5, options)
    for column, name in enumerate(("hidden cards", "actions")):
        x = terms[:, column]
        assert np.count_nonzero(x) > hands // 10, name
        assert abs(x.mean()) <= Z * x.std(ddof=1) / np.sqrt(hands), (name, x.mean(), x.std())


def test_integrating_out_the_agents_cards_narrows_lbrs_interval_against_the_holdem_blueprint() -> None:
    """Measured 7x less variance on 1,000 hands (``benchmarks/bench_lbr_variance.py``); asked: under half."""
    game = get_game("holdem-nolimit")
    spread = {}
    for belief in (False, True):
        agent = agent_for(game, "cfr", None, {"search": "off"})
        _reseed(agent, 7)
        lbr = LocalBestResponse(game, agent, belief=belief)
        assert lbr.belief is belief
        spread[belief] = float(np.std(play_hands(lbr, 0, 600, 7)[1]))
    assert spread[True] ** 2 < 0.5 * spread[False] ** 2, spread


def test_the_range_is_integrated_out_only_where_it_is_the_exact_posterior() -> None:
    """No-limit sizes that follow the cards and are not told (the adaptive probe, a bot with only
    ``policy``) would make the range inexact: those keep the card-by-card terms; limit sizes are fixed."""
    nolimit, limit = get_game("holdem-nolimit"), get_game("holdem-limit")

    class KindsOnly:
        name = "kinds-only"

        def policy(self, view: object) -> dict[str, float]:
            return {"c": 1.0}

        def act(self, view: object) -> object:
            raise AssertionError("not played here")

    assert LocalBestResponse(nolimit, make_agent("cfr", nolimit, {"search": "off"})).belief
    assert LocalBestResponse(nolimit, make_agent("probe-tiny", nolimit, {})).belief
    assert not LocalBestResponse(nolimit, make_agent("probe-adaptive", nolimit, {})).belief
    assert not LocalBestResponse(nolimit, KindsOnly()).belief
    assert LocalBestResponse(limit, KindsOnly()).belief
    assert not LocalBestResponse(nolimit, make_agent("cfr", nolimit, {"search": "off"}), belief=False).belief
