"""The ``showdown`` command: one subcommand per job, user errors as one line and exit status 2."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from showdown import argtypes
from showdown.cli import startup
from showdown.errors import ShowdownError, Terminated

Handler = Callable[[argparse.Namespace], int]

MAX_HAND_NUMBER = 10_000_000


def _games(args: argparse.Namespace) -> int:
    from showdown.games.catalog import CATALOG, KUHN_N_DESCRIPTION, get_game

    if args.show:  # that game's .game text only, ready to save as a file
        from showdown.games.gamedef import format_gamedef

        print(format_gamedef(get_game(args.show)), end="")
        return 0
    width = max(len(e.name) for e in CATALOG) + 2
    for e in CATALOG:
        g = get_game(e.name)
        print(f"{e.name:<{width}}{e.description}  [{g.num_players}p, {g.num_rounds} round{'s' * (g.num_rounds > 1)}]")
    print(f"{'kuhn-N':<{width}}{KUHN_N_DESCRIPTION}")
    return 0


def _hand(args: argparse.Namespace) -> int:
    import numpy as np

    from showdown.games.catalog import get_game
    from showdown.games.dealing import CardDealer
    from showdown.games.state import State
    from showdown.protocol.logfile import LoggedHand, format_state_line
    from showdown.protocol.matchstate import format_matchstate, view_of

    game = get_game(args.game)
    game.require_servable()
    dealer = CardDealer(game, args.seed)
    dealer.skip(args.number)
    hole, board = dealer.deal()
    rng = np.random.default_rng(args.seed)
    state = State.initial(game, hole, board)
    names = [f"P{p + 1}" for p in range(game.num_players)]
    print(f"# {game.name}, seed {args.seed}, hand {args.number}; random legal play; what each position is sent:")
    while True:
        for p in range(game.num_players):
            print(f"  to {names[p]}: {format_matchstate(view_of(state, p, args.number))}")
        if state.finished:
            break
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        print(f"{names[state.current_player]} (position {state.current_player}) plays {action}")
        state = state.apply(action)
    print("log: " + format_state_line(LoggedHand.from_state(args.number, state, names)))
    return 0


def _verify_log(args: argparse.Namespace) -> int:
    from pathlib import Path

    from showdown.evaluation.log_reading import not_a_log_file
    from showdown.evaluation.verify import verify_log
    from showdown.games.catalog import get_game

    game = get_game(args.game) if args.game else None
    for path in map(Path, args.logs):  # every one before any work
        if path.exists() and not path.is_file():
            raise ShowdownError(not_a_log_file(path))
    status = 0
    for path in args.logs:
        report = verify_log(path, game=game, seed=args.seed, partial=args.partial)
        where = f" ({path})" if len(args.logs) > 1 else ""
        for note in report.notes:
            print(f"note: {note}")
        if report.ok:
            if report.complete:
                print(f"OK {report.hands} hands{where}")
            else:
                asked = f" of {report.requested:,}" if report.requested is not None else ""
                print(f"OK {report.hands}{asked} hands, a match that stopped early (--partial){where}")
        else:
            status = 1
            for problem in report.problems:
                print(f"{path}: {problem}")
            asked = f" ({report.requested:,} requested)" if report.requested is not None else ""
            print(f"FAILED {report.found:,} problem(s) in {report.hands} hands{asked} ({path})")
    return status


def build_parser(only: str | None = None, method: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only`` (a name in ``_COMMANDS``), just that command (what ``main``
    does when the first argument names it: start-up pays for one parser), and with ``method``
    (``solve``'s), just that method."""
    parser: argparse.ArgumentParser = argtypes.OneLineParser(
        prog="showdown",
        description="ACPC-style poker: a dealer server, agents, solvers and a match runner.",
    )
    from showdown import __version__

    parser.add_argument("--version", action="version", version=f"showdown {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if only is None:  # the list of commands: each one's line, none of their modules imported
        _add_builtin_commands(sub)
        for name, line in COMMAND_HELP.items():
            sub.add_parser(name, help=line, add_help=False)
    elif only == "solve" and method in _SOLVE_METHODS:
        _add_solve(sub, method)
    else:
        _COMMANDS[only](sub)
    return parser


def _add_builtin_commands(sub: Subparsers) -> None:
    """``games``, ``hand`` and ``verify-log``: built only for the whole command line (argparse's
    translation look-ups cost every parser a few file-system probes)."""
    p = sub.add_parser("games", help="list the built-in games", description="List the built-in game catalog.")
    p.add_argument("--show", metavar="GAME", help="print only the .game definition of GAME (a file the reference dealer reads)")
    p.set_defaults(handler=_games)

    p = sub.add_parser(
        "hand",
        help="deal one hand and play it with random legal actions",
        description="Deal hand NUMBER of a match with the reference dealing for SEED, play random legal "
        "actions, and show every MATCHSTATE line each position is sent and the log line.",
    )
    p.add_argument("game", help="catalog name or .game file")
    p.add_argument("--seed", type=argtypes.seed, default=0, help="dealing seed (default 0)")
    p.add_argument("--number", type=argtypes.whole_number(0, MAX_HAND_NUMBER, "a hand number"), default=0,
                   help=f"hand number (default 0; at most {MAX_HAND_NUMBER:,}: the deck is dealt through every hand before it)")
    p.set_defaults(handler=_hand)

    p = sub.add_parser(
        "verify-log",
        help="replay an ACPC log: cards from the seed, legal betting, exact values",
        description="Check every hand of ACPC match logs: the cards are what the seed deals, the betting "
        "is legal, the values are the rules' payoffs, and the SCORE line adds up. Prints "
        "'OK <hands> hands' or each mismatching hand; exit status 0 only when all match.",
    )
    p.add_argument("logs", nargs="+", metavar="LOGFILE")
    p.add_argument("--game", help="game file or catalog name (default: from the log header)")
    p.add_argument("--seed", type=argtypes.seed, help="dealing seed (default: from the log header)")
    p.add_argument("--partial", action="store_true",
                   help="accept a match that stopped early (fewer hands than the header asks for, no SCORE line)")
    p.set_defaults(handler=_verify_log)


# Commands whose parsers live next to their code (each module keeps its own options). Each adder
# imports its module when called: ``showdown dealer`` builds only the dealer's parser, so that a
# dealer or an agent process does not start by importing the solvers.
if TYPE_CHECKING:
    from pathlib import Path

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def _add_solve(sub: Subparsers, method: str | None = None) -> None:
    """``solve`` and its methods' parsers; with ``method``, that one alone (its module alone is imported)."""
    solve = sub.add_parser(
        "solve",
        description="Compute a strategy and write it in the shared strategy format.",
    )
    methods = solve.add_subparsers(dest="method_command", metavar="METHOD", required=True)
    for name, add in _SOLVE_METHODS.items():
        if method is None or name == method:
            add(methods, name)


def _add_exact_method(methods: Subparsers, method: str) -> None:
    from showdown.cli.solve import add_solve_arguments

    text = {
        "lp": "sequence-form linear program (Kuhn, kuhn-N, Leduc): exact equilibrium and game value",
        "normal": "Kuhn's 64 x 64 normal form as a matrix game",
        "analytic": "Kuhn's closed-form equilibrium family, parameter --y",
    }[method]
    add_solve_arguments(methods.add_parser(method, help=text, description=text), method)


def _add_cfr_method(methods: Subparsers, method: str) -> None:
    from showdown.cli.cfr import add_cfr_arguments

    add_cfr_arguments(
        methods.add_parser(method, help="counterfactual regret minimisation (CFR, CFR+, linear, DCFR, MCCFR)",
                           description="Run a CFR-family algorithm; watch, stop with Ctrl-C, resume from a checkpoint.")
    )


def _add_buckets_method(methods: Subparsers, method: str) -> None:
    from showdown.cli.pcs import add_buckets_arguments

    add_buckets_arguments(
        methods.add_parser(
            method, help="rebuild the hold'em card abstraction's tables (flop E[HS^2], bucket quantiles)",
            description="Rebuild, deterministically, the tables of the hold'em card abstraction that 'showdown solve cfr "
            "holdem-*' and the cfr agent use (the package ships a copy): E[HS^2] of every holding on each of the 1,755 "
            "flops that differ up to suits, and the percentile cuts of flop, turn and river. About 7 minutes on 2 cores.",
        )
    )


def _add_one_round_method(methods: Subparsers, method: str) -> None:
    from showdown.cli.one_round import add_one_round_arguments, one_round_handler

    one_round = methods.add_parser(method, help="one-round hold'em ('Near optimal holdem play with one round of betting': Alice raises, Bob calls or folds) by LP")
    add_one_round_arguments(one_round)
    one_round.set_defaults(handler=one_round_handler)


_SOLVE_METHODS: dict[str, Callable[[Subparsers, str], None]] = {
    "lp": _add_exact_method,
    "normal": _add_exact_method,
    "analytic": _add_exact_method,
    "cfr": _add_cfr_method,
    "buckets": _add_buckets_method,
    "one-round": _add_one_round_method,
}
"""``solve`` method -> the adder of its parser, in the order ``showdown solve --help`` lists them."""


def _add_exploit(sub: Subparsers) -> None:
    from showdown.cli.exploit import add_exploit_arguments

    exploit = sub.add_parser("exploit", description="Exact best responses to a strategy file or a built-in agent's strategy; "
                             "exploitability = (BR value of position 0 + BR value of position 1) / 2 in chips per hand. "
                             "For 3 or more players (kuhn3p, leduc3p): each position's value, best response and gain, "
                             "and NashConv (the sum of the gains). With --lbr, in any 2-player game (hold'em too): "
                             "local best response's winnings, a lower bound on the exploitability.")
    add_exploit_arguments(exploit)


def _add_scorecard(sub: Subparsers) -> None:
    from showdown.cli.scorecard import add_scorecard_arguments

    scorecard = sub.add_parser(
        "scorecard", description="Duplicate matches (chance-corrected) of BOT against random, call, rules, cfr and the probe opponents, "
        "local best response when the bot tells its policy, and the exploitability lower bound they give (the largest "
        "win, and which opponent found it); a table, --json, or an HTML page (-o). Interrupted runs resume.")
    add_scorecard_arguments(scorecard)


def _add_equity(sub: Subparsers) -> None:
    from showdown.cli.one_round import add_equity_arguments, equity_handler

    equity = sub.add_parser("equity", description="The exact 169 x 169 preflop all-in equity table.")
    add_equity_arguments(equity)
    equity.set_defaults(handler=equity_handler)


def _add_plot(sub: Subparsers) -> None:
    from showdown.cli.cfr import add_plot_arguments

    add_plot_arguments(
        sub.add_parser("plot", description="Pictures of strategies and CFR curves; needs the plot extra: pip install 'showdown-poker[plot]'.")
    )


def _adder(module: str, function: str) -> Callable[[Subparsers], None]:
    """The adder that imports ``module`` and calls its ``function(subparsers)``."""

    def add(sub: Subparsers) -> None:
        getattr(importlib.import_module(module), function)(sub)

    return add


_add_views = _adder("showdown.cli.view", "add_view_parsers")  # view, report and play

_COMMANDS: dict[str, Callable[[Subparsers], None]] = {
    "match": _adder("showdown.cli.match", "add_match_parser"),
    "tournament": _adder("showdown.cli.tournament", "add_tournament_parser"),
    "plan": _adder("showdown.cli.plan", "add_plan_parser"),
    "analyze": _adder("showdown.cli.analyze", "add_analyze_parser"),
    "view": _add_views,
    "report": _add_views,
    "play": _add_views,
    "dealer": _adder("showdown.cli.dealer", "add_dealer_parser"),
    "agent": _adder("showdown.cli.agent", "add_agent_parser"),
    "check-bot": _adder("showdown.cli.check_bot", "add_check_bot_parser"),
    "solve": _add_solve,
    "exploit": _add_exploit,
    "scorecard": _add_scorecard,
    "equity": _add_equity,
    "plot": _add_plot,
    "export": _adder("showdown.cli.interchange", "add_export_parser"),
    "import": _adder("showdown.cli.interchange", "add_import_parser"),
}
"""Command name -> the adder of its parser (which imports the command's module)."""

COMMAND_HELP: dict[str, str] = {
    "match": "play a match between agents (each its own process) and report win rates",
    "tournament": "round robin between agents from a YAML file: cross table, ranking, results.json (resumable)",
    "plan": "how many hands until a win rate of D per 100 is told apart from zero (from a pilot)",
    "analyze": "win rates with confidence intervals from match logs (.log or .jsonl)",
    "view": "browse matches, hands and tournaments in a browser (live while a match runs)",
    "report": "write the browser view of matches/tournaments as one self-contained HTML file",
    "play": "play a seat yourself, in the browser, against an agent",
    "dealer": "serve one ACPC match over TCP (the reference dealer's command line)",
    "agent": "connect a built-in agent to a dealer",
    "check-bot": "check a bot against the protocol and the rules before a match (one line per check)",
    "solve": "solve a game: exact LPs, the analytic Kuhn family, CFR, one-round hold'em",
    "exploit": "best-response values and exploitability of a strategy or agent",
    "scorecard": "one bot's duplicate matches vs baselines, cfr and probes, LBR, and its exploitability lower bound",
    "equity": "the exact 169 x 169 preflop all-in equity table",
    "plot": "draw a strategy chart or an exploitability curve (needs matplotlib)",
    "export": "write match logs as PHH hand histories (pokerkit's format)",
    "import": "read PHH hand histories into a match log (for analyze, view, report, verify-log)",
}
"""Each command's line in ``showdown --help``, in its order: that list is built from here alone, so that it
imports no command's module (``showdown --help`` starts as fast as ``showdown games``)."""


OUTPUT_OPTIONS = ("output", "checkpoint", "plot")
"""Options that name a file a command writes: checked before any work, so a long solve is not lost."""

READ_BACK = ("checkpoint",)
"""Of those, the ones read too when they exist (a resumed run): a device or a pipe is refused, as strategy
files and logs are (``-o /dev/null`` is fine: nothing is read from it)."""


def check_outputs(args: argparse.Namespace) -> None:
    """Every output file's folder must exist and be writable, and no output may be a file the command
    reads (``report v.log -o v.log`` replaced the log with its page): one line otherwise."""
    import os
    from pathlib import Path

    for name in OUTPUT_OPTIONS:
        value = getattr(args, name, None)
        if not isinstance(value, (str, Path)) or not str(value):
            continue
        folder = Path(value).expanduser().parent
        option = "--" + name.replace("_", "-")
        if not folder.is_dir():
            raise ShowdownError(f"{option} {value}: {no_folder(folder)}")
        if not os.access(folder, os.W_OK):
            raise ShowdownError(f"{option} {value}: the folder {folder} is not writable")
        if Path(value).is_dir():
            raise ShowdownError(f"{option} {value}: is a folder; give a file name")
        if name in READ_BACK and Path(value).exists() and not Path(value).is_file():  # (a pipe: read for ever)
            raise ShowdownError(f"{option} {value}: not a regular file (a device or a pipe); give a file name")
        if Path(value).exists() and (read := _input_named(args, Path(value))) is not None:
            raise ShowdownError(f"{option} {value} is a file this command reads (its {read} argument): writing it "
                                "would destroy it; give another file name")


def _input_named(args: argparse.Namespace, output: object) -> str | None:
    """The name of the argument that names the same file as ``output``, if any."""
    import os

    for key, given in vars(args).items():
        if key in OUTPUT_OPTIONS:  # (a checkpoint is read and written on purpose)
            continue
        for item in given if isinstance(given, (list, tuple)) else (given,):
            if isinstance(item, (str, os.PathLike)) and str(item):
                try:
                    if os.path.samefile(output, item):  # type: ignore[arg-type]
                        return key.replace("_", " ")
                except (OSError, ValueError):
                    continue
    return None


def no_folder(folder: Path) -> str:
    """Why ``folder``, where an output file goes, is not there: a file stands in its place (or in its
    parent's), or it does not exist."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"{existing} is a file, not a folder: give a path in an existing folder"
    return f"the folder {folder} does not exist (create it first)"


def expand_home(words: list[str]) -> list[str]:
    """``--option=~/x`` as the shell makes ``--option ~/x``: the shell expands a ``~`` only at the start of a
    word, so ``--out-dir=~/x`` made a folder named ``~`` in the current one. Words after ``--`` are kept."""
    import os

    out: list[str] = []
    for i, word in enumerate(words):
        if word == "--":
            return out + words[i:]
        option, equals, value = word.partition("=")
        if option.startswith("--") and equals and value.startswith("~"):
            word = f"{option}={os.path.expanduser(value)}"
        out.append(word)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    words = expand_home(sys.argv[1:] if argv is None else list(argv))
    parser = build_parser(words[0] if words and words[0] in _COMMANDS else None, words[1] if len(words) > 1 else None)
    args, extra = parser.parse_known_args(words)
    if extra and getattr(args, "agents_anywhere", False) and not any(w.startswith("-") for w in extra):
        args.agents.extend(extra)  # agents after an option: `match leduc equilibrium -o 1:strategy=s.json random`
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    startup.loaded()  # the command's parser and module are loaded (cli/startup.py)
    try:
        check_outputs(args)
        status = handler(args)
        sys.stdout.flush()  # (here, not at the interpreter's exit: a closed pipe or a full disk is said below)
        return status
    except ShowdownError as exc:
        print(f"showdown {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        import warnings

        # a Ctrl-C between a coroutine's making and its run (asyncio.run(run_match_async(...))) left Python's
        # "coroutine ... was never awaited" warning under the one line, when the coroutine was collected
        warnings.filterwarnings("ignore", r"coroutine .* was never awaited", RuntimeWarning)
        print(f"showdown {args.command}: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except Terminated:  # (raised only where workers must be shut down: workers.terminate_as_exit)
        print(f"showdown {args.command}: stopped (SIGTERM)", file=sys.stderr)
        return 143
    except BrokenPipeError:  # the reader stopped early (`| head`): quietly, with the status SIGPIPE gives a C tool
        _drop_stdout()
        return 141
    except (IsADirectoryError, NotADirectoryError) as exc:  # a folder where an output file goes, or the reverse
        where = exc.filename2 or exc.filename  # (a rename's target: the file the user knows)
        print(f"showdown {args.command}: error: {where}: {exc.strerror} (move it away or choose another name)", file=sys.stderr)
        return 2
    except OSError as exc:  # what no command catches itself: its printed output (`> /dev/full`, a full disk)
        import errno

        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
            raise
        print(f"showdown {args.command}: error: cannot write its output: {exc.strerror or exc}", file=sys.stderr)
        _drop_stdout()
        return 1



def _drop_stdout() -> None:
    """Send what is left for stdout to /dev/null, so that the interpreter's own flush at exit fails no
    more ('Exception ignored ... BrokenPipeError')."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # (stdout replaced by an object without a file descriptor: the tests')
        pass


if __name__ == "__main__":
    sys.exit(main())
