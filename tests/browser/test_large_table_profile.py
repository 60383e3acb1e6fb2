"""Issue 31, in a real headless Chromium: a large table opened with $ANON_DATA shows its
preview first, and its column profile comes by itself a moment later (the browser's timer
asks for the run that computes it, ui.data_steps.profile_after_the_preview), once: the
page then stays idle (no timer left asking for runs), quiet and without an error box."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest
from browser_steps import IDLE, MAIN, check_page, open_tab, watch_console
from dashboard_server import run_dashboard

from ui.state.loading import PROFILE_LATER_ROWS

pytestmark = pytest.mark.browser
TABLE = f'{MAIN} [data-testid="stDataFrame"]'
RECORDS = PROFILE_LATER_ROWS + 20_000


def _write_table(path: Path) -> None:
    """RECORDS records: an age (18-77), a town (3 names) and a running number."""
    towns = ("Bedok", "Yishun", "Tampines")
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["age", "town", "number"])
        writer.writerows((18 + i % 60, towns[i % 3], i) for i in range(RECORDS))


def test_the_profile_follows_the_preview_by_itself_once(
    browser, tmp_path: Path, screenshot_dir: Path, monkeypatch
) -> None:
    table = tmp_path / "large.csv"
    _write_table(table)
    monkeypatch.setenv("ANON_DATA", str(table))
    with run_dashboard(tmp_path / "server", tmp_path / "large.anon.db") as url:
        context, tab = open_tab(browser, url)
        try:
            console = watch_console(tab)
            tab.locator(TABLE).first.wait_for(state="visible")
            tab.locator(TABLE).nth(1).wait_for(state="visible")  # the profile, unasked
            tab.wait_for_selector(IDLE)
            profile = tab.locator(f"{MAIN} [data-testid='stCaptionContainer']").all_inner_texts()
            assert not [text for text in profile if "Profiling the" in text]
            # No run starts any more: the timer that asked for the profile is gone.
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                assert tab.locator(IDLE).count() == 1, "a run started without being asked"
                tab.wait_for_timeout(100)
            assert tab.locator(TABLE).count() == 2
            assert tab.get_by_text(f"{RECORDS:,} records, 3 columns").count() >= 1
            check_page(tab, screenshot_dir, "data_large_table", console)
        finally:
            context.close()
