"""Exact equilibria of 2-player zero-sum games by the sequence-form linear program.

Koller, Megiddo & von Stengel (1994), "Fast algorithms for finding randomized strategies in game
trees": a realisation plan ``x`` of position 0 satisfies ``E x = e, x >= 0`` (one row per information
set: the sequence leading to it equals the sum of its continuations), likewise ``F y = f`` for
position 1, and ``x^T A y`` is position 0's expected payoff, chance included. The equilibrium is the
LP (in the seeds' form, solved by HiGHS through ``scipy.optimize.linprog``)::

    min_{y, p}  e^T p   subject to   A y - E^T p <= 0,   F y = f,   y >= 0,   p free

whose optimum ``p[0]`` is the game value for position 0 and whose inequality duals are position 0's
equilibrium plan ``x``. ``q``, the duals of ``F y = f``, are position 1's information-set values
(``f^T q`` is the value too).

A plain LP leaves information sets its equilibrium never reaches arbitrary. ``solve_sequence_lp``
therefore refines: among all optimal plans of each player it picks, by a second LP per player, one
that does best against a uniformly random opponent (so information sets the opponent's equilibrium
never reaches still get optimal-looking play, without losing optimality: the refined plans still
satisfy the optimality constraint), then gives the information sets a player's own plan never
reaches a best response to the opponent (``best_response.complete_unreached``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

import numpy as np
import scipy.sparse as sp  # type: ignore[import-untyped]
from scipy.optimize import linprog  # type: ignore[import-untyped]

from showdown.errors import SolverError
from showdown.games.catalog import as_game, get_game
from showdown.games.gamedef import GameDef
from showdown.solvers.best_response import complete_unreached
from showdown.solvers.sequence_payoff import FactoredPayoff, factored_payoff, payoff_nonzeros, payoff_product
from showdown.solvers.strategy import Profile, Strategy, arrays_to_strategy
from showdown.solvers.tree import GameTree, NodeKind, build_tree

REACH_TOLERANCE = 1e-9
"""A realisation weight at or below this counts as "never reached"."""

OPTIMALITY_SLACKS = (0.0, 1e-9, 1e-7)
"""How far from the game value the refinement LPs may go: tried in turn while HiGHS finds the
exact-value constraint infeasible (or meets numerical trouble at its edge) through the main LP's rounding."""

_HIGHS_OPTIONS: dict[str, object] = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
_FACTORED_OPTIONS = {**_HIGHS_OPTIONS, "simplex_dual_edge_weight_strategy": "devex"}
"""Devex pricing on the factored LPs: kuhn-1000's three LPs in 1.8 s instead of 5 s (HiGHS's default
pricing also meets numerical trouble there and needs the next optimality slack); the plain LPs keep
the default, faster on Leduc (0.19 s against 0.27 s)."""


PayoffForm = Literal["auto", "plain", "factored"]
"""How the LPs hold the payoff: ``plain`` (``A`` itself), ``factored`` (``sequence_payoff``'s running
sums, O(hands) nonzeros per terminal instead of O(hands^2)) or ``auto`` (factored where that has fewer than half the nonzeros: N-card Kuhn from N = 10, not
Leduc, where both have about 4,800 and the plain LP solves faster)."""


class SequenceForm:
    """``E x = e``, ``F y = f`` and the payoff ``A`` (position 0's, chance-weighted) as sparse matrices.

    ``A`` is built on first use only: the LPs of a large deck use its factored form instead.
    """

    def __init__(self, tree: GameTree, E: sp.csr_matrix, e: np.ndarray, F: sp.csr_matrix, f: np.ndarray) -> None:
        self.tree, self.E, self.e, self.F, self.f = tree, E, e, F, f

    @cached_property
    def A(self) -> sp.csr_matrix:
        return _payoff(self.tree)

    @cached_property
    def plain_nonzeros(self) -> int:
        return payoff_nonzeros(self.tree)

    def factored(self, rows_player: int) -> FactoredPayoff:
        """``A`` (rows of position 0) or ``A^T`` (rows of position 1) as running sums, built once."""
        return self._factored[rows_player]

    @cached_property
    def _factored(self) -> tuple[FactoredPayoff, FactoredPayoff]:
        return factored_payoff(self.tree, 0), factored_payoff(self.tree, 1)


def _constraints(tree: GameTree, player: int) -> tuple[sp.csr_matrix, np.ndarray]:
    seqs = tree.sequences[player]
    n_inf, n_seq = seqs.num_infosets, seqs.num_sequences
    k = seqs.num_actions
    row_of_seq = np.repeat(np.arange(1, n_inf + 1), k)
    offset = np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)
    col_of_seq = np.repeat(seqs.first_seq, k) + offset
    rows = np.concatenate([[0], np.arange(1, n_inf + 1), row_of_seq])
    cols = np.concatenate([[0], seqs.parent_seq, col_of_seq])
    vals = np.concatenate([[1.0], -np.ones(n_inf), np.ones(len(row_of_seq))])
    m = sp.csr_matrix((vals, (rows, cols)), shape=(n_inf + 1, n_seq))
    rhs = np.zeros(n_inf + 1)
    rhs[0] = 1.0
    return m, rhs


def _payoff(tree: GameTree) -> sp.csr_matrix:
    rows, cols, vals = [], [], []
    for n in tree.nodes:
        if n.kind is NodeKind.DECISION:
            continue
        m = tree.terminal_matrix(n)
        b, i, j = np.nonzero(m)
        last0, last1 = tree.terminal_last_seq[n.index]
        rows.append(last0[b, i])
        cols.append(last1[b, j])
        vals.append(m[b, i, j])
    shape = (tree.sequences[0].num_sequences, tree.sequences[1].num_sequences)
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=shape)


@cache
def sequence_form(game: GameDef) -> SequenceForm:
    """The sequence form of ``game`` (cached per game)."""
    tree = build_tree(game)
    E, e = _constraints(tree, 0)
    F, f = _constraints(tree, 1)
    return SequenceForm(tree, E, e, F, f)


# ---------------------------------------------------------------------- plans <-> behaviour


def _player_cells(tree: GameTree, player: int) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray, int]]:
    """The player's decision nodes in infoset order: (node, boards, hands, infoset ids, actions)."""
    start = 0
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        if node.player != player:
            continue
        bs, hs = tree.cells[d]
        ids = np.arange(start, start + len(bs))
        start += len(bs)
        yield d, bs, hs, ids, len(node.actions)


def realization_plan(tree: GameTree, player: int, profile: Profile) -> np.ndarray:
    """The player's realisation plan (probability of each of its sequences) from behavioural arrays."""
    seqs = tree.sequences[player]
    plan = np.zeros(seqs.num_sequences)
    plan[0] = 1.0
    for d, bs, hs, ids, k in _player_cells(tree, player):
        parent = plan[seqs.parent_seq[ids]]
        plan[seqs.first_seq[ids][:, None] + np.arange(k)] = parent[:, None] * profile[d][bs, hs]
    return plan


def behavioural_strategy(tree: GameTree, player: int, plan: np.ndarray) -> tuple[Profile, list[np.ndarray]]:
    """Behavioural arrays of a realisation plan, and the cells the plan never reaches.

    Probabilities are ``plan[sequence] / plan[parent sequence]`` at the player's nodes (others'
    nodes are uniform). Where the parent weight is at most ``REACH_TOLERANCE`` the behaviour is
    undefined: such cells are left uniform and flagged ``True`` in the returned masks.
    """
    seqs = tree.sequences[player]
    profile = _uniform_profile(tree)
    undefined = [np.zeros(a.shape[:2], dtype=bool) for a in profile]
    for d, bs, hs, ids, k in _player_cells(tree, player):
        parent = plan[seqs.parent_seq[ids]]
        vals = np.clip(plan[seqs.first_seq[ids][:, None] + np.arange(k)], 0.0, None)
        reached = (parent > REACH_TOLERANCE) & (vals.sum(axis=1) > 0)
        probs = np.full((len(ids), k), 1.0 / k)
        probs[reached] = vals[reached] / vals[reached].sum(axis=1, keepdims=True)
        probs[probs < 1e-12] = 0.0  # LP round-off, not play
        probs /= probs.sum(axis=1, keepdims=True)
        profile[d][bs, hs] = probs
        undefined[d][bs[~reached], hs[~reached]] = True
    return profile, undefined


def _uniform_profile(tree: GameTree) -> Profile:
    out: Profile = []
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        k = len(node.actions)
        out.append(np.full((tree.num_boards[node.round], len(tree.hands), k), 1.0 / k))
    return out


# ---------------------------------------------------------------------- the LP


@dataclass(frozen=True, slots=True)
class SequenceLPSolution:
    """Result of ``solve_sequence_lp``.

    ``value`` is the game value for position 0 (chips per hand); ``x``/``y`` the realisation plans
    returned (refined unless ``refine=False``); ``p`` the main LP's variables (position 0's
    information-set values, ``p[0]`` = value) and ``q`` the duals of ``F y = f``; ``strategy`` the
    complete behavioural profile (every information set has an action), ``arrays`` the same as arrays.
    """

    game: GameDef
    value: float
    x: np.ndarray
    y: np.ndarray
    p: np.ndarray
    q: np.ndarray
    arrays: Profile
    strategy: Strategy


def _check(res: object, what: str) -> None:
    if getattr(res, "status", 1) != 0:
        raise SolverError(f"sequence-form LP ({what}) failed: {getattr(res, 'message', '?')}")


@dataclass(frozen=True, slots=True)
class _Program:
    """The constraints shared by the main LP and the refinements, with player ``q``'s plan as variables.

    Variables ``[z, w, P]``: ``z`` player q's realisation plan, ``w`` the other player's information-set
    values, ``P`` the factored payoff's running sums (none in the plain form). Rows: ``s A_q z - s
    O^T w <= 0`` (one per sequence of the other player; ``A_q = A`` and ``s = 1`` for q = 1, ``A^T``
    and -1 for q = 0; ``O`` the other player's constraint matrix), ``Q z = rhs`` (q's own), and the
    running sums' definitions.
    """

    a_ub: sp.csr_matrix
    a_eq: sp.csr_matrix
    b_eq: np.ndarray
    bounds: np.ndarray
    n_z: int
    n_w: int
    n_aux: int
    options: dict[str, object]

    def padded(self, z: np.ndarray, w: np.ndarray) -> np.ndarray:
        """A cost or constraint row over all variables from its ``z`` and ``w`` parts."""
        return np.concatenate([z, w, np.zeros(self.n_aux)])


def _uses_factored(sf: SequenceForm, rows_player: int, form: PayoffForm) -> bool:
    if form not in ("auto", "plain", "factored"):
        raise SolverError(f"unknown payoff form {form!r}: use 'auto', 'plain' or 'factored'")
    return form == "factored" or (form == "auto" and 2 * sf.factored(rows_player).nnz < sf.plain_nonzeros)


def _program(sf: SequenceForm, q: int, form: PayoffForm) -> _Program:
    own, rhs, other = (sf.F, sf.f, sf.E) if q == 1 else (sf.E, sf.e, sf.F)
    s = 1.0 if q == 1 else -1.0
    n_z, n_w = own.shape[1], other.shape[0]
    factored = _uses_factored(sf, 1 - q, form)
    if factored:
        fp = sf.factored(1 - q)
        direct, aux, define = fp.direct, fp.aux, fp.define
    else:
        direct = sf.A if q == 1 else sf.A.T.tocsr()
        aux, define = sp.csr_matrix((direct.shape[0], 0)), sp.csr_matrix((0, n_z))
    n_aux = aux.shape[1]
    a_ub = sp.hstack([s * direct, -s * other.T, s * aux], format="csr")
    a_eq = sp.vstack(
        [
            sp.hstack([own, sp.csr_matrix((own.shape[0], n_w + n_aux))]),
            sp.hstack([define[:, :n_z], sp.csr_matrix((n_aux, n_w)), define[:, n_z:]]),
        ],
        format="csr",
    )
    bounds = np.empty((n_z + n_w + n_aux, 2))
    bounds[:n_z] = (0.0, np.inf)
    bounds[n_z:] = (-np.inf, np.inf)
    options = _FACTORED_OPTIONS if factored else _HIGHS_OPTIONS
    return _Program(a_ub, a_eq, np.concatenate([rhs, np.zeros(n_aux)]), bounds, n_z, n_w, n_aux, options)


def _solve_main(sf: SequenceForm, form: PayoffForm = "auto") -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    lp = _program(sf, 1, form)
    c = lp.padded(np.zeros(lp.n_z), sf.e)
    res = linprog(c, A_ub=lp.a_ub, b_ub=np.zeros(lp.a_ub.shape[0]), A_eq=lp.a_eq, b_eq=lp.b_eq, bounds=lp.bounds,
                  method="highs", options=lp.options)
    _check(res, "equilibrium")
    y = res.x[: lp.n_z]
    p = res.x[lp.n_z : lp.n_z + lp.n_w]
    x = -res.ineqlin.marginals
    q = res.eqlin.marginals[: sf.F.shape[0]]
    return float(res.fun), x, y, p, q


def _refine(sf: SequenceForm, q: int, value: float, against: np.ndarray, form: PayoffForm) -> np.ndarray:
    """Among player q's optimal plans, the one best against the other player's plan ``against``.

    The main program plus one row keeping the value: for q = 1, ``e^T p <= value``; for q = 0,
    ``f^T w >= value``; each relaxed by ``OPTIMALITY_SLACKS`` in turn while HiGHS finds it infeasible.
    """
    lp = _program(sf, q, form)
    if q == 1:  # minimise position 0's payoff against ``against`` (position 0's plan)
        c = lp.padded(payoff_product(sf.tree, against, 1), np.zeros(lp.n_w))
        keep, sign = lp.padded(np.zeros(lp.n_z), sf.e), 1.0
    else:  # maximise it against position 1's plan
        c = lp.padded(-payoff_product(sf.tree, against, 0), np.zeros(lp.n_w))
        keep, sign = lp.padded(np.zeros(lp.n_z), -sf.f), -1.0
    a_ub = sp.vstack([lp.a_ub, sp.csr_matrix(keep.reshape(1, -1))], format="csr")
    b_ub = np.zeros(a_ub.shape[0])
    for slack in OPTIMALITY_SLACKS:
        b_ub[-1] = sign * value + slack
        res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=lp.a_eq, b_eq=lp.b_eq, bounds=lp.bounds, method="highs",
                      options=lp.options)
        if res.status not in (2, 4):  # infeasible, or numerical trouble on the edge of feasibility
            break
    _check(res, f"refinement of position {q}")
    return np.asarray(res.x[: lp.n_z])


def _plans(sf: SequenceForm, refine: bool, form: PayoffForm) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The main LP's value, plans and duals; the plans refined (``_refine``) if asked."""
    value, x, y, p, q = _solve_main(sf, form)
    if refine:
        uniform = _uniform_profile(sf.tree)
        x = _refine(sf, 0, value, realization_plan(sf.tree, 1, uniform), form)
        y = _refine(sf, 1, value, realization_plan(sf.tree, 0, uniform), form)
    return value, x, y, p, q


def solve_sequence_lp(game: GameDef | str, *, refine: bool = True, form: PayoffForm = "auto") -> SequenceLPSolution:
    """Solve a 2-player zero-sum game exactly; returns the value, plans, duals and a complete profile.

    ``form`` is how the LPs hold the payoff (``PayoffForm``): every form has the same optimum. Should
    HiGHS fail on the factored LPs that ``auto`` chose, the plain ones are solved instead.
    """
    game = as_game(game, "solve_sequence_lp")
    sf = sequence_form(game)
    tree = sf.tree
    try:
        value, x, y, p, q = _plans(sf, refine, form)
    except SolverError:
        if form != "auto" or not (_uses_factored(sf, 0, form) or _uses_factored(sf, 1, form)):
            raise
        value, x, y, p, q = _plans(sf, refine, "plain")  # HiGHS in trouble on the running sums: slower, same optimum
    arrays0, undefined0 = behavioural_strategy(tree, 0, x)
    arrays1, undefined1 = behavioural_strategy(tree, 1, y)
    mine = [tree.decision(d).player == 0 for d in range(tree.num_decision_nodes)]
    arrays = [a0 if m else a1 for a0, a1, m in zip(arrays0, arrays1, mine)]
    undefined = [u0 if m else u1 for u0, u1, m in zip(undefined0, undefined1, mine)]
    arrays = complete_unreached(tree, arrays, undefined)
    return SequenceLPSolution(game, value, x, y, p, q, arrays, arrays_to_strategy(tree, arrays))


def game_value(game: GameDef | str, form: PayoffForm = "auto") -> float:
    """The game value for position 0 (main LP only, no refinement)."""
    game = as_game(game, "game_value")
    return _solve_main(sequence_form(game), form)[0]


# ---------------------------------------------------------------------- Kuhn in the seeds' labels

KUHN_P0_SEQUENCES = ("0", "A_b", "A_p", "A_pb", "A_pp", "K_b", "K_p", "K_pb", "K_pp", "Q_b", "Q_p", "Q_pb", "Q_pp")
KUHN_P1_SEQUENCES = (
    "0", "A_b(ab)", "A_p(ab)", "A_b(ap)", "A_p(ap)", "K_b(ab)", "K_p(ab)",
    "K_b(ap)", "K_p(ap)", "Q_b(ab)", "Q_p(ab)", "Q_b(ap)", "Q_p(ap)",
)  # fmt: skip
KUHN_P0_INFOSETS = ("0", "A", "Ap", "K", "Kp", "Q", "Qp")
KUHN_P1_INFOSETS = ("0", "Ab", "Ap", "Kb", "Kp", "Qb", "Qp")


@dataclass(frozen=True, slots=True)
class LabelledSequenceForm:
    """Dense ``E, e, F, f, A`` with the seeds' row and column labels."""

    E: np.ndarray
    e: np.ndarray
    F: np.ndarray
    f: np.ndarray
    A: np.ndarray
    p0_sequences: tuple[str, ...]
    p1_sequences: tuple[str, ...]
    p0_infosets: tuple[str, ...]
    p1_infosets: tuple[str, ...]


def _bet_pass(betting: str) -> list[str]:
    """Each action as the seeds' shorthand: ``b`` puts a chip in (bet or call), ``p`` does not."""
    out = []
    for i, a in enumerate(betting):
        out.append("b" if a == "r" or (a == "c" and i > 0 and betting[i - 1] == "r") else "p")
    return out


def kuhn_seed_sequence_form() -> LabelledSequenceForm:
    """Kuhn's sequence form in the seeds' labels and order (sequences ``0, A_b, A_p, A_pb, ...``).

    Cards are written A, K, Q as in the seeds; ``A`` is divided by 6 (the chance probability of each deal).
    """
    sf = sequence_form(get_game("kuhn"))
    tree = sf.tree
    labels: list[list[str]] = [[""] * tree.sequences[p].num_sequences for p in (0, 1)]
    inf_labels: list[list[str]] = [[], []]
    for p in (0, 1):
        seqs = tree.sequences[p]
        labels[p][0] = "0"
        for i in range(seqs.num_infosets):
            node = tree.nodes[int(seqs.node[i])]
            card = tree.hand_text[int(seqs.hand[i])][0]
            history = _bet_pass(node.betting)
            inf_labels[p].append(card + ("".join(history[0::2]) if p == 0 else history[0]))
            for a, action in enumerate(node.actions):
                moves = _bet_pass(node.betting + action)
                if p == 0:
                    label = f"{card}_{''.join(moves[0::2])}"
                else:
                    label = f"{card}_{moves[1]}(a{moves[0]})"
                labels[p][int(seqs.first_seq[i]) + a] = label
    perm0 = [labels[0].index(s) for s in KUHN_P0_SEQUENCES]
    perm1 = [labels[1].index(s) for s in KUHN_P1_SEQUENCES]
    rows0 = [0] + [1 + inf_labels[0].index(s) for s in KUHN_P0_INFOSETS[1:]]
    rows1 = [0] + [1 + inf_labels[1].index(s) for s in KUHN_P1_INFOSETS[1:]]
    return LabelledSequenceForm(
        sf.E.toarray()[np.ix_(rows0, perm0)],
        sf.e[rows0],
        sf.F.toarray()[np.ix_(rows1, perm1)],
        sf.f[rows1],
        sf.A.toarray()[np.ix_(perm0, perm1)],
        KUHN_P0_SEQUENCES,
        KUHN_P1_SEQUENCES,
        KUHN_P0_INFOSETS,
        KUHN_P1_INFOSETS,
    )


__all__ = [
    "KUHN_P0_INFOSETS",
    "KUHN_P0_SEQUENCES",
    "KUHN_P1_INFOSETS",
    "KUHN_P1_SEQUENCES",
    "LabelledSequenceForm",
    "PayoffForm",
    "SequenceForm",
    "SequenceLPSolution",
    "behavioural_strategy",
    "game_value",
    "kuhn_seed_sequence_form",
    "realization_plan",
    "sequence_form",
    "solve_sequence_lp",
]
