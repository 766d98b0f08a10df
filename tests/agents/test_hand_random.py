"""Per-hand random streams: hand h's draws depend on the seed and h only, so a restarted agent plays
hand h as it did the first time; and they are uniform enough to sample strategies with."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from showdown.agents.base import View
from showdown.agents.hand_random import HandRandom, hand_state
from showdown.agents.registry import make_agent
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import State


def test_the_draws_of_a_hand_depend_on_the_seed_and_the_hand_only() -> None:
    first = HandRandom(7)
    played = {h: [first.at(h).random() for _ in range(5)] for h in range(50)}
    restarted = HandRandom(7)  # a new process, started at hand 30
    assert [restarted.at(30).random() for _ in range(5)] == played[30]
    same, other = HandRandom(7).at(3), HandRandom(8).at(3)
    assert [same.random() for _ in range(5)] == played[3]
    assert [other.random() for _ in range(5)] != played[3]
    assert len({round(v[0], 12) for v in played.values()}) == 50  # hands do not repeat each other
    assert hand_state(7, 3) != hand_state(3, 7)


def test_the_draws_are_uniform() -> None:
    rng = HandRandom(1)
    n = 60_000
    us = [rng.at(k // 6).random() for k in range(n)]
    assert all(0.0 <= u < 1.0 for u in us)
    assert abs(sum(us) / n - 0.5) < 0.005
    counts = Counter(rng.at(10_000 + k // 3).randrange(6) for k in range(n))
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts.values())
    assert set(counts) == set(range(6)) and chi2 < 25  # 5 degrees of freedom: p ~ 1e-4
    picks = Counter(rng.index([0.2, 0.0, 0.5, 0.3]) for _ in range(n))
    assert picks[1] == 0 and all(math.isclose(picks[i] / n, p, abs_tol=0.01) for i, p in ((0, 0.2), (2, 0.5), (3, 0.3)))
    assert {rng.randint(3, 5) for _ in range(200)} == {3, 4, 5}
    with pytest.raises(ValueError):
        rng.randrange(0)


def _decisions(game_name: str, agent: str, hands: range) -> dict[int, list[str]]:
    """The agent's action at each decision of ``hands``, the other seat always calling."""
    game = get_game(game_name)
    player = make_agent(agent, game, {"seed": 5})
    dealer = CardDealer(game, 11)
    chosen: dict[int, list[str]] = {}
    for h in range(hands.stop):
        hole, board = dealer.deal()  # the same cards for hand h in both runs
        if h not in hands:
            continue
        state = State.initial(game).with_cards(hole, board)
        while not state.finished:
            p = state.current_player
            if p == h % 2:
                view = View.of(state, p, h)
                action = player.act(view)
                chosen.setdefault(h, []).append(str(action))
                state = state.apply(state.repair(action)[0])
            else:
                state = state.apply(state.legal_actions()[1 if state.can_fold() else 0])
    return chosen


@pytest.mark.parametrize("game,agent", [("kuhn", "random"), ("leduc", "cfr"), ("kuhn", "equilibrium"),
                                        ("holdem-nolimit", "random")])
def test_a_built_in_agent_started_at_hand_h_plays_hand_h_as_the_first_one_did(game: str, agent: str) -> None:
    whole = _decisions(game, agent, range(0, 200))
    restarted = _decisions(game, agent, range(120, 200))
    assert restarted == {h: a for h, a in whole.items() if h >= 120}
    assert len({tuple(a) for a in whole.values()}) > 1
