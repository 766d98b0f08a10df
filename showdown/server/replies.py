"""What the action text of a seat's reply becomes: the reference dealer's repairs, and their wording.

An illegal action (or an unknown letter) becomes a call, a missing or malformed one too, and a
no-limit raise is clamped into the legal range (``State.repair``); each repair is reported with the
reference's own words. In limit games a betting node remembers what each reply text it met became,
so a repeated reply costs one dict lookup.
"""

from __future__ import annotations

from typing import cast

from showdown.errors import ProtocolError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action
from showdown.protocol.events import EventKind
from showdown.protocol.matchstate import quoted, read_action
from showdown.server.betting_tree import MAX_REPLIES_PER_NODE, Betting, BettingNode

__all__ = ["BAD_ACTION", "BAD_STATE", "INVALID_ACTION", "MORE_CARDS", "UNREQUESTED", "Outcome", "ReplyRepairs", "no_colon",
           "unknown_action"]

BAD_STATE = "bad state format in response"
UNREQUESTED = "ignoring un-requested response"
BAD_ACTION = "bad action format in response, changed to call"
INVALID_ACTION = "invalid action, changed to call"

ACTION_LETTERS = frozenset("fcrFCRkKbB")

MORE_CARDS = frozenset("23456789TJQKAcdhs|/")
"""What may follow the state sent in a reply that still reads as a state (a bot that adds cards it
guessed): anything else after it, where ':' should be, makes the reply a bad action, played as call."""


def no_colon(line: str, rest: str) -> str:
    """The detail of a bad action whose line is the state sent, then ``rest`` with no ':' first."""
    after = f"{rest[:1]!r} came where ':' and the action go" if rest else "no ':' and action came"
    end = " (the state's line end, echoed: strip '\\r\\n' from the state first)" if rest[:1] == "\r" else ""
    return f"it sent {quoted(line)}: the state it was sent, then {after}{end}"


def unknown_action(text: str) -> str:
    """The warning's detail when a reply's action starts with no action letter ('' when it does): the
    reference's 'invalid action' alone does not say that a space or a tab before the letter is why."""
    if text[:1] in ACTION_LETTERS and text:
        return ""
    sent = f"it sent {text[:40]!r} after the state's ':'" if text else "it sent nothing after the state's ':'"
    return f"{sent}; an action is the letter f, c or r (rSIZE in no-limit) right after it, with no space before"


Outcome = tuple[Action, EventKind, str | None]
"""The action played, the kind it counts as if repaired, and the warning (None: played as sent)."""


class ReplyRepairs:
    """What a reply's action text becomes at a point of the hand: ``outcome`` at a limit tree's node
    (memoised there), ``repair`` anywhere (no-limit hands, played in place)."""

    __slots__ = ("game", "_quick")

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self._quick = {"f": FOLD, "c": CALL}
        if game.is_limit:
            self._quick["r"] = RAISE

    def outcome(self, betting: Betting, text: str) -> Outcome:
        """At a limit game's ``BettingNode``, which remembers what each reply text became."""
        replies = cast(BettingNode, betting).replies
        outcome = replies.get(text)
        if outcome is None:
            outcome = self.repair(betting, text)
            if len(replies) < MAX_REPLIES_PER_NODE and len(text) <= 16:
                replies[text] = outcome
        return outcome

    def repair(self, betting: Betting, text: str) -> Outcome:
        """The reference's repairs of ``text`` at ``betting``, worked out afresh."""
        quick = self._quick.get(text)
        if quick is CALL:  # always legal
            return CALL, EventKind.INVALID, None
        if quick is not None:  # a plain f (or r in limit): no parsing needed
            played, warning = betting.repair(quick)
            return played, EventKind.INVALID, warning
        try:
            action = read_action(text, self.game)
        except ProtocolError:
            return CALL, EventKind.BAD_ACTION, BAD_ACTION
        if action is None:
            return CALL, EventKind.INVALID, INVALID_ACTION
        played, warning = betting.repair(action)
        return played, EventKind.INVALID if played.kind is not action.kind else EventKind.RESIZED, warning
