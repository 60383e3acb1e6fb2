"""The dashboard's main path, clicked through in a real headless Chromium.

Data (load the guide's Annex C taxi table) -> Classify (accept the suggested roles: Age,
Gender and Occupation are indirect identifiers) -> De-identify -> Techniques (generalise
Age into 10-year bands, then group the occupations as Annex C does) -> Risk (k, classes,
unique records and records below k checked against pandas) -> Uniqueness -> Report
(download buttons; the release check locks the data until "release anyway" is ticked;
the CSV downloaded and compared with pandas). Every page
gets a full-page screenshot in tests/screenshots/ and must show no Streamlit exception box
and log no console warning or error (issue 17, "Checks").
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from browser_steps import (
    ROOT,
    SIDEBAR,
    SIDEBAR_K,
    TAXI,
    accept_roles,
    add_age_bands,
    add_generalisation,
    check_page,
    load_sample,
    metric_value,
    open_page,
    prepare_release,
    prepare_release_button,
    save_roles,
    wait_idle,
    watch_console,
)

pytestmark = pytest.mark.browser

QUASI_IDENTIFIERS = ["Age", "Gender", "Occupation"]
WIDTH = 10
DOWNLOADS = (
    "download_data",
    "download_recipe",
    "download_script",
    "download_report_md",
    "download_report_json",
)
#: PDPC guide, Annex C: "both 'database administrator' and 'programmer' are generalised to
#: 'IT'"; the data protection roles become "Data Protection Officer"; the banker stays.
OCCUPATION_GROUPS = {
    "Assistant Data Protection Officer": "Data Protection Officer",
    "Chief Privacy Officer": "Data Protection Officer",
    "Regional Data Protection Officer": "Data Protection Officer",
    "Deputy Data Protection Officer": "Data Protection Officer",
    "Manager, DPO Office": "Data Protection Officer",
    "Lead IT Consultant": "IT",
    "Database Administrator": "IT",
    "Programmer": "IT",
    "IT Analyst": "IT",
    "UX Designer": "IT",
}


def expected_table(*, group_occupations: bool) -> pd.DataFrame:
    """The taxi table after the walk's steps, computed with pandas alone.

    Age: 10-year bands [20, 30), [30, 40) labelled "20-29", "30-39" (the band is
    floor(age / 10) * 10); so the guide's 30-year-old officer falls in 30-39, alone.
    """
    taxi = pd.read_csv(ROOT / "sample_data" / TAXI)
    low = (taxi["Age"] // WIDTH) * WIDTH
    taxi["Age"] = low.astype(str) + "-" + (low + WIDTH - 1).astype(str)
    if group_occupations:
        taxi["Occupation"] = taxi["Occupation"].replace(OCCUPATION_GROUPS)
    return taxi


def class_sizes(table: pd.DataFrame) -> pd.Series:
    return table.groupby(QUASI_IDENTIFIERS).size()


def test_main_path_in_chromium(page, app_url: str, screenshot_dir: Path) -> None:
    console = watch_console(page)
    page.goto(app_url)
    wait_idle(page)
    page.get_by_role("heading", name="Data").first.wait_for()
    sidebar = page.locator('[data-testid="stSidebar"]')
    main = page.locator('[data-testid="stMain"]')
    assert "singapore_people.csv" in sidebar.inner_text()  # the default sample

    # Data: pick the Annex C taxi sample and load it. (The session's workspace may hold
    # confirmed roles from an earlier test: the server is shared; load_sample says yes.)
    load_sample(page, TAXI, "11 records, 5 columns")
    assert TAXI in sidebar.inner_text()
    check_page(page, screenshot_dir, "01_data", console)

    # Classify: accept the suggestions (Age, Gender, Occupation are indirect) and save.
    accept_roles(page)
    save_roles(page, 5)
    check_page(page, screenshot_dir, "02_classify", console)

    open_page(page, "De-identify")
    check_page(page, screenshot_dir, "03_deidentify", console)

    # Techniques: Age into bands of width 10, added to the recipe.
    add_age_bands(page, WIDTH)
    sidebar.get_by_text("Recipe: 1 step(s)").wait_for()
    after_age = class_sizes(expected_table(group_occupations=False))
    assert metric_value(page, "k after the recipe") == str(after_age.min())

    # ... then the occupations grouped as in Annex C (a category mapping).
    add_generalisation(page, "Occupation", "Category mapping")
    mapping = "\n".join(f"{old} = {new}" for old, new in OCCUPATION_GROUPS.items())
    page.locator(".st-key-mapping textarea").fill(mapping)
    page.locator(".st-key-add_step button").click()
    wait_idle(page)
    sidebar.get_by_text("Recipe: 2 step(s)").wait_for()
    check_page(page, screenshot_dir, "04_techniques", console)

    # Risk: the figures shown equal those computed with pandas on the expected table.
    open_page(page, "Risk")
    expected = expected_table(group_occupations=True)
    sizes = class_sizes(expected)
    k_target = int(page.locator(".st-key-risk_k_target input").input_value())
    below = int(sizes[sizes < k_target].sum())
    assert "Quasi-identifiers: Age, Gender, Occupation" in main.inner_text()
    assert (sizes.min(), len(sizes), (sizes == 1).sum(), below) == (1, 4, 2, 6)  # by hand
    assert metric_value(page, "k") == str(sizes.min())
    assert metric_value(page, "Classes") == str(len(sizes))
    assert metric_value(page, "Unique records") == str((sizes == 1).sum())
    assert metric_value(page, f"Records below k = {k_target}") == str(below)
    assert metric_value(page, SIDEBAR_K, scope=SIDEBAR) == str(sizes.min())
    check_page(page, screenshot_dir, "05_risk", console)

    open_page(page, "Uniqueness")
    check_page(page, screenshot_dir, "06_uniqueness", console)

    # Report: every download button is there; the anonymised data is the expected table.
    open_page(page, "Report")
    for key in DOWNLOADS:
        assert page.locator(f".st-key-{key} button").count() == 1, f"'{key}' missing on Report"
    # no pseudonymisation step, so no mapping table: no passphrase or mapping download
    assert page.locator(".st-key-download_mapping_encrypted").count() == 0
    check_page(page, screenshot_dir, "07_report", console)
    # k = 1 and the serial numbers are left in clear: the release check locks the data
    # until the user ticks "release anyway"; the file name then says NOT-ANONYMISED.
    assert page.locator(".st-key-download_data button").is_disabled()
    page.locator(".st-key-release_anyway label").click()
    wait_idle(page)
    # The release is recorded in the workspace before its files are offered (issue 27).
    assert page.locator(".st-key-download_report_json button").is_disabled()
    prepare_release(page)
    # Recorded: the button is gone, and the record is said above the downloads it unlocks.
    assert not prepare_release_button(page).count()
    recorded = page.get_by_text("Recorded as release").first.bounding_box()
    assert recorded["y"] < page.locator(".st-key-download_data button").bounding_box()["y"]
    # The unlocked downloads' labels are read in full (the bundle's was cut off).
    page.locator(".st-key-download_bundle button:not([disabled])").wait_for()
    check_page(page, screenshot_dir, "08_report_released_anyway", console)
    with page.expect_download() as download:
        page.locator(".st-key-download_data button").click()
    assert download.value.suggested_filename == "released.NOT-ANONYMISED.csv"
    released = pd.read_csv(download.value.path())
    pd.testing.assert_frame_equal(released, expected, check_dtype=False)
