"""The Locations and dates page in a real headless Chromium: maps drawn, nothing fetched.

Opens the page on the default Singapore sample, picks random displacement (20-100 m),
waits for the Vega charts (the close-up, the histogram, the spatial k map on the vendored
Natural Earth basemap, the dates), takes full-page and map screenshots into
tests/screenshots/, and checks that no request left the machine (no map tiles).
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
MAIN = '[data-testid="stMain"]'


def wait_idle(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(500)


def test_locations_page_maps(page, app_url, screenshot_dir):
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if urlparse(r.url).hostname not in ("127.0.0.1", "localhost", None)
            and not r.url.startswith(("data:", "blob:")) else None)  # fmt: skip
    page.goto(app_url)
    wait_idle(page)
    page.locator('[data-testid="stSidebarNav"] a:has(span[label="Locations and dates"])').click()
    wait_idle(page)
    page.get_by_role("heading", name="Locations and dates").first.wait_for()
    page.locator(f'{MAIN} label:has-text("Random displacement")').click()
    wait_idle(page)
    charts = page.locator(f"{MAIN} .vega-embed")
    charts.nth(3).wait_for()
    exceptions = page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, exceptions.first.inner_text()
    spatial_map = page.locator('[data-testid="stVegaLiteChart"]').nth(2)  # the spatial k map
    spatial_map.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)
    spatial_map.screenshot(path=str(screenshot_dir / "08_locations_map.png"))
    assert page.locator(f"{MAIN} .vega-embed").count() >= 4  # close-up, histogram, k, dates
    viewport = page.viewport_size
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({**viewport, "height": min(max(height, viewport["height"]), 12000)})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(screenshot_dir / "08_locations_dates.png"), full_page=True)
    page.set_viewport_size(viewport)
    assert not outside, f"requests left the machine: {outside[:5]}"
