"""Fixtures for the browser tests: the dashboard in a subprocess and Debian's Chromium.

Playwright drives /usr/bin/chromium; it never downloads a browser. Run with
``.venv/bin/python -m pytest tests/browser -q -m browser``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 1000}
STARTUP_TIMEOUT_S = 60


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read().decode().strip() == "ok"
    except OSError:
        return False


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``streamlit run app.py`` on a free port; stop it when the session ends."""
    streamlit = Path(sys.executable).with_name("streamlit")
    port = _free_port()
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [
            str(streamlit),
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        # its own workspace file: never workspace.anon.db in the repository
        env={
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "ANON_WORKSPACE": str(log_path.with_name("browser.anon.db")),
        },  # fmt: skip
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _healthy(f"{url}/_stcore/health"):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = log_path.read_text(errors="replace")[-3000:]
                pytest.fail(
                    f"The dashboard did not answer on {url}/_stcore/health within "
                    f"{STARTUP_TIMEOUT_S} s (exit code {process.poll()}). Server output:\n"
                    f"{output}"
                )
            time.sleep(0.25)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's headless Chromium driven by Playwright (never a downloaded browser)."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium. "
            "Run `bash scripts/setup.sh --with-browser` (as root) and try again."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser, app_url: str) -> Iterator[object]:
    """A fresh 1400x1000 tab (its own Streamlit session) that fails fast on slow steps."""
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
