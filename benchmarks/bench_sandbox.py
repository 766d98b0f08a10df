"""What the sandbox costs: match throughput with it on and off (paired, alternated), and the start-up
it adds per bot (making the jail: folder, control group, network namespace; and the child's
confinement between fork and exec).

    python benchmarks/bench_sandbox.py [--game kuhn] [--hands 20000] [--pairs 5]

Both seats are the built-in random agent named as ``showdown.agents.baseline:make_random`` (a
``module:Class`` bot, which the sandbox confines), so the two runs differ only in the sandbox.
Throughput is hands per second of play (from the first deal, start-up not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.runner import run_match
from showdown.matches.sandbox import Jail, Limits

BOT = "showdown.agents.baseline:make_random"


def _hands_per_second(game: str, hands: int, sandbox: bool) -> float:
    config = MatchConfig(game=game, agents=(AgentSpec(name=BOT, label="a"), AgentSpec(name=BOT, label="b")), hands=hands,
                         sandbox=sandbox, progress=False)
    report = run_match(config)
    assert not report.degraded and report.hands == hands
    return hands / report.play_seconds


async def _spawn_ms(jail: Jail | None) -> float:
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec("/bin/true", preexec_fn=None if jail is None else jail.preexec,
                                                cwd=None if jail is None else jail.workdir)
    await proc.wait()
    return (time.perf_counter() - started) * 1000


def start_up(samples: int = 30) -> tuple[float, float, float]:
    """Median ms: making one jail, spawning /bin/true plain, and spawning it confined."""
    make, plain, confined = [], [], []
    for _ in range(samples):
        t = time.perf_counter()
        jail = Jail(0, Limits(), "127.0.0.1", program=["/bin/true"])
        make.append((time.perf_counter() - t) * 1000)
        plain.append(asyncio.run(_spawn_ms(None)))
        confined.append(asyncio.run(_spawn_ms(jail)))
        jail.close()
    return statistics.median(make), statistics.median(plain), statistics.median(confined)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    ratios = []
    for i in range(args.pairs):
        order = (False, True) if i % 2 == 0 else (True, False)
        got = {on: _hands_per_second(args.game, args.hands, on) for on in order}
        ratios.append(got[True] / got[False])
        print(f"pair {i + 1}: off {got[False]:,.0f} hands/s, on {got[True]:,.0f} hands/s, on/off {ratios[-1]:.3f}", flush=True)
    print(f"{args.game}: sandbox on/off throughput, median of {args.pairs} pairs: {statistics.median(ratios):.3f}")
    make, plain, confined = start_up()
    print(f"start-up per bot (median of 30): jail {make:.1f} ms + spawn {confined:.1f} ms confined vs {plain:.1f} ms plain: "
          f"{make + confined - plain:.1f} ms added")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
