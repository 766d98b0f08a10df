"""The search's time bank: the mean solve time per hand settles at the target, nothing changes for
an agent under it, and a surplus is spent before budgets shrink (simulated clocks: the bank is pure)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.agents.abstract_cfr import search_settings
from showdown.agents.time_bank import MIN_SCALE, OVERDRAFT, TimeBank
from showdown.errors import ConfigError
from showdown.games.catalog import get_game


def _play(bank: TimeBank, hands: int, turn: float, river: float, gadget: float = 0.0) -> list[float]:
    """Each hand a turn solve (``gadget`` seconds not scaled, then its budget) and a river solve that
    take their whole budgets, as against an opponent that leaves the tree every hand: per-hand times."""
    times = []
    for _ in range(hands):
        bank.new_hand()
        given = bank.budget(turn)
        spent = gadget + given if given > 0 else 0.0  # no budget: no solve, its gadget neither
        bank.spend(spent)
        given = bank.budget(river)
        bank.spend(given)
        times.append(spent + given)
    return times


def test_an_agent_under_its_target_keeps_its_budgets() -> None:
    bank = TimeBank(420)
    times = _play(bank, 200, 0.1, 0.1)
    assert bank.scale == 1.0 and all(t == pytest.approx(0.2) for t in times)


@given(st.floats(0.05, 1.0), st.floats(0.05, 1.0), st.floats(0.0, 0.2), st.floats(100, 800))
@settings(max_examples=40, deadline=None)
def test_the_mean_settles_at_the_target_when_the_budgets_ask_more(turn: float, river: float, gadget: float, target_ms: float) -> None:
    bank = TimeBank(target_ms)
    times = _play(bank, 400, turn, river, gadget)
    target = target_ms / 1000
    mean = sum(times[100:]) / 300
    assert mean <= target * 1.05  # whatever the fixed costs: solves wait for credit
    assert sum(times) <= 400 * target + OVERDRAFT * target + gadget + turn + river  # the match's whole time
    if turn + river + gadget > target and gadget + MIN_SCALE * (turn + river) < target * 0.5:
        assert mean >= target * 0.85  # and not far under: the budgets are used
    assert bank.mean_ms() == pytest.approx(1000 * sum(times) / 400)


def test_a_surplus_saved_on_the_tree_is_spent_before_the_budgets_shrink() -> None:
    bank = TimeBank(400)
    _play(bank, 100, 0.0, 0.0)  # a hundred hands on the tree: 40 s saved
    first = _play(bank, 10, 0.3, 0.3)
    assert first[0] == pytest.approx(0.6)  # the first hands off the tree get their whole budgets
    _play(bank, 600, 0.3, 0.3)
    assert 0.0 <= bank.balance <= 3 * 0.4  # and the surplus is gone, the mean kept to the target


def test_fixed_costs_over_the_target_make_solves_wait_for_credit() -> None:
    bank = TimeBank(200)
    times = _play(bank, 500, 0.3, 0.3, gadget=0.4)  # a turn solve alone costs 0.475 s or more
    assert sum(times) / 500 <= 0.2 * 1.05
    assert sum(t == 0 for t in times) > 100  # hands with no solve, the blueprint playing


def test_no_bank_leaves_budgets_alone() -> None:
    bank = TimeBank(0)
    times = _play(bank, 50, 0.4, 0.4)
    assert all(t == pytest.approx(0.8) for t in times) and bank.scale == 1.0


def test_the_option_reaches_the_settings_and_is_checked() -> None:
    game = get_game("holdem-nolimit")
    assert search_settings({}, game).hand_ms == 450.0
    assert search_settings({"budget_ms": "1000", "turn_budget_ms": "2000"}, game).hand_ms == 2250.0  # the bank follows the budgets
    assert search_settings({"hand_ms": "250"}, game).hand_ms == 250.0
    assert search_settings({"hand_ms": "0"}, game).hand_ms == 0.0
    with pytest.raises(ConfigError, match="hand_ms"):
        search_settings({"hand_ms": "-1"}, game)
