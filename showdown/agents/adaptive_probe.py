"""``probe-adaptive``: a probe that learns, over the hands of a match, how often the bot folds to each
bet size in each spot, and bets the size whose fold equity pays best.

It needs nothing from the bot but its play, so it works against any bot. Where a bot folds too
often to some size (its abstraction maps the size badly, it over-folds after a raise cap, or it
simply folds too much), the probe finds it by playing, as a human exploiter would:

* a spot is (round, raises already made in the round: 0, 1 or 2 and more, the size bucket, whether
  the bot already called a bet of ours in an earlier round of the hand), the sizes being a
  min-raise, 1/4, 1/2, 1 and 2 pots (limit games: the one raise);
* after each hand it counts, for every bet or raise it made, whether the bot folded at once, and
  from the hands shown down, how strong the bot's hand was (its percentile among all holdings on the
  final board) when it had called a bet of ours, or bet itself, in each round;
* at a decision it values each legal size as local best response does (Lisy and Bowling 2017), with
  the bot's learned fold frequency ``f`` (its mean under a Beta(1, 1) prior, plus an exploration
  bonus ``explore / sqrt(n + 1)`` that fades as the spot is tried ``n`` times, as in UCB):
  ``f P + (1 - f) (e' (P + c + 2 r) - (c + r))``, with ``e`` its equity against a random hand (seeded
  sampling) and ``e'`` the same against the bot's calling range, taken as uniform over the
  percentiles above a threshold learned from the showdowns; it calls a bet when its equity against
  the bot's betting range (learned the same way) pays the price, and folds otherwise.

What it learns comes from the hands it saw in this process: a duplicate match (``exploit --probes``,
the scorecard) replays every hand and so learns the same way each run; a plain match resumed with
``--resume`` starts learning again at the resume (its actions from there on differ from an
uninterrupted run's). Its decisions are deterministic given what it learned and the hand (the
equity samples are seeded by the probe's seed and the hand number), and ``policy`` is the kind
``act`` plays.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from showdown.agents.base import Policy, View
from showdown.agents.probes import ProbeAgent
from showdown.games.cards import make_deck
from showdown.games.evaluate import hand_values
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind, State

SIZES: tuple[float | str, ...] = ("min", 0.25, 0.5, 1.0, 2.0)
"""The size buckets: a min-raise and pot fractions (of the pot after calling); no all-in, whose
exploration costs a stack a try."""
EXPLORE = 0.1
"""The exploration bonus's scale: a spot tried ``n`` times gets ``EXPLORE / sqrt(n + 1)`` on its fold rate."""
EQUITY_SAMPLES = 200
"""Opponent hands and board completions sampled for the probe's equity against a random hand."""


def _kept_on(replies: list[tuple[tuple[int, int, int, bool] | None, Action]], round_: int) -> bool:
    """Whether the bot called or raised a bet of ours in a round before ``round_`` (its range is then
    stronger, and it folds less, than in the same spot of a hand where it did not)."""
    return any(spot is not None and spot[0] < round_ and reply.kind is not ActionKind.FOLD for spot, reply in replies)


def _against(equity: float, top: float) -> float:
    """Equity against the strongest ``top`` of the hands, from the equity against all of them (the
    equity against a random hand taken as the hand's percentile)."""
    return min(1.0, max(0.0, (equity - (1 - top)) / top))


def spot_raises(state: State) -> int:
    """Raises made so far in the current round, capped at 2 (a spot's raise count)."""
    return min(2, sum(1 for _, a in state.history[-1] if a.kind is ActionKind.RAISE) if state.history else 0)


class AdaptiveProbe(ProbeAgent):
    """Learns the bot's fold frequency per spot and size; bets the size of best local value."""

    name = "probe-adaptive"
    value_only = False
    raise_sizes_blind = False  # the size of best value for its equity
    policy_by_hand = True  # its equity is sampled with the hand's own seed

    def __init__(self, game: GameDef | None = None, seed: int | None = None, explore: float = EXPLORE) -> None:
        super().__init__(game, seed)
        self.explore = explore
        self.tried: dict[tuple[int, int, int, bool], list[int]] = {}  # spot -> [bets made, folds at once]
        self.shown: dict[tuple[int, bool], list[float]] = {}  # (round, bot bet) -> [showdowns, sum of the bot's percentile]
        self._equities: dict[tuple[Any, ...], float] = {}  # this hand's, by (hole, board)
        self._equities_hand: int | None = None

    @classmethod
    def create(cls, game: GameDef, options: dict[str, Any]) -> AdaptiveProbe:
        from showdown.agents.registry import take_options

        opts = take_options(cls.name, options)
        return cls(game, seed=opts.get("seed"), explore=float(opts.get("explore", EXPLORE)))

    # ------------------------------------------------------------------ what it learned

    def fold_estimate(self, spot: tuple[int, int, int, bool]) -> float:
        """The bot's fold frequency in ``spot`` (Beta(1, 1) mean), plus the exploration bonus."""
        made, folds = self.tried.get(spot, (0, 0))
        return min(1.0, (folds + 1) / (made + 2) + self.explore / math.sqrt(made + 1))

    def _replies(self, view: View) -> list[tuple[tuple[int, int, int, bool] | None, Action]]:
        """The bot's actions this hand, each with the spot of the bet of ours it answered (None when
        it did not answer one of our bets)."""
        state = State.initial(view.game)
        out: list[tuple[tuple[int, int, int, bool] | None, Action]] = []
        for rnd in view.public.history:
            spot = None
            for player, action in rnd:
                if player == view.position:
                    spot = ((state.round, spot_raises(state), self._bucket(state, action), _kept_on(out, state.round))
                            if action.kind is ActionKind.RAISE else None)
                else:
                    out.append((spot, action))
                    spot = None
                state = state.apply(action)
        return out

    def hand_end(self, view: View) -> None:
        """Count, for each of our bets or raises this hand, whether the bot folded to it at once."""
        for spot, reply in self._replies(view):
            if spot is not None:
                counts = self.tried.setdefault(spot, [0, 0])
                counts[0] += 1
                counts[1] += reply.kind is ActionKind.FOLD
        theirs = view.state.hole[1 - view.position] if view.game.num_players == 2 else ()
        if theirs and view.state.is_showdown:
            percentile = self.percentile(view, tuple(theirs))
            for round_, bot_bet in self._lines(view):
                seen = self.shown.setdefault((round_, bot_bet), [0.0, 0.0])
                seen[0] += 1
                seen[1] += percentile

    # ------------------------------------------------------------------ sizes

    def _totals(self, state: State) -> list[tuple[int, int]]:
        """(bucket, raise-to total) of every size bucket legal here, distinct totals only."""
        bounds = state.raise_bounds()
        if bounds is None:
            return []
        lo, hi = bounds
        if state.game.is_limit:
            return [(0, lo)]
        out: dict[int, int] = {}
        base = state.pot() + state.to_call()
        for k, size in enumerate(SIZES):
            to = lo if size == "min" else hi if size == "allin" else state.max_spent + int(round(float(size) * base))
            out.setdefault(min(max(to, lo), hi), k)
        return [(k, to) for to, k in sorted(out.items())]

    def _bucket(self, state: State, action: Action) -> int:
        """The bucket of a raise we made (the nearest size, should the dealer have adjusted it)."""
        totals = self._totals(state)
        if not totals:
            return 0
        return min(totals, key=lambda kt: abs(kt[1] - (action.size or kt[1])))[0]

    # ------------------------------------------------------------------ equity

    def equity(self, view: View) -> float:
        """Our showdown equity against a random hand (seeded by the probe's seed and the hand)."""
        if view.hand != self._equities_hand or len(self._equities) > 4096:
            self._equities, self._equities_hand = {}, view.hand  # (an evaluator asks about ~1,000 holdings a state)
        key = (tuple(view.hole), tuple(view.board))
        kept = self._equities.get(key)
        if kept is not None:
            return kept
        game = view.game
        mine = list(view.hole)
        board = list(view.board)
        rest = np.array([c for c in make_deck(game.num_ranks, game.num_suits) if c not in mine and c not in board])
        need = game.num_hole_cards + sum(game.num_board_cards) - len(board)
        rng = np.random.default_rng([self.rng.seed & (2**63 - 1), view.hand, len(board)])
        picks = rest[rng.random((EQUITY_SAMPLES, len(rest))).argpartition(need - 1, axis=1)[:, :need]]
        theirs_hole, runout = picks[:, : game.num_hole_cards], picks[:, game.num_hole_cards :]
        shared = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (EQUITY_SAMPLES, len(board))), runout], axis=1)
        ours = hand_values(np.concatenate([np.broadcast_to(np.array(mine), (EQUITY_SAMPLES, len(mine))), shared], axis=1))
        theirs = hand_values(np.concatenate([theirs_hole, shared], axis=1))
        value = float(np.mean((ours > theirs) + 0.5 * (ours == theirs)))
        self._equities[key] = value
        return value

    # ------------------------------------------------------------------ deciding

    def _lines(self, view: View) -> set[tuple[int, bool]]:
        """The rounds where the bot called a bet of ours (False) or bet or raised itself (True)."""
        out: set[tuple[int, bool]] = set()
        for (spot, reply), round_ in zip(self._replies(view), self._reply_rounds(view)):
            if reply.kind is ActionKind.RAISE:
                out.add((round_, True))
            elif spot is not None and reply.kind is ActionKind.CALL:
                out.add((round_, False))
        return out

    def _reply_rounds(self, view: View) -> list[int]:
        return [r for r, rnd in enumerate(view.public.history) for player, _ in rnd if player != view.position]

    def threshold(self, round_: int, bot_bet: bool) -> float:
        """The weakest percentile of the bot's range when it continues (called our bet, or bet itself)
        in ``round_``, learned from its hands shown down: the range taken as uniform over the
        percentiles above it (mean m: threshold 2 m - 1; prior mean 3/4 of weight 2)."""
        count, total = self.shown.get((round_, bot_bet), (0.0, 0.0))
        mean = (total + 1.5) / (count + 2)
        return min(0.98, max(0.0, 2 * mean - 1))

    def percentile(self, view: View, hole: tuple[int, ...]) -> float:
        """The fraction of the other holdings that ``hole`` beats on the final board (ties half)."""
        game = view.game
        board = tuple(view.state.visible_board())
        rest = [c for c in make_deck(game.num_ranks, game.num_suits) if c not in hole and c not in board]
        others = np.array(list(itertools.combinations(rest, game.num_hole_cards)), dtype=np.int64)
        shared = np.broadcast_to(np.array(board, dtype=np.int64), (len(others), len(board)))
        theirs = hand_values(np.concatenate([others, shared], axis=1))
        mine = int(hand_values(np.array([list(hole) + list(board)]))[0])
        return float(np.mean((mine > theirs) + 0.5 * (mine == theirs)))

    def act(self, view: View) -> Action:
        state = view.public
        e = self.equity(view)
        pot = float(state.pot())
        asked = float(state.to_call())
        bot_bet = any(player != view.position and a.kind is ActionKind.RAISE for player, a in (state.history[-1] if state.history else ()))
        facing = _against(e, 1 - self.threshold(state.round, True)) if bot_bet else e  # a blind is no bet
        best, value = CALL, facing * (pot + asked) - asked
        if asked > 0 and value < 0:
            best, value = FOLD, 0.0
        me = state.spent[view.position]
        kept_on = _kept_on(self._replies(view), state.round)
        for bucket, to in self._totals(state):
            f = self.fold_estimate((state.round, spot_raises(state), bucket, kept_on))
            r = to - me - asked
            called = _against(e, 1 - self.threshold(state.round, False))
            u = f * pot + (1 - f) * (called * (pot + asked + 2 * r) - (asked + r))
            if u > value:
                best, value = Action(ActionKind.RAISE, to), u
        return best

    def policy(self, view: View) -> Policy:
        return {"fcr"[self.act(view).kind]: 1.0}


__all__ = ["AdaptiveProbe", "SIZES", "spot_raises"]
