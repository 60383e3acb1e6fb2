"""Issue 29's done-when, in a real headless Chromium: the work stays.

Upload a file of one's own (not a sample) -> the Data page says it is kept in the
workspace -> Classify (accept and save the roles) -> Explore trade-offs (upload an ARX
hierarchy for Age) -> Techniques (Age in 10-year bands, then the trips per week in bands
of 5) -> close the browser, stop the server, start a new one on the same workspace file ->
a new browser finds the same data, roles, both steps and the hierarchy, and the workspace
holds no version written by the opening.

Reported before: the app reopened on the sample table, wrote "v7 · new data set
'singapore_people.csv'", and re-uploading the file brought back neither roles nor recipe.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_steps import (
    MAIN,
    SIDEBAR,
    SIDEBAR_K,
    accept_roles,
    add_age_bands,
    add_generalisation,
    check_page,
    expect_project_in_sidebar,
    metric_value,
    open_hierarchies,
    open_page,
    open_tab,
    pick,
    save_roles,
    wait_idle,
)
from dashboard_server import run_dashboard
from taxi_walkthrough import AGE_HIERARCHY

from core.recipe import Recipe
from core.workspace import Workspace

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
MINE = "my_drivers.csv"  # the Annex C taxi table under a name of one's own
TRIPS = "Average number of trips per week"


def _recipe_steps(workspace: Path) -> list[dict]:
    """The steps of the recipe version in force."""
    with Workspace(workspace) as ws:
        version = ws.recipe_version(ws.settings()["current_recipe"])
    return list(Recipe.from_yaml(version.yaml).steps)


def _versions(workspace: Path) -> list[str]:
    with Workspace(workspace) as ws:
        return [v.message for v in ws.recipe_versions()]


def test_an_upload_roles_recipe_and_hierarchy_survive_a_restart(
    browser, tmp_path: Path, screenshot_dir: Path
) -> None:
    workspace = tmp_path / "stays.anon.db"
    mine = tmp_path / MINE
    mine.write_bytes((ROOT / "sample_data" / "guide_annex_c_taxi.csv").read_bytes())
    hierarchy_file = tmp_path / "age_hierarchy.csv"
    hierarchy_file.write_text(AGE_HIERARCHY)
    shots = screenshot_dir

    with run_dashboard(tmp_path / "first", workspace) as url:
        context, page = open_tab(browser, url, timeout_ms=60_000)
        main, sidebar = page.locator(MAIN), page.locator(SIDEBAR)
        main.get_by_text("is kept in the workspace file").first.wait_for()  # said at upload
        page.locator('.st-key-upload input[type="file"]').set_input_files(mine)
        wait_idle(page)
        main.get_by_text("11 records, 5 columns").first.wait_for()
        assert MINE in sidebar.inner_text()
        check_page(page, shots, "stays_01_uploaded")

        accept_roles(page)
        save_roles(page, 5)

        open_page(page, "Explore trade-offs")
        open_hierarchies(page)
        pick(page, "to_kind_Age", "upload")
        page.locator('.st-key-to_up_Age input[type="file"]').set_input_files(hierarchy_file)
        wait_idle(page)
        main.get_by_text("Using the uploaded hierarchy").first.wait_for()

        add_age_bands(page)
        sidebar.get_by_text("Recipe: 1 step(s)").wait_for()
        # a second step: the trips per week in bands of 5
        add_generalisation(page, TRIPS, "Bands of equal width")
        page.locator(".st-key-width input").fill("5")
        page.locator(".st-key-add_step button").click()
        wait_idle(page)
        sidebar.get_by_text("Recipe: 2 step(s)").wait_for()
        steps_before = _recipe_steps(workspace)
        assert [s.get("column") for s in steps_before] == ["Age", TRIPS]
        k_before = metric_value(page, SIDEBAR_K, scope=SIDEBAR)
        check_page(page, shots, "stays_02_before_restart")
        context.close()  # the browser closes
    versions = _versions(workspace)

    with run_dashboard(tmp_path / "second", workspace) as url:  # a new server process
        context, page = open_tab(browser, url, timeout_ms=60_000)
        main = page.locator(MAIN)
        expect_project_in_sidebar(page, data=MINE, steps=2, k=k_before)
        main.get_by_text(f"{MINE}").first.wait_for()
        main.get_by_text("11 records, 5 columns").first.wait_for()  # the data, not a sample
        check_page(page, shots, "stays_03_data_after_restart")

        open_page(page, "Classify")
        main.get_by_text("Roles confirmed for 5 of 5 columns").first.wait_for()
        check_page(page, shots, "stays_04_roles_after_restart")

        open_page(page, "Explore trade-offs")
        open_hierarchies(page)
        assert page.locator(".st-key-to_kind_Age input").input_value() == "upload"
        main.get_by_text("Using the uploaded hierarchy").first.wait_for()
        check_page(page, shots, "stays_05_hierarchy_after_restart")

        open_page(page, "Techniques")
        page.locator(SIDEBAR).get_by_text("Recipe: 2 step(s)").wait_for()
        assert metric_value(page, SIDEBAR_K, scope=SIDEBAR) == k_before
        main.get_by_text(TRIPS).first.wait_for()  # the second step is listed on Techniques
        check_page(page, shots, "stays_06_steps_after_restart")
        context.close()
    assert _versions(workspace) == versions  # the opening wrote no recipe version
    assert _recipe_steps(workspace) == steps_before
