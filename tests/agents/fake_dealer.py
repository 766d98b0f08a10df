"""A tiny threaded ACPC dealer for client tests: reference wire behaviour, no timeouts, no logs."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, State
from showdown.protocol.matchstate import format_matchstate, parse_reply, read_action, view_of


class FakeDealer:
    """Plays ``hands`` hands between clients connecting to ``ports`` (seat order), in a thread."""

    def __init__(self, game: GameDef, hands: int, seed: int = 0, *, extra: Callable[[int], list[str]] | None = None):
        self.game = game
        self.hands = hands
        self.seed = seed
        self.extra = extra  # seat -> extra lines (comments) sent before each hand
        n = game.num_players
        self._listeners = []
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(1)
            self._listeners.append(s)
        self.ports = [s.getsockname()[1] for s in self._listeners]
        self.totals = [0.0] * n
        self.received: list[list[str]] = [[] for _ in range(n)]
        self.versions: list[str] = []
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run_safe, daemon=True)

    def start(self) -> FakeDealer:
        self._thread.start()
        return self

    def join(self, timeout: float = 30) -> list[float]:
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError("fake dealer did not finish")
        if self.error is not None:
            raise self.error
        return self.totals

    def _run_safe(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # reported by join
            self.error = exc

    def _run(self) -> None:
        game = self.game
        n = game.num_players
        conns = []
        for s in self._listeners:
            c, _ = s.accept()
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conns.append(c)
            s.close()
        readers = [c.makefile("rb") for c in conns]
        for r in readers:
            self.versions.append(r.readline().decode().rstrip("\r\n"))
        cards = CardDealer(game, self.seed)
        for h in range(self.hands):
            hole, board = cards.deal()
            state = State.initial(game, hole, board)
            seat_of = [(p + h) % n for p in range(n)]  # seat s plays position (s - h) mod n
            if self.extra:
                for seat in range(n):
                    for line in self.extra(seat):
                        conns[seat].sendall(line.encode() + b"\r\n")
            while True:
                for p in range(n):
                    line = format_matchstate(view_of(state, p, h))
                    conns[seat_of[p]].sendall(line.encode() + b"\r\n")
                if state.finished:
                    break
                actor = state.current_player
                seat = seat_of[actor]
                while True:
                    raw = readers[seat].readline().decode().rstrip("\r\n")
                    if not raw:
                        raise EOFError(f"seat {seat} closed the connection")
                    self.received[seat].append(raw)
                    if raw.startswith(("#", ";")):
                        continue
                    reply = parse_reply(raw, game)
                    if reply.state == view_of(state, actor, h):
                        break
                action = read_action(reply.action_text or "", game) or CALL
                action, _ = state.repair(action)
                state = state.apply(action)
            for p, v in enumerate(state.payoffs()):
                self.totals[seat_of[p]] += v
        for c in conns:
            c.close()


def one_shot_dealer(stream: bytes, *, delay: float = 0.0, got: list[bytes] | None = None) -> tuple[int, threading.Thread]:
    """A port whose one connection is sent ``stream`` ``delay`` seconds after its VERSION line (with ``got``,
    the reply to it is read into that list), then closed."""
    server = socket.create_server(("127.0.0.1", 0))

    def dealer() -> None:
        conn, _ = server.accept()
        conn.recv(100)  # VERSION
        time.sleep(delay)
        conn.sendall(stream)
        if got is not None:
            got.append(conn.recv(100))
        conn.close()
        server.close()

    thread = threading.Thread(target=dealer)
    thread.start()
    return server.getsockname()[1], thread


def play_by(driver: str, agent: Any, port: int, game: str = "kuhn") -> Any:
    """``play`` or ``play_async`` (``driver``) of ``agent`` at ``port`` on 127.0.0.1."""
    from showdown.agents.client import play, play_async

    return play(agent, "127.0.0.1", port, game) if driver == "play" else asyncio.run(play_async(agent, "127.0.0.1", port, game))
