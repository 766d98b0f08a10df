"""The OpenSpiel bridge and our rules engine offer the same actions: on random paths of several limit
games (with and without stacks) OpenSpiel's ``universal_poker`` and ``showdown.games.state`` agree
at every decision, and a limit game whose stacks the betting can reach (where ``universal_poker``,
ignoring stacks, offers a raise past the stack, or a fold to a player facing an all-in that put in no
more than it had) is refused in one line instead of failing deep in the walk."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from showdown.agents.base import LETTER_ACTIONS  # noqa: E402
from showdown.errors import ShowdownError  # noqa: E402
from showdown.games.catalog import get_game  # noqa: E402
from showdown.games.gamedef import GameDef, parse_gamedef  # noqa: E402
from showdown.games.state import State  # noqa: E402
from showdown.interchange.openspiel import (  # noqa: E402
    LETTER_OF_ACTION,
    from_openspiel_policy,
    limit_reach,
    openspiel_game,
    universal_poker_parameters,
    walk_decisions,
)


def _leduc(stacks: tuple[int, ...]) -> GameDef:
    n = len(stacks)
    return parse_gamedef(f"GAMEDEF\nlimit\nnumPlayers = {n}\nnumRounds = 2\nblind = {' '.join(['1'] * n)}\nraiseSize = 2 4\n"
                         f"firstPlayer = 1 1\nmaxRaises = 2 2\nnumSuits = 2\nnumRanks = {n + 1}\nnumHoleCards = 1\n"
                         f"numBoardCards = 0 1\nstack = {' '.join(map(str, stacks))}\nEND GAMEDEF\n")


GAMES = {
    "kuhn": get_game("kuhn"), "kuhn3p": get_game("kuhn3p"), "leduc": get_game("leduc"), "leduc3p": get_game("leduc3p"),
    "leduc 13/13": _leduc((13, 13)), "leduc 13/40": _leduc((13, 40)), "leduc 40/14": _leduc((40, 14)),
    "leduc3p 13/20/13": _leduc((13, 20, 13)),
}  # fmt: skip
LOADED = {name: openspiel_game(game) for name, game in GAMES.items()}


@settings(max_examples=150, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(GAMES)), data=st.data())
def test_openspiel_and_our_rules_offer_the_same_actions_on_random_paths(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    state, ours = LOADED[name].new_initial_state(), State.initial(game)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(data.draw(st.sampled_from([a for a, _ in state.chance_outcomes()])))
            continue
        assert not ours.finished and state.current_player() == ours.current_player, ours.betting
        theirs = [LETTER_OF_ACTION[a] for a in state.legal_actions()]
        assert sorted(theirs) == sorted(str(a)[0] for a in ours.legal_actions()), f"{name} at '{ours.betting}'"
        action = data.draw(st.sampled_from(state.legal_actions()))
        state.apply_action(action)
        ours = ours.apply(LETTER_ACTIONS[LETTER_OF_ACTION[action]])
    assert ours.finished
    if not ours.is_showdown:  # (our state holds no cards: a showdown's winner is OpenSpiel's to say)
        assert list(state.returns()) == list(ours.payoffs())


@pytest.mark.parametrize("stacks", [(3, 10), (10, 3), (12, 40), (5, 5), (2, 9, 4), (13, 13, 12)])
def test_a_limit_game_whose_stacks_bind_is_refused_in_one_line(stacks: tuple[int, ...]) -> None:
    # universal_poker ignores limit stacks: in (3, 10) after 'cc/' it offered a bet our rules refuse (the
    # walk failed with "illegal action r at 'cc/r'"), after 'crr' a fold to a player facing an all-in
    game = _leduc(stacks)
    assert min(stacks) < limit_reach(game) == 13
    says = rf"^openspiel_game: OpenSpiel's universal_poker ignores stacks in limit games, .* more than a stack of {min(stacks)}: give every player a stack of at least 13"
    with pytest.raises(ShowdownError, match=says):
        openspiel_game(game)
    loaded = pyspiel.load_game("universal_poker", universal_poker_parameters(game))  # made without the bridge
    with pytest.raises(ShowdownError, match=r"^walk_decisions: OpenSpiel's universal_poker ignores stacks"):
        next(walk_decisions(game, loaded))
    with pytest.raises(ShowdownError, match=r"^from_openspiel_policy: OpenSpiel's universal_poker ignores stacks"):
        from_openspiel_policy(game, loaded, _Uniform())


class _Uniform:
    def action_probabilities(self, state: object) -> dict[int, float]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return {a: 1 / len(legal) for a in legal}
