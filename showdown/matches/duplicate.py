"""Duplicate matches: every deal played again with the seats moved, and the results paired.

The reference dealer's cards depend only on the seed, the hand number and the position (docs/protocol.md
section 4), so two matches with the same seed deal the same cards to the same positions hand by
hand. A duplicate match plays ``N`` halves (``N`` the number of players), half ``k`` with the seat
order shifted by ``k`` (for two players: the seat order reversed); in hand ``h`` each agent then
sits at a different position in every half, so across the halves each agent holds every
position's cards of deal ``h`` once. Averaging an agent's results over the halves deal by deal
cancels most of the card luck; the deals are the independent samples of the paired estimate
(``analyze``), reported with the variance reduction over the plain estimate of the same hands.

The halves run as separate processes (``parallel``), at most ``jobs`` at once (default: the
number of cores), each writing its own logs (``<match>.dup<k>.log`` / ``.jsonl``); the paired
figures come from the halves' JSON Lines logs. Agents keep their labels in every half; an agent
without an explicit seed gets a different derived seed in each half (half 0 plays exactly as the
plain match would), so that two copies of one randomised agent do not replay each other's
choices.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, LogExistsError, ShowdownError
from showdown.evaluation.estimators import Estimator
from showdown.evaluation.report import MatchReport
from showdown.evaluation.stats import Estimate, MatchStats
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.parallel import ChildResult
from showdown.matches.seating import half_agent_seed
from showdown.protocol.logfile import HandRecord, read_records

__all__ = ["half_configs", "half_agent_seed", "run_duplicate", "run_duplicate_async"]


def half_configs(config: MatchConfig, labels: Sequence[str], base_name: str, out: Path) -> list[MatchConfig]:
    """The halves of a duplicate match: half ``k`` seats the agents shifted by ``k`` (same seed)."""
    n = len(config.agents)
    specs = [replace(spec, label=labels[i]) for i, spec in enumerate(config.agents)]
    halves = []
    for k in range(n):
        order = [(i + k) % n for i in range(n)]
        seated = tuple(
            replace(specs[i], seed=specs[i].seed if specs[i].seed is not None else half_agent_seed(config.seed, k, i))
            for i in order
        )
        halves.append(
            replace(
                config,
                agents=seated,
                name=f"{base_name}.dup{k}",
                out=out,
                duplicate=False,
                estimator=Estimator.PLAIN,
                progress=False,
            )
        )
    return halves


def _seats_text(agents: Sequence[AgentSpec]) -> list[str]:
    return [a.display for a in agents]


async def run_duplicate_async(
    config: MatchConfig,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
    install_signals: bool = False,
    game: GameDef | None = None,
) -> MatchReport:
    """Play ``config`` in duplicate and return the paired report (see the module docstring);
    ``game``: the config's game when the caller has it already."""
    run = _DuplicateRun(config, progress, notify, game if game is not None else get_game(config.game))
    try:
        states = await run.play(install_signals)
        try:
            report = run.report(states, on_hand)
            run.save(report)
        except KeyboardInterrupt:  # Ctrl-C once the halves were played: said with no word of what was kept
            if config.out is not None:
                from showdown.matches.files import MATCH_FILE_SUFFIX

                run.say(f"stopped before the report; the hands played are kept: showdown match --resume "
                        f"{Path(str(config.out)) / (run.name + MATCH_FILE_SUFFIX)} finishes the match and reports it")
            raise
        return report
    finally:
        run.clean_up()


class _DuplicateRun:
    """A duplicate match: its halves as jobs of an executor, the progress line over all of them,
    Ctrl-C passed on, and the paired report from the halves' logs."""

    def __init__(self, config: MatchConfig, progress: bool | None, notify: Callable[[str], None] | None, game: GameDef) -> None:
        from showdown.evaluation.estimator_plan import plan_estimator
        from showdown.matches.parallel import Job
        from showdown.matches.progress import Progress, say_on_stderr, wants_progress
        from showdown.matches.seating import match_name, seat_labels

        self.config = config
        self.game = game
        self.labels = seat_labels(config.agents)
        if len(set(self.labels)) != len(self.labels):
            raise ConfigError(f"duplicate halves need distinct agent labels, got {', '.join(self.labels)}")
        self.say = notify if notify is not None else say_on_stderr
        self.plan = plan_estimator(self.game, config.agents, config.estimator, True, self.labels, self.say)
        # with no --out, the halves' logs go to a folder removed at the end
        out = Path(config.out) if config.out is not None else Path(tempfile.mkdtemp(prefix="showdown-duplicate-"))
        self.temp = str(out) if config.out is None else None
        self.name = match_name(config, self.labels)
        self.halves = half_configs(config, self.labels, self.name, out)  # (resumed from their logs with ``resume``)
        for half in self.halves if not config.force and not config.resume else ():  # before any half starts, as a plain match does
            for path in (out / f"{half.name}.log", out / f"{half.name}.jsonl"):
                if path.exists():
                    raise LogExistsError(str(path), "give the match another name or --force to overwrite")
        self.done = _finished_halves(self.halves) if config.resume else {}
        if config.out is not None:
            _save_settings(config, self.name)
        chance = self.plan.estimator == "chance"
        self.jobs = [Job(h, out / f"{h.name}.result.json", label=f"dup{k}", chance_corrections=chance)
                     for k, h in enumerate(self.halves) if k not in self.done]
        self.stats = MatchStats(self.labels, self.game.big_blind, self.game.num_players)  # for the progress line: hands so far
        show = wants_progress(progress, config.progress) and bool(self.jobs)
        self.ticker = Progress(config.hands * len(self.jobs), self.stats, show_agents=False) if show else None
        # resumed: the hands played before this run (not in hands/s), those of the halves it continues too
        self.played_before = sum(r.hands for r in self.done.values()) + sum(_hands_logged(j.jsonl_path) for j in self.jobs) \
            if config.resume else 0
        if self.ticker is not None:
            self.ticker.played_before = self.played_before - sum(r.hands for r in self.done.values())
        self.stops = 0
        self.stop_signal = 0  # the signal that stopped the halves (SIGINT or SIGTERM)
        self.elapsed = 0.0

    def tick(self, states: Sequence[Any]) -> None:
        if self.ticker is not None:
            self.stats.hands = sum(s.hands for s in states)
            self.ticker.update()

    def line(self, state: Any, text: str) -> None:
        if not text.startswith("# replacements:"):
            self.say(f"[{state.job.label}] {text}")

    def interrupted_once(self, n: int, sig: int) -> None:
        self.stops = n
        self.stop_signal = self.stop_signal or sig
        if n == 1:
            self.say("stopping after this hand (Ctrl-C again to stop at once)")

    async def play(self, install_signals: bool) -> list[Any]:
        """Play the halves; their final states."""
        from showdown.matches.executors import make_executor
        from showdown.matches.parallel import default_parallel

        config = self.config
        parallel = min(config.jobs or default_parallel(), len(self.jobs))
        if not self.jobs:  # resumed with every half finished: the paired report is all that was missing
            return []
        started = time.monotonic()
        states = await make_executor(config.executor, config.address).run(
            self.jobs, parallel, on_tick=self.tick, on_line=self.line, on_interrupt=self.interrupted_once,
            install_signals=install_signals,
        )
        self.elapsed = time.monotonic() - started
        if self.ticker is not None:
            self.ticker.finish()
        return list(states)

    def report(self, states: Sequence[Any], on_hand: Callable[[HandRecord], None] | None) -> MatchReport:
        """The paired report of the halves that played (``on_hand`` is given their hands in order)."""
        results = self._results(states)
        interrupted = bool(self.stops) or any(r is None or r.interrupted for r in results)
        present = [r for r in results if r is not None and r.hands]
        jsonl = [Path(r.jsonl) for r in present if r.jsonl]
        if not jsonl:
            empty = _empty_report(self.config, self.game, self.labels, interrupted, self.elapsed)
            return replace(empty, stop_signal=self.stop_signal)
        if on_hand is not None:
            _replay(jsonl, on_hand)
        return self._paired_report(results, present, jsonl, interrupted)

    def _results(self, states: Sequence[Any]) -> list[ChildResult | None]:
        """Each half's result; None for one stopped before it could play (Ctrl-C). A half that
        failed otherwise fails the match."""
        played = iter(states)
        results: list[ChildResult | None] = []
        for k in range(len(self.halves)):
            if k in self.done:  # resumed: a half finished before the stop is taken as it is
                results.append(self.done[k])
                continue
            s = next(played)
            if s.error is not None and s.result is None and not self.stops:
                raise ShowdownError(f"duplicate half {s.job.label} failed: {s.error}")
            results.append(s.result)
        return results

    def _paired_report(
        self, results: Sequence[ChildResult | None], present: Sequence[ChildResult], jsonl: Sequence[Path], interrupted: bool
    ) -> MatchReport:
        """The report of the halves that played hands: the figures paired deal by deal."""
        config, game, labels = self.config, self.game, self.labels
        analysis, table, totals, agent_stats = _paired_analysis(self.plan, jsonl, labels, game, len(present), config.chance_boards)
        replacements, replaced_hands, failures = _merged_half_results(present)
        reasons = [r.reason for r in present if r.reason]
        kept = self.temp is None
        return MatchReport(
            game=config.game,
            hands=table.hands,
            hands_requested=config.hands * len(self.halves),
            seed=config.seed,
            names=tuple(labels),
            agents=tuple(s.name or s.command or "" for s in config.agents),
            totals=tuple(totals),
            agent_stats=agent_stats,
            position_stats=analysis.positions,
            replacements=replacements,
            log_path=Path(present[0].log) if kept and present[0].log else None,
            jsonl_path=jsonl[0] if kept else None,
            fixed_seats=config.fixed_seats,
            show_mbb=len(set(game.blind)) > 1,
            big_blind=game.big_blind,
            aborted=any(r.aborted for r in present) and not interrupted,
            interrupted=interrupted,
            stop_signal=self.stop_signal,
            reason=reasons[0] if reasons else None,
            elapsed=self.elapsed,
            failures=failures,
            analysis=analysis,
            halves=_half_documents(self.halves, results, keep_paths=kept),
            replaced_hands=replaced_hands,
            max_replaced=config.max_replaced,
            resumed_at=self.played_before,
        )

    def save(self, report: MatchReport) -> None:
        """``<out>/<match>.result.json``: the paired figures (what the command line printed) and the
        winnings of both halves per agent, so that the view shows them for the match and its halves."""
        from showdown.evaluation.series import WinningsSeries
        from showdown.matches.files import RESULT_FILE_SUFFIX, save_result_file

        if self.temp is not None or not report.hands or report.log_path is None:
            return
        series = WinningsSeries(self.labels)
        index = {label: i for i, label in enumerate(self.labels)}
        jsonl = [Path(h["jsonl"]) for h in report.halves if h.get("jsonl")]
        _replay(jsonl, lambda r: series.add([index[name] for name in r.players], r.values))
        save_result_file(report, series.to_json(), report.log_path.parent / f"{self.name}{RESULT_FILE_SUFFIX}")

    def clean_up(self) -> None:
        if self.temp is None and self.config.resume:  # the halves' files that a killed runner left
            for half in self.halves:
                for suffix in (".result.json", ".result.json.run.json"):
                    (Path(str(half.out)) / f"{half.name}{suffix}").unlink(missing_ok=True)
        for job in self.jobs:
            job.result_path.unlink(missing_ok=True)
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)


def _save_settings(config: MatchConfig, name: str) -> None:
    """``<out>/<match>.match.json`` before the halves start (``duplicate: true``): ``--resume`` of the
    folder then continues the duplicate match, not one of its halves (resumed, the file is there: only
    that the folder can still be written is checked). A folder that cannot be written is one line, as
    a plain match's (it was a traceback from the first half's start)."""
    from showdown.matches.files import save_match_file

    out = Path(str(config.out))
    try:
        out.mkdir(parents=True, exist_ok=True)
        if config.resume:
            tempfile.TemporaryFile(dir=out).close()
        else:
            save_match_file(config, name)
    except OSError as exc:
        raise ShowdownError(f"cannot write the match logs in {out}: {exc.strerror or exc}") from None


def _hands_logged(jsonl: Path | None) -> int:
    """The hands in a half's JSON Lines log (none when it has none yet)."""
    if jsonl is None:
        return 0
    try:
        with jsonl.open("rb") as f:
            return sum(1 for line in f if line.endswith(b"\n") and not line.startswith(b'{"summary"'))
    except OSError:
        return 0


def _finished_halves(halves: Sequence[MatchConfig]) -> dict[int, ChildResult]:
    """The halves of a resumed duplicate match that had played every hand, by number, with their results:
    what the dealer's summary record says, with the failures and time of the child's result document
    when the killed runner left it."""
    from showdown.matches.files import RESULT_FILE_SUFFIX, finished_summary

    done = {}
    for k, half in enumerate(halves):
        out, name = Path(str(half.out)), str(half.name)
        summary = finished_summary(out, name)
        if summary is None:
            continue
        result = ChildResult.from_json({key: summary.get(key) for key in ("aborted", "reason", "replaced_hands", "replacements")}
                                       | {"hands": summary["hands_played"], "log": str(out / f"{name}.log"),
                                          "jsonl": str(out / f"{name}.jsonl")})
        try:
            doc = json.loads((out / f"{name}{RESULT_FILE_SUFFIX}").read_text(encoding="utf-8"))
            child = ChildResult.from_json(doc) if isinstance(doc, dict) and "error" not in doc else None
        except (OSError, ValueError, RecursionError):
            child = None
        if child is not None and not child.interrupted and child.hands == result.hands:
            result = replace(result, failures=child.failures, elapsed_s=child.elapsed_s)
        done[k] = result
    return done


def _empty_report(config: MatchConfig, game: GameDef, labels: Sequence[str], interrupted: bool, elapsed: float) -> MatchReport:
    """The report of a duplicate match none of whose halves played a hand."""
    n = game.num_players
    none = Estimate(0, 0.0, 0.0, None, game.big_blind)
    return MatchReport(
        game=config.game, hands=0, hands_requested=config.hands * n, seed=config.seed,
        names=tuple(labels), agents=tuple(s.name or s.command or "" for s in config.agents),
        totals=(0.0,) * n, agent_stats=[none] * n, position_stats=[none] * n, replacements={},
        log_path=None, jsonl_path=None, fixed_seats=config.fixed_seats, big_blind=game.big_blind,
        interrupted=interrupted, aborted=not interrupted, reason="no half played a hand",
        elapsed=elapsed,
    )  # fmt: skip


def _replay(jsonl: Sequence[Path], on_hand: Callable[[HandRecord], None]) -> None:
    """Every hand of the halves' logs, in order, to the caller's ``on_hand``."""
    for path in jsonl:
        with path.open(encoding="utf-8") as lines:
            for _, record in read_records(lines, source=str(path), jsonl=True):
                if isinstance(record, HandRecord):
                    on_hand(record)


def _paired_analysis(
    plan: Any, jsonl: Sequence[Path], labels: Sequence[str], game: Any, halves_played: int, chance_boards: int | None = None,
) -> tuple[Any, Any, list[float], list[Estimate]]:
    """The paired figures of the halves' logs under the planned estimator; the table they came from;
    and each agent's total and estimate in the config's seat order (empty for an agent no half saw)."""
    from showdown.evaluation.estimator_plan import analyze_planned

    analysis, table = analyze_planned(plan, jsonl, labels, game, halves_played, known_corrections=_known_corrections(jsonl),
                                      chance_boards=chance_boards)
    order = [table.names.index(lab) if lab in table.names else -1 for lab in labels]
    none = Estimate(0, 0.0, 0.0, None, game.big_blind)  # an agent with no hands (no half finished)
    totals = [analysis.totals[i] if i >= 0 else 0.0 for i in order]
    agents = [analysis.agents[i] if i >= 0 else none for i in order]
    if order != list(range(len(order))) and all(i >= 0 for i in order):
        # re-order the analysis itself to the seat order of the original config
        analysis.names = tuple(labels)
        analysis.totals = list(totals)
        analysis.agents = [analysis.agents[i] for i in order]
        analysis.plain_agents = [analysis.plain_agents[i] for i in order]
    return analysis, table, totals, agents


def _known_corrections(jsonl: Sequence[Path]) -> dict[str, Any] | None:
    """The chance corrections the halves' processes left beside their logs (``Job.chance_corrections``),
    merged, and the files removed; None when no half left any (the analysis works out what is missing)."""
    docs = []
    for path in jsonl:
        side = path.with_suffix(".chance.json")
        try:
            doc = json.loads(side.read_text(encoding="utf-8"))
            side.unlink()
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("corrections"), dict):
            docs.append(doc)
    if not docs or any(d.get("settings") != docs[0].get("settings") for d in docs):
        return None
    return {"settings": docs[0].get("settings"), "corrections": {k: v for d in docs for k, v in d.get("corrections", {}).items()}}


def _merged_half_results(present: Sequence[ChildResult]) -> tuple[dict[str, dict[str, int]], dict[str, int], list[str]]:
    """Replacements, hands the dealer played per agent, and failures, over the halves that played."""
    replacements: dict[str, dict[str, int]] = {}
    replaced_hands: dict[str, int] = {}
    failures: list[str] = []
    for r in present:
        for name, count in r.replaced_hands.items():
            replaced_hands[name] = replaced_hands.get(name, 0) + int(count)
        for name, counts in r.replacements.items():
            acc = replacements.setdefault(name, {})
            for k, v in counts.items():
                acc[k] = acc.get(k, 0) + int(v)
        failures += [f"[{r.log and Path(r.log).stem}] {f}" for f in r.failures]
    return replacements, replaced_hands, failures


def _half_documents(halves: Sequence[MatchConfig], results: Sequence[ChildResult | None], keep_paths: bool) -> list[dict[str, Any]]:
    """What the report says of each half (its logs only when they are kept)."""
    docs = []
    for k, (h, res) in enumerate(zip(halves, results)):
        doc: dict[str, Any] = {"half": k, "seats": _seats_text(h.agents), "name": h.name}
        if res is not None:
            doc.update(
                hands=res.hands,
                log=res.log if keep_paths else None,
                jsonl=res.jsonl if keep_paths else None,
                aborted=res.aborted,
                interrupted=res.interrupted,
                elapsed_s=res.elapsed_s,
            )
        docs.append(doc)
    return docs


def run_duplicate(config: MatchConfig, **kw: Any) -> MatchReport:
    """Blocking ``run_duplicate_async`` (``run_match`` with ``duplicate`` set does the same)."""
    import asyncio

    return asyncio.run(run_duplicate_async(config, **kw))
