"""The README's examples of the bridges run as written (section "Other tools")."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from showdown.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _blocks(kind: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Other tools: PHH, PettingZoo, OpenSpiel"):text.index("## Python API")]
    return re.findall(rf"```{kind}\n(.*?)```", section, flags=re.S)


def test_the_phh_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(ROOT / "tests" / "data" / "holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", tmp_path / "match.log")
    monkeypatch.chdir(tmp_path)
    (block,) = _blocks("sh")
    for line in block.strip().splitlines():
        words = shlex.split(line.split("#")[0])
        assert words[0] == "showdown" and main(words[1:]) == 0, line
    assert (tmp_path / "again.log").read_text() == (tmp_path / "match.log").read_text()
    assert "OK 1000 hands" in capsys.readouterr().out


@pytest.mark.parametrize("index", [0, 1])
def test_the_python_examples_run(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    monkeypatch.chdir(tmp_path)
    exec(compile(_blocks("python")[index], f"README example {index}", "exec"), {})  # our own README, not input
    if index == 1:
        assert (tmp_path / "leduc_cfr.json").is_file()
