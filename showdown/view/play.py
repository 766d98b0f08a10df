"""The human seat: a person plays one seat of a real match from the browser.

``HumanSeat`` is a seat client like any bot: it connects to its seat's TCP port, sends its VERSION
line (with the seat token), reads MATCHSTATE lines and answers them with actions. The dealer sees
the protocol only, so its time limits, logs and replacements apply as to any program. Between the
socket and the page it is a bridge: every line becomes a JSON view sent over the page's WebSocket
(cards, board, pot, legal actions and raise sizes, the running score with its interval, the last
hands), and the page's clicks become the reply. Closing the tab closes the seat's connection: the
dealer handles that as any disconnect (and reopening the page reconnects within the dealer's window).
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import deque
from typing import Any

from showdown.errors import ShowdownError
from showdown.games.cards import format_cards
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State
from showdown.protocol.matchstate import MATCHSTATE_PREFIX, MatchState, format_reply, format_version_line, parse_matchstate

LAST_HANDS = 10
"""Hands shown under the table."""


class HumanSeat:
    """Bridges one seat's TCP connection to the page's WebSocket."""

    def __init__(self, game: GameDef, names: list[str], hands: int) -> None:
        self.game = game
        self.names = names
        self.hands = hands
        self.ws: Any = None
        self.actions: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=8)
        self.last_message: dict[str, Any] = {"message": "waiting for the first hand"}
        self.results: list[float] = []
        self.last: deque[dict[str, Any]] = deque(maxlen=LAST_HANDS)
        self.connected = asyncio.Event()
        self.page_gone = asyncio.Event()
        self.attached = asyncio.Event()
        self.done = False
        self.stopped = False  # stopped from the terminal (Ctrl-C): the page says so at the end

    # ------------------------------------------------------------------ the page

    async def attach(self, ws: Any) -> None:
        """Serve one page (a newer one replaces it) until it closes."""
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        self.ws = ws
        self.page_gone.clear()
        self.attached.set()
        await self._send(self.last_message)
        try:
            async for msg in ws:
                if getattr(msg, "type", None) is not None and msg.type.name != "TEXT":
                    continue
                try:
                    doc = json.loads(msg.data)
                except ValueError:
                    continue
                if isinstance(doc, dict) and doc.get("action") in ("f", "c", "r"):
                    if self.actions.full():
                        continue
                    self.actions.put_nowait(doc)
        finally:
            if self.ws is ws:
                self.ws = None
                self.page_gone.set()

    async def close(self, message: str = "the match is over") -> None:
        """The match is over: say so (never "your turn" again) and close the page's socket (the page
        keeps what it shows)."""
        if not self.last_message.get("over"):
            await self._send(self._over(message))
        self.done = True
        ws = self.ws
        if ws is not None and not ws.closed:
            await ws.close()

    def _over(self, message: str) -> dict[str, Any]:
        """The last message, saying the match is over: no action is asked for any more."""
        view = self.last_message.get("view")
        over = {**self.last_message, "message": message, "over": True}
        over.pop("error", None)
        if view is not None:
            over["view"] = {**view, "your_turn": False}
        return over

    async def _send(self, doc: dict[str, Any]) -> None:
        self.last_message = doc
        ws = self.ws
        if ws is not None and not ws.closed:
            try:
                await ws.send_str(json.dumps(doc))
            except (ConnectionError, RuntimeError):
                pass

    # ------------------------------------------------------------------ the seat

    async def play_seat(self, host: str, port: int, token: str | None) -> None:
        """Play the seat until the match ends; a page that goes away is a disconnect, and a page
        that comes back reconnects (the dealer reopens the seat within its reconnect window)."""
        await self.attached.wait()
        while not self.done:
            try:
                reader, writer = await asyncio.open_connection(host, port, limit=64 * 1024)
            except OSError:
                await self._send({**self.last_message, "error": "the dealer's seat is closed: the match is over"})
                return
            writer.write((format_version_line(token) + "\r\n").encode("ascii"))
            await writer.drain()
            try:
                await self._converse(reader, writer)
            finally:
                writer.close()
            if not self.done:
                await self._send({**self.last_message, "message": "the page went away: the dealer plays your seat until it is back"})
                await self.page_gone.wait()
                self.attached.clear()
                await self.attached.wait()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line_task: asyncio.Future[bytes] | None = None  # the dealer's next line, read while the person thinks too
        while True:
            if line_task is None:
                line_task = asyncio.ensure_future(reader.readline())
            gone_task = asyncio.ensure_future(self.page_gone.wait())
            await asyncio.wait(_futures(line_task, gone_task), return_when=asyncio.FIRST_COMPLETED)
            if gone_task.done() and not line_task.done():
                line_task.cancel()
                return  # the tab closed: drop the connection, as any client that vanishes
            gone_task.cancel()
            raw = line_task.result()
            line_task = None
            if not raw:
                self.done = True
                await self._send(self._over("the match was stopped" if self.stopped else "the match is over"))
                return
            line = raw.decode("ascii", "replace").rstrip("\r\n")
            if not line.startswith(MATCHSTATE_PREFIX):
                continue
            try:
                ms = parse_matchstate(line, self.game)
                state = ms.to_state(self.game)
            except ShowdownError:
                continue
            if state.is_terminal:
                self._finished(ms, state)
                await self._send(self._message(ms, state, False, "hand over"))
                continue
            mine = state.current_player == ms.position
            await self._send(self._message(ms, state, mine, "your turn" if mine else "waiting for the others"))
            if mine:
                line_task = asyncio.ensure_future(reader.readline())
                reply = await self._answer(ms, state, line_task)
                if reply is None:  # the page went away, or the dealer moved on (a timeout, the end): its line is next
                    continue
                writer.write((reply + "\r\n").encode("ascii"))
                await writer.drain()

    async def _answer(self, ms: MatchState, state: State, next_line: asyncio.Future[bytes]) -> str | None:
        """The page's next legal action for this state, as the reply line; None when the page goes
        away or the dealer sends a line first (it played this turn itself, or the match stopped)."""
        while True:
            gone = asyncio.ensure_future(self.page_gone.wait())
            want = asyncio.ensure_future(self.actions.get())
            await asyncio.wait(_futures(gone, want, next_line), return_when=asyncio.FIRST_COMPLETED)
            gone.cancel()
            if next_line.done() or not want.done():
                want.cancel()
                return None
            doc = want.result()
            action = _action(doc, state)
            why = state.why_illegal(action) if action is not None else _unreadable(doc, state)
            if why is None and action is not None:
                return format_reply(ms, action)
            await self._send({**self._message(ms, state, True, ""), "error": f"that action is not legal here: {why}"})

    # ------------------------------------------------------------------ what the page is told

    def _finished(self, ms: MatchState, state: State) -> None:
        value = state.payoffs()[ms.position] if state.finished else 0.0
        self.results.append(value)
        self.last.appendleft(
            {
                "hand": ms.hand,
                "hole": format_cards(ms.own_cards),
                "others": [format_cards(h) for p, h in enumerate(ms.hole) if p != ms.position],
                "board": format_cards(ms.board_cards),
                "betting": ms.betting_text,
                "value": value,
            }
        )

    def _message(self, ms: MatchState, state: State, mine: bool, text: str) -> dict[str, Any]:
        g = self.game
        bounds = state.raise_bounds() if mine else None
        legal = {
            "fold": mine and state.can_fold(),
            "call_amount": state.to_call() if mine else 0,
            "raise": bounds is not None,
            "min": bounds[0] if bounds and g.is_nolimit else None,
            "max": bounds[1] if bounds and g.is_nolimit else None,
        }
        others = [n for n in self.names[1:]] or ["opponent"]
        names = [others[(p - ms.position - 1) % len(others)] if len(others) == g.num_players - 1 else "opponent" for p in range(g.num_players)]
        names[ms.position] = "You"
        view = {
            "hand": ms.hand,
            "hands": self.hands,
            "position": ms.position,
            "names": names,
            "hole": [format_cards(h) for h in ms.hole],
            "board": format_cards(ms.board_cards),
            "betting": ms.betting_text,
            "pot": state.pot(),
            "spent": list(state.spent),
            "folded": list(state.folded),
            "stacks": list(g.stack) if g.is_nolimit else None,
            "to_act": None if state.is_terminal else state.current_player,
            "your_turn": mine,
            "legal": legal,
        }
        return {"view": view, "message": text, "score": self._score(), "last": list(self.last)}

    def _score(self) -> dict[str, Any]:
        n = len(self.results)
        total = float(sum(self.results))
        out: dict[str, Any] = {"hands": n, "total": total, "per100": 100.0 * total / n if n else 0.0, "ci95": None}
        if n > 1:
            mean = total / n
            sd = math.sqrt(sum((v - mean) ** 2 for v in self.results) / (n - 1))
            half = 100.0 * 1.959963984540054 * sd / math.sqrt(n)
            out["ci95"] = [out["per100"] - half, out["per100"] + half]
        return out


def _futures(*futures: asyncio.Future[Any]) -> set[asyncio.Future[Any]]:
    return set(futures)


def _action(doc: dict[str, Any], state: State) -> Action | None:
    kind = doc.get("action")
    if kind == "f":
        return Action(ActionKind.FOLD)
    if kind == "c":
        return Action(ActionKind.CALL)
    if kind == "r":
        if state.game.is_limit:
            return Action(ActionKind.RAISE)
        size = doc.get("size")
        bounds = state.raise_bounds()
        if size is None and bounds is not None and bounds[0] == bounds[1]:
            size = bounds[0]  # all-in the only size: the page's button sends none (it was 'unreadable action')
        if not isinstance(size, (int, float)) or isinstance(size, bool) or not math.isfinite(size) or size != int(size):
            return None  # (150.7 typed in was played as a raise to 150)
        return Action(ActionKind.RAISE, int(size))
    return None


def _unreadable(doc: dict[str, Any], state: State) -> str:
    """Why the page's ``doc`` is no action: a no-limit raise's size is missing or not whole."""
    bounds = state.raise_bounds()
    if doc.get("action") == "r" and state.game.is_nolimit and bounds is not None:
        return f"a raise's size is a whole number of chips to raise to, from {bounds[0]} to {bounds[1]}: got {str(doc.get('size'))[:20]}"
    return "unreadable action"


__all__ = ["HumanSeat"]
