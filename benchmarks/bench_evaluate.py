"""Throughput of the hand evaluator: ``python benchmarks/bench_evaluate.py [num_hands]``.

Times ``hand_values`` on random distinct 7-card hands (best of 3, one thread) and the scalar
``hand_value`` the dealer calls at each showdown.

With ``--compiled``: a numba kernel of the same table walk (below; checked equal to the numpy path on
every hand timed) against the numpy batch path, alternated, CPU time, medians of 7 pairs. It is not
in the package: it would run only where numba is already loaded, and there the batches are small and
its first call pays numba's code loading (see the README's performance table).
"""

from __future__ import annotations

import os

# one core: keep numpy's BLAS/OpenMP pools single-threaded (must precede the numpy import)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from showdown.games import evaluate  # noqa: E402  (its tables, for the compiled candidate)
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


def in_batches(batch, hands: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    for lo in range(0, len(hands), 1 << 16):
        batch(hands[lo : lo + (1 << 16)])


def compiled_walk():  # type: ignore[no-untyped-def]
    """The candidate kernel: per hand, the rank multiset's perfect hash indexes the non-flush value and,
    when the suit nibbles show five of a suit, that suit's rank mask indexes the flush table; returns -1,
    or the first hand that repeats a card."""
    from numba import njit

    from showdown.games.hand_value import FLUSH_BIAS, FLUSH_TEST, RANK_SUM_MASK, SUIT_SHIFT

    @njit(nogil=True)
    def walk(hands, card_keys, index, nonflush, flush_values, out):  # type: ignore[no-untyped-def]
        n, k = hands.shape
        for i in range(n):
            packed = 0
            seen = 0
            for j in range(k):
                packed += card_keys[hands[i, j]]
                seen |= np.int64(1) << hands[i, j]
            distinct = 0
            while seen:  # the numpy path refuses a hand that repeats a card: count the distinct ones
                seen &= seen - 1
                distinct += 1
            if distinct != k:
                return i
            value = nonflush[index[packed & RANK_SUM_MASK]]
            suits = packed >> SUIT_SHIFT
            if (suits + FLUSH_BIAS) & FLUSH_TEST:
                flush_suit = 0
                for s in range(1, 4):
                    if ((suits >> (4 * s)) & 0xF) > ((suits >> (4 * flush_suit)) & 0xF):
                        flush_suit = s
                mask = 0
                for j in range(k):
                    if (hands[i, j] & 3) == flush_suit:
                        mask |= np.int64(1) << (hands[i, j] >> 2)
                value = max(value, flush_values[mask])
            out[i] = value
        return -1

    index, nonflush = evaluate._rank_table(7)
    return lambda hands, out: walk(hands, evaluate._CARD_KEYS, index, nonflush, evaluate._FLUSH_VALUES, out)


def compiled_against_numpy(hands: np.ndarray, pairs: int = 7) -> None:
    start = time.perf_counter()
    walk = compiled_walk()
    out = np.empty(len(hands), dtype=np.int64)
    assert walk(hands, out) == -1
    print(f"numba kernel of the same walk: compiled in {time.perf_counter() - start:.1f} s; "
          f"equal to the numpy path on all {len(hands):,} hands: {bool(np.array_equal(out, hand_values(hands)))}")
    rows = []
    for _ in range(pairs):
        row = []
        for run in (lambda: walk(hands, out), lambda: hand_values(hands)):
            start = time.process_time()
            run()
            row.append(time.process_time() - start)
        rows.append(row)
    fast, slow = (statistics.median(r[k] for r in rows) for k in (0, 1))
    ratio = statistics.median(r[1] / r[0] for r in rows)
    print(f"7-card hands/s, CPU, medians of {pairs} alternated pairs: numba {len(hands) / fast:,.0f}, "
          f"numpy {len(hands) / slow:,.0f}: {ratio:.2f}x")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--compiled"]
    num_hands = int(args[0]) if args else 2_000_000
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

    if "--compiled" in sys.argv:
        compiled_against_numpy(hands)


if __name__ == "__main__":
    main()
