"""One exception hierarchy for every user-facing error.

The CLI turns a ``ShowdownError`` into one line on stderr and a non-zero exit; anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Iterable


class ShowdownError(Exception):
    """Base class: something the user gave us (a file, a line, an option) is wrong."""


class GameDefError(ShowdownError):
    """A game definition is malformed or violates a limit."""

    key = ""  # the .game keyword at fault, when one line is (a file's error then names that line)


class CardError(ShowdownError):
    """A card string or card index is not valid for the game."""


class IllegalActionError(ShowdownError):
    """An action that the rules do not allow in the current state."""


class ProtocolError(ShowdownError):
    """A protocol or log line does not have the expected form."""


class ConfigError(ShowdownError):
    """A match or tournament configuration is invalid."""


class LogExistsError(ShowdownError):
    """A match's logs are already there, and logs are never overwritten unless told to (``path``)."""

    def __init__(self, path: str, advice: str = "give the match another name, --resume to continue it, or --force to overwrite") -> None:
        super().__init__(f"{path} already exists: logs are never overwritten; {advice}")
        self.path = path


class SolverError(ShowdownError):
    """A solver cannot handle the game or its input."""


class Terminated(SystemExit):
    """A SIGTERM turned into an exception where a pool's workers must be shut down, not orphaned
    (``workers.terminate_as_exit``); the command line says one line and exits 143."""


def did_you_mean(word: object, known: Iterable[str]) -> str:
    """``"did you mean 'rules'? "`` for the known name nearest a misspelt one, else ``""``.

    Case, ``-`` and ``_`` are ignored (``Never_Bluff`` finds ``never-bluff``); the hint names the known
    spelling. Every "unknown name" error (games, agents, settings) says it the same way.
    """
    import difflib

    def fold(name: str) -> str:
        return name.lower().replace("-", "_")

    folded = {fold(name): name for name in known}
    near = difflib.get_close_matches(fold(str(word)), list(folded), n=1, cutoff=0.6)
    return f"did you mean {folded[near[0]]!r}? " if near else ""
