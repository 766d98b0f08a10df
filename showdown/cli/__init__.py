"""The command line: ``showdown`` and its subcommands, one module per family of commands.

Every command's parser and handler lives here and only here; the library (games, protocol, server,
agents, solvers, matches, evaluation, view) never imports this package, so a command's options can
change without touching the code that does the work. ``main`` is the console entry point: it loads
the commands itself, so that a Ctrl-C while they load (the first fraction of a second) is one line
and exit 130 like a Ctrl-C at any later time, never a traceback.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # nothing more to load before ``main`` can catch a Ctrl-C
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``showdown ...``: run the command (``showdown.cli.main.main``); 130 on an early Ctrl-C."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        if words[:1] == ["dealer"]:  # its ports are printed before the dealer loads (cli.dealer_ports)
            from showdown.cli.dealer_ports import main as dealer

            return dealer(words[1:])
        if argv is None:  # the program itself (not a call from Python): see cli/startup.py
            from showdown.cli import startup

            startup.begin()
        from showdown.cli.main import main as run

        return run(argv)
    except KeyboardInterrupt:
        print("showdown: stopped (Ctrl-C)", file=sys.stderr)
        return 130
