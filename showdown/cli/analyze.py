"""``showdown analyze LOG... [--json] [--plot FILE.png]``: win rates with intervals from match logs.

Reads ACPC ``.log`` files (ours or the reference dealer's) and our JSON Lines ``.jsonl`` logs, and
prints per player name and per position the total, chips per 100 hands (mbb/hand in hold'em) with
its 95% interval, and each pair's difference with its p-value. ``--duplicate`` pairs hand ``h`` of
every file (the halves of a duplicate match); ``--known NAME=AGENT`` (a built-in agent, or a
strategy file) lets AIVAT use that player's strategy.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, ShowdownError

__all__ = ["add_analyze_parser", "run_analyze_command"]


def add_analyze_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``analyze`` subcommand to ``showdown``'s subparsers."""
    p = subparsers.add_parser(
        "analyze",
        description="Read ACPC match logs (ours or the reference dealer's) and JSON Lines logs and print, "
        "per player name and per position, the total, chips per 100 hands (mbb/hand in hold'em) with a "
        "95% confidence interval, and each pair's difference with its p-value. "
        "Example: showdown analyze logs/*.log --plot winnings.png",
    )
    _configure(p)
    return p


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("logs", nargs="+", metavar="LOG", help=".log (ACPC) or .jsonl (showdown) files")
    p.add_argument("--json", action="store_true", help='print {"players": [...], "positions": [...], ...} as JSON')
    p.add_argument("--plot", metavar="FILE.png", help="draw cumulative winnings per player with the 95%% band (needs matplotlib)")
    p.add_argument("--game", help="the game (default: from the log header)")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="the files are the halves of a duplicate match: pair hand h of every file",
    )
    p.add_argument(
        "--known",
        action="append",
        default=[],
        metavar="NAME=AGENT",
        help="player NAME played built-in agent AGENT (e.g. Alice=equilibrium) or the strategy in a file "
        "(Alice=strategy.json): AIVAT may use its strategy (repeatable)",
    )
    p.add_argument(
        "--estimator",
        choices=("plain", "duplicate", "aivat", "chance"),
        help="default: aivat when a --known strategy can be used, else chance (AIVAT's chance terms: the cards' luck "
        "taken out by all-in equity; paired with --duplicate) where the game allows it, else duplicate with "
        "--duplicate, else plain",
    )
    p.set_defaults(handler=run_analyze_command)


def _known(entries: list[str], game: Any) -> dict[str, Any]:
    """``NAME=AGENT`` entries -> name -> Strategy."""
    from showdown.evaluation.aivat import known_strategy
    from showdown.solvers.strategy import load_strategy

    out: dict[str, Any] = {}
    for text in entries:
        name, sep, what = text.partition("=")
        if not sep or not name or not what:
            raise ConfigError(f"--known {text!r}: write it as NAME=AGENT, like --known Alice=equilibrium")
        if name in out:  # (the last one was taken silently)
            raise ConfigError(f"--known {text}: {name!r} is given twice; give each player's strategy once")
        if Path(what).is_file():
            out[name] = load_strategy(what, game)
            continue
        strategy, why = known_strategy(what, game)
        if strategy is None:
            raise ConfigError(f"--known {text}: the strategy of {what!r} cannot be used: {why}")
        out[name] = strategy
    return out


def run_analyze_command(args: argparse.Namespace) -> int:
    """Handler: read, analyse, print; exit 0."""
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.log_reading import read_logs
    from showdown.games.catalog import get_game

    game = get_game(args.game) if args.game else None
    estimator = args.estimator
    if estimator == "duplicate":
        args.duplicate = True
    want_aivat = estimator == "aivat" or (estimator is None and bool(args.known))
    encoder = _AivatEncoder(estimator)
    if args.plot:
        from showdown.cli.plots import require_matplotlib

        require_matplotlib()  # fail before reading anything
    want_chance = estimator == "chance" or (estimator is None and not want_aivat)
    logs = read_logs(args.logs, game=game, encoder_for=encoder if want_aivat else None, halves=args.duplicate, chance=want_chance)
    if want_aivat and encoder.aivat is None and estimator is None:  # --known for a game AIVAT cannot hold: the
        # next best, as without --known (read again, now with the chance corrections: this game is known only now)
        logs = read_logs(args.logs, game=game, encoder_for=None, halves=args.duplicate, chance=True)
    _check_read(logs, estimator, want_aivat)
    if args.duplicate and len(logs.files) < 2:  # (was ignored: a plain analysis of the one seating, exit 0)
        flag = "--estimator duplicate" if estimator == "duplicate" else "--duplicate"
        raise ConfigError(f"{flag} pairs hand h of the logs of a duplicate match's seatings, and one log was given "
                          f"({logs.files[0]}): give every seating's log (e.g. out/NAME.dup0.log out/NAME.dup1.log)")
    notes: list[str] = []
    if encoder.aivat is not None:
        _set_known(encoder.aivat, args.known, logs.game, logs.table, notes)
        chosen, reason = "aivat", ("as requested" if estimator == "aivat" else "strategies given with --known")
    else:
        chosen, reason = _without_aivat(args, logs.table, notes, logs.game)
    g = logs.game
    analysis = analyze(logs.table, estimator=chosen, big_blind=g.big_blind if g is not None else 1,
                       show_mbb=bool(g is not None and len(set(g.blind)) > 1), aivat=encoder.aivat, pair=args.duplicate)
    analysis.notes = notes + logs.notes + analysis.notes
    analysis.reason = reason
    _check_scores(logs, analysis)
    _print(args, logs, analysis)
    return 0


class _AivatEncoder:
    """``read_logs``' ``encoder_for``: the AIVAT estimator of the logs' game, kept for the analysis
    (None when the game does not allow AIVAT; a ``ConfigError`` then if it was asked for)."""

    def __init__(self, estimator: str | None) -> None:
        self.estimator = estimator
        self.aivat: Any = None

    def __call__(self, game: Any) -> Any:
        from showdown.evaluation.aivat import AivatEstimator, supports

        why = supports(game)
        if why is not None:
            if self.estimator == "aivat":
                raise ConfigError(f"--estimator aivat: {why}")
            return None
        self.aivat = AivatEstimator(game)
        return self.aivat


def _without_aivat(args: argparse.Namespace, table: Any, notes: list[str], game: Any) -> tuple[str, str]:
    """The estimator when AIVAT is not used, and why (for the estimator line): with --known given,
    why AIVAT does not apply (the line said to give --known, which had been given)."""
    from showdown.evaluation.aivat import supports

    estimator = args.estimator
    if estimator is None and args.known:
        why = supports(game) if game is not None else "the logs' game is not known"
        unknown = f"--known is not used: {why}"
        hint = ""
    else:
        unknown, hint = "a log does not say which strategies played", "; give --known NAME=AGENT to use AIVAT"
    if estimator is None and table.chance is not None:
        return "chance", (f"{unknown}, so the cards' luck is taken out by all-in equity "
                          f"(chance-only corrections, unbiased whatever the strategies){hint}")
    chosen = estimator if estimator in ("plain", "duplicate", "chance") else ("duplicate" if args.duplicate else "plain")
    reason = "as requested" if estimator else f"{unknown}{hint}{', as showdown match does for built-in agents' if hint else ''}"
    return chosen, reason


def _print(args: argparse.Namespace, logs: Any, analysis: Any) -> None:
    """The plot (when asked for), then the table or the JSON document."""
    from showdown.evaluation.analysis_output import analysis_json, format_analysis
    from showdown.evaluation.numbers import counted

    g = logs.game
    if args.plot:
        from showdown.cli.plots import plot_cumulative

        out = plot_cumulative(logs.table, args.plot, title=f"{g.name if g is not None else ''} cumulative winnings".strip())
        analysis.notes.append(f"plot: {out}")
    if args.json:
        doc = analysis_json(analysis)
        doc["files"] = [str(f) for f in logs.files]
        doc["game"] = g.name if g is not None else None
        print(json.dumps(doc, indent=2))
    else:
        head = f"{_named(logs.files)}: {counted(logs.table.hands)}" + (f" of {g.name}" if g is not None else "")
        print(format_analysis(analysis, head))


def _named(files: Any, shown: int = 3) -> str:
    """The files read, for a line: a tournament's logs by their number and the first and the last
    (every name, one after the other, made a line of 2,000 characters for 28 matches)."""
    names = [str(f) for f in files]
    if len(names) <= shown:
        return ", ".join(names)
    return f"{len(names):,} logs ({names[0]} ... {names[-1]})"


def _check_read(logs: Any, estimator: str | None, want_aivat: bool) -> None:
    """The logs read hold hands, and what the estimator asked for needs (the game) is there."""
    if estimator == "chance" and logs.table.chance is None:
        from showdown.evaluation.chance import supports as chance_supports

        raise ConfigError("--estimator chance: " + (chance_supports(logs.game) or "the log header names no game this tool knows; pass --game")
                          if logs.game is not None else "--estimator chance needs the game: pass --game")
    if want_aivat and logs.game is None:
        raise ConfigError("AIVAT needs the game: the log header does not name one this tool knows; pass --game")
    if logs.table.hands == 0:
        raise ShowdownError(f"no hands in {_named(logs.files)}")


def _set_known(aivat: Any, known_args: Any, game: Any, table: Any, notes: list[str]) -> None:
    """Give AIVAT the strategies named with --known, by the logs' player order."""
    known = _known(known_args, game)
    unknown = [n for n in known if n not in table.names]
    if unknown:
        raise ConfigError(f"--known names player(s) not in the logs: {', '.join(unknown)} (players: {', '.join(table.names)})")
    aivat.set_strategies([known.get(n) for n in table.names])
    if not known:
        notes.append("no player's strategy is known: AIVAT corrects for chance only")


def _check_scores(logs: Any, analysis: Any) -> None:
    """A note when a file's SCORE line disagrees with the sum of its hands (e.g. a cut log)."""
    if len(logs.scores) != len(logs.files):
        return
    from showdown.protocol.logfile import format_value, score_tolerance

    expected: dict[str, float] = {}
    for _, score in logs.scores:
        for name, total in zip(score.names, score.totals):
            expected[name] = expected.get(name, 0.0) + total
    tolerance = score_tolerance(logs.table.hands, len(logs.scores))  # (was 1e-6 whatever the hands: 10 hands of
    # a third each, 3.333330 against the SCORE line's 3.333333, were noted as 'gives 3.33333; add up to 3.33333')
    for name, total in zip(analysis.names, analysis.totals):
        if name in expected and abs(expected[name] - total) > tolerance:
            analysis.notes.append(f"the SCORE lines give {name} {format_value(expected[name])}; "
                                  f"the hands add up to {format_value(total)}")
