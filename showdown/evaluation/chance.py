"""Variance reduction for strategies nobody knows: correcting only for the luck of the cards.

AIVAT (Burch, Schmid, Moravcik, Morrill and Bowling 2018, "AIVAT: a new variance reduction technique
for agent evaluation in imperfect information games") subtracts from a hand's result, at every
chance event, ``V(after) - E[V(after)]`` for a value function ``V``; whatever ``V`` is, every term has
mean zero given what happened before, so the estimate stays unbiased. With no strategy known only
the chance terms are left, and ``V`` must be a heuristic: here the all-in value of the pot, position
0's equity ``eq`` times the pot at that moment (the ACPC tools' "all-in expected value" idea). The
log holds every player's cards, so the equity is of the two real hands.

* The deal: ``(eq - 1/2) * pot``. For any equity function with ``eq(a, b) + eq(b, a) = 1`` the mean
  over deals is exactly 1/2 (the two hands are exchangeable), so the 169-class preflop table of
  hold'em (``solvers.equity``) serves here without bias; smaller games use the exact equity.
* Each board round reached: ``(eq after its cards - eq before them) * pot``, where "before" is the
  exact mean of "after" over the round's possible cards (so the term has mean zero). A round is
  corrected only when that mean takes at most ``MAX_RUNOUTS`` board completions to compute; in
  hold'em that leaves out the flop (its "before" is the exact preflop equity of two specific hands,
  1.7 million boards) and corrects the turn and the river.
* With ``sample_boards`` (what matches use), a round whose "before" is too costly to enumerate (the
  flop) is corrected too, with "before" estimated from ``SAMPLED_BOARDS`` complete boards drawn at
  random given the two hands and the cards already out, independently of the cards the round deals:
  the estimate's mean is the exact "before", so the term still has mean zero (the estimate's own
  noise, at most ``0.5 / sqrt(SAMPLED_BOARDS)`` of the pot, is what replaces the round's luck). For
  an all-in before the flop this is the "all-in adjusted" result: the called all-in is scored by
  its expected value over the boards, whatever board came.

Two players only; position 1's correction is minus position 0's. ``supports(game)`` says why not.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from showdown.games.cards import make_deck
from showdown.games.gamedef import GameDef
from showdown.games.state import State, parse_betting

MAX_RUNOUTS = 5000
"""Largest number of board completions enumerated for one exact equity."""
SAMPLED_BOARDS = 10_000
"""Complete boards drawn for an equity too costly to enumerate (``sample_boards``)."""


def supports(game: GameDef) -> str | None:
    """None when chance corrections apply to ``game``, else why not (one line)."""
    if game.num_players != 2:
        return f"chance corrections handle 2-player games ({game.name or 'this game'} has {game.num_players})"
    return None


class ChanceCorrector:
    """Per hand, what each position's result owes to the cards (to be subtracted)."""

    def __init__(self, game: GameDef, *, sample_boards: bool = False, boards: int | None = None,
                 known: Mapping[str, float] | None = None, record: bool = False) -> None:  # fmt: skip
        """``known``: position 0's corrections already worked out, by ``correction_key`` (a duplicate
        half's process works out its own log's while the other half still plays), taken as they are;
        ``record``: keep every correction worked out here in ``recorded``, by the same key."""
        why = supports(game)
        if why is not None:
            raise ValueError(why)
        self.game = game
        self.deck = make_deck(game.num_ranks, game.num_suits)
        self.sample_boards = sample_boards
        self.boards = SAMPLED_BOARDS if boards is None else boards
        """Boards drawn for a sampled "before" (``sample_boards``; default ``SAMPLED_BOARDS``)."""
        self._holdem_classes = game.num_hole_cards == 2 and len(self.deck) == 52 and sum(game.num_board_cards) == 5
        self.known: Mapping[str, float] = known or {}
        self.recorded: dict[str, float] | None = {} if record else None
        self._keyed = bool(self.known) or record

    @property
    def settings(self) -> dict[str, object]:
        """What the corrections depend on besides the hand: ``known`` ones must have been made alike."""
        return {"game": self.game.name, "sample_boards": self.sample_boards, "boards": self.boards if self.sample_boards else 0}

    def take_known(self, doc: Mapping[str, Any]) -> bool:
        """The corrections another process worked out (``log_reading.log_corrections``' document),
        taken when made with these settings: whether they were."""
        if doc.get("settings") != self.settings:
            return False
        self.known = doc.get("corrections") or {}
        self._keyed = self._keyed or bool(self.known)
        return True

    def corrections(self, hole: Sequence[Sequence[int]], board: Sequence[Sequence[int]], betting: str) -> tuple[float, float]:
        """Position 0's and position 1's correction for one hand (``board`` one group per round dealt)."""
        if not self._keyed:
            return self._corrections(hole, board, betting)
        key = correction_key(hole, board, betting)
        known = self.known.get(key)
        if known is not None:
            return known, -known
        got = self._corrections(hole, board, betting)
        if self.recorded is not None:
            self.recorded[key] = got[0]
        return got

    def _corrections(self, hole: Sequence[Sequence[int]], board: Sequence[Sequence[int]], betting: str) -> tuple[float, float]:
        g = self.game
        h0, h1 = tuple(hole[0]), tuple(hole[1])
        if len(h0) != g.num_hole_cards or len(h1) != g.num_hole_cards:
            return 0.0, 0.0  # cards not in the log: nothing to correct
        pots = _pots(g, betting, len(board))
        total = 0.0
        deal = self._deal_equity(h0, h1)
        if deal is not None:
            total += (deal - 0.5) * pots[0]
        dealt: tuple[int, ...] = ()
        for r, group in enumerate(board):
            cards = tuple(int(c) for c in group)
            if not cards:
                continue
            before = self._equity(h0, h1, dealt)  # the exact mean of "after": None when too costly
            after = self._equity(h0, h1, dealt + cards)
            if before is None and after is not None and self.sample_boards:
                before = self._sampled_equity(h0, h1, dealt)  # an unbiased estimate of it, drawn without the round's cards
            if before is not None and after is not None:
                total += (after - before) * pots[min(r, len(pots) - 1)]
            dealt += cards
        return total, -total

    def showdown_equity(self, h0: Sequence[int], h1: Sequence[int], board: Sequence[int]) -> float | None:
        """``h0``'s share of the pot at a showdown against ``h1`` over every completion of ``board``
        (before any board card in hold'em: the 169-class table), or None when too costly."""
        a, b = tuple(int(c) for c in h0), tuple(int(c) for c in h1)
        return self._equity(a, b, tuple(int(c) for c in board)) if board else self._deal_equity(a, b)

    def _deal_equity(self, h0: tuple[int, ...], h1: tuple[int, ...]) -> float | None:
        exact = self._equity(h0, h1, ())
        if exact is not None:
            return exact
        if self._holdem_classes:
            return _class_equity(h0, h1)
        return None

    def _sampled_equity(self, h0: tuple[int, ...], h1: tuple[int, ...], board: tuple[int, ...]) -> float:
        """Position 0's share of the pot over ``SAMPLED_BOARDS`` random completions of ``board``; the
        boards depend only on the cards given (the same for both seatings of a deal)."""
        a, b, out = tuple(sorted(h0)), tuple(sorted(h1)), tuple(sorted(board))
        g = self.game
        if a <= b:
            return sampled_equity(g.num_ranks, g.num_suits, sum(g.num_board_cards), a, b, out, seed=_seed_of(a, b, out),
                                  boards=self.boards)
        return 1.0 - sampled_equity(g.num_ranks, g.num_suits, sum(g.num_board_cards), b, a, out, seed=_seed_of(b, a, out),
                                    boards=self.boards)

    def _equity(self, h0: tuple[int, ...], h1: tuple[int, ...], board: tuple[int, ...]) -> float | None:
        """Position 0's exact share of the pot at a showdown, over every completion of ``board``."""
        return _exact_equity(self.game.num_ranks, self.game.num_suits, sum(self.game.num_board_cards),
                             tuple(sorted(h0)), tuple(sorted(h1)), tuple(sorted(board)))


def correction_key(hole: Sequence[Sequence[int]], board: Sequence[Sequence[int]], betting: str) -> str:
    """A 64-bit digest of all a hand's correction depends on: the cards, by position and round, and the betting."""
    text = ";".join(",".join(str(int(c)) for c in h) for h in hole) + "|" + ";".join(
        ",".join(str(int(c)) for c in g) for g in board) + "|" + betting
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _pots(game: GameDef, betting: str, rounds_dealt: int) -> list[float]:
    """The pot when each round's board cards were dealt (round 0: the blinds and antes); after an
    all-in the betting stops early and the pot stays what it was. The betting is replayed once, its
    rounds checked as ``State.apply_betting`` checks them; a betting string the rules refuse gives no
    pot (zeros: no correction)."""
    rounds = max(rounds_dealt, 1)
    parts = betting.split("/") if betting else [""]
    replayed = min(rounds - 1, len(parts))  # rounds of betting before the last round dealt
    state = State.initial(game)
    pots = [float(sum(state.spent))]
    try:
        for r, actions in enumerate(parse_betting("/".join(parts[:replayed])) if replayed else ()):
            if r > 0 and state.round < r and not state.finished:
                return [0.0] * rounds  # a round starts before the last one ended
            for action in actions:
                if state.round != r:
                    return [0.0] * rounds
                state = state.apply(action)
            pots.append(float(sum(state.spent)))
    except Exception:  # noqa: BLE001 - a betting string the rules refuse: no pot, no correction
        return [0.0] * rounds
    return pots + [pots[-1]] * (rounds - len(pots))


@lru_cache(maxsize=65536)
def _exact_equity(ranks: int, suits: int, board_size: int, h0: tuple[int, ...], h1: tuple[int, ...], board: tuple[int, ...]) -> float | None:

    deck = make_deck(ranks, suits)
    used = set(h0) | set(h1) | set(board)
    rest = [c for c in deck if c not in used]
    need = board_size - len(board)
    if need < 0:
        return None
    count = math.comb(len(rest), need)
    if count > MAX_RUNOUTS or count == 0:
        return None
    if _compiled_fits(ranks * suits, h0, h1, board_size):
        from showdown.solvers.hand_kernels import pair_share

        return pair_share(h0, h1, board, np.array(rest, dtype=np.int64), _combinations(len(rest), need))
    runs = np.array(list(itertools.combinations(rest, need)), dtype=np.int64).reshape(count, need)
    fixed = np.broadcast_to(np.array(board, dtype=np.int64), (count, len(board)))
    boards = np.concatenate([fixed, runs], axis=1)
    if boards.shape[1] == 0 and len(h0) == 0:
        return 0.5
    return _share(h0, h1, boards, len(deck))


def _share(h0: tuple[int, ...], h1: tuple[int, ...], boards: np.ndarray, deck_size: int) -> float:
    """``h0``'s share of the pot against ``h1`` over complete ``boards`` (one row each): wins and
    half the ties, averaged, in numpy (once the compiled sums are loaded, ``hand_kernels.pair_share``
    does this work for hold'em-sized hands in a 52-card deck, the same numbers)."""
    from showdown.games.evaluate import hand_values

    count = len(boards)
    kernel_fits = _kernel_fits(deck_size, h0, h1, boards.shape[1])
    started = time.perf_counter()
    a = hand_values(np.concatenate([np.broadcast_to(np.array(h0, dtype=np.int64), (count, len(h0))), boards], axis=1))
    b = hand_values(np.concatenate([np.broadcast_to(np.array(h1, dtype=np.int64), (count, len(h1))), boards], axis=1))
    if kernel_fits:  # a long match's corrections pay the kernels' loading (``solvers.kernel_loader``)
        from showdown.solvers import kernel_loader

        kernel_loader.spent(time.perf_counter() - started)
    return float(((a > b).sum() + 0.5 * (a == b).sum()) / count)


def _seed_of(h0: tuple[int, ...], h1: tuple[int, ...], board: tuple[int, ...]) -> int:
    """A seed from the cards already out (never from the cards still to come)."""
    seed = 0x5EED
    for c in (*h0, -1, *h1, -1, *board):
        seed = (seed * 1_000_003 + c + 2) % (1 << 63)
    return seed


@lru_cache(maxsize=8192)
def sampled_equity(ranks: int, suits: int, board_size: int, h0: tuple[int, ...], h1: tuple[int, ...], board: tuple[int, ...],
                   *, seed: int, boards: int = SAMPLED_BOARDS) -> float:
    """``h0``'s share of the pot against ``h1`` over ``boards`` completions of ``board`` drawn
    uniformly (with ``seed``): an unbiased estimate of the exact equity."""
    used = set(h0) | set(h1) | set(board)
    rest = np.array([c for c in make_deck(ranks, suits) if c not in used], dtype=np.int64)
    need = board_size - len(board)
    if need <= 0:
        exact = _exact_equity(ranks, suits, board_size, h0, h1, board)  # (a lost showdown is 0.0, not "none")
        return 0.5 if exact is None else exact
    shuffled = np.random.default_rng(seed).permutation(rest)
    if _compiled_fits(ranks * suits, h0, h1, board_size):
        from showdown.solvers.hand_kernels import pair_share

        return pair_share(h0, h1, board, shuffled, _subsets(boards, len(rest), need))
    runs = shuffled[_subsets(boards, len(rest), need)]
    full = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (boards, len(board))), runs], axis=1)
    return _share(h0, h1, full, ranks * suits)


def _kernel_fits(deck_size: int, h0: tuple[int, ...], h1: tuple[int, ...], board_size: int) -> bool:
    """Whether the compiled sums rank these hands (hold'em-sized, a 52-card deck)."""
    return deck_size == 52 and len(h0) == len(h1) and 5 <= len(h0) + board_size <= 7


def _compiled_fits(deck_size: int, h0: tuple[int, ...], h1: tuple[int, ...], board_size: int) -> bool:
    """Whether the compiled sums are loaded and rank these hands."""
    from showdown.games.evaluate import compiled_preferred

    return _kernel_fits(deck_size, h0, h1, board_size) and compiled_preferred()


@lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> np.ndarray:
    """Every set of ``k`` of ``n`` indices, one per row, in ``itertools.combinations`` order."""
    if k == 0:  # the board is complete: one empty row
        return np.zeros((1, 0), dtype=np.int64)
    out = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _subsets(rows: int, n: int, k: int) -> np.ndarray:
    """``rows`` sets of ``k`` distinct indices below ``n``, drawn once (fixed seed). Applied to a
    uniformly shuffled list of the cards left, each row is a uniform draw of ``k`` of them, so a
    mean over the rows is unbiased; the shuffle (seeded per hand) is what is random per hand."""
    rng = np.random.default_rng(20_451)
    out = rng.integers(0, n, size=(rows, k))
    while True:  # rows with a repeated index drawn again: rejection keeps each row uniform
        ordered = np.sort(out, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if bad.size == 0:
            out.setflags(write=False)
            return out
        out[bad] = rng.integers(0, n, size=(bad.size, k))


@lru_cache(maxsize=1)
def _class_table() -> np.ndarray:
    from showdown.solvers.equity import equity_table

    out: np.ndarray = 0.5 + 0.5 * equity_table(build=False).net_equity()
    return out


def _class_equity(h0: tuple[int, ...], h1: tuple[int, ...]) -> float:
    from showdown.solvers.hand_classes import class_of

    return float(_class_table()[class_of(*h0), class_of(*h1)])


__all__ = ["ChanceCorrector", "MAX_RUNOUTS", "correction_key", "SAMPLED_BOARDS", "sampled_equity", "supports"]
