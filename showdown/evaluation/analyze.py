"""Win rates from played hands: plain, duplicate-paired and AIVAT estimates, from a match or from logs.

The one place where hands become statistics, whatever their source: ``showdown match`` (hands as
the dealer finishes them), ``--duplicate`` and tournaments (the halves' JSON Lines logs) and
``showdown analyze`` (ACPC ``.log`` files, ours or the reference dealer's, and our ``.jsonl`` files).

Hands arrive as a ``HandTable`` (``hand_table``; from logs: ``log_reading``); the estimator is chosen
before a match starts (``estimator_plan``); the figures are printed by ``analysis_output``.

* ``analyze(table, ...)`` computes, per player and per position, the mean per hand with its standard
  error (``stats``), each pair's difference, and the estimator's gain over the plain estimate:

  - ``plain``: every hand's chips as they fell (variance stratified by position, see ``stats``);
  - ``duplicate``: hands with the same number in each duplicate half were dealt the same cards with
    the seats moved (same seed), so each player's results on one deal are averaged over the halves
    and the deals are the independent samples; the card luck cancels;
  - ``aivat``: every hand corrected by the AIVAT control variates (``aivat``); with duplicate halves
    the corrected values are paired in the same way.

With duplicate halves the positions' figures are taken per deal too (each position's mean over the
halves): a deal gives a position the same cards in every half, so this removes no luck, but it keeps
the intervals right, the halves' results being correlated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from showdown.errors import ShowdownError
from showdown.evaluation.estimators import ESTIMATORS
from showdown.evaluation.hand_table import HandTable
from showdown.evaluation.numbers import counted
from showdown.evaluation.stats import EXACT_ZERO, Difference, Estimate, MatchStats, sample_estimate, two_sided_p, variance_ratio

__all__ = ["CONSISTENCY_ALARM", "Analysis", "aivat_notes", "analyze", "plain_analysis", "zero_mean_p"]


@dataclass
class Analysis:
    """Statistics of a set of hands under one estimator, with the plain figures to compare."""

    names: tuple[str, ...]
    hands: int
    big_blind: int
    show_mbb: bool
    estimator: str
    totals: list[float]  # chips actually won, per player
    agents: list[Estimate]
    positions: list[Estimate]
    differences: list[Difference]
    plain_agents: list[Estimate]
    plain_positions: list[Estimate]
    plain_differences: list[Difference]
    paired: bool = False  # players' figures average duplicate halves deal by deal
    deals: int = 0  # paired deals (duplicate)
    exact: bool = False  # AIVAT with every strategy known in every hand
    known: tuple[str, ...] = ()  # players whose strategy AIVAT used
    notes: list[str] = field(default_factory=list)
    consistency_p: float | None = None  # AIVAT: p-value of "the chips won agree with the strategies"
    reason: str = ""  # why this estimator was chosen, for the estimator line

    def agent_reduction(self, i: int) -> float | None:
        """How many times fewer hands the estimator needs than the plain estimate (player ``i``)."""
        return variance_ratio(self.plain_agents[i], self.agents[i])

    def position_reduction(self, p: int) -> float | None:
        return variance_ratio(self.plain_positions[p], self.positions[p])

    def difference_reduction(self, k: int) -> float | None:
        return variance_ratio(self.plain_differences[k].estimate, self.differences[k].estimate)


def _stats(table: HandTable, values: np.ndarray, big_blind: int, exact: bool = False) -> MatchStats:
    stats = MatchStats(table.names, big_blind, table.num_positions, exact)
    stats.add_many(table.seats, values)
    return stats


def _paired(
    table: HandTable, values: np.ndarray, big_blind: int, exact: bool = False
) -> tuple[list[Estimate], list[Difference], list[Estimate], int, list[str]]:
    """Figures from deals played in every half: per deal, each player's (and each position's) mean
    over the halves is one independent sample. A position holds the same cards in every half, so for
    positions this gains nothing; it keeps their intervals right (the halves' hands are correlated)."""
    halves = np.unique(table.half)
    k = len(halves)
    notes: list[str] = []
    numbers = np.unique(table.number)
    # which hand numbers every half has
    present = np.zeros(len(numbers), dtype=np.int64)
    idx = np.searchsorted(numbers, table.number)
    np.add.at(present, idx, 1)
    complete = present == k
    if (present > k).any():
        raise ShowdownError("a hand number appears twice in one duplicate half: give each half's log once")
    units = int(complete.sum())
    unpaired = int((~complete[idx]).sum())
    if unpaired:
        notes.append(f"{counted(unpaired)} without a partner in every half are left out of the paired estimate")
    keep = complete[idx]
    unit_of = np.cumsum(complete) - 1  # unit index per hand number
    unit = unit_of[idx[keep]]
    _check_same_deals(table, keep, unit, units)
    seats = table.seats[keep]
    vals = values[keep]
    n = len(table.names)
    sums = np.zeros((n, units))
    counts = np.zeros((n, units), dtype=np.int64)
    for p in range(table.num_positions):
        np.add.at(sums, (seats[:, p], unit), vals[:, p])
        np.add.at(counts, (seats[:, p], unit), 1)
    agents = []
    means = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    for s in range(n):
        played = counts[s] > 0
        if not played.all() and played.any():
            notes.append(f"{table.names[s]} did not play every deal in every half")
        per_deal = counts[s][played]
        e = sample_estimate(means[s][played], big_blind, exact=exact)
        hands = int(per_deal.sum())
        agents.append(Estimate(hands, float(sums[s][played].sum()), e.mean, e.se, big_blind, e.df))
    diffs = []
    for a in range(n):
        for b in range(a + 1, n):
            both = (counts[a] > 0) & (counts[b] > 0)
            d = means[a][both] - means[b][both]
            e = sample_estimate(d, big_blind, exact=exact)
            hands = int(counts[a][both].sum())
            diffs.append(Difference(table.names[a], table.names[b], Estimate(hands, e.mean * hands, e.mean, e.se, big_blind, e.df)))
    positions = []
    for p in range(table.num_positions):
        pos_sums = np.zeros(units)
        np.add.at(pos_sums, unit, vals[:, p])
        e = sample_estimate(pos_sums / k, big_blind, exact=exact)
        positions.append(Estimate(units * k, float(vals[:, p].sum()), e.mean, e.se, big_blind, e.df))
    return agents, diffs, positions, units, notes


def _check_same_deals(table: HandTable, keep: np.ndarray, unit: np.ndarray, units: int) -> None:
    """Each paired deal deals the same hole cards to each position in every half (where the logs
    show them): else the files are not the halves of one duplicate match (two other matches given
    with --duplicate were paired hand by hand, players who never met given a difference)."""
    if table.deal is None or len(table.deal) != len(keep):
        return
    deal = table.deal[keep]
    known = deal != 0
    first = np.zeros(units, dtype=np.int64)
    first[unit[known][::-1]] = deal[known][::-1]  # a known fingerprint of each deal
    bad = known & (deal != first[unit])
    if bad.any():
        h = int(table.number[keep][bad][0])
        raise ShowdownError(f"hand {h} deals other hole cards in one half than in another: these are not the halves of one "
                            "duplicate match (the same seed, the seats moved); give those halves, or drop --duplicate")


def analyze(
    table: HandTable,
    *,
    estimator: str = "plain",
    big_blind: int = 1,
    show_mbb: bool = False,
    aivat: Any = None,
    pair: bool | None = None,
) -> Analysis:
    """The figures of ``table`` under ``estimator`` (``plain``, ``duplicate`` or ``aivat``).

    ``aivat`` is the ``AivatEstimator`` whose seats are ``table.names`` in order (needed for
    ``aivat``; the table must have been collected with it as encoder). ``pair`` (default: when the
    table holds more than one half) pairs deals across halves for the players' figures;
    ``duplicate`` is the plain values paired.
    """
    if estimator not in ESTIMATORS:
        raise ShowdownError(f"unknown estimator {estimator!r}: use one of {', '.join(ESTIMATORS)}")
    halves = len(np.unique(table.half)) if table.hands else 0
    if pair is None:
        pair = halves > 1
    if estimator == "duplicate" and halves < 2:
        raise ShowdownError("the duplicate estimator needs the hands of at least two duplicate halves")
    notes: list[str] = []
    consistency_p: float | None = None
    totals = table.totals()
    plain = _stats(table, table.values, big_blind)
    values = table.values
    exact = False
    known: tuple[str, ...] = ()
    if estimator == "chance":
        if table.chance is None:
            raise ShowdownError("the chance estimator needs the logs read with the game's chance corrections")
        values = table.chance
    if estimator == "aivat":
        values, consistency_p, exact, known = _aivat_values(table, aivat, notes)
    chosen = plain if values is table.values else _stats(table, values, big_blind, exact)
    positions, plain_positions = chosen.positions(), plain.positions()
    if pair and halves > 1:
        agents, diffs, positions, deals, more = _paired(table, values, big_blind, exact)
        plain_positions = _paired(table, table.values, big_blind)[2]
        notes += more
    else:
        agents, diffs, deals = chosen.agents(), chosen.differences(), 0
    return Analysis(
        names=table.names,
        hands=table.hands,
        big_blind=big_blind,
        show_mbb=show_mbb,
        estimator=estimator,
        totals=totals,
        agents=agents,
        positions=positions,
        differences=diffs,
        plain_agents=plain.agents(),
        plain_positions=plain_positions,
        plain_differences=plain.differences(),
        paired=bool(pair and halves > 1),
        deals=deals,
        exact=exact,
        known=known,
        notes=notes,
        consistency_p=consistency_p,
    )


def _aivat_values(table: HandTable, aivat: Any, notes: list[str]) -> tuple[np.ndarray, float | None, bool, tuple[str, ...]]:
    """Each hand's AIVAT values (position 0, -position 0), the p-value of the chips won against the
    known strategies, whether the values are exact, and the seats taken as known; notes added."""
    if aivat is None or table.codes is None:
        raise ShowdownError("the AIVAT estimator needs the game's tree and the players' strategies")
    if table.num_positions != 2:
        raise ShowdownError("the AIVAT estimator handles 2-player games only")
    result = aivat.estimate(table.codes, table.seats, table.values[:, 0], table.replaced)
    values = np.stack([result.values, -result.values], axis=1)
    consistency_p = _consistency(table.values[:, 0] - result.values)
    known = tuple(n for n, k in zip(table.names, result.known) if k)
    notes += aivat_notes(consistency_p, result.notes, table.names, int(table.replaced.any(axis=1).sum()))
    return values, consistency_p, bool(result.exact), known


CONSISTENCY_ALARM = 1e-3
"""Below this p-value the chips won are taken to contradict the strategies AIVAT was told about."""


def _consistency(corrections: np.ndarray) -> float | None:
    """p-value of "the AIVAT corrections have mean 0", which holds when the known strategies are
    really played (each correction has expectation 0); a small value means they are not."""
    n = len(corrections)
    return zero_mean_p(n, float(corrections.mean()), float(corrections.std(ddof=1))) if n >= 2 else None


def zero_mean_p(n: int, mean: float, sd: float) -> float | None:
    """``_consistency`` from the corrections' count, mean and standard deviation; None when it cannot
    be told: fewer than two, or corrections all alike but not 0 (two hands both lost at showdown), whose
    spread is unknown, not nil."""
    if n < 2:
        return None
    if sd == 0.0:
        return 1.0 if abs(mean) < EXACT_ZERO else None
    return two_sided_p(mean / (sd / math.sqrt(n)))


def plain_analysis(stats: MatchStats, totals: Sequence[float], *, show_mbb: bool = False, notes: Sequence[str] = ()) -> Analysis:
    """An ``Analysis`` of the plain estimate straight from running statistics (no per-hand storage)."""
    agents, positions, diffs = stats.agents(), stats.positions(), stats.differences()
    return Analysis(
        names=stats.names,
        hands=stats.hands,
        big_blind=stats.big_blind,
        show_mbb=show_mbb,
        estimator="plain",
        totals=list(totals),
        agents=agents,
        positions=positions,
        differences=diffs,
        plain_agents=agents,
        plain_positions=positions,
        plain_differences=diffs,
        notes=list(notes),
    )


def aivat_notes(consistency_p: float | None, notes: Sequence[str], names: Sequence[str], replaced: int) -> list[str]:
    """The notes under an AIVAT estimate: chips won that contradict the strategies, the estimator's
    own notes (its seats named as the table's players), hands where the dealer played for a seat."""
    out: list[str] = []
    if consistency_p is not None and consistency_p < CONSISTENCY_ALARM:
        out.append(
            f"the chips won disagree with the known strategies (p = {consistency_p:.2g}): the AIVAT "
            "figures assume the agents play them; check the agents, or use --estimator plain"
        )
    out += [_note_names(note, names) for note in notes]
    if replaced:
        out.append(f"{replaced} hands had actions played by the dealer: those seats count as unknown there")
    return out


def _note_names(note: str, names: Sequence[str]) -> str:
    """``seat 2 ...`` -> ``bob ...`` in AIVAT notes (its seats are the table's players)."""
    if note.startswith("seat "):
        head, _, rest = note[5:].partition(" ")
        if head.isdigit() and 0 < int(head) <= len(names):
            return f"{names[int(head) - 1]} {rest}"
    return note
