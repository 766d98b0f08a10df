"""The legacy translation (``translate_legacy``, agent option ``translation=legacy``): the
mapping of off-tree bets as it was before issue 26, reproduced exactly, for evaluating the blueprint
as issue 25's probes found it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from showdown.agents.base import View
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.state import State, parse_action
from showdown.solvers.betting import translate, translate_legacy

NOLIMIT = get_game("holdem-nolimit")
RECORDED = json.loads((Path(__file__).parent / "data" / "legacy_translation.json").read_text())
"""300 raises on random no-limit walks (min-raises, all-ins, sizes up to two pots) and the slot the
translation at b4b1fe2^ chose for each of six uniform draws: recorded by running that commit's code."""


class _Fixed:
    """A generator whose every draw is ``u``: pins which side of the pseudo-harmonic split is taken."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


def _case(case: dict[str, Any]) -> tuple[State, Any, State, tuple[Any, ...]]:
    real = State.initial(NOLIMIT).apply_betting(case["real"])
    abstract = State.initial(NOLIMIT).apply_betting(case["abstract"])
    return real, parse_action(case["action"]), abstract, tuple(parse_action(o) for o in case["options"])


@pytest.mark.parametrize("case", RECORDED["cases"], ids=lambda c: f"{c['real'] or '-'}:{c['action']}")
def test_legacy_translation_repeats_the_recorded_old_mapping(case: dict[str, Any]) -> None:
    real, action, abstract, options = _case(case)
    got = [translate_legacy(real, action, abstract, options, _Fixed(u)) for u in case["u"]]
    assert got == case["slots"]


def test_the_current_translation_differs_from_the_old_on_small_raises() -> None:
    """The recorded cases are not all on the tree: the fix of issue 26 changes some of them (the call
    is a neighbour now), so the test above tells the two mappings apart."""
    changed = 0
    for case in RECORDED["cases"]:
        real, action, abstract, options = _case(case)
        changed += [translate(real, action, abstract, options, _Fixed(u)) for u in case["u"]] != case["slots"]
    assert changed >= 20


def _walked(agent: Any, betting: str) -> str:
    public = State.initial(NOLIMIT).apply_betting(betting)
    agent.policy(View(NOLIMIT, public.current_player, 0, public, (0, 5), (), public.betting))
    return str(agent._abstract.betting)


def test_the_legacy_agent_maps_a_third_raise_min_raise_to_all_in() -> None:
    """Past the abstract raise cap only all-in is kept: the old agent read a min-raise there as all-in
    (the hole ``probe-third-raise`` exploited); the current one reads it mostly as a call."""
    betting = "r300r900r1500"  # the third raise of the round is a min-raise: past blueprint v1's cap of two
    legacy = make_agent("cfr", NOLIMIT, {"search": "off", "translation": "legacy", "seed": 3, "blueprint": "v1"})
    assert _walked(legacy, betting).endswith("r20000")
    current = [_walked(make_agent("cfr", NOLIMIT, {"search": "off", "seed": s, "blueprint": "v1"}), betting) for s in range(8)]
    assert any(not walk.endswith("r20000") for walk in current)


@pytest.mark.parametrize(("game", "options", "says"), [
    ("holdem-nolimit", {"translation": "legacy"}, "search=off"),
    ("holdem-nolimit", {"search": "off", "translation": "old"}, "pseudo-harmonic, legacy"),
    ("kuhn", {"translation": "legacy"}, "solved whole"),
])
def test_translation_option_errors_say_what_to_do(game: str, options: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        make_agent("cfr", get_game(game), options)
