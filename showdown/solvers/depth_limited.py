"""Depth-limited re-solving of a betting round before the last two (the flop in hold'em, Leduc's
first round), with leaf values from the blueprint (Brown, Sandholm and Amos 2018, "Depth-limited
solving for imperfect-information games").

The subgame is the rest of the round from the real state (``public_rows``, the real pot and the
opponent's actual bet in it). Where the round's betting ends without a fold the next card would be
dealt; there the subgame stops at a leaf whose value for each pair of holdings is what the hand is
worth from there when both play a continuation strategy of the blueprint, averaged over the next
card (``continuation_values``). With one continuation (the blueprint's) the leaf is a number per
pair; with several (Modicum's: the blueprint and its versions biased toward folding, calling and
raising, ``biased``) the opponent chooses one per holding at the leaf, a decision of its own in the
solve, so that the re-solved strategy cannot lean on the opponent playing the blueprint later.

The solve is the compiled CFR+ pass of ``subgame_kernels`` (its LEAF nodes), with ``SubgameSolver``'s
gadget for safety. Computing the leaves costs, per leaf, the rest of the hand over every next card
for every pair of holdings: in Leduc instant; in hold'em (47 turns, then 46 rivers, 1,326 holdings)
far over a decision's budget, so the hold'em agent does not search the flop yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from showdown.errors import SolverError
from showdown.games.state import ActionKind, State
from showdown.solvers.betting import DECISION, FOLD_END, SHOWDOWN
from showdown.solvers.holdings import Holdings
from showdown.solvers.subgame import FlatTree, Row, Subgame, SubgameSizing, SubgameSolver, public_rows
from showdown.solvers.subgame_kernels import CHANCE, LEAF
from showdown.solvers.turn_subgame import TurnSubgame

Strategies = list[np.ndarray | None]
"""Per node of a subgame, the acting player's probabilities ((actions, H); None off decisions)."""

BIAS = 5.0
"""Modicum's bias: a biased continuation multiplies one kind of action's probability by this, then
renormalises (Brown, Sandholm and Amos 2018, section 5)."""


@dataclass(frozen=True, slots=True)
class DepthLimitedSubgame:
    """The round from a real state to its leaves: ``game`` its nodes (the round's own first, in
    ``public_rows``' order; then, with several continuations, each leaf's choices), ``flat`` as the
    compiled pass reads it (a LEAF's ``board`` is its row in the leaf values), ``ends`` the state at
    each end of the round and ``choices`` the continuations per end."""

    game: Subgame
    flat: FlatTree
    ends: tuple[State, ...]
    choices: int

    @classmethod
    def of_state(cls, root: State, sizing: SubgameSizing, opponent: int, choices: int = 1) -> DepthLimitedSubgame:
        """The rest of ``root``'s round with ``sizing``'s raises; with ``choices`` > 1, ``opponent``
        picks a continuation at each end (leaf values then hold ``choices`` rows per end)."""
        if root.is_terminal or root.round > root.game.num_rounds - 2:
            raise SolverError("a depth-limited subgame ends before the last card: not in the last two rounds")
        if choices < 1:
            raise SolverError("a leaf needs at least one continuation strategy")
        rows, ends = public_rows(root, sizing, CHANCE)
        out: list[Row] = []
        board: list[int] = []
        extra: list[tuple[Row, int]] = []
        first_extra = len(rows)
        e = 0
        for kind, player, spent, kids, actions in rows:
            if kind != CHANCE:
                out.append((kind, player, spent, kids, actions))
                board.append(0)
            elif choices == 1:
                out.append((LEAF, -1, spent, (), ()))
                board.append(e)
            else:
                start = first_extra + len(extra)
                out.append((DECISION, opponent, spent, tuple(range(start, start + choices)), ()))
                board.append(0)
                extra.extend(((LEAF, -1, spent, (), ()), e * choices + c) for c in range(choices))
            e += kind == CHANCE
        out.extend(row for row, _ in extra)
        board.extend(b for _, b in extra)
        game = Subgame.of_rows(out)
        return cls(game, FlatTree.of(game, board=np.array(board, dtype=np.int64)), tuple(ends), choices)


def pair_values(game: Subgame, strategies: Strategies, strength: np.ndarray, disjoint: np.ndarray) -> np.ndarray:
    """The first player's chips won in the hand per pair of holdings (H, H) at the root of ``game``
    (a last-round subgame, one board) when both play ``strategies``; ``strength`` ranks the holdings
    on the board, ``disjoint`` is 1 for the pairs the board and each other leave possible."""
    values: list[np.ndarray | None] = [None] * game.num_nodes
    beats = np.sign(strength[:, None] - strength[None, :])
    for n in range(game.num_nodes - 1, -1, -1):
        spent = game.spent[n]
        if game.kind[n] == FOLD_END:
            values[n] = disjoint * (-float(spent[0]) if int(game.player[n]) == 0 else float(spent[1]))
        elif game.kind[n] == SHOWDOWN:
            values[n] = disjoint * np.where(beats > 0, float(spent[1]), np.where(beats < 0, -float(spent[0]), 0.0))
        else:
            sigma = strategies[n]
            assert sigma is not None
            kids = [values[c] for c in game.children[n]]
            if int(game.player[n]) == 0:
                values[n] = sum(s[:, None] * v for s, v in zip(sigma, kids, strict=True))
            else:
                values[n] = sum(s[None, :] * v for s, v in zip(sigma, kids, strict=True))
    root = values[0]
    assert root is not None
    return root


def continuation_values(
    turn: TurnSubgame, holdings: Holdings, continuations: Sequence[Callable[[int, int], Strategies]]
) -> np.ndarray:
    """Leaf values (ends x continuations, H, H): at each end of ``turn``'s first round (its CHANCE
    nodes, in order), the first player's chips won per pair of holdings, averaged over the next card
    (one over the cards a pair leaves, as the solvers weigh chance), when both play on with
    ``continuation(end, card)``: the strategies of the last round's subgame ``turn.rivers[end]`` on
    that card (``turn.cards[card]``)."""
    tables = turn.tables
    cards = holdings.cards
    apart = ~(cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    hh = cards.shape[0]
    out = np.zeros((len(turn.ends), len(continuations), hh, hh))
    for card in range(len(turn.cards)):
        mask = tables.masks[card].astype(float)
        disjoint = apart * mask[:, None] * mask[None, :]
        strength = np.empty(hh, dtype=np.int64)
        strength[tables.order[card]] = tables.group_end[card]  # a tie group's end ranks it
        for e, end in enumerate(turn.ends):
            river = turn.rivers[e]
            for c, continuation in enumerate(continuations):
                if river is None:  # all in: the cards are shown
                    shown = Subgame.of_rows([(SHOWDOWN, -1, tuple(end.spent), (), ())])
                    out[e, c] += pair_values(shown, [None], strength, disjoint)
                else:
                    out[e, c] += pair_values(river, continuation(e, card), strength, disjoint)
    return np.asarray(out * turn.weight())


def biased(game: Subgame, strategies: Strategies, player: int, kind: ActionKind, factor: float = BIAS) -> Strategies:
    """``strategies`` with ``player``'s probability of each action of ``kind`` (fold, call, raise)
    times ``factor``, renormalised (Modicum's biased continuations)."""
    out: Strategies = []
    for n, sigma in enumerate(strategies):
        if sigma is None or int(game.player[n]) != player or game.kind[n] != DECISION:
            out.append(sigma)
            continue
        scale = np.array([factor if a.kind is kind else 1.0 for a in game.actions[n]])[:, None]
        moved = sigma * scale
        out.append(moved / np.maximum(moved.sum(axis=0, keepdims=True), 1e-300))
    return out


class DepthLimitedSolver(SubgameSolver):
    """CFR+ on a ``DepthLimitedSubgame`` with ``leaves`` from ``continuation_values`` (ends x choices,
    H, H); ``blocked`` the holdings the board blocks; ``root_reach``, ``opponent`` and
    ``alternatives`` (the safe gadget) as in ``SubgameSolver``; ``turn`` the same round to the end
    of the hand (its boards' tables)."""

    def __init__(
        self, subgame: DepthLimitedSubgame, turn: TurnSubgame, holdings: Holdings, leaves: np.ndarray, blocked: np.ndarray,
        root_reach: np.ndarray, opponent: int, alternatives: np.ndarray | None = None,
    ) -> None:
        leaves = leaves.reshape(-1, *leaves.shape[-2:])  # (ends, choices, H, H): one row per leaf
        if leaves.shape[0] != len(subgame.ends) * subgame.choices:
            raise SolverError("one leaf value per end of the round and continuation")
        super().__init__(subgame.game, _Board(holdings, blocked), root_reach, opponent, alternatives, flat=subgame.flat, tables=turn.tables)  # type: ignore[arg-type]
        self.leaves = np.ascontiguousarray(leaves, dtype=self.DTYPE)


class _Board:
    """What ``SubgameSolver`` reads of a ranked board: the holdings, and those the board blocks."""

    def __init__(self, holdings: Holdings, blocked: np.ndarray) -> None:
        self.blocked = blocked
        self.holdings = holdings


__all__ = ["BIAS", "DepthLimitedSolver", "DepthLimitedSubgame", "Strategies", "biased", "continuation_values", "pair_values"]
