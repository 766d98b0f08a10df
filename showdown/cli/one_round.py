"""Command-line pieces for ``showdown solve one-round`` and ``showdown equity``.

``showdown/cli.py`` wires them in: ``add_one_round_arguments`` / ``add_equity_arguments`` fill a
subparser, ``one_round_handler`` / ``equity_handler`` run it and return the exit status. User errors
are ``ShowdownError`` subclasses (the CLI prints one line and exits with status 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO

from showdown import argtypes
from showdown.errors import ShowdownError
from showdown.solvers.equity import (
    BOARDS_PER_MATCHUP,
    build_equity_table,
    cached_table_path,
    equity_table,
    load_equity_table,
    progress_printer,
    save_equity_table,
)
from showdown.solvers.hand_classes import CLASS_NAMES, EquityError, cards_equity, class_index, hand_cards
from showdown.solvers.one_round import (
    DEFAULT_BETS_SPEC,
    OneRoundGame,
    OneRoundSolution,
    format_bet,
    parse_bets,
    solve_one_round,
)

__all__ = [
    "PlotError",
    "add_equity_arguments",
    "add_one_round_arguments",
    "equity_handler",
    "one_round_handler",
    "plot_bet_sizes",
]


class PlotError(ShowdownError):
    """``--plot`` cannot write its picture (matplotlib itself missing is ``MissingDependencyError``)."""


class OutputError(ShowdownError):
    """An output file cannot be written."""


# ---------------------------------------------------------------------------------------------
# showdown solve one-round


def add_one_round_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown solve one-round``."""
    parser.description = (
        "Solve one-round hold'em (Alice: fold, limp or raise from a bet grid; Bob: call or fold; infinite "
        "stacks) exactly as one linear program on the exact equity table, and check the answer with both "
        "best responses. Prints the value, the best-response gap, the solve time and Alice's fold/limp/"
        "raise frequencies."
    )
    parser.add_argument(
        "--bets",
        default=DEFAULT_BETS_SPEC,
        metavar="SPEC",
        help="Alice's bet grid: sizes and inclusive ranges A:B or A:B:STEP; 0 is the limp, a raise is at "
        f"least the big blind (default {DEFAULT_BETS_SPEC})",
    )
    parser.add_argument("--sb", type=float, default=1.0, help="small blind, posted by Alice (default 1)")
    parser.add_argument("--bb", type=float, default=2.0, help="big blind, posted by Bob (default 2)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write both strategies and the summary as JSON")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the JSON document instead of text")
    shown.add_argument(
        "--report", action="store_true", help="also print Alice's strategy per class, as the post's strategy file"
    )
    parser.add_argument(
        "--plot", metavar="FILE.png", help="draw the distribution of Alice's bet sizes (needs matplotlib)"
    )
    parser.add_argument(
        "--method",
        choices=("highs-ds", "highs-ipm", "highs"),
        default="highs-ds",
        help="HiGHS solver (default highs-ds: dual simplex, the fastest here)",
    )
    parser.add_argument(
        "--form",
        choices=("bob", "alice"),
        default="bob",
        help="which of the two dual programs to hand HiGHS (default bob: his calls as variables)",
    )


def one_round_handler(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Run ``showdown solve one-round``; returns the exit status."""
    stream = out or sys.stdout
    sb, bb = float(getattr(args, "sb", 1.0)), float(getattr(args, "bb", 2.0))
    bets = parse_bets(getattr(args, "bets", None) or DEFAULT_BETS_SPEC, bb=bb)
    game = OneRoundGame(bets=bets, sb=sb, bb=bb)
    output = _writable(getattr(args, "output", None))
    plot = _writable(getattr(args, "plot", None))
    if plot is not None:
        from showdown.cli.plots import require_matplotlib

        require_matplotlib()  # a clear one-line error before a long solve

    solution = solve_one_round(game, method=getattr(args, "method", "highs-ds"), form=getattr(args, "form", "bob"))
    document = solution.to_json()
    if output is not None:
        _write(output, json.dumps(document, indent=1) + "\n")
    if plot is not None:
        plot_bet_sizes(solution, plot)

    if getattr(args, "json", False):
        print(json.dumps(document), file=stream)
        return 0
    print(_headline(solution), file=stream)
    if output is not None:
        print(f"strategies  {output}", file=stream)
    if plot is not None:
        print(f"plot        {plot}", file=stream)
    if getattr(args, "report", False):
        print(file=stream)
        print(solution.report(), file=stream)
    return 0


def _grid_text(bets: tuple[float, ...]) -> str:
    """``0, 2..40`` style description of a grid: runs of unit steps collapse."""
    parts: list[str] = []
    run: list[float] = []
    for bet in (*bets, float("nan")):
        if run and bet == run[-1] + 1:
            run.append(bet)
            continue
        if run:
            parts.append(format_bet(run[0]) if len(run) < 3 else f"{format_bet(run[0])}..{format_bet(run[-1])}")
            if len(run) == 2:
                parts.append(format_bet(run[1]))
        run = [bet]
    return ", ".join(parts)


def _headline(solution: OneRoundSolution) -> str:
    game = solution.game
    solver = f"{solution.method}, {'Bob' if solution.form == 'bob' else 'Alice'}'s form"
    return "\n".join(
        [
            f"one-round hold'em: blinds {game.sb:g}/{game.bb:g}, {len(game.bets)} bet sizes ({_grid_text(game.bets)})",
            f"value       {solution.value:.10f}  (Alice's guarantee; Bob holds her to {solution.value_upper:.10f})",
            f"gap         {solution.gap:.2e}  (best-response check)",
            f"solve time  {solution.seconds:.2f} s  ({solver}: build {solution.build_seconds:.2f} s, "
            f"solve {solution.solve_seconds:.2f} s, check {solution.check_seconds:.2f} s)",
            f"Alice       fold {solution.fold:.2%}  limp {solution.limp:.2%}  raise {solution.raise_:.2%}",
        ]
    )


def _writable(name: str | None) -> Path | None:
    """The path of an output file, checked before the solve so a typo fails fast."""
    if not name:
        return None
    path = Path(name)
    if not path.parent.is_dir():
        raise OutputError(f"cannot write {path}: directory {path.parent} does not exist")
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")
    return path


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def plot_bet_sizes(solution: OneRoundSolution, path: Path) -> None:
    """Bar chart of how often Alice takes each action (fold at the left, then the bet sizes)."""
    from showdown.cli.plots import new_figure

    frequencies = solution.action_frequencies()
    bets = list(solution.game.bets)
    fold_at = min(bets) - 2.0
    ticks = [fold_at, *[b for b in bets if b == 0 or b % 5 == 0]]
    figure = new_figure(9.0, 4.5)
    axes = figure.add_subplot()
    axes.bar([fold_at, *bets], list(frequencies), width=0.8, color=["tab:red", *["tab:blue"] * len(bets)])
    axes.set_xticks(ticks)
    axes.set_xticklabels(["fold", *[format_bet(b) for b in ticks[1:]]])
    axes.set_xlabel("Alice's action: fold, limp (0) or raise by b")
    axes.set_ylabel("probability")
    game = solution.game
    axes.set_title(
        f"Alice's bet sizes, blinds {game.sb:g}/{game.bb:g}: value {solution.value:.5f}, "
        f"limp {solution.limp:.1%}, fold {solution.fold:.1%}"
    )
    from showdown.cli.plots import save_figure

    try:
        save_figure(figure, path, 120)
    except ValueError as exc:
        raise PlotError(f"cannot write the plot {path}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# showdown equity


def add_equity_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown equity``."""
    parser.description = (
        "The exact all-in equity of the 169 preflop hand classes: 'showdown equity AA KK' prints win/tie/loss "
        "of one class against another over every board and every compatible pair of combos; "
        "'showdown equity --build' computes the table with our evaluator and caches it."
    )
    parser.add_argument("classes", nargs="*", metavar="CLASS", help="two hand classes, like AA KK or AKs T9o")
    parser.add_argument("--build", action="store_true", help="build the table into the cache now (about a minute)")
    parser.add_argument("--force", action="store_true", help="with --build: rebuild even if a valid table is cached")
    parser.add_argument(
        "--processes", type=argtypes.whole_number(1, 4096, "a number of processes"), default=None, metavar="N",
        help="with --build: worker processes (default: all CPUs)",
    )


def equity_handler(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Run ``showdown equity``; returns the exit status."""
    stream = out or sys.stdout
    names: list[str] = list(getattr(args, "classes", None) or [])
    build, force = bool(getattr(args, "build", False)), bool(getattr(args, "force", False))
    if names and len(names) != 2:
        raise EquityError(f"give two hand classes, like 'showdown equity AA KK' (got {len(names)})")
    if not names and not build:
        raise EquityError("nothing to do: give two hand classes (showdown equity AA KK) or --build")
    if force and not build:
        raise EquityError("--force only makes sense with --build")
    cards = [hand_cards(name) for name in names]  # parse before any long build
    if len(cards) == 2 and cards[0] is not None and cards[1] is not None:
        wins, ties, losses = cards_equity(cards[0], cards[1])
        total = wins + ties + losses
        print(
            f"{names[0]} vs {names[1]}: win {wins / total:.5f}  tie {ties / total:.5f}  loss {losses / total:.5f}"
            f"  (these exact cards, over all {total:,} boards)",
            file=stream,
        )
        return 0
    pair = [class_index(name) for name in names]
    if any(c is not None for c in cards):
        print(f"note: answering for hand classes {CLASS_NAMES[pair[0]]} vs {CLASS_NAMES[pair[1]]} "
              "(give both hands as cards, like AsKd AhAd, for those exact cards)", file=stream)

    if build:
        _build(stream, force=force, processes=getattr(args, "processes", None))
    if pair:
        a, k = pair
        table = equity_table()
        win, tie, loss = table.fractions(a, k)
        print(
            f"{CLASS_NAMES[a]} vs {CLASS_NAMES[k]}: win {win:.5f}  tie {tie:.5f}  loss {loss:.5f}"
            f"  (over {int(table.pairs[a, k]):,} combo pairs x {BOARDS_PER_MATCHUP:,} boards)",
            file=stream,
        )
        print(
            f"  counts: win {int(table.win[a, k]):,}  tie {int(table.tie[a, k]):,}  loss {int(table.loss[a, k]):,}"
            f"  of {int(table.totals[a, k]):,}",
            file=stream,
        )
    return 0


def _build(stream: IO[str], *, force: bool, processes: int | None) -> None:
    path = cached_table_path()
    if not force and path.exists():
        try:
            load_equity_table(path)
        except EquityError as exc:
            print(f"note: rebuilding: {exc}", file=sys.stderr)
        else:
            print(f"equity table already built and verified: {path} (use --force to rebuild)", file=stream)
            return
    from showdown.cache import check_writable

    check_writable(path)  # (a read-only cache was found after a minute and a half of building)
    start = time.perf_counter()
    table = build_equity_table(processes=processes, progress=progress_printer(sys.stderr))
    seconds = time.perf_counter() - start
    save_equity_table(table, path)
    print(f"built the exact equity table in {seconds:.1f} s: {path} (sha256 {table.digest()[:16]}...)", file=stream)
