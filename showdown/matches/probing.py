"""Duplicate matches of one bot against a list of opponents (the probes, the baselines), each with the
chance-corrected estimator, their win rates with 95% intervals, and the exploitability lower bound
they give (``showdown exploit --probes``, ``showdown scorecard``).

A probe's win rate against the bot is a lower bound on the bot's exploitability (a best response
wins at least as much as any fixed strategy), measured from play alone: it needs nothing from the
bot, so it works for any outside bot (a file, a command, a process in any language). Each match's
figures are kept as JSON in the run's folder (``<match>.opponent.json``), so a run that is interrupted resumes where it stopped
(a finished match is not played again).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from showdown.errors import ShowdownError
from showdown.evaluation.estimators import Estimator
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.kept import read as read_kept
from showdown.matches.kept import write as write_kept

OPPONENT_OPTIONS: dict[str, dict[str, str]] = {"cfr": {"search": "off"}}
"""Options of the opponents that have some: ``cfr`` is played as its blueprint (no decision-time
search), a fixed strategy: the same reference in every scorecard, reproducible from the seed, and
about 30 times faster than the searching agent (8 hands/s on the shared machine)."""


def opponent_spec(opponent: str) -> AgentSpec:
    """The seat of a scorecard's or probe run's opponent (``OPPONENT_OPTIONS``)."""
    return AgentSpec(name=opponent, options=dict(OPPONENT_OPTIONS.get(opponent, {})))


@dataclass(frozen=True, slots=True)
class OpponentResult:
    """What ``name`` won from the bot per hand (mbb), with its 95% interval (None: the deals showed no
    spread to estimate one from), over ``hands`` hands."""

    name: str
    mbb: float
    ci95_mbb: tuple[float, float] | None
    hands: int
    estimator: str
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mbb": self.mbb, "ci95_mbb": _listed(self.ci95_mbb), "hands": self.hands,
                "estimator": self.estimator, "seed": self.seed}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OpponentResult | None:
        """``to_json``'s document read back, or None when it has another shape (a kept file cut or edited)."""
        try:
            return cls(str(doc["name"]), float(doc["mbb"]), _pair(doc["ci95_mbb"]), int(doc["hands"]), str(doc["estimator"]),
                       int(doc["seed"]))
        except (KeyError, TypeError, ValueError):
            return None


def _listed(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else list(ci)


def _pair(ci: Any) -> tuple[float, float] | None:
    """A JSON interval read back: two numbers, or null (none to be had); ``ValueError`` else."""
    if ci is None:
        return None
    low, high = (float(x) for x in ci)
    return low, high


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in text)[:60] or "bot"


def match_name(bot: AgentSpec, opponent: str, seed: int, hands: int) -> str:
    """The match's file name in the run's folder: a bot with options or a command line gets a digest of
    them, so that ``cfr -o search=off`` never reads back the figure kept for ``cfr``."""
    label = _safe(bot.display)[:30]
    if bot.options or bot.command:
        what = json.dumps([bot.name, bot.command, dict(bot.options)], sort_keys=True, default=str)
        label += "-" + hashlib.sha256(what.encode()).hexdigest()[:8]
    mine = "".join(f"-{k}_{v}" for k, v in sorted(OPPONENT_OPTIONS.get(opponent, {}).items()))
    return f"{_safe(opponent + mine)[:40]}-vs-{label}-{seed}-{hands}"


def check_bot(game: str, bot: AgentSpec, opponent: str, *, hands: int, seed: int) -> None:
    """``ConfigError`` for a bot no match against ``opponent`` could start (an unknown name, a bad
    option, a Python file that does not compile): before any folder is made or match played."""
    from showdown.matches.checks import check_match

    check_match(MatchConfig(game=game, agents=(opponent_spec(opponent), bot), hands=hands, seed=seed, out=None), {})


class NotAMeasurement(ShowdownError):
    """A match that finished, but with the dealer playing for the bot in too many hands to measure it."""


def play_opponent(game: str, bot: AgentSpec, opponent: str, *, hands: int, seed: int, folder: Path, jobs: int | None = None) -> OpponentResult:
    """A duplicate match of ``opponent`` (seat 1) against ``bot`` (seat 2), chance-corrected; the result
    is read back from ``folder`` when an earlier run finished it with the same settings."""
    from showdown.server.event_loop import run_in_new_loop

    return run_in_new_loop(play_opponent_async(game, bot, opponent, hands=hands, seed=seed, folder=folder, jobs=jobs))


async def play_opponent_async(game: str, bot: AgentSpec, opponent: str, *, hands: int, seed: int, folder: Path,
                              jobs: int | None = None) -> OpponentResult:
    """``play_opponent`` in the caller's event loop: matches played side by side share it (their
    halves are processes; the loop only waits for them and reads their logs)."""
    from showdown.evaluation.report import report_json
    from showdown.matches.runner import run_match_async

    name = match_name(bot, opponent, seed, hands)
    kept = folder / f"{name}.opponent.json"  # beside the match's own ``.result.json``, which ``showdown view`` reads
    doc = read_kept(kept, bot)  # only for the same bot and the same showdown (``matches.kept``)
    done = OpponentResult.from_json(doc) if doc is not None else None
    if done is not None:  # (one of another shape is played again)
        return done
    from showdown.evaluation.lbr_runs import CHANCE_BOARDS

    config = MatchConfig(game=game, agents=(opponent_spec(opponent), bot), hands=hands, seed=seed, duplicate=True,
                         estimator=Estimator.CHANCE, out=folder, name=name, progress=False, force=True, jobs=jobs,
                         in_memory=True, chance_boards=CHANCE_BOARDS).check()  # built-in seats without TCP: the same
    # logs in fewer CPU seconds; the flop's corrections from as many sampled boards as LBR's (``lbr_runs.CHANCE_BOARDS``)
    report = await run_match_async(config, progress=False, notify=lambda _text: None, install_signals=False)
    doc = report_json(report)
    if report.aborted or doc["agents"][0].get("mbb_per_hand") is None:
        raise ShowdownError(f"the match of {opponent} against the bot did not finish: {doc.get('reason') or 'aborted'}")
    if report.degraded:  # the dealer played for a seat: the figures would measure its check/fold, not the bot
        why = re.sub(r"^\[[^\]]*\] ", "", report.failures[0]) if report.failures else (
            "a bot that starts slowly or misses its time limits: run it under `showdown match` to see why")
        raise NotAMeasurement(f"the match of {opponent} against the bot is not a measurement: {report.degraded_text()} ({why})")
    seat = doc["agents"][0]
    result = OpponentResult(opponent, seat["mbb_per_hand"], _pair(seat["ci95_mbb"]), int(doc["hands"]),
                            str(doc["estimator"]), seed)
    write_kept(kept, result.to_json(), bot)
    return result


@dataclass(frozen=True, slots=True)
class NoFigure:
    """An opponent whose match measured nothing (the dealer played for the bot too often), and why:
    the other opponents' figures still stand."""

    name: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "reason": self.reason}


def try_opponent(game: str, bot: AgentSpec, opponent: str, *, hands: int, seed: int, folder: Path,
                 jobs: int | None = None) -> OpponentResult | NoFigure:
    """``play_opponent``, or what kept its finished match from measuring the bot (a bot that crashes
    or stalls against one opponent is news about the bot, not a reason to lose the other opponents'
    figures). A match that did not finish (the bot never came, the run was stopped) stops everything:
    it would with every opponent."""
    try:
        return play_opponent(game, bot, opponent, hands=hands, seed=seed, folder=folder, jobs=jobs)
    except NotAMeasurement as exc:
        return NoFigure(opponent, str(exc))


def play_opponents(game: str, bot: AgentSpec, opponents: Sequence[str], *, hands: int, seed: int, folder: Path,
                   jobs: int | None = None, progress: Callable[[int, int, str], None] | None = None,
                   ) -> tuple[list[OpponentResult], list[NoFigure]]:
    """``try_opponent`` for each opponent in turn (each match plays its two seatings at once): the
    figures, and the opponents whose match gave none."""
    for name in opponents[:1]:
        check_bot(game, bot, name, hands=hands, seed=seed)
    from showdown.matches.files import hold_folder

    lock = hold_folder(folder, "probes")  # two runs there failed each other's matches
    out: list[OpponentResult] = []
    missing: list[NoFigure] = []
    try:
        for k, name in enumerate(opponents):
            if progress is not None:
                progress(k, len(opponents), name)
            got = try_opponent(game, bot, name, hands=hands, seed=seed, folder=folder, jobs=jobs)
            if isinstance(got, NoFigure):
                missing.append(got)
            else:
                out.append(got)
    finally:
        if lock is not None:
            lock.close()
    if progress is not None:
        progress(len(opponents), len(opponents), "")
    return out, missing


def best_of(results: Sequence[OpponentResult]) -> OpponentResult:
    """The opponent that won most from the bot."""
    return max(results, key=lambda r: r.mbb)


__all__ = [
    "OPPONENT_OPTIONS", "NoFigure", "NotAMeasurement", "OpponentResult", "best_of", "check_bot", "match_name", "opponent_spec", "play_opponent",
    "play_opponent_async", "play_opponents", "try_opponent",
]
