"""How fast the browser view opens a big match: the match page of a 1,000,000-hand match.

Run: ``PYTHONPATH=. python3 benchmarks/bench_view.py [--hands 1000000] [--folder DIR]``.

Plays the match first when ``--folder`` holds none (Kuhn, random vs call: about 3-4 minutes for a
million hands), then starts ``showdown view`` on it and measures, best of ``--runs``:

* the match summary request (``/api/match``): the server answers from the match's result file;
* the page in headless Chromium (when chromium, chromedriver and selenium are here): from asking
  for the page to its table of results and its chart drawn (goal: under 2 s);
* for comparison, the summary computed from the log alone (a live match, or logs without a result
  file): the whole ``.jsonl`` read once.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from showdown.view.catalog import discover
from showdown.view.data import LogFollower
from showdown.view.server import start_view_thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--folder", default="/tmp/showdown-bench-view")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = Path(args.folder)
    if not list(folder.glob("*.result.json")):
        print(f"playing a {args.hands:,}-hand match into {folder} ...", flush=True)
        subprocess.run([sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", str(args.hands),
                        "--out", str(folder), "--force", "--no-progress"], check=True, stdout=subprocess.DEVNULL)
    catalog = discover([folder])
    key, files = next(iter(catalog.matches.items()))
    assert files.jsonl is not None
    print(f"match {key}: {files.jsonl.stat().st_size / 1e6:.0f} MB of JSON Lines")
    url, stop = start_view_thread([folder])
    try:
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            with urllib.request.urlopen(f"{url}api/match?key={key}") as r:
                doc = json.loads(r.read())
            times.append(time.perf_counter() - start)
        print(f"/api/match: {min(times) * 1e3:.0f} ms (best of {args.runs}); {doc['hands']:,} hands, {len(doc['series']['points'])} chart points")
        page = browser_time(url, key, args.runs)
        if page is not None:
            print(f"match page in headless Chromium, request to table and chart drawn: {page:.2f} s (best of {args.runs}; goal < 2 s)")
    finally:
        stop()
    start = time.perf_counter()
    follower = LogFollower(files.jsonl)
    follower.poll()
    follower.summary()
    print(f"for comparison, the summary from the log alone (no result file): {time.perf_counter() - start:.1f} s")


def browser_time(url: str, key: str, runs: int) -> float | None:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        chromium = None
    if not chromium or not driver_path:
        print("headless Chromium not available (apt-get install chromium chromium-driver; pip install selenium): page time skipped")
        return None
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"):
        options.add_argument(arg)
    options.binary_location = chromium
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    best = float("inf")
    try:
        for _ in range(runs):
            driver.get("about:blank")
            start = time.perf_counter()
            driver.get(f"{url}#/match/{key}")
            WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=chart] polyline")))
            WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=agents] tr[data-agent]")))
            best = min(best, time.perf_counter() - start)
    finally:
        driver.quit()
    return best


if __name__ == "__main__":
    main()
