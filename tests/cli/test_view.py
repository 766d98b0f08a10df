"""``showdown view``: a log named on the command line that is no log is one line before serving."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

pytest.importorskip("aiohttp")


@pytest.mark.parametrize("content", [b"\x00\x01\xff\xfe garbage\n", "caf\u00e9 au lait\n".encode("latin-1"), b"{}\n"])
def test_a_named_file_that_is_no_log_is_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "m.log"
    path.write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "showdown", "view", str(path), "--port", "0"], capture_output=True,
                          text=True, timeout=60, env=ENV, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("showdown view: error: ") and "m.log:1" in done.stderr


def test_a_named_log_with_no_hands_yet_is_served(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text("")  # a match that is starting: the page follows it
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "view", str(path), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("view at http://127.0.0.1:")
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


def test_a_second_view_on_a_port_in_use_says_so_and_how_to_choose_another(tmp_path: Path) -> None:
    import socket

    (tmp_path / "m.jsonl").write_text("")
    with socket.socket() as first:  # the port another view (or any program) holds
        first.bind(("127.0.0.1", 0))
        first.listen()
        port = first.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "showdown", "view", str(tmp_path), "--port", str(port)],
                              capture_output=True, text=True, timeout=60, env=ENV, check=False)
    assert done.returncode == 2, done.stderr
    # was: "... error while attempting to bind on address ('127.0.0.1', PORT): address already in use"
    assert done.stderr == (f"showdown view: error: cannot listen on 127.0.0.1:{port}: the port is in use (another view or "
                           "program): give another --port, or --port 0 for a free one\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_one_line() -> None:
    """report -o /dev/full (a full disk) was an OSError traceback."""
    log = ROOT / "tests" / "data" / "kuhn.limit.2p.1000h.seed0.log"
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(log), "-o", "/dev/full", "--hands", "10"],
                          capture_output=True, text=True, timeout=60, env=ENV, check=False)
    assert done.returncode == 2
    assert done.stderr == "showdown report: error: cannot write /dev/full: No space left on device\n"


def test_a_report_written_over_a_log_of_its_folder_is_refused(tmp_path: Path) -> None:
    # 'report out -o out/m.jsonl' replaced the match's log with the page, silently
    from showdown.api import run_match

    run_match("kuhn", ["rules", "random"], hands=20, seed=1, out=tmp_path)
    (log,) = tmp_path.glob("*.jsonl")
    before = log.read_bytes()
    for target in (log, log.with_suffix(".result.json"), log.with_suffix(".log")):
        done = subprocess.run([sys.executable, "-m", "showdown", "report", str(tmp_path), "-o", str(target)], capture_output=True,
                              text=True, timeout=60, env=ENV, check=False)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "is a file this report reads" in done.stderr
    assert log.read_bytes() == before
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(tmp_path), "-o", str(tmp_path / "r.html")],
                          capture_output=True, text=True, timeout=60, env=ENV, check=False)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "showdown", "report", str(tmp_path), "-o", str(tmp_path / "r.html")],
                          capture_output=True, text=True, timeout=60, env=ENV, check=False)
    assert done.returncode == 0, done.stderr  # its own earlier report is no log: written over


def test_another_loopback_address_needs_no_public(tmp_path: Path) -> None:
    # --host 127.0.0.2 was 'listens beyond this machine: add --public'
    (tmp_path / "m.jsonl").write_text("")
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "view", str(tmp_path), "--host", "127.0.0.2", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("view at http://127.0.0.2:"), line + (proc.stderr.read() if proc.stderr and not line else "")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    assert "warning" not in err
