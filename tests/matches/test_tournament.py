"""Tournaments: validation with line numbers, the round-robin plan, the ranking, and a real resumable run."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.evaluation.stats import Estimate
from showdown.matches.tournament import plan_matches, run_tournament
from showdown.matches.tournament_config import load_tournament_config
from showdown.matches.tournament_results import MatchOutcome, TournamentResult, _cell, combine, cross_table, format_tournament, ranking

ROOT = Path(__file__).resolve().parents[2]


def load_tournament_config_text(text: str) -> object:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return load_tournament_config(write(Path(folder), text))


def write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text,message",
    [
        ("game: kuhn\nhands: 10\nagents: [rules, bluff]\ncolour: red\n", r"t.yaml:4: colour: unknown key 'colour'"),
        ("game: kuhn\nagents: [rules, bluff]\n", r"t.yaml:1: missing key 'hands'"),
        ("game: nogame\nhands: 10\nagents: [rules, bluff]\n", r"t.yaml:1: game: unknown game 'nogame'"),
        ("game: kuhn\nhands: 0\nagents: [rules, bluff]\n", r"t.yaml:2: hands: expected an integer 1 to 4294967295"),
        ("game: kuhn\nhands: 10\nseed: -1\nagents: [rules, bluff]\n", r"t.yaml:3: seed: expected an integer 0 to"),
        ("game: kuhn\nhands: 10\nagents:\n  - rules\n  - nobody\n", r"t.yaml:5: agents\[1\]: unknown agent 'nobody'"),
        (
            "game: kuhn\nhands: 10\nagents:\n  - rules\n  - name: random\n    options: {sizing: huge}\n",
            r"t.yaml:5: agents\[1\]: random agent: sizing 'huge'",
        ),
        ("game: kuhn\nhands: 10\nagents:\n  - rules\n  - {name: call, seed: x}\n", r"t.yaml:5: agents\[1\].seed"),
        ("game: kuhn\nhands: 10\nagents: [rules]\n", r"t.yaml:3: agents: .*needs at least 2 agents"),
        ("game: kuhn3p\nhands: 10\nagents: [rules, bluff]\n", r"agents: .*needs at least 3 agents"),
        ("game: kuhn\nhands: 10\nestimator: duplicate\nagents: [rules, bluff]\n", r"t.yaml:3: estimator: .*needs 'duplicate: true'"),
        ("game: holdem-limit\nhands: 10\nestimator: aivat\nagents: [rules, call]\n", r"t.yaml:3: estimator: AIVAT needs"),
        ("game: kuhn3p\nhands: 10\nestimator: chance\nagents: [rules, call, bluff]\n",
         r"t.yaml:3: estimator: chance corrections handle 2-player games \(kuhn3p has 3\)"),
        ("game: kuhn\nhands: 10\nduplicate: maybe\nagents: [rules, bluff]\n", r"t.yaml:3: duplicate: expected true or false"),
        ("game: kuhn\nhands: 10\ndealer: {on_timeout: explode}\nagents: [rules, bluff]\n", r"t.yaml:3: dealer.on_timeout"),
        ("game: kuhn\nhands: [10\n", r"t.yaml:3: not valid YAML"),
        # a match file's keys were 'unknown' ('name': did you mean 'game'?), an empty file 'got NoneType'
        ("game: kuhn\nhands: 10\nagents: [rules, bluff]\nname: mine\n",
         r"t.yaml:4: name: 'name' is a key of a match file, not of a tournament file \(a tournament's keys: address, agents"),
        ("game: kuhn\nhands: 10\nagents: [rules, bluff]\nfixed-seats: true\n", r"t.yaml:4: fixed-seats: 'fixed-seats' is a key of a match"),
        ("game: kuhn\nhands: 10\nagents: [rules, bluff]\nresume: true\n", r"t.yaml:4: resume: a tournament needs no 'resume'"),
        ("# nothing yet\n", r"t.yaml: the file is empty: a tournament needs game, agents and hands"),
        ("- kuhn\n", r"t.yaml:1: expected a mapping of settings"),
        # a label equal to another agent's name: both were renamed 'rules-1' and 'rules-2' in the tables,
        # and nothing said which one was the 'call' agent labelled 'rules'
        ("game: kuhn\nhands: 10\nagents:\n  - rules\n  - {name: call, label: rules}\n",
         r"t.yaml:5: agents\[1\].label: 'rules' is also the name of agents\[0\]; give each agent its own label"),
        ("game: kuhn\nhands: 10\nagents:\n  - {name: call, label: x}\n  - {name: rules, label: x}\n",
         r"t.yaml:4: agents\[0\].label: 'x' is also the name of agents\[1\]"),
        # a YAML bomb in a tournament file (match files share the reader: tests/matches/test_config.py)
        ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(f"a{i}: &a{i} [{', '.join(['*a' if i == 1 else f'*a{i - 1}'] * 10)}]\n"
                                                            for i in range(1, 8)), r"t.yaml:\d+: this value holds more than 100,000 values"),
    ],
)
def test_bad_configs_name_the_line_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_tournament_config(write(tmp_path, text))


def test_a_valid_config(tmp_path: Path) -> None:
    cfg = load_tournament_config(
        write(tmp_path, "game: kuhn\nhands: 50\nduplicate: true\nseed: 3\njobs: 1\nagents: [random, random, {command: ./bot, label: b}]\n")
    )
    assert cfg.labels == ("random-1", "random-2", "b") and cfg.duplicate and cfg.jobs == 1
    assert cfg.out == Path("t")  # default: the file's name, in the current directory


def test_round_robin_plans_every_pair_or_every_seating(tmp_path: Path) -> None:
    two = load_tournament_config(write(tmp_path, "game: kuhn\nhands: 5\nduplicate: true\nagents: [rules, bluff, call, random]\n"))
    matches = plan_matches(two)
    assert [m.id for m in matches][:3] == ["rules-vs-bluff", "rules-vs-call", "rules-vs-random"]
    assert len(matches) == 6 and all(len(m.halves) == 2 for m in matches)
    assert len({m.seed for m in matches}) == 6  # independent deals per match
    m = matches[0]
    assert [a.label for a in m.halves[1].agents] == ["bluff", "rules"] and m.halves[0].seed == m.halves[1].seed
    three = load_tournament_config(write(tmp_path, "game: kuhn3p\nhands: 5\nagents: [rules, bluff, call, random]\n", "t3.yaml"))
    plan3 = plan_matches(three)
    assert len(plan3) == 4 * 2  # each of the 4 triples in both cyclic orders
    seatings = {tuple(a.label for a in m.halves[0].agents) for m in plan3}
    assert ("rules", "bluff", "call") in seatings and ("rules", "call", "bluff") in seatings
    dup3 = load_tournament_config(write(tmp_path, "game: kuhn3p\nhands: 5\nduplicate: true\nagents: [rules, bluff, call]\n", "t4.yaml"))
    halves = [tuple(a.label for a in h.agents) for m in plan_matches(dup3) for h in m.halves]
    assert len(halves) == 6 and len(set(halves)) == 6  # all six seatings


def est(mean: float, se: float = 0.1, hands: int = 100) -> Estimate:
    return Estimate(hands, mean * hands, mean, se)


def test_combining_and_ranking_by_instant_runoff() -> None:
    # a beats b and c a little; c crushes b; by total bankroll c is first, by runoff a
    outcomes = [
        MatchOutcome("a-b", (0, 1), {0: est(0.1), 1: est(-0.1)}, {}, "plain", 100, False, []),
        MatchOutcome("a-c", (0, 2), {0: est(0.1), 2: est(-0.1)}, {}, "plain", 100, False, []),
        MatchOutcome("b-c", (1, 2), {1: est(-1.0), 2: est(1.0)}, {}, "plain", 100, False, []),
    ]
    table = cross_table(outcomes, 3)
    assert table[0][1].mean == 0.1 and table[2][1].mean == 1.0 and table[1][1] is None  # type: ignore[union-attr]
    ranks = ranking(table)
    assert [r[0] for r in ranks] == [0, 2, 1] and [r[4] for r in ranks] == [1, 2, 3]
    assert ranks[1][1].mean == pytest.approx(0.45)  # c against the field: (-0.1 + 1.0) / 2
    c = combine([est(1.0, 0.3), est(3.0, 0.4)], equal_weights=True)
    assert c.mean == 2.0 and c.se == pytest.approx(0.25)
    pooled = combine([est(1.0, 0.3, 100), est(3.0, 0.4, 300)])
    assert pooled.mean == pytest.approx(2.5) and pooled.hands == 400


def test_exact_ties_share_a_rank_but_exact_differences_never_do() -> None:
    """Exact values (AIVAT with every strategy known) differing by round-off tie; by 1e-6 chips a
    hand (a CFR strategy off equilibrium) they are separated, however small: ranks differ."""

    def table(gap: float) -> list[tuple[int, int]]:
        outcomes = [
            MatchOutcome("a-b", (0, 1), {0: est(gap, 0.0), 1: est(-gap, 0.0)}, {}, "aivat", 100, True, []),
            MatchOutcome("a-c", (0, 2), {0: est(0.5, 0.0), 2: est(-0.5, 0.0)}, {}, "aivat", 100, True, []),
            MatchOutcome("b-c", (1, 2), {1: est(0.2, 0.0), 2: est(-0.2, 0.0)}, {}, "aivat", 100, True, []),
        ]
        return [(r[0], r[4]) for r in ranking(cross_table(outcomes, 3))]

    assert table(1e-13) == [(0, 1), (1, 1), (2, 3)]
    assert table(1e-6) == [(0, 1), (1, 2), (2, 3)]


def test_sampled_scores_closer_than_the_tie_share_a_rank() -> None:
    outcomes = [
        MatchOutcome("a-b", (0, 1), {0: est(1e-6), 1: est(-1e-6)}, {}, "plain", 100, False, []),
        MatchOutcome("a-c", (0, 2), {0: est(0.5), 2: est(-0.5)}, {}, "plain", 100, False, []),
        MatchOutcome("b-c", (1, 2), {1: est(0.5), 2: est(-0.5)}, {}, "plain", 100, False, []),
    ]
    assert [(r[0], r[4]) for r in ranking(cross_table(outcomes, 3))] == [(0, 1), (1, 1), (2, 3)]


def test_the_tables_keep_the_sign_and_the_digits_that_are_significant() -> None:
    """cfr's exact -0.00088 chips/100 against equilibrium reads -0.0009, not +0.00; sampled cells keep two decimals."""
    outcomes = [
        MatchOutcome("eq-cfr", (0, 1), {0: est(8.8e-6, 0.0), 1: est(-8.8e-6, 0.0)}, {}, "aivat", 3000, True, []),
        MatchOutcome("eq-r", (0, 2), {0: est(0.0, 0.0), 2: est(0.0, 0.0)}, {}, "aivat", 3000, True, []),
        MatchOutcome("cfr-r", (1, 2), {1: est(-2.7e-5, 0.0), 2: est(2.7e-5, 0.0)}, {}, "aivat", 3000, True, []),
    ]
    cfg = load_tournament_config_text("game: kuhn\nhands: 3000\nagents: [equilibrium, cfr, rules]\n")
    table = cross_table(outcomes, 3)
    result = TournamentResult(cfg, outcomes, table, ranking(table), 3, True, 1.0, 3)
    text = format_tournament(result)
    assert "-0.0009 ±0.0000*" in text and "+0.0009 ±0.0000*" in text and "+0.00 ±0.00" not in text
    ranks = {line.split()[1]: line.split()[0] for line in text.splitlines() if line[:2] in ("1=", "1.", "2.", "3.")}
    assert ranks == {"equilibrium": "1=", "rules": "1=", "cfr": "3."}
    assert _cell(est(-0.01, 0.5), 2) == "-1.00 ±98.00 "


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}


def test_a_small_tournament_runs_writes_results_and_resumes(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"game: kuhn\nhands: 150\nduplicate: true\nseed: 2\njobs: 2\nout: {tmp_path / 'out'}\nestimator: duplicate\n"
        "agents: [rules, bluff, random]\n",
    )
    cfg = load_tournament_config(path)
    result = run_tournament(cfg, progress=False)
    assert result.complete and result.played_now == 6 and len(result.outcomes) == 3
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    assert doc["complete"] and len(doc["matches"]) == 3 and doc["matches"][0]["estimator"] == "duplicate"
    assert set(doc["cross_table"]["rules"]) == {"bluff", "random"}
    assert [r["rank"] for r in doc["ranking"]] == [1, 2, 3]
    # Bradley-Terry ratings beside the runoff, and significance per cross-table cell
    assert {r["agent"] for r in doc["ratings"]} == {"rules", "bluff", "random"}
    assert all(isinstance(r["elo"], float) and r["elo_ci95"][0] <= r["elo"] <= r["elo_ci95"][1] for r in doc["ratings"])
    cell = doc["cross_table"]["rules"]["random"]
    assert cell["significant"] == (cell["ci95"][0] > 0 or cell["ci95"][1] < 0)
    assert "Elo" in format_tournament(result)
    assert all(Path(log).exists() for m in doc["matches"] for log in m["logs"])
    assert len(list((tmp_path / "out" / "matches").glob("*/*.log"))) == 6
    # the same command again: nothing is replayed, the same figures come out
    again = run_tournament(cfg, progress=False)
    assert again.played_now == 0 and again.complete
    assert json.loads((tmp_path / "out" / "results.json").read_text())["cross_table"] == doc["cross_table"]
    # changed settings: refused, the earlier logs kept; with force the affected matches are replayed
    path.write_text(path.read_text().replace("hands: 150", "hands: 120"))
    logs = {p: p.read_bytes() for p in (tmp_path / "out" / "matches").glob("*/*.log")}
    with pytest.raises(ConfigError, match="holds 6 match halves played with other settings .*--force"):
        run_tournament(load_tournament_config(path), progress=False)
    assert {p: p.read_bytes() for p in logs} == logs
    changed = run_tournament(load_tournament_config(path), progress=False, force=True)
    assert changed.played_now == 6 and all(m.hands == 240 for m in changed.outcomes)


def test_interrupted_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = write(
        tmp_path,
        f"game: kuhn\nhands: 2500\nduplicate: true\nseed: 5\njobs: 1\nout: {out}\nagents: [rules, bluff, call]\n",
    )  # halves long enough (about a second each) for the progress line to be shown before the stop
    cmd = [sys.executable, "-m", "showdown", "tournament", str(path), "--progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("matches/*/*.done.json"))) < 2:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    done_before = len(list(out.glob("matches/*/*.done.json")))
    assert 2 <= done_before < 6
    assert "not finished: run the same command again to resume" in stdout
    assert "matches done" in stderr and "left" in stderr
    run = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=120)
    assert run.returncode == 0, run.stderr
    assert f"resuming: {done_before} of 6 match halves already played" in run.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["complete"] and len(doc["matches"]) == 3


def test_sigterm_stops_a_tournament_and_its_matches_with_exit_143(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = write(tmp_path, f"game: kuhn\nhands: 10000000\nout: {out}\nagents: [rules, random, call]\n")
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "tournament", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(p.stat().st_size for p in out.glob("matches/*/*.log")) < 20_000:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143, stderr
    assert "Traceback" not in stderr and "not finished: run the same command again to resume" in stdout
    logs = list(out.glob("matches/*/*.log"))
    assert logs and all(p.read_text().splitlines()[-1].startswith("SCORE:") for p in logs)  # each match stopped itself


def test_an_agent_with_no_match_played_yet_has_no_mean_against_the_field(tmp_path: Path) -> None:
    """A tournament stopped early ranked the agents that had played no match with 'vs field +0.0000'."""
    config = load_tournament_config(write(tmp_path, "game: kuhn\nhands: 100\nagents: [rules, bluff, call]\n"))
    outcomes = [MatchOutcome("rules-bluff", (0, 1), {0: est(0.25), 1: est(-0.25)}, {}, "aivat", 100, False, [])]
    table = cross_table(outcomes, 3)
    text = format_tournament(TournamentResult(config, outcomes, table, ranking(table), 3, False, 1.0, 1))
    rows = {line.split()[1]: line.split() for line in text.splitlines() if line[:3].strip() in ("1.", "2.", "-")}
    assert rows["rules"][2] == "+25.00" and rows["bluff"][2] == "-25.00"
    assert rows["call"][:3] == ["-", "call", "-"], text


def test_bankroll_and_runoff_disagree_on_a_hand_made_table_with_known_outcome() -> None:
    # d exploits the weak e hugely and loses a little to everyone else: the total bankroll ranks it
    # first, the instant runoff (e goes out first, then d's edge is gone) ranks it last of a, b, c, d
    win = {("a", "b"): 0.05, ("a", "c"): 0.05, ("b", "c"): 0.05, ("a", "d"): 0.1, ("b", "d"): 0.1,
           ("c", "d"): 0.1, ("a", "e"): 0.2, ("b", "e"): 0.2, ("c", "e"): 0.2, ("d", "e"): 3.0}
    names = "abcde"
    outcomes = [
        MatchOutcome(f"{x}-{y}", (names.index(x), names.index(y)),
                     {names.index(x): est(v, 0.0), names.index(y): est(-v, 0.0)}, {}, "aivat", 100, True, [])
        for (x, y), v in win.items()
    ]
    ranks = ranking(cross_table(outcomes, 5))
    bankroll = sorted(range(5), key=lambda i: -next(r[1].mean for r in ranks if r[0] == i))
    assert names[bankroll[0]] == "d"
    assert [names[r[0]] for r in ranks] == ["a", "b", "c", "d", "e"]


def test_a_bot_that_exits_at_once_fails_its_matches_with_exit_2_not_an_interrupt(tmp_path: Path) -> None:
    # it said exit 130 (Ctrl-C) and "run the same command again to resume", which fails the same way
    out = tmp_path / "out"
    path = write(tmp_path, f"game: kuhn\nhands: 20\nout: {out}\nagents: [rules, call, {{command: 'true', label: quitter}}]\n")
    run = subprocess.run([sys.executable, "-m", "showdown", "tournament", str(path)], capture_output=True, text=True,
                         env=env(), timeout=120)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert "agent quitter (seat 2) exited before the match began" in run.stdout
    assert "2 of 3 matches are not finished: 2 failed (said above); fix that and run the same command again" in run.stdout
    doc = json.loads((out / "results.json").read_text())
    assert not doc["complete"] and len(doc["matches"]) == 1  # rules against call was played all the same


def test_a_folder_played_with_other_settings_is_refused_unless_force(tmp_path: Path) -> None:
    # another tournament's folder (or this file changed): its matches were replayed over, with only a note
    out = tmp_path / "shared"
    first = write(tmp_path, f"game: kuhn\nhands: 50\nout: {out}\nagents: [rules, call]\n", "a.yaml")
    other = write(tmp_path, f"game: kuhn\nhands: 80\nout: {out}\nagents: [rules, call]\n", "b.yaml")
    runs = [subprocess.run([sys.executable, "-m", "showdown", "tournament", str(path), *flags], capture_output=True, text=True,
                           env=env(), timeout=120) for path, flags in ((first, []), (other, []), (other, ["--force"]), (other, []))]
    assert [r.returncode for r in runs] == [0, 2, 0, 0], runs[-1].stderr
    assert runs[1].stderr.count("\n") == 1 and "Traceback" not in runs[1].stderr
    assert f"{out} holds 1 match half played with other settings" in runs[1].stderr and "--force" in runs[1].stderr
    said = "tournament: 1 match half in"
    assert f"{said} {out} was played with other settings (another tournament's folder" in runs[2].stderr
    assert said not in runs[0].stderr and said not in runs[3].stderr  # the same file again: nothing replaced


QUITTER = """import socket, sys
s = socket.create_connection((sys.argv[-2], int(sys.argv[-1])))
s.sendall(b"VERSION:2.0.0\\n")
for n, line in enumerate(s.makefile("rb")):
    if n == 5:
        sys.exit("bye")
    if line.startswith(b"MATCHSTATE"):
        s.sendall(line.rstrip(b"\\r\\n") + b":c\\n")
"""


def test_a_bot_that_leaves_mid_match_is_named_in_the_results(tmp_path: Path) -> None:
    """A bot that left after a few hands had its matches kept with the dealer's check/fold as its
    figures, and the table said nothing (only a line of the match's stream, gone by the end)."""
    (tmp_path / "quitter.py").write_text(QUITTER)
    command = f"{sys.executable} {tmp_path / 'quitter.py'}"
    path = write(tmp_path, f"game: kuhn\nhands: 40\nout: {tmp_path / 'out'}\n"
                           f"agents: [call, {{command: '{command}', label: quitter, token: false}}]\n")
    result = run_tournament(load_tournament_config(path), progress=False, stream=io.StringIO())
    assert result.complete
    note, = (n for n in result.notes if "quitter was played by the dealer" in n)
    assert note.startswith("call-vs-quitter: quitter was played by the dealer in ")
    assert "(agent quitter (seat 2) exited with status 1: bye; the dealer plays check/fold for it)" in note
    assert note in format_tournament(result)


def test_a_second_run_into_a_folder_a_run_holds_is_refused_in_one_line(tmp_path: Path) -> None:
    # two runs at once each failed the matches the other was playing ("being written by a match still
    # running"): both ended incomplete, exit 2, however long they had played
    from showdown.matches.files import hold_folder

    path = write(tmp_path, "game: kuhn\nhands: 30\nseed: 1\nout: out/t\nagents: [call, random]\n")
    out = tmp_path / "out" / "t"
    out.mkdir(parents=True)
    held = hold_folder(out, "tournament")  # as the run already playing there holds it
    command = [sys.executable, "-m", "showdown", "tournament", str(path), "--jobs", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    refused = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stdout == "", refused.stderr
    assert refused.stderr.splitlines() == ["showdown tournament: error: tournament: another tournament is running in out/t: let it "
                                           "finish (or stop it: Ctrl-C), then run this again to resume; or give this one another out folder"]
    assert sorted(p.name for p in out.iterdir()) == [".running.lock"]  # nothing read or written
    assert held is not None
    held.close()
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (out / "results.json").is_file()


def test_a_bots_own_class_beside_the_file_plays_and_its_init_failing_is_a_note_not_a_traceback(tmp_path: Path) -> None:
    # the installed command (no current folder on sys.path: -P) said "unknown agent 'init_bot:B'"; found, the
    # file check built it in the runner, whose __init__ raising was a traceback; a class that is no Agent too
    (tmp_path / "init_bot.py").write_text("from showdown.agents import Agent\nclass B(Agent):\n"
                                          "    def __init__(self, game=None):\n        raise RuntimeError('no model')\n"
                                          "class NotAgent:\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-P", "-m", "showdown", "tournament", "t.yaml", "--jobs", "1", "--no-sandbox"]
    write(tmp_path, "game: kuhn\nhands: 10\nseed: 1\nout: out\nagents: [call, init_bot:B]\n")
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout, done.stderr
    assert "agent B (seat 2) exited with status 1 before the match began: init_bot.py:4: RuntimeError: no model" in done.stdout
    write(tmp_path, "game: kuhn\nhands: 10\nseed: 1\nout: out\nagents: [call, init_bot:NotAgent]\n")
    refused = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.splitlines() == [
        "showdown tournament: error: t.yaml:5: agents[1]: agent 'init_bot:NotAgent' cannot start: init_bot.py: class NotAgent is not "
        "an Agent: write 'class NotAgent(Agent):' (from showdown.agents import Agent) with an act(view) method"]


def test_the_command_line_s_flags_win_over_the_tournament_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a match (README: 'flags given win over the file'): --jobs, --no-sandbox and --no-progress
    replace the file's jobs, sandbox and progress; what no flag gives stays the file's."""
    import showdown.matches.tournament as tournament
    from showdown.cli.main import build_parser
    from showdown.cli.tournament import run_tournament_command

    path = write(tmp_path, f"game: kuhn\nhands: 10\nseed: 4\njobs: 2\nsandbox: true\nprogress: true\nout: {tmp_path / 'o'}\n"
                           "agents: [rules, call]\n")
    seen: dict[str, object] = {}

    def fake_run(cfg: object, *, jobs: object, progress: object, executor: object, force: bool = False) -> object:
        seen.update(cfg=cfg, jobs=jobs, progress=progress)
        raise KeyboardInterrupt  # nothing played

    monkeypatch.setattr(tournament, "run_tournament", fake_run)
    args = build_parser("tournament").parse_args(["tournament", str(path), "--jobs", "1", "--no-sandbox", "--no-progress"])
    with pytest.raises(KeyboardInterrupt):
        run_tournament_command(args)
    cfg = seen["cfg"]
    assert seen["jobs"] == 1 and seen["progress"] is False
    assert cfg.jobs == 1 and cfg.sandbox is False and cfg.progress is False and cfg.seed == 4 and cfg.hands == 10  # type: ignore[attr-defined]


@pytest.mark.parametrize("marker", ["[1]", '"done"', '{"fingerprint": 5}', '{"fingerprint": "x"', "\udcff\udcfe"])
def test_a_damaged_done_marker_is_played_again_and_said_in_one_line(tmp_path: Path, marker: str) -> None:
    # valid JSON of another shape was an AttributeError traceback ('list' object has no attribute 'get')
    out = tmp_path / "out"
    path = write(tmp_path, f"game: kuhn\nhands: 20\nout: {out}\nagents: [rules, random, call]\n")
    cfg = load_tournament_config(path)
    run_tournament(cfg, progress=False, stream=io.StringIO())
    (out / "matches" / "rules-vs-call" / "rules-vs-call.done.json").write_bytes(marker.encode("utf-8", "surrogateescape"))
    said = io.StringIO()
    again = run_tournament(cfg, progress=False, stream=said)
    assert again.played_now == 1 and again.complete
    assert said.getvalue().count("\n") == 1 and "cannot be read as done (a damaged .done.json" in said.getvalue()


def test_a_3_player_field_mean_counts_each_match_once(tmp_path: Path) -> None:
    """In 3 players a match is in two of an agent's cells; the mean against the field combined the
    cells as independent: 'vs_field' said twice the hands the agent played and an interval too
    narrow by sqrt 2. Each agent's hands and interval now agree with its logs read together."""
    path = write(tmp_path, f"game: kuhn3p\nhands: 400\nseed: 4\njobs: 1\nout: {tmp_path / 'out'}\nagents: [rules, call, random]\n")
    run_tournament(load_tournament_config(path), progress=False)
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    logs = sorted(str(p) for p in (tmp_path / "out" / "matches").glob("*/*.log"))
    assert len(logs) == 2
    out = subprocess.run([sys.executable, "-m", "showdown", "analyze", *logs, "--estimator", "plain", "--json"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    players = {p["name"]: p for p in json.loads(out)["players"]}
    for row in doc["ranking"]:
        field, alone = row["vs_field"], players[row["agent"]]
        assert field["hands"] == alone["hands"] == 800
        assert field["per100"] == pytest.approx(alone["per100"])
        half, alone_half = (field["ci95"][1] - field["ci95"][0]) / 2, (alone["ci95"][1] - alone["ci95"][0]) / 2
        assert half == pytest.approx(alone_half, rel=0.05)


def test_results_json_gives_mbb_per_hand_as_the_match_json_does(tmp_path: Path) -> None:
    """results.json gave chips per 100 only: no mbb_per_hand/ci95_mbb, the keys of `showdown match --json`."""
    path = write(tmp_path, f"game: kuhn\nhands: 40\nout: {tmp_path / 'out'}\nestimator: plain\njobs: 1\n"
                           "in_memory: true\nagents: [rules, random]\n")
    run_tournament(load_tournament_config(path), progress=False)
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    cells = [doc["cross_table"]["rules"]["random"], doc["matches"][0]["results"]["rules"], doc["ranking"][0]["vs_field"]]
    for cell in cells:  # Kuhn's big blind is 1 chip: mbb/hand is ten times chips/100
        assert cell["mbb_per_hand"] == pytest.approx(10 * cell["per100"])
        assert cell["ci95_mbb"] == pytest.approx([10 * x for x in cell["ci95"]])
