"""``showdown agent NAME [--game G] [--seed S] [-o KEY=VALUE ...] HOST PORT``: connect a built-in agent.

Host and port come last, as match scripts start players (``<program> <host> <port>``). Also runnable
as ``python -m showdown agent ...`` with the same arguments (the match runner does this).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from showdown import argtypes
from showdown.errors import ConfigError, ShowdownError

__all__ = ["add_agent_parser", "run_agent_command", "parse_option", "main"]


def parse_option(text: str) -> tuple[str, Any]:
    """``"key=value"`` -> (key, value) with ints, floats and true/false converted."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"agent option {text!r}: write it as KEY=VALUE, like -o sizing=pot")
    value = argtypes.option_value(raw)
    return key, value


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="agent name (random, call, bluff, rules, ...), or package.module:Class")
    p.add_argument("host", help="dealer host")
    p.add_argument("port", type=argtypes.port, help="dealer port for this seat")
    p.add_argument("--game", help="catalog name or .game file (default: $SHOWDOWN_GAME)")
    p.add_argument("--seed", type=argtypes.seed, help="seed for the agent's randomness")
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="an agent option (repeatable)"
    )
    p.add_argument("--token", help="the seat's secret, sent with the VERSION line (default: $SHOWDOWN_SEAT_TOKEN)")
    p.add_argument("--verbose", action="store_true", help="print hands played and the total on stderr at the end")
    p.set_defaults(handler=run_agent_command)


_EPILOG = (
    "Built-in agents: random, call, bluff, rules; equilibrium, never-bluff, exploiter and cfr where "
    "installed. An unknown name lists every known agent."
)


def add_agent_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``agent`` subcommand to ``showdown``'s subparsers."""
    p = subparsers.add_parser(
        "agent",
        description="Connect a built-in agent to an ACPC dealer seat and play until the dealer closes "
        "the connection. Example: showdown agent random --game kuhn --seed 3 127.0.0.1 18791",
        epilog=_EPILOG,
    )
    _configure(p)
    return p


def run_agent_command(args: argparse.Namespace) -> int:
    """Handler: build the agent and play the match."""
    from showdown.agents.client import play, resolve_game
    from showdown.agents.registry import make_agent

    game = resolve_game(args.game)
    options = dict(parse_option(o) for o in args.option)
    if args.seed is not None:
        options["seed"] = args.seed
    agent = make_agent(args.name, game, options)
    result = play(agent, args.host, args.port, game, track=args.verbose, token=args.token)
    if args.verbose:
        print(f"{args.name}: {result.hands} hands, {result.decisions} decisions, total {result.total or 0:+g}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m showdown agent``: the ``agent`` command on its own (without the other commands' parsers)."""
    parser = argtypes.OneLineParser(prog="showdown agent", epilog=_EPILOG)
    _configure(parser)
    args = parser.parse_args(argv)
    try:
        return run_agent_command(args)
    except ShowdownError as exc:
        print(f"showdown agent: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
