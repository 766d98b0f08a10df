"""The floor of a synchronous Python dealer: today's ``MatchEngine`` behind the least I/O code that plays a match.

    python benchmarks/floor_dealer.py GAME_FILE HANDS SEED -p P1,P2,...

Not a dealer anyone should run: no logs, no time limits, no reconnects, no asyncio. After one
blocking accept per seat it is a plain loop: ``poll`` the seat to act, ``os.read`` its reply, feed
the engine, and write each seat's lines in one ``os.write`` when that seat is to act (or the match
ends), as ``server.tcp`` coalesces them. ``bench_vs_reference.py --floor`` runs it beside both
dealers: the CPU per hand it spends is the least a synchronous hot loop around today's engine could
spend (issue 32 item 3), so a gap between it and the reference dealer is the engine's and Python's,
not asyncio's.
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import sys

from showdown.games.gamedef import load_gamedef
from showdown.server.dealer import MatchEngine, SeatStatus
from showdown.server.framing import LineSplitter
from showdown.server.outputs import MatchFinished, Output, Send


class FloorLoop:
    """One match: the seats' sockets, the engine, and each seat's lines held until it is to act."""

    def __init__(self, engine: MatchEngine, conns: list[socket.socket]) -> None:
        self.engine = engine
        self.fds = [conn.fileno() for conn in conns]
        self.polls = []
        for fd in self.fds:
            poll = select.poll()
            poll.register(fd, select.POLLIN)
            self.polls.append(poll)
        self.splitters = [LineSplitter() for _ in conns]
        self.held: list[list[str]] = [[] for _ in conns]
        self.finished: MatchFinished | None = None

    def carry_out(self, outputs: list[Output]) -> None:
        held = self.held
        for o in outputs:
            if type(o) is Send:
                held[o.seat].append(o.line)
            elif type(o) is MatchFinished:
                self.finished = o
        acting = self.engine.acting_seat
        for seat in range(len(held)) if acting is None else (acting,):
            lines = held[seat]
            if lines:
                held[seat] = []
                os.write(self.fds[seat], ("\r\n".join(lines) + "\r\n").encode())

    def read(self, seat: int) -> None:
        """Wait for ``seat``'s bytes and feed the engine its lines."""
        self.polls[seat].poll()
        data = os.read(self.fds[seat], 4096)
        if not data:
            raise SystemExit(f"seat {seat + 1} left the match")
        for line in self.splitters[seat].feed(data):
            self.carry_out(self.engine.receive(seat, line))

    def play(self) -> MatchFinished:
        engine = self.engine
        for seat in range(len(self.fds)):
            engine.connected(seat)
        for seat in range(len(self.fds)):  # the VERSION lines
            while engine.status(seat) is SeatStatus.CONNECTING:
                self.read(seat)
        while not engine.finished:
            seat = engine.acting_seat
            assert seat is not None
            self.read(seat)
            if engine.work_ahead:
                engine.prepare()
        assert self.finished is not None
        return self.finished


def serve(game_file: str, hands: int, seed: int, ports: list[int]) -> MatchFinished:
    game = load_gamedef(game_file)
    n = game.num_players
    listeners = [socket.create_server(("127.0.0.1", port)) for port in ports[:n]]
    print(" ".join(str(sock.getsockname()[1]) for sock in listeners), flush=True)
    conns = [sock.accept()[0] for sock in listeners]
    for conn in conns:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        return FloorLoop(MatchEngine(game, [f"p{s + 1}" for s in range(n)], hands, seed), conns).play()
    finally:
        for conn in conns:
            conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game_file")
    parser.add_argument("hands", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("-p", dest="ports", required=True, help="P1,P2,...: a port per seat")
    args = parser.parse_args()
    result = serve(args.game_file, args.hands, args.seed, [int(p) for p in args.ports.split(",")])
    print(f"{result.hands_played} hands: {result.score.totals}", file=sys.stderr)


if __name__ == "__main__":
    main()
