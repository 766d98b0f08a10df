"""Throughput of the hand evaluator: ``python benchmarks/bench_evaluate.py [num_hands]``.

Times ``hand_values`` on random distinct 7-card hands (best of 3, one thread) and the scalar
``hand_value`` the dealer calls at each showdown.
"""

from __future__ import annotations

import os

# one core: keep numpy's BLAS/OpenMP pools single-threaded (must precede the numpy import)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from showdown.games.evaluate import hand_value, hand_values  # noqa: E402


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


def main() -> None:
    num_hands = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
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


if __name__ == "__main__":
    main()
