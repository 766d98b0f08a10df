"""``showdown solve cfr`` and ``showdown plot``: command-line front ends of the CFR solvers and pictures.

Wiring (in ``showdown/cli/main.py``)::

    p = solve_sub.add_parser("cfr", help=..., description=CFR_DESCRIPTION)
    add_cfr_arguments(p)        # also sets handler=cfr_handler
    p = sub.add_parser("plot", help=..., description=PLOT_DESCRIPTION)
    add_plot_arguments(p)       # also sets handler=plot_handler

A CFR run prints a progress line on stderr (iterations, iterations per second, exploitability,
at growing intervals), writes the average strategy in the shared strategy format (``-o``, default
``<game>.<algorithm>.strategy.json``), the exploitability curve beside it as CSV and JSON
(``<name>.curve.csv``, ``<name>.curve.json``), and with ``--checkpoint`` the full solver state, which a
later run with the same checkpoint resumes. Ctrl-C (or SIGTERM) stops after the current iteration and still writes
everything (a second Ctrl-C aborts at once).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from showdown import argtypes
from showdown.errors import ConfigError, SolverError

DEFAULT_ITERATIONS = 1000
"""Iterations run when no budget is given."""

CHECKPOINT_EVERY = 60.0
PCS_EVERY = 10.0  # an abstract game's progress lines and checkpoints (--every)
_ABSTRACT_ONLY = (("sizes", "--sizes"), ("max_raises", "--max-raises"), ("sample_boards", "--sample-boards"))
"""Seconds between checkpoint writes during a long run (besides the one at the end)."""

CFR_DESCRIPTION = (
    "Solve a game (kuhn, kuhn-N, leduc; kuhn3p, leduc3p and other small limit games of 3 or more players; "
    "holdem-limit and holdem-nolimit, or any two-player game with --abstraction, by public chance sampling CFR+) "
    "with a CFR variant, watching the exploitability (NashConv for more than 2 players) of the average strategy "
    "fall. Stops at the first budget met (--iterations counts the total, including "
    "iterations of a resumed checkpoint; default: 1000 iterations when no budget is given). Writes the "
    "strategy, its exploitability curve (CSV and JSON beside it) and, with --checkpoint, the solver state "
    "to resume from. Ctrl-C stops cleanly and writes them all."
)
PLOT_DESCRIPTION = (
    "Draw a picture: 'strategy FILE' draws a strategy file (N-card Kuhn: the four panels of the seeds; "
    "Leduc: one panel per betting sequence); 'curve FILE...' draws exploitability curves written by "
    "'showdown solve cfr'. Needs matplotlib (pip install 'showdown-poker[plot]')."
)


# ---------------------------------------------------------------------- solve cfr


def add_cfr_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``solve cfr`` arguments to ``parser`` and set its handler to ``cfr_handler``."""
    from showdown.solvers.cfr_rules import ALGORITHM_NAMES, DEFAULT_BATCHES  # not numpy: --help stays light

    parser.add_argument("game", help="catalog name (kuhn, kuhn-N, leduc, kuhn3p, leduc3p, holdem-limit, holdem-nolimit) or .game file")
    parser.add_argument(
        "--algorithm", "-a", choices=ALGORITHM_NAMES, default="cfr+",
        help="cfr (vanilla), cfr+ (default), linear, dcfr (discounted, 1.5/0/2), cs (chance-sampling "
        "Monte Carlo), es (external-sampling Monte Carlo)",
    )
    parser.add_argument("--iterations", "-n", type=int, metavar="N", help="stop after N iterations in total")
    parser.add_argument("--seconds", type=argtypes.real_number(0, 1e9, "a number of seconds"), metavar="T", help="stop after T seconds of solving in this run")
    parser.add_argument(
        "--target-exploitability", type=argtypes.real_number(0, what="an exploitability", above=True), metavar="E", dest="target",
        help="stop once the average strategy is at most E chips per hand exploitable (games solved whole; for more "
        "than 2 players the mean of their best-response gains, NashConv/N, as --json's exploitability)",
    )
    parser.add_argument("--checkpoint", metavar="FILE", help="resume from FILE if it exists; save the solver state to it")
    parser.add_argument("-o", "--output", metavar="FILE", help="strategy file (.json or .npz; default <game>.<algorithm>.strategy.json)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    parser.add_argument("--seed", type=argtypes.seed, default=0, help="seed of the Monte Carlo variants' sampling (default 0)")
    parser.add_argument(
        "--batch", type=int, metavar="K",
        help=f"deals sampled per update by cs and es (default {DEFAULT_BATCHES['cs']} and {DEFAULT_BATCHES['es']}; "
        "1 is the papers' algorithm)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    abstract = parser.add_argument_group(
        "abstract games (hold'em, or any two-player game with --abstraction): public chance sampling CFR+, "
        "strategy written as <game>.pcs.npz"
    )
    abstract.add_argument(
        "--abstraction", metavar="SPEC",
        help="card abstraction: holdem[:169,F,T,R] (hold'em's default: 169,50,50,50 buckets), rank (lossless in "
        "Leduc), strength:N (hole rank, then N hand-strength buckets)",
    )
    abstract.add_argument(
        "--sizes", metavar="SPEC",
        help="no-limit raise sizes: 'default' (0.5,1,2/0.5,1/1/1: the tree of no-limit's blueprint=v1), 'wide' (the shipped no-limit tree: adds 1/4 pot after the flop "
        "and a third sized raise: 0.5,1,2:1,2:1/0.25,0.5,1:1/0.25,1:1/0.25,1:1 with --max-raises 3), or pot fractions per "
        "round, '/' between rounds, ':' before the sizes of the round's later raises; all-in is always kept",
    )
    abstract.add_argument("--max-raises", type=int, metavar="N", help="sized raises per round before only all-in is left (default 2; wide: 3)")
    abstract.add_argument("--sample-boards", action="store_true", help="sample one board per iteration even in small games")
    parser.add_argument("--every", type=argtypes.real_number(0, 1e9, "a number of seconds", above=True), metavar="S",
                        help=f"seconds between checkpoints (default {CHECKPOINT_EVERY:g}; in abstract games {PCS_EVERY:g}, each with "
                        "a progress line)")
    parser.set_defaults(handler=cfr_handler)


def _not_an_output(checkpoint: Path | None, *outputs: Path) -> None:
    """Refuse a checkpoint named as the strategy file or a curve file: the run wrote that file over the
    checkpoint it had just saved, said 'checkpoint: FILE', and the resume was refused as 'not a CFR checkpoint'."""
    if checkpoint is None:
        return
    for out in outputs:
        if checkpoint.expanduser().resolve() == out.expanduser().resolve():
            raise SolverError(f"--checkpoint {checkpoint} is also the file the {'strategy' if out == outputs[0] else 'curve'} "
                              f"is written to, which would overwrite the checkpoint: give another name (e.g. {outputs[0].stem}.ckpt.npz)")


def _report(summary: dict[str, Any], as_json: bool) -> None:
    """The run's summary on stdout: the JSON document, or the lines saying what was written where."""
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    # the figure the line names: NashConv (the progress line's and the curve's) for more than two players
    figure = summary["nash_conv"] if summary["measure"] == "NashConv" else summary["exploitability"]
    lines = [f"{summary['game']} {summary['algorithm']}: {summary['iterations']} iterations in {summary['seconds']:.2f} s, "
             f"{summary['measure']} {figure:.3g} chips/hand{', interrupted' if summary['interrupted'] else ''}",
             f"strategy: {summary['strategy']}"]
    if summary["curve_csv"] is not None:
        lines.append(f"curve: {summary['curve_csv']}, {summary['curve_json']}")
    if summary["checkpoint"] is not None:
        lines.append(f"checkpoint: {summary['checkpoint']}")
    if "tree" in summary:
        lines.append(f"note: {summary['tree']}")
    print("\n".join(lines))


def output_paths(strategy: Path) -> tuple[Path, Path]:
    """The curve files beside a strategy file: ``x.strategy.json`` -> ``x.curve.csv``, ``x.curve.json``."""
    name = strategy.name
    for suffix in (".strategy.json", ".strategy.npz", ".json", ".npz"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return strategy.with_name(name + ".curve.csv"), strategy.with_name(name + ".curve.json")


def _written(what: str, path: Path, write: Callable[[], object]) -> None:
    """Run ``write``; a failure (a full disk, /dev/full, no permission) is one line naming the file."""
    try:
        write()
    except OSError as exc:
        raise SolverError(f"cannot write {what} {exc.filename or path}: {exc.strerror or exc}") from None


def write_curve(
    points: list[Any], csv_path: Path, json_path: Path, game: str, algorithm: str, measure: str = "exploitability"
) -> None:
    """Write the exploitability curve as CSV (iteration,seconds,exploitability) and as JSON (NashConv,
    named so in the JSON's ``measure`` and the CSV's column ``nash_conv``, for games of more than two players)."""
    column = "exploitability" if measure == "exploitability" else "nash_conv"  # (the CSV called NashConv exploitability)
    rows = [f"iteration,seconds,{column}", *(f"{q.iteration},{q.seconds:.6f},{q.exploitability!r}" for q in points)]
    csv_path.write_text("".join(row + "\r\n" for row in rows), encoding="utf-8", newline="")  # csv.writer's lines, numbers only
    doc = {
        "game": game,
        "algorithm": algorithm,
        "measure": measure,
        "unit": "chips per hand",
        "points": [{"iteration": q.iteration, "seconds": q.seconds, "exploitability": q.exploitability} for q in points],
    }
    json_path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


class _Progress:
    """The stderr progress line: rewritten in place on a terminal, else printed at growing intervals."""

    def __init__(
        self, stream: TextIO, label: str, quiet: bool, start_iterations: int, start_seconds: float, measure: str = "exploitability"
    ) -> None:
        self.measure = measure
        self.stream = stream
        self.label = label
        self.quiet = quiet
        self.tty = stream.isatty()
        self.start = time.perf_counter()
        self.start_iterations = start_iterations
        self.start_seconds = start_seconds
        self.last = -1.0
        self.dirty = False

    def text(self, iteration: int, seconds: float, exploitability: float) -> str:
        solved = seconds - self.start_seconds
        rate = (iteration - self.start_iterations) / solved if solved > 0 else 0.0
        return (
            f"{self.label}: {iteration} iteration{'' if iteration == 1 else 's'}, {rate:,.0f} it/s, "
            f"{self.measure} {exploitability:.3g} chips/hand ({seconds:.1f} s solving)"
        )

    def update(self, iteration: int, seconds: float, exploitability: float, final: bool = False) -> None:
        if self.quiet:
            return
        now = time.perf_counter() - self.start
        if self.tty:
            if final or now - self.last >= 0.1:
                self.stream.write("\r\x1b[K" + self.text(iteration, seconds, exploitability))
                self.stream.flush()
                self.dirty = True
                self.last = now
            if final:
                self.stream.write("\n")
                self.dirty = False
        elif final or self.last < 0 or now - self.last >= max(1.0, 0.25 * now):
            print(self.text(iteration, seconds, exploitability), file=self.stream, flush=True)
            self.last = now

    def message(self, text: str) -> None:
        if self.dirty:
            self.stream.write("\n")
            self.dirty = False
        print(text, file=self.stream, flush=True)


def _check_budget(args: argparse.Namespace) -> None:
    for name, value in (("--iterations", args.iterations), ("--seconds", args.seconds), ("--target-exploitability", args.target)):
        if value is not None and value < 0:
            raise SolverError(f"{name} must not be negative (got {value})")
    saved = bool(getattr(args, "checkpoint", None)) and Path(args.checkpoint).expanduser().is_file()
    zero = next((name for name, value in (("--iterations", args.iterations), ("--seconds", args.seconds)) if value == 0), None)
    if zero is not None and not saved:  # (wrote the untrained, uniform strategy without a word)
        raise SolverError(f"{zero} 0 trains nothing (the strategy would be uniform): give more, or --checkpoint "
                          "FILE of a saved run to write its strategy")
    if args.batch is not None and args.batch < 1:
        raise SolverError(f"--batch must be at least 1 (got {args.batch})")


def _solver_for(args: argparse.Namespace, game: Any, checkpoint: Path | None) -> tuple[Any, list[Any], bool]:
    """The solver to run: restored from ``checkpoint`` when it exists (with its curve so far), else new."""
    from showdown.solvers.cfr import load_solver, make_solver
    from showdown.solvers.npz import RESTORE_ERRORS, unfit_checkpoint
    from showdown.solvers.training import CurvePoint

    if checkpoint is None or not checkpoint.exists():
        return make_solver(game, args.algorithm, seed=args.seed, batch=args.batch), [], False
    solver, extra = load_solver(checkpoint, game)
    if solver.rule.name != args.algorithm:
        raise SolverError(
            f"checkpoint {checkpoint} holds a {solver.rule.name} run, not {args.algorithm}: "
            f"pass --algorithm {solver.rule.name} or another checkpoint file"
        )
    try:
        curve = [CurvePoint(int(q[0]), float(q[1]), float(q[2])) for q in extra.get("curve", [])]
    except RESTORE_ERRORS as exc:
        raise SolverError(unfit_checkpoint(checkpoint, exc)) from None
    return solver, curve, True


def _no_abstract_options(args: argparse.Namespace) -> None:
    """An abstract game's option given to a game solved whole is refused (it did nothing, silently)."""
    given = [flag for key, flag in _ABSTRACT_ONLY if getattr(args, key, None)]
    if given:
        raise ConfigError(f"{given[0]} is for abstract games (hold'em, or --abstraction); {args.game} is solved whole: drop it")


def _no_tabular_options(args: argparse.Namespace) -> None:
    """An option of the tabular solvers given to an abstract run is refused (the run ignored it, silently:
    --target-exploitability 0.5 ran the default 1,000 iterations, -a cs ran pcs-cfr+)."""
    if args.target is not None:
        raise ConfigError("--target-exploitability is for games solved whole; an abstract run (hold'em, or --abstraction) "
                          "stops by --iterations or --seconds")
    if args.algorithm != "cfr+":
        raise ConfigError(f"--algorithm {args.algorithm} is for games solved whole; an abstract run (hold'em, or "
                          "--abstraction) is public chance sampling CFR+ (pcs-cfr+): drop it")
    if args.batch is not None:
        raise ConfigError("--batch is for the cs and es algorithms of games solved whole; an abstract run (hold'em, or "
                          "--abstraction) samples one board per iteration: drop it")


def cfr_handler(args: argparse.Namespace) -> int:
    """Run ``showdown solve cfr``; returns 0, or 130 (143) when stopped by Ctrl-C (SIGTERM), everything still written."""
    from showdown.games.catalog import get_game
    from showdown.solvers.cfr_rules import needs_abstraction

    _check_budget(args)
    game = get_game(args.game)
    if needs_abstraction(game) or args.abstraction:
        from showdown.cli.pcs import pcs_handler

        _no_tabular_options(args)
        args.every = args.every or PCS_EVERY
        return pcs_handler(args, game)
    _no_abstract_options(args)
    from showdown.cli.blas import load_numpy_single_threaded
    from showdown.cli.startup import loading

    label = game.name or Path(args.game).stem
    iterations = args.iterations
    if iterations is None and args.seconds is None and args.target is None:
        iterations = DEFAULT_ITERATIONS
    checkpoint = Path(args.checkpoint) if args.checkpoint else None
    output = Path(args.output) if args.output else Path(f"{label}.{args.algorithm}.strategy.json")
    csv_path, json_path = output_paths(output)
    _not_an_output(checkpoint, output, csv_path, json_path)
    with loading():  # numpy, the solver and the game's tree: made once, kept to the end
        load_numpy_single_threaded()  # a tabular solve: small arrays, no use for BLAS threads
        from showdown.solvers.cfr import Solver
        from showdown.solvers.solve import tree_note
        from showdown.solvers.strategy import save_strategy
        from showdown.solvers.training import CurvePoint, train

        solver, curve, resumed = _solver_for(args, game, checkpoint)

    measure = "exploitability" if game.num_players == 2 else "NashConv"
    progress = _Progress(sys.stderr, f"{label} {args.algorithm}", args.quiet, solver.iterations, solver.seconds, measure)
    if resumed:
        progress.message(f"resuming {checkpoint} at iteration {solver.iterations} ({solver.seconds:.1f} s solved)")
    stop: dict[str, Any] = {"requested": False}
    last_save = [time.perf_counter()]

    def save_checkpoint() -> None:
        if checkpoint is not None:
            _written("checkpoint", checkpoint,
                     lambda: solver.save(checkpoint, {"curve": [[q.iteration, q.seconds, q.exploitability] for q in curve]}))
            last_save[0] = time.perf_counter()

    def on_check(point: CurvePoint, s: Solver) -> None:
        progress.update(point.iteration, point.seconds, point.exploitability)
        if checkpoint is not None and time.perf_counter() - last_save[0] >= (args.every or CHECKPOINT_EVERY):
            save_checkpoint()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if stop["requested"]:
            raise KeyboardInterrupt
        stop["requested"] = True
        stop["signal"] = signum
        progress.message("stopping after this iteration and writing the results (Ctrl-C again to abort)")

    # SIGTERM (a job scheduler's or `timeout`'s stop) as Ctrl-C: it killed the run with nothing
    # written, not even the checkpoint, which is saved only once a minute
    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[signum] = signal.signal(signum, on_sigint)
        except ValueError:  # not the main thread: the signals keep their default meaning
            pass
    try:
        result = train(
            solver,
            iterations=iterations,
            seconds=args.seconds,
            # the solver measures NashConv for more than two players; E is exploitability, NashConv/N
            target=args.target if args.target is None or game.num_players == 2 else args.target * game.num_players,
            curve=curve,
            should_stop=lambda: stop["requested"],
            on_check=on_check,
        )
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
    last = curve[-1]
    progress.update(last.iteration, last.seconds, last.exploitability, final=True)

    save_checkpoint()  # first: the run can be resumed even when another file cannot be written
    _written("strategy file", output, lambda: save_strategy(result.strategy, output))
    # beside a device (-o /dev/null) there is no folder of the user's: /dev/null.curve.csv was made in /dev
    curves = output.is_file() or not output.exists()
    if curves:
        _written("curve file", csv_path, lambda: write_curve(curve, csv_path, json_path, label, args.algorithm, measure))
    interrupted = result.stopped_by == "interrupted"
    summary = {
        "game": label,
        "algorithm": args.algorithm,
        "iterations": result.iterations,
        "seconds": result.seconds,
        # as `showdown exploit --json` gives them: NashConv, and exploitability its mean over the players
        # (the curve and the progress line follow `measure`: NashConv for more than two players)
        "exploitability": result.exploitability if game.num_players == 2 else result.exploitability / game.num_players,
        "nash_conv": result.exploitability * 2 if game.num_players == 2 else result.exploitability,
        "measure": measure,
        "stopped_by": result.stopped_by,
        "interrupted": interrupted,
        "value": solver.average_value(),  # position 0's expected chips per hand under the strategy
        "values": list(solver.average_values()),  # every position's
        "strategy": str(output),
        "curve_csv": str(csv_path) if curves else None,
        "curve_json": str(json_path) if curves else None,
        "checkpoint": str(checkpoint) if checkpoint is not None else None,
        "seed": solver.seed,
        "batch": solver.batch if solver.rule.sampling != "none" else None,
    }
    note = tree_note(game)
    if note:
        summary["tree"] = note
    _report(summary, args.json)
    return 128 + int(stop.get("signal", signal.SIGINT)) if interrupted else 0


# ---------------------------------------------------------------------- plot


def add_plot_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``plot`` arguments to ``parser`` and set its handler to ``plot_handler``."""
    parser.add_argument("kind", choices=("strategy", "curve"), help="what the files hold")
    parser.add_argument("files", nargs="+", metavar="FILE", help="a strategy file, or one or more curve files")
    parser.add_argument("-o", "--output", metavar="IMAGE", help="image file (.png, .svg, .pdf; default FILE with .png)")
    parser.add_argument("--title", help="title above the picture")
    # (0, a negative or a huge dpi was matplotlib's ValueError traceback; 10^8 asked for a 10^17-pixel image)
    parser.add_argument("--dpi", type=argtypes.whole_number(10, 600, "a resolution"), default=100,
                        help="resolution of raster images, 10 to 600 dots per inch (default 100)")
    parser.set_defaults(handler=plot_handler)


def _stem(name: str) -> str:
    for suffix in (".strategy.json", ".strategy.npz", ".curve.csv", ".curve.json", ".json", ".npz", ".csv"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def plot_handler(args: argparse.Namespace) -> int:
    """Run ``showdown plot``: draw the picture and print where it went."""
    from showdown.cli.plots import plot_curves, plot_strategy, require_matplotlib

    require_matplotlib()
    first = Path(args.files[0])
    out = Path(args.output) if args.output else first.with_name(_stem(first.name) + ".png")
    if args.kind == "strategy":
        if len(args.files) != 1:
            raise SolverError("plot strategy takes one strategy file")
        from showdown.solvers.strategy import load_strategy

        plot_strategy(load_strategy(first), out, title=args.title, dpi=args.dpi)
    else:
        plot_curves(args.files, out, title=args.title, dpi=args.dpi)
    print(out)
    return 0


__all__ = [
    "CFR_DESCRIPTION",
    "PLOT_DESCRIPTION",
    "add_cfr_arguments",
    "add_plot_arguments",
    "cfr_handler",
    "output_paths",
    "plot_handler",
    "write_curve",
]
