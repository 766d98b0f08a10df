"""``showdown solve cfr`` on an abstraction: hold'em, or a small game with ``--abstraction``.

Runs public-chance-sampling CFR+ (``showdown.solvers.pcs``), prints progress (iterations, iterations
per second, memory, and in small limit games the real game's exploitability), checkpoints and resumes,
and writes the average strategy as ``<game>.pcs.npz``, which ``-o strategy=FILE`` of the ``cfr``
agent plays. The shipped hold'em strategies were made with::

    showdown solve cfr holdem-limit --iterations N -o showdown/solvers/data/holdem-limit.pcs.npz
    showdown solve cfr holdem-nolimit --iterations N -o showdown/solvers/data/holdem-nolimit.pcs.npz

(the counts N: README, "Hold'em: the ``cfr`` agent")
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from showdown.errors import ConfigError, SolverError
from showdown.games.gamedef import GameDef

DEFAULT_PCS_ITERATIONS = 1000


def parse_abstraction(game: GameDef, text: str | None) -> Any:
    """``rank``, ``strength:N`` or ``holdem[:169,F,T,R]`` (default for hold'em) -> a card abstraction."""
    from showdown.solvers.abstraction import RankAbstraction, StrengthAbstraction

    spec = text or ("holdem" if game.num_hole_cards == 2 and game.num_rounds == 4 else "rank")
    kind, _, arg = spec.partition(":")
    try:
        if kind == "rank":
            return RankAbstraction(game)
        if kind == "strength":
            return StrengthAbstraction(game, int(arg or 3))
        if kind == "holdem":
            from showdown.solvers.holdem_buckets import DEFAULT_BUCKETS, HoldemAbstraction

            sizes = tuple(int(x) for x in arg.split(",")) if arg else DEFAULT_BUCKETS
            return HoldemAbstraction(game, sizes)
    except ValueError:
        pass
    raise ConfigError(f"--abstraction {spec!r}: expected rank, strength:N or holdem[:169,F,T,R]")


def parse_sizes(text: str | None, max_raises: int | None) -> Any:
    """``default``, ``wide`` or ``0.5,1,2:1,2:1/0.25,0.5,1:1/0.25,1:1/0.25,1:1`` -> a BetSizing.

    Rounds are separated by ``/``; within a round, ``:`` separates the sizes of the first raise from
    those of the second, third, ... (the last group repeats up to ``max_raises``)."""
    from showdown.solvers.betting import SIZINGS, BetSizing

    if text is None or text in SIZINGS:
        base = SIZINGS[text or "default"]()
        return base if max_raises is None else BetSizing(base.fractions, max_raises, base.later)
    try:
        rounds = [[tuple(float(x) for x in group.split(",") if x) for group in part.split(":")] for part in text.split("/")]
    except ValueError:
        raise ConfigError(f"--sizes {text!r}: expected default, wide or pot fractions per round, e.g. {SIZES_EXAMPLE}") from None
    if any(not g or any(f <= 0 for f in g) for r in rounds for g in r):
        raise ConfigError(f"--sizes {text!r}: every pot fraction must be positive, and no group empty (e.g. {SIZES_EXAMPLE})")
    later = tuple(tuple(r[1:]) for r in rounds) if any(len(r) > 1 for r in rounds) else ()
    return BetSizing(tuple(r[0] for r in rounds), 2 if max_raises is None else max_raises, later)


SIZES_EXAMPLE = "0.5,1,2:1,2:1/0.25,0.5,1:1/0.25,1:1/0.25,1:1"


def _stoppable(run: Callable[[], object]) -> int:
    """Run ``run``; Ctrl-C or SIGTERM (a scheduler's, `timeout`'s: it killed the run with nothing written)
    stops it. The signal that did (SIGINT 2, SIGTERM 15), or 0."""
    got = [int(signal.SIGINT)]

    def on_term(signum: int, frame: FrameType | None) -> None:
        got[0] = signum
        raise KeyboardInterrupt

    try:
        previous: Any = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread: SIGTERM keeps its meaning
        previous = None
    try:
        run()
    except KeyboardInterrupt:
        return got[0]
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return 0


def pcs_handler(args: argparse.Namespace, game: GameDef) -> int:
    from showdown.solvers.pcs import PCSSolver, real_strategy, run

    label = game.name or Path(args.game).stem
    checkpoint = Path(args.checkpoint) if args.checkpoint else None
    output = Path(args.output) if args.output else Path(f"{label}.pcs.npz")
    if not output.name.endswith(".pcs.npz"):
        raise ConfigError(f"-o {output}: an abstract strategy file is named *.pcs.npz")
    if checkpoint is not None and checkpoint.expanduser().resolve() == output.expanduser().resolve():
        # the strategy was written over the checkpoint just saved; the resume said 'not a checkpoint'
        raise ConfigError(f"--checkpoint {checkpoint} is also the file the strategy is written to, which would "
                          f"overwrite the checkpoint: give another name (e.g. {label}.pcs.ckpt.npz)")
    if checkpoint is not None and checkpoint.exists():
        solver = PCSSolver.load_checkpoint(checkpoint)
        if solver.game != game:
            raise SolverError(f"checkpoint {checkpoint} is for {solver.game.name or 'another game'}, not {label}")
    else:
        abstraction = parse_abstraction(game, args.abstraction)
        sizing = parse_sizes(args.sizes, args.max_raises) if game.is_nolimit else None
        exhaustive = game.total_board_cards <= 2 and not args.sample_boards
        solver = PCSSolver(game, abstraction, sizing, seed=args.seed, exhaustive=exhaustive)
    iterations = args.iterations
    if iterations is None and args.seconds is None:
        iterations = DEFAULT_PCS_ITERATIONS
    small = game.is_limit and game.total_board_cards <= 2
    started = time.perf_counter()

    def exploit() -> float | None:
        if not small:
            return None
        from showdown.solvers.best_response import exploitability

        return float(exploitability(game, real_strategy(solver.strategy())))

    def progress(s: PCSSolver) -> None:
        if args.quiet:
            return
        rate = s.iterations / s.seconds if s.seconds else 0.0
        mem = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        e = exploit()
        extra = f", exploitability {e:.4g} chips/hand" if e is not None else ""
        print(
            f"{label} pcs-cfr+: {s.iterations} iterations, {rate:.2f} it/s, {s.layout.num_infosets:,} information sets, "
            f"peak memory {mem:.0f} MB ({time.perf_counter() - started:.0f} s){extra}",
            file=sys.stderr,
            flush=True,
        )

    stopped = _stoppable(lambda: run(solver, iterations=iterations, seconds=args.seconds, progress=progress, every=args.every,
                                     checkpoint=checkpoint))
    if stopped and checkpoint:
        solver.save_checkpoint(checkpoint)
    solver.strategy().save(output)
    summary: dict[str, Any] = {
        "game": label,
        "algorithm": "pcs-cfr+",
        "abstraction": solver.abstraction.to_json() | {"game": None},
        "sizing": solver.sizing.to_json() if solver.sizing else None,
        "iterations": solver.iterations,
        "seconds": round(solver.seconds, 3),
        "information_sets": solver.layout.num_infosets,
        "exploitability": exploit(),
        "strategy": str(output),
        "bytes": output.stat().st_size,
        "interrupted": bool(stopped),
    }
    summary["abstraction"].pop("game", None)
    if args.json:
        print(json.dumps(summary))
    else:
        e = summary["exploitability"]
        print(
            f"{label}: {solver.iterations} iterations of pcs-cfr+ in {solver.seconds:.1f} s on "
            f"{solver.layout.num_infosets:,} information sets; strategy {output} ({summary['bytes'] / 1e6:.1f} MB)"
            + (f"; exploitability in the real game {e:.4g} chips/hand" if e is not None else "")
            + ("; interrupted" if stopped else "")
        )
    return 128 + stopped if stopped else 0


def add_buckets_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-j", type=int, default=2, metavar="N", help="worker processes (default 2)")
    parser.add_argument(
        "-o", "--output", metavar="FILE",
        help="where to write the tables (default: the cache, ~/.cache/showdown/holdem-flop-ehs2.npz, which "
        "the hold'em abstraction then reads instead of the shipped copy)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=buckets_handler)


def buckets_handler(args: argparse.Namespace) -> int:
    """Rebuild the hold'em flop E[HS^2] table and the bucket quantiles; say whether they equal the shipped ones."""
    import numpy as np

    from showdown.solvers.holdem_buckets import build_tables, cached_tables_path, load_tables, packaged_tables_path, save_tables

    if args.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1 (got {args.jobs})")
    output = Path(args.output) if args.output else cached_tables_path()
    start = time.perf_counter()
    tables = build_tables(jobs=args.jobs, stream=sys.stderr)
    seconds = time.perf_counter() - start
    save_tables(tables, output)
    shipped = load_tables(packaged_tables_path())
    same = all(np.array_equal(tables[k], shipped[k]) for k in ("flop", "quantiles"))
    summary = {"output": str(output), "seconds": round(seconds, 1), "jobs": args.jobs, "equal_to_shipped": same}
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"hold'em buckets: 1,755 flops x 1,326 holdings of E[HS^2] and the turn/river quantiles in {seconds:.0f} s "
            f"on {args.jobs} process(es), written to {output}; {'identical to' if same else 'DIFFERENT from'} the shipped table"
        )
    return 0 if same else 1
