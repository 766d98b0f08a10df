"""Log analysis: reference logs reproduce their SCORE lines, JSON Lines logs, duplicate pairing, the command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.errors import ShowdownError
from showdown.evaluation.aivat import AivatEstimator
from showdown.evaluation.analysis_output import analysis_json, format_analysis
from showdown.evaluation.analyze import analyze
from showdown.evaluation.hand_table import HandCollector
from showdown.evaluation.log_reading import read_logs
from showdown.games.catalog import get_game
from showdown.protocol.logfile import HandRecord, parse_log

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
REFERENCE_LOGS = sorted(DATA.glob("*.log"))


@pytest.mark.parametrize("path", REFERENCE_LOGS, ids=[p.name for p in REFERENCE_LOGS])
def test_reference_logs_reproduce_their_score_totals_exactly(path: Path) -> None:
    logs = read_logs([path])
    assert len(logs.scores) == 1
    score = logs.scores[0][1]
    totals = dict(zip(logs.table.names, logs.table.totals()))
    assert totals == dict(zip(score.names, score.totals))  # exact, not approximately
    a = analyze(logs.table)
    assert dict(zip(a.names, a.totals)) == dict(zip(score.names, score.totals))
    assert [e.total for e in a.agents] == [totals[n] for n in a.names]
    assert a.hands == len(parse_log(path.read_text().splitlines()).hands)


def test_hold_em_figures_are_also_in_milli_big_blinds() -> None:
    path = DATA / "holdem.limit.2p.reverse_blinds.1000h.seed0.log"
    logs = read_logs([path])
    assert logs.game is not None and logs.game.big_blind == 10
    a = analyze(logs.table, big_blind=10, show_mbb=True)
    alice = a.agents[a.names.index("Alice")]
    assert alice.mbb == pytest.approx(1000 * 500 / (1000 * 10))  # SCORE 500 over 1000 hands
    assert "mbb/hand" in format_analysis(a)


def test_json_lines_logs_give_the_same_figures_as_the_acpc_log(tmp_path: Path) -> None:
    log = parse_log((DATA / "leduc.limit.2p.1000h.seed0.log").read_text().splitlines())
    jsonl = tmp_path / "m.jsonl"
    names = ["Alice", "Bob"]
    with jsonl.open("w") as f:
        for h in log.hands:
            seats = tuple(names.index(n) for n in h.names)
            rec = HandRecord(h.hand, "leduc", h.names, seats, h.hole, h.board, h.betting_text, h.values)
            f.write(rec.to_json() + "\n")
        f.write(json.dumps({"summary": True, "names": names, "totals": [-267, 267]}) + "\n")
    a = analyze(read_logs([jsonl]).table)
    b = analyze(read_logs([DATA / "leduc.limit.2p.1000h.seed0.log"]).table)
    assert a.names == b.names and a.totals == b.totals
    for x, y in zip(a.agents + a.positions, b.agents + b.positions):
        assert x.mean == pytest.approx(y.mean) and x.se == pytest.approx(y.se)
    assert read_logs([jsonl]).game == get_game("leduc")


def test_duplicate_pairing_by_hand() -> None:
    # Two halves of 4 deals each; deal luck: position 0 wins the deal's amount d = 4, -2, 6, 0.
    # Agent x is a little better than y: +1 whichever position it holds. Paired, the luck cancels.
    c = HandCollector()
    luck = [4.0, -2.0, 6.0, 0.0]
    for half, (first, second) in enumerate((("x", "y"), ("y", "x"))):
        for h, d in enumerate(luck):
            players = (first, second) if h % 2 == 0 else (second, first)
            v0 = d + (1.0 if players[0] == "x" else -1.0)
            c.add(h, players, (v0, -v0), half=half)
    t = c.table()
    a = analyze(t, estimator="duplicate")
    x = a.agents[a.names.index("x")]
    # per deal, x holds position 0 in one half and position 1 in the other: (d + 1 + (-d + 1)) / 2 = 1
    # 4 deals that happen to agree show no spread: no interval, not a zero-wide one (nor "exact")
    assert a.paired and a.deals == 4 and x.mean == pytest.approx(1.0) and x.se is None
    assert (a.plain_agents[a.names.index("x")].se or 0.0) > 0  # unpaired, the luck is noise
    assert a.agent_reduction(a.names.index("x")) is None
    diff = a.differences[0]
    assert (diff.a, diff.b) == ("x", "y") and diff.estimate.mean == pytest.approx(2.0)
    doc = analysis_json(a)
    assert doc["players"][0]["variance_reduction"] is None and doc["players"][0]["ci95"] is None and doc["deals"] == 4


def test_unpaired_hands_are_left_out_with_a_note() -> None:
    c = HandCollector()
    for half in (0, 1):
        for h in range(3 if half == 0 else 2):
            c.add(h, ("x", "y") if half == 0 else ("y", "x"), (1.0, -1.0), half=half)
    a = analyze(c.table(), estimator="duplicate")
    assert a.deals == 2 and any("1 hand without a partner" in n for n in a.notes)
    with pytest.raises(ShowdownError, match="at least two duplicate halves"):
        analyze(HandCollector().table(), estimator="duplicate")


def test_aivat_on_a_reference_log_with_known_strategies() -> None:
    game = get_game("kuhn")
    est = AivatEstimator(game)
    logs = read_logs([DATA / "kuhn.limit.2p.1000h.seed0.log"], encoder_for=lambda g: est)
    from showdown.evaluation.aivat import known_strategy

    random_strategy = known_strategy("random", game)[0]
    est.set_strategies([random_strategy, None])  # Alice "random", Bob unknown
    a = analyze(logs.table, estimator="aivat", aivat=est)
    assert a.estimator == "aivat" and a.known in ((), ("Alice",))
    assert a.totals == [-31.0, 31.0]


# ----------------------------------------------------------------------------- the command


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "showdown", "analyze", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--json"]) == 0
    best = json.loads(capsys.readouterr().out)
    assert best["estimator"] == "chance"  # the best that applies to unknown strategies: the cards' luck out
    assert best["players"][0]["total"] == -31  # the chips really won, whatever the estimator
    # a position's total too (it was the chance estimator's sum, where the table says the chips)
    states = [line.split(":") for line in (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().splitlines()
              if line.startswith("STATE:")]
    chips = [sum(float(s[-2].split("|")[p]) for s in states) for p in (0, 1)]
    assert [p["total"] for p in best["positions"]] == chips
    assert main(["analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--json", "--estimator", "plain"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in doc["players"]] == ["Alice", "Bob"]
    for row in doc["players"]:
        assert set(row) >= {"name", "hands", "total", "per100", "ci95"}
    assert [p["position"] for p in doc["positions"]] == [0, 1]
    assert doc["players"][0]["total"] == -31 and doc["players"][0]["hands"] == 1000
    assert doc["players"][0]["per100"] == pytest.approx(-3.1)
    lo, hi = doc["players"][0]["ci95"]
    assert lo < -3.1 < hi
    assert doc["differences"][0]["p_value"] == pytest.approx(0.569, abs=1e-3)


def test_cli_table_and_several_logs(capsys: pytest.CaptureFixture[str]) -> None:
    logs = [str(DATA / "kuhn.limit.2p.fixed_seats.log"), str(DATA / "kuhn.limit.2p.resumed_with_tlog.log")]
    assert main(["analyze", *logs]) == 0
    out = capsys.readouterr().out
    assert "Player1" in out and "P1" in out and "position 0" in out and "12 hands" in out


def test_cli_known_strategy_gives_aivat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--known", "Alice=random", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["estimator"] == "aivat" and doc["known_strategies"] in (["Alice"], [])


def test_a_player_given_twice_with_known_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--known Alice=random --known Alice=call took the last silently (then dropped it: 'Alice played
    an action its strategy never plays'), exit 0."""
    assert main(["analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--known", "Alice=random", "--known", "Alice=call"]) == 2
    assert capsys.readouterr().err == ("showdown analyze: error: --known Alice=call: 'Alice' is given twice; "
                                       "give each player's strategy once\n")


def test_known_strategies_in_a_game_aivat_cannot_hold_say_why_on_the_estimator_line(capsys: pytest.CaptureFixture[str]) -> None:
    """With --known given, the line said 'a log does not say which strategies played; give --known
    NAME=AGENT to use AIVAT' (and a note at the end that AIVAT was not possible)."""
    log = DATA / "holdem.limit.2p.reverse_blinds.1000h.seed0.log"
    names = read_logs([log]).table.names
    assert main(["analyze", str(log), "--known", f"{names[0]}=call"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    # and the next best estimator, as without --known (it was plain: the logs had been read without chance)
    assert line.startswith("estimator: chance (--known is not used: AIVAT needs a game the exact solvers hold: ")
    assert "give --known" not in line


def test_cli_errors_are_one_line() -> None:
    run = run_cli("/nonexistent.log")
    assert run.returncode == 2 and "no such log file" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    run = run_cli(str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--known", "Carol=random")
    assert run.returncode == 2 and "not in the logs" in run.stderr


def test_plot_draws_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "w.png"
    assert main(["analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_of_many_hands_draws_a_bounded_number_of_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A million-hand log's chart handed matplotlib a million points per line and band (analyze
    --plot: 463 MB and 40 s against 171 MB and 22 s without it): now each stretch's extremes."""
    pytest.importorskip("matplotlib")
    import numpy as np

    from showdown.cli import plots
    from showdown.evaluation.hand_table import HandTable

    n = 200_000
    rng = np.random.default_rng(1)
    v = rng.choice([-2.0, -1.0, 1.0, 2.0], size=n)
    seats = np.tile(np.array([[0, 1], [1, 0]]), (n // 2, 1))
    table = HandTable(("a", "b"), 2, seats, np.stack([v, -v], axis=1), np.arange(n), np.zeros(n, dtype=np.int64),
                      np.zeros((n, 2), dtype=bool))
    drawn: list[object] = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, path, dpi: drawn.append(fig) or Path(path))
    plots.plot_cumulative(table, tmp_path / "w.png")
    lines = drawn[0].axes[0].get_lines()  # type: ignore[attr-defined]
    own = np.where(seats[:, 0] == 0, v, -v)
    for line, total in zip(lines[:2], (np.cumsum(own), np.cumsum(-own))):
        x, y = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        assert len(x) <= 2 * plots.MAX_DRAWN + 2 and x[-1] == n and y[-1] == total[-1]
        assert y.max() == total.max() and y.min() == total.min()  # the extremes are drawn
        assert np.array_equal(y, total[x - 1])


def test_plot_without_matplotlib_is_one_clear_line(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from showdown.cli import main\n"
        f"sys.exit(main(['analyze', {str(DATA / 'kuhn.limit.2p.1000h.seed0.log')!r}, '--plot', {str(tmp_path / 'x.png')!r}]))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "matplotlib" in lines[0] and "pip install" in lines[0]
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("path, said", [
    ("", "an empty path where a log file was expected"),  # was 'no such log file: .'
    ("{tmp}", "{tmp} is a folder: give the log files in it ({tmp}/*.log)"),  # was 'no such log file: {tmp}'
    ("/dev/null", "/dev/null is not a regular file (a device or a pipe)"),  # was 'no such log file: /dev/null'
])
def test_a_path_that_is_there_but_no_log_file_is_said_as_such(tmp_path: Path, path: str, said: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", path.format(tmp=tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said.format(tmp=tmp_path) in err and len(err.strip().splitlines()) == 1


def test_a_folder_whose_logs_lie_deeper_is_given_the_pattern_that_names_them(tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A tournament's folder said 'give the log files in it (t/*.log)', a pattern that named no file:
    its logs are in matches/<match>/."""
    match = tmp_path / "t" / "matches" / "a-vs-b"
    match.mkdir(parents=True)
    shutil.copy(DATA / "kuhn.limit.2p.1000h.seed0.log", match / "a-vs-b.dup0.log")
    assert main(["analyze", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert f"give the log files in it ({tmp_path}/t/*/*/*.log)" in err
    assert main(["analyze", *map(str, (tmp_path / "t").glob("*/*/*.log"))]) == 0


def test_the_table_lines_up_with_wide_and_combining_characters_in_names(tmp_path: Path) -> None:
    # a label of wide (CJK) characters was padded by characters, not terminal columns: 规则's row stood
    # two columns right of the others (the match, analyze and tournament tables alike)
    from showdown.evaluation.numbers import width
    from showdown.matches.tournament_results import _aligned

    log = parse_log((DATA / "leduc.limit.2p.1000h.seed0.log").read_text().splitlines())
    jsonl = tmp_path / "m.jsonl"
    names = ["规则", "Zufa\u0308llig"]
    with jsonl.open("w") as f:
        for h in log.hands:
            rec = HandRecord(h.hand, "leduc", tuple(names[["Alice", "Bob"].index(n)] for n in h.names),
                             tuple(["Alice", "Bob"].index(n) for n in h.names), h.hole, h.board, h.betting_text, h.values)
            f.write(rec.to_json() + "\n")
    table = format_analysis(analyze(read_logs([jsonl]).table)).splitlines()
    rows = [line for line in table if line.startswith(("规则", "Zufa", "position 0")) and ":" not in line]
    totals = [r.split()[2 if r.startswith("position") else 1] for r in rows]
    assert len(rows) == 3 and len({width(r[: r.index(t) + len(t)]) for r, t in zip(rows, totals)}) == 1, table
    lines = _aligned([["", "a"], ["规则", "+1"], ["call", "+22"]], 1)
    assert len({width(line) for line in lines}) == 1, lines


def test_cli_json_gives_mbb_per_hand_in_every_game_as_match_json_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`analyze --json` of a Kuhn match's log had no mbb_per_hand/ci95_mbb, which the match's --json gives."""
    assert main(["match", "kuhn", "rules", "random", "--hands", "60", "--in-memory", "--jobs", "1", "--estimator", "plain",
                 "--out", str(tmp_path), "--name", "m", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["analyze", str(tmp_path / "m.log"), "--estimator", "plain", "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    for agent, player in zip(played["agents"], read["players"]):
        assert player["mbb_per_hand"] == pytest.approx(agent["mbb_per_hand"])
        assert player["ci95_mbb"] == pytest.approx(agent["ci95_mbb"])
    assert all("mbb_per_hand" in p and "ci95_mbb" in p for p in read["positions"])


def test_corrections_all_alike_are_no_evidence_against_the_strategies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`showdown match kuhn bluff call --hands 2 --seed 1` (AIVAT, both strategies known) said 'the chips
    won disagree with the known strategies (p = 0) ... check the agents': the two hands' corrections were
    both -2, a spread of 0 read as certainty. Corrections that agree tell nothing of their spread: no p-value
    and no alarm; corrections of exactly 0 (up to round-off) still agree with the strategies."""
    from showdown.evaluation.analyze import aivat_notes, zero_mean_p

    assert zero_mean_p(2, -2.0, 0.0) is None and zero_mean_p(5, 1e-15, 0.0) == 1.0
    assert zero_mean_p(1000, 0.5, 1.0) == pytest.approx(0.0, abs=1e-30)  # a real disagreement is still told
    assert aivat_notes(zero_mean_p(2, -2.0, 0.0), [], ("bluff", "call"), 0) == []
    assert main(["match", "kuhn", "bluff", "call", "--hands", "2", "--seed", "1", "--in-memory", "--json", "--out", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["consistency_p"] is None and not any("disagree" in n for n in doc.get("notes", []))


def test_many_logs_are_named_by_their_number_on_the_first_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tournament's 28 logs were named one after the other on the table's first line (2,000 characters)."""
    logs = []
    for k in range(12):
        log = tmp_path / f"m{k:02}.log"
        lines = (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().splitlines(keepends=True)
        log.write_text("".join(line.replace("Alice", f"A{k}") for line in lines[:40 + k]))
        logs.append(str(log))
    assert main(["analyze", *logs]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith(f"12 logs ({logs[0]} ... {logs[-1]}): ") and len(head) < 300
