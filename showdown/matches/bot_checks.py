"""What ``showdown check-bot`` checks, without I/O: the scripted situations, the scripted opponent
that reaches each of them, and the judge of every line a bot sends.

Each ``Check`` is a short match against a scripted opponent (``Opponent``): it plays passively until
the round the check is about, then does the one thing the check names (folds, shoves, raises to the
cap, raises the minimum plus one chip...). The bot plays itself, so a check may end before its
situation comes (a bot that folds preflop never sees a river fold): ``reached`` says whether it
came. Deals are the reference dealing for the check's seed, so a run is the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import StrEnum

from showdown.errors import ProtocolError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind, State
from showdown.protocol.matchstate import format_matchstate, is_comment, parse_reply, read_action, view_of

__all__ = [
    "Check", "Opponent", "Problem", "Transport", "checks_for", "describe_legal", "judge_reply", "round_name",
]  # fmt: skip


class Transport(StrEnum):
    """How the dealer's lines reach the bot."""

    LINES = "lines"  # one write per line
    SPLIT = "split"  # every line cut in pieces written a few milliseconds apart
    BATCHED = "batched"  # every line until the bot's turn in one write


Opponent = Callable[[State, random.Random], Action]
"""The scripted opponent: its action in ``state`` (its turn), from a seeded ``Random``."""


@dataclass(frozen=True)
class Check:
    """One scripted situation: ``hands`` hands against ``opponent``; ``reached(state, bot_position)``
    says of a finished hand whether it was the situation named."""

    name: str
    what: str
    opponent: Opponent
    reached: Callable[[State, int], bool]
    hands: int = 6
    transport: Transport = Transport.LINES


@dataclass(frozen=True)
class Problem:
    """One wrong line: what the bot sent, what was legal there, and why it is wrong."""

    kind: str
    hand: int
    sent: str
    legal: str
    hint: str


def round_name(game: GameDef, r: int) -> str:
    """A check's id for round ``r``: hold'em's street names, else ``round1``, ``round2``..."""
    if game.num_rounds == 4:
        return ("preflop", "flop", "turn", "river")[r]
    return f"round{r + 1}"


def _on_round(name: str) -> str:
    """The words for a round in a check's description: 'on the flop', 'in round 1' (not 'on the round1')."""
    return f"in round {name[5:]}" if name.startswith("round") else f"on the {name}"


# --------------------------------------------------------------------------- the scripted opponent


def _min_raise(state: State, extra: int = 0) -> Action | None:
    bounds = state.raise_bounds()
    if bounds is None:
        return None
    if state.game.is_limit:
        return Action(ActionKind.RAISE)
    size = bounds[0] + extra
    return Action(ActionKind.RAISE, size) if size <= bounds[1] else None


def passive(state: State, rng: random.Random) -> Action:
    return CALL


def random_legal(state: State, rng: random.Random) -> Action:
    """Bet or check when unbet, call or fold facing a bet (it never re-raises: the raise wars are the
    scripted checks'); no-limit bets of a whole number of big blinds from the minimum to all-in."""
    bounds = state.raise_bounds()
    if state.can_fold():
        return FOLD if rng.random() < 0.3 else CALL
    if bounds is None or rng.random() < 0.5:
        return CALL
    if state.game.is_limit:
        return Action(ActionKind.RAISE)
    bb = max(1, state.game.big_blind)
    lo, hi = bounds
    steps = (hi - lo) // bb
    return Action(ActionKind.RAISE, hi if rng.random() < 0.1 else lo + bb * rng.randint(0, min(steps, 10)))


def from_round(r: int, then: Opponent) -> Opponent:
    """Check and call before round ``r``, then play ``then``."""

    def play(state: State, rng: random.Random) -> Action:
        return then(state, rng) if state.round >= r else CALL

    return play


def fold_to_a_bet(state: State, rng: random.Random) -> Action:
    """Fold facing a bet, else bet the minimum (so that someone folds this round)."""
    if state.can_fold():
        return FOLD
    return _min_raise(state) or CALL


def shove(state: State, rng: random.Random) -> Action:
    bounds = state.raise_bounds()
    return Action(ActionKind.RAISE, bounds[1]) if bounds is not None else CALL


def raise_min(extra: int) -> Opponent:
    def play(state: State, rng: random.Random) -> Action:
        return _min_raise(state, extra) or CALL

    return play


def raise_short_of_stack(state: State, rng: random.Random) -> Action:
    """Raise to half a big blind below the whole stack: the bot's only raise is then all-in, short
    of a full raise."""
    bounds = state.raise_bounds()
    if bounds is None:
        return CALL
    return Action(ActionKind.RAISE, max(bounds[0], bounds[1] - max(1, state.game.big_blind // 2)))


# --------------------------------------------------------------------------- what each hand reached


def _ended_by_fold_in(r: int) -> Callable[[State, int], bool]:
    return lambda s, bot: s.num_active() == 1 and s.round == r


def _showdown(s: State, bot: int) -> bool:
    return s.is_showdown


def _all_in_in(r: int) -> Callable[[State, int], bool]:
    def reached(s: State, bot: int) -> bool:
        stack = s.game.stack
        all_in = any(s.spent[p] == stack[p] for p in range(s.game.num_players))
        return all_in and r < len(s.history) and any(a.is_raise for _, a in s.history[r])

    return reached


def _side_pot(s: State, bot: int) -> bool:
    """Players still in put different amounts, one of them all-in for less: a side pot."""
    left = [p for p in range(s.game.num_players) if not s.folded[p]]
    return len({s.spent[p] for p in left}) > 1 and any(s.spent[p] == s.game.stack[p] for p in left)


def _capped(s: State, bot: int) -> bool:
    return any(sum(a.is_raise for _, a in actions) >= s.game.max_raises[r] for r, actions in enumerate(s.history))


def _bot_faced_raise(s: State, bot: int) -> bool:
    history = [pa for actions in s.history for pa in actions]
    return any(a.is_raise and p != bot for (p, a), _ in zip(history, history[1:]))


def _always(s: State, bot: int) -> bool:
    return True


def checks_for(game: GameDef, many_hands: int = 1000) -> list[Check]:
    """The checks that apply to ``game`` (limit or no-limit, its rounds), in the order they run."""
    out: list[Check] = []
    for r in range(game.num_rounds):
        name = round_name(game, r)
        out.append(Check(f"fold-{name}", f"a hand ends in a fold {_on_round(name)}", from_round(r, fold_to_a_bet), _ended_by_fold_in(r)))
    out.append(Check("check-down", "checks and calls through to the showdown", passive, _showdown, hands=4))
    if game.is_nolimit:
        for r in range(game.num_rounds):
            name = round_name(game, r)
            out.append(Check(f"all-in-{name}", f"the opponent goes all-in {_on_round(name)}", from_round(r, shove), _all_in_in(r), hands=4))
        out.append(Check("min-raise", "the opponent raises the minimum at every turn (the longest betting strings)",
                         raise_min(0), _bot_faced_raise))
        out.append(Check("min-raise-plus-1", "the opponent raises 1 chip over the minimum", raise_min(1), _bot_faced_raise))
        if game.num_players > 2 and len(set(game.stack)) > 1:
            out.append(Check("side-pots", "the opponents go all-in with stacks of different sizes: side pots", shove, _side_pot,
                             hands=2 * game.num_players))
        out.append(Check("short-all-in", "the opponent raises to just below its stack: the bot's only raise is an "
                         "all-in smaller than a full raise", raise_short_of_stack, _bot_faced_raise, hands=4))
    else:
        out.append(Check("raise-cap", "the opponent raises at every turn, to the cap (the longest betting strings)",
                         raise_min(0), _capped))
    out.append(Check("both-positions", "the bot plays every position, blinds reversed each hand", random_legal, _always,
                     hands=2 * game.num_players))
    out.append(Check("split-packets", "each line arrives in pieces, milliseconds apart", random_legal, _always,
                     hands=6, transport=Transport.SPLIT))
    out.append(Check("states-in-one-packet", "every line up to the bot's turn arrives in one packet", random_legal, _always,
                     hands=10, transport=Transport.BATCHED))
    out.append(Check("many-hands", f"{many_hands} hands in a row against a random opponent, then the match ends",
                     random_legal, _always, hands=many_hands, transport=Transport.BATCHED))
    return out


# --------------------------------------------------------------------------- judging the bot's lines


def describe_legal(state: State) -> str:
    """The legal replies at ``state``, as a bot would write them."""
    words = []
    if state.can_fold():
        words.append("f")
    words.append("c")
    bounds = state.raise_bounds()
    if bounds is not None:
        words.append("r" if state.game.is_limit else f"r{bounds[0]}" + (f"..r{bounds[1]}" if bounds[1] != bounds[0] else ""))
    return ", ".join(words)


@dataclass
class Judged:
    """What one line from the bot was: its action (None: not a reply to the current state)."""

    action: Action | None = None
    problems: list[Problem] = field(default_factory=list)


def judge_reply(line: str, state: State, position: int, hand: int, others: set[str], answered: Collection[str] = ()) -> Judged:
    """Judge ``line`` read while the bot is to act at ``state``. ``others`` are the states sent that
    were not its turn (a reply to one is an answer out of turn), ``answered`` those it answered (a
    reply to one again is a second reply, ignored as the dealer ignores it). A line that is not the reply to
    the current state returns no action (keep reading); a wrong reply to it returns the action the
    dealer plays instead (its repair, as the reference dealer does)."""
    game = state.game
    current = format_matchstate(view_of(state, position, hand))
    legal = describe_legal(state)
    if not line.strip() or is_comment(line):
        return Judged()
    try:
        reply = parse_reply(line, game)
    except ProtocolError:
        return Judged(CALL, [Problem("unreadable", hand, line, legal, "a reply is the state line exactly as sent, ':' and "
                                     "an action (f, c, or r / r<total>), ending in a newline")])
    echo = format_matchstate(reply.state)
    if echo != current:
        if echo in answered:  # (a bot that sends each reply twice: was a wrong echo of the state after it, played as c)
            return Judged(None, [Problem("repeated", hand, line, "no reply (the bot had answered that state already)",
                                         "send one reply per state of your turn")])
        if echo in others:
            return Judged(None, [Problem("out-of-turn", hand, line, "no reply (it was not the bot's turn)",
                                         "answer only states where it is your turn: not the opponent's turns and "
                                         "not the final state of a hand")])
        return Judged(CALL, [Problem("wrong-echo", hand, line, f"{current}:<action>", "echo the state exactly as "
                                     "received (position, hand number, betting and cards), then ':' and the action")])
    try:
        action = read_action(reply.action_text or "", game)
    except ProtocolError:
        action = None
    if action is None:
        return Judged(CALL, [Problem("bad-action", hand, line, legal, "the action is f, c or r (r<total> in no-limit: the "
                                     "total chips in the pot from you after the raise)")])
    why = state.why_illegal(action)
    if why is not None:
        repaired, _ = state.repair(action)
        return Judged(repaired, [Problem("illegal", hand, line, legal, f"illegal: {why}")])
    return Judged(action)
