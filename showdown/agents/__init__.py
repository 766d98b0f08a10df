"""Agents: the ``Agent`` interface, the client that connects one to a dealer, and the built-ins.

A custom bot subclasses ``Agent``, implements ``act(view) -> Action`` and calls ``run_bot``; built-in
agents come from ``make_agent(name, game, options)``.
"""

from __future__ import annotations

from showdown.agents.base import Agent, PolicyAgent, View, infoset_key
from showdown.agents.client import ClientSession, PlayResult, play, play_async, run_bot
from showdown.agents.registry import agent_names, make_agent, register_agent
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind

__all__ = [
    "CALL",
    "FOLD",
    "RAISE",
    "Action",
    "ActionKind",
    "Agent",
    "ClientSession",
    "PlayResult",
    "PolicyAgent",
    "View",
    "agent_names",
    "infoset_key",
    "make_agent",
    "play",
    "play_async",
    "register_agent",
    "run_bot",
]
