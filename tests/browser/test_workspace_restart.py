"""The workspace in a real headless Chromium: the project survives a server restart.

Data (the Annex C taxi table) -> Classify (accept the roles) -> Techniques (Age in 10-year
bands) -> the sidebar shows the recipe and k on every page -> stop the server, start a new
one on the same workspace file -> the same data, recipe and k are shown, and History
reports an intact audit log.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_steps import (
    SIDEBAR,
    SIDEBAR_K,
    TAXI,
    accept_roles,
    add_age_bands,
    expect_project_in_sidebar,
    load_sample,
    metric_value,
    open_page,
    open_tab,
)
from dashboard_server import run_dashboard

pytestmark = pytest.mark.browser


def test_the_project_survives_a_server_restart(browser, tmp_path: Path) -> None:
    workspace = tmp_path / "restart.anon.db"
    with run_dashboard(tmp_path / "first", workspace) as url:
        context, page = open_tab(browser, url)
        sidebar = page.locator(SIDEBAR)
        load_sample(page, TAXI, "11 records, 5 columns")
        accept_roles(page)
        add_age_bands(page)
        sidebar.get_by_text("Recipe: 1 step(s)").wait_for()
        k_before = metric_value(page, SIDEBAR_K, scope=SIDEBAR)
        open_page(page, "Risk")  # the sidebar on another page
        assert metric_value(page, SIDEBAR_K, scope=SIDEBAR) == k_before
        context.close()

    with run_dashboard(tmp_path / "second", workspace) as url:  # a new server process
        context, page = open_tab(browser, url)
        expect_project_in_sidebar(page, data=TAXI, steps=1, k=k_before)
        open_page(page, "History")
        page.get_by_text("Audit log intact").first.wait_for()
        assert not page.locator('[data-testid="stException"]').count()
        context.close()
