"""Opponents' no-limit sizes a solved tree lacks, for the agents that play one.

``cfr`` and ``equilibrium`` on a custom no-limit game play a strategy solved on the game's tree, which
raises only the minimum or all-in (``State.legal_actions``): an opponent's raise of any other size has
no information set there (the agent used to exit on the first one). The real betting is replayed beside
the tree's: folds and calls are the same; each raise is mapped onto the tree's actions at that point by
``solvers.betting.translate`` (the pseudo-harmonic rule of Ganzfried and Sandholm 2013 on pot fractions,
with the call as the lower neighbour of the smallest raise; the likelier side, so a decision depends on
the betting alone). The decision is made at the tree's information set and played on the real state: the
tree's minimum raise as the real minimum, its all-in as the real all-in. Where the tree's hand has ended
or moved on while the real one goes on (a raise mapped to all-in that was not one), the agent checks or
calls. On the tree, and in limit games, nothing changes: the tree's state is the real one.
"""

from __future__ import annotations

from showdown.agents.base import View
from showdown.games.state import CALL, FOLD, Action, ActionKind, State, parse_betting

__all__ = ["letter_policy", "played_action", "tree_state"]


def tree_state(view: View) -> State | None:
    """The solved tree's state for ``view``'s betting; None where the tree has no decision for the
    seat to act (its hand ended, or is in another round, or waits on another seat)."""
    real = view.public
    if view.game.is_limit:
        return real
    from showdown.solvers.betting import translate

    game = view.game
    tree = now = State.initial(game)
    for actions in parse_betting(view.betting):
        for action in actions:
            if tree.finished or tree.round != now.round or tree.current_player != now.current_player:
                return None
            options = tree.legal_actions()
            tree = tree.apply(options[translate(now, action, tree, options, None)])
            now = now.apply(action)
    if tree.finished or tree.round != real.round or tree.current_player != real.current_player:
        return None
    return tree


def played_action(view: View, tree: State, action: Action) -> Action:
    """``action``, chosen at the tree's state ``tree``, as played on the real one: a fold where a check
    is free becomes the check, the tree's all-in the real all-in, its minimum raise the real minimum."""
    real = view.public
    if view.game.is_limit or tree is real:
        return action
    if action.kind is ActionKind.FOLD:
        return FOLD if real.can_fold() else CALL
    if action.kind is ActionKind.CALL:
        return CALL
    real_bounds, tree_bounds = real.raise_bounds(), tree.raise_bounds()
    if real_bounds is None or tree_bounds is None:
        return CALL
    return Action(ActionKind.RAISE, real_bounds[1] if action.size >= tree_bounds[1] else real_bounds[0])


def letter_policy(probabilities: dict[str, float]) -> dict[str, float]:
    """A strategy's probabilities per action (``r4``, ``r20``...) summed per letter (``f``, ``c``, ``r``):
    what ``policy`` answers (a no-limit tree's minimum raise and all-in are both ``r``)."""
    out: dict[str, float] = {}
    for action, p in probabilities.items():
        out[action[:1]] = out.get(action[:1], 0.0) + p
    return out
