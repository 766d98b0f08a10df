"""Exact all-in equity of the 169 preflop hand classes against each other, from our own evaluator.

For every ordered pair of hand classes ``(a, k)`` the table counts, over every ordered pair of
disjoint two-card combos ``h`` in ``a`` and ``g`` in ``k`` and every one of the C(48, 5) = 1,712,304
boards disjoint from both, how often ``h`` wins, ties and loses against ``g``. Card removal is exact:
``pairs[a, k]`` is the number of such combo pairs (its sum is 1326 x 1225).

How it is computed in about a minute on two idle cores, boards first:

* Boards are enumerated up to suit permutation: 134,459 classes of 5-card boards with weights
  (the size of each orbit; they sum to C(52, 5)). Every class pair count is invariant under suit
  permutations, so a board stands for its whole orbit.
* On a board every one of the 1081 compatible combos gets its 7-card value (``hand_values``); the
  combos are sorted by value and split into groups of equal value. With ``H[t, a]`` the number of
  class-``a`` combos in group ``t`` and ``C`` the running sum of ``H`` over the groups, the wins of
  ``a`` over ``k`` summed over *all* combo pairs (overlapping ones too) are ``sum_t H[t, a] (C[t-1, k])``
  and the ties ``sum_t H[t, a] H[t, k]``: a sparse ``H`` against a dense ``C``, a few tens of
  thousands of operations per board instead of 1081^2 comparisons.
* Pairs that share a card are taken out again by inclusion-exclusion. A pair sharing exactly the
  card ``c`` is ``({c, x}, {c, y})``; for each card ``c`` off the board the 46 combos holding it are
  sorted the same way, counted by partner type (rank of ``x``, suited with ``c`` or not: 26 types)
  and accumulated per rank of ``c``; a (rank, type) is a class, so the 13 x 26 x 26 result maps onto
  class pairs at the end. A combo paired with itself shares two cards, is counted twice there, and is
  a tie, which fixes the diagonal.
* Losses are wins transposed; ``win + tie + loss = pairs * 1712304`` is then a real check because
  ties are counted on their own.

The table ships as package data (``data/equity169.npz``, about 300 KB) with a SHA-256 of its
contents; ``equity_table()`` loads it, or else the copy in the cache directory, or else builds it
(progress on stderr) and caches it. ``showdown equity --build`` does the last step on demand.

The classes themselves are in ``hand_classes``, the per-board count in ``equity_boards``.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from showdown.cache import cache_dir
from showdown.solvers.equity_boards import BATCH_BOARDS, board_counts, canonical_boards
from showdown.solvers.hand_classes import CLASS_NAMES, NUM_CLASSES, NUM_COMBOS, EquityError, pair_counts
from showdown.solvers.npz import load_npz, read_errors
from showdown.workers import running_pool, terminate_as_exit

__all__ = [
    "BOARDS_PER_MATCHUP",
    "EQUITY_SHA256",
    "EquityTable",
    "build_equity_table",
    "cached_table_path",
    "equity_table",
    "load_equity_table",
    "packaged_table_path",
    "progress_printer",
    "save_equity_table",
]

BOARDS_PER_MATCHUP = math.comb(48, 5)
"""Boards dealt to one pair of disjoint hole-card combos: 1,712,304."""

TABLE_FORMAT = "showdown-equity169"
TABLE_VERSION = 1

EQUITY_SHA256 = "63257d743b862c13c617042cd7fae98cfb9e11f31607da3364c23f6bea64d5d9"
"""Digest (``EquityTable.digest``) of the exact table; the shipped file and every rebuild must match."""


# ---------------------------------------------------------------------------------------------
# the table


@dataclass(frozen=True)
class EquityTable:
    """Exact win/tie/loss counts of class ``a`` (row) against class ``k`` (column), over all boards."""

    win: np.ndarray
    tie: np.ndarray
    loss: np.ndarray
    pairs: np.ndarray

    @property
    def totals(self) -> np.ndarray:
        """Matchups counted per class pair: disjoint combo pairs times 1,712,304 boards."""
        return self.pairs * BOARDS_PER_MATCHUP

    def probabilities(self) -> np.ndarray:
        """Probability that Alice holds class ``a`` and Bob class ``k`` (sums to 1)."""
        return self.pairs / float(NUM_COMBOS * math.comb(50, 2))

    def net_equity(self) -> np.ndarray:
        """``P(win) - P(loss)`` of ``a`` against ``k`` given both hold those classes (0 where impossible)."""
        totals = self.totals.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (self.win - self.loss) / totals
        return np.where(totals > 0, out, 0.0)

    def fractions(self, a: int, k: int) -> tuple[float, float, float]:
        """``(win, tie, loss)`` probabilities of class ``a`` against ``k``."""
        total = int(self.totals[a, k])
        if total == 0:
            raise EquityError(f"{CLASS_NAMES[a]} cannot meet {CLASS_NAMES[k]}: they need the same cards")
        return (int(self.win[a, k]) / total, int(self.tie[a, k]) / total, int(self.loss[a, k]) / total)

    def digest(self) -> str:
        """SHA-256 of the four count arrays (int64, little-endian, row-major), in hex."""
        sha = hashlib.sha256(f"{TABLE_FORMAT}/{TABLE_VERSION}".encode())
        for array in (self.win, self.tie, self.loss, self.pairs):
            sha.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
        return sha.hexdigest()

    def check(self) -> None:
        """Raise ``EquityError`` unless the counts are consistent (shapes, totals, win/loss antisymmetry)."""
        for name in ("win", "tie", "loss", "pairs"):
            array = getattr(self, name)
            if array.shape != (NUM_CLASSES, NUM_CLASSES) or array.dtype != np.int64:
                raise EquityError(f"equity table: {name} should be a 169 x 169 int64 array")
        if not np.array_equal(self.pairs, pair_counts()):
            raise EquityError("equity table: pair counts differ from the exact combinatorics")
        if not np.array_equal(self.win + self.tie + self.loss, self.totals):
            raise EquityError("equity table: win + tie + loss differs from the number of matchups")
        if not np.array_equal(self.win, self.loss.T) or not np.array_equal(self.tie, self.tie.T):
            raise EquityError("equity table: wins are not the transposed losses")


def _chunks(order: np.ndarray, size: int) -> Iterator[np.ndarray]:
    for start in range(0, len(order), size):
        yield order[start : start + size]


def _work(task: tuple[np.ndarray, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
    boards, weights = task
    wins, ties = board_counts(boards, weights)
    return len(boards), wins, ties


def build_equity_table(
    *, processes: int | None = None, progress: Callable[[int, int], None] | None = None
) -> EquityTable:
    """Compute the exact table over all 134,459 suit-canonical boards (about a minute on 2 cores).

    ``processes`` defaults to the number of CPUs (at most 8); ``progress(done, total)`` is called
    with boards done so far.
    """
    boards, weights = canonical_boards()
    tasks = [(boards[idx], weights[idx]) for idx in _chunks(np.arange(len(boards)), 4 * BATCH_BOARDS)]
    workers = max(1, min(processes or os.cpu_count() or 1, 8))
    wins = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    ties = np.zeros_like(wins)
    done = 0
    if progress:
        progress(0, len(boards))
    # (a SIGTERM killed this process at once: its workers printed BrokenPipeError tracebacks, one lived on)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with terminate_as_exit(), running_pool(method, workers) if workers > 1 else contextlib.nullcontext() as pool:
        results: Iterator[tuple[int, np.ndarray, np.ndarray]] = pool.imap_unordered(_work, tasks) if pool else map(_work, tasks)
        for count, w, t in results:
            wins += w
            ties += t
            done += count
            if progress:
                progress(done, len(boards))
    table = EquityTable(win=wins, tie=ties, loss=wins.T.copy(), pairs=pair_counts().copy())
    table.check()
    return table


def save_equity_table(table: EquityTable, path: Path) -> None:
    """Write the table as compressed ``.npz`` with its format, version and SHA-256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(partial, "wb") as handle:
        np.savez_compressed(
            handle,
            format=np.array(TABLE_FORMAT),
            version=np.array(TABLE_VERSION),
            sha256=np.array(table.digest()),
            win=table.win,
            tie=table.tie,
            loss=table.loss,
            pairs=table.pairs,
        )
    os.replace(partial, path)


def load_equity_table(path: Path) -> EquityTable:
    """Read and verify a table file (format, SHA-256 of the contents, consistency); ``EquityError`` if bad."""
    try:
        with load_npz(path) as data:
            if str(data["format"]) != TABLE_FORMAT or int(data["version"]) != TABLE_VERSION:
                raise EquityError(f"{path}: not a version-{TABLE_VERSION} {TABLE_FORMAT} file")
            stored = str(data["sha256"])
            table = EquityTable(
                **{name: np.asarray(data[name], dtype=np.int64) for name in ("win", "tie", "loss", "pairs")}
            )
    except read_errors() as exc:
        raise EquityError(f"{path}: cannot read the equity table ({exc})") from None
    if table.digest() != stored:
        raise EquityError(
            f"{path}: checksum mismatch, the file is damaged; rebuild with 'showdown equity --build --force'"
        )
    try:
        table.check()
    except EquityError as exc:
        raise EquityError(f"{path}: {exc}") from None
    return table


def packaged_table_path() -> Path:
    """Where the shipped table lives: ``showdown/solvers/data/equity169.npz``."""
    return Path(__file__).resolve().parent / "data" / "equity169.npz"


def cached_table_path() -> Path:
    """Where a built table is cached: ``<cache>/equity/equity169-v1.npz``."""
    return cache_dir("equity") / f"equity169-v{TABLE_VERSION}.npz"


def progress_printer(stream: IO[str]) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback for the build: one line rewritten in place on a terminal,
    a line every 10% otherwise (logs stay short)."""
    start = time.perf_counter()
    interactive = bool(getattr(stream, "isatty", lambda: False)())
    last = [-1]

    def show(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        step = 1 if interactive else 10
        if percent // step == last[0] // step and done < total:
            return
        last[0] = percent
        elapsed = time.perf_counter() - start
        text = f"building the exact equity table: {percent:3d}% ({done:,} of {total:,} boards, {elapsed:.0f} s)"
        if interactive:
            print("\r" + text, end="\n" if done >= total else "", file=stream, flush=True)
        else:
            print(text, file=stream, flush=True)

    return show


_LOADED: dict[str, EquityTable] = {}


def equity_table(*, build: bool = True, stream: IO[str] | None = None) -> EquityTable:
    """The exact table: the shipped file, else the cached one, else built now and cached.

    A damaged file is skipped with a one-line note on ``stream`` (default stderr), which also gets
    the build progress. With ``build=False`` a missing table raises ``EquityError``.
    """
    if "table" in _LOADED:
        return _LOADED["table"]
    out = sys.stderr if stream is None else stream
    for path in (packaged_table_path(), cached_table_path()):
        if path.exists():
            try:
                _LOADED["table"] = load_equity_table(path)
                return _LOADED["table"]
            except EquityError as exc:
                print(f"note: skipping {exc}", file=out)
    if not build:
        raise EquityError("no equity table found: build it with 'showdown equity --build'")
    table = build_equity_table(progress=progress_printer(out))
    save_equity_table(table, cached_table_path())
    _LOADED["table"] = table
    return table
