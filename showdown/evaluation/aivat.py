"""Unbiased low-variance win rates from known strategies: AIVAT control variates.

Burch, Schmid, Moravcik, Morrill and Bowling (2018), "AIVAT: A New Variance Reduction Technique for
Agent Evaluation in Imperfect Information Games" (AAAI; arXiv:1612.06915). Each hand's result
``u(z)`` is corrected at every step whose probabilities are known, chance (the deal and the board
cards) and the decisions of agents whose strategy is known::

    u_hat(z) = u(z) - sum over such steps h -> h.a of [ v(h.a) - sum_a' pi(a'|h) v(h.a') ]

Each correction has expectation 0 given the history before it, whatever the value function ``v``,
so ``u_hat`` is unbiased; the better ``v`` predicts the result, the smaller the variance. Here
``v(h)`` is the exact expected value of position 0 from the full history ``h`` (all cards and the
betting so far) under a profile: the known strategies where known and a *model* (the game's
equilibrium, else uniform play) for the others, computed on the solvers' vectorised tree for every
deal at once. Because ``v`` is exact where the strategies are known, the sum telescopes to::

    u_hat = E[v(root)] + sum over the unknown agents' decisions of [ v(h.a) - v(h) ] + (u(z) - v(z))

(the last term is 0: ``v`` at a terminal is the payoff), so only what the unknown agents chose is left
as noise. With every strategy known the estimate is the exact expected value of the profile for every
hand: the sample is then only a check that the logs are consistent with those strategies.

Safety, so that only strategies that are really played are used:

* a seat counts as known only for built-in agents whose play is a fixed table they sample from
  (``known_strategy``); outside programs never do;
* in a hand where the dealer replaced a seat's action (timeout, disconnect, illegal action), that
  seat is treated as unknown for that hand;
* a known seat that plays an action its strategy gives probability 0, or whose action counts do
  not fit its strategy's probabilities (chi-square test per information set, p < ``FIT_ALARM``), is
  not playing that strategy: it is treated as unknown for the whole sample (which costs variance,
  never bias) and ``AivatResult.notes`` says so.

Two-player zero-sum games the exact solvers hold (Kuhn, N-card Kuhn, Leduc) only; ``supports``
answers before anything is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from showdown.errors import ShowdownError, SolverError
from showdown.games.cards import Card
from showdown.games.gamedef import GameDef
from showdown.protocol.events import NOT_ITS_OWN_ACTION
from showdown.solvers.strategy import Profile, Strategy, strategy_to_arrays, uniform_strategy
from showdown.solvers.tree import GameTree, NodeKind, build_tree, check_solvable

__all__ = [
    "AivatError",
    "AivatEstimator",
    "AivatResult",
    "DealCodes",
    "choose_known",
    "REPLACING_EVENTS",
    "known_strategy",
    "strategy_unknown",
    "known_strategies",
    "supports",
]

FIT_ALARM = 1e-3
"""A known seat whose action counts fit its strategy with a chi-square p-value below this is dropped."""

MODEL_LP_INFOSETS = 10_000
"""The model is the game's equilibrium only up to this many information sets (Leduc has 936): the
sequence-form LP takes about 10 s there and hours past it (a limit .game with no maxRaises line,
255 raises a round, has 480,000); beyond, the model is uniform play (still unbiased)."""

REPLACING_EVENTS = NOT_ITS_OWN_ACTION
"""Dealer events (``HandRecord.events`` kinds) after which the seat's action was not its own choice."""

_EXACT_AGENT_CLASSES = (
    "showdown.agents.baseline.RandomAgent",
    "showdown.agents.baseline.CallAgent",
    "showdown.agents.bluff.BluffAgent",
    "showdown.agents.rules.RulesAgent",
    "showdown.agents.cfr.CFRAgent",
)
"""Agent classes whose ``act`` draws from exactly the table ``strategy_table`` lists (limit games).

Subclasses are not included: they may act differently. ``StrategyAgent`` and its subclasses
(equilibrium, never-bluff, exploiter) sample their ``strategy`` and are accepted too.
"""


class AivatError(ShowdownError):
    """A hand cannot be mapped onto the game's tree (the log is not of this game)."""


def supports(game: GameDef) -> str | None:
    """None when AIVAT can be computed for ``game``, else the reason why not (one line)."""
    if game.num_players != 2:
        return f"AIVAT needs a 2-player game ({game.name or 'this game'} has {game.num_players} players)"
    try:
        check_solvable(game)
    except SolverError as exc:
        return f"AIVAT needs a game the exact solvers hold: {str(exc).split('; use ')[0]}"
    return None


# ---------------------------------------------------------------------- which strategies are known


def strategy_unknown(name: str | None, game: GameDef, options: Mapping[str, Any] | None = None) -> str | None:
    """Why built-in agent ``name``'s strategy cannot be known in ``game``, decided without building
    the agent (from ``BUILTIN_AGENTS``' ``plays_table``); None when it may be (``known_strategy``
    tells, by building it)."""
    if name is None:
        return "an outside program: its strategy is unknown"
    from showdown.agents.registry import BUILTIN_AGENTS, IN_PROCESS

    if name == IN_PROCESS:
        return "it plays in this process (an Agent object, or a person in showdown play): its strategy is unknown"
    if game.is_nolimit:
        return "no-limit: raise sizes are not in a strategy table"
    opts = dict(options or {})
    if name == "cfr" and opts.get("seconds") is not None and opts.get("cache") is False:
        return "cfr trained for a time budget without cache: its strategy cannot be reproduced"
    builtin = BUILTIN_AGENTS.get(name)
    if builtin is not None and not builtin.plays_table:
        return f"agent {name!r} does not play a fixed strategy table"
    return None


def known_strategy(name: str | None, game: GameDef, options: Mapping[str, Any] | None = None) -> tuple[Strategy | None, str | None]:
    """The strategy built-in agent ``name`` really plays in ``game``, or (None, why not).

    Built, as the agent process builds it, from the same options (the seed only drives sampling), so
    equilibrium and CFR strategies come from the same disk cache the agents use. Outside programs
    (``name`` None) and agents that adapt or act otherwise than their table are unknown.
    """
    why = strategy_unknown(name, game, options)
    if why is not None:
        return None, why
    assert name is not None
    opts = dict(options or {})
    from showdown.agents.equilibrium import StrategyAgent
    from showdown.agents.registry import make_agent, user_class

    cls = user_class(name)
    if cls is not None and not issubclass(cls, StrategyAgent):  # a bot's own class: not built here, where its
        return None, f"agent {name!r} does not play a fixed strategy table"  # __init__ failed or hung the runner
    try:
        agent = make_agent(name, game, opts)
    except ShowdownError as exc:
        return None, f"cannot build it here ({exc})"
    except Exception as exc:  # noqa: BLE001 - a bot's own StrategyAgent: its __init__ is its code
        return None, f"cannot build it here ({type(exc).__name__}: {exc})"
    cls = type(agent)
    qualified = f"{cls.__module__}.{cls.__qualname__}"
    if not isinstance(agent, StrategyAgent) and qualified not in _EXACT_AGENT_CLASSES:
        return None, f"agent {name!r} does not play a fixed strategy table"
    try:
        table = agent.strategy_table(game)
        strategy = Strategy(game, table)
        if game.num_players > 2:
            from showdown.solvers.ntree import build_ntree
            from showdown.solvers.strategy import ntree_sigma

            ntree_sigma(build_ntree(game), strategy)  # complete for every position
        else:
            strategy_to_arrays(build_tree(game), strategy)  # complete for both positions
    except ShowdownError as exc:
        return None, f"its strategy table is not usable ({exc})"
    return strategy, None


def known_strategies(specs: Sequence[Any], game: GameDef, labels: Sequence[str] | None = None) -> tuple[list[Strategy | None], list[str]]:
    """``known_strategy`` for each ``AgentSpec`` (by seat) and a note per unknown seat, naming it by
    ``labels`` (the tables' seat names: ``rules-1`` for a ``rules.py`` seated with the built-in
    ``rules``), else by its own name."""
    out: list[Strategy | None] = []
    notes: list[str] = []
    for spec, label in zip(specs, labels if labels is not None else [spec.display for spec in specs], strict=True):
        strategy, why = known_strategy(spec.name, game, spec.options)
        out.append(strategy)
        if strategy is None:
            notes.append(f"{label}: {why}")
    return out, notes


# ---------------------------------------------------------------------- the estimator


@dataclass(frozen=True, slots=True)
class DealCodes:
    """Where hands sit in the tree: per hand the terminal node, the board index in the terminal's
    round and the private-hand index of each position; ``-1`` node for a hand that did not map."""

    node: np.ndarray
    board: np.ndarray
    hand0: np.ndarray
    hand1: np.ndarray


@dataclass
class AivatResult:
    """Per-hand AIVAT values of position 0 (position 1's are their negatives) and what was used."""

    values: np.ndarray
    known: tuple[bool, ...]  # by seat, after the consistency check
    notes: list[str] = field(default_factory=list)
    exact: bool = False  # every hand had every seat known: the values are the profile's exact value
    fit: dict[int, float] = field(default_factory=dict)  # per known seat: p-value of its action counts


def choose_known(
    declared: Sequence[bool],
    impossible: Callable[[tuple[bool, ...]], dict[int, int]],
    fit: Callable[[tuple[bool, ...]], dict[int, float]],
) -> tuple[tuple[bool, ...], list[str], dict[int, float]]:
    """Which seats' strategies are used: from ``declared``, drop each seat that played an action its
    strategy never plays (``impossible(known)``: seat -> hands) or whose action frequencies do not
    fit it (``fit(known)``: seat -> chi-square p-value), one pass at a time, until none is left to drop.
    Returns the seats kept, the notes saying why others were dropped, and the last fit p-values."""
    known = list(declared)
    notes: list[str] = []
    last_fit: dict[int, float] = {}
    for _ in range(len(known) + 1):  # each pass may drop an inconsistent seat
        bad_seats = impossible(tuple(known))
        if not bad_seats:
            last_fit = fit(tuple(known))
            bad_seats = {s: -1 for s, p in last_fit.items() if p < FIT_ALARM}
            if not bad_seats:
                break
        for s, count in bad_seats.items():
            known[s] = False
            if count >= 0:
                notes.append(
                    f"seat {s + 1} played an action its strategy never plays in {count} hand(s): "
                    "its strategy is not used"
                )
            else:
                notes.append(
                    f"seat {s + 1} chose its actions with other frequencies than its strategy "
                    f"(chi-square p = {last_fit[s]:.2g}): its strategy is not used"
                )
    return tuple(known), notes, last_fit


class AivatEstimator:
    """AIVAT for one 2-player game and one strategy (or None when unknown) per seat.

    ``model`` plays the unknown seats in the value function (default: the game's equilibrium when
    it can be had, else uniform play); any model keeps the estimate unbiased, a good one lowers
    the variance.
    """

    def __init__(self, game: GameDef, strategies: Sequence[Strategy | None] = (), *, model: Strategy | None = None) -> None:
        why = supports(game)
        if why is not None:
            raise SolverError(why)
        self.game = game
        self.tree: GameTree = build_tree(game)
        t = self.tree
        self.strategies: tuple[Strategy | None, ...] = ()
        self._arrays: list[Profile | None] = []
        self._model_arrays: Profile | None = None
        self._model = model
        self._hand_index = {tuple(sorted(int(c) for c in h)): i for i, h in enumerate(t.hands.tolist())}
        self._board_index: list[dict[tuple[tuple[int, ...], ...], int]] = []
        for r in range(game.num_rounds):
            index: dict[tuple[tuple[int, ...], ...], int] = {}
            for b, row in enumerate(t.boards[r].tolist()):
                groups = []
                start = 0
                for k in game.num_board_cards[: r + 1]:
                    groups.append(tuple(sorted(row[start : start + k])))
                    start += k
                index[tuple(groups)] = b
            self._board_index.append(index)
        self._terminal_of = {n.betting: n.index for n in t.nodes if n.kind is not NodeKind.DECISION}
        self._memo: dict[tuple[Any, ...], tuple[int, int, int, int]] = {}
        self._values: dict[tuple[int, ...], tuple[list[np.ndarray], list[np.ndarray | None], float]] = {}
        self._tables: dict[tuple[tuple[int, ...], int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.set_strategies(strategies)

    def set_strategies(self, strategies: Sequence[Strategy | None]) -> None:
        """The strategy of each seat (None: unknown); seats are the ``seats`` indices ``estimate`` gets."""
        self.strategies = tuple(strategies)
        self._arrays = [None if s is None else strategy_to_arrays(self.tree, s) for s in self.strategies]
        self._values.clear()
        self._tables.clear()

    # ------------------------------------------------------------------ mapping hands

    @property
    def known(self) -> tuple[bool, ...]:
        return tuple(a is not None for a in self._arrays)

    def encode(self, hole: Sequence[Sequence[Card]], board: Sequence[Sequence[Card]], betting: str) -> tuple[int, int, int, int]:
        """(terminal node, board index, hand of position 0, hand of position 1) of one finished hand."""
        memo_key = (tuple(map(tuple, hole)), tuple(map(tuple, board)), betting)
        got = self._memo.get(memo_key)
        if got is None:
            got = self._memo[memo_key] = self._encode(hole, board, betting)
        return got

    def _encode(self, hole: Sequence[Sequence[Card]], board: Sequence[Sequence[Card]], betting: str) -> tuple[int, int, int, int]:
        node = self._terminal_of.get(betting)
        if node is None:
            raise AivatError(f"betting {betting!r} is not a finished hand of {self.game.name or 'this game'}")
        r = self.tree.nodes[node].round
        h0 = h1 = 0
        try:
            h0 = self._hand_index[tuple(sorted(int(c) for c in hole[0]))]
            h1 = self._hand_index[tuple(sorted(int(c) for c in hole[1]))]
            groups = tuple(tuple(sorted(int(c) for c in g)) for g in board[: r + 1])
            if len(groups) < r + 1:
                raise KeyError(groups)
            b = self._board_index[r][groups]
        except (KeyError, IndexError):
            b = -1
        if b < 0 or not self.tree.valid[r][b, h0, h1]:
            raise AivatError(f"cards {hole!r} / {board!r} are not a deal of {self.game.name or 'this game'}")
        return node, b, h0, h1

    # ------------------------------------------------------------------ values

    def _model_profile(self) -> Profile:
        if self._model_arrays is None:
            model = self._model
            if model is None and len(self.tree.infoset_keys()) > MODEL_LP_INFOSETS:
                model = uniform_strategy(self.game)  # (the LP ran for hours after the match's last hand)
            if model is None:
                try:
                    from showdown.agents.equilibrium import equilibrium_strategy

                    model = equilibrium_strategy(self.game)
                except ShowdownError:
                    model = uniform_strategy(self.game)
            self._model_arrays = strategy_to_arrays(self.tree, model, missing="uniform")
        return self._model_arrays

    def _profile(self, players: tuple[int, int]) -> Profile:
        """Behavioural arrays with position p's decisions from ``players[p]`` (a seat, or -1 for the model)."""
        t = self.tree
        model = None
        out: Profile = []
        for d in range(t.num_decision_nodes):
            seat = players[t.decision(d).player]
            arrays = self._arrays[seat] if seat >= 0 else None
            if arrays is None:
                model = model if model is not None else self._model_profile()
                out.append(model[d])
            else:
                out.append(arrays[d])
        return out

    def _expect_board(self, values: np.ndarray, child: int) -> np.ndarray:
        """Expectation over the board cards dealt on the edge into ``child`` (per parent board and hands)."""
        t = self.tree
        f = t.expand[child]
        if f == 1:
            return values
        r = t.nodes[child].round
        valid = t.valid[r].astype(np.float64)
        shape = (values.shape[0] // f, f, *values.shape[1:])
        num = (values * valid).reshape(shape).sum(axis=1)
        den = valid.reshape(shape).sum(axis=1)
        out: np.ndarray = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        return out

    def _value_tables(self, players: tuple[int, int]) -> tuple[list[np.ndarray], list[np.ndarray | None], float]:
        """Per node: position 0's value per (board, hand 0, hand 1); per edge into a child: the value
        after the action and before any board card; and the expected value at the root."""
        cached = self._values.get(players)
        if cached is not None:
            return cached
        t = self.tree
        profile = self._profile(players)
        V: list[np.ndarray] = [np.zeros(0)] * len(t.nodes)
        W: list[np.ndarray | None] = [None] * len(t.nodes)  # indexed by child
        for n in reversed(t.nodes):
            r = n.round
            if n.kind is NodeKind.FOLD:
                V[n.index] = n.coef * t.valid[r].astype(np.float64)
                continue
            if n.kind is NodeKind.SHOWDOWN:
                m = t.showdown_matrix[r]
                assert m is not None
                V[n.index] = n.coef * m / t.chance_weight[r]
                continue
            probs = profile[n.decision_index]
            acc = np.zeros((t.num_boards[r], len(t.hands), len(t.hands)))
            for a, c in enumerate(n.children):
                w = self._expect_board(V[c], c)
                W[c] = w
                p = probs[:, :, None, a] if n.player == 0 else probs[:, None, :, a]
                acc = acc + p * w
            V[n.index] = acc
        valid0 = t.valid[0]
        root_value = float(V[0][valid0].mean())
        out = (V, W, root_value)
        self._values[players] = out
        return out

    def _table(self, players: tuple[int, int], node: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For one terminal: per deal, ``E[v(root)] + sum_unknown (v(h.a) - v(h)) - v(z)`` and, per
        position, whether a known player's action there had probability 0."""
        key = (players, node)
        cached = self._tables.get(key)
        if cached is not None:
            return cached
        t = self.tree
        V, W, root_value = self._value_tables(players)
        R = t.nodes[node].round
        B = t.num_boards[R]
        H = len(t.hands)

        def widen(x: np.ndarray) -> np.ndarray:
            return np.repeat(x, B // x.shape[0], axis=0) if x.shape[0] != B else x

        total = np.full((B, H, H), root_value) - V[node]
        impossible = [np.zeros((B, H, H), dtype=bool), np.zeros((B, H, H), dtype=bool)]
        child = node
        while t.nodes[child].parent >= 0:
            parent = t.nodes[t.nodes[child].parent]
            a = parent.children.index(child)
            p = parent.player
            w = W[child]
            assert w is not None
            if players[p] < 0:
                total += widen(w - V[parent.index])
            else:
                arrays = self._arrays[players[p]]
                assert arrays is not None
                prob = arrays[parent.decision_index][:, :, a]
                zero = (prob <= 0.0)[:, :, None] if p == 0 else (prob <= 0.0)[:, None, :]
                impossible[p] |= widen(np.broadcast_to(zero, w.shape))
            child = parent.index
        out = (total, impossible[0], impossible[1])
        self._tables[key] = out
        return out

    # ------------------------------------------------------------------ hands

    def estimate(
        self,
        codes: DealCodes,
        seats: np.ndarray,
        values0: np.ndarray,
        replaced: np.ndarray | None = None,
    ) -> AivatResult:
        """AIVAT values of position 0 for many hands.

        ``codes`` from ``encode``; ``seats`` ``(hands, 2)`` the seat at each position; ``values0``
        position 0's actual result; ``replaced`` ``(hands, 2)`` bool: the dealer replaced that
        position's action in that hand (the seat then counts as unknown there).
        """
        n = len(values0)
        seats = np.asarray(seats, dtype=np.int64).reshape(n, 2)
        values0 = np.asarray(values0, dtype=np.float64)
        if replaced is None:
            replaced = np.zeros((n, 2), dtype=bool)
        if (codes.node < 0).any():
            raise AivatError("some hands could not be mapped onto the game's tree")
        num_seats = max(len(self._arrays), int(seats.max()) + 1 if n else 0)
        known = [a is not None for a in self._arrays] + [False] * (num_seats - len(self._arrays))
        est = np.empty(0)

        def impossible(k: tuple[bool, ...]) -> dict[int, int]:
            nonlocal est
            est, bad = self._estimate_once(codes, seats, values0, replaced, list(k))
            return bad

        chosen, notes, fit = choose_known(
            known, impossible, lambda k: self.action_fit(codes, seats, replaced, k)
        )
        known_here = ~replaced & np.array(chosen, dtype=bool)[seats]
        exact = bool(n) and bool(known_here.all())
        return AivatResult(est, chosen, notes, exact, fit)

    def action_fit(self, codes: DealCodes, seats: np.ndarray, replaced: np.ndarray, known: Sequence[bool]) -> dict[int, float]:
        """Per known seat, the p-value of a chi-square test of its action counts against its strategy.

        Counts are per information set (decision, board, own hand) over the hands where the seat's
        strategy is used; cells whose smallest expected count is below 5 are left out. A small
        p-value means the seat does not play the strategy it is said to play.
        """
        return self.fit_counts(self.action_counts(codes, seats, replaced, known))

    def action_counts(
        self,
        codes: DealCodes,
        seats: np.ndarray,
        replaced: np.ndarray,
        known: Sequence[bool],
        counts: dict[tuple[int, int], np.ndarray] | None = None,
    ) -> dict[tuple[int, int], np.ndarray]:
        """The action counts ``action_fit`` tests, per (seat, decision) a grid (board, own hand,
        action), added into ``counts`` (bounded by the game's information sets, not the hands)."""
        t = self.tree
        use = np.array(known, dtype=bool)[seats] & ~replaced
        if counts is None:
            counts = {}
        nodes, inverse = np.unique(codes.node, return_inverse=True)
        for g, node in enumerate(nodes.tolist()):
            rows = np.nonzero(inverse == g)[0]
            B = t.num_boards[t.nodes[node].round]
            child = node
            while t.nodes[child].parent >= 0:
                parent = t.nodes[t.nodes[child].parent]
                a = parent.children.index(child)
                p = parent.player
                d = parent.decision_index
                here = rows[use[rows, p]]
                if len(here):
                    b = codes.board[here] // (B // t.num_boards[parent.round])
                    hand = (codes.hand0 if p == 0 else codes.hand1)[here]
                    for seat in np.unique(seats[here, p]).tolist():
                        mine = seats[here, p] == seat
                        grid = counts.get((seat, d))
                        if grid is None:
                            grid = counts[(seat, d)] = np.zeros((t.num_boards[parent.round], len(t.hands), len(parent.actions)))
                        np.add.at(grid, (b[mine], hand[mine], a), 1)
                child = parent.index
        return counts

    def fit_counts(self, counts: Mapping[tuple[int, int], np.ndarray], seats: Sequence[bool] | None = None) -> dict[int, float]:
        """``action_fit``'s p-values from ``action_counts`` (only the seats ``seats`` marks, if given)."""
        from scipy.special import chdtrc  # type: ignore[import-untyped]  # chi-square survival; scipy.stats loads 3x slower

        stat: dict[int, float] = {}
        dof: dict[int, int] = {}
        for (seat, d), grid in counts.items():
            if seats is not None and not (seat < len(seats) and seats[seat]):
                continue
            arrays = self._arrays[seat]
            assert arrays is not None
            probs = arrays[d]
            visits = grid.sum(axis=-1, keepdims=True)
            expected = visits * probs
            support = probs > 0
            k = support.sum(axis=-1)
            smallest = np.where(support, expected, np.inf).min(axis=-1)
            cells = (visits[..., 0] > 0) & (k >= 2) & (smallest >= 5)
            if not cells.any():
                continue
            e, o = expected[cells], grid[cells]
            sup = support[cells]
            stat[seat] = stat.get(seat, 0.0) + float((np.where(sup, (o - e) ** 2 / np.where(sup, e, 1.0), 0.0)).sum())
            dof[seat] = dof.get(seat, 0) + int((k[cells] - 1).sum())
        return {seat: float(chdtrc(dof[seat], stat[seat])) for seat in stat if dof[seat] > 0}

    def _estimate_once(
        self, codes: DealCodes, seats: np.ndarray, values0: np.ndarray, replaced: np.ndarray, known: list[bool]
    ) -> tuple[np.ndarray, dict[int, int]]:
        n = len(values0)
        known_arr = np.array(known, dtype=bool)
        use = known_arr[seats] & ~replaced  # (hands, 2): that position's strategy is used
        players = np.where(use, seats, -1)  # the seat whose strategy plays each position, -1 model
        num_nodes = len(self.tree.nodes)
        ns = len(known) + 1
        group = (((players[:, 0] + 1) * ns + (players[:, 1] + 1)) * num_nodes + codes.node).astype(np.int64)
        est = np.empty(n)
        bad: dict[int, int] = {}
        uniq, inverse = np.unique(group, return_inverse=True)
        for g, code in enumerate(uniq.tolist()):
            rows = np.nonzero(inverse == g)[0]
            rest, node = divmod(code, num_nodes)
            q0, q1 = divmod(rest, ns)
            pl = (q0 - 1, q1 - 1)
            total, imp0, imp1 = self._table(pl, node)
            b, i, j = codes.board[rows], codes.hand0[rows], codes.hand1[rows]
            if pl[0] >= 0 and pl[1] >= 0:
                # every step corrected: the estimate is the profile's value itself (kept free of rounding)
                est[rows] = self._value_tables(pl)[2]
            else:
                est[rows] = values0[rows] + total[b, i, j]
            for p, imp in ((0, imp0), (1, imp1)):
                if pl[p] >= 0:
                    count = int(imp[b, i, j].sum())
                    if count:
                        bad[pl[p]] = bad.get(pl[p], 0) + count
        return est, bad
