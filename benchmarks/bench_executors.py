"""A 20-match Kuhn tournament: wall time with the local process pool and on a two-node Ray cluster.

    python benchmarks/bench_executors.py [--hands 2000] [--repeat 3]

Needs root and the cluster extra (pip install 'showdown-poker[cluster]'). The script re-runs
itself inside a private network namespace (``unshare --net``) with only loopback up, starts a Ray
head and a second node on this machine (3 CPUs each, so each node plays one 2-seat match at a
time, as the local pool does with 2 jobs), and plays the same tournament (5 agents, 10 pairs,
duplicate: 20 match halves) alternately locally and on the cluster, ``--repeat`` times each.
Prints each wall time, the medians, and Ray's overhead per match: (cluster - local) / 20.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PORT = 6393
AGENTS = ["random", "rules", "bluff", "call", "equilibrium"]


def sh(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=180)


def tournament(folder: Path, name: str, hands: int, address: str | None) -> float:
    from showdown.matches.config import Where
    from showdown.matches.executors import make_executor
    from showdown.matches.tournament import run_tournament
    from showdown.matches.tournament_config import parse_tournament_config

    data = {"game": "kuhn", "hands": hands, "seed": 11, "duplicate": True, "out": str(folder / name), "agents": AGENTS}
    cfg = parse_tournament_config(data, Where("<bench>"))
    executor = make_executor("ray" if address else None, address)
    started = time.perf_counter()
    result = run_tournament(cfg, jobs=2, progress=False, install_signals=False, executor=executor)
    wall = time.perf_counter() - started
    assert result.complete and len(result.outcomes) == 10, "the tournament did not finish"
    shutil.rmtree(folder / name)
    return wall


def inside(args: argparse.Namespace) -> int:
    from showdown.matches.local_cluster import LocalCluster

    work = Path(tempfile.mkdtemp(prefix="showdown-bench-"))
    sh("ip", "link", "set", "lo", "up")
    nodes = LocalCluster(nodes=2, cpus=3, port=PORT).start()
    try:
        import ray

        ray.init(address=f"127.0.0.1:{PORT}", log_to_driver=False, logging_level="ERROR")
        tournament(work, "warmup", 50, f"127.0.0.1:{PORT}")  # the workers and the package upload
        local: list[float] = []
        cluster: list[float] = []
        for r in range(args.repeat):
            local.append(tournament(work, f"local{r}", args.hands, None))
            cluster.append(tournament(work, f"ray{r}", args.hands, f"127.0.0.1:{PORT}"))
            print(f"run {r + 1}: local {local[-1]:.2f} s, ray (2 nodes) {cluster[-1]:.2f} s", flush=True)
        lm, cm = statistics.median(local), statistics.median(cluster)
        print(json.dumps({
            "matches": 20,
            "hands_per_match": args.hands,
            "local_jobs": 2,
            "local_median_s": round(lm, 2),
            "ray_median_s": round(cm, 2),
            "ray_overhead_per_match_s": round((cm - lm) / 20, 3),
            "ratio_ray_over_local": round(cm / lm, 3),
        }))
    finally:
        nodes.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per match half (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each executor (default 3)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        return inside(args)
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("needs root and unshare (util-linux) to keep the cluster on a private loopback", file=sys.stderr)
        return 2
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)}
    cmd = ["unshare", "--net", "--", sys.executable, __file__, "--inside", "--hands", str(args.hands), "--repeat", str(args.repeat)]
    return subprocess.run(cmd, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
