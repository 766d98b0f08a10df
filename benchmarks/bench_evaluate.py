"""Throughput of the hand evaluator: ``python benchmarks/bench_evaluate.py [num_hands]``.

Times ``hand_values`` on random distinct 7-card hands (best of 3, one thread) and the scalar
``hand_value`` the dealer calls at each showdown.

With ``--compiled``: the compiled kernel of the same table walk (``solvers.hand_kernels``, what local
best response uses; checked equal to the numpy path on every hand timed) against the numpy
``values_on_boards``, every holding on random boards, alternated, CPU time, medians of 7 pairs. The
dealer and a match's agents keep the numpy path: their batches are small and a compiled kernel's
first call pays numba's code loading (see the README's performance table).
"""

from __future__ import annotations

import os

# one core: keep numpy's BLAS/OpenMP pools single-threaded (must precede the numpy import)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from showdown.games.evaluate import hand_value, hand_values, values_on_boards  # noqa: E402


def random_hands(num_hands: int, num_cards: int, seed: int = 0) -> np.ndarray:
    """``num_hands`` rows of ``num_cards`` distinct cards out of 52, as int8."""
    rng = np.random.default_rng(seed)
    out = np.empty((num_hands, num_cards), dtype=np.int8)
    step = 100_000
    for start in range(0, num_hands, step):
        rows = min(step, num_hands - start)
        out[start : start + rows] = np.argpartition(rng.random((rows, 52)), num_cards, axis=1)[:, :num_cards]
    return out


def best_of(repeats: int, func, *args) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        func(*args)
        best = min(best, time.perf_counter() - start)
    return best


def in_batches(batch, hands: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    for lo in range(0, len(hands), 1 << 16):
        batch(hands[lo : lo + (1 << 16)])


def compiled_against_numpy(num_boards: int = 400, pairs: int = 7) -> None:
    """``solvers.hand_kernels.values_on_boards`` (compiled) against ``games.evaluate.values_on_boards``:
    every holding on ``num_boards`` random river boards, alternated, CPU time, medians of ``pairs``."""
    from showdown.solvers import hand_kernels

    holdings = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    boards = random_hands(num_boards, 5, seed=9).astype(np.int64)
    start = time.perf_counter()
    hand_kernels.warm_up()
    fast_values = hand_kernels.values_on_boards(boards, holdings)
    disjoint = ~(holdings[None, :, :, None] == boards[:, None, None, :]).any(axis=(2, 3))
    same = bool(np.array_equal(fast_values[disjoint], values_on_boards(boards, holdings)[disjoint]))
    print(f"compiled kernel (solvers.hand_kernels): loaded in {time.perf_counter() - start:.1f} s; "
          f"equal to the numpy path on all {int(disjoint.sum()):,} hands: {same}")
    rows = []
    for _ in range(pairs):
        row = []
        for run in (lambda: hand_kernels.values_on_boards(boards, holdings), lambda: values_on_boards(boards, holdings)):
            start = time.process_time()
            run()
            row.append(time.process_time() - start)
        rows.append(row)
    count = boards.shape[0] * holdings.shape[0]
    fast, slow = (statistics.median(r[k] for r in rows) for k in (0, 1))
    ratio = statistics.median(r[1] / r[0] for r in rows)
    print(f"7-card hands/s (every holding on a board), CPU, medians of {pairs} alternated pairs: "
          f"compiled {count / fast:,.0f}, numpy {count / slow:,.0f}: {ratio:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("num_hands", type=int, nargs="?", default=2_000_000, help="7-card hands timed (default 2,000,000)")
    ap.add_argument("--compiled", action="store_true", help="also time the compiled kernel against the numpy path")
    args = ap.parse_args()
    num_hands = args.num_hands
    hands = random_hands(num_hands, 7)

    start = time.perf_counter()
    hand_values(hands[:1])  # builds the lazy 7-card table
    print(f"7-card table build: {time.perf_counter() - start:.3f} s")

    seconds = best_of(3, hand_values, hands)
    print(f"7-card hands/s: {num_hands / seconds:,.0f}  ({num_hands:,} hands in {seconds:.3f} s)")

    scalar_hands = hands[:100_000].tolist()
    seconds = best_of(3, lambda hs: [hand_value(h) for h in hs], scalar_hands)
    rate = len(scalar_hands) / seconds
    print(f"scalar hand_value 7-card calls/s: {rate:,.0f}  ({1e6 / rate:.2f} us per call)")

    for num_cards in (1, 2, 5, 6):
        small = random_hands(min(num_hands, 500_000), num_cards, seed=num_cards)
        hand_values(small[:1])
        seconds = best_of(3, hand_values, small)
        print(f"{num_cards}-card hands/s: {len(small) / seconds:,.0f}")

    if args.compiled:
        compiled_against_numpy()


if __name__ == "__main__":
    main()
