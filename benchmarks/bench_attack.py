"""A match under attack: 100 misbehaving clients hit a live dealer's ports while two agents play.

    python benchmarks/bench_attack.py [--hands 150000] [--attackers 100] [--game kuhn]

Starts ``showdown dealer --tokens`` (Kuhn by default) and two ``showdown agent random`` processes
with their seat tokens, then runs ``--attackers`` clients on 127.0.0.1 against the seat ports until
the match ends: idle connections that never speak, connect/disconnect loops, half lines (a VERSION
cut short), wrong tokens and floods of junk lines. Every attacker loop is bounded in count and time.
Samples the dealer's resident memory and open file descriptors every 0.2 s and prints: whether the
match finished (and verify-log's verdict), hands/s, peak RSS, the largest number of open fds, and
the connections the attackers made. Run it with ``--attackers 0`` for the same figures undisturbed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def sample(pid: int) -> tuple[int, int]:
    """(resident KiB, open file descriptors) of process ``pid``."""
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


async def attacker(kind: str, port: int, stop: asyncio.Event, counts: dict[str, int], rng: random.Random) -> None:
    """One misbehaving client, looping until ``stop`` (at most 100,000 rounds)."""
    for _ in range(100_000):
        if stop.is_set():
            return
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
        except (TimeoutError, OSError):
            await asyncio.sleep(0.05)  # refused: the seat's listener is closed while it is taken
            counts["refused"] = counts.get("refused", 0) + 1
            continue
        counts[kind] = counts.get(kind, 0) + 1
        try:
            if kind == "idle":
                await asyncio.wait_for(reader.read(), 30)  # sit until the dealer drops us
            elif kind == "churn":
                pass  # connect, disconnect, again
            elif kind == "half_line":
                writer.write(b"VERSION:2.")
                await asyncio.wait_for(reader.read(), 30)
            elif kind == "wrong_token":
                writer.write(b"VERSION:2.0.0 token=" + b"%032x" % rng.getrandbits(128) + b"\r\n")
                await asyncio.wait_for(reader.read(), 30)
            elif kind == "junk":
                for _ in range(50):
                    writer.write(bytes(rng.getrandbits(8) for _ in range(200)) + b"\n")
                await asyncio.wait_for(reader.read(), 30)
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(rng.uniform(0.0, 0.02))


async def main(args: argparse.Namespace) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="showdown-attack-"))
    dealer = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "showdown", "dealer", "m", args.game, str(args.hands), "1", "a", "b", "-q", "--tokens",
        cwd=folder, env=ENV, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert dealer.stdout is not None and dealer.stderr is not None
    ports = (await dealer.stdout.readline()).decode().split()
    tokens = (await dealer.stdout.readline()).decode().split()
    stop = asyncio.Event()
    counts: dict[str, int] = {}
    kinds = ["idle", "churn", "half_line", "wrong_token", "junk"]
    attackers = [
        asyncio.create_task(attacker(kinds[i % len(kinds)], int(ports[i % 2]), stop, counts, random.Random(i)))
        for i in range(args.attackers)
    ]
    await asyncio.sleep(0.5 if args.attackers else 0)  # the attack starts before the agents connect
    agents = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "showdown", "agent", "random", "--game", args.game, "--seed", str(i), "--token", tokens[i],
            "127.0.0.1", ports[i], env=ENV, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )
        for i in range(2)
    ]
    started = time.monotonic()
    peak_rss = peak_fds = 0
    stderr_task = asyncio.create_task(dealer.stderr.read())
    while dealer.returncode is None:
        try:
            rss, fds = sample(dealer.pid)
            peak_rss, peak_fds = max(peak_rss, rss), max(peak_fds, fds)
        except OSError:
            pass
        try:
            await asyncio.wait_for(dealer.wait(), 0.2)
        except TimeoutError:
            pass
    seconds = time.monotonic() - started
    stop.set()
    await asyncio.gather(*attackers, return_exceptions=True)
    for a in agents:
        await a.wait()
    score = (await dealer.stdout.read()).decode().strip().splitlines()
    err = (await stderr_task).decode()
    verdict = subprocess.run([sys.executable, "-m", "showdown", "verify-log", str(folder / "m.log")], env=ENV,
                             capture_output=True, text=True, check=False).stdout.strip()
    return {
        "game": args.game,
        "hands": args.hands,
        "attackers": args.attackers,
        "finished": dealer.returncode == 0 and bool(score) and score[-1].startswith("SCORE:"),
        "verify_log": verdict,
        "seconds": round(seconds, 1),
        "hands_per_s": round(args.hands / seconds),
        "dealer_peak_rss_mb": round(peak_rss / 1024, 1),
        "dealer_max_open_fds": peak_fds,
        "attacker_connections": counts,
        "dealer_warnings": sum(1 for line in err.splitlines() if line.startswith("WARNING")),
    }


if __name__ == "__main__":
    import logging

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # the attackers' own writes to dropped sockets
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150_000)
    parser.add_argument("--attackers", type=int, default=100)
    parser.add_argument("--game", default="kuhn")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=1))
