"""The hold'em ``cfr`` agent under the reference ACPC dealer, against another program's bot.

    PYTHONPATH=. python benchmarks/bench_interop_cfr.py --acpc /path/to/project_acpc_server \\
        [--game holdem-nolimit] [--opponent example_player|always_call] [--hands 1000] [--seed 0]

``--acpc`` is a built copy of the public ACPC server code (``make`` there builds ``dealer`` and
``example_player``; we never ship it; default ``$SHOWDOWN_ACPC``, and without either the run says it is skipped, as
``make bench`` runs it). The reference dealer runs the match; ``showdown agent cfr``
connects to seat 1 with only the protocol, the opponent to seat 2: the reference ``example_player``
(which raises to a uniformly random legal size, so nearly every bet is off our abstract tree) or our
``examples/always_call.c``. Prints the hands played, cfr's result in mbb/hand with a 95% interval, the
number of the opponent's raises and of distinct raise sizes our agent had to translate, and whether
the dealer reported any error (an illegal action would be one).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = {"holdem-nolimit": "holdem.nolimit.2p.reverse_blinds.game", "holdem-limit": "holdem.limit.2p.reverse_blinds.game"}


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--acpc", type=Path, default=os.environ.get("SHOWDOWN_ACPC"),
                        help="built project_acpc_server folder (default: $SHOWDOWN_ACPC)")
    parser.add_argument("--game", default="holdem-nolimit", choices=sorted(GAME_FILES))
    parser.add_argument("--opponent", default="example_player", choices=["example_player", "always_call"])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.acpc is None or not (Path(args.acpc) / "dealer").is_file():  # make bench gives no argument
        print("bench_interop_cfr: skipped: give --acpc DIR (or $SHOWDOWN_ACPC), a built copy of the public ACPC server code")
        return 0
    args.acpc = Path(args.acpc)
    work = Path(tempfile.mkdtemp(prefix="interop-"))
    game_file = args.acpc / GAME_FILES[args.game]
    p1, p2 = free_ports(2)
    dealer = subprocess.Popen(
        [str(args.acpc / "dealer"), "interop", str(game_file), str(args.hands), str(args.seed), "cfr", args.opponent,
         "-p", f"{p1},{p2}", "--t_response", "10000", "--t_hand", "60000", "--t_per_hand", "6000"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(0.5)
    start = time.perf_counter()
    ours = subprocess.Popen(
        [sys.executable, "-m", "showdown", "agent", "cfr", "--game", args.game, "--seed", "1", "127.0.0.1", str(p1)],
        cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )
    if args.opponent == "example_player":
        theirs = subprocess.Popen([str(args.acpc / "example_player"), str(game_file), "127.0.0.1", str(p2)], cwd=args.acpc)
    else:
        binary = work / "always_call"
        subprocess.run([shutil.which("gcc") or "gcc", "-O2", "-o", str(binary), str(ROOT / "examples" / "always_call.c")], check=True)
        first = "1,0,0,0"
        theirs = subprocess.Popen([str(binary), "--first", first, "127.0.0.1", str(p2)])
    out, err = dealer.communicate(timeout=3600)
    elapsed = time.perf_counter() - start
    ours.wait(timeout=60)
    theirs.wait(timeout=60)
    our_err = ours.stderr.read() if ours.stderr else ""
    log = (work / "interop.log").read_text()
    results = []
    raises: list[int] = []
    for line in log.splitlines():
        if not line.startswith("STATE:"):
            continue
        _, _hand, betting, _cards, score, names = line.split(":", 5)
        seat = names.split("|").index("cfr")
        results.append(float(score.split("|")[seat]))
        raises.extend(int(m) for m in re.findall(r"r(\d+)", betting))
    bb = 100 if args.game == "holdem-nolimit" else 10
    r = np.array(results) / bb * 1000
    print(
        f"{args.game} under the reference dealer, cfr vs {args.opponent}: {len(results)} hands in {elapsed:.0f} s; "
        f"cfr {r.mean():+.0f} mbb/hand (95% +-{1.96 * r.std(ddof=1) / np.sqrt(len(r)):.0f}); "
        f"{len(raises)} raises in the log, {len(set(raises))} distinct sizes; dealer said: {out.strip().splitlines()[-1] if out.strip() else '-'}"
    )
    problems = [ln for ln in (err + our_err).splitlines() if re.search(r"ERROR|invalid|Traceback|error", ln)]
    print("errors: " + ("; ".join(problems[:5]) if problems else "none"))
    return 0 if len(results) == args.hands and not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
