"""``showdown solve cfr`` on abstractions, from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.errors import ConfigError


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_leduc_abstraction_run_writes_a_playable_strategy_and_resumes(tmp_path):
    out = tmp_path / "leduc.pcs.npz"
    ckpt = tmp_path / "leduc.ckpt.pcs.npz"
    done = _run("solve", "cfr", "leduc", "--abstraction", "rank", "-n", "40", "-o", str(out), "--checkpoint", str(ckpt), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)
    assert first["iterations"] == 40 and first["exploitability"] < 0.1 and out.exists()
    done = _run("solve", "cfr", "leduc", "-n", "80", "-o", str(out), "--checkpoint", str(ckpt), "--json", "--abstraction", "rank", cwd=tmp_path)
    second = json.loads(done.stdout)
    assert second["iterations"] == 80 and second["exploitability"] < first["exploitability"]
    match = _run("match", "leduc", "cfr", "rules", "--hands", "50", "-o", f"1:strategy={out}", "--json", "--out", str(tmp_path / "m"), cwd=tmp_path)
    assert match.returncode == 0, match.stderr
    assert json.loads(match.stdout)["hands"] == 50


def test_bad_specs_are_one_line_errors(tmp_path, capsys):
    for args in (
        ["solve", "cfr", "leduc", "--abstraction", "buckets:x", "-n", "1", "-o", str(tmp_path / "a.pcs.npz")],
        ["solve", "cfr", "holdem-nolimit", "--sizes", "0.5,x", "-n", "1", "-o", str(tmp_path / "b.pcs.npz")],
        ["solve", "cfr", "holdem-nolimit", "--sizes", "0.5::1", "-n", "1", "-o", str(tmp_path / "b.pcs.npz")],
        ["solve", "cfr", "leduc", "--abstraction", "rank", "-n", "1", "-o", str(tmp_path / "c.npz")],
    ):
        code = main(args)
        err = capsys.readouterr().err
        assert code != 0 and len(err.strip().splitlines()) == 1, err


def test_parse_helpers():
    from showdown.cli.pcs import parse_abstraction, parse_sizes
    from showdown.games.catalog import get_game

    assert parse_abstraction(get_game("holdem-limit"), "holdem:169,8,8,8").num_buckets == (169, 8, 8, 8)
    assert parse_sizes("1/1/1/1", 3).max_raises == 3
    with pytest.raises(ConfigError):
        parse_sizes("-1", None)


def test_sizes_name_each_raise_of_a_round_and_default_to_the_shipped_tree():
    from showdown.cli.pcs import parse_sizes
    from showdown.solvers.betting import BetSizing, default_sizing, wide_sizing

    assert parse_sizes(None, None) == default_sizing() == parse_sizes("default", None)
    assert parse_sizes("0.5,1,2:1,2:1/0.25,0.5,1:1/0.25,1:1/0.25,1:1", 3) == wide_sizing() == parse_sizes("wide", None)
    assert parse_sizes("wide", 2) == BetSizing(wide_sizing().fractions, 2, wide_sizing().later)
    # without ':' the first raise's sizes serve every raise, as in the files made before
    assert parse_sizes("0.5,1,2/0.5,1/1/1", 2) == BetSizing(((0.5, 1.0, 2.0), (0.5, 1.0), (1.0,), (1.0,)), 2, ())
    mixed = parse_sizes("0.5:1/0.25,1", 3)
    assert mixed.later == (((1.0,),), ()) and mixed.of_raise(1, 2) == (0.25, 1.0)


def test_a_checkpoint_that_does_not_fit_is_one_line_saying_what_to_do(tmp_path: Path) -> None:
    """A checkpoint whose iterations were "x" (or whose average held 3 rows) was a ValueError traceback."""
    import numpy as np

    ckpt = tmp_path / "c.npz"
    done = _run("solve", "cfr", "leduc", "--abstraction", "rank", "-n", "2", "-q", "--checkpoint", str(ckpt), "-o", "l.pcs.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with np.load(ckpt) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(arrays["header"].tobytes().decode())
    for name, changed in (("x", {"header": np.frombuffer(json.dumps({**meta, "iterations": "x"}).encode(), dtype=np.uint8)}),
                          ("short", {"average": arrays["average"][:3]})):
        np.savez(tmp_path / f"{name}.npz", **{**arrays, **changed})
        done = _run("solve", "cfr", "leduc", "--abstraction", "rank", "-n", "4", "-q", "--checkpoint", f"{name}.npz", "-o",
                    f"{name}.pcs.npz", cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "the checkpoint is damaged or not this solver's" in done.stderr and "delete it" in done.stderr


def test_a_checkpoint_named_as_the_strategy_is_refused_before_the_run(tmp_path: Path) -> None:
    """The strategy was written over the checkpoint just saved; the resume said 'not a checkpoint'."""
    done = _run("solve", "cfr", "leduc", "--abstraction", "rank", "-n", "2", "-q", "--checkpoint", "l.pcs.npz", "-o", "l.pcs.npz", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "would overwrite the checkpoint" in done.stderr, done.stderr
    assert not (tmp_path / "l.pcs.npz").exists()


@pytest.mark.parametrize("flags, named", [
    (["--target-exploitability", "0.5"], "--target-exploitability"),
    (["-a", "cs"], "--algorithm cs"),
    (["--batch", "4"], "--batch"),
], ids=["target", "algorithm", "batch"])
def test_tabular_options_of_an_abstract_run_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], named: str,
) -> None:
    """`--target-exploitability 0.5` ran the default 1,000 iterations, `-a cs` ran pcs-cfr+: both silently."""
    out = tmp_path / "x.pcs.npz"
    assert main(["solve", "cfr", "leduc", "--abstraction", "rank", "-n", "1", "-q", "-o", str(out), *flags]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and named in err and "abstract" in err and not out.exists()


def test_every_s_help_gives_the_checkpoint_interval_an_abstract_run_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """--every's help said checkpoints every 60 s by default; an abstract run writes one every 10 s."""
    import showdown.solvers.pcs

    used: dict[str, object] = {}
    monkeypatch.setattr(showdown.solvers.pcs, "run", lambda solver, **kw: used.update(kw))
    assert main(["solve", "cfr", "leduc", "--abstraction", "rank", "-n", "1", "-q", "-o", str(tmp_path / "a.pcs.npz"),
                 "--checkpoint", str(tmp_path / "c.pcs.npz")]) == 0
    with pytest.raises(SystemExit):
        main(["solve", "cfr", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert used["checkpoint"] is not None and f"checkpoints (default 60; in abstract games {used['every']:g}," in text


def test_sigterm_stops_an_abstract_run_and_writes_everything(tmp_path: Path) -> None:
    """SIGTERM (a scheduler's, `timeout`'s) killed an abstract run with nothing written and nothing printed,
    where the README says Ctrl-C or SIGTERM keeps the best so far; --json did not say a run was interrupted."""
    import signal
    import time

    out, ckpt = tmp_path / "l.pcs.npz", tmp_path / "l.ckpt.pcs.npz"
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "solve", "cfr", "leduc", "--abstraction", "rank", "-n", "100000000",
                             "--every", "0.2", "-o", str(out), "--checkpoint", str(ckpt), "--json"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert "iterations" in proc.stderr.readline()  # solving
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    stdout, _ = proc.communicate(timeout=120)
    assert proc.returncode == 143
    doc = json.loads(stdout)
    assert doc["interrupted"] is True and doc["iterations"] > 0 and out.exists() and ckpt.exists()
