"""A real headless Chromium (Debian's chromium and chromedriver) driven by Selenium, and view servers."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("SHOWDOWN_SCREENSHOTS", "")) if os.environ.get("SHOWDOWN_SCREENSHOTS") else None


def _need_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install selenium)")
    if missing:
        message = f"browser tests need {', '.join(missing)} (apt-get install chromium chromium-driver)"
        if os.environ.get("SHOWDOWN_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need_browser()
    pytest.importorskip("aiohttp")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1300",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic"):
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver: Any, name: str) -> None:
    """Save a screenshot of the page when SHOWDOWN_SCREENSHOTS names a folder (the README's pictures)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"{name}.png"))


@pytest.fixture
def serve() -> Iterator[Any]:
    """serve(paths) -> the address of a view server for them (stopped after the test)."""
    pytest.importorskip("aiohttp")
    from showdown.view.server import start_view_thread

    stops = []

    def start(*paths: Path) -> str:
        url, stop = start_view_thread(list(paths))
        stops.append(stop)
        return url

    yield start
    for stop in stops:
        stop()


def wait_for(driver: Any, css: str, timeout: float = 15.0) -> Any:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def text_of(driver: Any, css: str, timeout: float = 15.0) -> str:
    """The text of the first element matching css, read again if the page re-drew it meanwhile.

    A page that follows a log still being written (live, or a torn file) re-draws itself every few
    seconds, so an element found a moment ago may be gone by the time its text is read."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
    return str(wait.until(lambda d: d.find_element(By.CSS_SELECTOR, css).text))
