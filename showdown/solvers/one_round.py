"""Near-optimal one-round hold'em by linear programming, on the exact class-vs-class equity table.

The game (Irving, "Near optimal holdem play with one round of betting"): Alice posts the small blind
``sb``, Bob the big blind ``bb``; stacks are infinite. Alice folds (losing ``sb``) or picks ``b`` from a
bet grid: ``b = 0`` completes the big blind (a limp), ``b >= bb`` raises by ``b`` to a total of
``bb + b``. Bob sees ``b`` and calls or folds. A fold by Bob gives Alice ``bb``; a call goes to a
showdown over five board cards for ``bb + b`` each. Strategies are per preflop class (169), which
loses nothing: averaging an equilibrium over suit permutations gives one constant on each class.
``P[a, k]`` is the exact probability that Alice holds class ``a`` and Bob class ``k`` (card removal
counted) and ``E[a, k] = P(win) - P(loss)`` of ``a`` against ``k``.

With ``x[a, b]`` Alice's probabilities and ``y[k, b]`` Bob's calling probabilities, Alice gets
``sum_a p_a (-sb x[a, fold] + bb sum_b x[a, b]) + sum_{b,k} y[k, b] sum_a G_b[a, k] x[a, b]`` with
``G_b = P * ((bb + b) E - bb)``. Bob's best response to a fixed ``x`` splits into one tiny LP per
``(k, b)``: call iff ``sum_a G_b[a, k] x[a, b] < 0``. Dualising it (the post's trick) gives Alice's
program::

    max  sum_a p_a (-sb x[a, f] + bb sum_b x[a, b]) + sum_{k,b} z[k, b]
    s.t. z[k, b] <= sum_a G_b[a, k] x[a, b],   z <= 0,   sum_j x[a, j] = 1,   x >= 0

whose LP dual is Bob's program, with Alice's best response per class as ``mu[a]``::

    min  sum_a mu[a]
    s.t. mu[a] >= -sb p_a,   mu[a] >= bb p_a + sum_k G_b[a, k] y[k, b]   (every b),   0 <= y <= 1

One solve gives both strategies (one as primal values, the other as duals). Both forms are built as CSR
arrays (``one_round_programs``) and handed to HiGHS in one call (``highs_lp``); HiGHS's dual simplex
on Bob's form is the default because it is several times faster than every other combination on this
problem (see ``benchmarks/bench_one_round.py``).

By default the grid is not one program: at equilibrium Alice uses few sizes (17 of the post's 40,
none above 22 of 80), so programs over a subset of the bets are solved and a left-out bet joins only
when Bob cannot make it unprofitable for every hand of Alice (column and row generation over bet
sizes, ``_generate_bets``; the check per bet is ``showdown.solvers.bet_pricing``). The answer is an
equilibrium of the whole grid, certified on the whole grid as below.

The answer is checked with both best responses, computed exactly in numpy: Alice's guaranteed value
(her strategy against Bob's best reply) and Bob's (his strategy against Alice's best reply); the gap
between them is the certificate, and is below 1e-12 in practice (1e-15 to 6e-13 on the default grid).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from showdown.errors import SolverError
from showdown.solvers.equity import EquityTable, equity_table
from showdown.solvers.hand_classes import CLASS_NAMES, NUM_CLASSES

if TYPE_CHECKING:
    from showdown.solvers.highs_lp import LpAnswer

__all__ = [
    "DEFAULT_BETS",
    "DEFAULT_BETS_SPEC",
    "MAX_BETS",
    "BetSpecError",
    "OneRoundGame",
    "OneRoundSolution",
    "best_response_values",
    "format_bet",
    "parse_bets",
    "solve_one_round",
]

DEFAULT_BETS_SPEC = "0,2:40"
DEFAULT_BETS: tuple[float, ...] = (0.0, *map(float, range(2, 41)))
"""The post's grid: a limp and every integer raise from 2 to 40."""

MAX_BETS = 400
"""Largest bet grid accepted: the program has 169^2 nonzeros per bet (400 bets: 11M, about 1 GB)."""

Method = Literal["highs-ds", "highs-ipm", "highs"]
Form = Literal["bob", "alice"]
GENERATION_MIN_BETS = 32
"""By default, grids of at most this many bets are solved as one program: Alice's support is then a
large part of the grid and generation did not pay where measured (29 and 30 bets: 1.1-1.5x the CPU)."""
GENERATION_FIRST_BETS = 8
"""The first restricted program takes about this many evenly spaced bets (plus the largest)."""
FEASIBILITY_TOLERANCE = 1e-10
"""HiGHS primal and dual feasibility tolerances: tight enough for a best-response gap below 1e-12."""


class BetSpecError(SolverError):
    """A bet grid specification (``--bets``) or blind is not valid."""


# ---------------------------------------------------------------------------------------------
# the game


def format_bet(bet: float) -> str:
    """``2.0`` -> ``"2"``, ``2.5`` -> ``"2.5"``: bet sizes as the post writes them (after a ``b``)."""
    return f"{bet:g}"


def parse_bets(spec: str, *, bb: float = 2.0) -> tuple[float, ...]:
    """Parse a bet grid like ``"0,2:40"`` (ranges ``A:B`` or ``A:B:STEP``, inclusive) into sorted sizes.

    ``0`` is the limp; any other size must be at least the big blind ``bb`` (a raise is at least a
    big blind). Overlapping items are merged. Raises ``BetSpecError`` with the offending item.
    """
    number = r"\s*(\d+(?:\.\d*)?|\.\d+)\s*"
    bets: set[float] = set()
    items = spec.split(",")
    if not spec.strip():
        raise BetSpecError("empty bet grid: give sizes like '0,2:40' (0 is the limp, A:B an inclusive range)")
    for item in items:
        single = re.fullmatch(number, item)
        ranged = re.fullmatch(f"{number}:{number}(?::{number})?", item)
        if single:
            bets.add(float(single.group(1)))
        elif ranged:
            low, high = float(ranged.group(1)), float(ranged.group(2))
            step = float(ranged.group(3)) if ranged.group(3) else 1.0
            if step <= 0:
                raise BetSpecError(f"bet range {item.strip()!r}: the step must be positive")
            if high < low:
                raise BetSpecError(f"bet range {item.strip()!r}: the end is below the start")
            count = math.floor((high - low) / step + 1e-9) + 1
            if count > MAX_BETS:
                raise BetSpecError(f"bet range {item.strip()!r} has {count} sizes; at most {MAX_BETS} are allowed")
            bets.update(round(low + i * step, 9) for i in range(count))
        else:
            raise BetSpecError(
                f"bad bet grid item {item.strip()!r} in {spec!r}: use numbers and inclusive ranges "
                "like '0,2:40' or '0,2:20:0.5'"
            )
    return _checked_bets(sorted(bets), bb)


def _checked_bets(bets: Sequence[float], bb: float) -> tuple[float, ...]:
    out = tuple(float(b) for b in bets)
    if not out:
        raise BetSpecError("the bet grid is empty")
    if len(out) > MAX_BETS:
        raise BetSpecError(f"the bet grid has {len(out)} sizes; at most {MAX_BETS} are allowed")
    if len(set(out)) != len(out):
        raise BetSpecError("the bet grid repeats a size")
    for bet in out:
        if not math.isfinite(bet) or bet < 0 or 0 < bet < bb:
            raise BetSpecError(
                f"bet {format_bet(bet)} is not allowed: 0 is the limp, a raise is at least the big blind "
                f"({format_bet(bb)})"
            )
    return out


@dataclass(frozen=True)
class OneRoundGame:
    """Blinds and Alice's bet grid (0 = limp, else the raise over the big blind)."""

    bets: tuple[float, ...] = DEFAULT_BETS
    sb: float = 1.0
    bb: float = 2.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.sb) and math.isfinite(self.bb) and 0 < self.sb <= self.bb):
            raise BetSpecError(f"blinds must satisfy 0 < sb <= bb, got sb={self.sb:g} bb={self.bb:g}")
        object.__setattr__(self, "bets", _checked_bets(sorted(self.bets), self.bb))

    @property
    def actions(self) -> tuple[str, ...]:
        """Alice's action labels as in the post: ``"f"`` then ``"b<size>"`` per bet."""
        return ("f", *(f"b{format_bet(b)}" for b in self.bets))


@dataclass(frozen=True)
class _Matrices:
    """What both programs and both best responses need: p, and G_b[a, k] for every bet."""

    p: np.ndarray  # (169,) class probabilities
    G: np.ndarray  # (m, 169, 169): G[b, a, k] = P[a, k] ((bb + b) E[a, k] - bb)
    P: np.ndarray  # (169, 169): P[a, k], the probability of the deal
    Q: np.ndarray  # (169, 169): P[a, k] E[a, k]


def _matrices(game: OneRoundGame, table: EquityTable) -> _Matrices:
    P = table.probabilities()
    Q = P * table.net_equity()
    bets = np.asarray(game.bets)
    G = (game.bb + bets)[:, None, None] * Q[None] - game.bb * P[None]
    return _Matrices(p=P.sum(axis=1), G=G, P=P, Q=Q)


# ---------------------------------------------------------------------------------------------
# best responses


def best_response_values(
    game: OneRoundGame, alice: np.ndarray, bob: np.ndarray, table: EquityTable | None = None
) -> tuple[float, float]:
    """``(Alice's guaranteed value, Bob's guaranteed value)`` of a strategy pair, both exact.

    ``alice`` is ``(169, 1 + len(bets))`` (fold first) with rows summing to 1; ``bob`` is
    ``(169, len(bets))`` calling probabilities. The first number is Alice's strategy against Bob's
    best response to it (a lower bound on the game value), the second Bob's strategy against Alice's
    best response (an upper bound); both are Alice's chips per hand.
    """
    m = len(game.bets)
    alice, bob = np.asarray(alice, dtype=np.float64), np.asarray(bob, dtype=np.float64)
    if alice.shape != (NUM_CLASSES, m + 1) or bob.shape != (NUM_CLASSES, m):
        raise SolverError(
            f"strategies for {m} bets must be ({NUM_CLASSES}, {m + 1}) for Alice and ({NUM_CLASSES}, {m}) for Bob, "
            f"got {alice.shape} and {bob.shape}"
        )
    mats = _matrices(game, table or equity_table())
    return _alice_guarantee(game, mats, alice), float(_alice_best_values(game, mats, bob).max(axis=1).sum())


def _alice_guarantee(game: OneRoundGame, mats: _Matrices, alice: np.ndarray) -> float:
    base = float(mats.p @ (-game.sb * alice[:, 0] + game.bb * alice[:, 1:].sum(axis=1)))
    # Bob's reply per (bet, class): call exactly when calling lowers Alice's payoff
    reply = np.einsum("bak,ab->bk", mats.G, alice[:, 1:])
    return base + float(np.minimum(reply, 0.0).sum())


def _alice_best_values(game: OneRoundGame, mats: _Matrices, bob: np.ndarray) -> np.ndarray:
    """``[a, j]``: Alice's payoff (weighted by P(class a)) of action ``j`` against Bob's strategy."""
    out = np.empty((NUM_CLASSES, len(game.bets) + 1))
    out[:, 0] = -game.sb * mats.p
    out[:, 1:] = game.bb * mats.p[:, None] + np.einsum("bak,kb->ab", mats.G, bob)
    return out


# ---------------------------------------------------------------------------------------------
# the linear programs


def _strategies(game: OneRoundGame, form: Form, answer: LpAnswer) -> tuple[np.ndarray, np.ndarray]:
    """Alice's ``(169, 1 + m)`` and Bob's ``(169, m)`` strategies from a solved program."""
    n, m = NUM_CLASSES, len(game.bets)
    if form == "bob":
        bob = answer.x[n:].reshape(m, n).T
        bets = -answer.ineq_duals.reshape(m, n).T  # duals of the (b, a) rows
        alice = np.hstack([1.0 - bets.sum(axis=1, keepdims=True), bets])
    else:
        alice = answer.x[: n * (m + 1)].reshape(n, m + 1)
        bob = -answer.ineq_duals.reshape(m, n).T
    alice = np.clip(alice, 0.0, None)
    alice /= alice.sum(axis=1, keepdims=True)
    return alice, np.clip(bob, 0.0, 1.0)


# ---------------------------------------------------------------------------------------------
# the solution


@dataclass(frozen=True)
class OneRoundSolution:
    """Both strategies, the certified value range, and timings.

    ``alice[a, j]``: probability that Alice with class ``a`` takes action ``j`` (0 = fold, then the
    bets in grid order). ``bob[k, i]``: probability that Bob with class ``k`` calls bet ``i``.
    ``value`` is what Alice's strategy guarantees (against Bob's best response), ``value_upper``
    what Bob's strategy holds her to (against her best response); ``gap`` is their difference.
    ``class_values[a]`` is Alice's expected result holding ``a`` (the post's per-hand "equity").
    ``iterations`` counts HiGHS's simplex iterations over every program solved.
    """

    game: OneRoundGame
    alice: np.ndarray
    bob: np.ndarray
    value: float
    value_upper: float
    class_values: np.ndarray
    class_probabilities: np.ndarray
    method: str
    form: str
    build_seconds: float
    solve_seconds: float
    check_seconds: float
    iterations: int = field(default=0)

    @property
    def gap(self) -> float:
        """Bob's guarantee minus Alice's: 0 exactly at an equilibrium."""
        return self.value_upper - self.value

    @property
    def seconds(self) -> float:
        """Wall time to build, solve and check the program (the table load excluded)."""
        return self.build_seconds + self.solve_seconds + self.check_seconds

    def action_frequencies(self) -> np.ndarray:
        """Probability of each of Alice's actions over a random deal (fold first)."""
        return np.asarray(self.class_probabilities @ self.alice)

    @property
    def fold(self) -> float:
        return float(self.action_frequencies()[0])

    @property
    def limp(self) -> float:
        """Probability of the limp (bet 0), 0 when the grid has no limp."""
        if 0.0 not in self.game.bets:
            return 0.0
        return float(self.action_frequencies()[1 + self.game.bets.index(0.0)])

    @property
    def raise_(self) -> float:
        """Probability of a raise (any bet other than 0)."""
        return max(0.0, 1.0 - self.fold - self.limp)

    def summary(self) -> dict[str, Any]:
        """The headline numbers (JSON-ready)."""
        return {
            "value": self.value,
            "value_upper": self.value_upper,
            "gap": self.gap,
            "seconds": self.seconds,
            "fold": self.fold,
            "limp": self.limp,
            "raise": self.raise_,
            "method": self.method,
            "form": self.form,
            "iterations": self.iterations,
        }

    def to_json(self, *, tolerance: float = 1e-12) -> dict[str, Any]:
        """Summary, game and both strategies; probabilities at or below ``tolerance`` are left out."""
        actions = self.game.actions
        alice = {
            name: {act: float(p) for act, p in zip(actions, self.alice[a]) if p > tolerance}
            for a, name in enumerate(CLASS_NAMES)
        }
        bob = {
            act: {name: float(self.bob[k, i]) for k, name in enumerate(CLASS_NAMES) if self.bob[k, i] > tolerance}
            for i, act in enumerate(actions[1:])
        }
        return {
            "format": "showdown-one-round",
            "version": 1,
            "game": {"sb": self.game.sb, "bb": self.game.bb, "bets": list(self.game.bets)},
            **self.summary(),
            "timings": {"build": self.build_seconds, "solve": self.solve_seconds, "check": self.check_seconds},
            "class_values": {name: float(v) for name, v in zip(CLASS_NAMES, self.class_values)},
            "alice": alice,
            "bob_calls": bob,
        }

    def report(self, *, tolerance: float = 1e-3) -> str:
        """Alice's strategy per class as the post's strategy file shows it, best classes first.

        Each line: the class, its value, and the actions used with probability above ``tolerance``
        in grid order (``"0.53*b20"``; a sure action has no factor). Then, per bet, the share of
        Bob's hands that call.
        """
        actions = self.game.actions
        lines = [
            f"blinds = {self.game.sb:g} {self.game.bb:g}",
            f"bets = {' '.join(format_bet(b) for b in self.game.bets)}",
            f"Alice's value = {self.value:.8f} (Bob holds her to {self.value_upper:.8f}, gap {self.gap:.1e})",
            "",
            "Alice's strategy:",
        ]
        for a in np.argsort(-self.class_values, kind="stable"):
            parts = []
            for act, prob in zip(actions, self.alice[a]):
                if prob >= 1 - tolerance:
                    parts.append(act)
                elif prob > tolerance:
                    parts.append(f"{prob:.6g}*{act}")
            lines.append(f"  {CLASS_NAMES[a]:>3} : value {self.class_values[a]:.6g}, strategy {' '.join(parts)}")
        lines += ["", "Bob's calling frequency per bet (share of his hands):"]
        calls = self.class_probabilities @ self.bob
        used = self.action_frequencies()[1:]
        for i, act in enumerate(actions[1:]):
            lines.append(f"  {act:>4} : calls {calls[i]:7.2%}   (Alice bets it {used[i]:7.3%} of the time)")
        return "\n".join(lines)


def solve_one_round(
    game: OneRoundGame | None = None,
    *,
    table: EquityTable | None = None,
    method: Method = "highs-ds",
    form: Form = "bob",
    presolve: bool = False,
    generate_bets: bool | None = None,
) -> OneRoundSolution:
    """Solve the one-round game exactly by LP and check the answer with both best responses.

    ``form`` picks which of the two dual programs HiGHS is given (``"bob"``: Bob's strategy as
    variables, Alice's as duals; ``"alice"``: the post's program); ``method`` is the HiGHS solver.
    ``presolve`` is off by default: it finds almost nothing to remove in these dense blocks (248 of
    13,520 of Bob's columns are dominated at 80 bets) and costs more than it saves (measured with the
    whole process: 0.79x the CPU at 40 bets, 0.88x at 80, and 0.84-0.86x the peak memory).
    ``generate_bets`` solves programs over a subset of the grid and adds bet sizes only when Alice
    would gain from them (``_generate_bets``); off, the whole grid is one program; ``None`` (the
    default) generates on grids of more than ``GENERATION_MIN_BETS`` bets.
    Raises ``SolverError`` if HiGHS does not report an optimum.
    """
    game = game or OneRoundGame()
    table = table or equity_table()
    if form not in ("bob", "alice"):
        raise SolverError(f"unknown LP form {form!r}: use 'bob' or 'alice'")
    if method not in ("highs-ds", "highs-ipm", "highs"):
        raise SolverError(f"unknown method {method!r}: use 'highs-ds', 'highs-ipm' or 'highs'")
    start = time.perf_counter()
    mats = _matrices(game, table)
    built = time.perf_counter()
    if generate_bets is None:
        generate_bets = len(game.bets) > GENERATION_MIN_BETS
    if generate_bets:
        alice, bob, iterations = _generate_bets(game, mats, method, form, presolve)
    else:
        alice, bob, iterations = _solve_program(game, mats, method, form, presolve)
    solved = time.perf_counter()
    lower = _alice_guarantee(game, mats, alice)
    best = _alice_best_values(game, mats, bob)
    upper = float(best.max(axis=1).sum())
    checked = time.perf_counter()
    return OneRoundSolution(
        game=game,
        alice=alice,
        bob=bob,
        value=lower,
        value_upper=upper,
        class_values=best.max(axis=1) / mats.p,
        class_probabilities=mats.p,
        method=method,
        form=form,
        build_seconds=built - start,
        solve_seconds=solved - built,
        check_seconds=checked - solved,
        iterations=iterations,
    )


def _solve_program(
    game: OneRoundGame, mats: _Matrices, method: Method, form: Form, presolve: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Alice's and Bob's strategies from one LP over the whole of ``game``'s grid, and its simplex count."""
    from showdown.solvers.one_round_programs import alice_program, bob_program

    build = bob_program if form == "bob" else alice_program
    program = build(mats.G, mats.p, game.sb, game.bb)
    options: dict[str, Any] = {
        "presolve": presolve,
        "primal_feasibility_tolerance": FEASIBILITY_TOLERANCE,
        "dual_feasibility_tolerance": FEASIBILITY_TOLERANCE,
    }
    if method == "highs-ipm":
        options["ipm_optimality_tolerance"] = 1e-10
    from showdown.solvers.highs_lp import solve_lp

    answer = solve_lp(program, method, options)
    if not answer.optimal:
        raise SolverError(f"HiGHS ({method}, {form} form) did not find the optimum: {answer.message}")
    alice, bob = _strategies(game, form, answer)
    return alice, bob, answer.iterations


def _generate_bets(
    game: OneRoundGame, mats: _Matrices, method: Method, form: Form, presolve: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Column (and row) generation over bet sizes: an equilibrium of the whole grid from small programs.

    At equilibrium Alice uses few sizes (17 of the post's 40), and a program's cost grows faster than
    its number of bets. So solve the game restricted to a subset ``S`` of the grid (evenly spaced
    sizes first); let ``mu[a]`` be what class ``a`` earns there against Bob's strategy. A left-out bet
    ``b`` is *deterred* if Bob has calling probabilities ``y_b`` with
    ``bb p_a + sum_k G_b[a, k] y_b[k] <= mu[a]`` for every ``a`` (``bet_pricing.deterring_calls``).
    If every left-out bet is deterred, Alice's restricted strategy (never betting outside ``S``) and
    Bob's (``y_b`` outside ``S``) are an equilibrium of the whole grid: Bob's best reply to Alice is
    unchanged (she puts no weight outside ``S``), so her guarantee is the restricted one; Alice's best
    reply to Bob is unchanged (no class gains from a bet outside ``S``), so his guarantee is too; the
    two coincide in the restricted game. Otherwise the next ``S`` is the restricted support plus every
    bet ever found undeterred, a set that grows each round, so the loop ends within ``len(bets)``
    rounds. The caller checks the result on the whole grid with both best responses.
    """
    from showdown.solvers.bet_pricing import deterring_calls

    m = len(game.bets)
    step = max(1, round(m / GENERATION_FIRST_BETS))
    subset = sorted({*range(0, m, step), m - 1})
    undeterred: set[int] = set()
    known: dict[int, np.ndarray] = {}  # the last deterring calls found per bet: next round's first guess
    iterations = 0
    while True:
        sub_game = OneRoundGame(bets=tuple(game.bets[i] for i in subset), sb=game.sb, bb=game.bb)
        sub_mats = _Matrices(p=mats.p, G=mats.G[subset], P=mats.P, Q=mats.Q)
        sub_alice, sub_bob, count = _solve_program(sub_game, sub_mats, method, form, presolve)
        iterations += count
        slack = _alice_best_values(sub_game, sub_mats, sub_bob).max(axis=1) - game.bb * mats.p
        bob = np.empty((NUM_CLASSES, m))
        bob[:, subset] = sub_bob
        support = {i for j, i in enumerate(subset) if sub_alice[:, 1 + j].max() > 0.0}
        near, far = _next_to_support(m, subset, support)
        order = _calling_order(mats, sub_alice, subset, support)
        ranges = sub_alice[:, [1 + j for j, i in enumerate(subset) if i in support]]
        missing: list[int] = []
        for group in (near, far):  # the far bets only once every near one is deterred: a round saved
            last: list[np.ndarray] = []  # the calls that deterred the bet before: often the next one's too
            for i in group:
                guesses = np.column_stack([*([known[i]] if i in known else []), *last, sub_bob])
                calls = deterring_calls(mats.G[i], slack, guesses, order, ranges)
                if calls is None:
                    missing.append(i)
                else:
                    bob[:, i] = known[i] = calls
                    last = [calls]
            if missing:
                break
        if not missing:
            alice = np.zeros((NUM_CLASSES, m + 1))
            alice[:, 0] = sub_alice[:, 0]
            alice[:, [1 + i for i in subset]] = sub_alice[:, 1:]
            return alice, bob, iterations
        undeterred.update(missing)
        subset = sorted(support | undeterred)


def _calling_order(mats: _Matrices, alice: np.ndarray, subset: list[int], support: set[int]) -> np.ndarray:
    """Bob's classes, best calls first, against the range Alice bets her largest size with.

    Calling thresholds in this order deter most bets above Alice's largest (40 of the 58 from 23 to
    80), which spares their LPs.
    """
    used = [j for j, i in enumerate(subset) if i in support]
    if not used:
        return np.arange(NUM_CLASSES)
    weights = alice[:, 1 + used[-1]]
    dealt = weights @ mats.P
    equity = np.divide(weights @ mats.Q, dealt, out=np.full(NUM_CLASSES, np.inf), where=dealt > 0)
    return np.argsort(equity, kind="stable")  # Alice's equity against class k, lowest (Bob's best) first


def _next_to_support(m: int, subset: list[int], support: set[int]) -> tuple[list[int], list[int]]:
    """The bets left out of ``subset``, split: those next to a bet Alice uses (no bet of ``subset``
    between them), where a profitable deviation is likeliest, and the rest."""
    near: list[int] = []
    far: list[int] = []
    below: int | None = None
    for i in range(m):
        if i in subset:
            below = i
            continue
        above = next((j for j in subset if j > i), None)
        (near if below in support or above in support else far).append(i)
    return near, far
