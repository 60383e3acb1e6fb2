"""Fixtures for the browser tests: the dashboard in a subprocess and Debian's Chromium.

Playwright drives /usr/bin/chromium; it never downloads a browser. Run with
``.venv/bin/python -m pytest tests/browser -q -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_steps import VIEWPORT
from dashboard_server import run_dashboard

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


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard for the whole session (see :func:`run_dashboard`)."""
    folder = tmp_path_factory.mktemp("streamlit")
    with run_dashboard(folder, folder / "browser.anon.db") as url:
        yield url


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
