"""``policy(view)`` is the exact distribution of the action kind ``act(view)`` draws, for every built-in
agent in every 2-player catalog game, on random states: evaluators that keep the agent's range from
``policy`` (local best response) then play the same agent a match does (issue 25: ``rules`` in no-limit
said call where it folded)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from showdown.agents.base import View
from showdown.agents.registry import BUILTIN_AGENTS, make_agent
from showdown.errors import ConfigError, SolverError
from showdown.games.cards import make_deck, parse_cards
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State

GAMES = ("kuhn", "leduc", "holdem-limit", "holdem-nolimit")
OPTIONS = {"exploiter": {"opponent": "rules"}}
VARIANTS: dict[str, tuple[dict[str, str], ...]] = {"probe-bet": (
    {}, {"sizes": "0.25/2/min/allin/3x", "hands": "value", "facing": "fold-weak"},
    {"raises": "first/third", "streets": "flop/river", "facing": "raise"}, {"sizes": "min", "hands": "value", "facing": "fold"})}
"""Option sets tried besides the defaults (the parametrised probe's cousins)."""
DRAWS = 300
STATES = 12


def random_decisions(game: GameDef, rng: random.Random, count: int) -> list[View]:
    """Views of the player to act at ``count`` states reached by random deals and random legal play
    (no-limit raises: the minimum, half pot, pot, a random size or all-in)."""
    deck = list(make_deck(game.num_ranks, game.num_suits))
    out: list[View] = []
    while len(out) < count:
        rng.shuffle(deck)
        c = game.num_hole_cards
        state = State.initial(game, [tuple(deck[:c]), tuple(deck[c : 2 * c])], deck[2 * c : 2 * c + sum(game.num_board_cards)])
        for _ in range(rng.randrange(0, 9)):
            if state.is_terminal:
                break
            state = state.apply(_random_action(state, rng))
        if not state.is_terminal:
            out.append(View.of(state, state.current_player, hand=len(out)))
    return out


def _random_action(state: State, rng: random.Random) -> Action:
    bounds = state.raise_bounds()
    kinds = (["f"] if state.can_fold() else []) + ["c", "c"] + (["r", "r"] if bounds else [])
    kind = rng.choice(kinds)
    if kind == "f":
        return Action(ActionKind.FOLD)
    if kind == "c" or bounds is None:
        return Action(ActionKind.CALL)
    if state.game.is_limit:
        return Action(ActionKind.RAISE)
    lo, hi = bounds
    pot = sum(state.spent) + state.to_call()
    sizes = [lo, hi, rng.randint(lo, hi)] + [state.max_spent + int(f * pot) for f in (0.5, 1.0)]
    return Action(ActionKind.RAISE, min(max(rng.choice(sizes), lo), hi))


def agents_of(game_name: str) -> list[tuple[str, dict[str, Any]]]:
    """Each built-in agent's name with its options, once per option set of ``VARIANTS``."""
    return [(name, {"seed": 7, **OPTIONS.get(name, {}), **extra}) for name in BUILTIN_AGENTS
            if name != "exploiter" or game_name in ("kuhn", "leduc") for extra in VARIANTS.get(name, ({},))]


@pytest.mark.parametrize("game_name", GAMES)
def test_policy_is_the_distribution_act_draws_from(game_name: str) -> None:
    game = get_game(game_name)
    views = random_decisions(game, random.Random(25), STATES)
    tested = 0
    for name, options in agents_of(game_name):
        try:
            agent = make_agent(name, game, options)
        except (ConfigError, SolverError):
            continue  # an agent that does not play this game (equilibrium in hold'em)
        tested += 1
        for view in views:
            policy = agent.policy(view)
            assert abs(sum(policy.values()) - 1) < 1e-6, (name, view, policy)
            legal = {"fcr"[a.kind] for a in view.legal_actions()}
            assert {k for k, p in policy.items() if p > 0} <= legal, (name, view, policy)
            counts = dict.fromkeys("fcr", 0)
            for _ in range(DRAWS):
                action = view.public.repair(agent.act(view))[0]
                counts["fcr"[action.kind]] += 1
            for letter in "fcr":
                p = policy.get(letter, 0.0)
                sigma = math.sqrt(DRAWS * p * (1 - p))
                assert abs(counts[letter] - DRAWS * p) <= 4.5 * sigma + 1e-9 + (1 if 0 < p < 1 else 0), (
                    name, game_name, view, policy, counts)
    assert tested >= 4


def test_rules_in_no_limit_says_fold_where_it_folds_to_an_all_in() -> None:
    """The reported case: a pair of fives facing an all-in before the flop (medium: act folds)."""
    game = get_game("holdem-nolimit")
    fives, aces = parse_cards("5c5d"), parse_cards("AsKs")
    first = game.first_player[0]
    holes = [aces, fives] if first == 0 else [fives, aces]
    state = State.initial(game, holes, list(parse_cards("2h3h4h9dTd")))
    state = state.apply(Action(ActionKind.RAISE, game.stack[0]))  # the first to act moves all in
    view = View.of(state, state.current_player)
    agent = make_agent("rules", game, {})
    assert agent.act(view).kind is ActionKind.FOLD
    assert agent.policy(view) == {"f": 1.0}
    assert np.isclose(sum(agent.policy(view).values()), 1.0)


def _with_hole(view: View, hole: tuple[int, ...]) -> View:
    return View(view.game, view.position, view.hand, view.public, hole, view.board, view.betting)


def _agents(game: GameDef) -> list[tuple[str, dict[str, Any], Any]]:
    """Every built-in agent that plays ``game`` (seed 7), with its options."""
    out = []
    for name, options in agents_of(game.name):
        try:
            out.append((name, options, make_agent(name, game, options)))
        except (ConfigError, SolverError):
            continue
    return out


def test_sized_range_policies_give_the_distribution_of_the_sizes_act_draws() -> None:
    """An agent that tells each raise size's probability (``sized_range_policy``: LBR then keeps its range
    by the size it raised to) draws its sizes from exactly those probabilities."""
    game = get_game("holdem-nolimit")
    tested = 0
    for name, _, agent in _agents(game):
        if not getattr(agent, "sized_range_policy", False):
            continue
        for view in random_decisions(game, random.Random(26), 3 * STATES):
            table = agent.range_policy(view, np.array([sorted(view.hole)]))
            sizes = {key: float(p[0]) for key, p in table.items() if len(key) > 1}
            if not 0 < sum(sizes.values()):
                continue
            tested += 1
            assert abs(sum(sizes.values()) - float(table["r"][0])) < 1e-9
            counts: dict[str, int] = {}
            for _ in range(DRAWS):
                key = str(view.public.repair(agent.act(view))[0])
                counts[key] = counts.get(key, 0) + 1
            for key in set(sizes) | {k for k in counts if k[0] == "r"}:
                p = sizes.get(key, 0.0)
                sigma = math.sqrt(DRAWS * p * (1 - p))
                assert abs(counts.get(key, 0) - DRAWS * p) <= 4.5 * sigma + 1e-9 + (1 if 0 < p < 1 else 0), (name, view, sizes, counts)
    assert tested >= 3


def test_agents_blind_in_their_raise_sizes_raise_to_the_same_size_whatever_their_cards() -> None:
    """``raise_sizes_blind`` (LBR then keeps the exact posterior of the cards from the action kinds alone):
    the same agent with the same random numbers raises to the same size with any cards it raises with."""
    game = get_game("holdem-nolimit")
    deck = list(make_deck(game.num_ranks, game.num_suits))
    rng = random.Random(27)
    blind = 0
    for name, options, agent in _agents(game):
        if not getattr(agent, "raise_sizes_blind", False):
            continue
        blind += 1
        for view in random_decisions(game, random.Random(28), STATES):
            free = [c for c in deck if c not in view.board]
            sizes = set()
            for _ in range(12):
                hole = tuple(sorted(rng.sample(free, 2)))
                action = make_agent(name, game, options).act(_with_hole(view, hole))
                if action.kind is ActionKind.RAISE:
                    sizes.add(view.public.repair(action)[0].size)
            assert len(sizes) <= 1, (name, view, sizes)
    assert blind >= 5
