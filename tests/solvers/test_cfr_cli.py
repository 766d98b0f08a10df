"""``showdown solve cfr`` and ``showdown plot``: outputs, resuming, Ctrl-C, one-line errors."""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.cli.cfr import add_cfr_arguments, add_plot_arguments, output_paths, write_curve
from showdown.errors import ShowdownError, SolverError
from showdown.games.catalog import get_game
from showdown.solvers.best_response import exploitability
from showdown.solvers.strategy import load_strategy

ROOT = Path(__file__).resolve().parents[2]
DRIVER = """
import argparse, sys
from showdown.errors import ShowdownError
from showdown.cli.cfr import add_cfr_arguments
p = argparse.ArgumentParser(prog="showdown solve cfr")
add_cfr_arguments(p)
args = p.parse_args(sys.argv[1:])
try:
    sys.exit(args.handler(args))
except ShowdownError as exc:
    print(f"showdown solve: error: {exc}", file=sys.stderr)
    sys.exit(2)
"""


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_cfr_arguments(parser)
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_writes_strategy_curve_and_json_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["leduc", "--iterations", "300", "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert {"game", "algorithm", "iterations", "seconds", "exploitability", "strategy"} <= set(summary)
    assert summary["game"] == "leduc" and summary["algorithm"] == "cfr+" and summary["iterations"] == 300
    assert summary["strategy"] == "leduc.cfr+.strategy.json" and summary["seconds"] > 0
    strategy = load_strategy(tmp_path / "leduc.cfr+.strategy.json")
    assert exploitability(get_game("leduc"), strategy) == pytest.approx(summary["exploitability"], abs=1e-12)
    rows = list(csv.DictReader((tmp_path / "leduc.cfr+.curve.csv").open()))
    assert rows[0]["iteration"] == "1" and rows[-1]["iteration"] == "300"
    assert float(rows[-1]["exploitability"]) == pytest.approx(summary["exploitability"])
    doc = json.loads((tmp_path / "leduc.cfr+.curve.json").read_text())
    assert doc["algorithm"] == "cfr+" and len(doc["points"]) == len(rows)
    assert "leduc cfr+: " in captured.err and "it/s" in captured.err and "exploitability" in captured.err


def test_target_and_output_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "k.npz"
    assert run(["kuhn", "-a", "dcfr", "--target-exploitability", "1e-3", "-o", str(out), "-q"]) == 0
    text = capsys.readouterr()
    assert text.err == ""
    assert "exploitability" in text.out and str(out) in text.out
    assert exploitability(get_game("kuhn"), load_strategy(out)) <= 1e-3
    assert (tmp_path / "k.curve.csv").exists() and (tmp_path / "k.curve.json").exists()


def test_a_three_player_target_is_the_exploitability_json_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """For 3 players --target-exploitability E is NashConv/3 (what --json and `exploit` call exploitability):
    it stopped once NashConv itself was E, three times the exploitability asked for."""
    assert run(["kuhn3p", "--target-exploitability", "0.01", "-o", str(tmp_path / "k.json"), "-q", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["stopped_by"] == "target"
    assert summary["exploitability"] <= 0.01 < summary["exploitability"] * 3 + 0.02
    assert summary["nash_conv"] == pytest.approx(3 * summary["exploitability"]) and summary["nash_conv"] > 0.01


def test_the_curve_csv_is_what_the_csv_module_writes(tmp_path: Path) -> None:
    """The curve's CSV is written without the csv module (start-up): the same bytes, CRLF lines included."""
    from showdown.solvers.training import CurvePoint

    points = [CurvePoint(1, 0.000127, 0.4583333333333333), CurvePoint(12, 1.5, 1e-300), CurvePoint(1000, 0.04, 8.74e-05)]
    write_curve(points, tmp_path / "c.csv", tmp_path / "c.json", "kuhn", "cfr+")
    expected = tmp_path / "expected.csv"
    with expected.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["iteration", "seconds", "exploitability"])
        for q in points:
            w.writerow([q.iteration, f"{q.seconds:.6f}", repr(q.exploitability)])
    assert (tmp_path / "c.csv").read_bytes() == expected.read_bytes()


def test_curve_paths_sit_beside_the_strategy() -> None:
    assert output_paths(Path("d/leduc.cfr+.strategy.json")) == (Path("d/leduc.cfr+.curve.csv"), Path("d/leduc.cfr+.curve.json"))
    assert output_paths(Path("x.npz")) == (Path("x.curve.csv"), Path("x.curve.json"))


def test_resumes_from_a_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ck = tmp_path / "run.npz"
    out = str(tmp_path / "s.json")
    assert run(["kuhn", "-n", "100", "--checkpoint", str(ck), "-o", out, "--json", "-q"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert ck.exists()
    assert run(["kuhn", "-n", "250", "--checkpoint", str(ck), "-o", out, "--json", "-q"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["iterations"] == 250 and second["seconds"] > first["seconds"]
    points = json.loads((tmp_path / "s.curve.json").read_text())["points"]
    assert points[0]["iteration"] == 1 and points[-1]["iteration"] == 250  # the curve goes on
    straight = tmp_path / "straight.json"
    assert run(["kuhn", "-n", "250", "-o", str(straight), "-q"]) == 0
    assert load_strategy(straight).table == load_strategy(out).table
    with pytest.raises(SolverError, match="holds a cfr\\+ run, not dcfr"):
        run(["kuhn", "-a", "dcfr", "-n", "10", "--checkpoint", str(ck), "-o", out, "-q"])


@pytest.mark.parametrize("game", ["kuhn", "kuhn3p"])
def test_a_checkpoint_that_is_no_npz_says_so(tmp_path: Path, game: str) -> None:
    """A strategy .json given as --checkpoint was 'not a CFR checkpoint (This file contains pickled
    (object) data. If you trust the file you can load it unsafely using the `allow_pickle=` ...)'."""
    wrong = tmp_path / "s.json"
    wrong.write_text("{}")
    with pytest.raises(SolverError, match=r"s.json: not a CFR checkpoint \(it is not a .npz archive\)$"):
        run([game, "-n", "5", "--checkpoint", str(wrong), "-q"])


def _altered(ck: Path, to: Path, **changes: object) -> Path:
    """A copy of checkpoint ``ck`` with arrays replaced (array names) or metadata fields set (``meta_<field>``)."""
    import numpy as np

    with np.load(ck) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    for key, value in changes.items():
        if key.startswith("meta_"):
            meta[key.removeprefix("meta_")] = value
        else:
            arrays[key] = np.asarray(value)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(to, **arrays)  # type: ignore[arg-type]
    return to


FIELDS = [{"meta_iterations": "x"}, {"meta_iterations": -3}, {"meta_rng": [1]}, {"meta_extra": {"curve": [[1]]}}, {"meta_batch": None}]


@pytest.mark.parametrize("game, change", [
    *(("kuhn", c) for c in [{"regrets0": [0.0] * 5}, {"average1": [[1.0]]}, *FIELDS]),
    *(("kuhn3p", c) for c in [{"regrets": [0.0] * 5}, {"average": [1.0]}, *FIELDS]),
])
def test_a_checkpoint_that_does_not_fit_is_one_line_saying_what_to_do(tmp_path: Path, game: str, change: dict[str, object]) -> None:
    """An .npz whose regrets0 held 5 values, or whose iterations were "x", was an IndexError or ValueError traceback."""
    ck = tmp_path / "ck.npz"
    assert run([game, "-n", "10", "--checkpoint", str(ck), "-o", str(tmp_path / "s.json"), "-q"]) == 0
    bad = _altered(ck, tmp_path / "bad.npz", **change)
    with pytest.raises(SolverError, match=r"bad.npz: .*checkpoint.*: delete it, or give another checkpoint file, to start afresh$"):
        run([game, "-n", "100", "--checkpoint", str(bad), "-o", str(tmp_path / "t.json"), "-q"])


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(SolverError, match="--iterations must not be negative"):
        run(["kuhn", "-n", "-1"])


@pytest.mark.parametrize("budget", [["--iterations", "0"], ["--seconds", "0"]])
def test_a_budget_of_nothing_is_refused_unless_a_saved_run_is_written_out(tmp_path: Path, budget: list[str]) -> None:
    """--iterations 0 wrote a uniform strategy (exploitability 0.458 in Kuhn) as if it were a solve."""
    out = tmp_path / "s.json"
    with pytest.raises(SolverError, match=f"{budget[0]} 0 trains nothing"):
        run(["kuhn", *budget, "-o", str(out), "-q"])
    assert not out.exists()
    ck = tmp_path / "run.npz"
    run(["kuhn", "-n", "5", "--checkpoint", str(ck), "-o", str(out), "-q"])
    out.unlink()
    run(["kuhn", *budget, "--checkpoint", str(ck), "-o", str(out), "-q"])  # the saved run's strategy, written again
    assert out.is_file()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_file_that_cannot_be_written_is_one_line_and_the_checkpoint_is_kept(tmp_path: Path) -> None:
    """-o /dev/full (a full disk) was an OSError traceback after the run, and the checkpoint, written
    last, was lost with it."""
    ck = tmp_path / "run.npz"
    with pytest.raises(SolverError, match="cannot write strategy file /dev/full: No space left on device"):
        run(["kuhn", "-n", "10", "--checkpoint", str(ck), "-o", "/dev/full", "-q"])
    assert ck.exists()
    with pytest.raises(SolverError, match="cannot write curve file .*c.curve.csv: Is a directory"):
        (tmp_path / "c.curve.csv").mkdir()
        run(["kuhn", "-n", "10", "-o", str(tmp_path / "c.json"), "-q"])


def _driver(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_three_player_holdem_is_refused_in_one_line(tmp_path: Path) -> None:
    # heads-up hold'em is solved on an abstraction (tests/solvers/test_cli_pcs.py)
    proc = _driver(["holdem-limit-3p"], tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("showdown solve: error: "), err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("signum,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_stops_cleanly_and_writes_everything(tmp_path: Path, signum: int, status: int) -> None:
    """SIGTERM (a job scheduler's or `timeout`'s stop) as Ctrl-C: it killed the run, nothing written,
    not even the checkpoint (saved once a minute)."""
    proc = _driver(["leduc", "-n", "100000000", "--checkpoint", "ck.npz", "--json"], tmp_path)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: the run is under way
    assert "leduc cfr+" in first
    time.sleep(0.5)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == status, err
    assert "stopping after this iteration" in err
    summary = json.loads(out)
    assert summary["interrupted"] and summary["stopped_by"] == "interrupted" and summary["iterations"] > 1
    for name in ("leduc.cfr+.strategy.json", "leduc.cfr+.curve.csv", "leduc.cfr+.curve.json", "ck.npz"):
        assert (tmp_path / name).exists(), name
    strategy = load_strategy(tmp_path / "leduc.cfr+.strategy.json")
    assert exploitability(get_game("leduc"), strategy) == pytest.approx(summary["exploitability"], abs=1e-12)


def test_plot_needs_matplotlib_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    parser = argparse.ArgumentParser()
    add_plot_arguments(parser)
    args = parser.parse_args(["strategy", str(tmp_path / "s.json")])
    with pytest.raises(ShowdownError, match="pip install 'showdown-poker\\[plot\\]'") as err:
        args.handler(args)
    assert "\n" not in str(err.value)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_picture_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    """plot (and analyze --plot) -o /dev/full said the picture's name, exit 0: PIL let the error of
    writing a full disk pass, and a cut image was left behind a success."""
    pytest.importorskip("matplotlib")
    strategy = tmp_path / "k.json"
    assert run(["kuhn", "-n", "20", "-o", str(strategy), "-q"]) == 0
    for kind, source in (("strategy", strategy), ("curve", tmp_path / "k.curve.json")):
        parser = argparse.ArgumentParser()
        add_plot_arguments(parser)
        args = parser.parse_args([kind, str(source), "-o", "/dev/full"])
        with pytest.raises(ShowdownError, match="cannot write /dev/full: No space left on device"):
            args.handler(args)


def test_a_picture_name_of_no_picture_format_is_one_line(tmp_path: Path) -> None:
    """-o chart.txt was matplotlib's ValueError traceback ('Format 'txt' is not supported'), a file
    of that name emptied first."""
    pytest.importorskip("matplotlib")
    strategy = tmp_path / "k.json"
    assert run(["kuhn", "-n", "20", "-o", str(strategy), "-q"]) == 0
    target = tmp_path / "chart.txt"
    target.write_text("kept")
    parser = argparse.ArgumentParser()
    add_plot_arguments(parser)
    args = parser.parse_args(["strategy", str(strategy), "-o", str(target)])
    with pytest.raises(ShowdownError, match=r"chart.txt: no picture is written as .txt; end the name with .png, .svg, .pdf"):
        args.handler(args)
    assert target.read_text() == "kept"


def test_plot_strategy_and_curve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert run(["kuhn-10", "-n", "50", "-q"]) == 0
    parser = argparse.ArgumentParser()
    add_plot_arguments(parser)
    args = parser.parse_args(["strategy", "kuhn-10.cfr+.strategy.json"])
    assert args.handler(args) == 0
    assert (tmp_path / "kuhn-10.cfr+.png").read_bytes()[:4] == b"\x89PNG"
    args = parser.parse_args(["curve", "kuhn-10.cfr+.curve.csv", "kuhn-10.cfr+.curve.json", "-o", "c.png"])
    assert args.handler(args) == 0
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("checkpoint", ["k.json", "k.curve.csv", "k.curve.json"])
def test_a_checkpoint_named_as_an_output_is_refused_before_the_run(tmp_path: Path, checkpoint: str) -> None:
    """The strategy (or a curve) was written over the checkpoint just saved, under 'checkpoint: k.json';
    the resume then failed with 'not a CFR checkpoint'."""
    proc = _driver(["kuhn", "-n", "5", "-q", "-o", "k.json", "--checkpoint", checkpoint], tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and out == "", err
    assert err.count("\n") == 1 and "would overwrite the checkpoint" in err, err
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_strategy_sent_to_dev_null_writes_no_curve_beside_it(tmp_path: Path) -> None:
    """-o /dev/null made /dev/null.curve.csv and /dev/null.curve.json in /dev (as root; else failed)."""
    made = [Path("/dev/null.curve.csv"), Path("/dev/null.curve.json")]
    try:
        proc = _driver(["kuhn", "-n", "3", "-q", "-o", "/dev/null", "--json"], tmp_path)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        summary = json.loads(out)
        assert summary["curve_csv"] is None and summary["curve_json"] is None
        assert not any(p.exists() for p in made)
    finally:
        for p in made:
            if p.is_file():
                p.unlink()


@pytest.mark.parametrize("players", [2, 3])
def test_a_checkpoint_of_another_game_of_the_same_name_says_how_they_differ(tmp_path: Path, players: int) -> None:
    """A checkpoint of a/g.game given b/g.game: refused as 'for game g, not g'; it names the field."""
    text = ("GAMEDEF\nlimit\nnumPlayers = {p}\nnumRounds = 1\nblind = {b}\nraiseSize = {r}\nfirstPlayer = 1\nmaxRaises = 1\n"
            "numSuits = 1\nnumRanks = 4\nnumHoleCards = 1\nnumBoardCards = 0\nEND GAMEDEF\n")
    for folder, size in (("a", 1), ("b", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "g.game").write_text(text.format(p=players, b=" ".join(["1"] * players), r=size))
    first = _driver(["a/g.game", "-n", "2", "-q", "--checkpoint", "ck.npz", "-o", "s.json"], tmp_path)
    assert first.wait(timeout=120) == 0
    proc = _driver(["b/g.game", "-n", "4", "-q", "--checkpoint", "ck.npz", "-o", "s.json"], tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and err.count("\n") == 1, err
    assert err.rstrip().endswith("not g (a different game of the same name: raise_size (1,) vs (2,))"), err


def test_abstract_only_options_are_refused_for_a_game_solved_whole_and_every_sets_the_checkpoints(tmp_path: Path) -> None:
    """--sizes, --max-raises and --sample-boards did nothing in a tabular solve, silently, and --every
    (listed under abstract games) did not move its checkpoints, saved once a minute."""
    def solve(*words: str, **kw: object) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-m", "showdown", "solve", "cfr", "leduc", *words], cwd=tmp_path, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})

    for words in (["--sizes", "0.5"], ["--max-raises", "3"], ["--sample-boards"]):
        proc = solve(*words, "-n", "10")
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and err == (f"showdown solve: error: {words[0]} is for abstract games (hold'em, or "
                                                "--abstraction); leduc is solved whole: drop it\n"), err
    checkpoint = tmp_path / "ck.json"
    proc = solve("--seconds", "8", "--every", "0.5", "--checkpoint", str(checkpoint), "-q")
    try:
        deadline = time.monotonic() + 6
        while not checkpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert checkpoint.exists() and proc.poll() is None  # saved during the run, not only at its end
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)


@pytest.mark.parametrize("game", ["kuhn", "kuhn3p"])
def test_the_summary_gives_exploitability_and_nash_conv_as_exploit_does(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`solve cfr kuhn3p --json` called NashConv "exploitability", three times `exploit --json`'s figure."""
    from showdown.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert run([game, "--iterations", "50", "--json", "-o", "s.json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["exploit", "s.json", "--game", game, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert summary["exploitability"] == pytest.approx(exact["exploitability"], abs=1e-12)
    assert summary["nash_conv"] == pytest.approx(exact["nash_conv"], abs=1e-12)


def test_the_text_summary_of_a_three_player_run_gives_nash_conv_as_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`solve cfr kuhn3p` printed "NashConv" beside the exploitability (NashConv / 3), a third of the
    progress line's, the curve's and `--json`'s NashConv."""
    monkeypatch.chdir(tmp_path)
    assert run(["kuhn3p", "--iterations", "50", "--json", "-q", "-o", "s.json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert run(["kuhn3p", "--iterations", "50", "-q", "-o", "s.json"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"NashConv {summary['nash_conv']:.3g} chips/hand" in first
