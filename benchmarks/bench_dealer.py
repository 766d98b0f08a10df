"""Dealer throughput: a match served over TCP to two random clients running as separate processes.

    PYTHONPATH=. python3 benchmarks/bench_dealer.py [--hands N] [--game kuhn] [--profile] [--pin] [--no-uvloop] [--spin-us US]

Prints hands per second (measured from the first finished hand to the last, so process start-up is
not counted), CPU time per hand of the dealer and of each client, and the dealer's peak RSS; then
checks the log with ``verify_log``. The dealer runs in this process (uvloop when installed, unless
``--no-uvloop``); each client is a minimal blocking-socket player written here, so the figure does not
depend on the agents package. ``--profile`` runs the dealer under cProfile and prints the top
functions; ``--pin`` puts the dealer on CPU 0 and the clients on CPU 1. The figures depend heavily on
what else runs on the machine: compare CPU per hand, not only hands/s, on a busy one.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def client(host: str, port: int, game_spec: str, seed: int) -> None:
    """A random player: answers every MATCHSTATE line that is its turn with a random legal action.

    Whose turn it is and what is legal depend only on the betting string, so both are cached per
    betting string (the rules engine runs once per distinct betting, not once per line).
    """
    from showdown.games.catalog import get_game
    from showdown.games.state import State

    game = get_game(game_spec)
    root = State.initial(game)
    rng = random.Random(seed)
    cache: dict[str, tuple[int, tuple[str, ...]]] = {}

    def turn(betting: str) -> tuple[int, tuple[str, ...]]:
        hit = cache.get(betting)
        if hit is None:
            s = root.apply_betting(betting)
            hit = (-1, ()) if s.finished else (s.current_player, tuple(str(a) for a in s.legal_actions()))
            if len(cache) < 100_000:
                cache[betting] = hit
        return hit

    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(b"VERSION:2.0.0\r\n")
    buf = b""
    while True:
        data = sock.recv(65536)
        if not data:
            return
        buf += data
        *lines, buf = buf.split(b"\n")
        replies = []
        for raw in lines:
            line = raw.rstrip(b"\r").decode()
            if not line.startswith("MATCHSTATE:"):
                continue
            _, pos, _, betting, _ = line.split(":", 4)
            actor, legal = turn(betting)
            if actor == int(pos):
                replies.append(f"{line}:{rng.choice(legal)}\r\n")
        if replies:
            sock.sendall("".join(replies).encode())


def serve(
    hands: int,
    game_spec: str,
    seed: int,
    log_dir: Path,
    profile: bool,
    pin: bool = False,
    uvloop: bool = True,
    write_log: bool = True,
    spin_us: int | None = None,
) -> dict[str, Any]:
    """Serve one match to two client processes; return the figures."""
    from showdown.games.catalog import get_game
    from showdown.server.tcp import DealerOptions, MatchServer, new_event_loop

    game = get_game(game_spec)
    marks: list[float] = []

    cpu: list[float] = []

    def on_hand(record: object) -> None:
        if not marks:
            marks.append(time.perf_counter())
            cpu.append(time.process_time())

    async def main() -> float:
        options = DealerOptions(log_dir=log_dir if write_log else None, game_label=game_spec)
        if spin_us is not None:  # the dealer's polling for replies (server.busy_wait), else its default
            options = dataclasses.replace(options, spin_us=spin_us)
        server = MatchServer(game, "bench", hands, seed, ["r1", "r2"], options, on_hand=on_hand)
        ports = await server.start()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
        if pin:
            os.sched_setaffinity(0, {0})
            env["BENCH_PIN_CPU"] = "1"
        procs = [
            subprocess.Popen([sys.executable, __file__, "--client", "127.0.0.1", str(port), game_spec, str(seed + i)], env=env)
            for i, port in enumerate(ports)
        ]
        result = await server.run()
        end = time.perf_counter()
        cpu.append(time.process_time())
        for p in procs:
            p.wait(timeout=30)
        assert result.hands_played == hands and not result.aborted, result
        return end

    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    loop = new_event_loop() if uvloop else asyncio.new_event_loop()
    try:
        end = loop.run_until_complete(main())
    finally:
        loop.close()
    if profiler is not None:
        import pstats

        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    elapsed = end - marks[0]
    return {
        "hands": hands,
        "seconds": elapsed,
        "hands_per_s": (hands - 1) / elapsed,
        "cpu_us_per_hand": (cpu[1] - cpu[0]) / (hands - 1) * 1e6,
        "client_cpu_us_per_hand": _children_cpu() / hands * 1e6 / 2,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "loop": type(loop).__module__,
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        _, _, host, port, game_spec, seed = sys.argv
        if os.environ.get("BENCH_PIN_CPU"):
            os.sched_setaffinity(0, {int(os.environ["BENCH_PIN_CPU"])})
        client(host, int(port), game_spec, int(seed))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="run the dealer under cProfile")
    parser.add_argument("--spin-us", type=int, help="the dealer's spin_us (default: its own default)")
    parser.add_argument("--no-log", action="store_true", help="write no log files (to see what logging costs)")
    parser.add_argument("--no-uvloop", action="store_true", help="plain asyncio even if uvloop is installed")
    parser.add_argument("--pin", action="store_true",
                        help="pin the dealer to CPU 0 and the clients to CPU 1 (fewer preemptions on 2 cores)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = serve(args.hands, args.game, args.seed, Path(tmp), args.profile, args.pin, not args.no_uvloop, not args.no_log,
                  args.spin_us)
        from showdown.evaluation.verify import verify_log

        verified = "not written" if args.no_log else "verified" if verify_log(Path(tmp) / "bench.log").ok else "FAILED verification"
    print(
        f"{args.game}: {r['hands']} hands in {r['seconds']:.2f} s = {r['hands_per_s']:.0f} hands/s; "
        f"CPU per hand: dealer {r['cpu_us_per_hand']:.0f} us, each client {r['client_cpu_us_per_hand']:.0f} us; "
        f"dealer peak RSS {r['peak_rss_mb']:.1f} MB; event loop {r['loop']}; "
        f"log {verified}"
    )


if __name__ == "__main__":
    main()
