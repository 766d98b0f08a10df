"""Agents that play a fixed ``Strategy``: ``equilibrium`` (the exact LP solution) and ``never-bluff``.

``equilibrium`` plays the sequence-form LP equilibrium of the game (``solve_sequence_lp`` with
refinement, so information sets the opponent's equilibrium never reaches still get sensible play),
or the strategy in ``strategy=FILE``. The solved strategy is cached on disk in
``cache_dir("strategies")`` under a hash of the game definition, so only the first start pays for
the LP (about 0.1 s for Kuhn, 1 s for Leduc) and later starts load a JSON file in milliseconds.
Actions are drawn with the agent's per-hand generator (``hand_random.HandRandom``, option ``seed``).

``never-bluff`` is the seeds' deviation ("a player who never bluffs"): the same strategy with every
bluff taken out. A **bluff** is a bet or raise at an information set where our hand's showdown
equity against the opponent's range is below ``threshold`` (default 1/2): it is a raise with a hand
that is more likely behind than ahead. Precisely:

* the opponent's range at an information set is the opponent's probability of reaching that
  betting sequence with each of its hands under the same strategy, with card removal (hands sharing
  a card with ours or the board get no weight); when the opponent never gets there, every
  compatible hand counts equally;
* equity is the probability of winning at showdown (ties count half) against that range, averaged
  over the board cards still to come (all-in equity);
* at a bluff the raise probability moves to check when no bet is faced, else to fold (never folds
  when a check is possible).

In Kuhn poker this removes exactly the bets with the queen (position 0's opening bet ``x`` and
position 1's bet after a check ``b``; seeds 000/004), whose equity is 0; the king is never raised
and the ace has equity 1. In Leduc (cards Q, K, A) it removes every raise with a queen before the
board, the king's re-raises before the board (equity about 0.36-0.40 against a raiser's range; an
unopened king has exactly 1/2 and keeps its raises), and unpaired raises after the board against
ranges that are ahead; a pair with the board is never a bluff.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from showdown.agents.base import Agent, StrategyTable, View
from showdown.agents.hand_random import HandRandom
from showdown.agents.registry import take_options
from showdown.agents.tree_betting import letter_policy, played_action, tree_state
from showdown.cache import cache_dir
from showdown.errors import ConfigError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.games.state import CALL, Action, State
from showdown.solvers.strategy import Strategy, StrategyError, infoset_key, load_strategy, save_strategy

__all__ = [
    "BLUFF_THRESHOLD",
    "SOLVER_TAG",
    "EquilibriumAgent",
    "NeverBluffAgent",
    "StrategyAgent",
    "bluff_infosets",
    "cached_strategy_path",
    "equilibrium_strategy",
    "game_hash",
    "load_complete_strategy",
    "never_bluff_strategy",
    "raise_equities",
]

SOLVER_TAG = "sequence-lp-refined-v1"
"""Part of the cache key: change it when the solver's output for a game would change."""

BLUFF_THRESHOLD = 0.5
"""A raise with showdown equity below this against the opponent's range is a bluff."""

EQUITY_TOLERANCE = 1e-9
"""Equities within this of the threshold are not below it (an unopened Leduc king has exactly 1/2)."""


# ---------------------------------------------------------------------- the strategy, cached


def game_hash(game: GameDef) -> str:
    """A short hash of the game definition (its ``.game`` text) and the solver version."""
    text = f"{SOLVER_TAG}\n{format_gamedef(game)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def cached_strategy_path(game: GameDef) -> Path:
    """Where the equilibrium of ``game`` is cached: ``<cache>/strategies/<name>.<hash>.json``."""
    name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in (game.name or "game"))
    return cache_dir("strategies") / f"{name}.{game_hash(game)}.json"


def load_complete_strategy(path: str | Path, game: GameDef) -> Strategy:
    """Load a strategy file for ``game`` and check it has every information set of both players."""
    from showdown.solvers.tree import build_tree

    strategy = load_strategy(path, game)
    missing = [k for k in build_tree(game).infoset_keys() if k not in strategy.table]
    if missing:
        raise StrategyError(
            f"{path}: the strategy lacks {len(missing)} information sets of game {game.name or '?'} "
            f"(e.g. {missing[0]!r}); an agent needs a complete profile"
        )
    return strategy


def equilibrium_strategy(game: GameDef, *, use_cache: bool = True) -> Strategy:
    """The refined sequence-form LP equilibrium of ``game``, from the disk cache when present.

    A missing or unreadable cache file is (re)written atomically, so agents started together may
    both solve but never read a half-written file.
    """
    path = cached_strategy_path(game) if use_cache else None
    if path is not None and path.exists():
        try:
            return load_complete_strategy(path, game)
        except StrategyError:
            pass  # stale or damaged: solve again and overwrite
    from showdown.solvers.sequence_lp import solve_sequence_lp  # scipy: only when solving

    strategy = solve_sequence_lp(game, refine=True).strategy
    if path is not None:
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            save_strategy(strategy, tmp, fmt="json")
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only cache only costs speed
    return strategy


# ---------------------------------------------------------------------- bluffs


def raise_equities(strategy: Strategy) -> dict[str, float]:
    """Showdown equity against the opponent's range at every information set where a raise is legal.

    The range comes from the opponent's reach probabilities under ``strategy`` (a complete profile);
    equity counts ties as half and averages over the board cards still to come (see the module
    docstring).
    """
    from showdown.solvers.best_response import reach_probabilities
    from showdown.solvers.strategy import strategy_to_arrays
    from showdown.solvers.tree import NodeKind, build_tree

    game = strategy.game
    tree = build_tree(game)
    last = game.num_rounds - 1
    show = tree.showdown_matrix[last]
    if show is None or not any(n.kind is NodeKind.SHOWDOWN for n in tree.nodes):
        return {}
    valid = tree.valid[last].astype(np.float64)
    score = (show / tree.chance_weight[last] + valid) / 2.0  # 1 win, 1/2 tie, 0 loss; 0 where impossible
    # per round r: (boards of r, hand, opponent hand) sums over the final boards extending each board
    won: dict[int, np.ndarray] = {}
    seen: dict[int, np.ndarray] = {}
    for r in range(game.num_rounds):
        f = tree.num_boards[last] // tree.num_boards[r]
        shape = (tree.num_boards[r], f, len(tree.hands), len(tree.hands))
        won[r] = score.reshape(shape).sum(axis=1)
        seen[r] = valid.reshape(shape).sum(axis=1)
    arrays = strategy_to_arrays(tree, strategy)
    reach = reach_probabilities(tree, arrays)
    out: dict[str, float] = {}
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        if not any(a.startswith("r") for a in node.actions):
            continue
        r = node.round
        opp = reach[1 - node.player][tree.decision_nodes[d]]  # (boards, hands)
        bs, hs = tree.cells[d]
        for key, b, h in zip(tree.keys_by_node[d], bs.tolist(), hs.tolist()):
            weights = opp[b]
            total = float(seen[r][b, h] @ weights)
            if total <= 0.0:  # the opponent never gets here: a uniform range
                weights = np.ones_like(weights)
                total = float(seen[r][b, h] @ weights)
            out[key] = float(won[r][b, h] @ weights) / total if total > 0.0 else 0.5
    return out


def bluff_infosets(strategy: Strategy, threshold: float = BLUFF_THRESHOLD) -> dict[str, float]:
    """Information sets where ``strategy`` raises with equity below ``threshold``: key -> equity."""
    equities = raise_equities(strategy)
    out = {}
    for key, eq in equities.items():
        probs = strategy.table.get(key, {})
        if eq < threshold - EQUITY_TOLERANCE and any(p > 0.0 for a, p in probs.items() if a.startswith("r")):
            out[key] = eq
    return out


def never_bluff_strategy(strategy: Strategy, threshold: float = BLUFF_THRESHOLD) -> Strategy:
    """``strategy`` with every bluff (see ``bluff_infosets``) replaced by check, or fold to a bet."""
    table = {k: dict(v) for k, v in strategy.table.items()}
    for key in bluff_infosets(strategy, threshold):
        probs = table[key]
        moved = sum(p for a, p in probs.items() if a.startswith("r"))
        fallback = "f" if "f" in probs else "c"  # fold is legal only when facing a bet
        for a in probs:
            if a.startswith("r"):
                probs[a] = 0.0
        probs[fallback] = probs.get(fallback, 0.0) + moved
    return Strategy(strategy.game, table, validate=False)


# ---------------------------------------------------------------------- the agents


class StrategyAgent(Agent):
    """Plays a fixed behavioural ``Strategy``, drawing each action from its seed and the hand
    number (``HandRandom``: a resumed match draws what the first run drew).

    The strategy must hold every information set the agent can meet; ``strategy_table`` lists it.
    """

    name: ClassVar[str] = "strategy"

    def __init__(self, game: GameDef, strategy: Strategy, seed: int | None = None) -> None:
        super().__init__(game)
        if strategy.game != game:
            raise ConfigError(f"agent {self.name!r}: the strategy is for another game than {game.name or 'this one'}")
        self.strategy = strategy
        self.seed = seed
        self.rng = HandRandom(seed)  # per hand: a resumed match draws what the first run drew
        self._boards = game.num_board_cards

    def key(self, view: View, tree: State | None = None) -> str:
        """The canonical information-set key of ``view`` (as the solvers write it), at the solved tree's
        state ``tree`` when given (an opponent's no-limit size off the tree: ``agents.tree_betting``)."""
        return infoset_key(view.hole, view.board, view.betting if tree is None else tree.betting, self._boards)

    def act(self, view: View) -> Action:
        tree = tree_state(view)
        if tree is None:  # the tree's hand is over where the real one goes on
            return CALL
        return played_action(view, tree, self.strategy.sample_action(self.key(view, tree), self.rng.at(view.hand)))

    def policy(self, view: View) -> dict[str, float]:
        """The action probabilities here (what local best response and other evaluators ask for)."""
        tree = tree_state(view)
        if tree is None:
            return {"c": 1.0}
        return letter_policy(self.strategy.probabilities(self.key(view, tree)))

    def strategy_table(self, game: GameDef | None = None) -> StrategyTable:
        if game is not None and game != self.strategy.game:
            raise ConfigError(f"agent {self.name!r} has a strategy for another game")
        return {k: dict(v) for k, v in self.strategy.table.items()}


class EquilibriumAgent(StrategyAgent):
    """The exact equilibrium (cached LP solution) or the strategy of ``strategy=FILE``."""

    name = "equilibrium"

    @classmethod
    def create(
        cls, game: GameDef, strategy: str | None = None, seed: int | None = None, **family: float
    ) -> EquilibriumAgent:
        from showdown.games.catalog import catalog_name

        if catalog_name(game) == "kuhn3p" and not strategy:
            # 3-player Kuhn: a member of the published equilibrium family (Szafron et al. 2013).
            from showdown.solvers.kuhn3p_family import kuhn3p_equilibrium

            try:
                return cls(game, kuhn3p_equilibrium(**family), seed)
            except SolverError as exc:
                raise ConfigError(f"agent 'equilibrium': {exc}") from None
        if family:
            raise ConfigError(
                f"agent 'equilibrium': options {', '.join(sorted(family))} choose a member of the 3-player Kuhn "
                "family and apply to kuhn3p only"
            )
        profile = load_complete_strategy(strategy, game) if strategy else equilibrium_strategy(game)
        return cls(game, profile, seed)


class NeverBluffAgent(StrategyAgent):
    """The equilibrium with every bluff replaced by check/fold (see the module docstring)."""

    name = "never-bluff"

    @classmethod
    def create(
        cls, game: GameDef, strategy: str | None = None, seed: int | None = None, threshold: float = BLUFF_THRESHOLD
    ) -> NeverBluffAgent:
        base = load_complete_strategy(strategy, game) if strategy else equilibrium_strategy(game)
        return cls(game, never_bluff_strategy(base, threshold), seed)


def make_equilibrium(game: GameDef, options: dict[str, Any]) -> Agent:
    o = take_options("equilibrium", options)
    return EquilibriumAgent.create(game, **o)


def make_never_bluff(game: GameDef, options: dict[str, Any]) -> Agent:
    o: Mapping[str, Any] = take_options("never-bluff", options)
    return NeverBluffAgent.create(game, **o)
