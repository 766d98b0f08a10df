"""The view's data layer without a browser: finding matches, summaries, the hand list, replays, reports."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from showdown.api import run_match
from showdown.protocol import lines as line_reader
from showdown.view import data
from showdown.view.catalog import ViewError, discover
from showdown.view.data import LogFollower, match_summary
from showdown.view.hands import hand_list, hand_replay
from tests.conftest import DATA


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


def test_a_follower_reads_a_log_written_anew_from_its_start(tmp_path: Path, played: Path) -> None:
    """A log written anew under its name (match --force, a shorter match) kept the live page on the
    old figures: it read on from the old offset, so it never saw the new match's hands nor its end."""
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_bytes().splitlines(keepends=True)
    log = tmp_path / "m.jsonl"
    log.write_bytes(b"".join(lines[:30]))
    f = LogFollower(log)
    assert f.poll() == 30
    log.write_bytes(b"".join(lines[:5]))  # truncated and written again
    assert f.poll() == 5 and f.hands == 5
    fresh = tmp_path / "new.jsonl"
    fresh.write_bytes(b"".join(lines[:40]) + lines[-1])  # a new file moved over it, ending with its summary
    fresh.replace(log)
    assert f.poll() == 40 and f.hands == 40 and f.finished is not None


def test_a_follower_reads_a_grown_log_a_chunk_at_a_time(tmp_path: Path, played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the rest of a growing log was read at once (a 1 GB log, a GB of memory); now a line at a time, _BATCH lines taken at once
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_bytes().splitlines(keepends=True)
    log = tmp_path / "growing.jsonl"
    log.write_bytes(b"".join(lines[:30]) + lines[30][:20])
    monkeypatch.setattr(data, "_BATCH", 7)
    f = LogFollower(log)
    assert f.poll() == 30 and f.torn and f.hands == 30
    assert f.offset == len(b"".join(lines[:30]))
    whole = LogFollower(files.jsonl)
    whole.poll()
    grown = LogFollower(files.jsonl)
    monkeypatch.setattr(data, "_BATCH", 4096)
    grown.poll()
    assert whole.summary() == grown.summary()


def test_a_follower_refuses_a_line_with_no_end_without_holding_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "endless.jsonl"
    log.write_bytes(b'{"hand": ' + b"1" * 5000)
    monkeypatch.setattr(line_reader, "MAX_LOG_LINE", 2000)
    with pytest.raises(ViewError, match=r"endless.jsonl: a line of more than 2,000 bytes past byte 0"):
        LogFollower(log).poll()


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_a_follower_refuses_a_value_that_is_not_a_finite_number(tmp_path: Path, played: Path, bad: str) -> None:
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_text().splitlines(keepends=True)
    rec = json.loads(lines[3])
    lines[3] = json.dumps(rec).replace(json.dumps(rec["values"]), f"[{bad}, 0]") + "\n"
    log = tmp_path / "tampered.jsonl"
    log.write_text("".join(lines[:10]))
    with pytest.raises(ViewError, match="is not a finite number"):
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


def test_a_report_of_files_with_no_hand_is_an_error_saying_why(tmp_path: Path) -> None:
    """An empty or garbled log gave an empty report ('0 match(es)', exit 0); a folder with none already was an error."""
    pytest.importorskip("aiohttp")
    from showdown.view.report import build_report

    empty, junk = tmp_path / "empty.log", tmp_path / "junk.jsonl"
    empty.write_text("")
    junk.write_text("garbage\n")
    with pytest.raises(ViewError, match="no match with a hand to show under .*empty.log: no hands in this log"):
        build_report([empty])
    with pytest.raises(ViewError, match="junk.jsonl: line 1.*not a showdown .jsonl log"):
        build_report([junk])


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


@pytest.fixture(scope="module")
def duplicate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dup")
    run_match("leduc", ["rules", "random"], hands=200, seed=3, out=out, duplicate=True)
    return out


def test_a_duplicate_half_shows_the_paired_figures_the_command_line_printed(duplicate: Path) -> None:
    """Each half used to show its own unpaired plain figures and "no result file yet"."""
    catalog = discover([duplicate])
    paired = json.loads((duplicate / "leduc.rules-random.seed3.result.json").read_text())
    assert paired["estimator"] != "plain" and paired["series"]["hands"] == 400  # both halves' hands
    for k in (0, 1):
        files = catalog.match(f"leduc.rules-random.seed3.dup{k}")
        assert files.result is None and files.finished
        doc = match_summary(files)
        assert [a["per100"] for a in doc["agents"]] == [a["per100"] for a in paired["agents"]]
        assert doc["estimator"] == paired["estimator"] and doc["half_of"] == "leduc.rules-random.seed3"
        assert doc["notes"][0].startswith(f"half {k + 1} of duplicate match leduc.rules-random.seed3")
        assert doc["series"]["hands"] == 200  # the chart is this half's
        assert hand_list(files, limit=5)["hands"]  # and so are the hands
    assert match_summary(catalog.match("leduc.rules-random.seed3"))["agents"] == paired["agents"]


def test_a_tournament_half_shows_its_matchs_paired_figures_and_is_finished(tmp_path: Path) -> None:
    from showdown.api import run_tournament

    table = run_tournament({"game": "kuhn", "hands": 100, "seed": 2, "duplicate": True, "out": str(tmp_path / "t"),
                            "agents": ["rules", "random", "call"]}, jobs=2)
    results = table.to_json()
    catalog = discover([tmp_path / "t"])
    halves = [f for f in catalog.matches.values() if ".dup" in f.title]
    assert len(halves) == 6 and all(f.finished for f in halves)
    for files in halves:
        doc = match_summary(files)
        entry = next(m for m in results["matches"] if files.title.startswith(m["id"] + ".dup"))
        assert {a["name"]: a["per100"] for a in doc["agents"]} == {n: r["per100"] for n, r in entry["results"].items()}
        assert doc["estimator"].startswith(entry["estimator"]) and "tournament match" in doc["notes"][0]


def test_a_match_still_running_is_not_finished(tmp_path: Path, played: Path) -> None:
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    lines = files.jsonl.read_bytes().splitlines(keepends=True)
    (tmp_path / "running.jsonl").write_bytes(b"".join(lines[:-1]))  # no summary record yet
    (running,) = discover([tmp_path]).matches.values()
    assert not running.finished
    (tmp_path / "running.jsonl").write_bytes(b"".join(lines))
    assert discover([tmp_path]).match("running").finished


def test_same_named_matches_from_different_folders_stay_apart(tmp_path: Path) -> None:
    for folder, hands in (("a", 30), ("b", 50)):
        run_match("kuhn", ["rules", "call"], hands=hands, out=tmp_path / folder / "out")
    catalog = discover([tmp_path / "a" / "out", tmp_path / "b" / "out"])
    keys = sorted(catalog.matches)
    assert len(keys) == 2 and keys[0] != keys[1]
    assert {catalog.matches[k].title for k in keys} == {"kuhn.rules-call.seed0"}
    assert sorted(catalog.matches[k].folder for k in keys) == [(tmp_path / f / "out").as_posix() for f in "ab"]
    assert sorted(match_summary(catalog.matches[k])["hands"] for k in keys) == [30, 50]
    one = discover([tmp_path])  # one root: the folders are part of the keys
    assert sorted(f.folder for f in one.matches.values()) == ["a/out", "b/out"]


def test_the_hand_list_refuses_a_line_of_no_end_without_holding_it(tmp_path: Path, played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the hand list read each line whole ('for raw in f'): a 200 MB line took 650 MB before its error
    from showdown.protocol import lines

    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    log = tmp_path / files.jsonl.name
    log.write_bytes(files.jsonl.read_bytes() + b'{"hand": ' + b"1" * 5000)
    (_, grown), = discover([tmp_path]).matches.items()
    monkeypatch.setattr(lines, "MAX_LOG_LINE", 2000)
    with pytest.raises(ViewError, match=r"\.jsonl:402: a line of more than 2,000 bytes"):
        hand_list(grown, min_won=10**9)


def test_a_pipe_among_the_logs_is_passed_over_and_a_pipe_given_is_one_line(tmp_path: Path) -> None:
    """A pipe named like a log (mkfifo out/x.log) in a folder held showdown view and report for ever
    as they opened it; given by name it was 'no match logs or tournaments under x.log'."""
    shutil.copy(DATA / "kuhn.limit.2p.fixed_seats.log", tmp_path / "m.log")
    os.mkfifo(tmp_path / "pipe.log")
    os.mkfifo(tmp_path / "pipe.jsonl")
    assert list(discover([tmp_path]).matches) == ["m"]
    with pytest.raises(ViewError, match=r"pipe.log is not a regular file \(a device or a pipe\)"):
        discover([tmp_path / "pipe.log"])


def test_a_link_out_of_the_folder_is_passed_over(tmp_path: Path) -> None:
    """A link x.log to /etc/passwd in a shared folder of logs was listed, and its page quoted the
    file's first line ('unexpected line 'root:x:0:0:...''); links within the folder still count."""
    shutil.copy(DATA / "kuhn.limit.2p.fixed_seats.log", tmp_path / "m.log")
    outside = tmp_path.parent / f"{tmp_path.name}-secret.log"
    outside.write_text("secret: the first line\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "secret.log").symlink_to(outside)
    (tmp_path / "logs" / "same.log").symlink_to(tmp_path / "m.log")
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "results.json").symlink_to(outside)
    assert sorted(discover([tmp_path]).matches) == ["logs/same", "m"] and not discover([tmp_path]).tournaments
    assert list(discover([outside]).matches) == [outside.stem]  # a file named is served, link or not


def test_a_game_file_beside_the_log_is_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match of a .game of its own names the copy beside its log ('m.game'), which the view looked
    for in the folder it was started from: the replayer and the page said 'unknown game' unless it was
    started in the log's folder."""
    from showdown.games.catalog import get_game
    from showdown.games.gamedef import format_gamedef
    from showdown.protocol.logfile import hand_json

    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "m.game").write_text(format_gamedef(get_game("kuhn")))
    (tmp_path / "logs" / "m.jsonl").write_text(hand_json(0, "m.game", ("a", "b"), (0, 1), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ()) + "\n")
    monkeypatch.chdir(tmp_path)
    (_, files), = discover([tmp_path / "logs"]).matches.items()
    assert match_summary(files)["hands"] == 1
    assert hand_replay(files, 0)["betting"] == "cc"


def test_a_jsonl_saved_with_a_byte_order_mark_is_followed_listed_and_replayed(played: Path, tmp_path: Path) -> None:
    """The line reader passes over the mark, so the byte offsets counted from its lines were 3 short:
    the live page's next poll read 3 bytes back ('bad hand record '}}\\n''), and the replayer found no
    hand at any listed offset but the first."""
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    (tmp_path / "m.jsonl").write_bytes(b"\xef\xbb\xbf" + files.jsonl.read_bytes())
    follower = LogFollower(tmp_path / "m.jsonl")
    assert follower.poll() == 400 and follower.poll() == 0
    (_, bom), = discover([tmp_path]).matches.items()
    listed = hand_list(bom, limit=200)["hands"]
    assert [hand_replay(bom, h["offset"])["hand"] for h in listed] == list(range(200))


def test_a_hand_of_other_players_than_the_matchs_is_refused_not_counted_to_the_first_ones(tmp_path: Path) -> None:
    """The follower takes the players by seat from the first hand; a later hand of others (a log of
    hand histories from elsewhere) had its winnings counted to the first hand's players, without a word."""
    from showdown.protocol.logfile import hand_json

    lines = [hand_json(0, "kuhn", ("a", "b"), (0, 1), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ()),
             hand_json(1, "kuhn", ("c", "d"), (0, 1), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ())]
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(ViewError, match=r"hand 1's players \(c, d\) are not the match's \(a, b\): .*showdown analyze"):
        LogFollower(tmp_path / "m.jsonl").poll()


def test_the_same_players_in_other_seats_are_followed_by_name(tmp_path: Path) -> None:
    """Two logs of one pair of players joined (or imported hands) with the seats swapped: the
    follower took the players by seat, and refused the second log's hands as 'other players'."""
    from showdown.protocol.logfile import hand_json

    lines = [hand_json(0, "kuhn", ("a", "b"), (0, 1), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ()),
             hand_json(1, "kuhn", ("b", "a"), (0, 1), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ()),
             hand_json(2, "kuhn", ("a", "b"), (1, 0), ((51,), (47,)), ((),), "cc", (1.0, -1.0), ())]
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    follower = LogFollower(tmp_path / "m.jsonl")
    assert follower.poll() == 3
    assert [(a["name"], a["total"]) for a in follower.summary()["agents"]] == [("a", 1.0), ("b", -1.0)]


def test_a_log_alone_that_ends_with_its_score_is_finished(tmp_path: Path) -> None:
    """A .log with no .jsonl beside it (the reference dealer's, or one 'showdown import' wrote) was
    listed as 'running, or stopped before its end' however it ended; its own page said finished."""
    lines = (DATA / "holdem.nolimit.2p.reverse_blinds.1000h.seed0.log").read_bytes().splitlines(keepends=True)
    (tmp_path / "ref.log").write_bytes(b"".join(lines))
    assert discover([tmp_path]).match("ref").finished
    (tmp_path / "ref.log").write_bytes(b"".join(lines[:-1]))  # the match still being played: no SCORE line yet
    assert not discover([tmp_path]).match("ref").finished


def test_a_long_reference_log_is_summarised_without_a_list_per_hand(tmp_path: Path) -> None:
    """A .log alone (the reference dealer's) made a Python list of every hand's seats and values for
    its chart: 'showdown report m.log' of 1,000,000 Kuhn hands took 339 MB where analyze takes 171."""
    import random
    import tracemalloc

    from showdown.evaluation.log_reading import read_logs

    rng = random.Random(1)
    hands = []
    for h in range(10_000):
        a, b = rng.sample(["Q", "K", "A"], 2)
        names = "a|b" if h % 2 == 0 else "b|a"
        won = "1|-1" if "QKA".index(a) > "QKA".index(b) else "-1|1"
        hands.append(f"STATE:{h}:cc:{a}s|{b}s:{won}:{names}\n")
    log = tmp_path / "m.log"
    log.write_text("# name/game/hands/seed m kuhn 10000 0\n" + "".join(hands))
    files = next(iter(discover([log]).matches.values()))
    match_summary(files)  # (imports and caches outside the measure)
    tracemalloc.start()
    try:
        read_logs([log])
        reading = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        doc = match_summary(files)
        summary = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert doc["hands"] == 10_000 and doc["series"]["points"][-1][0] == 10_000
    assert summary - reading < 100 * 10_000  # bytes a hand beyond reading the log (was 180; now 50)


def test_a_filter_that_stops_at_its_scan_limit_says_where_to_go_on(played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A filter matching nothing in a log's first 512 MB said there was no more ('next': null, 'no hand
    matches these filters'), though the rest of a long log was never looked at. Here the limit is 4 KB."""
    from showdown.view import hands as hand_pages

    (_, files), = discover([played]).matches.items()
    last = hand_list(files, limit=200, start=hand_list(files, limit=200)["next"])["hands"][-1]
    assert last["hand"] == 399
    monkeypatch.setattr(hand_pages, "MAX_SCAN_BYTES", 4096)
    wanted = {"min_won": last["won"], "agent": last["players"][0], "position": 0}
    found: list[int] = []
    page = hand_list(files, **wanted)
    pages = 1
    while page["next"] is not None:
        found += [h["hand"] for h in page["hands"]]
        page = hand_list(files, start=page["next"], **wanted)
        pages += 1
    found += [h["hand"] for h in page["hands"]]
    assert pages > 10 and 399 in found


def test_a_log_joined_with_itself_is_refused_not_shown_as_twice_the_hands(tmp_path: Path, played: Path) -> None:
    """'showdown report joined.jsonl' (a match's .jsonl twice in one file) showed 800 hands of
    figures where analyze refuses the same match read twice."""
    (_, files), = discover([played]).matches.items()
    assert files.jsonl is not None
    joined = tmp_path / "joined.jsonl"
    joined.write_bytes(files.jsonl.read_bytes() * 2)
    (_, twice), = discover([joined]).matches.items()
    with pytest.raises(ViewError, match="hand 0 after the match's summary record: two logs joined in one file"):
        match_summary(twice)
