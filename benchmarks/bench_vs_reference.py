"""``showdown dealer`` beside the reference ACPC dealer, the same two reference players, side by side.

    PYTHONPATH=. python benchmarks/bench_vs_reference.py --acpc /path/to/project_acpc_server \\
        [--game holdem-nolimit] [--hands 20000] [--repeat 3]

``--acpc`` is a built copy of the public ACPC server code (``dealer`` and ``example_player``; never
shipped). Each repeat runs the reference dealer and then ours (alternating, so load changes hit both),
each with two reference ``example_player`` processes, and times the whole match from the dealer's
start to its exit (showdown's modules are byte-compiled first, as ``pip install`` does, so that its
start-up never compiles source, even where PYTHONDONTWRITEBYTECODE is set). Prints each pair, the medians, and the ratio of hands per second (ours /
reference), the figure issue 12 asks to bring to at least 1.0.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def one_match(dealer: list[str], acpc: Path, game_file: Path, work: Path) -> float:
    ports = free_ports(2)
    start = time.perf_counter()
    proc = subprocess.Popen([*dealer, "-p", f"{ports[0]},{ports[1]}"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.readline()  # both dealers print their ports once they listen
    players = [subprocess.Popen([str(acpc / "example_player"), str(game_file), "127.0.0.1", str(p)], cwd=acpc,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in ports]
    proc.communicate(timeout=3600)
    elapsed = time.perf_counter() - start
    for p in players:
        p.wait(timeout=60)
    if proc.returncode != 0:
        raise SystemExit(f"dealer {dealer[0]} exited with {proc.returncode}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--acpc", type=Path, default=os.environ.get("SHOWDOWN_ACPC"),
                        help="a built copy of the public ACPC server code (default: $SHOWDOWN_ACPC)")
    parser.add_argument("--game", default="holdem-nolimit", choices=sorted(GAME_FILES))
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.acpc is None or not (Path(args.acpc) / "dealer").is_file():
        print("bench_vs_reference: skipped: give --acpc DIR (or $SHOWDOWN_ACPC), a built copy of the public ACPC server code")
        return
    args.acpc = Path(args.acpc)
    game_file = (args.acpc / GAME_FILES[args.game]).resolve()
    if not game_file.is_file():  # the public code ships no 2-player Kuhn file: ours is the same game
        game_file = (Path(__file__).resolve().parent.parent / "showdown" / "games" / "data" / GAME_FILES[args.game])
    work = Path(tempfile.mkdtemp(prefix="vsref-"))
    package = importlib.util.find_spec("showdown")
    if package is not None and package.submodule_search_locations:
        compileall.compile_dir(package.submodule_search_locations[0], quiet=1)
    ref, ours = [], []
    for k in range(args.repeat):
        ref.append(one_match([str(args.acpc / "dealer"), f"ref{k}", str(game_file), str(args.hands), "1", "a", "b"], args.acpc, game_file, work))
        ours.append(one_match([sys.executable, "-m", "showdown", "dealer", f"ours{k}", str(game_file), str(args.hands), "1", "a", "b", "-q"],
                              args.acpc, game_file, work))
        print(f"repeat {k + 1}: reference {args.hands / ref[-1]:,.0f} hands/s, showdown {args.hands / ours[-1]:,.0f} hands/s", flush=True)
    r, o = statistics.median(ref), statistics.median(ours)
    print(f"{args.game}, {args.hands} hands, median of {args.repeat}: reference {args.hands / r:,.0f} hands/s, "
          f"showdown {args.hands / o:,.0f} hands/s; ratio {r / o:.2f}x")


if __name__ == "__main__":
    main()
