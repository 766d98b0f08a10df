"""A tournament's results: the cross table, the ranking, the ratings, and their JSON, text and CSV.

Results: a match's figures come from ``analyze`` (paired over duplicate halves, AIVAT where a
strategy is known). The cross table gives, row agent against column agent, the row agent's chips
per 100 hands with its 95% interval (for 3 players: over every match both played). The ranking is
the ACPC's bankroll instant runoff: repeatedly drop the agent with the lowest mean result against
the agents still in (each remaining opponent weighted equally), which rewards robustness over the
exploitation of weak agents; agents within ``TIE`` of the lowest go out together and share a rank.
Each agent's mean against the whole field (the ACPC's total bankroll) is given next to it.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from showdown.evaluation.numbers import decimals_of, interval_text, left, right, signed, width
from showdown.evaluation.stats import EXACT_ZERO, Z95, Estimate

if TYPE_CHECKING:
    from showdown.evaluation.ratings import Ratings

from showdown.matches.tournament_config import TournamentConfig

__all__ = ["MatchOutcome", "TournamentResult", "combine", "cross_table", "format_tournament", "hand_ratings", "ranking", "tournament_csv", "tournament_json"]

# ---------------------------------------------------------------------- results


@dataclass
class MatchOutcome:
    """A finished match: each agent's figures (by agent index) and the estimator used."""

    id: str
    agents: tuple[int, ...]
    estimates: dict[int, Estimate]
    plain: dict[int, Estimate]
    estimator: str
    hands: int
    exact: bool
    logs: list[str]
    notes: list[str] = field(default_factory=list)
    wins: dict[tuple[int, int], int] = field(default_factory=dict)  # (i, j): blocks of deals agent i won against j


def combine(estimates: Sequence[Estimate], equal_weights: bool = False) -> Estimate:
    """Independent estimates of one quantity combined: pooled by hands, or each weighted equally."""
    estimates = [e for e in estimates if e.hands]
    if not estimates:
        return Estimate(0, 0.0, 0.0, None)
    bb = estimates[0].big_blind
    hands = sum(e.hands for e in estimates)
    ses = [e.se for e in estimates]
    if equal_weights:
        k = len(estimates)
        mean = sum(e.mean for e in estimates) / k
        weights = [1.0 / k] * k
    else:
        mean = sum(e.mean * e.hands for e in estimates) / hands
        weights = [e.hands / hands for e in estimates]
    se = None
    if all(x is not None for x in ses):
        se = math.sqrt(sum((w * x) ** 2 for w, x in zip(weights, ses) if x is not None))
    return Estimate(hands, mean * hands, mean, se, bb)


def cross_table(outcomes: Sequence[MatchOutcome], n: int) -> list[list[Estimate | None]]:
    """``table[i][j]``: agent i's result per hand over the matches it played with agent j."""
    cells: list[list[list[Estimate]]] = [[[] for _ in range(n)] for _ in range(n)]
    for m in outcomes:
        for i in m.agents:
            for j in m.agents:
                if i != j:
                    cells[i][j].append(m.estimates[i])
    return [[combine(cells[i][j]) if cells[i][j] else None for j in range(n)] for i in range(n)]


TIE = 1e-4
"""Means closer than this many big blinds per hand (0.1 mbb/hand, 0.01 chips per 100 hands in Kuhn)
count as a tie unless the statistics separate them (``_tied``): far below what any sample can
resolve, but not below exact AIVAT values (a CFR strategy 1e-5 chips per hand off equilibrium)."""


def _tied(a: Estimate, b: Estimate, bb: int) -> bool:
    """Scores closer than ``TIE`` whose difference is within its 95% interval (independent
    estimates; exact ones only up to round-off): the statistics cannot tell them apart."""
    gap = abs(a.mean - b.mean)
    if gap > TIE * bb:
        return False
    if a.se is None or b.se is None:
        return True
    return gap <= max(Z95 * math.hypot(a.se, b.se), EXACT_ZERO)


def ranking(
    table: Sequence[Sequence[Estimate | None]], outcomes: Sequence[MatchOutcome] | None = None,
) -> list[tuple[int, Estimate, Estimate, int, int]]:
    """Bankroll instant runoff, best first: ``(agent, mean vs the field, mean vs the agents left in
    the round it went out, that round, rank)``. Agents tied for the lowest mean go out together and
    share a rank; within a rank they keep the config order. Given the ``outcomes`` the table was
    made of, a mean's interval and hands count each match once (in 3-player games a match is in two
    of an agent's cells: combining the cells as independent made its interval too narrow by sqrt 2)."""
    n = len(table)
    played = [any(e is not None and e.hands for e in table[i]) for i in range(n)]

    def mean(i: int, others: Iterable[int]) -> Estimate:
        return _mean_against(table, i, others) if outcomes is None else _mean_over_matches(table, outcomes, i, others)

    field_mean = [mean(i, range(n)) for i in range(n)]
    ranked: list[tuple[int, Estimate, Estimate, int, int]] = []
    for group in reversed(_runoff_rounds(mean, [i for i in range(n) if played[i]])):
        rank = len(ranked) + 1
        ranked += [(i, field_mean[i], score, rnd, rank) for i, score, rnd in group]
    # no finished match yet: unranked (rank 0), last
    ranked += [(i, field_mean[i], Estimate(0, 0.0, 0.0, None), 0, 0) for i in range(n) if not played[i]]
    return ranked


def _mean_against(table: Sequence[Sequence[Estimate | None]], i: int, others: Iterable[int]) -> Estimate:
    """Agent ``i``'s mean against ``others`` (each weighted equally)."""
    return combine([e for j in others if j != i and (e := table[i][j]) is not None], equal_weights=True)


def _mean_over_matches(
    table: Sequence[Sequence[Estimate | None]], outcomes: Sequence[MatchOutcome], i: int, others: Iterable[int],
) -> Estimate:
    """``_mean_against`` (the same mean: the cells weighted equally, each pooling its matches by
    hands) written as a weighted mean of the matches themselves, so that a match in two cells is
    one independent sample: its weight is the sum of its weights in the cells, its variance counted once."""
    cells = [j for j in others if j != i and (e := table[i][j]) is not None and e.hands]
    weights: dict[int, float] = {}
    for j in cells:
        members = [k for k, m in enumerate(outcomes) if i in m.agents and j in m.agents and m.estimates[i].hands]
        hands = sum(outcomes[k].estimates[i].hands for k in members)
        for k in members:
            weights[k] = weights.get(k, 0.0) + outcomes[k].estimates[i].hands / hands / len(cells)
    if not weights:
        return Estimate(0, 0.0, 0.0, None)
    estimates = [(w, outcomes[k].estimates[i]) for k, w in weights.items()]
    hands = sum(e.hands for _, e in estimates)
    mean = sum(w * e.mean for w, e in estimates)
    se = None
    if all(e.se is not None for _, e in estimates):
        se = math.sqrt(sum((w * e.se) ** 2 for w, e in estimates if e.se is not None))
    return Estimate(hands, mean * hands, mean, se, estimates[0][1].big_blind)


def _runoff_rounds(mean: Callable[[int, Iterable[int]], Estimate], left: list[int]) -> list[list[tuple[int, Estimate, int]]]:
    """The runoff's rounds, first out first: in each, the agents tied for the lowest mean against
    those still in, with that mean and the round's number."""
    rounds: list[list[tuple[int, Estimate, int]]] = []
    while left:
        scores = {i: mean(i, left) for i in left}
        lowest = scores[min(left, key=lambda i: scores[i].mean)]
        out = [i for i in left if _tied(scores[i], lowest, max(1, lowest.big_blind))]
        rounds.append([(i, scores[i], len(rounds) + 1) for i in out])
        left = [i for i in left if i not in out]
    return rounds


@dataclass
class TournamentResult:
    """Everything ``showdown tournament`` reports."""

    config: TournamentConfig
    outcomes: list[MatchOutcome]
    table: list[list[Estimate | None]]
    ranks: list[tuple[int, Estimate, Estimate, int, int]]
    matches_total: int
    complete: bool
    elapsed: float
    played_now: int  # halves played in this run (the rest were resumed)
    notes: list[str] = field(default_factory=list)
    ratings: Ratings | None = None  # Bradley-Terry, from the hands won against each other
    stop_signal: int = 0  # the signal that stopped the run early (SIGINT 2, SIGTERM 15), 0 if none


def _pair(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


def tournament_json(r: TournamentResult) -> dict[str, Any]:
    """The ``results.json`` document."""
    labels = r.config.labels

    def est(e: Estimate | None) -> dict[str, Any] | None:
        if e is None:
            return None
        # mbb_per_hand and ci95_mbb as `showdown match --json` and `analyze --json` give them
        return {"hands": e.hands, "per100": e.per100, "ci95": _pair(e.ci95), "se100": e.se100,
                "mbb_per_hand": e.mbb, "ci95_mbb": _pair(e.ci95_mbb), "significant": _significant(e)}

    return {
        "game": r.config.game,
        "hands_per_match": r.config.hands,
        "duplicate": r.config.duplicate,
        "seed": r.config.seed,
        "agents": [
            {"label": lab, "name": s.name, "command": s.command, "options": dict(s.options)}
            for lab, s in zip(labels, r.config.agents)
        ],
        "complete": r.complete,
        "matches_total": r.matches_total,
        "matches": [
            {
                "id": m.id,
                "agents": [labels[i] for i in m.agents],
                "estimator": m.estimator,
                "exact": m.exact,
                "hands": m.hands,
                "results": {labels[i]: est(m.estimates[i]) for i in m.agents},
                "plain": {labels[i]: est(m.plain[i]) for i in m.agents},
                "logs": m.logs,
                "notes": m.notes,
            }
            for m in r.outcomes
        ],
        "cross_table": {
            labels[i]: {labels[j]: est(r.table[i][j]) for j in range(len(labels)) if j != i} for i in range(len(labels))
        },
        "ranking": [
            {
                "rank": rank or None,
                "agent": labels[i],
                "vs_field": est(field_e),
                "runoff": est(runoff_e),
                "runoff_round": rnd,
            }
            for i, field_e, runoff_e, rnd, rank in r.ranks
        ],
        "ranking_method": "bankroll instant runoff (ACPC); vs_field is the total bankroll per 100 hands",
        "ratings": _ratings_json(labels, r.ratings),
        "ratings_method": f"Bradley-Terry on blocks of {RATING_BLOCK} deals won against each other (more chips; Hunter's MM) with one virtual win each way per pair, Elo points with 95% intervals",
        "elapsed_s": round(r.elapsed, 1),
        "notes": r.notes,
    }


def _significant(e: Estimate) -> bool:
    """The 95% interval excludes zero."""
    ci = e.ci95
    if abs(e.mean) <= EXACT_ZERO * max(1, e.big_blind):  # an exact zero, up to round-off
        return False
    return ci is not None and all(math.isfinite(x) for x in ci) and (ci[0] > 0 or ci[1] < 0)


def _ratings_json(labels: Sequence[str], ratings: Ratings | None) -> list[dict[str, object]]:
    if ratings is None:
        return []
    from showdown.evaluation.ratings import ratings_table

    return ratings_table(labels, ratings)


def _elo_cells(ratings: Ratings | None, i: int) -> list[str]:
    if ratings is None or math.isnan(ratings.rating[i]):
        return ["-", "-"]
    elo, (lo, hi) = ratings.elo[i], ratings.elo_ci95[i]
    if not math.isfinite(elo):
        return ["+inf" if elo > 0 else "-inf", "-"]
    return [f"{elo:+.0f}", f"[{lo:+.0f}, {hi:+.0f}]" if math.isfinite(lo) and math.isfinite(hi) else "-"]


def _cell(e: Estimate | None, digits: int = 2) -> str:
    if e is None:
        return "-"
    if e.half_width is None:
        return signed(e.per100, digits)
    return f"{signed(e.per100, digits)} ±{e.half_width:.{digits}f}" + ("*" if _significant(e) else " ")


def format_tournament(r: TournamentResult) -> str:
    """The cross table and the ranking as text."""
    lines = _heading(r) + [""] + _cross_table_text(r) + [""] + _ranking_text(r)
    return "\n".join(lines + [f"note: {note}" for note in r.notes])


def _heading(r: TournamentResult) -> list[str]:
    lines = [
        f"{r.config.game}: {len(r.outcomes)} of {r.matches_total} matches, {r.config.hands:,} hands each"
        + (" (duplicate)" if r.config.duplicate else "")
        + f", {r.elapsed:.0f} s",
    ]
    estimators = sorted({m.estimator + (" (exact)" if m.exact else "") for m in r.outcomes})
    if estimators:
        lines.append("estimators: " + ", ".join(estimators))
    return lines


def _aligned(rows: Sequence[Sequence[str]], first: int) -> list[str]:
    """Rows as text columns: the ``first`` columns left-aligned, the others right-aligned (in terminal
    columns: a label of wide characters, 规则, takes two a character)."""
    widths = [max(width(row[c]) for row in rows) for c in range(len(rows[0]))]
    return [
        "  ".join([left(c, w) for c, w in zip(row[:first], widths)] + [right(c, w) for c, w in zip(row[first:], widths[first:])]).rstrip()
        for row in rows
    ]


def _cross_table_text(r: TournamentResult) -> list[str]:
    labels = r.config.labels
    n = len(labels)
    digits = decimals_of(e for i, row in enumerate(r.table) for j, e in enumerate(row) if i != j)
    rows = [["", *labels]]
    for i in range(n):
        rows.append([labels[i]] + [("" if i == j else _cell(r.table[i][j], digits)) for j in range(n)])
    heading = "row agent against column agent, chips per 100 hands ± 95% interval (* the interval excludes zero)"
    return [heading, *_aligned(rows, 1)]


def _ranking_text(r: TournamentResult) -> list[str]:
    heading = (
        "ranking (bankroll instant runoff; 'vs field' is the mean against every other agent; "
        f"Elo: Bradley-Terry rating from blocks of {RATING_BLOCK} deals won against each other)"
    )
    rows = [["", "agent", "vs field /100", "95% CI", "runoff /100", "round", "Elo", "Elo 95% CI"]]
    ranks = [row[4] for row in r.ranks]
    field_digits, runoff_digits = decimals_of(row[1] for row in r.ranks), decimals_of(row[2] for row in r.ranks)
    for i, fe, re_, rnd, rank in r.ranks:
        place = "-" if rank == 0 else f"{rank}{'=' if ranks.count(rank) > 1 else '.'}"
        runoff = _cell(re_, runoff_digits).rstrip(" *") if re_.hands else "-"
        field_mean = signed(fe.per100, field_digits) if fe.hands else "-"  # no match played yet: no mean (it read +0.0000)
        rows.append([place, r.config.labels[i], field_mean, interval_text(fe.ci95, field_digits), runoff,
                     str(rnd), *_elo_cells(r.ratings, i)])
    return [heading, *_aligned(rows, 2)]


RATING_BLOCK = 100
"""Hands per rated game: the Bradley-Terry ratings compare agents on blocks of this many consecutive
deals (both duplicate halves of a deal in the same block), won by whoever won more chips in them.
Single hands would reward winning many small pots (an always-bluffer wins most hands and loses
chips); a block's chip total follows the agents' chip rates, and still gives many games per match."""


RATING_PRIOR = 1.0
"""Virtual blocks won each way by every pair that met: a sweep gives a large, finite rating."""


def block_wins(table: Any, agent_of_name: Sequence[int]) -> dict[tuple[int, int], int]:
    """Blocks of deals each agent won against each other one (more chips in the block), by agent index."""
    import numpy as np

    from showdown.evaluation.ratings import pairwise_wins

    if not len(agent_of_name) or not table.hands:
        return {}
    agents = np.asarray(agent_of_name, dtype=np.int64)[np.asarray(table.seats, dtype=np.int64)]
    present = np.unique(agents)
    block = np.asarray(table.number, dtype=np.int64) // RATING_BLOCK
    blocks = int(block.max()) + 1
    column = np.searchsorted(present, agents)
    sums = np.zeros((blocks, present.size))
    np.add.at(sums, (np.repeat(block, agents.shape[1]), column.ravel()), np.asarray(table.values).ravel())
    played = np.unique(block)
    counts = pairwise_wins(sums[played], np.broadcast_to(present, (played.size, present.size)), int(present.max()) + 1)
    return {(int(i), int(j)): int(counts[i, j]) for i, j in zip(*np.nonzero(counts))}


def hand_ratings(outcomes: Sequence[MatchOutcome], n: int) -> Ratings:
    """Bradley-Terry ratings of the agents from the blocks of deals they won against each other."""
    from showdown.evaluation.ratings import bradley_terry

    wins = [[0] * n for _ in range(n)]
    for m in outcomes:
        for (i, j), k in m.wins.items():
            wins[i][j] += k
    return bradley_terry(wins, prior=RATING_PRIOR)


def tournament_csv(doc: Mapping[str, Any]) -> str:
    """CSV of ``results.json``'s cross table: row agent, column agent, hands, per100 and its interval."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["agent", "opponent", "hands", "per100", "ci95_low", "ci95_high"])
    for agent, row in doc.get("cross_table", {}).items():
        for opponent, cell in row.items():
            if cell is None:
                continue
            ci = cell.get("ci95") or [None, None]
            w.writerow([agent, opponent, cell["hands"], cell["per100"], ci[0], ci[1]])
    return out.getvalue()
