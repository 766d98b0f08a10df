"""The cache folder (``showdown.cache``): one that cannot be made or written in is one line naming it,
where it came from and the way out, before the work whose result it keeps."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cache import cache_dir
from showdown.errors import ConfigError


def test_a_cache_folder_behind_a_file_is_one_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # it was NotADirectoryError's traceback from showdown equity --build, and a pathlib line in an agent's error
    (tmp_path / "afile").write_text("")
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path / "afile"))
    with pytest.raises(ConfigError, match=r"cannot make the cache folder .*afile/strategies \(from \$SHOWDOWN_CACHE\): "
                                          r"Not a directory; set SHOWDOWN_CACHE to a folder you may write in"):
        cache_dir("strategies")
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path / "fine"))
    assert cache_dir("equity").is_dir()


def _build(tmp_path: Path, cache: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHOWDOWN_CACHE": str(cache)}
    return subprocess.run([*(prefix or []), sys.executable, "-m", "showdown", "equity", "--build", "--force"], capture_output=True, text=True,
                          timeout=60, env=env, cwd=tmp_path)


def test_equity_build_into_a_cache_behind_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    done = _build(tmp_path, tmp_path / "afile")
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert "showdown equity: error: cannot make the cache folder" in done.stderr


def test_equity_build_into_a_read_only_cache_is_refused_before_the_build(tmp_path: Path) -> None:
    # the table was built (a minute and a half of CPU) and then lost to a PermissionError
    from tests.unwritable import unwritable

    (tmp_path / "cache" / "equity").mkdir(parents=True)
    with unwritable(tmp_path / "cache" / "equity") as (prefix, _):
        done = _build(tmp_path, tmp_path / "cache", prefix)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert "cannot write in the cache folder" in done.stderr and "building" not in done.stderr
