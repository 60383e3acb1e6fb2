"""Issue 30 in a real headless Chromium: the eight ARX hierarchies of adult.csv imported on
Explore trade-offs in ONE upload action, each matched to its column by its file name, with
the preview of its levels and no key of the workspace on screen.

Reported before: eight times "upload" in a select box, then a separate uploader per
column, and confirmations naming hashed files ("hierarchies/sex-537d23f7b6.csv").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_steps import (
    ADULT,
    ADULT_QUASI_IDENTIFIERS,
    MAIN,
    accept_roles,
    check_page,
    import_adult_hierarchies,
    open_page,
    open_tab,
    wait_idle,
)
from dashboard_server import run_dashboard

pytestmark = pytest.mark.browser
QUASI_IDENTIFIERS = ADULT_QUASI_IDENTIFIERS


def test_eight_adult_hierarchies_in_one_upload(browser, tmp_path: Path, screenshot_dir: Path):
    with run_dashboard(tmp_path / "server", tmp_path / "import.anon.db") as url:
        context, page = open_tab(browser, url, timeout_ms=90_000)
        main = page.locator(MAIN)
        page.locator('.st-key-upload input[type="file"]').set_input_files(ADULT / "adult.csv")
        wait_idle(page)
        main.get_by_text("30,162 records, 9 columns").first.wait_for()
        accept_roles(page)
        open_page(page, "Explore trade-offs")
        import_adult_hierarchies(page)  # in one upload action
        for column in QUASI_IDENTIFIERS:
            assert page.locator(f".st-key-to_kind_{column} input").input_value() == "upload"
        main.get_by_text(re.compile(r"Level 1 · 15 groups: 30-34 \(")).first.wait_for()
        text = main.inner_text()
        assert not re.search(r"-[0-9a-f]{10}\.csv", text)  # no workspace key on screen
        check_page(page, screenshot_dir, "hierarchy_import_adult")
        context.close()
