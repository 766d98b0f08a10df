"""``showdown exploit --probes``: a probe the bot breaks against gives no figure, the others stand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import showdown.agents.probes
from showdown.cli import main
from tests.matches.test_probing import touchy_bot


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "table"])
def test_a_probe_the_bot_breaks_against_is_named_and_the_run_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], as_json: bool,
) -> None:
    monkeypatch.setattr(showdown.agents.probes, "PROBES", ("probe-raise", "probe-checkraise"))  # two matches, not eleven
    monkeypatch.chdir(tmp_path)
    argv = ["exploit", "--probes", "--agent", str(touchy_bot(tmp_path)), "--game", "kuhn", "--hands", "10", "--out", "out"]
    assert main(argv + (["--json"] if as_json else [])) == 1
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1
    assert "no figure against probe-raise" in err and "showdown match kuhn probe-raise" in err
    if as_json:
        doc = json.loads(out)
        assert [p["name"] for p in doc["probes"]] == ["probe-checkraise"] == [doc["best"]["name"]]
        assert [m["name"] for m in doc["no_figure"]] == ["probe-raise"]
        assert "touchy.py:7: RuntimeError: cannot face a bet" in doc["no_figure"][0]["reason"]
    else:
        assert "probe-raise  no figure: the match of probe-raise against the bot is not a measurement" in out
        assert "best: probe-checkraise" in out


def test_the_table_keeps_the_names_in_one_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """probe-third-raise-any (21 characters) pushed its row's figures out of the 18-character column."""
    monkeypatch.setattr(showdown.agents.probes, "PROBES", ("probe-raise", "probe-third-raise-any"))
    monkeypatch.chdir(tmp_path)
    assert main(["exploit", "--probes", "--agent", "rules", "--game", "kuhn", "--hands", "10", "--out", "out", "--jobs", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if " wins " in line]
    assert len(rows) == 2 and len({row.index(" wins ") for row in rows}) == 1
