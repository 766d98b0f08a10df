"""``probe-adaptive`` learns from the hands of a match: it bluffs a bot that folds to every bet, stops
bluffing a calling station, and plays the same hands the same way from the same seed."""

from __future__ import annotations

import numpy as np

from showdown.agents.adaptive_probe import AdaptiveProbe
from showdown.agents.base import Agent, View
from showdown.agents.registry import make_agent
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind, State


class FoldsToBets(Agent):
    """Checks when it can, folds to any bet."""

    def act(self, view: View) -> Action:
        return FOLD if view.can_fold() else CALL


def play_hands(game: GameDef, probe: AdaptiveProbe, bot: Agent, hands: int, seed: int = 3) -> list[tuple[float, bool, float]]:
    """Hands of the probe (alternating positions) against the bot, with the hands' hook calls a match
    makes; per hand where the probe got to act: its winnings, whether it bet or raised, and its lowest
    equity when it did."""
    deck = np.arange(game.num_ranks * game.num_suits)
    out = []
    for hand in range(hands):
        cards = [int(c) for c in np.random.default_rng([seed, hand]).permutation(deck)]
        c = game.num_hole_cards
        state = State.initial(game, [tuple(cards[:c]), tuple(cards[c : 2 * c])], cards[2 * c : 2 * c + sum(game.num_board_cards)])
        me = hand % 2
        seats = [probe, bot] if me == 0 else [bot, probe]
        for p, agent in enumerate(seats):
            agent.hand_start(View.of(state, p, hand))
        raised, weakest, acted = False, 1.0, False
        while not state.is_terminal:
            p = state.current_player
            view = View.of(state, p, hand)
            action = state.repair(seats[p].act(view))[0]
            acted |= p == me
            if p == me and action.kind is ActionKind.RAISE:
                raised, weakest = True, min(weakest, probe.equity(view))
            state = state.apply(action)
        for p, agent in enumerate(seats):
            agent.hand_end(View.of(state, p, hand))
        if acted:
            out.append((float(state.payoffs()[me]), raised, weakest))
    return out


def test_it_learns_to_bet_every_hand_into_a_bot_that_folds_to_bets() -> None:
    game = get_game("holdem-nolimit")
    probe = AdaptiveProbe(game, seed=5)
    played = play_hands(game, probe, FoldsToBets(game), 300)
    late = played[len(played) // 2 :]
    assert sum(raised for _, raised, _ in late) >= 0.95 * len(late)
    assert sum(1 for _, raised, weakest in late if raised and weakest < 0.4) > 20  # bluffs with weak hands
    assert min(v for v, _, _ in late) >= 0  # never shown down nor folded: it wins every late hand
    assert max(probe.fold_estimate(spot) for spot in probe.tried) > 0.95


def test_it_stops_bluffing_a_calling_station() -> None:
    game = get_game("holdem-nolimit")
    probe = AdaptiveProbe(game, seed=5)
    played = play_hands(game, probe, make_agent("call", game, {"seed": 1}), 400)
    half = len(played) // 2

    def bluffs(hands: list[tuple[float, bool, float]]) -> int:
        return sum(1 for _, raised, weakest in hands if raised and weakest < 0.35)

    assert bluffs(played[half:]) <= min(15, bluffs(played[:half]) / 3)  # only the fading exploration is left
    assert sum(raised for _, raised, _ in played[half:]) > 40  # it still bets its strong hands
    assert all(made == 0 or folds == 0 for made, folds in probe.tried.values())


def test_the_same_seed_plays_the_same_hands_the_same_way() -> None:
    game = get_game("leduc")
    runs = [play_hands(game, AdaptiveProbe(game, seed=9), make_agent("rules", game, {}), 200) for _ in range(2)]
    assert runs[0] == runs[1]


def test_it_is_a_built_in_agent_with_its_options() -> None:
    for name in ("kuhn", "leduc", "holdem-limit", "holdem-nolimit"):
        agent = make_agent("probe-adaptive", get_game(name), {"seed": "3", "explore": "0.2"})
        assert isinstance(agent, AdaptiveProbe) and agent.explore == 0.2


def test_each_holdings_equity_is_sampled_once_a_street(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """LBR asks the probe's policy for ~1,000 holdings at every state it meets: each holding's equity is
    kept for the hand (it was recomputed at every state, 265 s for 100 hands of LBR), with the same value."""
    import showdown.agents.adaptive_probe as module

    game = get_game("holdem-nolimit")
    probe = make_agent("probe-adaptive", game, {"seed": 4})
    assert isinstance(probe, AdaptiveProbe)
    state = State.initial(game).apply(CALL)
    first, second = (View(game, 1, 7, state, hole, (), state.betting) for hole in ((0, 5), (12, 40)))
    values = [probe.equity(first), probe.equity(second)]

    def counted(cards: np.ndarray) -> np.ndarray:
        raise AssertionError("an equity already sampled this hand was sampled again")

    monkeypatch.setattr(module, "hand_values", counted)
    assert [probe.equity(first), probe.equity(second)] == values
