"""Every seed a match derives from its own: one function, one place.

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

__all__ = ["agent_seed", "derived_seed", "half_agent_seed", "tournament_match_seed"]


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
