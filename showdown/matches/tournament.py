"""Round-robin tournaments: every pair of agents (every seating of every three, in 3-player games),
a cross table, a ranking, ``results.json`` and each match's logs; re-running resumes.

```yaml
game: kuhn                 # catalog name or .game file
hands: 5000                # hands per match (per duplicate half)
duplicate: true            # play each deal with the seats moved too, and pair the results
seed: 1                    # each match's dealing seed derives from it and the match's name
jobs: 2                    # matches (halves) played at once; default: the number of cores
out: tournament-kuhn       # output directory (default: the YAML file's name without .yaml)
estimator: aivat           # optional: plain | duplicate | aivat (default: the best available per match)
agents:
  - equilibrium
  - {name: cfr, options: {iterations: 2000}}
  - {command: "./my_bot --fast", label: mybot}
dealer: {t_response_ms: 5000}   # optional, as in a match file
sandbox: true              # bots given as files, commands or module:Class run sandboxed (the default)
```

Validation happens before anything runs and names the file, the line and the key (``pyyaml`` node
marks); every built-in agent is built once then (which also solves and caches the equilibrium and CFR
strategies the agent processes will load).

Matches: for a 2-player game each unordered pair plays once (seats rotate; with ``duplicate`` the
two halves reverse the seats); for a 3-player game each set of three plays both cyclic seat orders
(with ``duplicate``, each in its three rotations: all six seatings). Every half is a separate
process (``parallel``); its logs go to ``out/matches/<match>/``. A finished half leaves a
``<half>.done.json`` holding its result and a fingerprint of its settings; a re-run skips halves
whose fingerprint still matches and whose log is there, and replays the rest from the start.

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
import hashlib
import io
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showdown.errors import ConfigError, ShowdownError
from showdown.evaluation.numbers import decimals_of, interval_text, signed
from showdown.evaluation.stats import EXACT_ZERO, Z95, Estimate
from showdown.matches.config import (
    AgentSpec,
    DealerSettings,
    MatchConfig,
    Where,
    check_out_folder,
    config_to_json,
    load_yaml,
    parse_settings,
)
from showdown.matches.parallel import ChildResult
from showdown.matches.seating import tournament_match_seed
from showdown.status import StatusLine

if TYPE_CHECKING:
    from showdown.evaluation.ratings import Ratings
    from showdown.matches.executors import Executor

__all__ = [
    "MatchOutcome",
    "PlannedMatch",
    "TournamentConfig",
    "TournamentResult",
    "combine",
    "cross_table",
    "format_tournament",
    "load_tournament_config",
    "parse_tournament_config",
    "plan_matches",
    "ranking",
    "run_tournament",
    "tournament_json",
]

_KEYS = ("game", "agents", "hands", "duplicate", "seed", "jobs", "out", "estimator", "dealer", "executor", "address", "sandbox")


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament file; ``labels`` are the agents' unique names (table rows)."""

    game: str
    agents: tuple[AgentSpec, ...]
    labels: tuple[str, ...]
    hands: int
    out: Path
    duplicate: bool = False
    seed: int = 0
    jobs: int | None = None
    estimator: str | None = None
    dealer: DealerSettings = field(default_factory=DealerSettings)
    executor: str | None = None  # local (default) | ray
    address: str | None = None  # the Ray cluster (None: Ray on this machine)
    source: str = "<tournament>"
    sandbox: bool = True  # bots given as files, commands or module:Class run sandboxed (built-ins never)


def _unique_labels(specs: Sequence[AgentSpec]) -> list[str]:
    from showdown.matches.seating import seat_labels

    return seat_labels(specs)


def parse_tournament_config(
    data: Any, at: Where, default_out: Path | None = None, base_dir: Path | None = None
) -> TournamentConfig:
    """Validate a parsed tournament document (see the module docstring); ``ConfigError`` with line."""
    given = parse_settings(data, at, _KEYS, base_dir)
    keys = {str(k).replace("-", "_"): k for k in data}
    for required in ("game", "agents", "hands"):
        if required not in given:
            raise ConfigError(f"{at()}: missing key {required!r} (a tournament needs game, agents and hands)")
    game_name, game = _tournament_game(given["game"], at, keys["game"])
    seed = given.get("seed", 0)
    duplicate = given.get("duplicate", False)
    estimator = given.get("estimator")
    if estimator is not None:
        _check_estimator(estimator, duplicate, game, at(keys["estimator"]))
    specs = given["agents"]
    labels = _tournament_labels(specs, game, at.sub(keys["agents"]))
    return TournamentConfig(
        executor=given.get("executor"),
        address=given.get("address"),
        game=game_name,
        agents=specs,
        labels=tuple(labels),
        hands=given["hands"],
        out=given.get("out", default_out if default_out is not None else Path("tournament")),
        duplicate=duplicate,
        seed=seed,
        jobs=given.get("jobs"),
        estimator=estimator,
        dealer=given.get("dealer", DealerSettings()),
        source=at.source,
        sandbox=given.get("sandbox", True),
    )


def _tournament_game(game_name: str, at: Where, key: Any) -> tuple[str, Any]:
    """The game named (a file beside the tournament file first), and that it can be served."""
    from showdown.games.catalog import get_game

    if not any(c in game_name for c in "/\\") and Path(at.source).parent.joinpath(game_name).is_file():
        game_name = str(Path(at.source).parent / game_name)
    try:
        game = get_game(game_name)
        game.require_servable()
    except ShowdownError as exc:
        raise ConfigError(f"{at(key)}: {exc}") from None
    return game_name, game


def _check_estimator(estimator: str, duplicate: bool, game: Any, where: str) -> None:
    if estimator == "duplicate" and not duplicate:
        raise ConfigError(f"{where}: the duplicate estimator needs 'duplicate: true'")
    if estimator == "aivat":
        from showdown.evaluation.aivat import supports

        why = supports(game)
        if why is not None:
            raise ConfigError(f"{where}: {why}")


def _tournament_labels(specs: Sequence[AgentSpec], game: Any, at: Where) -> list[str]:
    """The agents' labels, once there are enough agents, the labels differ and every agent builds."""
    n = game.num_players
    if len(specs) < n:
        raise ConfigError(f"{at()}: {game.name or 'the game'} is a {n}-player game: a tournament needs at least {n} agents, got {len(specs)}")
    labels = _unique_labels(specs)
    if len(set(labels)) != len(labels):
        raise ConfigError(f"{at()}: agent labels must differ, got {', '.join(labels)}")
    _check_agents(specs, game, at)
    return labels


def _check_agents(specs: Sequence[AgentSpec], game: Any, at: Where) -> None:
    """Build every built-in agent once: unknown names and bad options fail here, with the line."""
    from showdown.agents.registry import agent_names, is_known_agent, make_agent

    for i, spec in enumerate(specs):
        if spec.name is None:
            continue
        if not is_known_agent(spec.name):
            raise ConfigError(f"{at(i)}: unknown agent {spec.name!r}: known agents are {', '.join(agent_names())}")
        try:
            make_agent(spec.name, game, {**spec.options, "seed": spec.seed or 0})
        except ShowdownError as exc:
            raise ConfigError(f"{at(i)}: {exc}") from None


def load_tournament_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament YAML file (``ConfigError`` naming file, line and key)."""
    data, at = load_yaml(path, "tournament file")
    p = Path(path)
    return parse_tournament_config(data, at, default_out=Path(p.stem), base_dir=p.resolve().parent)


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
    from showdown.games.catalog import get_game
    from showdown.matches.duplicate import half_configs

    game = get_game(cfg.game)
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
            estimator="plain",
            force=True,  # an unfinished half is replayed from its first hand, over its own logs
            sandbox=cfg.sandbox,
        )
        if cfg.duplicate:
            halves = tuple(half_configs(base, [cfg.labels[i] for i in group], match_id, base.out or cfg.out))
        else:
            halves = (base,)
        out.append(PlannedMatch(match_id, group, seed, halves))
    return out


def _fingerprint(config: MatchConfig) -> str:
    from showdown.games.catalog import get_game
    from showdown.games.gamedef import format_gamedef

    doc = config_to_json(config)
    for volatile in ("out", "progress", "jobs", "executor", "address", "force"):
        doc.pop(volatile, None)
    doc["gamedef"] = format_gamedef(get_game(config.game))
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def _done_path(config: MatchConfig) -> Path:
    assert config.out is not None and config.name is not None
    return Path(config.out) / f"{config.name}.done.json"


def _finished(config: MatchConfig) -> ChildResult | None:
    """The stored result of a half if it finished with these very settings and its log is there."""
    path = _done_path(config)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if doc.get("fingerprint") != _fingerprint(config):
        return None
    try:
        result = ChildResult.from_json(doc["result"])
    except (KeyError, ValueError, AttributeError):
        return None
    if not result.jsonl or not Path(result.jsonl).is_file():
        return None
    return result


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


def ranking(table: Sequence[Sequence[Estimate | None]]) -> list[tuple[int, Estimate, Estimate, int, int]]:
    """Bankroll instant runoff, best first: ``(agent, mean vs the field, mean vs the agents left in
    the round it went out, that round, rank)``. Agents tied for the lowest mean go out together and
    share a rank; within a rank they keep the config order."""
    n = len(table)
    played = [any(e is not None and e.hands for e in table[i]) for i in range(n)]
    left = [i for i in range(n) if played[i]]
    field_mean = [
        combine([e for j, e in enumerate(table[i]) if j != i and e is not None], equal_weights=True) for i in range(n)
    ]
    rounds: list[list[tuple[int, Estimate, int]]] = []
    while left:
        scores = {
            i: combine([e for j in left if j != i and (e := table[i][j]) is not None], equal_weights=True) for i in left
        }
        lowest = scores[min(left, key=lambda i: scores[i].mean)]
        bb = max(1, lowest.big_blind)
        out = [i for i in left if _tied(scores[i], lowest, bb)]
        rounds.append([(i, scores[i], len(rounds) + 1) for i in out])
        left = [i for i in left if i not in out]
    ranked: list[tuple[int, Estimate, Estimate, int, int]] = []
    for group in reversed(rounds):
        rank = len(ranked) + 1
        for i, score, rnd in group:
            ranked.append((i, field_mean[i], score, rnd, rank))
    for i in range(n):  # no finished match yet: unranked (rank 0), last
        if not played[i]:
            ranked.append((i, field_mean[i], Estimate(0, 0.0, 0.0, None), 0, 0))
    return ranked


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
        return {"hands": e.hands, "per100": e.per100, "ci95": _pair(e.ci95), "se100": e.se100, "significant": _significant(e)}

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
    labels = r.config.labels
    n = len(labels)
    lines = [
        f"{r.config.game}: {len(r.outcomes)} of {r.matches_total} matches, {r.config.hands:,} hands each"
        + (" (duplicate)" if r.config.duplicate else "")
        + f", {r.elapsed:.0f} s",
    ]
    estimators = sorted({m.estimator + (" (exact)" if m.exact else "") for m in r.outcomes})
    if estimators:
        lines.append("estimators: " + ", ".join(estimators))
    lines.append("")
    lines.append("row agent against column agent, chips per 100 hands ± 95% interval (* the interval excludes zero)")
    head = [""] + list(labels)
    rows = [head]
    digits = decimals_of(e for i, row in enumerate(r.table) for j, e in enumerate(row) if i != j)
    for i in range(n):
        rows.append([labels[i]] + [("" if i == j else _cell(r.table[i][j], digits)) for j in range(n)])
    widths = [max(len(row[c]) for row in rows) for c in range(len(head))]
    for row in rows:
        lines.append("  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]).rstrip())
    lines.append("")
    lines.append(
        "ranking (bankroll instant runoff; 'vs field' is the mean against every other agent; "
        f"Elo: Bradley-Terry rating from blocks of {RATING_BLOCK} deals won against each other)"
    )
    rank_rows = [["", "agent", "vs field /100", "95% CI", "runoff /100", "round", "Elo", "Elo 95% CI"]]
    ranks = [row[4] for row in r.ranks]
    field_digits, runoff_digits = decimals_of(row[1] for row in r.ranks), decimals_of(row[2] for row in r.ranks)
    for i, fe, re_, rnd, rank in r.ranks:
        rank_rows.append(
            [
                "-" if rank == 0 else f"{rank}{'=' if ranks.count(rank) > 1 else '.'}",
                labels[i],
                signed(fe.per100, field_digits),
                interval_text(fe.ci95, field_digits),
                _cell(re_, runoff_digits).rstrip(" *") if re_.hands else "-",
                str(rnd),
                *_elo_cells(r.ratings, i),
            ]
        )
    widths = [max(len(row[c]) for row in rank_rows) for c in range(len(rank_rows[0]))]
    for row in rank_rows:
        lines.append("  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1])] + [c.rjust(w) for c, w in zip(row[2:], widths[2:])]).rstrip())
    for note in r.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


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
    plan = plan_estimator(game, specs, cfg.estimator, cfg.duplicate)
    a, table = analyze_planned(plan, [Path(r.jsonl or "") for r in results], labels, game, len(results))
    index = {lab: i for i, lab in enumerate(cfg.labels)}
    estimates = {index[name]: e for name, e in zip(a.names, a.agents)}
    plain = {index[name]: e for name, e in zip(a.names, a.plain_agents)}
    logs_out = [str(r.log) for r in results if r.log]
    wins = _block_wins(table, [index[name] for name in table.names])
    return MatchOutcome(
        match.id, match.agents, estimates, plain, a.estimator, a.hands, a.exact, logs_out, a.notes, wins
    )


RATING_BLOCK = 100
"""Hands per rated game: the Bradley-Terry ratings compare agents on blocks of this many consecutive
deals (both duplicate halves of a deal in the same block), won by whoever won more chips in them.
Single hands would reward winning many small pots (an always-bluffer wins most hands and loses
chips); a block's chip total follows the agents' chip rates, and still gives many games per match."""


RATING_PRIOR = 1.0
"""Virtual blocks won each way by every pair that met: a sweep gives a large, finite rating."""


def _block_wins(table: Any, agent_of_name: Sequence[int]) -> dict[tuple[int, int], int]:
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


def run_tournament(
    cfg: TournamentConfig,
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    stream: Any = None,
    install_signals: bool = True,
    executor: Executor | None = None,
) -> TournamentResult:
    """Play (or resume) the tournament and write ``results.json``; returns the results.

    ``executor`` plays the matches: the local process pool by default, or a Ray cluster."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        install_signals = False
    run = _TournamentRun(cfg, stream if stream is not None else sys.stderr, progress)
    states = run.play(jobs, executor, install_signals)
    return run.result(states)


class _TournamentRun:
    """One ``run_tournament`` call: the halves already played (resumed from their files), the
    ones to play, and what the executor reports as they run."""

    def __init__(self, cfg: TournamentConfig, stream: Any, progress: bool | None) -> None:
        self.cfg = cfg
        self.stream = stream
        self.matches = plan_matches(cfg)
        check_out_folder(cfg.out, "tournament")
        cfg.out.mkdir(parents=True, exist_ok=True)
        (cfg.out / "matches").mkdir(exist_ok=True)
        self.finished: dict[tuple[str, int], ChildResult] = {}
        self.todo: list[tuple[PlannedMatch, int]] = []
        for m in self.matches:
            for k, half in enumerate(m.halves):
                got = _finished(half)
                if got is not None:
                    self.finished[(m.id, k)] = got
                else:
                    self.todo.append((m, k))
        self.newly_done_matches = 0
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

    def play(self, jobs: int | None, executor: Executor | None, install_signals: bool) -> list[Any]:
        """Play the halves still to play; their final states."""
        import asyncio

        from showdown.matches.executors import make_executor
        from showdown.matches.parallel import Job, default_parallel

        out = self.cfg.out
        self.job_list = [
            Job(m.halves[k], Path(m.halves[k].out or out) / f"{m.halves[k].name}.result.json", label=f"{m.id}#{k}")
            for m, k in self.todo
        ]
        self.where = {id(j): (m, k) for j, (m, k) in zip(self.job_list, self.todo)}
        if not self.job_list:
            return []
        states = asyncio.run(
            (executor or make_executor(self.cfg.executor, self.cfg.address)).run(
                self.job_list,
                jobs or self.cfg.jobs or default_parallel(),
                on_tick=self.on_tick,
                on_done=self.on_done,
                on_line=self.on_line,
                on_interrupt=self.on_interrupt,
                install_signals=install_signals,
            )
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
        tmp.write_text(json.dumps({"fingerprint": _fingerprint(half), "result": r.to_json()}, indent=1), encoding="utf-8")
        os.replace(tmp, _done_path(half))
        self.finished[(m.id, k)] = r
        if all((m.id, j) in self.finished for j in range(len(m.halves))):
            self.newly_done_matches += 1
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
        from showdown.games.catalog import get_game

        cfg, matches = self.cfg, self.matches
        if self.ticker is not None:
            self.ticker.finish()
        notes = [f"{s.job.label}: {s.error}" for s in states if s.error is not None]
        outcomes = []
        game = get_game(cfg.game)
        for m in matches:
            results = [self.finished.get((m.id, k)) for k in range(len(m.halves))]
            if all(r is not None for r in results):
                outcomes.append(_outcome(m, results, cfg, game))  # type: ignore[arg-type]
        complete = len(outcomes) == len(matches)
        if not complete:
            notes.append(
                f"{len(matches) - len(outcomes)} of {len(matches)} matches are not finished: run the same command again to resume"
            )
        table = cross_table(outcomes, len(cfg.labels))
        result = TournamentResult(
            cfg, outcomes, table, ranking(table), len(matches), complete, time.monotonic() - self.started, len(self.todo), notes,
            ratings=hand_ratings(outcomes, len(cfg.labels)) if outcomes else None, stop_signal=self.stop_signal,
        )
        tmp = cfg.out / f"results.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(tournament_json(result), indent=2), encoding="utf-8")
        os.replace(tmp, cfg.out / "results.json")
        (cfg.out / "results.txt").write_text(format_tournament(result) + "\n", encoding="utf-8")
        return result


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
