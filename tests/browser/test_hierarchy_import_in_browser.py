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
from browser_steps import MAIN, accept_roles, check_page, open_page, open_tab, wait_idle
from dashboard_server import run_dashboard

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT / "tests" / "data" / "adult"
QUASI_IDENTIFIERS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]


def _open_hierarchies(page) -> None:
    details = (
        page.locator('[data-testid="stExpander"] details')
        .filter(has=page.locator("summary", has_text="Hierarchies"))
        .first
    )
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    details.locator('[data-testid="stExpanderDetails"]').first.wait_for()
    wait_idle(page)


def test_eight_adult_hierarchies_in_one_upload(browser, tmp_path: Path, screenshot_dir: Path):
    with run_dashboard(tmp_path / "server", tmp_path / "import.anon.db") as url:
        context, page = open_tab(browser, url, timeout_ms=90_000)
        main = page.locator(MAIN)
        page.locator('.st-key-upload input[type="file"]').set_input_files(ADULT / "adult.csv")
        wait_idle(page)
        main.get_by_text("30,162 records, 9 columns").first.wait_for()
        accept_roles(page)
        open_page(page, "Explore trade-offs")
        # the quasi-identifiers of this test, whatever Step 1 suggested
        chosen = page.locator(".st-key-to_qi")
        for column in QUASI_IDENTIFIERS:
            if not chosen.get_by_text(column, exact=True).count():
                chosen.locator("input").first.fill(column)
                page.get_by_role("option", name=column, exact=True).first.click()
                wait_idle(page)
        page.keyboard.press("Escape")
        _open_hierarchies(page)
        files = [ADULT / f"adult_hierarchy_{column}.csv" for column in QUASI_IDENTIFIERS]
        page.locator('.st-key-to_hier_files input[type="file"]').set_input_files(files)  # one
        wait_idle(page)
        for column in QUASI_IDENTIFIERS:
            main.get_by_text(
                f"Using the uploaded hierarchy 'adult_hierarchy_{column}.csv'"
            ).first.wait_for()
            assert page.locator(f".st-key-to_kind_{column} input").input_value() == "upload"
        main.get_by_text(re.compile(r"Level 1 · 15 groups: 30-34 \(")).first.wait_for()
        text = main.inner_text()
        assert not re.search(r"-[0-9a-f]{10}\.csv", text)  # no workspace key on screen
        check_page(page, screenshot_dir, "hierarchy_import_adult")
        context.close()
