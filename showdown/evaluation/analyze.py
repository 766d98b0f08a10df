"""Win rates from played hands: plain, duplicate-paired and AIVAT estimates, from a match or from logs.

The one place where hands become statistics, whatever their source: ``showdown match`` (hands as
the dealer finishes them), ``--duplicate`` and tournaments (the halves' JSON Lines logs) and
``showdown analyze`` (ACPC ``.log`` files, ours or the reference dealer's, and our ``.jsonl`` files).

* ``HandCollector`` gathers hands as compact columns (by player name: the same name in several logs
  or duplicate halves is the same player); ``read_logs`` fills one from files.
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

import json
import math
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from showdown.errors import GameDefError, ProtocolError, ShowdownError
from showdown.evaluation.estimators import ESTIMATORS
from showdown.evaluation.numbers import decimals_of, gain_text, interval_text, signed
from showdown.evaluation.stats import Difference, Estimate, MatchStats, Welford, sample_estimate, two_sided_p, variance_ratio
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.protocol.logfile import HandRecord, LoggedHand, MatchSummary, Score, parse_header_line, read_records

__all__ = [
    "ESTIMATORS",
    "Analysis",
    "HandCollector",
    "AivatAccumulator",
    "HandTable",
    "EstimatorPlan",
    "LogSet",
    "analyze",
    "plain_analysis",
    "plan_estimator",
    "analysis_json",
    "format_analysis",
    "read_logs",
]



# ---------------------------------------------------------------------- hands as columns


@dataclass
class HandTable:
    """Many hands as arrays: ``seats[h, p]`` indexes ``names`` (who sat at position p),
    ``values[h, p]`` what position p won, ``half[h]`` which duplicate half (or file) the hand came
    from, ``number[h]`` its hand number, ``replaced[h, p]`` the dealer played for position p."""

    names: tuple[str, ...]
    num_positions: int
    seats: np.ndarray
    values: np.ndarray
    number: np.ndarray
    half: np.ndarray
    replaced: np.ndarray
    codes: Any = None  # aivat.DealCodes when an encoder was given
    chance: np.ndarray | None = None  # values less the luck of the cards, when a corrector was given

    @property
    def hands(self) -> int:
        return int(self.values.shape[0])

    def totals(self) -> list[float]:
        """Chips won by each player (exact for chip values: sums of integers)."""
        out = []
        for s in range(len(self.names)):
            mask = self.seats == s
            out.append(math.fsum(self.values[mask].tolist()))
        return out


class HandCollector:
    """Collects finished hands into a ``HandTable``; memory is a few numbers per hand (about 50 bytes
    for two players: what duplicate pairing and log analysis need). A plain match's AIVAT estimate is
    accumulated in bounded memory by ``AivatAccumulator`` instead.

    ``encoder`` (an ``AivatEstimator``) also records where each hand sits in the game's tree, for
    the AIVAT estimate; a hand it cannot place raises ``AivatError``.
    """

    def __init__(
        self, names: Sequence[str] = (), num_positions: int | None = None, encoder: Any = None, corrector: Any = None
    ) -> None:
        self._index: dict[str, int] = {}
        self.names: list[str] = []
        for n in names:
            self._name(n)
        self.num_positions = num_positions
        self.encoder = encoder
        self.corrector = corrector  # an evaluation.chance.ChanceCorrector, or None
        self._chance = array("d")
        self._seats = array("i")
        self._values = array("d")
        self._number = array("q")
        self._half = array("i")
        self._replaced = array("b")
        self._codes: list[array[int]] = [array("i") for _ in range(4)]

    def _name(self, name: str) -> int:
        i = self._index.get(name)
        if i is None:
            i = self._index[name] = len(self.names)
            self.names.append(name)
        return i

    def __len__(self) -> int:
        return len(self._number)

    def add(
        self,
        number: int,
        players: Sequence[str],
        values: Sequence[float],
        *,
        half: int = 0,
        hole: Sequence[Sequence[int]] = (),
        board: Sequence[Sequence[int]] = (),
        betting: str = "",
        replaced: Sequence[bool] | None = None,
    ) -> None:
        """One hand: ``players[p]`` (a name) sat at position p and won ``values[p]``."""
        n = len(players)
        if self.num_positions is None:
            self.num_positions = n
        elif n != self.num_positions:
            raise ProtocolError(f"hand {number} has {n} players where earlier hands had {self.num_positions}")
        if self.encoder is not None:
            codes = self.encoder.encode(hole, board, betting)
            for column, c in zip(self._codes, codes):
                column.append(c)
        if self.corrector is not None:
            luck = self.corrector.corrections(hole, board, betting)
            for p in range(n):
                self._chance.append(float(values[p]) - luck[p])
        for p in range(n):
            self._seats.append(self._name(players[p]))
            self._values.append(float(values[p]))
            self._replaced.append(bool(replaced[p]) if replaced is not None else False)
        self._number.append(number)
        self._half.append(half)

    def add_record(self, record: HandRecord, half: int = 0) -> None:
        """A JSON Lines hand record (the match runner's ``on_hand``)."""
        from showdown.evaluation.aivat import REPLACING_EVENTS
        from showdown.protocol.events import seats_with

        replaced = None
        if record.events:
            hit = seats_with(record.events, REPLACING_EVENTS)
            replaced = [s in hit for s in record.seats]
        self.add(
            record.hand,
            record.players,
            record.values,
            half=half,
            hole=record.hole,
            board=record.board,
            betting=record.betting,
            replaced=replaced,
        )

    def add_logged(self, hand: LoggedHand, half: int = 0) -> None:
        """A STATE line of an ACPC log."""
        self.add(hand.hand, hand.names, hand.values, half=half, hole=hand.hole, board=hand.board, betting=hand.betting_text)

    def table(self) -> HandTable:
        p = self.num_positions or 0
        h = len(self._number)
        codes = None
        if self.encoder is not None:
            from showdown.evaluation.aivat import DealCodes

            cols = [np.frombuffer(c, dtype=np.int32).astype(np.int64) if len(c) else np.zeros(0, np.int64) for c in self._codes]
            codes = DealCodes(*cols)
        return HandTable(
            names=tuple(self.names),
            num_positions=p,
            seats=_np(self._seats, np.int32, np.int64).reshape(h, p),
            values=_np(self._values, np.float64, np.float64).reshape(h, p),
            number=_np(self._number, np.int64, np.int64),
            half=_np(self._half, np.int32, np.int64),
            replaced=_np(self._replaced, np.int8, np.int8).astype(bool).reshape(h, p),
            codes=codes,
            chance=_np(self._chance, np.float64, np.float64).reshape(h, p) if self.corrector is not None else None,
        )


def _np(a: array[Any], src: Any, dst: Any) -> np.ndarray:
    if not len(a):
        return np.zeros(0, dtype=dst)
    return np.frombuffer(a, dtype=src).astype(dst)


# ---------------------------------------------------------------------- reading logs


@dataclass
class LogSet:
    """Hands read from log files, with what their headers and score lines said."""

    table: HandTable
    game: GameDef | None
    scores: list[tuple[Path, Score]]  # files that had a SCORE line (or a JSONL summary's totals)
    files: list[Path]
    notes: list[str] = field(default_factory=list)  # torn tails, files of the same match left out


def _is_jsonl(path: Path) -> bool:
    if path.suffix == ".jsonl":
        return True
    if path.suffix == ".log":
        return False
    with path.open("r", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.strip():
                return line.lstrip().startswith("{")
    return False


def _iter_file(path: Path, torn: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """The file's lines with their numbers. A last line with no line end is what a crash leaves
    mid-write: it is not read (even if it would parse, it may be cut short), and ``torn`` says so."""
    try:
        f = path.open("r", encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ShowdownError(f"cannot read log {path}: {exc.strerror or exc}") from None
    with f:
        for number, line in enumerate(f, start=1):
            if not line.endswith("\n"):
                if torn is not None and line.strip():
                    torn.append(
                        f"{path}:{number}: the last line is cut off (the writer stopped mid-line); "
                        f"the {number - 1} complete lines before it were read"
                    )
                return
            yield number, line


def _game_of_file(path: Path) -> str | None:
    """The game a log names: the ACPC header's game file, or a JSON record's ``game``."""
    for _, line in _iter_file(path):
        if line.startswith("#"):
            header = parse_header_line(line)
            if header is not None:
                return header.game
        elif line.strip().startswith("{"):
            try:
                return str(json.loads(line).get("game") or "") or None
            except ValueError:
                return None
        elif line.strip():
            return None
    return None


def resolve_log_game(game_name: str, log_path: Path) -> GameDef:
    """The game a log header names: a path next to the log, a catalog name or a reference file name."""
    beside = log_path.parent / game_name
    if beside.is_file():
        return get_game(str(beside))
    try:
        return get_game(game_name)
    except GameDefError as exc:
        raise GameDefError(
            f"{log_path}: the header names game {game_name!r}, which is neither a catalog game nor a file "
            f"next to the log ({exc}); pass --game GAME"
        ) from None


def _resolve_game(label: str, path: Path) -> GameDef | None:
    try:
        return resolve_log_game(label, path)
    except ShowdownError:
        return None


def read_logs(
    paths: Sequence[str | Path],
    *,
    game: GameDef | None = None,
    encoder_for: Any = None,
    halves: bool = True,
    chance: bool = False,
) -> LogSet:
    """Read ACPC ``.log`` and JSON Lines ``.jsonl`` files into one ``HandTable``.

    The game comes from ``game`` or the first file's header (None when it cannot be resolved: the
    figures are then in chips only). ``encoder_for(game)`` may return an ``AivatEstimator`` to place
    the hands in the game's tree. Each file is its own ``half`` (for duplicate pairing) when
    ``halves``. Errors name the file and line.
    """
    files = [Path(p) for p in paths]
    if not files:
        raise ShowdownError("no log files given")
    for p in files:
        if not p.is_file():
            raise ShowdownError(f"no such log file: {p}")
    notes: list[str] = []
    files = _only_logs(files, notes)
    files = _one_file_per_match(files, notes)
    labels = [_game_of_file(p) for p in files]
    if game is None:
        game = _resolve_game(labels[0], files[0]) if labels[0] else None
    _check_one_game(files, labels, game)
    encoder = encoder_for(game) if (encoder_for is not None and game is not None) else None
    corrector = None
    if chance and game is not None:
        from showdown.evaluation.chance import ChanceCorrector, supports

        if supports(game) is None:
            corrector = ChanceCorrector(game)
    collector = HandCollector(encoder=encoder, corrector=corrector)
    scores: list[tuple[Path, Score]] = []
    for k, path in enumerate(files):
        half = k if halves else 0
        if _is_jsonl(path):
            score = _read_jsonl(path, collector, half, notes)
        else:
            score = _read_acpc(path, collector, half, notes)
        if score is not None:
            scores.append((path, score))
    return LogSet(collector.table(), game, scores, files, notes)


NOT_LOGS = (".match.json", ".result.json", ".stderr", ".game", ".yaml", ".png")
"""What ``showdown match`` writes beside its logs: ``analyze out/*`` passes over these."""


def _only_logs(files: list[Path], notes: list[str]) -> list[Path]:
    kept = [p for p in files if not p.name.endswith(NOT_LOGS)]
    skipped = len(files) - len(kept)
    if skipped:
        notes.append(f"{skipped} file(s) beside the logs (match settings, results, bot output) were passed over")
    if not kept:
        raise ShowdownError("no log files among " + ", ".join(str(p) for p in files[:3]) + (" ..." if len(files) > 3 else ""))
    return kept


def _one_file_per_match(files: list[Path], notes: list[str]) -> list[Path]:
    """``X.log`` and ``X.jsonl`` are the same match written twice: keep the JSON Lines one (it has
    the dealer's events), so that ``analyze out/*`` counts each match once."""
    given = {p.resolve() for p in files}
    kept: list[Path] = []
    for p in files:
        twin = p.with_suffix(".jsonl")
        if p.suffix == ".log" and twin.resolve() in given:
            notes.append(f"{p} and {twin} are the same match: read {twin.name} only")
            continue
        if p.resolve() in {k.resolve() for k in kept}:
            continue
        kept.append(p)
    return kept


def _check_one_game(files: list[Path], labels: list[str | None], game: GameDef | None) -> None:
    """Logs of different games cannot be pooled: one line naming the first file that differs."""
    first = labels[0]
    for path, label in zip(files[1:], labels[1:]):
        if label == first or label is None or first is None:
            continue
        other = _resolve_game(label, path)
        if game is not None and other is not None and other == game:
            continue
        raise ShowdownError(
            f"{path} is a log of {label!r} but {files[0]} is one of {first!r}: analyze the games separately"
        )


def _read_acpc(path: Path, collector: HandCollector, half: int, notes: list[str] | None = None) -> Score | None:
    return _read_log_file(path, collector, half, notes, jsonl=False)


def _read_jsonl(path: Path, collector: HandCollector, half: int, notes: list[str] | None = None) -> Score | None:
    return _read_log_file(path, collector, half, notes, jsonl=True)


def _read_log_file(path: Path, collector: HandCollector, half: int, notes: list[str] | None, *, jsonl: bool) -> Score | None:
    """The hands of one ``.log`` or ``.jsonl`` file into ``collector`` (``protocol.logfile.read_records``,
    streamed); the match's total if the file has one (its SCORE line or summary record)."""
    score: Score | None = None
    lines = (line for _, line in _iter_file(path, notes))
    for number, record in read_records(lines, source=str(path), jsonl=jsonl):
        try:
            if isinstance(record, HandRecord):
                collector.add_record(record, half)
            elif isinstance(record, LoggedHand):
                collector.add_logged(record, half)
            elif isinstance(record, Score):
                score = record
            elif isinstance(record, MatchSummary):
                score = record.score or score
        except ShowdownError as exc:
            raise ShowdownError(f"{path}:{number}: {exc}") from None
    return score


# ---------------------------------------------------------------------- estimates


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


def _stats(table: HandTable, values: np.ndarray, big_blind: int) -> MatchStats:
    stats = MatchStats(table.names, big_blind, table.num_positions)
    stats.add_many(table.seats, values)
    return stats


def _paired(
    table: HandTable, values: np.ndarray, big_blind: int
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
        notes.append(f"{unpaired} hands without a partner in every half are left out of the paired estimate")
    keep = complete[idx]
    unit_of = np.cumsum(complete) - 1  # unit index per hand number
    unit = unit_of[idx[keep]]
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
        e = sample_estimate(means[s][played], big_blind)
        hands = int(per_deal.sum())
        agents.append(Estimate(hands, float(sums[s][played].sum()), e.mean, e.se, big_blind))
    diffs = []
    for a in range(n):
        for b in range(a + 1, n):
            both = (counts[a] > 0) & (counts[b] > 0)
            d = means[a][both] - means[b][both]
            e = sample_estimate(d, big_blind)
            hands = int(counts[a][both].sum())
            diffs.append(Difference(table.names[a], table.names[b], Estimate(hands, e.mean * hands, e.mean, e.se, big_blind)))
    positions = []
    for p in range(table.num_positions):
        pos_sums = np.zeros(units)
        np.add.at(pos_sums, unit, vals[:, p])
        e = sample_estimate(pos_sums / k, big_blind)
        positions.append(Estimate(units * k, float(vals[:, p].sum()), e.mean, e.se, big_blind))
    return agents, diffs, positions, units, notes


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
    chosen = plain if values is table.values else _stats(table, values, big_blind)
    positions, plain_positions = chosen.positions(), plain.positions()
    if pair and halves > 1:
        agents, diffs, positions, deals, more = _paired(table, values, big_blind)
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
    if consistency_p is not None and consistency_p < CONSISTENCY_ALARM:
        notes.append(
            f"the chips won disagree with the known strategies (p = {consistency_p:.2g}): the AIVAT "
            "figures assume the agents play them; check the agents, or use --estimator plain"
        )
    known = tuple(n for n, k in zip(table.names, result.known) if k)
    notes += [_note_names(note, table.names) for note in result.notes]
    replaced = int(table.replaced.any(axis=1).sum())
    if replaced:
        notes.append(f"{replaced} hands had actions played by the dealer: those seats count as unknown there")
    return values, consistency_p, bool(result.exact), known


CONSISTENCY_ALARM = 1e-3
"""Below this p-value the chips won are taken to contradict the strategies AIVAT was told about."""


def _consistency(corrections: np.ndarray) -> float | None:
    """p-value of "the AIVAT corrections have mean 0", which holds when the known strategies are
    really played (each correction has expectation 0); a small value means they are not."""
    n = len(corrections)
    if n < 2:
        return None
    sd = float(corrections.std(ddof=1))
    mean = float(corrections.mean())
    if sd == 0.0:
        return 1.0 if mean == 0.0 else 0.0
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


def _consistency_welford(w: Welford) -> float | None:
    """``_consistency`` from running statistics of the corrections."""
    if w.n < 2:
        return None
    var = w.variance
    assert var is not None
    sd = math.sqrt(max(var, 0.0))
    if sd == 0.0:
        return 1.0 if w.mean == 0.0 else 0.0
    return two_sided_p(w.mean / (sd / math.sqrt(w.n)))


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

        known, aivat_notes, _ = choose_known(
            declared,
            lambda k: self._bad[pad(k)],
            lambda k: self.estimator.fit_counts(self._counts, k),
        )
        k = pad(known)
        chosen = self._stats[k]
        notes: list[str] = []
        consistency_p = _consistency_welford(self._corrections[k])
        if consistency_p is not None and consistency_p < CONSISTENCY_ALARM:
            notes.append(
                f"the chips won disagree with the known strategies (p = {consistency_p:.2g}): the AIVAT "
                "figures assume the agents play them; check the agents, or use --estimator plain"
            )
        notes += [_note_names(note, self.names) for note in aivat_notes]
        if self._replaced:
            notes.append(f"{self._replaced} hands had actions played by the dealer: those seats count as unknown there")
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
            exact=bool(self.hands) and self._exact[k],
            known=tuple(n for n, x in zip(self.names, known) if x),
            notes=notes,
            consistency_p=consistency_p,
        )


def _note_names(note: str, names: Sequence[str]) -> str:
    """``seat 2 ...`` -> ``bob ...`` in AIVAT notes (its seats are the table's players)."""
    if note.startswith("seat "):
        head, _, rest = note[5:].partition(" ")
        if head.isdigit() and 0 < int(head) <= len(names):
            return f"{names[int(head) - 1]} {rest}"
    return note


@dataclass
class EstimatorPlan:
    """The estimator a match will be analysed with, decided before it starts.

    ``aivat`` holds the ``AivatEstimator`` (strategies by seat) when the estimator is ``aivat``.
    """

    estimator: str
    aivat: Any = None
    notes: list[str] = field(default_factory=list)
    reason: str = ""  # why this one: said on the estimator line


def plan_estimator(game: GameDef, specs: Sequence[Any], requested: str | None, duplicate: bool) -> EstimatorPlan:
    """Choose the estimator: ``requested``, or the best available when None.

    Best: ``aivat`` when the game allows it and at least one agent's strategy is known (built-in
    agents with a fixed table, see ``aivat.known_strategy``), else ``chance`` (the cards' luck taken
    out, ``evaluation.chance``; paired too when the deals are played in duplicate) for 2-player games,
    else ``duplicate`` when the deals are played in duplicate, else ``plain``. An explicit ``aivat`` the game does not allow is a
    ``ConfigError``; an explicit ``aivat`` with no strategy known corrects chance only (noted).
    """
    from showdown.errors import ConfigError
    from showdown.evaluation.aivat import AivatEstimator, known_strategies, supports

    if requested == "duplicate" and not duplicate:
        raise ConfigError("the duplicate estimator needs the match played in duplicate (--duplicate)")
    from showdown.evaluation.chance import supports as chance_supports

    paired = "; the deals are paired" if duplicate else ""
    chance_why = chance_supports(game)
    if requested == "chance":
        if chance_why is not None:
            raise ConfigError(f"--estimator chance: {chance_why}")
        return EstimatorPlan("chance", reason="as requested")
    if chance_why is None:
        fallback = "chance"
        chance_reason = ("the cards' luck is taken out by all-in equity (chance-only corrections, unbiased "
                         f"whatever the strategies){paired}")
    else:
        fallback = "duplicate" if duplicate else "plain"
        chance_reason = chance_why
    if requested in ("plain", "duplicate"):
        return EstimatorPlan(requested, reason="as requested")
    why = supports(game)
    if why is not None:
        if requested == "aivat":
            raise ConfigError(f"--estimator aivat: {why}")
        return EstimatorPlan(fallback, reason=f"AIVAT does not apply ({why.split(': ')[0]}); {chance_reason}")
    strategies, unknown = known_strategies(specs, game)
    if not any(s is not None for s in strategies) and requested is None:
        return EstimatorPlan(fallback, reason=f"no agent's strategy is known; {chance_reason}")
    notes = [f"strategy not used for {n}" for n in unknown] if any(s is not None for s in strategies) else [
        "no agent's strategy is known: AIVAT corrects for chance only"
    ]
    reason = "as requested" if requested == "aivat" else "the best available: a strategy is known"
    return EstimatorPlan("aivat", AivatEstimator(game, strategies), notes, reason)


def analyze_planned(
    plan: EstimatorPlan, logs: Sequence[Path], labels: Sequence[str], game: GameDef, halves: int
) -> tuple[Analysis, HandTable]:
    """One match's figures from its logs (``halves`` of them played: paired when two) under the
    estimator ``plan`` chose before it started, AIVAT given each agent's strategy by its label; the
    plan's notes come first. Also the table of hands read."""
    encoder_for = (lambda g: plan.aivat) if plan.estimator == "aivat" else None
    table = read_logs(logs, game=game, encoder_for=encoder_for, chance=plan.estimator == "chance").table
    if plan.aivat is not None:
        # strategies by the table's player order (names as they first appear in the logs)
        by_label = dict(zip(labels, plan.aivat.strategies))
        plan.aivat.set_strategies([by_label.get(name) for name in table.names])
    estimator = "plain" if plan.estimator == "duplicate" and halves < 2 else plan.estimator
    analysis = analyze(
        table, estimator=estimator, big_blind=game.big_blind, show_mbb=len(set(game.blind)) > 1, aivat=plan.aivat,
        pair=halves > 1,
    )
    analysis.notes = plan.notes + analysis.notes
    analysis.reason = plan.reason
    return analysis, table


# ---------------------------------------------------------------------- output


def _pair(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


def _reduction_json(x: float | None) -> float | str | None:
    if x is None:
        return None
    return "exact" if math.isinf(x) else x


def analysis_json(a: Analysis) -> dict[str, Any]:
    """``{"players": [...], "positions": [...], ...}``: each with hands, total, per100 and ci95."""

    def row(e: Estimate, plain: Estimate, reduction: float | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hands": e.hands,
            "per100": e.per100,
            "ci95": _pair(e.ci95),
            "se100": e.se100,
        }
        if a.show_mbb:
            out["mbb_per_hand"] = e.mbb
            out["ci95_mbb"] = _pair(e.ci95_mbb)
        if a.estimator != "plain" or a.paired:
            out["plain"] = {"per100": plain.per100, "ci95": _pair(plain.ci95)}
            out["variance_reduction"] = _reduction_json(reduction)
        return out

    players = []
    for i, name in enumerate(a.names):
        players.append({"name": name, "total": a.totals[i], **row(a.agents[i], a.plain_agents[i], a.agent_reduction(i))})
    positions = []
    for p, e in enumerate(a.positions):
        positions.append({"position": p, "total": e.total, **row(e, a.plain_positions[p], a.position_reduction(p))})
    diffs = []
    for k, d in enumerate(a.differences):
        item = d.as_json()
        if a.estimator != "plain" or a.paired:
            item["variance_reduction"] = _reduction_json(a.difference_reduction(k))
        diffs.append(item)
    return {
        "hands": a.hands,
        "estimator": a.estimator,
        "paired": a.paired,
        "deals": a.deals if a.paired else None,
        "exact": a.exact,
        "known_strategies": list(a.known),
        "consistency_p": a.consistency_p,
        "big_blind": a.big_blind,
        "players": players,
        "positions": positions,
        "differences": diffs,
        "notes": list(a.notes),
    }


def estimator_line(a: Analysis) -> str:
    """One line saying how the figures were estimated."""
    why = f" ({a.reason})" if a.reason else ""
    if a.estimator == "plain" and not a.paired:
        return f"estimator: plain{why or ' (each hand' + chr(39) + 's chips; variance stratified by position)'}"
    parts = [f"estimator: {a.estimator}{why}"]
    if a.estimator == "aivat":
        known = ", ".join(a.known) if a.known else "none (chance corrected only)"
        parts.append(f"strategies known: {known}")
        if a.exact:
            parts.append("every strategy known: the exact expected value, no sampling error")
    if a.paired:
        parts.append(f"paired over {a.deals:,} duplicate deals")
    return "; ".join(parts)


def format_rows(a: Analysis, totals: Sequence[float] | None = None, label: str = "") -> list[str]:
    """The table rows: one per player, a blank line, one per position, then the differences."""
    compare = a.estimator != "plain" or a.paired
    head = ["", "total", "chips/100", "95% CI"]
    if a.show_mbb:
        head += ["mbb/hand", "95% CI (mbb)"]
    if compare:
        head += ["plain chips/100", "plain 95% CI", "gain"]
    rows: list[list[str]] = [head]
    tot = list(totals) if totals is not None else a.totals
    shown = [*a.agents, *a.positions, *(d.estimate for d in a.differences)]
    digits, mbb_digits = decimals_of(shown), decimals_of(shown, least=1, mbb=True)
    plain_digits = decimals_of([*a.plain_agents, *a.plain_positions])

    def cells(name: str, total: float, e: Estimate, plain: Estimate, gain: float | None) -> list[str]:
        row = [name, signed(total, 1 if total != int(total) else 0), signed(e.per100, digits), interval_text(e.ci95, digits)]
        if a.show_mbb:
            row += [signed(e.mbb, mbb_digits), interval_text(e.ci95_mbb, mbb_digits)]
        if compare:
            row += [signed(plain.per100, plain_digits), interval_text(plain.ci95, plain_digits), gain_text(gain)]
        return row

    for i, name in enumerate(a.names):
        rows.append(cells(name, tot[i], a.agents[i], a.plain_agents[i], a.agent_reduction(i)))
    for p, e in enumerate(a.positions):
        rows.append(cells(f"position {p}", a.plain_positions[p].total, e, a.plain_positions[p], a.position_reduction(p)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for i, row in enumerate(rows):
        cells_ = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells_).rstrip())
        if i == len(a.names):
            lines.append("")
    if a.differences:
        lines.append("")
        for d in a.differences:
            pv = d.p_value
            ptext = "p n/a" if pv is None else (f"p = {pv:.3g}" if pv >= 1e-4 else "p < 0.0001")
            lines.append(f"{d.a} - {d.b}: {signed(d.estimate.per100, digits)}/100 {interval_text(d.estimate.ci95, digits)}, {ptext}")
    return lines


def format_analysis(a: Analysis, title: str = "") -> str:
    """The human-readable analysis: what was estimated how, the table, and any notes."""
    lines = []
    if title:
        lines.append(title)
    lines.append(estimator_line(a))
    lines += format_rows(a)
    lines += [f"note: {n}" for n in a.notes]
    return "\n".join(lines)
