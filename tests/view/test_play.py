"""``showdown play``: a person's clicks in the browser become the actions the dealer logs, in limit and
no-limit (a raise size typed in); closing the tab is a disconnect the dealer handles."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from showdown.games.catalog import get_game
from showdown.games.state import State, parse_action
from tests.view.conftest import shot, wait_for


def _start(game: str, agent: str, hands: int, out: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "showdown", "play", game, agent, "--hands", str(hands), "--port", "0", "--out", str(out), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("play at "), line + (proc.stderr.read() if proc.stderr else "")
    return proc, line.split()[-1]


def _play(browser: Any, proc: subprocess.Popen[str], choose: Any, timeout: float = 120.0) -> None:
    """Click what ``choose(buttons, size_input)`` picks whenever it is our turn, until the match ends."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        assert time.monotonic() < deadline, "the match did not end"
        try:
            buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, "[data-action]") if b.is_enabled()]
            if buttons:
                sizes = browser.find_elements(By.CSS_SELECTOR, "[data-testid=raise-size]")
                choose({b.get_attribute("data-action"): b for b in buttons}, sizes[0] if sizes else None)
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)


def _human_actions(jsonl: Path) -> list[tuple[State, str]]:
    """(state before, action) for every action of the seat named 'you' in the log."""
    out = []
    for raw in jsonl.read_text().splitlines():
        rec = json.loads(raw)
        if rec.get("summary"):
            continue
        game = get_game(rec["game"])
        me = rec["players"].index("you")
        state = State.initial(game)
        for round_text in rec["betting"].split("/"):
            i = 0
            while i < len(round_text):
                j = i + 1
                while j < len(round_text) and round_text[j].isdigit():
                    j += 1
                token = round_text[i:j]
                if state.current_player == me:
                    out.append((state, token))
                state = state.apply(parse_action(token))
                i = j
    return out


def test_limit_clicks_are_the_logged_actions(browser: Any, tmp_path: Path) -> None:
    proc, url = _start("kuhn", "call", 4, tmp_path)
    try:
        browser.get(url)
        wait_for(browser, "[data-testid=actions]")
        wait_for(browser, "[data-action]")
        shot(browser, "play")

        def choose(buttons: dict[str, Any], size: Any) -> None:
            (buttons.get("r") or buttons["c"]).click()  # bet whenever we can, else check or call

        _play(browser, proc, choose)
        assert proc.wait(30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
    actions = _human_actions(next(tmp_path.glob("*.jsonl")))
    assert len(actions) >= 4
    for state, token in actions:
        assert token == ("r" if state.can_raise() else "c")
    assert "Your score" in browser.find_element("css selector", "[data-testid=score]").text


def test_nolimit_raise_size_typed_in_is_logged(browser: Any, tmp_path: Path) -> None:
    typed: list[int] = []
    proc, url = _start("holdem-nolimit", "call", 2, tmp_path)
    try:
        browser.get(url)
        wait_for(browser, "[data-action]")

        def choose(buttons: dict[str, Any], size: Any) -> None:
            if "r" in buttons and size is not None and len(typed) < 3:
                lo, hi = int(size.get_attribute("min")), int(size.get_attribute("max"))
                amount = min(hi, lo + 150 + 50 * len(typed))
                size.clear()
                size.send_keys(str(amount))
                typed.append(amount)
                shot(browser, "play-nolimit")
                buttons["r"].click()
            else:
                buttons["c"].click()

        _play(browser, proc, choose)
        assert proc.wait(30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
    raises = [int(token[1:]) for _, token in _human_actions(next(tmp_path.glob("*.jsonl"))) if token.startswith("r")]
    assert typed and raises == typed


def test_closing_the_tab_is_a_disconnect(browser: Any, tmp_path: Path) -> None:
    proc, url = _start("kuhn", "call", 3, tmp_path, "--t-response", "1")
    try:
        browser.get(url)
        wait_for(browser, "[data-action]")
        browser.get("about:blank")  # the tab goes away mid-hand
        code = proc.wait(90)
    finally:
        proc.kill()
    assert code in (0, 3)  # 3: degraded, the dealer played the seat in most hands
    records = [json.loads(x) for x in next(tmp_path.glob("*.jsonl")).read_text().splitlines()]
    hands = [r for r in records if not r.get("summary")]
    assert len(hands) == 3
    kinds = {e.get("kind") for r in hands for e in r.get("events", [])}
    assert kinds & {"disconnect", "connection_lost", "timeout"}


def _wait_text(browser: Any, selector: str, text: str, timeout: float = 20.0) -> str:
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        try:
            seen = browser.find_element(By.CSS_SELECTOR, selector).text
        except Exception:  # noqa: BLE001 - the page is being redrawn
            seen = ""
        if text in seen:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"{selector} says {seen!r}, not {text!r}")


def test_ctrl_c_at_your_turn_stops_at_once_and_the_page_says_so(browser: Any, tmp_path: Path) -> None:
    """Ctrl-C used to wait for the person's reply (up to --t-response, 300 s) and exit 0; the page
    then still said "your turn"."""
    import signal

    from selenium.webdriver.common.by import By

    proc, url = _start("kuhn", "call", 50, tmp_path)
    try:
        browser.get(url)
        wait_for(browser, "[data-action]")
        _wait_text(browser, "[data-testid=status]", "your turn")
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(20)
        took = time.monotonic() - started
        err = proc.stderr.read() if proc.stderr else ""
        out = proc.stdout.read() if proc.stdout else ""
    finally:
        proc.kill()
    assert code == 130 and took < 10, (code, took, err)
    assert "stopped early" in out and "in-process" not in out and "you was" not in out
    assert "a strategy is known" not in out or "aivat" in out  # never "plain (the best available: a strategy is known)"
    status = _wait_text(browser, "[data-testid=status]", "the match was stopped")
    assert "your turn" not in status
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-action]")


def test_ctrl_c_with_the_tab_closed_stops_at_once(browser: Any, tmp_path: Path) -> None:
    import signal

    proc, url = _start("kuhn", "call", 50, tmp_path)
    try:
        browser.get(url)
        wait_for(browser, "[data-action]")
        browser.get("about:blank")  # the seat waits for its page, the dealer for the seat
        time.sleep(1.0)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(20)
        took = time.monotonic() - started
    finally:
        proc.kill()
    assert code == 130 and took < 10, (code, took)


def test_the_summary_of_a_played_match_reads_well(tmp_path: Path) -> None:
    """The texts of a match with the person's seat (the Python API's Agent objects share them)."""
    import showdown
    from showdown.agents import CALL, Agent

    class Caller(Agent):
        def act(self, view: Any) -> Any:
            return CALL

    text = str(showdown.run_match("kuhn", [Caller(), "rules"], hands=50, logs=False))
    assert "unknown agent" not in text and "in-process" not in text
    assert "strategy not used for Caller: it plays in this process" in text


def test_a_play_token_beyond_ascii_is_refused_not_a_server_error(tmp_path: Path) -> None:
    """secrets.compare_digest refused the str ('comparing strings with non-ASCII characters is not
    supported'): a 500 and a traceback for anyone who knocked with '?token=été'; now a 403."""
    import urllib.error
    import urllib.request

    proc, url = _start("kuhn", "call", 3, tmp_path)
    try:
        base = url.split("?")[0].rstrip("/")
        for token in ("%C3%A9t%C3%A9", "abc"):
            try:
                urllib.request.urlopen(f"{base}/api/play/ws?token={token}", timeout=10)  # noqa: S310 (loopback)
                raise AssertionError("the socket opened without the token")
            except urllib.error.HTTPError as exc:
                assert exc.code == 403 and b"wrong or missing token" in exc.read()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_the_raise_button_when_all_in_is_the_only_size_goes_all_in() -> None:
    # facing a raise to 19,950 of 20,000 the page shows one 'Raise' button (no size box): its click
    # was refused with 'that action is not legal here: unreadable action'
    from showdown.games.state import Action, ActionKind
    from showdown.view.play import _action

    state = State.initial(get_game("holdem-nolimit")).apply_betting("r19950")
    assert state.raise_bounds() == (20000, 20000)
    assert _action({"action": "r"}, state) == Action(ActionKind.RAISE, 20000)
    assert _action({"action": "r"}, State.initial(get_game("holdem-nolimit"))) is None  # a choice of sizes: one must be given


def test_a_raise_size_that_is_not_whole_is_refused_saying_why() -> None:
    # 150.7 typed in the size box was played as a raise to 150
    from showdown.view.play import _action, _unreadable

    state = State.initial(get_game("holdem-nolimit"))
    assert _action({"action": "r", "size": 150.7}, state) is None
    assert _unreadable({"action": "r", "size": 150.7}, state) == \
        "a raise's size is a whole number of chips to raise to, from 200 to 20000: got 150.7"
    assert _action({"action": "r", "size": 250.0}, state) is not None
