"""Hold'em card abstraction: 169 preflop classes, then hand-strength percentile buckets per street.

* Preflop: the 169 lossless classes (``showdown.solvers.equity``).
* Flop: expected hand strength squared, E[HS^2], over every turn and river (Johanson's "E[HS^2]",
  which rewards potential over plain expected strength). Computed exactly for the 1,755 flops that
  differ up to suits (suit isomorphism: a flop and a holding are mapped by the suit permutation that
  makes the flop canonical), so isomorphic hands share buckets by construction. The table (1,755 x
  1,326 values as 16-bit fixed point) ships with the package and ``build_flop_table`` rebuilds it.
* Turn: E[HS^2] over the 48 rivers, computed when needed (a few ms for all holdings of a board).
* River: hand strength HS (share of the opponent's holdings beaten, ties half).

Buckets are percentiles: a street's value is cut at its quantiles over random deals (the flop's
from the exact table, weighted by how many flops each canonical flop stands for; turn and river from a
seeded sample), stored as a 1,001-point quantile table so any bucket count is a lookup.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import IO, Any

import numpy as np

from showdown.errors import ConfigError, SolverError
from showdown.games.cards import Card
from showdown.games.evaluate import compiled_preferred, hand_values, values_on_boards
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.solvers import kernel_loader
from showdown.solvers.hand_classes import combo_classes
from showdown.solvers.holdings import Holdings, holdings_of
from showdown.solvers.npz import load_npz, read_errors
from showdown.workers import running_pool, terminate_as_exit

TABLE_FORMAT = "showdown-flop-ehs2"
DEFAULT_BUCKETS = (169, 50, 50, 50)
QUANTILE_POINTS = 1001
SAMPLE_SEED = 20261124
SAMPLE_TURNS = 300
SAMPLE_RIVERS = 3000
_DECK = tuple(range(52))
_PERMS = tuple(itertools.permutations(range(4)))


# ---------------------------------------------------------------------- suit isomorphism


def _permute(cards: tuple[int, ...], perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple((c & ~3) | perm[c & 3] for c in cards)


def canonical_flop(flop: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(canonical flop, a suit permutation taking ``flop`` to it): the least sorted image over the 24."""
    best: tuple[int, ...] | None = None
    best_perm = _PERMS[0]
    for perm in _PERMS:
        image = tuple(sorted(_permute(flop, perm)))
        if best is None or image < best:
            best, best_perm = image, perm
    assert best is not None
    return best, best_perm


@cache
def canonical_flops() -> tuple[tuple[tuple[int, ...], ...], np.ndarray, dict[tuple[int, ...], int]]:
    """The 1,755 canonical flops, how many of the 22,100 flops each stands for, and their index.

    ``canonical_flop`` of every flop at once: each flop's 24 suit images sorted and spelled as one
    number (c0 * 52^2 + c1 * 52 + c2, whose order is the sorted tuples'), the least of them kept."""
    every = np.array(list(itertools.combinations(_DECK, 3)), dtype=np.int64)
    images = np.sort((every & ~3)[None] | np.array(_PERMS, dtype=np.int64)[:, every & 3], axis=2)
    least = (images[..., 0] * 2704 + images[..., 1] * 52 + images[..., 2]).min(axis=0)
    codes, counts = np.unique(least, return_counts=True)
    flops = tuple((c // 2704, c // 52 % 52, c % 52) for c in codes.tolist())
    return flops, counts.astype(np.int64), {f: i for i, f in enumerate(flops)}


@cache
def holding_permutations() -> np.ndarray:
    """(24, 1326): index of the image of each holding under each suit permutation."""
    h = holdings_of(_DECK, 2)
    out = np.empty((len(_PERMS), h.size), dtype=np.int64)
    pos = {tuple(int(c) for c in row): i for i, row in enumerate(h.cards)}
    for k, perm in enumerate(_PERMS):
        for i, row in enumerate(h.cards):
            out[k, i] = pos[tuple(sorted(_permute((int(row[0]), int(row[1])), perm)))]
    return out


# ---------------------------------------------------------------------- hand strength


def river_strength(board: tuple[int, ...]) -> np.ndarray:
    """HS of every holding on a 5-card board vs a uniformly random disjoint opponent (0 where blocked)."""
    strengths: np.ndarray = river_strengths(np.array([board], dtype=np.int64))[0]
    return strengths


def river_strengths(boards: np.ndarray) -> np.ndarray:
    """``river_strength`` of every holding on each of the (R, 5) ``boards``, as an (R, 1326) array.

    Per board: rank the holdings (blocked ones lowest), count for each holding the weaker and the
    stronger ones, then take out the opponents that share one of its cards (inclusion-exclusion by
    card, as ``holdings.RankedBoard`` does). Integer counts, so the result is the same bit for bit
    whichever way the boards are batched.
    """
    h = holdings_of(_DECK, 2)
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 5)
    num, size = len(boards), h.size
    blocked = np.zeros((num, size), dtype=bool)
    for k in range(5):
        blocked[np.arange(num)[:, None], h.card_rows[boards[:, k]]] = True
    if compiled_preferred():  # the same counts, compiled
        from showdown.solvers import hand_kernels

        win, lose = hand_kernels.strength_counts(boards, h.cards)
    else:
        win, lose = _strength_counts(boards, blocked, h)
    opponents = math.comb(52 - 5 - 2, 2)
    hs: np.ndarray = (win + 0.5 * (opponents - win - lose)) / opponents
    hs[blocked] = 0.0
    return hs


def _strength_counts(boards: np.ndarray, blocked: np.ndarray, h: Holdings) -> tuple[np.ndarray, np.ndarray]:
    """Per board and holding: the disjoint opponents it beats and loses to (the numpy path)."""
    num, size = blocked.shape
    v = values_on_boards(boards, h.cards)
    v[blocked] = -1
    lo, hi = _tie_ranks(v)
    nb = blocked.sum(axis=1, keepdims=True)
    win = lo - nb
    lose = size - hi
    # take out the opponents sharing a card with the holding: rank each holding again within the
    # group of the 51 holdings that hold its first card, and within its second card's group
    m = h.card_rows.shape[1]
    group_lo, group_hi = _tie_ranks(v[:, h.card_rows].reshape(-1, m))
    group_lo = group_lo.reshape(num, -1)
    group_hi = group_hi.reshape(num, -1)
    for flat_slot in _group_slots(h):
        win -= group_lo[:, flat_slot] - 5  # the 5 holdings pairing the card with a board card are blocked
        lose -= m - group_hi[:, flat_slot]
    return win, lose


_SLOTS: list[np.ndarray] = []


def _group_slots(h: Holdings) -> list[np.ndarray]:
    """For card j (0, 1) of every holding: where that holding sits in ``h.card_rows`` flattened,
    in the row of its j-th card."""
    if not _SLOTS:
        m = h.card_rows.shape[1]
        where = np.empty((h.size, 2), dtype=np.int64)
        for j in range(2):
            cards = h.cards[:, j]
            where[:, j] = cards * m + np.argmax(h.card_rows[cards] == np.arange(h.size)[:, None], axis=1)
        _SLOTS.extend([where[:, 0], where[:, 1]])
    return _SLOTS


def _tie_ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: how many entries are below each entry (lo), and how many at or below it (hi).

    One stable sort per row, then the runs of equal values found on the flattened sorted array
    (every row starts a run): no per-row Python and no searching.
    """
    rows, n = values.shape
    total = rows * n
    order = np.argsort(values, axis=1, kind="stable")
    row_start = np.repeat(np.arange(0, total, n), n)
    flat_order = order.ravel() + row_start
    ordered = values.ravel()[flat_order]
    new_run = np.empty(total, dtype=bool)
    new_run[1:] = ordered[1:] != ordered[:-1]
    new_run[::n] = True
    starts = np.flatnonzero(new_run)
    run = np.cumsum(new_run) - 1
    ends = np.empty_like(starts)
    ends[:-1] = starts[1:]
    ends[-1] = total
    lo = np.empty(total, dtype=np.int64)
    hi = np.empty(total, dtype=np.int64)
    lo[flat_order] = starts[run] - row_start
    hi[flat_order] = ends[run] - row_start
    return lo.reshape(rows, n), hi.reshape(rows, n)


RIVER_BATCH = 64
"""Boards ranked per numpy batch in ``expected_hs2`` (bounds memory: about 2 MB a board)."""


def expected_hs2(board: tuple[int, ...], rivers: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """E[HS^2] of every holding over every completion of a 3- or 4-card board to five (0 where blocked);
    on a 4-card board, ``rivers`` (if given) gets each river card's ``river_strength``, worked out on the way."""
    rest = [c for c in _DECK if c not in board]
    h = holdings_of(_DECK, 2)
    total = np.zeros(h.size)
    count = np.zeros(h.size)
    extras = np.array(list(itertools.combinations(rest, 5 - len(board))), dtype=np.int64)
    for at in range(0, len(extras), RIVER_BATCH):
        part = extras[at : at + RIVER_BATCH]
        fulls = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (len(part), len(board))), part], axis=1)
        strengths = river_strengths(fulls)
        if rivers is not None and len(board) == 4:
            rivers.update(zip(part[:, 0].tolist(), strengths))
        ok = np.ones(strengths.shape, dtype=bool)
        for k in range(part.shape[1]):
            ok[np.arange(len(part))[:, None], h.card_rows[part[:, k]]] = False
        # summed in completion order (a reduction down the rows adds them one after the other):
        # bit-identical to adding the completions one at a time
        total = np.add.reduce(np.concatenate([total[None], np.where(ok, strengths * strengths, 0.0)]), axis=0)
        count += ok.sum(axis=0)
    out = np.zeros(h.size)
    np.divide(total, count, out=out, where=count > 0)
    out[h.blocked(board)] = 0.0
    return out


def _turn_counts(h: Holdings, hole: tuple[int, ...], board: tuple[int, ...], rivers: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per river: the opponents disjoint from hole, board and river that the holding beats, and loses to."""
    live = np.flatnonzero(~h.blocked(tuple(set(board) | set(hole))))  # opponents disjoint from hole and board
    opp = h.cards[live]
    n_r, n_o = len(rivers), len(live)
    rows = np.empty((n_r, n_o, 7), dtype=np.int64)
    rows[:, :, :2] = opp
    rows[:, :, 2:6] = board
    rows[:, :, 6] = np.array(rivers)[:, None]
    clash = (opp[None, :, 0] == rows[:, :, 6]) | (opp[None, :, 1] == rows[:, :, 6])  # opponent holds the river
    rows[clash] = rows[~clash][0]
    values = hand_values(rows.reshape(-1, 7)).reshape(n_r, n_o)
    mine = hand_values(np.array([hole + board + (r,) for r in rivers], dtype=np.int64))
    ok = ~clash
    return ((values < mine[:, None]) & ok).sum(axis=1), ((values > mine[:, None]) & ok).sum(axis=1)


def holding_turn_ehs2(hole: tuple[int, ...], board: tuple[int, ...]) -> float:
    """E[HS^2] of one holding on a 4-card board: ``expected_hs2(board)`` at that holding, bit for bit
    (the same integer counts, squares summed in the same river order), in a few ms instead of ~15;
    compiled once the process prefers it (``solvers.kernel_loader``: a long match's agents switch)."""
    h = holdings_of(_DECK, 2)
    rivers = [c for c in _DECK if c not in board and c not in hole]
    if compiled_preferred():
        from showdown.solvers.hand_kernels import holding_counts

        fulls = np.array([tuple(board) + (r,) for r in rivers], dtype=np.int64)
        win, lose = holding_counts(fulls, tuple(hole), h.cards)
    else:
        started = time.perf_counter()
        win, lose = _turn_counts(h, tuple(hole), tuple(board), rivers)
        kernel_loader.spent(time.perf_counter() - started)
    opponents = math.comb(52 - 5 - 2, 2)
    total = 0.0
    for w, lo in zip(win.tolist(), lose.tolist()):
        hs = (np.int64(w) + 0.5 * (opponents - np.int64(w) - np.int64(lo))) / opponents
        total += float(hs * hs)
    return total / len(rivers)


def _flop_rows(indices: list[int]) -> tuple[list[int], np.ndarray]:
    flops, _, _ = canonical_flops()
    return indices, np.stack([expected_hs2(flops[i]) for i in indices])


def build_flop_table(
    *, jobs: int = 2, progress: Callable[[int, int], None] | None = None, limit: int | None = None
) -> np.ndarray:
    """E[HS^2] of every holding on every canonical flop, (1755, 1326) float (``limit``: the first flops only)."""
    flops, _, _ = canonical_flops()
    n = len(flops) if limit is None else min(limit, len(flops))
    out = np.zeros((n, 1326))
    chunks = [list(range(i, min(i + 8, n))) for i in range(0, n, 8)]
    done = 0
    if jobs <= 1:
        results = map(_flop_rows, chunks)
        for idx, rows in results:
            out[idx] = rows
            done += len(idx)
            if progress:
                progress(done, n)
        return out
    # (an executor's shutdown on Ctrl-C waited for every chunk submitted: the build went on to its end)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with terminate_as_exit(), running_pool(method, jobs) as pool:
        for idx, rows in pool.imap(_flop_rows, chunks):
            out[idx] = rows
            done += len(idx)
            if progress:
                progress(done, n)
    return out


def _sample_quantiles(street: int, rng: np.random.Generator) -> np.ndarray:
    """Quantiles of the street's value (3: turn E[HS^2], 4: river HS) over seeded random deals."""
    h = holdings_of(_DECK, 2)
    values = []
    for _ in range(SAMPLE_TURNS if street == 3 else SAMPLE_RIVERS):
        board = tuple(int(c) for c in rng.choice(52, size=4 if street == 3 else 5, replace=False))
        v = expected_hs2(board) if street == 3 else river_strength(board)
        values.append(v[~h.blocked(board)])
    return np.asarray(np.quantile(np.concatenate(values), np.linspace(0, 1, QUANTILE_POINTS)))


def _weighted_quantiles(table: np.ndarray) -> np.ndarray:
    flops, weights, _ = canonical_flops()
    h = holdings_of(_DECK, 2)
    vals, wts = [], []
    for i, flop in enumerate(flops):
        ok = ~h.blocked(flop)
        vals.append(table[i][ok])
        wts.append(np.full(int(ok.sum()), weights[i], dtype=float))
    v = np.concatenate(vals)
    w = np.concatenate(wts)
    order = np.argsort(v, kind="stable")
    cum = np.cumsum(w[order])
    cum /= cum[-1]
    targets = np.linspace(0, 1, QUANTILE_POINTS)
    return v[order][np.minimum(np.searchsorted(cum, targets, "left"), len(v) - 1)]


def build_tables(
    *, jobs: int = 2, stream: IO[str] | None = None
) -> dict[str, np.ndarray]:
    """Everything the abstraction needs, computed from scratch (deterministic)."""
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if stream is not None:
            rate = done / max(time.perf_counter() - t0, 1e-9)
            eta = (total - done) / rate if rate else 0.0
            stream.write(f"\rflop E[HS^2]: {done}/{total} flops, {rate:.1f}/s, about {eta:.0f} s left   ")
            stream.flush()

    table = build_flop_table(jobs=jobs, progress=progress)
    if stream is not None:
        stream.write("\nturn and river quantiles from seeded samples...\n")
    rng = np.random.default_rng(SAMPLE_SEED)
    return {
        "flop": np.round(table * 65535).astype(np.uint16),
        "quantiles": np.stack([_weighted_quantiles(table), _sample_quantiles(3, rng), _sample_quantiles(4, rng)]),
    }


def save_tables(tables: dict[str, np.ndarray], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")  # one per writer: two builds end together
    np.savez_compressed(tmp, format=np.frombuffer(TABLE_FORMAT.encode(), dtype=np.uint8), **tables)  # type: ignore[arg-type]
    tmp.replace(path)
    return path


def packaged_tables_path() -> Path:
    return Path(__file__).parent / "data" / "holdem-flop-ehs2.npz"


def cached_tables_path() -> Path:
    from showdown.cache import cache_dir

    return cache_dir() / "holdem-flop-ehs2.npz"


@cache
def load_tables(path: Path | None = None) -> dict[str, np.ndarray]:
    """The tables: ``path``, else a rebuilt copy in the cache (``showdown solve buckets``), else the shipped one."""
    if path is None:
        cached = cached_tables_path()
        path = cached if cached.exists() else packaged_tables_path()
    p = path
    try:
        with load_npz(p) as data:
            if bytes(data["format"]).decode() != TABLE_FORMAT:
                raise SolverError(f"{p}: not a showdown flop table")
            return {"flop": data["flop"], "quantiles": data["quantiles"]}
    except read_errors() as exc:
        raise SolverError(f"{p}: cannot read the hold'em flop table ({exc}); rebuild it with 'showdown solve buckets' "
                          "(or delete it: the shipped table is used)") from None


# ---------------------------------------------------------------------- the abstraction


class HoldemAbstraction:
    """Hold'em buckets: preflop classes, flop/turn E[HS^2] and river HS percentiles."""

    kind = "holdem"

    def __init__(self, game: GameDef, num_buckets: tuple[int, ...] = DEFAULT_BUCKETS) -> None:
        if game.num_hole_cards != 2 or game.num_rounds != 4 or game.num_suits != 4 or game.num_ranks != 13:
            raise ConfigError("the hold'em abstraction is for hold'em (52 cards, 2 hole cards, 4 rounds)")
        if len(num_buckets) != 4 or num_buckets[0] != 169 or min(num_buckets[1:]) < 1:
            raise ConfigError("hold'em buckets: 169 preflop, then at least one per street (e.g. 169,50,50,50)")
        self.game = game
        self.num_buckets = tuple(int(n) for n in num_buckets)
        tables = load_tables()
        self._flop = tables["flop"]
        q = tables["quantiles"]
        grid = np.linspace(0, 1, QUANTILE_POINTS)
        # cut points: value at quantile k/n, k = 1..n-1; bucket = number of cuts at or below the value
        self._cuts = [np.interp(np.arange(1, n) / n, grid, q[i]) for i, n in enumerate(self.num_buckets[1:])]
        self._preflop = combo_classes()[2]
        self._holdings = holdings_of(_DECK, 2)
        self._turn_cache: dict[tuple[int, ...], np.ndarray] = {}
        self._rivers: dict[tuple[int, ...], dict[int, np.ndarray]] = {}  # a few turns' river strengths, by river card

    def warm_up(self) -> None:
        """Build the lookup tables now (about half a second) rather than at the first flop."""
        canonical_flops()
        holding_permutations()
        self._flop_values((0, 1, 2))

    def sample_board(self, rng: np.random.Generator) -> tuple[Card, ...]:
        return tuple(int(c) for c in rng.choice(52, size=5, replace=False))

    def all_boards(self) -> list[tuple[Card, ...]]:
        raise ConfigError("hold'em has too many boards to visit all; sample them")

    def _flop_values(self, flop: tuple[int, ...]) -> np.ndarray:
        canon, perm = canonical_flop(tuple(flop))
        _, _, index = canonical_flops()
        k = _PERMS.index(perm)
        return np.asarray(self._flop[index[canon]][holding_permutations()[k]].astype(float) / 65535)

    def _turn_values(self, turn: tuple[int, ...]) -> np.ndarray:
        key = tuple(sorted(turn[:3])) + (turn[3],)
        v = self._turn_cache.get(key)
        if v is None:
            if len(self._turn_cache) > 64:
                self._turn_cache.clear()
            if len(self._rivers) >= 4:
                self._rivers.clear()
            v = self._turn_cache[key] = expected_hs2(key, self._rivers.setdefault(key, {}))
        return v

    def _river_values(self, river: tuple[int, ...]) -> np.ndarray:
        """``river_strength``, read from the turn's E[HS^2] work when that turn was bucketed lately."""
        kept = self._rivers.get(tuple(sorted(river[:3])) + (river[3],), {}).get(river[4])
        return kept if kept is not None else river_strength(river)

    def _cut(self, street: int, values: np.ndarray) -> np.ndarray:
        return np.searchsorted(self._cuts[street - 1], values, "right")

    def buckets(self, board: tuple[Card, ...]) -> np.ndarray:
        out = np.zeros((4, 1326), dtype=np.int64)
        out[0] = self._preflop
        out[1] = self._cut(1, self._flop_values(board[:3]))
        out[2] = self._cut(2, self._turn_values(board[:4]))
        out[3] = self._cut(3, river_strength(board[:5]))
        return out

    def board_buckets(self, board: tuple[Card, ...], round_: int) -> np.ndarray:
        """Every holding's bucket on the board seen in round ``round_`` (1..3), as ``buckets`` gives it."""
        if round_ == 1:
            values = self._flop_values(tuple(board[:3]))
        elif round_ == 2:
            values = self._turn_values(tuple(board[:4]))
        else:
            values = self._river_values(tuple(board[:5]))
        return self._cut(round_, values)

    def bucket(self, hole: tuple[Card, ...], board: tuple[Card, ...], round_: int) -> int:
        i = self._holdings.index(hole)
        if round_ == 0:
            return int(self._preflop[i])
        if round_ == 1:
            values = self._flop_values(tuple(board[:3]))
        elif round_ == 2:
            key = tuple(sorted(board[:3])) + (board[3],)
            value = holding_turn_ehs2(tuple(hole), key)
            return int(self._cut(round_, np.array([value]))[0])
        else:
            values = river_strength(tuple(board[:5]))
        return int(self._cut(round_, values[i : i + 1])[0])

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "game": format_gamedef(self.game), "game_name": self.game.name, "buckets": list(self.num_buckets)}

    @classmethod
    def from_json(cls, game: GameDef, data: dict[str, Any]) -> HoldemAbstraction:
        buckets = data.get("buckets")
        if not isinstance(buckets, list):
            raise ConfigError("hold'em abstraction: 'buckets' missing")
        return cls(game, tuple(int(b) for b in buckets))
