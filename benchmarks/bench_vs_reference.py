"""``showdown dealer`` beside the reference ACPC dealer, the same two reference players, side by side.

    PYTHONPATH=. python benchmarks/bench_vs_reference.py --acpc /path/to/project_acpc_server \\
        [--game holdem-nolimit] [--hands 20000] [--repeat 3] [--spin-us US] [--floor] [--tournament AGENTS]

``--acpc`` is a built copy of the public ACPC server code (``dealer`` and ``example_player``; never
shipped). Each repeat runs the reference dealer and then ours (alternating, so load changes hit both),
each with two reference ``example_player`` processes, and times the whole match from the dealer's
start to its exit (showdown's modules are byte-compiled first, as ``pip install`` does, so that its
start-up never compiles source, even where PYTHONDONTWRITEBYTECODE is set). Prints each pair, the medians, and the ratio of hands per second (ours /
reference), the figure issue 12 asks to bring to at least 1.0, and each dealer's CPU per hand
(the dealer process alone, from the operating system's accounting of the finished child).

``--floor`` runs a third dealer in each repeat, ``floor_dealer.py``: today's engine behind a plain
synchronous socket loop with no logs, clocks or asyncio, the least CPU per hand any synchronous hot
loop around the engine could spend.

``--tournament AGENTS`` measures matches per hour instead: ``showdown tournament --jobs 2`` of
AGENTS reference ``example_player`` processes (every pair plays one match of ``--hands`` hands, no
sandbox), beside the reference dealer playing the same matches two at a time; the figure issue 32
asks to bring to at least 1.0 (on 2 cores).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import itertools
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GAME_FILES = {
    "holdem-nolimit": "holdem.nolimit.2p.reverse_blinds.game",
    "holdem-limit": "holdem.limit.2p.reverse_blinds.game",
    "kuhn": "kuhn.limit.2p.game",
}


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def one_match(dealer: list[str], acpc: Path, game_file: Path, work: Path) -> tuple[float, float, float]:
    """Seconds from the dealer's start to its exit, and the dealer's user and system CPU seconds."""
    ports = free_ports(2)
    start = time.perf_counter()
    proc = subprocess.Popen([*dealer, "-p", f"{ports[0]},{ports[1]}"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.readline()  # both dealers print their ports once they listen
    players = [subprocess.Popen([str(acpc / "example_player"), str(game_file), "127.0.0.1", str(p)], cwd=acpc,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in ports]
    proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    for p in players:
        p.wait(timeout=60)
    if proc.returncode != 0:
        raise SystemExit(f"dealer {dealer[0]} exited with {proc.returncode}")
    return elapsed, usage.ru_utime, usage.ru_stime


def _cpu(run: tuple[float, float, float], hands: int) -> str:
    _, user, system = run
    return f"{(user + system) / hands * 1e6:.0f} us CPU/hand ({user / hands * 1e6:.0f} user + {system / hands * 1e6:.0f} system)"


def reference_tournament(acpc: Path, game_file: Path, work: Path, agents: int, hands: int) -> float:
    """Seconds for the reference dealer to play every pair of ``agents`` once, two matches at a time."""
    pairs = list(itertools.combinations(range(agents), 2))
    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda ij: one_match([str(acpc / "dealer"), f"t{ij[0]}-{ij[1]}", str(game_file), str(hands), "1",
                                            f"p{ij[0]}", f"p{ij[1]}"], acpc, game_file, work), pairs))
    return time.perf_counter() - start


def our_tournament(acpc: Path, game_file: Path, work: Path, agents: int, hands: int, run: int) -> float:
    """Seconds for ``showdown tournament --jobs 2`` of the same players and matches."""
    player = f"{acpc / 'example_player'} {game_file}"
    lines = [f"game: {game_file}", f"hands: {hands}", "duplicate: false", "seed: 1", f"out: {work / f'tour{run}'}",
             "agents:", *(f"  - {{command: \"{player}\", label: p{i}, token: false}}" for i in range(agents))]  # fmt: skip
    spec = work / f"tour{run}.yaml"
    spec.write_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "showdown", "tournament", str(spec), "--jobs", "2", "--no-sandbox", "--no-progress"],
                   cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def tournaments(args: argparse.Namespace, game_file: Path, work: Path) -> None:
    matches = args.tournament * (args.tournament - 1) // 2
    ref, ours = [], []
    for k in range(args.repeat):
        ref.append(reference_tournament(args.acpc, game_file, work, args.tournament, args.hands))
        ours.append(our_tournament(args.acpc, game_file, work, args.tournament, args.hands, k))
        print(f"repeat {k + 1}: reference {matches * 3600 / ref[-1]:,.0f} matches/hour, "
              f"showdown {matches * 3600 / ours[-1]:,.0f} matches/hour", flush=True)
    r, o = statistics.median(ref), statistics.median(ours)
    print(f"{args.game} tournament of {args.tournament} players ({matches} matches of {args.hands} hands, 2 at a time), "
          f"median of {args.repeat}: reference {matches * 3600 / r:,.0f} matches/hour, showdown {matches * 3600 / o:,.0f} "
          f"matches/hour; ratio {r / o:.2f}x; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--acpc", type=Path, default=os.environ.get("SHOWDOWN_ACPC"),
                        help="a built copy of the public ACPC server code (default: $SHOWDOWN_ACPC)")
    parser.add_argument("--game", default="holdem-nolimit", choices=sorted(GAME_FILES))
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spin-us", type=int, help="our dealer's --spin-us (default: its own default)")
    parser.add_argument("--floor", action="store_true", help="also time floor_dealer.py (the engine in a bare synchronous loop)")
    parser.add_argument("--tournament", type=int, metavar="AGENTS",
                        help="matches per hour of a --jobs 2 tournament of AGENTS players instead")
    args = parser.parse_args()
    if args.acpc is None or not (Path(args.acpc) / "dealer").is_file():
        print("bench_vs_reference: skipped: give --acpc DIR (or $SHOWDOWN_ACPC), a built copy of the public ACPC server code")
        return
    args.acpc = Path(args.acpc)
    game_file = (args.acpc / GAME_FILES[args.game]).resolve()
    if not game_file.is_file():  # the public code ships no 2-player Kuhn file: ours is the same game
        game_file = (Path(__file__).resolve().parent.parent / "showdown" / "games" / "data" / GAME_FILES[args.game])
    work = Path(tempfile.mkdtemp(prefix="vsref-"))
    if os.environ.get("PYTHONPATH"):  # the dealers run in ``work``: a relative entry (``PYTHONPATH=.``) must not move
        os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in os.environ["PYTHONPATH"].split(os.pathsep))
    package = importlib.util.find_spec("showdown")
    if package is not None and package.submodule_search_locations:
        compileall.compile_dir(package.submodule_search_locations[0], quiet=1)
    if args.tournament:
        tournaments(args, game_file, work)
        return
    spin = [] if args.spin_us is None else ["--spin-us", str(args.spin_us)]
    ref, ours, floor, ratios, cpu_ratios = [], [], [], [], []
    floor_dealer = [sys.executable, str(Path(__file__).resolve().parent / "floor_dealer.py"), str(game_file), str(args.hands), "1"]
    for k in range(args.repeat):
        if args.floor:
            floor.append(one_match(floor_dealer, args.acpc, game_file, work))
            print(f"repeat {k + 1}: floor {args.hands / floor[-1][0]:,.0f} hands/s, {_cpu(floor[-1], args.hands)}", flush=True)
        ref.append(one_match([str(args.acpc / "dealer"), f"ref{k}", str(game_file), str(args.hands), "1", "a", "b"], args.acpc, game_file, work))
        ours.append(one_match([sys.executable, "-m", "showdown", "dealer", f"ours{k}", str(game_file), str(args.hands), "1", "a", "b", "-q", *spin],
                              args.acpc, game_file, work))
        ratios.append(ref[-1][0] / ours[-1][0])
        cpu_ratios.append(sum(ours[-1][1:]) / sum(ref[-1][1:]))
        print(f"repeat {k + 1}: reference {args.hands / ref[-1][0]:,.0f} hands/s, {_cpu(ref[-1], args.hands)}; "
              f"showdown {args.hands / ours[-1][0]:,.0f} hands/s, {_cpu(ours[-1], args.hands)}", flush=True)
    r, o = statistics.median(t for t, _, _ in ref), statistics.median(t for t, _, _ in ours)
    rc, oc = statistics.median(u + s for _, u, s in ref), statistics.median(u + s for _, u, s in ours)
    print(f"{args.game}, {args.hands} hands, median of {args.repeat}: reference {args.hands / r:,.0f} hands/s, "
          f"showdown {args.hands / o:,.0f} hands/s; ratio {r / o:.2f}x (pair by pair: median {statistics.median(ratios):.2f}x); "
          f"dealer CPU per hand: reference {rc / args.hands * 1e6:.0f} us, showdown {oc / args.hands * 1e6:.0f} us, "
          f"ratio {statistics.median(cpu_ratios):.2f}x; load average {os.getloadavg()[0]:.1f}")
    if floor:
        fc = statistics.median(u + s for _, u, s in floor)
        fu = statistics.median(u for _, u, _ in floor)
        print(f"floor (engine in a bare synchronous loop): {args.hands / statistics.median(t for t, _, _ in floor):,.0f} hands/s, "
              f"{fc / args.hands * 1e6:.0f} us CPU per hand ({fu / args.hands * 1e6:.0f} us user), {fc / rc:.2f}x the reference's")


if __name__ == "__main__":
    main()
