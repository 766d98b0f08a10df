"""A PettingZoo AEC environment over showdown's own rules engine: one hand per episode, any game.

``raw_env(game="kuhn")`` is the bare environment (an illegal action raises), ``env(...)`` the same
as PettingZoo gives its own games (an illegal or out-of-range action ends the hand with -1 for the
one who made it, and the call order is enforced). Agents are ``player_0`` .. ``player_{n-1}`` by position.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` (see
``showdown.env.encoding``); ``infos[agent]["infoset"]`` holds the ACPC information-set key
(``"Ks:/cr"``), the one our solvers and strategy files use.

Dealing is the reference dealer's: after ``reset(seed=S)`` the k-th hand (k = 0, 1, ... counting
the resets since) has the cards ``showdown dealer ... S`` deals for hand k. ``step`` takes an action
index, or for an exact no-limit size an ``Action`` (``Action(ActionKind.RAISE, 750)``) or its ACPC text
(``"r750"``, raise to 750 chips in the hand).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from showdown.agents.base import infoset_key
from showdown.env.encoding import (
    DEFAULT_FRACTIONS,
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
from showdown.errors import IllegalActionError, ProtocolError
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, State, parse_action

__all__ = ["env", "raw_env"]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the bare environment; AECEnv is untyped
    """One hand of ``game`` per episode (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "showdown_poker_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str | GameDef = "kuhn",
        *,
        reward: str = "chips",
        fractions: tuple[float, ...] = DEFAULT_FRACTIONS,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if illegal_reward is not None and (isinstance(illegal_reward, bool) or not isinstance(illegal_reward, numbers.Real)
                                           or not math.isfinite(illegal_reward)):
            # ('x' was a ValueError at the first illegal action, nan a nan reward, True a reward of +1)
            raise ValueError(f"illegal_reward={illegal_reward!r:.40}: give a finite number (-1.0) or None (an illegal action raises)")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.game = game if isinstance(game, GameDef) else get_game(game)
        self.game.require_servable()
        check_reward_unit(reward)
        check_render_mode(render_mode)
        self.reward_unit = reward
        self.render_mode = render_mode
        self.actions = ActionMap(self.game, tuple(fractions))
        self.encoder = Encoder(self.game)
        n = self.game.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._position = {a: p for p, a in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.actions.size,), dtype=np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self._dealer: CardDealer | None = None
        self.hand_number = -1
        self.state: State | None = None
        self._observed: dict[str, tuple[State, dict[str, Any]]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._dealer is None:
            self._dealer = CardDealer(self.game, 0 if seed is None else dealing_seed(seed))
            self.hand_number = -1
        hole, board = self._dealer.deal()
        self.hand_number += 1
        self.state = State.initial(self.game, hole, board)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]
        self._note_infosets()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._started()
        cached = self._observed.get(agent)
        if cached is not None and cached[0] is state:  # the wrappers ask again for the same state
            return cached[1]
        position = self._position[agent]
        acting = not state.finished and state.current_player == position
        mask = self.actions.mask(state) if acting else np.zeros(self.actions.size, dtype=np.int8)
        seen = {"observation": self.encoder.encode(state, position), "action_mask": mask}
        self._observed[agent] = (state, seen)
        return seen

    def step(self, action: int | np.integer[Any] | Action | str | None) -> None:
        self._started()
        if not self.agents:
            raise ResetNeeded("the hand is over and every agent has left it: call reset() for the next hand")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        try:
            chosen = self._to_action(state, action)
            why = state.why_illegal(chosen)
            if why is not None:
                raise IllegalActionError(f"illegal action {chosen} at '{state.betting}': {why}")
        except (IllegalActionError, ProtocolError, TypeError, ValueError):
            if self.illegal_reward is None:
                raise
            self._end_on_illegal(agent)
            return
        self.state = state = state.apply_legal(chosen)
        if state.finished:
            for a, r in zip(self.possible_agents, chips_to_reward(state.payoffs(), self.game, self.reward_unit)):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[(self._position[agent] + 1) % self.game.num_players]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._note_infosets()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_on_illegal(self, agent: str) -> None:
        """PettingZoo's ``TerminateIllegalWrapper``, built in (one wrapper layer less to pass through on
        every step): the hand ends, the offender gets ``illegal_reward``, the others 0."""
        EnvLogger.warn_on_illegal_move()
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self._accumulate_rewards()
        self._deads_step_first()

    def _to_action(self, state: State, action: int | np.integer[Any] | Action | str | None) -> Action:
        if isinstance(action, Action):
            return exact_action(action)
        if isinstance(action, str):
            return parse_action(action)
        if action is None:
            raise IllegalActionError("no action given for a player still in the hand")
        return self.actions.action(state, action_index(action, self.actions.size))

    def _started(self) -> State:
        """The hand in play; Gymnasium's ``ResetNeeded`` before the first ``reset()``."""
        if self.state is None:
            raise ResetNeeded("call reset() before step() or observe()")
        return self.state

    def _note_infosets(self) -> None:
        state = self.state
        assert state is not None
        if not state.finished:
            p = state.current_player
            key = infoset_key(state.hole[p], state.visible_board(), state.betting, self.game.num_board_cards)
            self.infos[self.possible_agents[p]] = {"infoset": key}

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = hand_text(self.state, self.hand_number)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(game: str | GameDef = "kuhn", **kwargs: Any) -> AECEnv:
    """``raw_env`` as PettingZoo's own games are given: an illegal or out-of-range action ends the
    hand with -1 for its maker (``TerminateIllegalWrapper``'s rule, built into ``raw_env`` with
    ``illegal_reward``: each wrapper layer costs a third of the speed) and calls out of order are
    errors (PettingZoo's ``OrderEnforcingWrapper``)."""
    kwargs.setdefault("illegal_reward", -1.0)
    return wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))
