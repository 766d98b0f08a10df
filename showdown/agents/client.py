"""Connect an ``Agent`` to any ACPC dealer: a sans-io session plus blocking and asyncio drivers.

The protocol (PROTOCOL.md section 3): send ``VERSION:2.0.0``, then read MATCHSTATE lines. The state
goes to every seat before every action, so the client works out whose turn it is: ours iff the
hand is not finished and the state's player to act is our position. On our turn the reply is the
exact line, ``:`` and the action. The final state of a hand (the betting finishes it) calls
``hand_end``; the next hand's first line follows at once. EOF ends the match.

Speed matters (thousands of hands per second per process), so ``ClientSession.handle`` keeps the
hand's ``State`` and extends it by the new actions only, parses the cards only when they change,
and builds a ``View`` only for decisions and hooks the agent actually overrides.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from showdown.agents.base import Agent, View
from showdown.errors import ConfigError, IllegalActionError, ProtocolError, ShowdownError
from showdown.games.cards import Card
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State
from showdown.protocol.matchstate import MATCHSTATE_PREFIX, format_version_line, parse_cards_field

__all__ = ["ClientSession", "PlayResult", "play", "play_async", "run_bot", "resolve_game", "GAME_ENV"]

GAME_ENV = "SHOWDOWN_GAME"
"""Environment variable naming the game for bots started without ``--game`` (the runner sets it)."""

TOKEN_ENV = "SHOWDOWN_SEAT_TOKEN"
"""The secret ``showdown match`` gives each agent it starts; the client sends it with its VERSION line."""


def version_bytes(token: str | None = None) -> bytes:
    """The first line to send: ``VERSION:2.0.0``, with the seat token (``token`` or $SHOWDOWN_SEAT_TOKEN)."""
    token = token if token is not None else os.environ.get(TOKEN_ENV) or None
    return (format_version_line(token) + "\r\n").encode("ascii")
_LIMIT_TOKENS = {"f": FOLD, "c": CALL, "r": RAISE}


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What a client saw of a match: hands finished, decisions made, and (when tracked) its total."""

    hands: int
    decisions: int
    total: float | None = None


MAX_WARNINGS = 10
_STATE_CACHE_LIMIT = 1 << 16
_CARDS_CACHE_LIMIT = 1 << 12


class ClientSession:
    """The protocol state machine of one seat, with no I/O: ``handle(line) -> reply or None``.

    ``track`` adds up the seat's result per hand (payoffs of the final state). ``strict`` makes an
    illegal action from the agent raise ``IllegalActionError`` instead of being sent (the dealer
    would turn it into a call); tests use it to catch agent bugs.

    Betting-only states are cached by betting string across hands (the public tree of a limit game
    is small and hands repeat it), and card fields by their text, so most lines cost two dict
    lookups.
    """

    def __init__(self, agent: Agent, game: GameDef, *, strict: bool = False, track: bool = False) -> None:
        self.agent = agent
        self.game = game
        self.strict = strict
        self.track = track
        if agent.game is None:
            agent.game = game
        cls = type(agent)
        self._wants_start = cls.hand_start is not Agent.hand_start
        self._wants_end = cls.hand_end is not Agent.hand_end
        self._act = agent.act
        self._nolimit = game.is_nolimit
        self._initial = State.initial(game)
        self._states: dict[str, State] = {"": self._initial}
        self._parsed_cards: dict[str, tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]] = {}
        self._pos_text = ""
        self._hand_text = ""
        self._position = 0
        self._hand = -1
        self._betting = ""
        self._cards = ""
        self._hole: tuple[tuple[Card, ...], ...] = ()
        self._own: tuple[Card, ...] = ()
        self._board: tuple[Card, ...] = ()
        self._state = self._initial
        self._ended = True
        self._first = False
        self.hands = 0
        self.total = 0.0
        self.decisions = 0
        self.warnings = 0

    # ------------------------------------------------------------------ the one entry point

    def handle(self, line: str) -> str | None:
        """Feed one line from the dealer (no newline); return the reply to send, if any."""
        parts = line.split(":")
        if len(parts) != 5 or parts[0] != "MATCHSTATE":
            if line[:1] in ("#", ";") or not line.strip():
                return None
            raise ProtocolError(f"unexpected line from the dealer: {line[:80]!r}")
        _, pos, hand, betting, cards = parts
        if hand != self._hand_text or pos != self._pos_text:
            self._new_hand(pos, hand)
        if cards != self._cards:
            self._read_cards(cards, betting, line)
        state = self._states.get(betting)
        if state is None:
            state = self._advance(betting, line)
        self._state = state
        self._betting = betting
        if state.finished:
            if not self._ended:
                self._end_hand(state)
            return None
        if self._first:
            self._first = False
            if self._wants_start:
                self.agent.hand_start(self._view(state))
        if state.current_player != self._position:
            return None
        action = self._act(
            View(self.game, self._position, self._hand, state, self._own, self._board, betting, self._hole)
        )
        self.decisions += 1
        if self.strict:
            reason = state.why_illegal(action)
            if reason is not None:
                raise IllegalActionError(f"agent {self.agent.name!r} chose {action} at {line!r}: {reason}")
        return line + ":" + str(action)

    def feed(self, line: str) -> str | None:
        """``handle`` for drivers: a line that breaks the protocol is reported on stderr and
        skipped (at most ``MAX_WARNINGS`` reports), unless ``strict``."""
        try:
            return self.handle(line)
        except ProtocolError as exc:
            if self.strict:
                raise
            self.warnings += 1
            if self.warnings <= MAX_WARNINGS:
                print(f"showdown client: warning: {exc}", file=sys.stderr, flush=True)
            return None

    def latest(self, lines: list[str]) -> list[str]:
        """Of lines read together, those that need handling: from the last MATCHSTATE on.

        Every MATCHSTATE line is complete in itself and only the latest can still be answered (an
        earlier turn of ours was played for us already), so when nothing else needs the earlier
        lines (no hand hooks, no tracking) they are dropped unread: the answer goes out sooner.
        Finished hands are still counted: each new hand number means the hand before it ended.
        """
        if self.track or self._wants_start or self._wants_end:
            return lines
        for i in range(len(lines) - 1, 0, -1):
            if lines[i].startswith(MATCHSTATE_PREFIX):
                break
        else:
            return lines
        hand = self._hand_text
        ended = self._ended
        for line in lines[: i + 1]:
            if line.startswith(MATCHSTATE_PREFIX):
                number = line.split(":", 3)[2]
                if number != hand:
                    if not ended:
                        self.hands += 1
                    hand = number
                    ended = False
        return lines[i:]

    def close(self) -> PlayResult:
        """End of the stream: the result so far."""
        return PlayResult(self.hands, self.decisions, self.total if self.track else None)

    # ------------------------------------------------------------------ internals

    def _new_hand(self, position: str, hand: str) -> None:
        try:
            self._position = int(position)
            self._hand = int(hand)
        except ValueError:
            raise ProtocolError(f"bad position or hand number in {MATCHSTATE_PREFIX}{position}:{hand}") from None
        self._pos_text = position
        self._hand_text = hand
        self._betting = ""
        self._cards = ""
        self._state = self._initial
        self._ended = False
        self._first = True

    def _read_cards(self, cards: str, betting: str, line: str) -> None:
        parsed = self._parsed_cards.get(cards)
        if parsed is None:
            try:
                hole, groups = parse_cards_field(cards, betting.count("/") + 1)
            except ShowdownError as exc:
                raise ProtocolError(f"bad cards in {line[:80]!r}: {exc}") from None
            if len(hole) != self.game.num_players:
                raise ProtocolError(
                    f"{line[:80]!r} has {len(hole)} players' cards but {self.game.name or 'the game'} "
                    f"has {self.game.num_players} players: is the game right?"
                )
            parsed = (hole, tuple(c for g in groups for c in g))
            if len(self._parsed_cards) >= _CARDS_CACHE_LIMIT:
                self._parsed_cards.clear()
            self._parsed_cards[cards] = parsed
        self._hole, self._board = parsed
        if not 0 <= self._position < len(self._hole):
            raise ProtocolError(f"position {self._position} out of range in {line[:80]!r}")
        self._own = self._hole[self._position]
        self._cards = cards

    def _advance(self, betting: str, line: str) -> State:
        """The betting-only state after ``betting``: the last state extended by the new actions."""
        state = self._state
        old = self._betting
        if betting.startswith(old) and (len(betting) == len(old) or betting[len(old)] in "fcr/"):
            suffix = betting[len(old):]
        else:
            state = self._initial
            suffix = betting
        try:
            if not self._nolimit:
                for ch in suffix:
                    if ch != "/":
                        state = state.apply(_LIMIT_TOKENS[ch])
            else:
                for action in _nolimit_tokens(suffix):
                    state = state.apply(action)
        except (KeyError, ValueError, IllegalActionError) as exc:
            raise ProtocolError(f"cannot follow the betting in {line[:120]!r}: {exc}") from None
        if state.betting.count("/") != betting.count("/"):
            raise ProtocolError(f"the rounds in {line[:120]!r} do not match the betting rules")
        states = self._states
        if len(states) >= _STATE_CACHE_LIMIT:
            states.clear()
            states[""] = self._initial
        states[betting] = state
        return state

    def _view(self, state: State) -> View:
        return View(self.game, self._position, self._hand, state, self._own, self._board, self._betting, self._hole)

    def _end_hand(self, state: State) -> None:
        self._ended = True
        self.hands += 1
        if self.track or self._wants_end:
            view = self._view(state)
            if self.track:
                value = view.value()
                if value is not None:
                    self.total += value
            if self._wants_end:
                self.agent.hand_end(view)


def _nolimit_tokens(text: str) -> list[Action]:
    out: list[Action] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == "/":
            continue
        if ch == "r":
            j = i
            while j < n and text[j].isdigit():
                j += 1
            out.append(Action(ActionKind.RAISE, int(text[i:j])) if j > i else RAISE)
            i = j
        else:
            out.append(_LIMIT_TOKENS[ch])
    return out


# ---------------------------------------------------------------------------------- drivers


def resolve_game(game: GameDef | str | None) -> GameDef:
    """A ``GameDef`` from a value, a catalog name/path, or the ``SHOWDOWN_GAME`` environment variable."""
    from showdown.games.catalog import get_game

    if isinstance(game, GameDef):
        return game
    spec = game or os.environ.get(GAME_ENV)
    if not spec:
        raise ConfigError(f"which game? pass --game GAME (or set {GAME_ENV}); e.g. --game kuhn")
    return get_game(spec)


MAX_LINE_BYTES = 1 << 16
"""The longest line a client accepts from a dealer (a MATCHSTATE line is a few hundred bytes)."""


def _too_long(host: str, port: int) -> str:
    return f"the dealer at {host}:{port} sent a line longer than {MAX_LINE_BYTES} bytes: not an ACPC dealer?"


def connect(host: str, port: int, timeout: float | None = 30.0) -> socket.socket:
    """A TCP connection to a dealer seat with Nagle off (replies are tiny and latency-bound)."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ShowdownError(f"cannot connect to the dealer at {host}:{port}: {exc.strerror or exc}") from None
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def play(
    agent: Agent,
    host: str,
    port: int,
    game: GameDef | str | None = None,
    *,
    strict: bool = False,
    track: bool = False,
    token: str | None = None,
) -> PlayResult:
    """Play a whole match over a blocking socket until the dealer closes the connection.

    ``track`` adds up this seat's result (``PlayResult.total``); ``strict``: see ``ClientSession``;
    ``token`` proves the seat (default: $SHOWDOWN_SEAT_TOKEN, set by ``showdown match``).
    """
    g = resolve_game(game if game is not None else agent.game)
    session = ClientSession(agent, g, strict=strict, track=track)
    handle = session.feed
    latest = session.latest
    sock = connect(host, port)
    try:
        send = sock.sendall
        recv = sock.recv
        send(version_bytes(token))
        pending = ""
        try:
            while True:
                data = recv(1 << 16)
                if not data:
                    break
                lines = (pending + data.decode("ascii", "replace")).split("\n")
                pending = lines.pop()  # an unfinished line waits for the next read
                if len(pending) > MAX_LINE_BYTES:
                    raise ProtocolError(_too_long(host, port))
                if len(lines) > 1:
                    lines = latest(lines)
                for line in lines:
                    reply = handle(line.rstrip("\r"))
                    if reply is not None:
                        send(reply.encode("ascii") + b"\r\n")
        except (ConnectionResetError, BrokenPipeError):
            pass  # the dealer went away: the match is over for us
        if pending.strip():
            handle(pending.rstrip("\r"))  # a last line without newline: hooks only
    finally:
        sock.close()
    return session.close()


async def play_async(
    agent: Agent,
    host: str,
    port: int,
    game: GameDef | str | None = None,
    *,
    strict: bool = False,
    track: bool = False,
    token: str | None = None,
) -> PlayResult:
    """``play`` for an asyncio program: same protocol, asyncio streams."""
    import asyncio

    g = resolve_game(game if game is not None else agent.game)
    session = ClientSession(agent, g, strict=strict, track=track)
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_LINE_BYTES)
    except OSError as exc:
        raise ShowdownError(f"cannot connect to the dealer at {host}:{port}: {exc.strerror or exc}") from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        writer.write(version_bytes(token))
        while True:
            try:
                raw = await reader.readline()
            except (ConnectionResetError, asyncio.IncompleteReadError):
                break
            except ValueError:  # asyncio's LimitOverrunError: the line outgrew the reader's limit
                raise ProtocolError(_too_long(host, port)) from None
            if not raw:
                break
            reply = session.feed(raw.decode("ascii", "replace").rstrip("\r\n"))
            if reply is not None:
                writer.write(reply.encode("ascii") + b"\r\n")
                await writer.drain()
    finally:
        writer.close()
        try:
            await writer.wait_closed()
        except (ConnectionResetError, BrokenPipeError):
            pass
    return session.close()


def run_bot(bot: Agent | Callable[[GameDef], Agent], argv: Sequence[str] | None = None) -> int:
    """Entry point for a bot script: ``python my_bot.py [--game GAME] HOST PORT``.

    ``bot`` is an agent or a callable taking the game (an ``Agent`` subclass works). The game comes
    from ``--game`` or the ``SHOWDOWN_GAME`` environment variable (``showdown match`` sets it).
    Returns the exit status (also usable as ``sys.exit(run_bot(MyBot))``).
    """
    parser = argparse.ArgumentParser(description="Play a poker bot against an ACPC dealer.")
    parser.add_argument("--game", help=f"catalog name or .game file (default: ${GAME_ENV})")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    args = parser.parse_args(argv)
    try:
        game = resolve_game(args.game)
        agent = bot if isinstance(bot, Agent) else bot(game)
        play(agent, args.host, args.port, game)
    except ShowdownError as exc:
        print(f"{sys.argv[0]}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
