"""What the sandbox costs: match throughput with it on and off (paired, alternated), and the start-up
it adds per bot (making the jail: folder, control group, network namespace; and the child's
confinement between fork and exec).

    python benchmarks/bench_sandbox.py [--game kuhn] [--hands 20000] [--pairs 5]   (--pairs 0: start-up only)

Both seats are the built-in random agent named as ``showdown.agents.baseline:make_random`` (a
``module:Class`` bot, which the sandbox confines), so the two runs differ only in the sandbox.
Throughput is hands per second of play (from the first deal, start-up not counted).
"""

from __future__ import annotations

import argparse
import statistics
import time

from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.runner import run_match

BOT = "showdown.agents.baseline:make_random"


def _hands_per_second(game: str, hands: int, sandbox: bool) -> float:
    config = MatchConfig(game=game, agents=(AgentSpec(name=BOT, label="a"), AgentSpec(name=BOT, label="b")), hands=hands,
                         sandbox=sandbox, progress=False)
    report = run_match(config)
    assert not report.degraded and report.hands == hands
    return hands / max(report.play_seconds, 1e-9)


def start_up(game: str, pairs: int = 8) -> tuple[float, float]:
    """Median ms per bot, sandbox on and off, from the start of a real match (1 hand) in this
    process: making its jail plus starting its process (the child's confinement between fork and
    exec included; it forbids vfork, so it grows with the dealer's memory)."""
    from showdown.matches import agent_process, plain

    spent: list[float] = []
    start, open_jails = agent_process.AgentProcess.start, plain.MatchRun._open_jails

    async def timed_start(self: agent_process.AgentProcess, env: dict[str, str]) -> None:
        t = time.perf_counter()
        await start(self, env)
        spent.append((time.perf_counter() - t) * 1000)

    def timed_open(self: plain.MatchRun) -> None:
        t = time.perf_counter()
        open_jails(self)
        spent.append((time.perf_counter() - t) * 1000)

    agent_process.AgentProcess.start = timed_start  # type: ignore[method-assign,assignment]
    plain.MatchRun._open_jails = timed_open  # type: ignore[method-assign]
    per_bot: dict[bool, list[float]] = {True: [], False: []}
    try:
        for i in range(pairs):
            for on in (True, False) if i % 2 == 0 else (False, True):
                spent.clear()
                _hands_per_second(game, 1, on)
                per_bot[on].append(sum(spent) / 2)
    finally:
        agent_process.AgentProcess.start, plain.MatchRun._open_jails = start, open_jails  # type: ignore[method-assign]
    return statistics.median(per_bot[True]), statistics.median(per_bot[False])


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
    if ratios:
        print(f"{args.game}: sandbox on/off throughput, median of {args.pairs} pairs: {statistics.median(ratios):.3f}")
    on, off = start_up(args.game)
    print(f"start-up per bot (median of 8 pairs of 1-hand matches): {on:.1f} ms sandboxed, {off:.1f} ms not: {on - off:.1f} ms added")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
