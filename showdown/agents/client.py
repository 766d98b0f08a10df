"""Connect an ``Agent`` to any ACPC dealer: a sans-io session plus blocking and asyncio drivers.

The protocol (docs/protocol.md section 3): send ``VERSION:2.0.0``, then read MATCHSTATE lines. The state
goes to every seat before every action, so the client works out whose turn it is: ours iff the
hand is not finished and the state's player to act is our position. On our turn the reply is the
exact line, ``:`` and the action. The final state of a hand (the betting finishes it) calls
``hand_end``; the next hand's first line follows at once. EOF ends the match.

Speed matters (thousands of hands per second per process), so ``ClientSession.handle`` keeps the
hand's ``State`` and extends it by the new actions only, parses the cards only when they change,
and builds a ``View`` only for decisions and hooks the agent actually overrides.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from showdown import argtypes
from showdown.agents.base import Agent, View, no_act
from showdown.errors import ConfigError, IllegalActionError, ProtocolError, ShowdownError
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, State
from showdown.protocol.codec import MatchStateDecoder
from showdown.protocol.matchstate import MATCHSTATE_PREFIX, format_version_line

__all__ = ["ClientSession", "PlayResult", "play", "play_async", "run_bot", "resolve_game", "GAME_ENV"]

GAME_ENV = "SHOWDOWN_GAME"
"""Environment variable naming the game for bots started without ``--game`` (the runner sets it)."""

TOKEN_ENV = "SHOWDOWN_SEAT_TOKEN"
"""The secret ``showdown match`` gives each agent it starts; the client sends it with its VERSION line."""


def version_bytes(token: str | None = None) -> bytes:
    """The first line to send: ``VERSION:2.0.0``, with the seat token (``token`` or $SHOWDOWN_SEAT_TOKEN)."""
    token = token if token is not None else os.environ.get(TOKEN_ENV) or None
    if token and not (token.isascii() and token.isprintable() and not any(c.isspace() for c in token)):
        raise ConfigError(f"the seat token (--token or ${TOKEN_ENV}) has a space, a line end or a character beyond "
                          "ASCII, which the first line cannot carry: give it as the dealer printed it")
    return (format_version_line(token) + "\r\n").encode("ascii")


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What a client saw of a match: hands finished, decisions made, and (when tracked) its total."""

    hands: int
    decisions: int
    total: float | None = None


MAX_WARNINGS = 10


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
        self._codec = MatchStateDecoder(game)
        self._ended = True
        self._first = False
        self.hands = 0
        self.total = 0.0
        self.decisions = 0
        self.warnings = 0
        self._rounded = False
        self._said_extra = False
        self.read_any = False  # a state was read: until then the dealer may only be refusing the seat
        self._words = ""  # what the dealer said before its first state (a '# ERROR:' refusal): quoted if none comes
        self.refused_states = 0  # state lines refused (summed up at the end: another game's dealer, or a broken one)

    # ------------------------------------------------------------------ the one entry point

    def handle(self, line: str) -> str | None:
        """Feed one line from the dealer (no newline); return the reply to send, if any."""
        if not line.startswith(MATCHSTATE_PREFIX) and self._skipped(line):
            return None
        codec = self._codec
        if codec.read(line):
            self._ended = False
            self._first = True
        if codec.extra and not self._said_extra:  # said once: a dealer that adds fields adds them to every line
            self._said_extra = True
            self._warn(f"the dealer's state lines carry fields after the cards ({codec.extra[:40]!r} in {line[:80]!r}), which "
                       "ACPC 2.0.0 does not have: they are ignored, and each reply echoes the line whole, as the reference's clients do")
        self.read_any = True
        state = codec.state
        betting = codec.betting
        if state.finished:
            if not self._ended:
                self._end_hand(state)
            return None
        if self._first:
            self._first = False
            if self._wants_start:
                self.agent.hand_start(self._view(state))
        if state.current_player != codec.position:
            return None
        if len(codec.own) != self.game.num_hole_cards:  # (an agent reading its cards failed: an IndexError traceback)
            raise ProtocolError(f"no hole cards of this seat's in {line[:80]!r}: a state on its turn shows its "
                                f"{self.game.num_hole_cards} card(s) at position {codec.position}")
        action = self._act(View(self.game, codec.position, codec.hand, state, codec.own, codec.board, betting, codec.hole))
        self.decisions += 1
        return line + ":" + self._action_text(action, line, state)

    def _action_text(self, action: object, line: str, state: State) -> str:
        """The reply's action as the wire writes it. What is no action (None from ``act``, a raise to
        nan) is sent as no action, which a dealer plays as a call and counts as invalid: a call sent for
        it was a legal call to the dealer, and a bot returning None all match went unseen (exit 0)."""
        if not isinstance(action, Action):
            why = (f"agent {self.agent.name!r}: act() returned {str(action)[:60]!r} ({type(action).__name__}), not an Action "
                   "(CALL, FOLD or Action(ActionKind.RAISE, size) from showdown.games.state)")
            if self.strict:
                raise IllegalActionError(why)
            text = no_action_text(action)
            self._warn(f"{why}: sent {text!r}, which a dealer plays as a call and counts as an invalid action")
            return text
        if action.size and type(action.size) is not int:  # (250.5 went out as 'r250.5', the dealer kept 'r250')
            whole = self._whole_size(action)
            if whole is None:  # no number (nan, inf)
                return no_action_text(f"r{action.size}")
            action = whole
        if self.strict:
            reason = state.why_illegal(action)
            if reason is not None:
                raise IllegalActionError(f"agent {self.agent.name!r} chose {action} at {line!r}: {reason}")
        return str(action)

    def _whole_size(self, action: Action) -> Action | None:
        """A raise whose size is not an ``int`` (a float, a numpy number): rounded to whole chips,
        said once per session; None for a size that is no finite number (said: the reply is then no
        action, which the dealer plays as a call and counts)."""
        size: object = action.size
        try:
            whole = round(size)  # type: ignore[call-overload]
            whole = int(whole)
        except (TypeError, ValueError, OverflowError):
            whole = None
        if whole is not None and whole == size:
            return Action(action.kind, whole)  # (a numpy int, 250.0: nothing lost)
        why = f"agent {self.agent.name!r}: act() returned a raise to {str(size)[:40]!r}, not a whole number of chips"
        if self.strict:
            raise IllegalActionError(why)
        if whole is None:
            self._warn(f"{why}: sent as no action, which a dealer plays as a call and counts as an invalid action")
            return None
        if not self._rounded:
            self._rounded = True
            self._warn(f"{why}: sent r{whole} (raise sizes are rounded to whole chips; said once)")
        return Action(action.kind, whole)

    def feed(self, line: str) -> str | None:
        """``handle`` for drivers: a line that breaks the protocol is reported on stderr and
        skipped (at most ``MAX_WARNINGS`` reports), unless ``strict``. A first state that cannot be read
        ends the session (``ShowdownError``): another game's dealer, whose every state will be refused
        (the agent sat out the dealer's time limit, 10 minutes at the reference's, then said it)."""
        try:
            return self.handle(line)
        except ProtocolError as exc:
            if self.strict:
                raise
            if line.startswith(MATCHSTATE_PREFIX):
                self.refused_states += 1
                if not self.read_any:
                    why = str(exc) + ("" if str(exc).endswith("game right?") else ": is the game right?")
                    raise ShowdownError(f"the dealer's first state cannot be read as {self.game.name or 'the game'}'s: {why}") from None
            self._warn(str(exc))
            return None

    def last_line(self, line: str) -> None:
        """The line the dealer's stream ended on, without its newline: handled when it reads as a state
        (a last hand's hooks run), else said to be cut short in one warning, not as the bad line it
        looks like ('has 1 players' cards' for a connection closed mid-line)."""
        try:
            self.handle(line)
        except ProtocolError:
            if self.strict:
                raise
            if not self.read_any:  # said by ``check_end`` in its one line
                self._words = f"{line[:80]!r}, cut short"
                return
            self._warn(f"the dealer closed the connection in the middle of a line: {line[:80]!r} is not read")

    def _skipped(self, line: str) -> bool:
        """Whether a line that is no state is passed over (a comment, a blank line; else it is refused).
        A reason the dealer gives (``# ERROR: ...``) is said as it comes, or before the first state kept
        for ``check_end`` (an agent told why it was closed ended quietly), as is the first line refused."""
        if line[:1] in ("#", ";") or not line.strip():
            if line.lstrip("#; ").startswith("ERROR"):  # (a refused token, a seat taken over)
                if self.read_any:
                    self._warn(f"the dealer says {line[:120]!r}")
                else:
                    self._words = repr(line[:120])
            return True
        if not self.read_any:
            self._words = self._words or repr(line[:120])  # (its first: 'HTTP/1.1 400 Bad Request' from what is no dealer)
        return False

    def check_end(self, where: str) -> None:
        """The stream has ended: a ``ShowdownError`` when no state came in it (the dealer refused the seat, or
        it is no ACPC dealer), quoting what it said; an agent told nothing exited 0 as if it had played. Else
        state lines refused on the way are counted in one last warning (another game's dealer was only
        warnings about betting and rounds, none naming the game), as is a hand left unfinished (a match
        the dealer aborted ended the agent with status 0 and not a word)."""
        if self.read_any:
            if not self._ended:
                _say(f"the dealer at {where} closed the connection in the middle of hand {self._codec.hand} ({self.hands} "
                     f"hand{'s' * (self.hands != 1)} finished): the match was cut short")
            if self.refused_states:
                count = self.refused_states
                _say(f"{count} state line{'s' * (count > 1)} from the dealer broke {self.game.name or 'the game'}'s rules "
                     f"and {'were' if count > 1 else 'was'} skipped: is the game right?")
            return
        if not self._words:
            raise ShowdownError(f"the dealer at {where} closed the connection without sending a state "
                                "(it refused this seat, or it is no ACPC dealer)")
        raise ShowdownError(f"the dealer at {where} closed the connection without sending a state; it said {self._words}")

    def _warn(self, text: str) -> None:
        """One warning on stderr (at most ``MAX_WARNINGS``: a bot wrong in every hand fills no disk)."""
        self.warnings += 1
        if self.warnings <= MAX_WARNINGS:
            print(f"showdown client: warning: {text}", file=sys.stderr, flush=True)

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
        hand = self._codec.hand_text
        ended = self._ended
        for line in lines[: i + 1]:
            if line.startswith(MATCHSTATE_PREFIX) and len(head := line.split(":", 3)) == 4:  # (not 'MATCHSTATE:0')
                number = head[2]
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

    def _view(self, state: State) -> View:
        c = self._codec
        return View(self.game, c.position, c.hand, state, c.own, c.board, c.betting, c.hole)

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


def no_action_text(value: object) -> str:
    """The reply's action for an ``act`` that returned no ``Action``: the value's ASCII ``repr``, never
    read as an action letter (``False`` would be a fold), so that the dealer calls and counts it."""
    text = ascii(value)[:40]
    return "?" + text if text[:1] in "fFcCkKrRbB" else text


def _say(text: str) -> None:
    """A warning past ``MAX_WARNINGS``: the end of the story, whatever came before."""
    print(f"showdown client: warning: {text}", file=sys.stderr, flush=True)


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


WIRE = "latin-1"
"""How the client reads and writes the dealer's bytes: one character each, so that a reply echoes its state
line byte for byte, as the reference's clients do (read as ASCII with replacement, a dealer's byte over 127 in
the fields after the cards came back as U+FFFD, which ASCII cannot send: a UnicodeEncodeError traceback)."""

MAX_LINE_BYTES = 1 << 16
"""The longest line a client accepts from a dealer (a MATCHSTATE line is a few hundred bytes)."""


def _too_long(host: str, port: int) -> str:
    return f"the dealer at {host}:{port} sent a line longer than {MAX_LINE_BYTES} bytes: not an ACPC dealer?"


def _lost(host: str, port: int, exc: OSError) -> str:
    return f"lost the dealer at {host}:{port}: {exc.strerror or exc} (its host gone, or the network between us)"


def connect(host: str, port: int, timeout: float | None = 30.0) -> socket.socket:
    """A TCP connection to a dealer seat with Nagle off (replies are tiny and latency-bound)."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ShowdownError(f"cannot connect to the dealer at {host}:{port}: {exc.strerror or exc}") from None
    sock.settimeout(None)
    _tune(sock)
    return sock


KEEPALIVE_IDLE_S = 60
KEEPALIVE_PROBES = 6
KEEPALIVE_INTERVAL_S = 10
"""A dealer's host gone without a word (powered off, the network cut) is noticed after about 2 minutes
of silence and unanswered probes: the agent, waiting for a state with nothing in flight, waited for
ever. A dealer that is there but silent answers the probes (its kernel does), and is waited for."""


def _tune(sock: socket.socket) -> None:
    """Nagle off (replies are tiny and latency-bound) and TCP keep-alive on (see ``KEEPALIVE_IDLE_S``)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", KEEPALIVE_IDLE_S), ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL_S),
                        ("TCP_KEEPCNT", KEEPALIVE_PROBES)):
        option = getattr(socket, name, None)  # (not on every platform: there, the system's defaults)
        if option is not None:
            sock.setsockopt(socket.IPPROTO_TCP, option, value)


WAIT_NOTICE_S = 30.0
"""Seconds of silence from a dealer before its first bytes after which the client says once that it is
still waiting (a dealer starts when every seat is taken: the reference waits for ever), where an agent
said nothing at all, as if hung."""


def _waiting(where: str) -> None:
    """Said once when a dealer is silent for ``WAIT_NOTICE_S`` before its first bytes."""
    print(f"showdown client: still waiting for the dealer at {where} to start the match after {WAIT_NOTICE_S:g} s "
          "(a dealer starts when every seat has connected; Ctrl-C stops)", file=sys.stderr, flush=True)


def _first_bytes(sock: socket.socket, where: str) -> bytes:
    """The dealer's first bytes, the wait said once after ``WAIT_NOTICE_S`` (later reads have no timeout:
    one on every read costs a poll)."""
    sock.settimeout(WAIT_NOTICE_S)
    try:
        return sock.recv(1 << 16)
    except TimeoutError as exc:
        if exc.errno is not None:  # (ETIMEDOUT: the keep-alive probes unanswered, not this wait)
            raise
        _waiting(where)
        sock.settimeout(None)
        return sock.recv(1 << 16)
    finally:
        sock.settimeout(None)


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
    hello = version_bytes(token)
    sock = connect(host, port)
    try:
        send = sock.sendall
        recv = sock.recv
        pending = ""
        try:
            send(hello)
            data = _first_bytes(sock, f"{host}:{port}")
            while data:
                lines = (pending + data.decode(WIRE)).split("\n")
                pending = lines.pop()  # an unfinished line waits for the next read
                if len(pending) > MAX_LINE_BYTES:
                    raise ProtocolError(_too_long(host, port))
                if len(lines) > 1:
                    lines = latest(lines)
                for line in lines:
                    reply = handle(line.rstrip("\r"))
                    if reply is not None:
                        send(reply.encode(WIRE) + b"\r\n")
                data = recv(1 << 16)
        except (ConnectionResetError, BrokenPipeError):
            pass  # the dealer went away: the match is over for us
        except OSError as exc:  # its host gone (the keep-alive probes unanswered: timed out), unreachable
            raise ShowdownError(_lost(host, port, exc)) from None
        if pending.strip():
            session.last_line(pending.rstrip("\r"))
    finally:
        sock.close()
    session.check_end(f"{host}:{port}")
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
    hello = version_bytes(token)
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_LINE_BYTES)
    except OSError as exc:
        raise ShowdownError(f"cannot connect to the dealer at {host}:{port}: {exc.strerror or exc}") from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        _tune(sock)
    try:
        writer.write(hello)
        reading = asyncio.ensure_future(reader.readline())
        if not (await asyncio.wait({reading}, timeout=WAIT_NOTICE_S))[0]:  # (said once: see ``WAIT_NOTICE_S``)
            _waiting(f"{host}:{port}")
        first: asyncio.Future[bytes] | None = reading
        while True:
            try:
                raw = await (first or reader.readline())
                first = None
            except (ConnectionResetError, asyncio.IncompleteReadError):
                break
            except ValueError:  # asyncio's LimitOverrunError: the line outgrew the reader's limit
                raise ProtocolError(_too_long(host, port)) from None
            except OSError as exc:  # its host gone (the keep-alive probes unanswered: timed out), unreachable
                raise ShowdownError(_lost(host, port, exc)) from None
            if not raw:
                break
            if not raw.endswith(b"\n"):  # the stream ended on it
                session.last_line(raw.decode(WIRE).rstrip("\r"))
                break
            reply = session.feed(raw.decode(WIRE).rstrip("\r\n"))
            if reply is not None:
                writer.write(reply.encode(WIRE) + b"\r\n")
                await writer.drain()
    finally:
        writer.close()
        try:
            await writer.wait_closed()
        except (ConnectionResetError, BrokenPipeError):
            pass
    session.check_end(f"{host}:{port}")
    return session.close()


def run_bot(bot: Agent | Callable[[GameDef], Agent], argv: Sequence[str] | None = None) -> int:
    """Entry point for a bot script: ``python my_bot.py [--game GAME] HOST PORT``.

    ``bot`` is an agent or a callable taking the game (an ``Agent`` subclass works). The game comes
    from ``--game`` or the ``SHOWDOWN_GAME`` environment variable (``showdown match`` sets it).
    Returns the exit status (also usable as ``sys.exit(run_bot(MyBot))``).
    """
    parser = argtypes.OneLineParser(description="Play a poker bot against an ACPC dealer.")
    parser.add_argument("--game", help=f"catalog name or .game file (default: ${GAME_ENV})")
    parser.add_argument("host")
    parser.add_argument("port", type=argtypes.port)
    args = parser.parse_args(argv)
    try:
        game = resolve_game(args.game)
        agent = bot if isinstance(bot, Agent) else bot(game)
        if isinstance(agent, Agent) and type(agent).act is Agent.act:  # refused before it takes a seat, not after hands
            raise ConfigError(no_act(type(agent)))
        play(agent, args.host, args.port, game)
    except ShowdownError as exc:
        print(f"{sys.argv[0]}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
