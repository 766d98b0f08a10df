"""The abstract betting tree and the translation of real bets into it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.games.catalog import get_game
from showdown.games.state import CALL, FOLD, Action, ActionKind, State
from showdown.solvers.betting import (
    DECISION,
    abstract_actions,
    build_tree,
    default_sizing,
    pseudo_harmonic_low,
    realize,
    translate,
)

NOLIMIT = get_game("holdem-nolimit")


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
    if real.is_terminal:
        return
    # an abstract state with other pot sizes: the same betting with each raise replaced by a sized one
    abstract = State.initial(NOLIMIT)
    for rnd in real.history:
        for _, a in rnd:
            options = abstract_actions(abstract, default_sizing())
            abstract = abstract.apply(options[translate(real, a, abstract, options, None)]) if not abstract.is_terminal else abstract
    if abstract.is_terminal or abstract.current_player != real.current_player or abstract.round != real.round:
        return
    options = abstract_actions(abstract, default_sizing())
    for a in real.legal_actions():
        slot = translate(real, a, abstract, options, np.random.default_rng(0))
        assert options[slot].kind == a.kind or (a.kind is ActionKind.FOLD and options[slot] == CALL) or (
            a.kind is ActionKind.RAISE and not any(o.kind is ActionKind.RAISE for o in options)
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
