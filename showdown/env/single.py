"""A Gymnasium environment for one seat, the others held by showdown agents; and the other way
round, a policy trained in the environments seated as an agent in a real match.

``SingleAgentEnv("leduc", opponents=["rules"])``: one hand per episode; the learner's position
moves by one each hand (as seats rotate in a match; ``position=`` fixes it). Observations and
actions are the AEC environment's (``showdown.env.encoding``), the reward is the learner's result
at the end of the hand. A hand the opponents end before the learner's turn (a fold to its big blind)
is no episode: ``reset`` deals the next, and its info says how many were skipped and what the learner
won in them (``skipped_hands``, ``skipped_reward``). A masked action is played as a call, as the dealer repairs an illegal
reply. Opponents are built-in agent names or ``Agent`` objects; they see only
what a seat sees (``View.of``), as in a match.

``PolicyAgent(policy)`` wraps ``policy(observation, action_mask) -> action index`` as an ``Agent``
(a masked index calls, as in ``SingleAgentEnv``);
``run_policy(policy)`` is the entry point of a bot file, so ``showdown match kuhn ./my_policy.py cfr``
plays the trained policy through the dealer.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from showdown.agents.base import Agent, View
from showdown.agents.registry import make_agent
from showdown.env.encoding import (
    DEFAULT_FRACTIONS,
    RENDER_MODES,
    ActionMap,
    Encoder,
    action_index,
    check_render_mode,
    check_reward_unit,
    chips_to_reward,
    dealing_seed,
    exact_action,
    hand_text,
)
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, Action, State

__all__ = ["Policy", "PolicyAgent", "SingleAgentEnv", "run_policy"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
"""``policy(observation, action_mask) -> action index`` (the environments' encoding)."""


MAX_SKIPPED_HANDS = 10_000
"""Hands in a row the opponents may end before the learner acts (``reset`` deals the next) before it gives up."""


class SingleAgentEnv(gymnasium.Env):
    """One learner against showdown agents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        game: str | GameDef = "kuhn",
        opponents: Sequence[str | Agent] = ("random",),
        *,
        position: int | None = None,
        reward: str = "chips",
        fractions: tuple[float, ...] = DEFAULT_FRACTIONS,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)  # (render_mode= was a TypeError, and render() gymnasium's NotImplementedError)
        self.render_mode = render_mode
        self.game = game if isinstance(game, GameDef) else get_game(game)
        n = self.game.num_players
        if isinstance(opponents, (str, Agent)):  # ('rules' was taken letter by letter: 'give 1 opponents, not 5')
            opponents = [opponents]
        wrong = next((o for o in opponents if not isinstance(o, (str, Agent))), False)
        if wrong is not False:  # (None was an AttributeError inside reset())
            raise ValueError(f"an opponent is a built-in agent's name or an Agent, not {wrong!r:.40}")
        if len(opponents) != n - 1:
            raise ValueError(f"{self.game.name or 'the game'} has {n} players: give {n - 1} opponents, not {len(opponents)}")
        if position is not None and (isinstance(position, bool) or not isinstance(position, numbers.Integral) or not 0 <= position < n):
            raise ValueError(f"position={position!r:.40}: give 0 to {n - 1}")  # (1.5 made every seat an opponent's: a KeyError)
        position = None if position is None else int(position)
        self._opponent_specs = list(opponents)
        self.opponents = self._make_opponents(None)
        self.fixed_position = position
        self.reward_unit = check_reward_unit(reward)
        self.actions = ActionMap(self.game, tuple(fractions))
        self.encoder = Encoder(self.game)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.actions.size,), dtype=np.int8),
        })  # fmt: skip
        self.action_space = spaces.Discrete(self.actions.size)
        self._dealer: CardDealer | None = None
        self.hand_number = -1
        self.position = 0
        self.state: State | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:  # (gymnasium refused a numpy integer seed, and said of -1 only its own Error)
            dealing_seed(seed)
            seed = int(seed)
        super().reset(seed=seed)
        if seed is not None or self._dealer is None:
            self._dealer = CardDealer(self.game, 0 if seed is None else dealing_seed(seed))
            self.hand_number = -1
            if seed is not None:
                self.opponents = self._make_opponents(dealing_seed(seed))
        skipped, skipped_reward = 0, 0.0
        while True:
            self._deal()
            state = self.state
            assert state is not None
            if not state.finished:
                break
            # the others ended the hand before the learner's turn (a fold to its big blind): no episode, as
            # the learner has nothing to decide, and step() on it was ResetNeeded; its result is in info
            skipped += 1
            skipped_reward += self._hand_over(state)
            if skipped >= MAX_SKIPPED_HANDS:
                raise RuntimeError(f"the opponents ended {skipped:,} hands in a row before position {self.position} "
                                   "could act: the learner never gets a decision against them")
        info = self._info()
        info["skipped_hands"], info["skipped_reward"] = skipped, skipped_reward
        if self.render_mode == "human":
            self.render()
        return self._observe(), info

    def _deal(self) -> None:
        assert self._dealer is not None
        hole, board = self._dealer.deal()
        self.hand_number += 1
        n = self.game.num_players
        self.position = self.fixed_position if self.fixed_position is not None else self.hand_number % n
        self.state = State.initial(self.game, hole, board)
        for p, agent in self._seated():
            agent.hand_start(View.of(self.state, p, self.hand_number))
        self._play_opponents()

    def _hand_over(self, state: State) -> float:
        """The learner's reward of a finished hand (the opponents told it ended)."""
        for p, agent in self._seated():
            agent.hand_end(View.of(state, p, self.hand_number))
        return float(chips_to_reward(state.payoffs(), self.game, self.reward_unit)[self.position])

    def step(self, action: int | np.integer[Any] | Action) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.finished:
            raise ResetNeeded("call reset() before step()" if state is None else "the hand is over: call reset() for the next hand")
        if isinstance(action, Action):
            chosen = exact_action(action)
        else:
            index = action_index(action, self.actions.size)
            chosen = self.actions.action(state, index) if 0 <= index < self.actions.size and self.actions.mask(state)[index] else CALL
        self.state = state.apply_legal(state.repair(chosen)[0])  # as the dealer: what the rules refuse becomes a call
        self._play_opponents()
        done = self.state.finished
        reward = self._hand_over(self.state) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, done, False, self._info()

    def render(self) -> str | None:
        """The hand as the PettingZoo env renders it, cards and board: printed with 'human', else returned."""
        if self.state is None:
            return None
        text = hand_text(self.state, self.hand_number)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _make_opponents(self, seed: int | None) -> list[Agent]:
        """Named agents made afresh, seeded from ``seed`` (seat by seat) when they take a seed, so that
        a seeded reset plays the same hands; ``Agent`` objects are kept as given."""
        out = []
        for i, spec in enumerate(self._opponent_specs):
            if not isinstance(spec, str):
                out.append(spec)
                continue
            try:
                out.append(make_agent(spec, self.game, None if seed is None else {"seed": seed * 16 + i + 1}))
            except ConfigError:  # an agent without a seed option
                out.append(make_agent(spec, self.game))
        return out

    def _seated(self) -> list[tuple[int, Agent]]:
        others = [p for p in range(self.game.num_players) if p != self.position]
        return list(zip(others, self.opponents))

    def _play_opponents(self) -> None:
        state = self.state
        assert state is not None
        by_position = dict(self._seated())
        while not state.finished and state.current_player != self.position:
            p = state.current_player
            action = by_position[p].act(View.of(state, p, self.hand_number))
            state = state.apply_legal(state.repair(action)[0])  # as the dealer: a bad reply becomes a call
        self.state = state

    def _observe(self) -> dict[str, Any]:
        state = self.state
        assert state is not None
        return {"observation": self.encoder.encode(state, self.position), "action_mask": self.actions.mask(state)}

    def _info(self) -> dict[str, Any]:
        return {"position": self.position, "hand": self.hand_number}


class PolicyAgent(Agent):
    """A trained ``policy(observation, action_mask) -> index`` as a showdown agent."""

    def __init__(self, policy: Policy, game: GameDef, fractions: tuple[float, ...] = DEFAULT_FRACTIONS) -> None:
        super().__init__(game)
        self.policy = policy
        self.actions = ActionMap(game, tuple(fractions))
        self.encoder = Encoder(game)

    def act(self, view: View) -> Action:
        """The policy's index read as ``SingleAgentEnv.step`` reads it: a masked one is a call (it ended
        the bot, 'action 0 (fold) is not legal', where training had played a call), and one that is no
        index an ``IllegalActionError`` (2.7 was cut to 2)."""
        state = view.state
        mask = self.actions.mask(state)
        index = action_index(self.policy(self.encoder.encode(state, view.position), mask), self.actions.size)
        return self.actions.action(state, index) if mask[index] else CALL


def run_policy(policy: Policy, argv: Sequence[str] | None = None, fractions: tuple[float, ...] = DEFAULT_FRACTIONS) -> int:
    """The ``__main__`` of a policy file: ``python my_policy.py [--game GAME] HOST PORT`` plays it
    against any ACPC dealer (``showdown match`` passes the game)."""
    from showdown.agents.client import run_bot

    return run_bot(lambda game: PolicyAgent(policy, game, fractions), argv)
