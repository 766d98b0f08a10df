"""The command line: ``showdown`` and its subcommands, one module per family of commands.

Every command's parser and handler lives here and only here; the library (games, protocol, server,
agents, solvers, matches, evaluation, view) never imports this package, so a command's options can
change without touching the code that does the work. ``main`` is the console entry point.
"""

from showdown.cli.main import main

__all__ = ["main"]
