"""The browser view in a real headless Chromium: the match page shows the figures of ``showdown match
--json``, the replayer steps through a known hand, the live page gains hands while a match runs, the
tournament's cross table links to its matches, a saved report works with no server, and bad input
is one clear line on the page."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.view.conftest import shot, text_of, wait_for


def num(x: float, digits: int = 2) -> str:
    """The page's number format: sign, fixed digits."""
    return ("+" if x > 0 else "") + f"{x:.{digits}f}"


def _played(tmp_path_factory: pytest.TempPathFactory, *words: str) -> tuple[Path, dict[str, Any]]:
    """Play ``showdown match WORDS`` into a fresh folder: (the folder, its --json document)."""
    out = tmp_path_factory.mktemp(words[0])
    done = subprocess.run([sys.executable, "-m", "showdown", "match", *words, "--out", str(out), "--json"],
                          capture_output=True, text=True, timeout=300, check=True)
    return out, json.loads(done.stdout)


@pytest.fixture(scope="module")
def kuhn_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    return _played(tmp_path_factory, "kuhn", "rules", "random", "--hands", "2000", "--seed", "4")


@pytest.fixture(scope="module")
def leduc_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    return _played(tmp_path_factory, "leduc", "rules", "call", "--hands", "300", "--seed", "2")


def _key(doc: dict[str, Any]) -> str:
    return Path(doc["log"]).name.removesuffix(".log")


def test_match_page_shows_the_figures_of_match_json(browser: Any, serve: Any, kuhn_match: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.by import By

    out, doc = kuhn_match
    url = serve(out)
    browser.get(url)  # one match here: the index goes straight to it
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=estimator]").text == doc["estimator"]
    for agent in doc["agents"]:
        row = browser.find_element(By.CSS_SELECTOR, f"tr[data-agent='{agent['name']}']")
        assert row.find_element(By.CSS_SELECTOR, "[data-field=per100]").text == num(agent["per100"])
        lo, hi = agent["ci95"]
        shown = "exact" if lo == hi else f"[{num(lo)}, {num(hi)}]"  # AIVAT with every strategy known has no error
        assert row.find_element(By.CSS_SELECTOR, "[data-field=ci95]").text == shown
    for position in doc["positions"]:
        row = browser.find_element(By.CSS_SELECTOR, f"tr[data-position='{position['position']}']")
        assert row.find_element(By.CSS_SELECTOR, "[data-field=per100]").text == num(position["per100"])
    assert "2,000 hands" in browser.find_element(By.CSS_SELECTOR, "[data-testid=hands]").text
    assert browser.find_elements(By.CSS_SELECTOR, "[data-testid=chart] polyline")
    wait_for(browser, "[data-testid=hand-list] tr[data-hand]")
    shot(browser, "match")


def test_hand_list_filters(browser: Any, serve: Any, leduc_match: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    out, doc = leduc_match
    browser.get(serve(out) + "#/match/" + _key(doc))
    wait_for(browser, "[data-testid=hand-list] tr[data-hand]")
    selects = browser.find_elements(By.CSS_SELECTOR, ".filters select")
    Select(selects[2]).select_by_value("yes")  # went to showdown
    time.sleep(1.0)
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=hand-list] tr[data-hand]")
    assert rows
    for row in rows:
        betting = row.find_elements(By.TAG_NAME, "td")[4].text
        assert "f" not in betting
    shot(browser, "hands")


def test_replayer_steps_through_a_known_hand(browser: Any, serve: Any, leduc_match: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    out, doc = leduc_match
    jsonl = Path(doc["jsonl"])
    offset = 0
    record = None
    with jsonl.open("rb") as f:  # the first hand that reached the board
        for raw in f:
            rec = json.loads(raw)
            if not rec.get("summary") and "/" in rec["betting"]:
                record = rec
                break
            offset += len(raw)
    assert record is not None
    browser.get(serve(out) + f"#/hand/{_key(doc)}/{offset}")
    wait_for(browser, "[data-testid=steps]")
    shown = [e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, ".seat [data-card]")]
    assert shown == record["hole"]
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=board]").text.startswith("board: none yet")
    actions = [a for a in record["betting"].replace("/", "")]
    steps = browser.find_elements(By.CSS_SELECTOR, "[data-testid=steps] li")
    assert len(steps) == len(actions)
    body = browser.find_element(By.TAG_NAME, "body")
    for k in range(len(actions)):
        body.send_keys(Keys.ARROW_RIGHT)
        assert browser.find_element(By.CSS_SELECTOR, "[data-testid=step]").text == f"step {k + 1} of {len(actions)}"
    board = browser.find_element(By.CSS_SELECTOR, "[data-testid=board] [data-card]").get_attribute("data-card")
    assert board == record["board"][1]
    results = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=result]")]
    assert results == [f"result {num(v, 0)}" for v in record["values"]]
    shot(browser, "replayer")
    browser.find_element(By.CSS_SELECTOR, "[data-testid=prev]").click()
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=step]").text == f"step {len(actions) - 1} of {len(actions)}"


def test_live_page_gains_hands_while_the_match_runs(browser: Any, serve: Any, tmp_path: Path) -> None:

    said = tmp_path / "match.stderr"
    with said.open("wb") as sink:
        match = subprocess.Popen(
            [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "2000000", "--out",
             str(tmp_path / "out")],
            stdout=subprocess.DEVNULL, stderr=sink,
        )
    try:
        deadline = time.monotonic() + 120
        while not list((tmp_path / "out").glob("*.jsonl")) or list((tmp_path / "out").glob("*.jsonl"))[0].stat().st_size < 1000:
            why = f"(exit status {match.poll()}; it said: {said.read_text(errors='replace')[-500:]!r})"
            assert match.poll() is None, f"the match ended before its first hands {why}"
            assert time.monotonic() < deadline, f"the match did not start {why}"
            time.sleep(0.2)
        key = list((tmp_path / "out").glob("*.jsonl"))[0].name.removesuffix(".jsonl")
        browser.get(serve(tmp_path / "out") + "#/match/" + key)
        wait_for(browser, "[data-testid=live]")

        def hands() -> int:  # the live page redraws its head as hands finish
            return int(text_of(browser, "[data-testid=hands]").split()[0].replace(",", ""))

        first = hands()
        time.sleep(2.5)
        second = hands()
        assert second > first > 0
        shot(browser, "live")
    finally:
        match.send_signal(signal.SIGTERM)
        match.wait(60)


def test_tournament_cross_table_links_to_its_matches(browser: Any, serve: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    (tmp_path / "t.yaml").write_text(
        "game: kuhn\nhands: 400\nseed: 3\nout: out\nagents:\n  - rules\n  - random\n  - bluff\n", encoding="utf-8"
    )
    subprocess.run([sys.executable, "-m", "showdown", "tournament", "t.yaml", "--jobs", "2"], cwd=tmp_path, capture_output=True,
                   text=True, timeout=300, check=True)
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    browser.get(serve(tmp_path / "out"))
    link = wait_for(browser, "a[href^='#/tournament/']")
    link.click()
    wait_for(browser, "[data-testid=cross-table] td[data-row]")
    cells = browser.find_elements(By.CSS_SELECTOR, "[data-testid=cross-table] td[data-row]")
    assert len(cells) == 6
    for cell in cells:
        e = results["cross_table"][cell.get_attribute("data-row")][cell.get_attribute("data-col")]
        assert cell.get_attribute("data-significant") == ("yes" if e["significant"] else "no")
        assert cell.text.startswith(num(e["per100"]))
    shot(browser, "tournament")
    pair = {cells[0].get_attribute("data-row"), cells[0].get_attribute("data-col")}
    cells[0].click()
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    names = {e.get_attribute("data-agent") for e in browser.find_elements(By.CSS_SELECTOR, "tr[data-agent]")}
    assert names == pair


def test_report_file_works_with_no_server(browser: Any, kuhn_match: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    out, doc = kuhn_match
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(out), "-o", str(report), "--hands", "50"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = report.read_text()
    assert "/static/" not in text and "http" not in text.split("SHOWDOWN_EMBEDDED")[0].replace("http-equiv", "")
    browser.get(report.as_uri())
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    for agent in doc["agents"]:
        row = browser.find_element(By.CSS_SELECTOR, f"tr[data-agent='{agent['name']}']")
        assert row.find_element(By.CSS_SELECTOR, "[data-field=per100]").text == num(agent["per100"])
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=hand-list] tr[data-hand]")
    assert len(rows) == 50
    # a filter matching only later hands said 'no hand matches these filters', the rest unmentioned
    assert text_of(browser, "[data-testid=report-hands]").startswith("this report holds the first 50 of 2,000 hands")
    rows[3].click()
    wait_for(browser, "[data-testid=steps]")


def test_bad_input_is_one_line_on_the_page(browser: Any, serve: Any, tmp_path: Path, kuhn_match: tuple[Path, dict[str, Any]]) -> None:

    empty = tmp_path / "empty"
    empty.mkdir()
    browser.get(serve(empty))
    assert "no match logs" in wait_for(browser, "[data-testid=error]").text

    torn = tmp_path / "torn"
    torn.mkdir()
    _, doc = kuhn_match
    lines = Path(doc["jsonl"]).read_bytes().splitlines(keepends=True)
    (torn / "cut.jsonl").write_bytes(b"".join(lines[:500]) + lines[500][:30])
    browser.get(serve(torn) + "#/match/cut")
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    assert "500 hands" in text_of(browser, "[data-testid=hands]")
    assert "not complete" in text_of(browser, "body")

    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "odd.jsonl").write_text(lines[0].decode().replace('"game":"kuhn"', '"game":"no-such-game"'))
    browser.get(serve(odd) + "#/match/odd")
    error = wait_for(browser, "[data-testid=error]").text
    assert "unknown game" in error and "Traceback" not in browser.page_source

    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "x.jsonl").write_text("this is not json\n")
    browser.get(serve(garbage) + "#/match/x")
    assert "not a showdown .jsonl log" in wait_for(browser, "[data-testid=error]").text


def test_view_command_line_errors_are_one_line(tmp_path: Path) -> None:
    missing = subprocess.run([sys.executable, "-m", "showdown", "view", str(tmp_path / "nope")], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr and "Traceback" not in missing.stderr
    public = subprocess.run([sys.executable, "-m", "showdown", "view", str(tmp_path), "--host", "0.0.0.0"], capture_output=True, text=True, timeout=60)
    assert public.returncode == 2 and "--public" in public.stderr
    env = {**os.environ}
    report = subprocess.run([sys.executable, "-m", "showdown", "report", str(tmp_path), "-o", str(tmp_path / "r.html")],
                            capture_output=True, text=True, timeout=60, env=env)
    assert report.returncode == 2 and "no match logs" in report.stderr


def test_duplicate_halves_are_finished_and_show_the_paired_figures(browser: Any, serve: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Both halves of a duplicate match used to say "no result file yet" and show their own plain figures."""
    from selenium.webdriver.common.by import By

    out, doc = _played(tmp_path_factory, "kuhn", "rules", "random", "--hands", "300", "--seed", "5", "--duplicate")
    browser.get(serve(out))
    wait_for(browser, "[data-testid=match-link]")
    links = browser.find_elements(By.CSS_SELECTOR, "[data-testid=match-link]")
    assert sorted(a.text for a in links) == ["kuhn.rules-random.seed5", "kuhn.rules-random.seed5.dup0", "kuhn.rules-random.seed5.dup1"]
    assert not browser.find_elements(By.CSS_SELECTOR, "li .badge")  # every one finished
    next(a for a in links if a.text.endswith(".dup1")).click()
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=estimator]").text == doc["estimator"]
    for agent in doc["agents"]:
        row = browser.find_element(By.CSS_SELECTOR, f"tr[data-agent='{agent['name']}']")
        assert row.find_element(By.CSS_SELECTOR, "[data-field=per100]").text == num(agent["per100"])
    assert "half 2 of duplicate match" in browser.find_element(By.ID, "tables").text


def test_same_named_matches_of_two_folders_show_their_folders(browser: Any, serve: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    for folder in ("a", "b"):
        subprocess.run([sys.executable, "-m", "showdown", "match", "kuhn", "rules", "call", "--hands", "20", "--out",
                        str(tmp_path / folder)], capture_output=True, text=True, timeout=120, check=True)
    browser.get(serve(tmp_path / "a", tmp_path / "b"))
    wait_for(browser, "[data-testid=match-folder]")
    items = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "ul.plain li")]
    assert len(items) == 2 and len(set(items)) == 2
    assert all(text.startswith("kuhn.rules-call.seed0") for text in items)


def test_tournament_page_keeps_the_sign_and_the_significant_digits(browser: Any, serve: Any, tmp_path: Path) -> None:
    """cfr's exact -0.00088 chips/100 against equilibrium: the page showed -0.00 ±0.00 (as the table showed +0.00)."""
    from selenium.webdriver.common.by import By

    (tmp_path / "t.yaml").write_text("game: kuhn\nhands: 200\nseed: 1\nout: out\nagents: [equilibrium, cfr]\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "showdown", "tournament", "t.yaml"], cwd=tmp_path, capture_output=True,
                   text=True, timeout=300, check=True)
    e = json.loads((tmp_path / "out" / "results.json").read_text())["cross_table"]["cfr"]["equilibrium"]
    assert e["significant"] and -0.01 < e["per100"] < 0
    browser.get(serve(tmp_path / "out"))
    wait_for(browser, "a[href^='#/tournament/']").click()
    cell = wait_for(browser, "[data-testid=cross-table] td[data-row=cfr][data-col=equilibrium]")
    digits = 1 - math.floor(math.log10(-e["per100"])) - 1
    assert cell.text.startswith(f"{e['per100']:.{digits}f}") and cell.text.startswith("-0.000")
    ranks = [row.text.split()[:2] for row in browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking] tr")[1:]]
    assert [r[1] for r in ranks] == ["equilibrium", "cfr"] and ranks[0][0] != ranks[1][0]


HOSTILE = '<!--<script>x"><img src=x onerror="document.title=\'pwned\'">'


def test_a_hostile_bot_name_is_shown_as_text_in_the_report_and_the_view(browser: Any, serve: Any, tmp_path: Path,
                                                                        kuhn_match: tuple[Path, dict[str, Any]]) -> None:
    """Names come from logs people share: a name holding '<!--<script>' kept the report at 'loading…'
    (the HTML parser did not end its data's script), and no name may run as markup."""
    _, doc = kuhn_match
    folder = tmp_path / "hostile"
    folder.mkdir()
    lines = Path(doc["jsonl"]).read_text().splitlines()[:40]
    (folder / "m.jsonl").write_text("".join(line.replace('"random"', json.dumps(HOSTILE)) + "\n" for line in lines))
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(folder), "-o", str(report)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for address in (report.as_uri(), serve(folder) + "#/match/m"):
        browser.get(address)
        wait_for(browser, "[data-testid=agents] tr[data-agent]")
        assert HOSTILE in text_of(browser, "[data-testid=agents]")
        assert browser.title != "pwned"


def test_a_report_of_one_match_in_a_subfolder_opens_on_it(browser: Any, kuhn_match: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """The report opened on '#/match/' + the key unencoded: a match in a subfolder ('sub/m') said 'not
    included in this report', one named 'bot 100%' stayed at 'loading…' (URIError)."""
    _, doc = kuhn_match
    lines = Path(doc["jsonl"]).read_text().splitlines(keepends=True)[:30]
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "sub" / "bot 100%.jsonl").write_text("".join(lines))
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(tmp_path / "in"), "-o", str(report)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    browser.get(report.as_uri())
    wait_for(browser, "[data-testid=agents] tr[data-agent]")
    assert "30 hands" in text_of(browser, "[data-testid=hands]")
