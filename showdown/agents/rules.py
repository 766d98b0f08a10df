"""The rule-based agent: deterministic hand-strength thresholds, no randomness, no memory.

Every decision puts the hand in one of three classes and acts on the class:

* **strong**: bet/raise when a raise is legal (no-limit: a pot-size raise), otherwise call;
* **medium**: check or call (no-limit: calls bets up to pot size, i.e. when the call costs at most
  half the pot including the bet; folds to bigger over-bets);
* **weak**: check when free, fold to a bet.

Classes:

* Kuhn-like games (one round, one hole card, no board): the highest card of the deck is strong
  (A in Kuhn: bet, or call a bet), the second highest medium (K: check, call a bet), any lower card
  weak (Q, J: check, fold to a bet).
* Before any board card, one hole card (Leduc): highest rank strong, second highest medium, else weak.
* Before any board card, two or more hole cards (hold'em): a pair of tens or better, A-K or A-Q
  strong; any other pair, any ace, or two cards ten or higher medium; else weak.
* With board cards, from ``hand_value`` of hole + board and its ``hand_category``, compared with the
  category of the board alone (a hand only counts what the hole cards add to it):
  fewer than 5 cards (Leduc): a better category than the board's (a pair) is strong; a high card
  above every board card medium; else weak. Five or more cards (hold'em): two pair or better that
  beats the board's category strong; one pair that beats it medium; else weak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from showdown.agents.base import Agent, Policy, PolicyAgent, View
from showdown.games.cards import NUM_SUITS, Card, deck_ranks, rank_of
from showdown.games.gamedef import GameDef
from showdown.games.hand_value import CATEGORY_SHIFT, HandCategory, hand_category, hand_value
from showdown.games.state import CALL, FOLD, Action

if TYPE_CHECKING:
    import numpy as np

WEAK, MEDIUM, STRONG = 0, 1, 2
_TEN, _QUEEN, _ACE = 8, 10, 12


def strength_class(view: View) -> int:
    """WEAK, MEDIUM or STRONG for our cards in this view (see the module docstring)."""
    game = view.game
    hole = view.hole
    ranks = sorted((rank_of(c) for c in hole), reverse=True)
    top = deck_ranks(game.num_ranks)[-1]
    if not view.board:
        if len(hole) == 1:
            return STRONG if ranks[0] == top else MEDIUM if ranks[0] == top - 1 else WEAK
        hi, lo = ranks[0], ranks[1]
        if hi == lo:
            return STRONG if hi >= _TEN else MEDIUM
        if hi == _ACE and lo >= _QUEEN:
            return STRONG
        return MEDIUM if hi == _ACE or lo >= _TEN else WEAK
    board = view.board
    cat = hand_category(hand_value(hole + board))
    board_cat = hand_category(hand_value(board))
    if len(hole) + len(board) < 5:
        if cat > board_cat:
            return STRONG
        return MEDIUM if ranks[0] > max(rank_of(c) for c in board) else WEAK
    if cat > board_cat:
        if cat >= HandCategory.TWO_PAIR:
            return STRONG
        if cat >= HandCategory.PAIR:
            return MEDIUM
    return WEAK


def strength_classes(game: GameDef, holes: np.ndarray, board: tuple[Card, ...]) -> np.ndarray:
    """``strength_class`` of every row of ``holes`` (an (n, h) array of hole cards) with ``board``, at
    once (``games.evaluate``'s vectorised hand values): what local best response asks for a whole range.
    Rows that share a card with the board are WEAK (impossible holdings: callers weigh them 0)."""
    import numpy as np  # (here: the agent itself plays without numpy)

    from showdown.games.evaluate import hand_values

    holes = np.asarray(holes, dtype=np.int64).reshape(len(holes), -1)
    ranks = -np.sort(-(holes // NUM_SUITS), axis=1)  # each row's ranks, highest first (``rank_of``)
    top = deck_ranks(game.num_ranks)[-1]
    out = np.full(len(holes), WEAK, dtype=np.int64)
    if not board:
        hi = ranks[:, 0]
        if holes.shape[1] == 1:
            out[hi == top - 1] = MEDIUM
            out[hi == top] = STRONG
            return out
        lo = ranks[:, 1]
        pair = hi == lo
        out[~pair & ((hi == _ACE) | (lo >= _TEN))] = MEDIUM
        out[pair] = np.where(hi[pair] >= _TEN, STRONG, MEDIUM)
        out[~pair & (hi == _ACE) & (lo >= _QUEEN)] = STRONG
        return out
    clear = ~np.isin(holes, np.array(board, dtype=np.int64)).any(axis=1)  # rows sharing a board card: WEAK
    holes, ranks, out = holes[clear], ranks[clear], out[clear]
    cards = np.concatenate([holes, np.broadcast_to(np.array(board, dtype=np.int64), (len(holes), len(board)))], axis=1)
    cat = hand_values(cards) >> CATEGORY_SHIFT
    board_cat = int(hand_category(hand_value(board)))
    if holes.shape[1] + len(board) < 5:
        out[ranks[:, 0] > max(rank_of(c) for c in board)] = MEDIUM
        out[cat > board_cat] = STRONG
    else:
        better = cat > board_cat
        out[better & (cat >= HandCategory.PAIR)] = MEDIUM
        out[better & (cat >= HandCategory.TWO_PAIR)] = STRONG
    every = np.full(clear.shape[0], WEAK, dtype=np.int64)
    every[clear] = out
    return every


class RulesAgent(PolicyAgent):
    """Deterministic thresholds on hand strength; see the module docstring for the exact rules."""

    name = "rules"
    raise_sizes_blind = True

    def policy(self, view: View) -> Policy:
        """The one action ``act`` takes, with probability 1 (no-limit over-bets folded included)."""
        return {"fcr"[self.act(view).kind]: 1.0}

    def range_policy(self, view: View, hands: np.ndarray) -> dict[str, np.ndarray]:
        """``policy`` for every holding in ``hands`` (an (n, h) array) at once, the view's own cards aside:
        each class's one action, as ``act`` plays it (its size never depends on the cards)."""
        classes = strength_classes(view.game, hands, tuple(view.board))
        out: dict[str, np.ndarray] = {}
        for cls in (WEAK, MEDIUM, STRONG):
            letter = "fcr"[self.class_action(view, cls).kind]
            chosen = (classes == cls).astype(float)
            out[letter] = out[letter] + chosen if letter in out else chosen
        return out

    def act(self, view: View) -> Action:
        return self.class_action(view, strength_class(view))

    @staticmethod
    def class_action(view: View, cls: int) -> Action:
        """What a hand of class ``cls`` plays here."""
        if cls == STRONG:
            return view.pot_raise(1.0) if view.game.is_nolimit else view.raise_to()
        if cls == MEDIUM:
            if view.game.is_nolimit and view.can_fold() and 2 * view.to_call() > view.pot():
                return FOLD
            return CALL
        return FOLD if view.can_fold() else CALL


def make_rules(game: GameDef, options: dict[str, Any]) -> Agent:
    from showdown.agents.registry import take_options

    take_options("rules", options)
    return RulesAgent(game)
