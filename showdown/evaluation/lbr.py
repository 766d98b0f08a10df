"""Local best response (Lisy and Bowling 2017, "Equilibrium approximation quality of current
no-limit poker bots"): a lower bound on how exploitable an agent is, in games too large for an exact
best response.

LBR plays hands against the agent. It keeps the agent's range (a weight per possible private hand,
card removal included) by Bayes' rule from the agent's action probabilities, ``policy(view)``, the
optional method a Python bot adds to be evaluated (our strategy, CFR and baseline agents have it).
At each of its decisions it estimates its chance ``WP`` of winning a showdown against the range
(exactly by enumeration when the remaining board is small, else by ``rollouts`` sampled boards) and
takes the action of highest local value, assuming the agent calls to the end:

* fold: 0; check or call ``c`` chips into a pot of ``P``: ``WP (P + c) - c``;
* raise by ``r`` beyond the call: ``f P + (1 - f) (WP (P + c + 2 r) - (c + r))``, with ``f`` the
  range's probability of folding to it.

No-limit raise sizes come from the paper's action settings: ``fc`` (no raises), ``fcpa`` (pot and
all-in), ``fc56`` (56 bets: multiples of the pot from 0.1 to 50 and all-in). Whatever LBR wins per
hand (mean over both positions) is a lower bound on the agent's exploitability; the chance-only
corrections of ``evaluation.chance`` take out the cards' luck from the estimate without bias.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from showdown.errors import ConfigError, ShowdownError
from showdown.games.cards import make_deck
from showdown.games.evaluate import hand_values, values_on_boards
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State

ACTION_SETS = ("fc", "fcpa", "fc56")
"""The no-limit action settings of the paper (F/C, F/C/P/A, and 56 bet sizes)."""
FC56 = tuple(round(0.1 * k, 1) for k in range(1, 10)) + tuple(range(1, 51))[:46]  # 9 + 46 = 55 fractions, + all-in = 56
MAX_EXACT_RUNOUTS = 500
"""Board completions enumerated exactly for WP; beyond, ``rollouts`` are sampled."""


@dataclass(frozen=True, slots=True)
class LBRResult:
    """LBR's winnings per hand (chips) with their 95% interval, plain and with the cards' luck out."""

    hands: int
    mean: float
    ci95: tuple[float, float]
    plain_mean: float
    plain_ci95: tuple[float, float]
    seconds: float
    big_blind: int

    def mbb(self, x: float) -> float:
        return 1000.0 * x / self.big_blind

    def to_json(self) -> dict[str, Any]:
        return {
            "lbr_mbb": self.mbb(self.mean),
            "ci95_mbb": [self.mbb(self.ci95[0]), self.mbb(self.ci95[1])],
            "lbr_per100": 100.0 * self.mean,
            "ci95_per100": [100.0 * self.ci95[0], 100.0 * self.ci95[1]],
            "plain_mbb": self.mbb(self.plain_mean),
            "plain_ci95_mbb": [self.mbb(self.plain_ci95[0]), self.mbb(self.plain_ci95[1])],
            "estimator": "chance",
            "hands": self.hands,
            "seconds": self.seconds,
            "hands_per_s": self.hands / self.seconds if self.seconds > 0 else None,
        }


class LocalBestResponse:
    """LBR against one agent (which must have ``policy(view)``) in a 2-player game."""

    def __init__(self, game: GameDef, agent: Any, *, rollouts: int = 100, action_set: str = "fcpa") -> None:
        if game.num_players != 2:
            raise ConfigError(f"local best response plays 2-player games ({game.name or 'this game'} has {game.num_players})")
        if not callable(getattr(agent, "policy", None)):
            raise ConfigError(
                f"agent {getattr(agent, 'name', type(agent).__name__)!r} cannot tell its action probabilities: LBR needs "
                "a policy(view) method returning {'f': p, 'c': p, 'r': p}"
            )
        if action_set not in ACTION_SETS:
            raise ConfigError(f"unknown LBR action set {action_set!r}: use one of {', '.join(ACTION_SETS)}")
        self.game = game
        self.agent = agent
        self.rollouts = rollouts
        self.action_set = action_set
        self.deck = make_deck(game.num_ranks, game.num_suits)
        self.hands = np.array(list(itertools.combinations(self.deck, game.num_hole_cards)), dtype=np.int64)
        self.hand_tuples = [tuple(h) for h in self.hands.tolist()]
        self._hand_index = {tuple(sorted(hand)): k for k, hand in enumerate(self.hand_tuples)}
        self._holds = np.zeros((int(max(self.deck)) + 1, len(self.hands)), dtype=bool)  # [card, hand]
        for k in range(self.hands.shape[1]):
            self._holds[self.hands[:, k], np.arange(len(self.hands))] = True
        self._cache: dict[tuple[Any, ...], dict[str, float]] = {}
        self._range_cache: dict[tuple[Any, ...], dict[str, np.ndarray]] = {}
        self._street: tuple[Any, np.ndarray, np.ndarray] | None = None
        self._preflop_classes = game.num_hole_cards == 2 and len(self.deck) == 52 and sum(game.num_board_cards) == 5
        if self._preflop_classes:
            from showdown.solvers.equity import class_of

            self._classes = np.array([class_of(int(a), int(b)) for a, b in self.hands.tolist()], dtype=np.int64)

    # ------------------------------------------------------------------ the agent's side

    def _policy(
        self, hole: tuple[int, ...], board: tuple[int, ...], state: State, position: int, betting: str | None = None
    ) -> dict[str, float]:
        from showdown.agents.base import View

        betting = state.betting if betting is None else betting
        key = (hole, board, betting)
        got = self._cache.get(key)
        if got is None:
            view = View(self.game, position, 0, state, hole, board, betting)
            got = dict(self.agent.policy(view))
            if len(self._cache) > 400_000:
                self._cache.clear()
            self._cache[key] = got
        return got

    def _range_table(self, board: tuple[int, ...], state: State, position: int) -> dict[str, np.ndarray] | None:
        """The agent's ``range_policy`` here (every holding's probabilities at once), if it has one."""
        batched = getattr(self.agent, "range_policy", None)
        if batched is None:
            return None
        from showdown.agents.base import View

        key = (board, state.betting)
        table = self._range_cache.get(key)
        if table is None:
            if len(self._range_cache) > 1_000:
                self._range_cache.clear()
            view = View(self.game, position, 0, state, self.hand_tuples[0], board, state.betting)
            table = self._range_cache[key] = batched(view, self.hands)
        return table

    def _agent_policy(self, hole: tuple[int, ...], board: tuple[int, ...], state: State, position: int) -> dict[str, float]:
        """The agent's probabilities with its real cards: a row of the range table when it has one
        (the same numbers; the table is needed for the range anyway), else its ``policy``."""
        table = self._range_table(board, state, position)
        if table is None:
            return self._policy(hole, board, state, position)
        k = self._hand_index[tuple(sorted(hole))]
        return {letter: float(probs[k]) for letter, probs in table.items()}

    def _range_probs(self, weights: np.ndarray, board: tuple[int, ...], state: State, position: int, letter: str) -> np.ndarray:
        out = np.zeros(len(self.hands))
        betting = state.betting
        table = self._range_table(board, state, position)
        if table is not None:
            got = table.get(letter)
            if got is not None:
                out[:] = got
            return np.where(weights > 0, out, 0.0)
        hands = self.hand_tuples
        if getattr(self.agent, "cards_blind", False):  # the same answer for every hand: ask once
            live = weights > 0
            if live.any():
                out[live] = self._policy(hands[int(np.argmax(live))], board, state, position, betting).get(letter, 0.0)
            return out
        for i in np.flatnonzero(weights > 0).tolist():
            out[i] = self._policy(hands[i], board, state, position, betting).get(letter, 0.0)
        return out

    # ------------------------------------------------------------------ LBR's side

    def _win_probability(self, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> float:
        """LBR's chance of winning a showdown against the range. The showdowns of every candidate hand
        on the sampled (or enumerated) boards are worked out once per street, summed over the boards,
        and kept for the street's other decisions, where only the range changes."""
        score, valid = self._showdowns(mine, board, rng)
        total = float(valid @ weights)
        return float(score @ weights) / total if total > 0 else 0.5

    def _showdowns(self, mine: tuple[int, ...], board: tuple[int, ...], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate hand: LBR's showdown score (1 win, 1/2 tie) summed over the boards where the
        hand is possible, and the count of those boards."""
        key = (mine, board)
        if self._street is not None and self._street[0] == key:
            return self._street[1], self._street[2]
        if not board and self._preflop_classes:
            # hold'em before the flop: the exact all-in equity of the 169 classes (solvers.equity)
            # instead of rollouts; LBR may choose its actions from any estimate
            from showdown.evaluation.chance import _class_table
            from showdown.solvers.equity import class_of

            table = _class_table()
            valid = (~np.isin(self.hands, np.array(mine)).any(axis=1)).astype(float)
            score = table[class_of(*mine), self._classes] * valid
            self._street = (key, score, valid)
            return score, valid
        total_board = sum(self.game.num_board_cards)
        rest = [c for c in self.deck if c not in mine and c not in board]
        need = total_board - len(board)
        count = math.comb(len(rest), need)
        if count <= MAX_EXACT_RUNOUTS:
            runs = np.array(list(itertools.combinations(rest, need)), dtype=np.int64).reshape(count, need)
        else:
            # ``rollouts`` uniform draws of ``need`` distinct cards: the smallest of random keys
            picks = rng.random((self.rollouts, len(rest))).argpartition(need - 1, axis=1)[:, :need]
            runs = np.array(rest, dtype=np.int64)[picks]
        boards = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (len(runs), len(board))), runs], axis=1)
        # a candidate hand holds a card of the runout, or of LBR's hand or the board
        blocked = np.zeros((len(boards), len(self.hands)), dtype=bool)
        if need:
            blocked |= self._holds[runs].any(axis=1)
        dealt = np.asarray(self._holds[list(mine + board)].any(axis=0))
        blocked |= dealt[None, :]
        if len(mine) + total_board >= 5 and len(self.deck) == 52:
            ours = values_on_boards(boards, np.array([mine]))[:, 0]
            theirs = values_on_boards(boards, self.hands)
        else:  # small games (Leduc, Kuhn-like): the general evaluator, pair by pair
            ours = hand_values(np.concatenate([np.broadcast_to(np.array(mine), (len(boards), len(mine))), boards], axis=1))
            r_idx, h_idx = np.nonzero(~blocked)
            theirs = np.zeros(blocked.shape, dtype=np.int64)
            theirs[r_idx, h_idx] = hand_values(np.concatenate([boards[r_idx], self.hands[h_idx]], axis=1))
        won = (ours[:, None] > theirs).astype(float) + 0.5 * (ours[:, None] == theirs)
        won[blocked] = 0.0
        score = won.sum(axis=0)
        valid = (len(boards) - blocked.sum(axis=0)).astype(float)
        self._street = (key, score, valid)
        return score, valid

    def _raise_options(self, state: State) -> list[Action]:
        bounds = state.raise_bounds()
        if bounds is None:
            return []
        if self.game.is_limit:
            return [Action(ActionKind.RAISE)]
        lo, hi = bounds
        if self.action_set == "fc":
            return []
        pot = sum(state.spent)
        call_total = state.max_spent
        fractions = (1.0,) if self.action_set == "fcpa" else FC56
        sizes = {hi}
        for f in fractions:
            to = call_total + int(round(f * (pot + state.to_call())))
            if lo <= to <= hi:
                sizes.add(to)
        return [Action(ActionKind.RAISE, s) for s in sorted(sizes)]

    def _decide(self, state: State, me: int, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> Action:
        wp = self._win_probability(mine, weights, board, rng)
        pot = float(sum(state.spent))
        asked = float(state.to_call())
        best, value = Action(ActionKind.CALL), wp * (pot + asked) - asked
        if asked > 0 and value < 0:
            best, value = Action(ActionKind.FOLD), 0.0
        norm = weights.sum()
        for action in self._raise_options(state):
            after = state.apply(action)
            put = (action.size if action.size else after.spent[me]) - state.spent[me]
            r = put - asked
            fold = (self._range_probs(weights, board, after, 1 - me, "f") * weights).sum() / norm if norm > 0 else 0.0
            u = fold * pot + (1 - fold) * (wp * (pot + asked + 2 * r) - (asked + r))
            if u > value:
                best, value = action, u
        return best

    # ------------------------------------------------------------------ hands

    def play(self, rng: np.random.Generator, me: int) -> tuple[float, State]:
        """One hand with LBR in position ``me``: its chips won, and the final state (for corrections)."""
        g = self.game
        cards = [int(c) for c in rng.permutation(np.array(self.deck))]
        c = g.num_hole_cards
        holes = [tuple(cards[0:c]), tuple(cards[c : 2 * c])]
        board_cards = cards[2 * c : 2 * c + sum(g.num_board_cards)]
        state = State.initial(g, holes, board_cards)
        mine, theirs = holes[me], holes[1 - me]
        weights = (~self._holds[list(mine)].any(axis=0)).astype(float)
        seen_board: tuple[int, ...] = ()
        while not state.is_terminal:
            board = tuple(int(x) for x in state.visible_board())
            if board != seen_board:
                if board:
                    weights[self._holds[list(board)].any(axis=0)] = 0.0
                seen_board = board
            public = state.with_cards((), ())
            if state.current_player == me:
                state = state.apply(self._decide(public, me, mine, weights, board, rng))
                continue
            probs = self._agent_policy(theirs, board, public, 1 - me)
            letters = [a for a in ("f", "c", "r") if probs.get(a, 0.0) > 0]
            p = np.array([probs[a] for a in letters])
            letter = letters[int(rng.choice(len(letters), p=p / p.sum()))]
            action = self._agent_action(letter, public, theirs, board, 1 - me)
            weights = weights * self._range_probs(weights, board, public, 1 - me, letter)
            if weights.sum() <= 0:  # the agent did what its policy says it never does: keep its range
                weights = (~self._holds[list(mine) + list(board)].any(axis=0)).astype(float)
            state = state.apply(action)
        return float(state.payoffs()[me]), state

    def _agent_action(self, letter: str, state: State, hole: tuple[int, ...], board: tuple[int, ...], position: int) -> Action:
        if letter == "f":
            return Action(ActionKind.FOLD) if state.can_fold() else Action(ActionKind.CALL)
        if letter == "c" or not state.can_raise():
            return Action(ActionKind.CALL)
        if self.game.is_limit:
            return Action(ActionKind.RAISE)
        from showdown.agents.base import View

        chosen: Action = self.agent.act(View(self.game, position, 0, state, hole, board, state.betting))
        if chosen.kind is ActionKind.RAISE and state.why_illegal(chosen) is None:
            return chosen
        lo, _ = state.raise_bounds() or (0, 0)
        return Action(ActionKind.RAISE, lo)


def run_lbr(
    game: GameDef, make_agent: Any, hands: int, *, seed: int = 0, rollouts: int = 100, action_set: str = "fcpa",
    progress: Any = None,
) -> LBRResult:
    """``hands`` hands of LBR against ``make_agent()``, positions alternating, in this process."""
    agent = make_agent()
    _reseed(agent, seed)
    lbr = LocalBestResponse(game, agent, rollouts=rollouts, action_set=action_set)
    start = time.perf_counter()
    plain, corrected = play_hands(lbr, hands, seed, progress)
    return summarise(plain, corrected, time.perf_counter() - start, game.big_blind)


def play_hands(lbr: LocalBestResponse, hands: int, seed: int, progress: Any = None) -> tuple[list[float], list[float]]:
    """LBR's winnings in ``hands`` hands (positions alternating), plain and with the cards' luck out
    (``evaluation.chance``)."""
    from showdown.evaluation.chance import ChanceCorrector

    corrector = ChanceCorrector(lbr.game)
    rng = np.random.default_rng(seed)
    plain: list[float] = []
    corrected: list[float] = []
    for k in range(hands):
        me = k % 2
        value, final = lbr.play(rng, me)
        luck = corrector.corrections(final.hole, final.board_by_round(), final.betting)
        plain.append(value)
        corrected.append(value - luck[me])
        if progress is not None:
            progress(k + 1, hands)
    return plain, corrected


def summarise(plain: Sequence[float], corrected: Sequence[float], seconds: float, big_blind: int) -> LBRResult:
    z = 1.959963984540054

    def ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
        a = np.asarray(values, dtype=float)
        m = float(a.mean())
        half = z * float(a.std(ddof=1)) / math.sqrt(len(a)) if len(a) > 1 else math.inf
        return m, (m - half, m + half)

    if not plain:
        raise ShowdownError("LBR played no hands")
    pm, pci = ci(plain)
    cm, cci = ci(corrected)
    return LBRResult(len(plain), cm, cci, pm, pci, seconds, max(1, big_blind))




# ---------------------------------------------------------------------- over several cores

CHUNK = 100
"""Hands per task: results do not depend on how many processes play them (each chunk has its seed)."""


def _chunk(task: tuple[str, str | None, str | None, dict[str, Any], int, int, int, str]) -> tuple[list[float], list[float], float]:
    """Play one chunk in a worker process: (plain values, corrected values, seconds)."""
    game_spec, agent_name, strategy_path, options, hands, seed, rollouts, action_set = task
    from showdown.games.catalog import get_game

    game = get_game(game_spec)
    start = time.perf_counter()
    agent = _process_agent(game_spec, game, agent_name, strategy_path, options)
    _reseed(agent, seed)
    lbr = LocalBestResponse(game, agent, rollouts=rollouts, action_set=action_set)
    plain, corrected = play_hands(lbr, hands, seed)
    return plain, corrected, time.perf_counter() - start


_AGENTS: dict[str, Any] = {}
"""Agents built in this process, by what built them: a chunk reuses its process's agent (a hold'em
strategy takes about a second to load) with its random choices reseeded from the chunk's seed."""


def _process_agent(game_spec: str, game: GameDef, name: str | None, strategy_path: str | None, options: dict[str, Any]) -> Any:
    key = json.dumps([game_spec, name, strategy_path, options], sort_keys=True, default=str)
    agent = _AGENTS.get(key)
    if agent is None:
        _AGENTS.clear()
        agent = _AGENTS[key] = agent_for(game, name, strategy_path, options)
    return agent


def _reseed(agent: Any, seed: int) -> None:
    """Seed the agent's own random choices (mixed strategies, bet sizes, translation) so that a run
    is reproducible from its seed whichever process plays which chunk."""
    from showdown.agents.hand_random import HandRandom

    rng = getattr(agent, "rng", None)
    if isinstance(rng, HandRandom):  # the built-in agents' (LBR's views are all of hand 0: one stream)
        agent.rng = HandRandom(seed)
    elif isinstance(rng, np.random.Generator):
        agent.rng = np.random.default_rng([seed, 1])
    elif isinstance(rng, random.Random):
        rng.seed(seed)


def agent_for(game: GameDef, name: str | None, strategy_path: str | None, options: dict[str, Any]) -> Any:
    """The agent LBR plays: a built-in by name (with options), or a strategy file's player."""
    if strategy_path is not None:
        from showdown.agents.equilibrium import StrategyAgent
        from showdown.solvers.strategy import load_strategy

        return StrategyAgent(game, load_strategy(strategy_path, game))
    from showdown.agents.registry import make_agent

    assert name is not None
    return make_agent(name, game, options)


def run_lbr_parallel(
    game_spec: str, *, agent: str | None = None, strategy: str | None = None, options: dict[str, Any] | None = None,
    hands: int, seed: int = 0, jobs: int = 1, rollouts: int = 100, action_set: str = "fcpa", progress: Any = None,
) -> LBRResult:
    """``hands`` hands of LBR in chunks of ``CHUNK``, over ``jobs`` processes (1: in this one)."""
    import multiprocessing

    from showdown.games.catalog import get_game

    game = get_game(game_spec)
    # fail early, and build the agent before the workers fork (they inherit it)
    LocalBestResponse(game, _process_agent(game_spec, game, agent, strategy, dict(options or {})), rollouts=rollouts, action_set=action_set)
    tasks = []
    for k, start in enumerate(range(0, hands, CHUNK)):
        tasks.append((game_spec, agent, strategy, dict(options or {}), min(CHUNK, hands - start), seed * 1_000_003 + k, rollouts, action_set))
    plain: list[float] = []
    corrected: list[float] = []
    began = time.perf_counter()
    if jobs <= 1:
        results = map(_chunk, tasks)
        for p, c, _ in results:
            plain += p
            corrected += c
            if progress is not None:
                progress(len(plain), hands)
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for p, c, _ in pool.imap(_chunk, tasks):
                plain += p
                corrected += c
                if progress is not None:
                    progress(len(plain), hands)
    return summarise(plain, corrected, time.perf_counter() - began, game.big_blind)


__all__ = ["ACTION_SETS", "LBRResult", "LocalBestResponse", "agent_for", "run_lbr", "run_lbr_parallel", "summarise"]
