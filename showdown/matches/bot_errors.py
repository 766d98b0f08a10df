"""What is wrong with a Python bot, in one line with its file and line.

Before a match starts, a Python bot's source is compiled (a ``.py`` program) or imported (a
``module:Class`` agent, which the runner imports anyway to learn its strategy), so that a syntax or
import error is reported first, as ``file:line: SyntaxError: ...``, not as the other seat failing
to connect to a dealer that already stopped. After the start, ``traceback_line`` turns the Python
traceback a bot printed into the same one line.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import re
import shlex
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from showdown.matches.config import AgentSpec

__all__ = ["python_bot_error", "silent_exit_hint", "traceback_line"]

_PACKAGE = str(Path(__file__).resolve().parents[1])
_LIBRARIES = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix})
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')


def python_bot_error(spec: AgentSpec) -> str | None:
    """``file:line: Error: message`` when ``spec`` is a Python bot that cannot be loaded, else None."""
    if spec.name is not None and ":" in spec.name:
        return _import_error(spec.name.partition(":")[0]) or _not_an_agent(spec.name)
    source = _python_program(spec.command) if spec.command is not None else None
    if source is None:
        return None
    try:
        compile(source.read_bytes(), str(source), "exec", dont_inherit=True)
    except SyntaxError as exc:
        return _syntax_text(exc)
    except (OSError, ValueError):
        return None  # unreadable or not text: the process start says what is wrong
    return None


def silent_exit_hint(spec: AgentSpec) -> str:
    """Why a Python bot file may have ended at once without a word, and the mend ("" when ``spec``
    is no ``.py`` program): a file that defines an agent class but never starts it (no ``run_bot``)
    runs, defines the class and exits 0. The source is parsed, never run."""
    source = _python_program(spec.command) if spec.command is not None else None
    if source is None:
        return ""
    try:
        tree = ast.parse(source.read_bytes(), str(source))
    except (OSError, SyntaxError, ValueError):
        return ""
    agents = [node.name for node in tree.body if isinstance(node, ast.ClassDef) and any(
        (base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else "").endswith("Agent")
        for base in node.bases)]
    if not agents:
        return (f"; {_shown(str(source))} must connect to the dealer at the host and port given as its last two"
                " arguments and play (see examples/my_bot.py)")
    return (f"; {_shown(str(source))} defines {agents[0]} but never starts it: end the file with"
            f" 'raise SystemExit(run_bot({agents[0]}))' (from showdown.agents import run_bot), as examples/my_bot.py"
            f" does, or name the class instead of the file: {source.stem}:{agents[0]}")


def traceback_line(lines: Sequence[str]) -> str | None:
    """The one line of a Python traceback among a process's last output ``lines``: the bot's own
    frame nearest the error (else the innermost) and the exception, or None when there is none."""
    frames = [(i, m) for i, line in enumerate(lines) if (m := _FRAME.match(line))]
    if not frames:
        return None
    error = next((line.strip() for line in reversed(lines) if line.strip() and not line.startswith((" ", "\t"))), "")
    if not error or _FRAME.match(error) or error.startswith("Traceback"):
        return None
    own = [m for _, m in frames if not _is_library(m["file"])] or [frames[-1][1]]
    return f"{_shown(own[-1]['file'])}:{own[-1]['line']}: {error}"


def _python_program(command: str) -> Path | None:
    """The ``.py`` file a command line runs (``./bot.py ...`` or ``python3 bot.py ...``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words and Path(words[0]).name.startswith("python") and len(words) > 1:
        words = words[1:]
    if words and words[0].endswith(".py") and Path(words[0]).is_file():
        return Path(words[0])
    return None


def _import_error(module: str) -> str | None:
    """Import ``module`` (from the current folder, as the agent process does); what went wrong."""
    if module == "__main__":
        return None  # the running script, never the agent process's: the name check says so
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        if importlib.util.find_spec(module) is None:
            return None  # unknown: the name check says so
        importlib.import_module(module)
    except SyntaxError as exc:
        return _syntax_text(exc)
    except Exception as exc:  # noqa: BLE001 - whatever the bot's module raises, said in one line
        if isinstance(exc, ModuleNotFoundError) and exc.name and f"{module}.".startswith(f"{exc.name}."):
            return None  # the module or its package is missing (``nope.sub``): the name check says so
        lines = traceback.format_exception(exc)
        return traceback_line("".join(lines).splitlines()) or f"{type(exc).__name__}: {exc}"
    return None


def _not_an_agent(name: str) -> str | None:
    """A ``module:Class`` naming a class that is no ``Agent`` (nothing built: its ``__init__`` is not run here)."""
    from showdown.agents.base import Agent
    from showdown.agents.registry import user_class

    cls = user_class(name)
    if cls is None or issubclass(cls, Agent):
        return None
    where = f"{_shown(file)}: " if (file := getattr(sys.modules.get(cls.__module__), "__file__", None)) else ""
    return f"{where}class {cls.__name__} is not an Agent: write 'class {cls.__name__}(Agent):' (from showdown.agents import Agent) with an act(view) method"


def _syntax_text(exc: SyntaxError) -> str:
    where = f"{_shown(exc.filename)}:{exc.lineno}" if exc.filename else "?"
    return f"{where}: {type(exc).__name__}: {exc.msg}"


def _is_library(file: str) -> bool:
    path = os.path.abspath(file)
    return file.startswith("<") or path.startswith(_PACKAGE + os.sep) or path.startswith(_LIBRARIES)


def _shown(file: str) -> str:
    """A file as the user knows it: relative to the current folder when under it."""
    try:
        return os.path.relpath(file) if Path(file).resolve().is_relative_to(Path.cwd()) else file
    except (OSError, ValueError):
        return file
