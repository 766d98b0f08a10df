"""Pictures of strategies and solver runs (matplotlib, an optional extra: ``pip install 'showdown-poker[plot]'``).

matplotlib is imported only when a picture is drawn, through ``require_matplotlib``, which turns its
absence into one clear line. Figures are drawn on matplotlib's Agg canvas directly (no ``pyplot``),
so nothing here changes the backend or any other global state of a program that imports us.

* ``plot_strategy``: for N-card Kuhn the seeds' four panels (AIPT section 3, "Kuhn 100-card
  solution"): player 1 opening, player 2 after a check, player 2 after a bet, player 1 after
  check-bet, each a bar per card (weakest to strongest) stacked pass (blue) / bet (red). For other
  one-hole-card games of one or two rounds (Leduc) one panel per betting sequence, rows by round and
  first-round history, a bar per (hole rank, board rank) stacked fold / check-call / bet-raise.
* ``plot_curves``: exploitability against iterations, log-log, from the solver's curve files.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from showdown.errors import ShowdownError

PASS_COLOR = "#3b6fb6"
BET_COLOR = "#d0473d"
FOLD_COLOR = "#a0a0a0"

KUHN_PANELS = (
    ("", "Player 1 opening"),
    ("c", "Player 2 after a check"),
    ("r", "Player 2 after a bet"),
    ("cr", "Player 1 after check-bet"),
)
"""Betting before the decision and the seeds' panel title, in drawing order (2 x 2, row by row)."""

MAX_PANELS = 60


class MissingDependencyError(ShowdownError):
    """An optional dependency (an extra) is needed for what was asked and is not installed."""


def require_matplotlib() -> ModuleType:
    """The ``matplotlib`` module, or ``MissingDependencyError`` with the install command in one line."""
    try:
        import matplotlib
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401  (the Agg canvas)
    except ImportError:
        raise MissingDependencyError(
            "drawing pictures needs matplotlib, which is not installed: pip install 'showdown-poker[plot]' "
            "(or pip install matplotlib)"
        ) from None
    module: ModuleType = matplotlib  # typed whether or not matplotlib's own hints are installed
    return module


def new_figure(width: float, height: float) -> Any:
    """A matplotlib ``Figure`` on an Agg canvas (no pyplot, no global backend change)."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


# ---------------------------------------------------------------------- strategies


def save_figure(fig: Any, path: str | Path, dpi: int) -> Path:
    """Write ``fig`` to ``path`` (the format from its suffix) through a file of our own: a write that
    fails (a full disk, /dev/full) is one line, where PIL, writing a file it opened itself, let the
    error pass and left a cut image behind a success."""
    from showdown.errors import ShowdownError

    out = Path(path)
    kind = out.suffix[1:].lower() or None  # none: matplotlib's default, PNG
    canvas = getattr(fig, "canvas", None)
    kinds = canvas.get_supported_filetypes() if canvas is not None else {}
    if kind is not None and kinds and kind not in kinds:  # (was a ValueError traceback, after the file was emptied)
        raise ShowdownError(f"cannot write {out}: no picture is written as .{kind}; end the name with "
                            f"{', '.join('.' + k for k in ('png', 'svg', 'pdf') if k in kinds)} or another of "
                            f"{', '.join(sorted(kinds))}")
    try:
        with out.open("wb") as fh:
            fig.savefig(fh, dpi=dpi, format=kind)
    except OSError as exc:
        raise ShowdownError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out


def plot_strategy(strategy: Any, path: str | Path, *, title: str | None = None, dpi: int = 100) -> Path:
    """Draw ``strategy`` (a ``showdown.solvers.strategy.Strategy``) to an image file (format from the suffix)."""
    require_matplotlib()
    from showdown.errors import SolverError
    from showdown.solvers.strategy import strategy_to_arrays
    from showdown.solvers.tree import build_tree

    game = strategy.game
    if game.num_players != 2 or game.num_hole_cards != 1 or game.num_rounds > 2:
        raise SolverError(
            f"plot strategy draws 2-player games with one hole card and at most two rounds (N-card Kuhn, "
            f"Leduc); {game.name or 'this game'} has {game.num_players} players, {game.num_hole_cards} hole "
            f"cards, {game.num_rounds} rounds"
        )
    tree = build_tree(game)
    arrays = strategy_to_arrays(tree, strategy, missing="uniform")
    name = game.name or "game"
    bettings = {tree.decision(d).betting for d in range(tree.num_decision_nodes)}
    if game.num_rounds == 1 and game.total_board_cards == 0 and bettings == {b for b, _ in KUHN_PANELS}:
        fig = _kuhn_figure(tree, arrays, title or f"{name}: probability of passing (blue) and betting (red) per card")
    else:
        fig = _panel_figure(tree, arrays, title or f"{name}: action probabilities per betting sequence")
    return save_figure(fig, path, dpi)


def _rank_groups(tree: Any, d: int) -> tuple[list[str], list[np.ndarray]]:
    """Situations of decision ``d`` by (hole rank, board ranks), suits merged, by board then weakest
    hand first: their labels and, per situation, the (board, hand) cells that belong to it."""
    from showdown.games.cards import rank_of
    from showdown.games.hand_value import hand_value

    node = tree.decision(d)
    bs, hs = tree.cells[d]
    boards = tree.boards[node.round]
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    strength: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
    for c, (b, h) in enumerate(zip(bs.tolist(), hs.tolist())):
        hole = [int(x) for x in tree.hands[h]]
        board = [int(x) for x in boards[b]]
        key = (rank_of(hole[0]), tuple(sorted(rank_of(x) for x in board)))
        groups.setdefault(key, []).append(c)
        if key not in strength:
            # Board first: a bar's strength only compares with hands that could meet on the same board.
            strength[key] = (*key[1], hand_value(hole + board) if board else 0, key[0])
    order = sorted(groups, key=strength.__getitem__)
    labels = [_rank_text(k[0], tree.game.num_ranks) + ("|" + "".join(_rank_text(r, tree.game.num_ranks) for r in k[1]) if k[1] else "") for k in order]
    return labels, [np.array(groups[k]) for k in order]


def _rank_text(rank: int, num_ranks: int) -> str:
    from showdown.games.cards import RANKS

    if num_ranks <= len(RANKS):
        return RANKS[rank]
    return str(rank - len(RANKS) + 1)  # N-card Kuhn beyond 13 ranks: cards 1..N


def _mean_probabilities(tree: Any, arrays: list[np.ndarray], d: int) -> tuple[list[str], np.ndarray]:
    """Labels and (situations, actions) mean probabilities at decision ``d``, suits merged."""
    labels, groups = _rank_groups(tree, d)
    bs, hs = tree.cells[d]
    probs = arrays[d][bs, hs]
    return labels, np.array([probs[g].mean(axis=0) for g in groups])


def _kuhn_figure(tree: Any, arrays: list[np.ndarray], title: str) -> Any:
    fig = new_figure(12, 7)
    axes = fig.subplots(2, 2)
    by_betting = {tree.decision(d).betting: d for d in range(tree.num_decision_nodes)}
    for ax, (betting, panel_title) in zip(axes.ravel(), KUHN_PANELS):
        d = by_betting[betting]
        node = tree.decision(d)
        labels, probs = _mean_probabilities(tree, arrays, d)
        facing = "f" in node.actions
        pass_p = probs[:, node.actions.index("f" if facing else "c")]
        bet_p = probs[:, node.actions.index("c" if facing else next(a for a in node.actions if a.startswith("r")))]
        x = np.arange(len(labels))
        width = 1.0 if len(labels) > 20 else 0.8
        ax.bar(x, pass_p, width, color=PASS_COLOR, linewidth=0)
        ax.bar(x, bet_p, width, bottom=pass_p, color=BET_COLOR, linewidth=0)
        ax.set_title(panel_title)
        ax.set_ylim(0, 1)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_ylabel("probability")
        if len(labels) <= 20:
            ax.set_xticks(x, labels)
        else:
            step = max(1, len(labels) // 10)
            ticks = [i for i in range(len(labels)) if (i + 1) % step == 0 or i == 0]
            ax.set_xticks(ticks, [labels[i] for i in ticks])
        ax.set_xlabel("card (weakest to strongest)")
    fig.legend(
        _patches([(PASS_COLOR, "pass (check, or fold to a bet)"), (BET_COLOR, "bet (bet, or call a bet)")]),
        [t for _, t in ((0, "pass (check, or fold to a bet)"), (0, "bet (bet, or call a bet)"))],
        loc="outside lower center",
        ncols=2,
    )
    fig.suptitle(title)
    return fig


def _patches(items: list[tuple[str, str]]) -> list[Any]:
    from matplotlib.patches import Patch

    return [Patch(color=color, label=text) for color, text in items]


def _panel_figure(tree: Any, arrays: list[np.ndarray], title: str) -> Any:
    """One panel per betting sequence: first round on the top row, then a row per first-round history."""
    rows: dict[str, list[int]] = {}
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        row = "" if node.round == 0 else node.betting.rsplit("/", 1)[0] + "/"
        rows.setdefault(row, []).append(d)
    if sum(len(v) for v in rows.values()) > MAX_PANELS:
        from showdown.errors import SolverError

        raise SolverError(f"game {tree.game.name or '?'} has too many betting sequences to draw ({MAX_PANELS} at most)")
    order = sorted(rows, key=lambda r: (r != "", len(r), r))
    ncols = max(len(v) for v in rows.values())
    nrows = len(order)
    fig = new_figure(3.0 * ncols, 2.4 * nrows + 0.6)
    axes = np.atleast_2d(fig.subplots(nrows, ncols, squeeze=False))
    for i, row in enumerate(order):
        ds = sorted(rows[row], key=lambda d: (len(tree.decision(d).betting), tree.decision(d).betting))
        for j in range(ncols):
            ax = axes[i, j]
            if j >= len(ds):
                ax.set_visible(False)
                continue
            d = ds[j]
            node = tree.decision(d)
            labels, probs = _mean_probabilities(tree, arrays, d)
            x = np.arange(len(labels))
            bottom = np.zeros(len(labels))
            for letter, color, text in (("f", FOLD_COLOR, "fold"), ("c", PASS_COLOR, "check/call"), ("r", BET_COLOR, "bet/raise")):
                cols = [k for k, a in enumerate(node.actions) if a.startswith(letter)]
                if not cols:
                    continue
                p = probs[:, cols].sum(axis=1)
                ax.bar(x, p, 0.8, bottom=bottom, color=color, label=text, linewidth=0)
                bottom += p
            shown = node.betting if node.betting else "(start)"
            ax.set_title(f"P{node.player + 1} at {shown}", fontsize="medium")
            ax.set_ylim(0, 1)
            ax.set_xticks(x, labels, fontsize="x-small", rotation=90 if len(labels) > 6 else 0)
            if j == 0:
                ax.set_ylabel("round 1" if row == "" else f"after {row}")
    legend = [(FOLD_COLOR, "fold"), (PASS_COLOR, "check / call"), (BET_COLOR, "bet / raise")]
    fig.legend(_patches(legend), [t for _, t in legend], loc="outside lower center", ncols=3)
    fig.suptitle(title + "\n(bars: hole card | board card ranks, suits merged; per board, weakest hand first)")
    return fig


# ---------------------------------------------------------------------- solver curves


def read_curve(path: str | Path) -> tuple[str, list[tuple[int, float, float]]]:
    """A curve file written by ``showdown solve cfr`` (CSV or JSON): (label, [(iteration, seconds, exploitability)])."""
    p = Path(path)
    try:
        if p.exists() and not p.is_file() and not p.is_dir():  # a pipe: read_text would never end (as load_strategy's)
            raise ShowdownError(f"{p}: not a regular file; a curve file is the .curve.json or .curve.csv 'showdown solve cfr' writes")
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ShowdownError(f"{p}: not a curve file (not UTF-8 text); give a .curve.json or .curve.csv of 'showdown solve cfr'") from None
    except OSError as exc:
        raise ShowdownError(f"cannot read curve file {p}: {exc.strerror or exc}") from None
    try:
        if p.suffix == ".json" and text.strip():
            doc = json.loads(text)
            if not isinstance(doc, dict) or not isinstance(doc.get("points"), list):
                raise ValueError("expected a JSON object with a list of points")
            label = f"{doc.get('game', '?')} {doc.get('algorithm', '?')}"
            points = [(int(q["iteration"]), float(q["seconds"]), float(q["exploitability"])) for q in doc["points"]]
        else:
            label = p.name.removesuffix(".curve.csv")
            rows = list(csv.DictReader(text.splitlines()))
            points = [(int(r["iteration"]), float(r["seconds"]), float(r["exploitability"] if "exploitability" in r else r["nash_conv"]))
                      for r in rows]
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise ShowdownError(f"{p}: not a curve file ({exc})") from None
    if not points:  # (was a blank picture and matplotlib's warning)
        raise ShowdownError(f"{p} holds no curve points: give the curve files of a 'showdown solve cfr' run")
    return label, points


def _measure(path: str | Path) -> str:
    """What a JSON curve file measures (``exploitability``, or ``NashConv`` for 3+ players)."""
    p = Path(path)
    try:
        if p.suffix != ".json":  # the CSV's third column: exploitability, or nash_conv
            return "NashConv" if p.read_text(encoding="utf-8").split("\n", 1)[0].strip().endswith(",nash_conv") else "exploitability"
        return str(json.loads(p.read_text(encoding="utf-8")).get("measure", "exploitability"))
    except (OSError, ValueError, AttributeError):
        return "exploitability"


def plot_curves(paths: Sequence[str | Path], out: str | Path, *, title: str | None = None, dpi: int = 100) -> Path:
    """Exploitability against iterations and against seconds (log-log), one line per curve file."""
    curves = [read_curve(p) for p in paths]
    measures = [_measure(p) for p in paths]
    what = measures[0] if len(set(measures)) == 1 else "exploitability or NashConv"
    if len(set(measures)) > 1:  # each line says what it measures (a 3-player NashConv was drawn as exploitability)
        curves = [(f"{label} ({m})", points) for (label, points), m in zip(curves, measures)]
    fig = new_figure(11, 4.5)
    by_iter, by_time = fig.subplots(1, 2)
    if not any(q[0] > 0 and q[2] > 0 for _, points in curves for q in points):
        raise ShowdownError(f"no point of {', '.join(map(str, paths))} can be drawn on log scales "
                            "(each has iteration 0 or an exploitability of 0)")
    for label, points in curves:
        pts = [q for q in points if q[0] > 0 and q[2] > 0]
        if not pts:
            continue
        it, sec, ex = (np.array(v) for v in zip(*pts))
        by_iter.plot(it, ex, label=label)
        keep = sec > 0
        by_time.plot(sec[keep], ex[keep], label=label)
    for ax, xlabel in ((by_iter, "iterations"), (by_time, "seconds of solving")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"{what} (chips per hand)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle(title or f"{what} of the average strategy")
    return save_figure(fig, out, dpi)


__all__ = [
    "KUHN_PANELS",
    "MissingDependencyError",
    "new_figure",
    "plot_curves",
    "plot_strategy",
    "read_curve",
    "require_matplotlib",
    "save_figure",
]


# ---------------------------------------------------------------------- a match's cumulative winnings


MAX_DRAWN = 2000
"""A cumulative chart's line is drawn from at most about twice this many points per player."""


def _drawn_points(total: np.ndarray, buckets: int = MAX_DRAWN) -> np.ndarray:
    """Indices of ``total`` to draw: all of a short series; of a long one, each of ``buckets``
    stretches' lowest and highest point (in order) and the last, so the line looks as drawn from
    every hand (a chart is some hundred pixels wide) while matplotlib holds a bounded number."""
    n = len(total)
    if n <= 2 * buckets:
        return np.arange(n)
    edges = np.linspace(0, n, buckets + 1).astype(np.int64)
    picked = [0]
    for start, end in zip(edges[:-1].tolist(), edges[1:].tolist()):
        part = total[start:end]
        picked += [start + int(np.argmin(part)), start + int(np.argmax(part))]
    picked.append(n - 1)
    return np.unique(np.asarray(picked, dtype=np.int64))


def plot_cumulative(table: Any, path: str | Path, *, title: str | None = None, dpi: int = 100) -> Path:
    """Cumulative winnings per player against hands played, with the 95% band of the total.

    The band at hand k is ``total_k +- 1.96 s sqrt(k)`` (``s`` the player's standard deviation per
    hand over the whole sample): where the expected total may lie given the results so far.
    matplotlib is imported here only (the ``plot`` extra).
    """
    fig = new_figure(9, 5)  # require_matplotlib: one clear line when it is missing
    ax = fig.subplots()
    order = np.lexsort((table.number, table.half))
    seats = table.seats[order]
    values = table.values[order]
    for s, name in enumerate(table.names):
        mask = seats == s
        rows = mask.any(axis=1)
        v = (values * mask).sum(axis=1)[rows]
        if not len(v):
            continue
        total = np.cumsum(v)
        sd = float(v.std(ddof=1)) if len(v) > 1 else 0.0
        at = _drawn_points(total)
        k, total = at + 1, total[at]
        band = 1.959963984540054 * sd * np.sqrt(k)
        line = ax.plot(k, total, label=f"{name} ({100.0 * total[-1] / len(v):+.2f}/100)", linewidth=1.2)[0]
        ax.fill_between(k, total - band, total + band, color=line.get_color(), alpha=0.15, linewidth=0)
    ax.axhline(0.0, color="#888888", linewidth=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel("cumulative winnings (chips)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    ax.set_title(title or "cumulative winnings with 95% band")
    return save_figure(fig, path, dpi)
