"""The figures of a plain match, kept up as its hands arrive (memory flat however many hands): plain
statistics, the planned estimator's (AIVAT, or the cards' luck taken out), exact values where every
seat's strategy is known, the cumulative winnings for pictures, and the hands the dealer played for
each seat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from showdown.errors import ShowdownError
from showdown.evaluation.stats import MatchStats
from showdown.games.gamedef import GameDef
from showdown.matches.config import AgentSpec
from showdown.protocol.events import DEALER_CHOSE, seats_with
from showdown.protocol.logfile import HandRecord

__all__ = ["STATS_BATCH", "RunningFigures"]

STATS_BATCH = 256  # hands folded into the running statistics at a time


class RunningFigures:
    """Everything a plain match reports, from its hands one by one.

    Hands wait in a batch and go into the statistics together (cheaper per hand); ``catch_up``
    folds the waiting ones in (the progress line calls it before it shows figures).
    """

    def __init__(
        self, game: GameDef, specs: Sequence[AgentSpec], labels: Sequence[str], plan: Any, in_process: Mapping[int, Any],
        chance_boards: int = 10_000,
    ) -> None:
        from showdown.evaluation.aivat_running import AivatAccumulator
        from showdown.evaluation.series import WinningsSeries

        self.labels = list(labels)
        self.plan = plan
        self.big_blind = game.big_blind
        self.show_mbb = len(set(game.blind)) > 1
        n = game.num_players
        self.stats = MatchStats(self.labels, self.big_blind, n)
        # AIVAT folded in batch by batch: memory stays flat however many hands
        self.aivat = (
            AivatAccumulator(self.labels, plan.aivat, big_blind=self.big_blind, num_positions=n) if plan.estimator == "aivat" else None
        )
        self.chance = _ChanceStats(game, self.labels, self.big_blind, chance_boards) if plan.estimator == "chance" else None
        self.exact = _ExactTracker.of(game, specs, in_process)
        self.series = WinningsSeries(self.labels)
        self.replaced_hands = dict.fromkeys(self.labels, 0)
        self.waiting: list[HandRecord] = []

    def add(self, record: HandRecord) -> None:
        """Take one finished hand."""
        if record.events:
            for seat in seats_with(record.events, DEALER_CHOSE):
                if seat < len(self.labels):
                    self.replaced_hands[self.labels[seat]] += 1
        self.waiting.append(record)
        self.series.add(record.seats, record.values)
        if self.exact is not None:
            self.exact.add(record.seats)
        if len(self.waiting) >= STATS_BATCH:
            self.catch_up()

    def catch_up(self) -> None:
        """Fold the waiting hands into the statistics."""
        waiting = self.waiting
        if not waiting:
            return
        self.stats.add_many([r.seats for r in waiting], [r.values for r in waiting])
        if self.chance is not None:
            self.chance.add(waiting)
        if self.aivat is not None:
            try:
                for record in waiting:
                    self.aivat.add_record(record)
            except ShowdownError as exc:  # a hand AIVAT cannot place: plain figures, said once
                self.aivat = None
                self.plan.notes.append(f"AIVAT not possible: {exc}")
        waiting.clear()

    def analysis(self, totals: Sequence[float]) -> Any:
        """The report's figures under the planned estimator; plain (with a note) if AIVAT cannot be had."""
        from showdown.evaluation.analyze import plain_analysis

        self.catch_up()
        stats, plan, show_mbb = self.stats, self.plan, self.show_mbb
        if self.chance is not None and stats.hands:
            a = plain_analysis(self.chance.stats, totals, show_mbb=show_mbb, notes=plan.notes)
            a.estimator = "chance"
            a.plain_agents, a.plain_positions, a.plain_differences = stats.agents(), stats.positions(), stats.differences()
            a.reason = plan.reason
            return a
        if self.aivat is not None and stats.hands:
            try:
                a = self.aivat.analysis(show_mbb=show_mbb, totals=totals)
                a.notes = plan.notes + a.notes
                a.reason = plan.reason
                return a
            except ShowdownError as exc:
                return plain_analysis(stats, totals, show_mbb=show_mbb, notes=[f"AIVAT not possible: {exc}"])
        a = plain_analysis(stats, totals, show_mbb=show_mbb, notes=plan.notes)
        if plan.estimator == "plain":
            a.reason = plan.reason
        else:  # the planned estimator had nothing to work on: say why the plain one is shown
            a.reason = "no hand was played" if not stats.hands else f"{plan.estimator} was not possible (see the notes)"
        return a

    def exact_values(self) -> dict[str, Any] | None:
        """Exact values of the seat arrangements played, when every seat's strategy is known."""
        return self.exact.result(self.labels, self.big_blind) if self.exact is not None else None


class _ExactTracker:
    """Counts the seat arrangements of a match whose every seat plays a known strategy (games of more
    than two players, where AIVAT does not apply), for the exact values beside the estimate."""

    def __init__(self, game: GameDef, strategies: list[Any]) -> None:
        self.game = game
        self.strategies = strategies
        self.arrangements: dict[tuple[int, ...], int] = {}

    @classmethod
    def of(cls, game: GameDef, specs: Sequence[AgentSpec], in_process: Mapping[int, Any]) -> _ExactTracker | None:
        if game.num_players <= 2 or in_process or game.is_nolimit:
            return None
        from showdown.evaluation.aivat import known_strategies
        from showdown.solvers.multiplayer import check_multiplayer_solvable

        try:
            check_multiplayer_solvable(game)
        except ShowdownError:
            return None
        strategies, unknown = known_strategies(specs, game)
        return None if unknown else cls(game, strategies)

    def add(self, seats: tuple[int, ...]) -> None:
        self.arrangements[seats] = self.arrangements.get(seats, 0) + 1

    def result(self, labels: Sequence[str], big_blind: int) -> dict[str, Any] | None:
        from showdown.evaluation.exact_values import exact_values

        try:
            values = exact_values(self.game, self.strategies, self.arrangements)
        except ShowdownError:
            return None
        return {
            "hands": values.hands,
            "agents": {name: 100.0 * v for name, v in zip(labels, values.seats)},
            "positions": [100.0 * v for v in values.positions],
            "units": "chips per 100 hands",
        }


class _ChanceStats:
    """The match's statistics with the cards' luck taken out (``evaluation.chance``), hand by hand."""

    def __init__(self, game: GameDef, labels: Sequence[str], big_blind: int, boards: int) -> None:
        from showdown.evaluation.chance import ChanceCorrector

        self.corrector = ChanceCorrector(game, sample_boards=True, boards=boards)
        self.stats = MatchStats(labels, big_blind, game.num_players)

    def add(self, records: Sequence[HandRecord]) -> None:
        values = []
        for r in records:
            luck = self.corrector.corrections(r.hole, r.board, r.betting)
            values.append([v - c for v, c in zip(r.values, luck)])
        self.stats.add_many([r.seats for r in records], values)
