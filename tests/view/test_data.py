"""The view's data layer without a browser: finding matches, summaries, the hand list, replays, reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from showdown.api import run_match
from showdown.view.data import LogFollower, ViewError, discover, hand_list, hand_replay, match_summary


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("m")
    run_match("leduc", ["rules", "random"], hands=400, seed=7, out=out)
    return out


def test_a_finished_match_opens_from_its_result_file(played: Path) -> None:
    catalog = discover([played])
    (key, files), = catalog.matches.items()
    assert files.result is not None and files.jsonl is not None and files.log is not None
    doc = match_summary(files)
    result = json.loads(files.result.read_text())
    assert doc["agents"] == result["agents"] and doc["estimator"] == result["estimator"]
    series = doc["series"]
    assert series["hands"] == 400 and series["points"][-1][0] == 400
    assert series["points"][-1][1] == [a["total"] for a in doc["agents"]]


def test_without_a_result_file_the_log_is_summarised(played: Path) -> None:
    (_, files), = discover([played]).matches.items()
    files.result = None
    doc = match_summary(files)
    assert doc["estimator"] == "plain" and doc["hands"] == 400 and doc["finished"]
    totals = json.loads(Path(str(files.jsonl)).read_text().splitlines()[-1])["totals"]
    assert [a["total"] for a in doc["agents"]] == totals


def test_a_follower_reads_only_complete_lines(tmp_path: Path, played: Path) -> None:
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_bytes().splitlines(keepends=True)
    log = tmp_path / "growing.jsonl"
    log.write_bytes(b"".join(lines[:10]) + lines[10][:20])
    f = LogFollower(log)
    assert f.poll() == 10 and f.torn
    log.write_bytes(b"".join(lines[:25]))
    assert f.poll() == 15 and not f.torn and f.hands == 25


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_a_follower_refuses_a_value_that_is_not_a_finite_number(tmp_path: Path, played: Path, bad: str) -> None:
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_text().splitlines(keepends=True)
    rec = json.loads(lines[3])
    lines[3] = json.dumps(rec).replace(json.dumps(rec["values"]), f"[{bad}, 0]") + "\n"
    log = tmp_path / "tampered.jsonl"
    log.write_text("".join(lines[:10]))
    with pytest.raises(ViewError, match="finite values"):
        LogFollower(log).poll()


def test_hand_list_filters_and_pages(played: Path) -> None:
    (_, files), = discover([played]).matches.items()
    first = hand_list(files, limit=30)
    assert len(first["hands"]) == 30 and first["next"] is not None
    second = hand_list(files, start=first["next"], limit=30)
    assert second["hands"][0]["hand"] == 30
    folded = hand_list(files, showdown=False, limit=200)["hands"]
    assert folded and all("f" in h["betting"] for h in folded)
    big = hand_list(files, min_won=5, limit=200)["hands"]
    assert big and all(h["won"] >= 5 for h in big)
    mine = hand_list(files, agent="rules", position=1, limit=200)["hands"]
    assert mine and all(h["players"][1] == "rules" for h in mine)


def test_replay_follows_the_rules(played: Path) -> None:
    (_, files), = discover([played]).matches.items()
    hand = next(h for h in hand_list(files, limit=200)["hands"] if h["betting"].count("/") == 1 and "r" in h["betting"])
    replay = hand_replay(files, hand["offset"])
    steps = replay["steps"]
    assert len(steps) == len(hand["betting"].replace("/", "")) + 1
    assert steps[0]["pot"] == 2 and steps[-1]["board"][-1] == hand["board"][-1]
    assert all(b["pot"] >= a["pot"] for a, b in zip(steps, steps[1:]))
    with pytest.raises(ViewError, match="no hand at byte"):
        hand_replay(files, hand["offset"] + 1)


def test_report_embeds_everything(played: Path) -> None:
    pytest.importorskip("aiohttp")
    from showdown.view.report import build_report

    html, counts = build_report([played], hands=20)
    assert counts == {"matches": 1, "tournaments": 0}
    assert "/static/" not in html and "window.SHOWDOWN_EMBEDDED = {" in html
    with pytest.raises(ViewError, match="no match logs"):
        build_report([played / "nothing"] if (played / "nothing").mkdir() is None else [])


def test_match_with_view_serves_it_live_then_stops_on_ctrl_c(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp")
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "20000", "--out", str(tmp_path),
         "--view", "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("view at http://127.0.0.1:"), line
        url = line.split()[2]
        deadline = time.monotonic() + 60
        while True:
            index = json.loads(urllib.request.urlopen(url + "api/index").read())
            if index["matches"]:
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert "stays up" in proc.stderr.readline()  # the match is over; the view is still there
        key = index["matches"][0]["key"]
        doc = json.loads(urllib.request.urlopen(f"{url}api/match?key={key}").read())
        assert doc["hands"] == 20000 and doc["finished"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert proc.stdout is not None and "chips/100" in proc.stdout.read()
    finally:
        proc.kill()
