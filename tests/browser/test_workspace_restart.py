"""The workspace in a real headless Chromium: the project survives a server restart.

Data (the Annex C taxi table) -> Classify (accept and save the roles) -> Techniques (Age
in 10-year bands) -> the sidebar shows the recipe and k on every page -> stop the server,
start a new one on the same workspace file -> the same data, recipe and k are shown, and
History reports an intact audit log.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dashboard_server import run_dashboard
from test_walkthrough import SIDEBAR, TAXI, WIDTH, add_generalisation, go_to, metric_value, pick
from test_walkthrough import wait_idle as idle

pytestmark = pytest.mark.browser
K = re.escape("k (smallest group)")
VIEWPORT = {"width": 1400, "height": 1000}


def _open(browser, url: str):
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    tab.goto(url)
    idle(tab)
    tab.get_by_role("heading", name="Data").first.wait_for()
    return context, tab


def test_the_project_survives_a_server_restart(browser, tmp_path: Path) -> None:
    workspace = tmp_path / "restart.anon.db"
    with run_dashboard(tmp_path / "first", workspace) as url:
        context, page = _open(browser, url)
        sidebar = page.locator(SIDEBAR)
        pick(page, "sample", TAXI)
        page.locator(".st-key-load_sample button").click()
        idle(page)
        page.get_by_text("11 records, 5 columns").first.wait_for()
        go_to(page, "Classify", "Classify")
        page.locator(".st-key-accept_all button").click()
        idle(page)
        go_to(page, "Techniques", "Techniques")
        add_generalisation(page, "Age", "Bands of equal width")
        page.locator(".st-key-width input").fill(str(WIDTH))
        page.locator(".st-key-add_step button").click()
        idle(page)
        sidebar.get_by_text("Recipe: 1 step(s)").wait_for()
        k_before = metric_value(page, K, scope=SIDEBAR)
        go_to(page, "Risk", "Risk")  # the sidebar on another page
        assert metric_value(page, K, scope=SIDEBAR) == k_before
        context.close()

    with run_dashboard(tmp_path / "second", workspace) as url:  # a new server process
        context, page = _open(browser, url)
        sidebar = page.locator(SIDEBAR)
        sidebar.get_by_text("Recipe: 1 step(s)").wait_for()
        assert TAXI in sidebar.inner_text()
        assert metric_value(page, K, scope=SIDEBAR) == k_before
        go_to(page, "History", "History")
        page.get_by_text("Audit log intact").first.wait_for()
        assert not page.locator('[data-testid="stException"]').count()
        context.close()
