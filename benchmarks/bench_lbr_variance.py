"""How much of LBR's variance each correction takes out, and where the rest is.

Run: ``PYTHONPATH=. python3 benchmarks/bench_lbr_variance.py --game holdem-nolimit --agent cfr -o search=off
[--hands 1000] [--seed 7] [--actions fcpa]``.

One run of LBR (the default estimator, ``chance+range``: the agent's cards and draws integrated out
over its range, ``evaluation.lbr_belief``, where that range is exact), with the card-by-card action
terms computed at the same decisions (``evaluation.lbr_terms``: the raise valued by LBR's answer,
``chance+actions``, the estimator before; as a call, which is the fold term alone, ``chance+folds``;
and as the reference raise called), and the estimator before issue 25's variance work (folds only,
and the chance terms without the flop's): the estimators are compared on the same hands. Prints each
estimator's mean, per-hand standard deviation and 95% half-width in mbb/hand, then the share of the
variance held by each kind of hand (how it ended, all-in or not; what the agent did).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from typing import Any

import numpy as np

from showdown.cli.agent import parse_option
from showdown.evaluation.chance import ChanceCorrector
from showdown.evaluation.lbr import LocalBestResponse
from showdown.evaluation.lbr_belief import BELIEF_ESTIMATOR
from showdown.evaluation.lbr_runs import _reseed, agent_for, lbr_corrector
from showdown.evaluation.lbr_terms import ESTIMATOR, RAISE_ANSWERED, RAISE_AS_CALL, RAISE_CALLED, RAISE_VALUES, ActionTerms
from showdown.games.catalog import get_game
from showdown.games.state import Action, ActionKind, State


def play(game_name: str, agent_name: str, options: dict[str, Any], hands: int, seed: int, actions: str) -> list[dict[str, Any]]:
    game = get_game(game_name)
    agent = agent_for(game, agent_name, None, options)
    _reseed(agent, seed)
    lbr = LocalBestResponse(game, agent, actions="fc" if game.is_limit else actions)
    others = {m: ActionTerms(lbr, m) for m in RAISE_VALUES}
    own = lbr.agent_term
    got: dict[str, float] = {}
    moves: list[str] = []

    def term(public: State, me: int, mine: tuple[int, ...], theirs: tuple[int, ...], board: tuple[int, ...],
             weights: np.ndarray, rng: np.random.Generator, action: Action) -> float:
        for m, t in others.items():
            got[m] = got.get(m, 0.0) + t.term(public, me, mine, theirs, board, weights, rng, action)
        allin = action.kind is ActionKind.RAISE and public.apply(action).is_all_in(1 - me)
        moves.append("A" if allin else "fcr"[int(action.kind is ActionKind.CALL) + 2 * int(action.kind is ActionKind.RAISE)])
        return own(public, me, mine, theirs, board, weights, rng, action) if lbr.belief else got[RAISE_ANSWERED]

    lbr.agent_term = term  # type: ignore[method-assign]
    corrector = lbr_corrector(game)
    turn_river_only = ChanceCorrector(game)
    rollouts = np.random.default_rng([seed, 0, 1])
    rows = []
    for k in range(hands):
        got.clear()
        moves.clear()
        me = k % 2
        cards = [int(c) for c in np.random.default_rng([seed, k]).permutation(np.array(lbr.deck))]
        value, final = lbr.play(rollouts, me, cards, hand=k)
        luck = corrector.corrections(final.hole, final.board_by_round(), final.betting)[me]
        luck_before = turn_river_only.corrections(final.hole, final.board_by_round(), final.betting)[me]
        scale = 1000.0 / max(1, game.big_blind)
        rows.append({
            "plain": value * scale, "chance": (value - luck) * scale,
            "before": (value - luck_before - got.get(RAISE_AS_CALL, 0.0)) * scale,
            RAISE_AS_CALL: (value - luck - got.get(RAISE_AS_CALL, 0.0)) * scale,
            RAISE_CALLED: (value - luck - got.get(RAISE_CALLED, 0.0)) * scale,
            RAISE_ANSWERED: (value - luck - got.get(RAISE_ANSWERED, 0.0)) * scale,
            BELIEF_ESTIMATOR: (value - luck - lbr.action_correction + lbr.hidden_cards) * scale,
            "ended": _ended(final), "agent": _agent(moves), "belief": lbr.belief,
        })
    return rows


def _ended(final: State) -> str:
    street = ("preflop", "flop", "turn", "river")[min(final.round, 3)]
    allin = " all-in" if any(final.is_all_in(p) for p in (0, 1)) else ""
    return f"{'showdown' if final.is_showdown else 'fold'} {street}{allin}"


def _agent(moves: list[str]) -> str:
    did = "went all-in" if "A" in moves else "raised" if "r" in moves else "never raised"
    return f"agent {did}" + (", folded" if "f" in moves else "")


def _shares(rows: list[dict[str, Any]], estimator: str, by: str) -> None:
    values = np.array([r[estimator] for r in rows])
    mean, total = values.mean(), float(((values - values.mean()) ** 2).sum())
    groups: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        groups[r[by]].append(r[estimator])
    print(f"  {ESTIMATOR.get(estimator, estimator)}, by {'how the hand ended' if by == 'ended' else 'what the agent did'}:")
    for name, got in sorted(groups.items(), key=lambda kv: -float(((np.array(kv[1]) - mean) ** 2).sum())):
        ys = np.array(got)
        print(f"    {name:28s} {len(ys):6d} hands  {float(((ys - mean) ** 2).sum()) / total:6.1%} of the variance  sd {ys.std():8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit")
    parser.add_argument("--agent", default="cfr")
    parser.add_argument("-o", "--option", action="append", default=[], type=parse_option)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--actions", default="fcpa")
    args = parser.parse_args()
    rows = play(args.game, args.agent, dict(args.option), args.hands, args.seed, args.actions)
    print(f"LBR against {args.agent} {dict(args.option)} in {args.game}: {len(rows)} hands, seed {args.seed} (mbb/hand)")
    for key, name in (("plain", "plain"), ("before", "chance+folds, no flop"), ("chance", "chance only"),
                      (RAISE_AS_CALL, ESTIMATOR[RAISE_AS_CALL]),
                      (RAISE_CALLED, ESTIMATOR[RAISE_CALLED]), (RAISE_ANSWERED, ESTIMATOR[RAISE_ANSWERED]),
                      (BELIEF_ESTIMATOR, BELIEF_ESTIMATOR + (" (the default)" if rows[0]["belief"] else " (not sound here: not used)"))):
        v = np.array([r[key] for r in rows])
        sd = float(v.std(ddof=1))
        print(f"  {name:24s} mean {v.mean():+9.0f}  sd {sd:8.0f}  95% half-width {1.96 * sd / math.sqrt(len(v)):7.0f}")
    old, folds, new, belief = (float(np.var([r[k] for r in rows], ddof=1)) for k in ("before", RAISE_AS_CALL, RAISE_ANSWERED, BELIEF_ESTIMATOR))
    print(f"  variance ratio chance+folds / chance+actions: {folds / new:.3f}; "
          f"the previous estimator (no flop term, folds only) / chance+actions: {old / new:.3f}; "
          f"chance+actions / chance+range: {new / belief:.3f}")
    for by in ("ended", "agent"):
        for estimator in (RAISE_AS_CALL, RAISE_ANSWERED, BELIEF_ESTIMATOR):
            _shares(rows, estimator, by)


if __name__ == "__main__":
    main()
