"""Who sits where and what they are called: seat labels, match names, and every seed a match
derives from its own (one function, one place).

A derived seed is the first four bytes of SHA-256 over ``showdown-<kind>:<parts>`` (so the seeds of
different uses never collide and never depend on Python's hash randomisation). The kinds and their
parts, kept byte for byte as earlier releases wrote them so that seeded matches replay the same:

* ``agent_seed(match_seed, seat)``: an agent given no seed (``agent-seed``);
* ``half_agent_seed(match_seed, half, agent)``: an agent in duplicate half ``half`` (half 0 is the
  plain match, so its agents get ``agent_seed``; ``duplicate-seed``);
* ``tournament_match_seed(seed, match_id)``: a tournament's match (``tournament``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from showdown.games.catalog import CATALOG

if TYPE_CHECKING:
    from showdown.matches.config import AgentSpec, MatchConfig

__all__ = [
    "agent_seed", "derived_seed", "half_agent_seed", "tournament_match_seed", "seat_labels", "match_name",
    "game_argument", "seat_seeds",
]


def seat_labels(specs: Sequence[AgentSpec]) -> list[str]:
    """Seat names: each agent's label, numbered (``random-1``, ``random-2``) where they repeat."""
    base = [s.display for s in specs]
    counts = {b: base.count(b) for b in base}
    seen: dict[str, int] = {}
    out = []
    for b in base:
        if counts[b] > 1:
            seen[b] = seen.get(b, 0) + 1
            out.append(f"{b}-{seen[b]}")
        else:
            out.append(b)
    return out


def match_name(config: MatchConfig, labels: Sequence[str]) -> str:
    """The match's name (its files' stem): the one given, else ``<game>.<labels>.seed<seed>``."""
    if config.name:
        return config.name
    stem = config.game if any(e.name == config.game for e in CATALOG) else Path(config.game).stem
    stem = "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in stem) or "match"
    return f"{stem}.{'-'.join(labels)}.seed{config.seed}"


def game_argument(spec: str) -> str:
    """How to name the game to an agent process: the catalog name, or an absolute file path."""
    if any(e.name == spec for e in CATALOG) or spec.startswith("kuhn-") and spec[5:].isdigit():
        return spec
    path = Path(spec).expanduser()  # (a match file's 'game: ~/my.game': no shell expanded it)
    return str(path.resolve()) if path.is_file() else spec


def seat_seeds(config: MatchConfig) -> list[int]:
    """Each seat's agent seed: its own, else ``agent_seed`` of the match seed."""
    return [s.seed if s.seed is not None else agent_seed(config.seed, i) for i, s in enumerate(config.agents)]


def derived_seed(kind: str, *parts: object) -> int:
    """A 32-bit seed from ``kind`` and ``parts``: stable across runs, machines and Python versions."""
    text = f"showdown-{kind}:" + ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def agent_seed(match_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` when none is given: distinct per seat, fixed per match seed."""
    return derived_seed("agent-seed", match_seed, seat)


def half_agent_seed(match_seed: int, half: int, agent: int) -> int:
    """The seed of agent ``agent`` (index in the original seat order) in duplicate half ``half``."""
    if half == 0:
        return agent_seed(match_seed, agent)
    return derived_seed("duplicate-seed", match_seed, half, agent)


def tournament_match_seed(seed: int, match_id: str) -> int:
    """The dealing seed of one match of a tournament."""
    return derived_seed("tournament", seed, match_id)
