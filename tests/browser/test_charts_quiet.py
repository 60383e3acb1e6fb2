"""The charts of issue 29 drawn in Chromium with no console warning (Vega's
``Dropping "fit-y" because spec has discrete height``, a log scale over zero...).

The every-page check opens each page as it first comes (no recipe yet); here a project
with a recipe is opened so that the charts the issue names are drawn: Risk's "Which
quasi-identifier drives the risk", Report's "Utility cost per column", the Aggregate
release's error bands and accuracy against ε, Area-level risk's LR per subset (on the
sample survey), and the charts of Uniqueness, Survey risk and Locations and dates. Before
commit 0d4a107 Risk and Aggregate release logged the fit-y warning here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from browser_steps import ROOT, full_screenshot, open_page, open_tab, wait_idle, watch_console
from dashboard_server import run_dashboard

from core.recipe import Recipe
from core.workspace import Workspace, sha256_file

pytestmark = pytest.mark.browser
SAMPLE = ROOT / "sample_data" / "singapore_people.csv"
ROLES = {
    "nric": "direct",
    "name": "direct",
    "email": "direct",
    "mobile": "direct",
    "date_of_birth": "indirect",
    "sex": "indirect",
    "race": "indirect",
    "postal_code": "indirect",
    "occupation": "indirect",
    "diagnosis": "target",
    "latitude": "other",
    "longitude": "other",
    "income": "other",
}
STEPS = [
    {"step": "remove", "columns": ["nric", "name", "email", "mobile"]},
    {"step": "generalise", "column": "date_of_birth", "date_unit": "year"},
    {"step": "mask", "column": "postal_code", "keep_first": 2},
]
#: (menu title, a heading of the chart that must be drawn)
CHART_PAGES = [
    ("Risk", "Which quasi-identifier drives the risk?"),
    ("Report", "Utility cost per column"),
    ("Aggregate release", "Accuracy against privacy"),
    ("Uniqueness", None),
    ("Survey risk", None),
    ("Locations and dates", None),
]


def _project(workspace: Path) -> None:
    """A workspace holding the sample with its roles and a three-step recipe (as the pages
    would record them)."""
    sha = sha256_file(SAMPLE)
    with Workspace(workspace) as ws:
        ws.add_dataset(pd.read_csv(SAMPLE), name=SAMPLE.name, source_path=str(SAMPLE), sha256=sha)
        ws.set_setting(
            "current_data", {"sha256": sha, "name": SAMPLE.name, "source_path": str(SAMPLE)}
        )
        ws.set_roles(sha, ROLES, author="test")
        version = ws.add_recipe_version(Recipe(steps=STEPS).to_yaml(), message="t", author="t")
        ws.set_setting("current_recipe", version.id)


def _quiet(page, console: list[str], shots: Path, name: str, heading: str | None) -> list[str]:
    if heading is not None:
        page.get_by_role("heading", name=heading).first.wait_for()
    page.wait_for_timeout(2000)  # Vega draws (and warns) after the script has finished
    charts = page.locator('[data-testid="stVegaLiteChart"]').count()
    full_screenshot(page, shots / f"charts_{name}.png")
    found = [f"{name}: console {line}" for line in console]
    if page.locator('[data-testid="stException"]').count():
        found.append(f"{name}: Streamlit exception box")
    if not charts:
        found.append(f"{name}: no chart drawn")
    console.clear()
    return found


def test_the_charts_draw_without_console_warnings(browser, tmp_path, screenshot_dir):
    workspace = tmp_path / "charts.anon.db"
    _project(workspace)
    problems: list[str] = []
    with run_dashboard(tmp_path / "server", workspace) as url:
        context, page = open_tab(browser, url, timeout_ms=60_000)
        console = watch_console(page)
        for title, heading in CHART_PAGES:
            console.clear()
            open_page(page, title)
            problems += _quiet(
                page, console, screenshot_dir, title.lower().replace(" ", "_"), heading
            )
        open_page(page, "Area-level risk")
        page.locator(".st-key-ctx_load_survey button").click()
        wait_idle(page)
        page.locator(".st-key-ctx_load_survey_yes button").click()  # it asks: work at stake
        wait_idle(page)
        problems += _quiet(
            page, console, screenshot_dir, "area_level_risk", "What if: coarseness and variables"
        )
        context.close()
    assert not problems, "\n".join(problems)
