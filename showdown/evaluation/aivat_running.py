"""The AIVAT estimate of a plain match accumulated as its hands arrive, in bounded memory."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from showdown.errors import ShowdownError
from showdown.evaluation.analyze import Analysis, aivat_notes, zero_mean_p
from showdown.evaluation.hand_table import HandCollector
from showdown.evaluation.stats import MatchStats, Welford
from showdown.protocol.logfile import HandRecord

__all__ = ["AivatAccumulator"]


def _consistency_welford(w: Welford) -> float | None:
    """``analyze``'s consistency p-value from running statistics of the corrections."""
    var = w.variance
    return zero_mean_p(w.n, w.mean, math.sqrt(max(var, 0.0))) if var is not None else None


class AivatAccumulator:
    """The AIVAT (and plain) figures of a plain, non-duplicate match, accumulated as hands arrive.

    Memory stays bounded however many hands: hands are buffered in a ``HandCollector`` of at most
    ``batch`` hands, whose AIVAT values are computed at once (vectorised) and folded into running
    statistics. Which seats count as known is decided at the end (a seat whose actions contradict
    its strategy is dropped, see ``aivat.choose_known``), so the statistics are kept for every
    candidate set of known seats (the subsets of the seats with a strategy: at most 4 for two
    players) together with the action counts per information set; ``analysis()`` then picks the set
    ``analyze(..., estimator="aivat")`` would pick and gives the same figures (up to rounding in the
    last digits: sums are taken batch by batch). Same ``add`` / ``add_record`` as ``HandCollector``.
    """

    def __init__(self, names: Sequence[str], estimator: Any, *, big_blind: int = 1, num_positions: int = 2, batch: int = 4096) -> None:
        if num_positions != 2:
            raise ShowdownError("the AIVAT estimator handles 2-player games only")
        self.names = tuple(names)
        self.estimator = estimator
        self.big_blind = big_blind
        self.batch = max(1, batch)
        self.hands = 0
        self._buffer = HandCollector(self.names, num_positions, encoder=estimator)
        self._num_seats = max(len(estimator.known), len(self.names))
        declared = [bool(k) for k in estimator.known] + [False] * (self._num_seats - len(estimator.known))
        self._declared = tuple(declared)
        subsets: list[tuple[bool, ...]] = [()]
        for k in declared:
            subsets = [s + (False,) for s in subsets] + ([s + (True,) for s in subsets] if k else [])
        self._plain = MatchStats(self.names, big_blind, num_positions)
        self._totals = [0.0] * len(self.names)
        self._replaced = 0
        self._max_seat = -1
        self._counts: dict[tuple[int, int], np.ndarray] = {}
        # per candidate set of known seats: figures, corrections, impossible actions, exactness
        self._stats = {k: MatchStats(self.names, big_blind, num_positions) for k in subsets}
        self._corrections = {k: Welford() for k in subsets}
        self._bad: dict[tuple[bool, ...], dict[int, int]] = {k: {} for k in subsets}
        self._exact = {k: True for k in subsets}

    def __len__(self) -> int:
        return self.hands + len(self._buffer)

    def add(self, number: int, players: Sequence[str], values: Sequence[float], **kw: Any) -> None:
        """One hand, as ``HandCollector.add`` (players must be among ``names``)."""
        self._buffer.add(number, players, values, **kw)
        self._check_names()
        if len(self._buffer) >= self.batch:
            self.flush()

    def add_record(self, record: HandRecord, half: int = 0) -> None:
        self._buffer.add_record(record, half)
        self._check_names()
        if len(self._buffer) >= self.batch:
            self.flush()

    def _check_names(self) -> None:
        if len(self._buffer.names) > len(self.names):
            raise ShowdownError(f"player {self._buffer.names[-1]!r} is not one of {', '.join(self.names)}")

    def flush(self) -> None:
        """Fold the buffered hands into the running statistics."""
        if not len(self._buffer):
            return
        t = self._buffer.table()
        self._buffer = HandCollector(self.names, t.num_positions, encoder=self.estimator)
        est = self.estimator
        codes, seats, values0, replaced = t.codes, t.seats, t.values[:, 0], t.replaced
        self.hands += t.hands
        self._plain.add_many(seats, t.values)
        for s, total in enumerate(t.totals()):
            self._totals[s] += total
        self._replaced += int(replaced.any(axis=1).sum())
        self._max_seat = max(self._max_seat, int(seats.max()))
        est.action_counts(codes, seats, replaced, self._declared, self._counts)
        for k, stats in self._stats.items():
            values, bad = est._estimate_once(codes, seats, values0, replaced, list(k))
            stats.add_many(seats, np.stack([values, -values], axis=1))
            self._corrections[k].update(Welford.of(values0 - values))
            into = self._bad[k]
            for seat, count in bad.items():
                into[seat] = into.get(seat, 0) + count
            if self._exact[k]:
                self._exact[k] = bool((~replaced & np.array(k, dtype=bool)[seats]).all())

    def analysis(self, *, show_mbb: bool = False, totals: Sequence[float] | None = None) -> Analysis:
        """The figures ``analyze(table, estimator="aivat")`` gives for the hands added so far."""
        from showdown.evaluation.aivat import choose_known

        self.flush()
        num_seats = max(len(self.estimator.known), self._max_seat + 1)
        declared = self._declared[:num_seats]

        def pad(k: tuple[bool, ...]) -> tuple[bool, ...]:
            return k + (False,) * (len(self._declared) - len(k))

        known, dropped, _ = choose_known(
            declared,
            lambda k: self._bad[pad(k)],
            lambda k: self.estimator.fit_counts(self._counts, k),
        )
        k = pad(known)
        chosen = self._stats[k]
        chosen.exact = bool(self.hands) and self._exact[k]
        consistency_p = _consistency_welford(self._corrections[k])
        notes = aivat_notes(consistency_p, dropped, self.names, self._replaced)
        plain = self._plain
        return Analysis(
            names=self.names,
            hands=self.hands,
            big_blind=self.big_blind,
            show_mbb=show_mbb,
            estimator="aivat",
            totals=list(totals) if totals is not None else list(self._totals),
            agents=chosen.agents(),
            positions=chosen.positions(),
            differences=chosen.differences(),
            plain_agents=plain.agents(),
            plain_positions=plain.positions(),
            plain_differences=plain.differences(),
            exact=chosen.exact,
            known=tuple(n for n, x in zip(self.names, known) if x),
            notes=notes,
            consistency_p=consistency_p,
        )
