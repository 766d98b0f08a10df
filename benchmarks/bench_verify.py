"""verify-log on a big log: time and peak memory, to check that the work follows the file's size.

    python benchmarks/bench_verify.py [--hands 10000000] [--name-length 34] [--dir /tmp] [--keep]

Writes a Kuhn log of ``--hands`` hands the way the dealer deals them (seed 0, the seat rotation,
random legal betting, exact values; long player names bring 10 million hands to about 1 GB), then
times ``verify_log`` on it in this process and prints hands, bytes, seconds (wall and CPU: on a
shared machine the wall time also counts the waits for a core), MB/s and the peak resident memory. The log is deleted afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import random
import resource
import tempfile
import time
from pathlib import Path

from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import State
from showdown.protocol.logfile import LoggedHand, LogHeader, Score, format_score_line, format_state_line

KUHN_ENDINGS = ("cc", "crf", "crc", "rf", "rc")


def write_kuhn_log(path: Path, hands: int, name_length: int, seed: int = 0) -> int:
    """A complete, correct Kuhn match log of ``hands`` hands; its size in bytes."""
    game = get_game("kuhn")
    names = ("a" * name_length, "b" * name_length)
    dealer = CardDealer(game, seed)
    rng = random.Random(seed)
    memo: dict[tuple[object, str, int], str] = {}
    totals = [0.0, 0.0]
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as f:
        f.write("\n".join(LogHeader("big", "kuhn", hands, seed).lines()) + "\n")
        for h in range(hands):
            hole, board = dealer.deal()
            betting = KUHN_ENDINGS[rng.randrange(5)]
            key = (hole, betting, h % 2)
            tail = memo.get(key)
            if tail is None:
                state = State.initial(game, hole, board).apply_betting(betting)
                by_position = (names[h % 2], names[(h + 1) % 2])
                tail = format_state_line(LoggedHand.from_state(0, state, by_position))[len("STATE:0") :]
                memo[key] = tail
            f.write(f"STATE:{h}{tail}\n")
            values = [float(v) for v in tail.split(":")[3].split("|")]
            for p, v in enumerate(values):
                totals[(p + h) % 2] += v
        f.write(format_score_line(Score(tuple(totals), names)) + "\n")
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--name-length", type=int, default=34)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    path = Path(args.dir) / f"bench_verify_{args.hands}.log"
    started = time.perf_counter()
    size = path.stat().st_size if path.exists() else write_kuhn_log(path, args.hands, args.name_length)
    print(f"log: {path} {size / 1e9:.3f} GB, {args.hands:,} hands (ready in {time.perf_counter() - started:.1f} s)")
    try:
        started, cpu = time.perf_counter(), time.process_time()
        report = verify_log(path)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"verify-log: {'OK' if report.ok else 'FAILED'} {report.hands:,} hands in {seconds:.1f} s "
              f"({size / 1e6 / seconds:.0f} MB/s, {1e6 * seconds / max(1, report.hands):.2f} us a hand), "
              f"{cpu:.1f} s of CPU, peak RSS {peak:.0f} MB")
        if not report.ok:
            print("\n".join(report.problems[:5]))
    finally:
        if not args.keep:
            path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
