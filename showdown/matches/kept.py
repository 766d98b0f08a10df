"""Results kept in a run's folder for a resume, read back only for the same bot and the same code.

``showdown exploit --probes`` and ``showdown scorecard`` keep every finished match (and LBR run) so
that an interrupted run resumes where it stopped. A kept figure is worth reading back only if it
measured what is asked now: the same bot (its name, command and options, and the bytes of every file
its command or name points to: a bot file edited since is another bot) played by the same showdown
(the bytes of its own code and shipped data: a changed agent, dealer or estimator is another
measurement). ``fingerprint`` digests all of that; a kept document carries it, and ``read`` returns
None when it differs, so the match is played again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shlex
from functools import cache
from pathlib import Path
from typing import Any

from showdown.matches.config import AgentSpec

__all__ = ["fingerprint", "read", "write"]

FIELD = "fingerprint"
"""The key of a kept document that holds the digest it was measured under."""


@cache
def _package_digest() -> str:
    """A digest of showdown's own code and shipped data (every file of the package but caches)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".nbi", ".nbc"):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _files(bot: AgentSpec) -> list[Path]:
    """The files that make up an outside bot: every word of its command naming a file, the module of
    a ``module:Class`` agent, and every option's value naming a file (a strategy, a policy)."""
    words = []
    if bot.command:
        try:
            words = shlex.split(bot.command)
        except ValueError:
            words = bot.command.split()
    words += [str(v) for v in bot.options.values() if isinstance(v, str | os.PathLike)]
    out = [Path(w) for w in words if Path(w).is_file()]
    if bot.name and ":" in bot.name:
        try:
            spec = importlib.util.find_spec(bot.name.partition(":")[0])
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin and Path(spec.origin).is_file():
            out.append(Path(spec.origin))
    return out


def fingerprint(bot: AgentSpec) -> str:
    """What a result measured against ``bot`` depends on (see the module docstring), as a hex digest."""
    digest = hashlib.sha256(_package_digest().encode())
    digest.update(json.dumps([bot.name, bot.command, dict(bot.options)], sort_keys=True, default=str).encode())
    for path in _files(bot):
        digest.update(str(path.resolve()).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def read(path: Path, bot: AgentSpec) -> dict[str, Any] | None:
    """The document kept at ``path`` if it was measured under ``bot``'s fingerprint, else None (none
    kept, an unreadable one, or one of another bot or another showdown: to be played again)."""
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.pop(FIELD, None) != fingerprint(bot):
        return None
    return doc


def write(path: Path, doc: dict[str, Any], bot: AgentSpec) -> None:
    """Keep ``doc`` at ``path`` with ``bot``'s fingerprint, atomically (a crash leaves the old file or none)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**doc, FIELD: fingerprint(bot)}), encoding="utf-8")
    os.replace(tmp, path)
