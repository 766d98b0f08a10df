"""The estimator is chosen before a match starts, without building the agents to find out."""

from __future__ import annotations

from typing import Any

import pytest

from showdown.games.catalog import get_game
from showdown.matches.config import AgentSpec


@pytest.fixture
def no_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("an agent was built to choose the estimator")

    monkeypatch.setattr("showdown.agents.registry.make_agent", refuse)


@pytest.mark.usefixtures("no_building")
def test_the_choice_builds_no_agent() -> None:
    from showdown.evaluation.estimator_plan import choose_estimator

    kuhn = get_game("kuhn")
    assert choose_estimator(kuhn, [AgentSpec(name="cfr"), AgentSpec(name="rules")], None, False).estimator == "aivat"
    probes = [AgentSpec(name="probe-jam"), AgentSpec(command="./bot")]
    plan = choose_estimator(kuhn, probes, None, True)
    assert plan.estimator == "chance" and plan.reason.startswith("no agent's strategy is known")
    assert choose_estimator(kuhn, probes, "aivat", False).estimator == "aivat"  # asked for: chance-only AIVAT
    assert choose_estimator(get_game("kuhn3p"), [AgentSpec(name="rules")] * 3, None, True).estimator == "duplicate"
    assert choose_estimator(get_game("holdem-nolimit"), [AgentSpec(name="rules")] * 2, None, False).estimator != "aivat"


@pytest.mark.usefixtures("no_building")
def test_a_match_of_agents_without_a_table_builds_none_of_them() -> None:
    """Probes and outside programs: the plan used to build each built-in agent to learn that."""
    from showdown.evaluation.estimator_plan import plan_estimator

    plan = plan_estimator(get_game("leduc"), [AgentSpec(name="probe-raise"), AgentSpec(name="probe-minraise")], None, False)
    assert plan.estimator != "aivat" and plan.aivat is None


def test_known_strategies_are_built_only_for_aivat_and_named_when_not_used() -> None:
    from showdown.evaluation.estimator_plan import plan_estimator

    plan = plan_estimator(get_game("kuhn"), [AgentSpec(name="rules"), AgentSpec(name="probe-jam")], None, False)
    assert plan.estimator == "aivat" and plan.aivat is not None
    assert plan.notes == ["strategy not used for probe-jam: agent 'probe-jam' does not play a fixed strategy table"]


def test_a_bot_file_named_like_a_built_in_is_noted_by_its_table_name() -> None:
    # the table said rules-1 and rules-2, the note "strategy not used for rules": which one?
    from showdown.evaluation.estimator_plan import plan_estimator
    from showdown.matches.seating import seat_labels

    specs = [AgentSpec(command="python ./rules.py"), AgentSpec(name="rules")]
    plan = plan_estimator(get_game("kuhn"), specs, None, False, seat_labels(specs))  # as the runners call it
    assert plan.estimator == "aivat" and len(plan.notes) == 1
    assert plan.notes[0].startswith("strategy not used for rules-1: ")


def test_a_slow_solve_for_aivat_is_said_while_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`showdown match one_round.game equilibrium random` printed nothing for minutes: the runner solved
    the game for AIVAT's known strategy before the match. Now a line says so once it takes a while."""
    import time

    import showdown.evaluation.aivat as aivat
    import showdown.evaluation.estimator_plan as estimator_plan
    from showdown.evaluation.estimator_plan import plan_estimator

    real = aivat.known_strategies
    monkeypatch.setattr(estimator_plan, "SAY_AFTER", 0.05)
    said: list[str] = []
    specs = [AgentSpec(name="equilibrium"), AgentSpec(name="random")]
    plan_estimator(get_game("kuhn"), specs, None, False, None, said.append)
    assert said == []  # quick: nothing said

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(0.5)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(aivat, "known_strategies", slow)
    plan = plan_estimator(get_game("kuhn"), specs, None, False, None, said.append)
    assert plan.estimator == "aivat" and len(said) == 1
    assert said[0].startswith("solving kuhn for the strategies the AIVAT estimator needs")
