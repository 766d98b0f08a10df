"""A real two-node Ray cluster on this machine, for the executor tests.

Run inside a private network namespace (``unshare --net``) with only the loopback interface up,
so that Ray, which refuses to advertise 127.0.0.1 when the machine has another address, has no
other choice and every byte stays on loopback. Used by ``test_executors.py`` as
``unshare --net -- python tests/matches/ray_cluster.py WORKDIR SCENARIO``; prints one JSON line.

Scenarios: ``same`` plays a tournament locally and on the cluster and compares every log byte
for byte and the results; ``laptop`` plays on 2 CPUs, fewer than a match has processes (see
``laptop``); ``kill`` kills the second node's raylet while the tournament runs on the
cluster and checks that the final results are the same as the local ones.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from showdown.matches.local_cluster import LocalCluster

PORT = 6391


def sh(*args: str, check: bool = True) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, check=False, timeout=120)
    if check and proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.strip()[-500:]}")
    return proc.stdout


def tournament_file(folder: Path, out: str) -> Path:
    path = folder / f"{out}.yaml"
    path.write_text(
        "game: kuhn\nhands: 400\nseed: 5\nduplicate: true\n"
        f"out: {out}\nagents: [random, rules, bluff, call]\n",
        encoding="utf-8",
    )
    return path


def run(folder: Path, out: str, address: str | None) -> dict[str, Any]:
    from showdown.matches.executors import make_executor
    from showdown.matches.tournament import run_tournament
    from showdown.matches.tournament_config import load_tournament_config
    from showdown.matches.tournament_results import tournament_json

    cfg = load_tournament_config(tournament_file(folder, out))
    executor = make_executor("ray" if address else None, address)
    result = run_tournament(cfg, jobs=2, progress=False, install_signals=False, executor=executor)
    doc = tournament_json(result)
    return doc


def duplicate_match_same(work: Path) -> bool:
    """`showdown match --duplicate` with its halves on the cluster writes the local run's logs."""
    outs = []
    for name, extra in (("dup_local", []), ("dup_ray", ["--executor", "ray", "--address", f"127.0.0.1:{PORT}"])):
        cmd = [sys.executable, "-m", "showdown", "match", "kuhn", "rules", "random", "--hands", "300",
               "--duplicate", "--out", str(work / name), *extra]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"duplicate match failed: {proc.stderr.strip()[-500:]}")
        outs.append({p.name: p.read_bytes() for p in sorted((work / name).glob("*.jsonl"))})
    return outs[0] == outs[1] and len(outs[0]) == 2


def comparable(doc: dict[str, Any]) -> str:
    """results.json without what depends on the clock or on the output folder's name."""
    doc = dict(doc)
    doc.pop("elapsed_s", None)
    for m in doc.get("matches", []):
        m.pop("logs", None)
    return json.dumps(doc, sort_keys=True)


def logs(folder: Path) -> dict[str, bytes]:
    root = folder / "matches"
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in (".log", ".jsonl")
    }


def showdown_cli(work: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=work, capture_output=True, text=True,
                          timeout=timeout, check=False)


def small_tournament(work: Path, name: str, game: str, agents: str, executor: str = "") -> Path:
    path = work / f"{name}.yaml"
    path.write_text(f"game: {game}\nhands: 100\nseed: 3\nduplicate: true\nout: {name}\nagents: [{agents}]\n{executor}",
                    encoding="utf-8")
    return path


def laptop(work: Path) -> dict[str, Any]:
    """Ray as a laptop has it: 2 CPUs, fewer than a match's processes. 2- and 3-player tournaments
    finish on a 2-CPU cluster (given by --address, then by Ray started on this machine, then by
    ``executor: ray`` in the YAML), with the local executor's logs; Ctrl-C and SIGTERM stop a run."""
    report: dict[str, Any] = {"scenario": "laptop"}
    games = {"two": ("kuhn", "rules, random, call"), "three": ("kuhn3p", "rules, random, bluff")}
    for key, (game, agents) in games.items():
        local = showdown_cli(work, "tournament", str(small_tournament(work, f"{key}_local", game, agents)), "--json")
        report[f"{key}_local"] = local.returncode
    with LocalCluster(nodes=1, cpus=2, port=PORT):
        for key, (game, agents) in games.items():
            started = time.monotonic()
            run = showdown_cli(work, "tournament", str(small_tournament(work, f"{key}_ray", game, agents)),
                               "--executor", "ray", "--address", f"127.0.0.1:{PORT}", "--json", timeout=400)
            report[f"{key}_ray"] = run.returncode
            report[f"{key}_seconds"] = round(time.monotonic() - started, 1)
            report[f"{key}_note"] = [x for x in run.stderr.splitlines() if x.startswith("showdown: ray:")]
            a, b = logs(work / f"{key}_local"), logs(work / f"{key}_ray")
            report[f"{key}_same_logs"] = a == b and len(a) > 0
        report["stops"] = {}
        for sig in (signal.SIGINT, signal.SIGTERM):
            yaml = small_tournament(work, f"stop{int(sig)}", "kuhn3p", "rules, random, bluff")
            yaml.write_text(yaml.read_text().replace("hands: 100", "hands: 100000"))
            proc = subprocess.Popen([sys.executable, "-m", "showdown", "tournament", str(yaml), "--executor", "ray",
                                     "--address", f"127.0.0.1:{PORT}"], cwd=work, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            time.sleep(10)  # connected, matches running
            sent = time.monotonic()
            proc.send_signal(sig)
            try:
                _, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            report["stops"][int(sig)] = {"returncode": proc.returncode, "seconds": round(time.monotonic() - sent, 1),
                                         "stderr_lines": len(err.splitlines()),
                                         "traceback": "Traceback" in err or "File \"" in err}
    # no --address: Ray started on this machine (2 CPUs here), and `executor: ray` in the YAML
    yaml = small_tournament(work, "two_yaml", "kuhn", "rules, random, call", "executor: ray\n")
    run = showdown_cli(work, "tournament", str(yaml), "--json", timeout=400)
    report["yaml_ray"] = run.returncode
    report["yaml_err"] = run.stderr[-1000:]
    report["yaml_same_logs"] = logs(work / "two_local") == logs(work / "two_yaml")
    return report


def main() -> int:
    work = Path(sys.argv[1])
    scenario = sys.argv[2]
    os.chdir(work)
    if scenario == "laptop":
        sh("ip", "link", "set", "lo", "up")
        print(json.dumps(laptop(work)))
        return 0
    # notice a dead node within about two seconds instead of the default fifteen
    os.environ.update(RAY_health_check_period_ms="500", RAY_health_check_failure_threshold="4", RAY_health_check_timeout_ms="500")
    sh("ip", "link", "set", "lo", "up")
    nodes = LocalCluster(nodes=2, cpus=3, port=PORT).start()
    report: dict[str, Any] = {"scenario": scenario}
    try:
        local = run(work, "local", None)
        killed: list[int] = []
        if scenario == "kill":
            def kill_later() -> None:
                deadline = time.monotonic() + 400  # (a loaded machine: two matches done took over a minute)
                while time.monotonic() < deadline:
                    done = list((work / "cluster" / "matches").rglob("*.done.json")) if (work / "cluster").exists() else []
                    if len(done) >= 2:
                        pid = nodes.worker_raylet()
                        if pid is not None:
                            os.kill(pid, signal.SIGKILL)
                            killed.append(pid)
                        return
                    time.sleep(0.05)

            threading.Thread(target=kill_later, daemon=True).start()
        cluster = run(work, "cluster", f"127.0.0.1:{PORT}")
        import ray as ray_module

        report["nodes"] = len(ray_module.nodes())
        if killed:  # the cluster notices a dead node after its health checks fail
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and sum(1 for n in ray_module.nodes() if n.get("Alive")) > 1:
                time.sleep(0.5)
        report["alive_nodes"] = sum(1 for n in ray_module.nodes() if n.get("Alive"))
        ray_module.shutdown()
        report["killed"] = killed
        report["complete"] = bool(local["complete"] and cluster["complete"])
        report["same_results"] = comparable(local) == comparable(cluster)
        a, b = logs(work / "local"), logs(work / "cluster")
        report["log_files"] = len(a)
        report["same_logs"] = a == b and len(a) > 0
        report["duplicate_same_logs"] = duplicate_match_same(work)
        report["different_logs"] = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:5]
    finally:
        nodes.stop()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
