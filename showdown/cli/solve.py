"""``showdown solve`` and ``showdown exploit``: solve a game exactly, measure how exploitable a strategy is.

* ``showdown solve lp|normal|analytic GAME [-o FILE] [--y Y] [--json]``: ``lp`` is the sequence-form
  LP (any 2-player game the exact solvers hold: Kuhn, N-card Kuhn, Leduc), ``normal`` the 64 x 64
  normal form and ``analytic`` the closed-form family (both Kuhn only; ``--y`` is the probability of
  betting the ace, default 1/3). Prints the value for position 0 and the solve time and writes the
  strategy (default ``<game>.<method>.strategy.json``).
* ``showdown exploit (STRATEGY_FILE | --agent NAME) [--game G] [-o KEY=VALUE] [--json]``: both
  best-response values and the exploitability ``(BR_0 + BR_1) / 2`` in chips per hand, of a strategy
  file or of a built-in agent's strategy table.

``add_*_arguments(parser)`` fill a parser; ``*_handler(args) -> int`` run the command; user errors
are raised as ``ShowdownError`` for the CLI to print as one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from showdown.games.catalog import get_game
from showdown.solvers.solve import DEFAULT_Y, METHODS, exploit_report, solve, tree_note
from showdown.solvers.strategy import StrategyError

__all__ = ["add_solve_arguments", "exploit_report", "solve_handler"]

# ---------------------------------------------------------------------- showdown solve


def add_solve_arguments(parser: argparse.ArgumentParser, method: str | None = None) -> None:
    """Arguments of ``showdown solve [METHOD]`` (and the handler as ``handler``).

    With ``method`` the parser is that method's own subcommand (``solve lp``); without, the method is
    a positional argument.
    """
    if method is None:
        parser.add_argument("method", choices=METHODS, help="lp: sequence-form LP (any small 2-player game); "
                            "normal: Kuhn's normal form; analytic: Kuhn's closed-form family")
    else:
        parser.set_defaults(method=method)
    parser.add_argument("game", help="catalog name (kuhn, leduc, kuhn-N) or .game file")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="strategy file to write (default <game>.<method>.strategy.json; .npz for compressed)")
    parser.add_argument("--y", type=float, metavar="Y",
                        help=f"analytic only: probability of betting the ace, 0..1 (default {DEFAULT_Y:.4g})")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=solve_handler)


def solve_handler(args: argparse.Namespace) -> int:
    """Solve, write the strategy, print value and time (text or JSON)."""
    from showdown.solvers.best_response import exploitability
    from showdown.solvers.strategy import save_strategy

    game = get_game(args.game)
    label = game.name or Path(args.game).stem
    if args.method == "lp":
        _announce_large_lp(game, label)
    result = solve(args.method, game, getattr(args, "y", None))
    out: Path = args.output or Path(f"{label}.{args.method}.strategy.json")
    try:
        save_strategy(result.strategy, out)
    except OSError as exc:
        raise StrategyError(f"cannot write strategy file {out}: {exc.strerror or exc}") from None
    expl = exploitability(game, result.strategy)
    if args.json:
        doc: dict[str, Any] = {
            "game": label,
            "method": args.method,
            "value": result.value,
            "seconds": result.seconds,
            "strategy": str(out),
            "infosets": len(result.strategy),
            "exploitability": expl,
        }
        if args.method == "analytic":
            doc["y"] = DEFAULT_Y if args.y is None else args.y
        if tree_note(game):
            doc["tree"] = tree_note(game)
        print(json.dumps(doc, indent=2))
    else:
        print(f"{label} ({args.method}): value {result.value:+.6f} chips/hand for position 0 "
              f"({100 * result.value:+.2f} per 100 hands), solved in {result.seconds:.3f} s")
        shown = 0.0 if abs(expl) < 1e-12 else expl  # float round-off around an exact equilibrium
        print(f"strategy: {out} ({len(result.strategy)} information sets, exploitability {shown:.2e})")
        if tree_note(game):
            print(f"note: {tree_note(game)}")
    return 0


LARGE_LP_SEQUENCES = 10_000
"""Sequences of a player past which the LP is announced before it is solved (kuhn-1000: 4,000, 2.4 s)."""


def _announce_large_lp(game: Any, label: str) -> None:
    """One line on stderr before a large LP (it may take minutes with nothing else to show)."""
    from showdown.solvers.sequence_lp import sequence_form

    sf = sequence_form(game)  # (cached: the solve reuses it)
    sizes = [s.num_sequences for s in sf.tree.sequences]
    if max(sizes) > LARGE_LP_SEQUENCES:
        infosets = sum(s.num_infosets for s in sf.tree.sequences)
        print(f"solving a sequence-form LP of {sizes[0]:,} x {sizes[1]:,} sequences ({infosets:,} information sets): "
              f"this may take minutes; 'showdown solve cfr {label}' approximates faster", file=sys.stderr, flush=True)

