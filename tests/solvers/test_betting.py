"""The abstract betting tree and the translation of real bets into it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.games.catalog import get_game
from showdown.games.state import CALL, FOLD, Action, ActionKind, State
from showdown.solvers.betting import (
    DECISION,
    BetSizing,
    abstract_actions,
    build_tree,
    default_sizing,
    pot_fraction,
    pseudo_harmonic_low,
    realize,
    translate,
    translation_probabilities,
    wide_sizing,
)

NOLIMIT = get_game("holdem-nolimit")
SIZINGS = [default_sizing(), wide_sizing()]


def test_limit_tree_is_the_real_tree():
    tree = build_tree(get_game("leduc"))
    assert (tree.kind == DECISION).sum() == 36
    tree = build_tree(get_game("holdem-limit"))
    assert [int(((tree.kind == DECISION) & (tree.round == r)).sum()) for r in range(4)] == [8, 70, 630, 5670]


def test_nolimit_tree_keeps_all_in_and_legal_sizes():
    tree = build_tree(NOLIMIT, default_sizing())
    assert tree.num_nodes < 100_000
    for node in np.flatnonzero(tree.kind == DECISION)[:3000]:
        state = State.initial(NOLIMIT).apply_betting(tree.bettings[node])
        for a in tree.actions[node]:
            assert state.why_illegal(a) is None
        bounds = state.raise_bounds()
        if bounds is not None:
            assert any(a.kind is ActionKind.RAISE and a.size == bounds[1] for a in tree.actions[node])


def test_pseudo_harmonic_mapping_is_monotone_and_fixes_the_sizes():
    a, b = 0.5, 1.0
    xs = np.linspace(a, b, 101)
    ps = [pseudo_harmonic_low(x, a, b) for x in xs]
    assert ps[0] == 1.0 and ps[-1] == 0.0
    assert all(p1 >= p2 for p1, p2 in zip(ps, ps[1:]))
    # the paper's example point: x = 0.75 between 0.5 and 1 maps low with probability 0.4286
    assert abs(pseudo_harmonic_low(0.75, 0.5, 1.0) - (0.25 * 1.5) / (0.5 * 1.75)) < 1e-12


def _random_state(data, game):
    state = State.initial(game)
    for _ in range(data.draw(st.integers(0, 12))):
        if state.is_terminal:
            break
        options = state.legal_actions()
        a = data.draw(st.sampled_from(options))
        if a.kind is ActionKind.RAISE and game.is_nolimit:
            lo, hi = state.raise_bounds()
            a = Action(ActionKind.RAISE, data.draw(st.integers(lo, hi)))
        state = state.apply(a)
    return state


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_real_action_translates_and_every_abstract_action_realizes_legally(data):
    real = _random_state(data, NOLIMIT)
    sizing = data.draw(st.sampled_from(SIZINGS))
    if real.is_terminal:
        return
    # an abstract state with other pot sizes: the same betting with each raise replaced by a sized one
    abstract = State.initial(NOLIMIT)
    for rnd in real.history:
        for _, a in rnd:
            options = abstract_actions(abstract, sizing)
            abstract = abstract.apply(options[translate(real, a, abstract, options, None)]) if not abstract.is_terminal else abstract
    if abstract.is_terminal or abstract.current_player != real.current_player or abstract.round != real.round:
        return
    options = abstract_actions(abstract, sizing)
    for a in real.legal_actions():
        slot = translate(real, a, abstract, options, np.random.default_rng(0))
        assert options[slot].kind == a.kind or (a.kind is ActionKind.FOLD and options[slot] == CALL) or (
            a.kind is ActionKind.RAISE and options[slot] == CALL  # a small raise may be answered as a call
        )
    for a in options:
        assert real.why_illegal(realize(a, abstract, real)) is None


def test_tree_sizes_map_to_themselves_and_off_tree_sizes_to_neighbours():
    state = State.initial(NOLIMIT)
    options = abstract_actions(state, default_sizing())
    for i, a in enumerate(options):
        assert translate(state, a, state, options, None) == i
    sizes = [a.size for a in options if a.kind is ActionKind.RAISE]
    slots = [translate(state, Action(ActionKind.RAISE, s), state, options, None) for s in range(sizes[0], sizes[-1] + 1, 7)]
    assert slots == sorted(slots)  # monotone in the bet size
    assert translate(state, FOLD, state, options, None) == 0


def _fraction_of(state, option):
    return 0.0 if option.kind is ActionKind.CALL else pot_fraction(state, option.size)


def test_a_tiny_river_bet_is_answered_as_a_check_not_as_a_pot_bet():
    """Regression: the smallest river size kept is the pot, and a bet of 1/6 pot used to map to it."""
    river = State.initial(NOLIMIT).apply_betting("r300c/cc/cc/")
    bet = Action(ActionKind.RAISE, river.max_spent + 100)  # 100 into 600: 1/6 pot
    after = river.apply(bet)
    options = abstract_actions(river, default_sizing())
    assert [a.kind for a in options] == [ActionKind.CALL, ActionKind.RAISE, ActionKind.RAISE]
    assert options[translate(river, bet, river, options, None)] == CALL
    p = translation_probabilities(river, bet, river, options)
    x = 100 / 600
    assert p[0] == pytest.approx((1.0 - x) / (1.0 * (1 + x)))  # f(x) with the call (0 pot) as the lower end
    assert p[1] == pytest.approx(1.0 - p[0]) and p[2] == 0.0
    assert not after.is_terminal


def test_a_third_minimum_raise_maps_mostly_to_a_call_not_to_all_in():
    """Regression: past the cap of two sized raises only all-in is kept, and any third raise mapped to it."""
    flop = State.initial(NOLIMIT).apply_betting("r300c/r600r1800")
    options = abstract_actions(flop, default_sizing())
    assert [a.kind for a in options] == [ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE]  # all-in only
    lo, hi = flop.raise_bounds()
    click = Action(ActionKind.RAISE, lo)
    assert options[translate(flop, click, flop, options, None)] == CALL
    x, b = pot_fraction(flop, lo), pot_fraction(flop, hi)
    assert translation_probabilities(flop, click, flop, options)[1] == pytest.approx((b - x) / (b * (1 + x)))  # 0.70
    assert options[translate(flop, Action(ActionKind.RAISE, hi), flop, options, None)].size == hi


def test_the_call_end_of_the_mapping_matches_the_paper():
    # f(x) = (B - x)(1 + A) / ((B - A)(1 + x)) with A = 0 (the call): f(0) = 1, f(B) = 0
    assert pseudo_harmonic_low(0.0, 0.0, 1.0) == 1.0
    assert pseudo_harmonic_low(1.0, 0.0, 1.0) == 0.0
    assert pseudo_harmonic_low(0.25, 0.0, 1.0) == pytest.approx(0.75 / 1.25)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_size_from_min_raise_to_all_in_maps_to_its_two_neighbours(data):
    real = _random_state(data, NOLIMIT)
    sizing = data.draw(st.sampled_from(SIZINGS))
    if real.is_terminal or real.raise_bounds() is None:
        return
    lo, hi = real.raise_bounds()
    options = abstract_actions(real, sizing)
    size = data.draw(st.integers(lo, hi))
    action = Action(ActionKind.RAISE, size)
    p = translation_probabilities(real, action, real, options)
    assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    support = np.flatnonzero(p > 0)
    assert len(support) <= 2
    assert all(options[i].kind in (ActionKind.CALL, ActionKind.RAISE) for i in support)
    x = pot_fraction(real, size)
    kept = sorted(_fraction_of(real, options[i]) for i, o in enumerate(options) if o.kind is not ActionKind.FOLD)
    if size == hi:
        assert options[support[0]].size == hi and len(support) == 1
    elif any(abs(f - x) < 1e-9 for f in kept):
        assert len(support) == 1 and abs(_fraction_of(real, options[support[0]]) - x) < 1e-9
    else:
        below = [f for f in kept if f < x]
        above = [f for f in kept if f > x]
        got = sorted(_fraction_of(real, options[i]) for i in support)
        if below and above:
            assert got == pytest.approx([below[-1], above[0]]) or (len(got) == 1 and got[0] in (below[-1], above[0]))
            a, b = below[-1], above[0]
            low = [i for i in support if abs(_fraction_of(real, options[i]) - a) < 1e-12]
            assert (p[low[0]] if low else 0.0) == pytest.approx(pseudo_harmonic_low(x, a, b))
        else:
            assert len(support) == 1
    slot = translate(real, action, real, options, np.random.default_rng(data.draw(st.integers(0, 2**16))))
    assert p[slot] > 0
    # monotone: a larger size is never more likely to map to the call
    bigger = Action(ActionKind.RAISE, data.draw(st.integers(size, hi)))
    call = next(i for i, o in enumerate(options) if o.kind is ActionKind.CALL)
    assert translation_probabilities(real, bigger, real, options)[call] <= p[call] + 1e-12


def _raise_fractions(state, options):
    """The kept sized raises as pot fractions (all-in left out), rounded for comparison."""
    hi = state.raise_bounds()[1]
    return [round(pot_fraction(state, a.size), 2) for a in options if a.kind is ActionKind.RAISE and a.size < hi]


def test_the_wide_tree_keeps_a_quarter_pot_bet_after_the_flop_and_a_third_sized_raise():
    sizing = wide_sizing()
    flop = State.initial(NOLIMIT).apply_betting("r300c/")
    assert _raise_fractions(flop, abstract_actions(flop, sizing)) == [0.25, 0.5, 1.0]
    for betting in ("r300c/cc/", "r300c/cc/cc/"):
        street = State.initial(NOLIMIT).apply_betting(betting)
        assert _raise_fractions(street, abstract_actions(street, sizing)) == [0.25, 1.0]
    third = State.initial(NOLIMIT).apply_betting("r300c/r450r1200")  # a bet and a raise: a pot-size raise is kept
    assert _raise_fractions(third, abstract_actions(third, sizing)) == [1.0]
    fourth = State.initial(NOLIMIT).apply_betting("r300c/r450r1200r3600")  # past three raises: all-in alone
    assert _raise_fractions(fourth, abstract_actions(fourth, sizing)) == []
    preflop = State.initial(NOLIMIT).apply_betting("r250")  # the preflop re-raise: 1 and 2 pots, then 1
    assert _raise_fractions(preflop, abstract_actions(preflop, sizing)) == [1.0, 2.0]
    preflop = preflop.apply(Action(ActionKind.RAISE, 600))
    assert _raise_fractions(preflop, abstract_actions(preflop, sizing)) == [1.0]


def test_the_trees_count_their_decision_nodes_per_round():
    tree = build_tree(NOLIMIT, wide_sizing())
    per_round = [int(((tree.kind == DECISION) & (tree.round == r)).sum()) for r in range(4)]
    assert per_round == [64, 892, 5796, 28676] and sum(per_round) == 35_428
    shipped = build_tree(NOLIMIT)
    assert [int(((shipped.kind == DECISION) & (shipped.round == r)).sum()) for r in range(4)] == [52, 692, 2884, 7732]


def test_in_the_wide_tree_a_tiny_river_bet_maps_between_the_check_and_a_quarter_pot():
    river = State.initial(NOLIMIT).apply_betting("r300c/cc/cc/")
    bet = Action(ActionKind.RAISE, river.max_spent + 100)  # 1/6 pot
    options = abstract_actions(river, wide_sizing())
    p = translation_probabilities(river, bet, river, options)
    quarter = next(i for i, a in enumerate(options) if a.kind is ActionKind.RAISE)
    assert pot_fraction(river, options[quarter].size) == pytest.approx(0.25)
    assert options[0] == CALL and p[0] == pytest.approx(pseudo_harmonic_low(1 / 6, 0.0, 0.25))  # 0.29 a check, 0.71 the 1/4 pot
    assert p[quarter] == pytest.approx(1 - p[0])


def test_in_the_wide_tree_a_third_minimum_raise_maps_between_the_call_and_a_pot_raise_not_all_in():
    flop = State.initial(NOLIMIT).apply_betting("r300c/r600r1800")
    options = abstract_actions(flop, wide_sizing())
    lo, hi = flop.raise_bounds()
    p = translation_probabilities(flop, Action(ActionKind.RAISE, lo), flop, options)
    all_in = next(i for i, a in enumerate(options) if a.kind is ActionKind.RAISE and a.size == hi)
    assert p[all_in] == 0.0
    pot = next(i for i, a in enumerate(options) if a.kind is ActionKind.RAISE and a.size < hi)
    x, b = pot_fraction(flop, lo), pot_fraction(flop, options[pot].size)
    assert p[1] == pytest.approx(pseudo_harmonic_low(x, 0.0, b)) and p[pot] == pytest.approx(1 - p[1])


def test_sizing_round_trips_through_json_and_reads_files_without_later_raises():
    for sizing in (default_sizing(), wide_sizing()):
        assert BetSizing.from_json(sizing.to_json()) == sizing
    assert "later" not in default_sizing().to_json()  # the shipped file's header, unchanged
    shipped = {"fractions": [[0.5, 1.0, 2.0], [0.5, 1.0], [1.0], [1.0]], "max_raises": 2}
    assert BetSizing.from_json(shipped) == default_sizing()


def test_later_raises_repeat_their_last_group_and_rounds_past_the_list_reuse_the_last():
    sizing = BetSizing(((0.5,), (0.25, 1.0)), 4, (((2.0,), (1.0,)), ((0.5,),)))
    assert sizing.of_raise(0, 0) == (0.5,) and sizing.of_raise(0, 1) == (2.0,)
    assert sizing.of_raise(0, 2) == (1.0,) and sizing.of_raise(0, 3) == (1.0,)
    assert sizing.of_raise(3, 0) == (0.25, 1.0) and sizing.of_raise(3, 2) == (0.5,)
    assert BetSizing(((0.5,),), 2).of_raise(2, 1) == (0.5,)


def test_every_node_of_the_tree_is_reached_by_its_betting_string():
    tree = build_tree(NOLIMIT)
    for node in range(0, tree.num_nodes, 7):
        assert State.initial(NOLIMIT).apply_betting(tree.bettings[node]).betting == tree.bettings[node]
    for node in np.flatnonzero(tree.kind != DECISION)[::5]:
        assert State.initial(NOLIMIT).apply_betting(tree.bettings[node]).is_terminal
