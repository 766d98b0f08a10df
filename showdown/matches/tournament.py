"""Round-robin tournaments: every pair of agents (every seating of every three, in 3-player games),
a cross table, a ranking, ``results.json`` and each match's logs; re-running resumes.

The file and its validation: ``tournament_config``; the tables and the ranking: ``tournament_results``.

Matches: for a 2-player game each unordered pair plays once (seats rotate; with ``duplicate`` the
two halves reverse the seats); for a 3-player game each set of three plays both cyclic seat orders
(with ``duplicate``, each in its three rotations: all six seatings). Every half is played in a
worker process (``parallel``: one per job slot, playing half after half, with only plain running
figures); its logs go to ``out/matches/<match>/``, from which each match's figures are worked out
(in a thread, as soon as the match is over, while others play). A finished half leaves a
``<half>.done.json`` holding its result and a fingerprint of its settings; a re-run skips halves
whose fingerprint still matches and whose log is there, and replays the rest from the start.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showdown.errors import ConfigError
from showdown.evaluation.estimators import Estimator
from showdown.games.gamedef import GameDef
from showdown.matches.config import (
    MatchConfig,
    check_out_folder,
    config_to_json,
)
from showdown.matches.files import hold_folder
from showdown.matches.parallel import ChildResult
from showdown.matches.seating import tournament_match_seed
from showdown.status import StatusLine

if TYPE_CHECKING:
    from showdown.matches.executors import Executor

from showdown.matches.tournament_config import TournamentConfig, tournament_game
from showdown.matches.tournament_results import (
    MatchOutcome,
    TournamentResult,
    block_wins,
    cross_table,
    format_tournament,
    hand_ratings,
    ranking,
    tournament_json,
)

__all__ = ["PlannedMatch", "plan_matches", "run_tournament", "run_tournament_async"]

# ---------------------------------------------------------------------- the matches


def _seed_for(seed: int, match_id: str) -> int:
    return tournament_match_seed(seed, match_id)


@dataclass(frozen=True)
class PlannedMatch:
    """One match of the round robin: agents (indices into the config's agents) in seat order."""

    id: str
    agents: tuple[int, ...]
    seed: int
    halves: tuple[MatchConfig, ...]

    @property
    def directory(self) -> str:
        return self.id


def plan_matches(cfg: TournamentConfig) -> list[PlannedMatch]:
    """Every match of the round robin, with each half's ``MatchConfig`` (logs in the match's directory)."""
    from showdown.matches.duplicate import half_configs

    game = tournament_game(cfg)
    n = game.num_players
    specs = [replace(s, label=lab) for s, lab in zip(cfg.agents, cfg.labels)]
    groups: list[tuple[int, ...]] = []
    for combo in itertools.combinations(range(len(specs)), n):
        if n == 2:
            groups.append(combo)
        else:
            # each distinct cyclic order once (rotation moves the seats through the positions)
            seen: set[tuple[int, ...]] = set()
            for perm in itertools.permutations(combo):
                k = perm.index(min(perm))
                canon = perm[k:] + perm[:k]
                if canon not in seen:
                    seen.add(canon)
                    groups.append(canon)
    out = []
    for group in groups:
        match_id = "-vs-".join(cfg.labels[i] for i in group)
        seed = _seed_for(cfg.seed, match_id)
        base = MatchConfig(
            game=cfg.game,
            agents=tuple(specs[i] for i in group),
            hands=cfg.hands,
            seed=seed,
            out=cfg.out / "matches" / match_id,
            name=match_id,
            dealer=cfg.dealer,
            progress=False,
            estimator=Estimator.PLAIN,
            force=True,  # an unfinished half is replayed from its first hand, over its own logs
            sandbox=cfg.sandbox,
            in_memory=cfg.in_memory,
        )
        if cfg.duplicate:
            halves = tuple(half_configs(base, [cfg.labels[i] for i in group], match_id, base.out or cfg.out))
        else:
            halves = (base,)
        out.append(PlannedMatch(match_id, group, seed, halves))
    return out


def _fingerprint(config: MatchConfig, game: GameDef) -> str:
    """What a half's result depends on: its settings but where and how it ran, and the game's rules."""
    from showdown.games.gamedef import format_gamedef

    doc = config_to_json(config)
    for volatile in ("out", "progress", "jobs", "executor", "address", "force"):
        doc.pop(volatile, None)
    doc["gamedef"] = format_gamedef(game)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def _done_path(config: MatchConfig) -> Path:
    assert config.out is not None and config.name is not None
    return Path(config.out) / f"{config.name}.done.json"


UNREADABLE, OTHER_SETTINGS, LOGS_LOST = "unreadable", "other settings", "logs lost"
"""Why a half's ``.done.json`` does not count it as played: a marker this program did not write (cut,
edited: valid JSON of another shape too), one of other settings, or one whose log is gone."""


def _finished(config: MatchConfig, game: GameDef) -> tuple[ChildResult | None, str | None]:
    """The stored result of a half if it finished with these very settings and its log is there; else
    None and why not (None too when it never finished here)."""
    path = _done_path(config)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError, RecursionError):
        return None, UNREADABLE
    if not isinstance(doc, dict) or not isinstance(doc.get("fingerprint"), str):
        return None, UNREADABLE
    if doc["fingerprint"] != _fingerprint(config, game):
        return None, OTHER_SETTINGS
    try:
        result = ChildResult.from_json(doc["result"])
    except (KeyError, ValueError):
        return None, UNREADABLE
    if not result.jsonl or not Path(result.jsonl).is_file():
        return None, LOGS_LOST
    return result, None


# ---------------------------------------------------------------------- running


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"


class _Progress(StatusLine):
    """Matches done, hands, rate and time left on stderr (one rewritten line on a terminal)."""

    def __init__(self, total_matches: int, total_hands: int, done_matches: int, done_hands: int, stream: Any = None, every: float = 2.0) -> None:
        super().__init__(stream)
        self.every = every if self.tty else max(every, 10.0)
        self.total_matches = total_matches
        self.total_hands = total_hands
        self.base_matches = done_matches
        self.base_hands = done_hands
        self.start = time.monotonic()
        self.next = self.start + 1.0

    def update(self, matches_done: int, hands_now: int, running: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now < self.next:
            return
        self.next = now + self.every
        played = hands_now
        rate = played / (now - self.start) if now > self.start else 0.0
        left = self.total_hands - self.base_hands - played
        eta = f"about {_duration(left / rate)} left" if rate > 0 and played else "estimating time left"
        text = (
            f"tournament: {self.base_matches + matches_done}/{self.total_matches} matches done, {running} running, "
            f"{self.base_hands + played:,}/{self.total_hands:,} hands, {rate:,.0f} hands/s, {eta}"
        )
        self.show(text)


def _outcome(match: PlannedMatch, results: Sequence[ChildResult], cfg: TournamentConfig, game: Any) -> MatchOutcome:
    """Analyse one finished match from its halves' logs."""
    from showdown.evaluation.estimator_plan import analyze_planned, plan_estimator

    labels = [cfg.labels[i] for i in match.agents]
    specs = [replace(cfg.agents[i], label=label) for i, label in zip(match.agents, labels)]
    plan = plan_estimator(game, specs, cfg.estimator, cfg.duplicate, labels)
    a, table = analyze_planned(plan, [Path(r.jsonl or "") for r in results], labels, game, len(results))
    index = {lab: i for i, lab in enumerate(cfg.labels)}
    estimates = {index[name]: e for name, e in zip(a.names, a.agents)}
    plain = {index[name]: e for name, e in zip(a.names, a.plain_agents)}
    logs_out = [str(r.log) for r in results if r.log]
    wins = block_wins(table, [index[name] for name in table.names])
    return MatchOutcome(
        match.id, match.agents, estimates, plain, a.estimator, a.hands, a.exact, logs_out, a.notes, wins
    )


def _played_by_dealer(match: PlannedMatch, results: Sequence[ChildResult], share: float) -> list[str]:
    """One note per agent the dealer played for in more than ``share`` of a finished match's hands (it
    crashed, hung or left mid-match): its figures there are the dealer's check/fold, not its own."""
    hands = sum(r.hands for r in results)
    from showdown.protocol.events import chosen_why

    played: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    for r in results:
        for name, n in r.replaced_hands.items():
            played[name] = played.get(name, 0) + n
            for kind, k in r.replacements.get(name, {}).items():
                counts.setdefault(name, {})[kind] = counts.get(name, {}).get(kind, 0) + k
    failures = [f for r in results for f in r.failures]
    notes = []
    for name, n in played.items():
        if n and n > share * hands:
            why = next((f for f in failures if f.startswith(f"agent {name} (")), None) or chosen_why(counts.get(name, {}))
            notes.append(f"{match.id}: {name} was played by the dealer in {n:,} of {hands:,} hands ({why}): "
                         "the dealer's check/fold is in its figures for this match")
    return notes


def run_tournament(
    cfg: TournamentConfig,
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    stream: Any = None,
    install_signals: bool = True,
    executor: Executor | None = None,
    force: bool = False,
) -> TournamentResult:
    """Play (or resume) the tournament and write ``results.json``; returns the results.

    ``executor`` plays the matches: the local process pool by default, or a Ray cluster. Matches the
    folder holds from other settings (another tournament's, or this file changed) are refused
    (``ConfigError``) unless ``force``, which plays them again over their logs."""
    import asyncio
    import threading

    if threading.current_thread() is not threading.main_thread():
        install_signals = False
    return asyncio.run(run_tournament_async(cfg, jobs=jobs, progress=progress, stream=stream,
                                            install_signals=install_signals, executor=executor, force=force))


async def run_tournament_async(
    cfg: TournamentConfig,
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    stream: Any = None,
    install_signals: bool = False,
    executor: Executor | None = None,
    force: bool = False,
) -> TournamentResult:
    """``run_tournament`` as a coroutine. Cancelled, it stops the matches playing (their finished
    halves are kept for a resume) and writes no results: the Python API's interrupt in a notebook."""
    run = _TournamentRun(cfg, stream if stream is not None else sys.stderr, progress, force)
    try:
        states = await run.play(jobs, executor, install_signals)
        return run.result(states)
    finally:
        if run.analyst is not None:
            run.analyst.shutdown(cancel_futures=True)
        if run.lock is not None:
            run.lock.close()


class _TournamentRun:
    """One ``run_tournament`` call: the halves already played (resumed from their files), the
    ones to play, and what the executor reports as they run."""

    def __init__(self, cfg: TournamentConfig, stream: Any, progress: bool | None, force: bool = False) -> None:
        self.cfg = cfg
        self.stream = stream
        self.game = tournament_game(cfg)
        self.matches = plan_matches(cfg)
        check_out_folder(cfg.out, "tournament")
        self.lock = hold_folder(cfg.out, "tournament")  # before anything is read: another run may be writing it
        (cfg.out / "matches").mkdir(exist_ok=True)
        self.finished: dict[tuple[str, int], ChildResult] = {}
        self.todo: list[tuple[PlannedMatch, int]] = []
        stale = 0  # halves played here before with other settings
        unreadable: list[Path] = []  # halves whose .done.json is no marker of ours
        for m in self.matches:
            for k, half in enumerate(m.halves):
                got, why = _finished(half, self.game)
                if got is not None:
                    self.finished[(m.id, k)] = got
                    continue
                self.todo.append((m, k))
                if why == UNREADABLE:
                    unreadable.append(_done_path(half))
                elif why == OTHER_SETTINGS:
                    stale += 1
        self.newly_done_matches = 0
        if stale and not force:  # (their logs were replaced with no more than a note)
            self.lock.close()
            raise ConfigError(f"{cfg.out} holds {stale} match {'halves' if stale > 1 else 'half'} played with other settings (another "
                              "tournament's folder, or this file changed since): give another out folder, or --force to play "
                              "them again over their logs")
        if unreadable:
            n = len(unreadable)
            print(f"tournament: {n} match {'halves' if n > 1 else 'half'} marked done in {cfg.out} cannot be read as done "
                  f"(a damaged .done.json: {unreadable[0]}{' and more' if n > 1 else ''}): played again", file=stream, flush=True)
        if stale:  # --force: said, as their logs are about to be replaced
            print(f"tournament: {stale} match {'halves' if stale > 1 else 'half'} in {cfg.out} {'were' if stale > 1 else 'was'} played with "
                  "other settings (another tournament's folder, or this file changed): played again (--force), "
                  "replacing their logs", file=stream, flush=True)
        # each match's figures, worked out in a thread as soon as its last half is in, while the
        # other matches play (all at the end, they were 0.48 s of CPU each, one after another)
        self.analyst: ThreadPoolExecutor | None = None
        self.outcomes: dict[str, Future[MatchOutcome]] = {}
        self.stop_signal = 0  # the signal that stopped this run (SIGINT or SIGTERM), 0 if none
        self.started = time.monotonic()
        show = progress if progress is not None else bool(getattr(stream, "isatty", lambda: False)())
        self.ticker = self._progress() if show else None
        if self.finished and self.ticker is not None:
            self.ticker.line(
                f"tournament: resuming: {len(self.finished)} of {len(self.finished) + len(self.todo)} match halves already played"
            )

    def _progress(self) -> _Progress:
        matches, finished = self.matches, self.finished
        halves_per_match = len(matches[0].halves) if matches else 1
        done_before = sum(1 for m in matches if all((m.id, k) in finished for k in range(len(m.halves))))
        hands_before = sum(r.hands for r in finished.values())
        total_hands = self.cfg.hands * halves_per_match * len(matches)
        return _Progress(len(matches), total_hands, done_before, hands_before, stream=self.stream)

    async def play(self, jobs: int | None, executor: Executor | None, install_signals: bool) -> list[Any]:
        """Play the halves still to play; their final states."""
        from showdown.matches.executors import make_executor
        from showdown.matches.parallel import Job, default_parallel

        out = self.cfg.out
        self.job_list = [
            Job(m.halves[k], Path(m.halves[k].out or out) / f"{m.halves[k].name}.result.json", label=f"{m.id}#{k}",
                plain_figures=True)  # the table is worked out from the logs (``_outcome``)
            for m, k in self.todo
        ]
        self.where = {id(j): (m, k) for j, (m, k) in zip(self.job_list, self.todo)}
        if not self.job_list:
            return []
        states = await (executor or make_executor(self.cfg.executor, self.cfg.address)).run(
            self.job_list,
            jobs or self.cfg.jobs or default_parallel(),
            on_tick=self.on_tick,
            on_done=self.on_done,
            on_line=self.on_line,
            on_interrupt=self.on_interrupt,
            install_signals=install_signals,
        )
        return list(states)

    def on_done(self, state: Any) -> None:
        m, k = self.where[id(state.job)]
        r = state.result
        state.job.result_path.unlink(missing_ok=True)  # kept in the .done.json file when finished
        if r is None or r.interrupted:
            return
        half = m.halves[k]
        tmp = _done_path(half).with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"fingerprint": _fingerprint(half, self.game), "result": r.to_json()}, indent=1), encoding="utf-8")
        os.replace(tmp, _done_path(half))
        self.finished[(m.id, k)] = r
        if all((m.id, j) in self.finished for j in range(len(m.halves))):
            self.newly_done_matches += 1
            if self.analyst is None:
                self.analyst = ThreadPoolExecutor(1, thread_name_prefix="tournament-figures")
            results = [self.finished[(m.id, j)] for j in range(len(m.halves))]
            self.outcomes[m.id] = self.analyst.submit(_outcome, m, results, self.cfg, self.game)
            if self.ticker is not None:
                self.ticker.line(f"tournament: finished {m.id}")

    def on_tick(self, states: Sequence[Any]) -> None:
        if self.ticker is not None:
            running = sum(1 for s in states if s.started is not None and s.finished is None)
            self.ticker.update(self.newly_done_matches, sum(s.hands for s in states), running)

    def _say(self, line: str) -> None:
        if self.ticker is not None:
            self.ticker.line(line)
        else:
            print(line, file=self.stream, flush=True)

    def on_line(self, state: Any, text: str) -> None:
        if not (text.startswith("# replacements:") or text.startswith("showdown match: stopping")):
            self._say(f"[{state.job.label}] {text}")

    def on_interrupt(self, n: int, sig: int) -> None:
        self.stop_signal = self.stop_signal or sig
        self._say(
            "tournament: stopping: the running matches end after their current hand (Ctrl-C again: at once); "
            "run the same command again to resume"
            if n == 1
            else "tournament: stopping at once"
        )

    def result(self, states: Sequence[Any]) -> TournamentResult:
        """The results of every finished match, written to ``results.json`` and ``results.txt``."""
        cfg, matches = self.cfg, self.matches
        if self.ticker is not None:
            self.ticker.finish()
        notes = [f"{s.job.label}: {s.error}" for s in states if s.error is not None]
        outcomes = []
        game = self.game
        for m in matches:
            results = [self.finished.get((m.id, k)) for k in range(len(m.halves))]
            if m.id in self.outcomes:
                outcomes.append(self.outcomes[m.id].result())
            elif all(r is not None for r in results):
                outcomes.append(_outcome(m, results, cfg, game))  # type: ignore[arg-type]
            if all(r is not None for r in results):
                notes += _played_by_dealer(m, results, m.halves[0].max_replaced)  # type: ignore[arg-type]
        if self.analyst is not None:
            self.analyst.shutdown()
        complete = len(outcomes) == len(matches)
        failed = sum(1 for s in states if s.error is not None)
        if not complete and failed and not self.stop_signal:
            notes.append(
                f"{len(matches) - len(outcomes)} of {len(matches)} matches are not finished: {failed} failed (said above); "
                "fix that and run the same command again: the finished matches are kept"
            )
        elif not complete:
            notes.append(
                f"{len(matches) - len(outcomes)} of {len(matches)} matches are not finished: run the same command again to resume"
            )
        table = cross_table(outcomes, len(cfg.labels))
        result = TournamentResult(
            cfg, outcomes, table, ranking(table, outcomes), len(matches), complete, time.monotonic() - self.started, len(self.todo), notes,
            ratings=hand_ratings(outcomes, len(cfg.labels)) if outcomes else None, stop_signal=self.stop_signal,
        )
        tmp = cfg.out / f"results.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(tournament_json(result), indent=2), encoding="utf-8")
        os.replace(tmp, cfg.out / "results.json")
        (cfg.out / "results.txt").write_text(format_tournament(result) + "\n", encoding="utf-8")
        return result
