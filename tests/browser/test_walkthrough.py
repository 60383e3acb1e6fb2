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

import re
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.browser

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TAXI = "guide_annex_c_taxi.csv"
QUASI_IDENTIFIERS = ["Age", "Gender", "Occupation"]
WIDTH = 10
ROOT = Path(__file__).resolve().parents[2]
MAIN = '[data-testid="stMain"]'
#: Headless Chromium's software WebGL reports driver stalls while deck.gl draws the maps:
#: the test machine's, not the page's.
DRIVER_NOISE = "GL Driver Message"
SIDEBAR = '[data-testid="stSidebar"]'
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


def wait_idle(page) -> None:
    """Let a rerun start, wait until the script has finished, then let the page render."""
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(400)


def go_to(page, title: str, heading: str) -> None:
    """Click a sidebar navigation link like a person and wait for the page's heading."""
    page.locator(f'[data-testid="stSidebarNav"] a:has(span[label="{title}"])').click()
    wait_idle(page)
    page.get_by_role("heading", name=heading, exact=True).first.wait_for()
    wait_idle(page)


def full_screenshot(page, path: Path) -> None:
    """Screenshot of the whole page. Streamlit scrolls inside <main> and the sidebar, not the
    document, so ``full_page`` alone stops at the viewport: grow the viewport to the content
    height for the shot, then restore it."""
    viewport = page.viewport_size
    height = page.evaluate(
        """() => Math.max(...['stMain', 'stSidebarContent'].map(id => {
            const e = document.querySelector(`[data-testid="${id}"]`);
            return e ? e.scrollHeight : 0;
        }))"""
    )
    page.set_viewport_size({**viewport, "height": min(max(height, viewport["height"]), 12000)})
    page.wait_for_timeout(700)  # charts and tables re-layout to the new size
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(viewport)


def watch_console(page) -> list[str]:
    """Collect every console warning and error of ``page`` (a Vega "Dropping fit-y", a log
    scale over zero, a React error) and every uncaught script error into the returned list,
    as they happen. Headless Chromium's own WebGL driver notes are left out."""
    messages: list[str] = []

    def keep(message) -> None:
        if message.type in ("warning", "error") and DRIVER_NOISE not in message.text:
            messages.append(f"{message.type}: {message.text[:300]}")

    page.on("console", keep)
    page.on("pageerror", lambda error: messages.append(f"uncaught: {str(error)[:300]}"))
    return messages


def check_page(page, shots: Path, name: str, console: list[str] | None = None) -> None:
    """No exception box on the page and, when ``console`` (from :func:`watch_console`) is
    given, no console warning or error since the last check; save a full-page screenshot."""
    exceptions = page.locator('[data-testid="stException"]')
    full_screenshot(page, shots / f"{name}.png")
    if exceptions.count():
        pytest.fail(f"Streamlit exception on page {name}:\n" + exceptions.first.inner_text())
    if console:
        pytest.fail(f"Console warnings or errors on page {name}:\n" + "\n".join(console))
    if console is not None:
        console.clear()


def pick(page, key: str, option: str | re.Pattern) -> None:
    """Choose ``option`` in the selectbox with widget key ``key``."""
    page.locator(f'.st-key-{key} [role="combobox"]').click()
    page.get_by_role("option", name=option).first.click()
    wait_idle(page)


def metric_value(page, label: str, *, scope: str = MAIN) -> str:
    """The value shown by the metric whose label is exactly ``label``."""
    metric = page.locator(f'{scope} [data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{label}$"))
    )
    return metric.locator('[data-testid="stMetricValue"]').first.inner_text().strip()


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


def add_generalisation(page, column: str, mode: str) -> None:
    """Techniques page: choose 'generalise', the column and the kind of generalisation."""
    pick(page, "technique", re.compile(r"^Generalise"))
    pick(page, "column", column)
    page.locator(".st-key-gen_mode").get_by_text(mode).click()
    wait_idle(page)


def test_main_path_in_chromium(page, app_url: str, screenshot_dir: Path) -> None:
    console = watch_console(page)
    page.goto(app_url)
    wait_idle(page)
    page.get_by_role("heading", name="Data").first.wait_for()
    sidebar = page.locator('[data-testid="stSidebar"]')
    main = page.locator('[data-testid="stMain"]')
    assert "singapore_people.csv" in sidebar.inner_text()  # the default sample

    # Data: pick the Annex C taxi sample and load it.
    pick(page, "sample", TAXI)
    page.locator(".st-key-load_sample button").click()
    wait_idle(page)
    # The session's workspace may hold confirmed roles from an earlier test (the server is
    # shared): the Data page then asks before replacing them.
    if page.locator(".st-key-load_sample_yes button").count():
        page.locator(".st-key-load_sample_yes button").click()
        wait_idle(page)
    page.get_by_text("11 records, 5 columns").first.wait_for()
    assert TAXI in sidebar.inner_text()
    check_page(page, screenshot_dir, "01_data", console)

    # Classify: accept the suggestions (Age, Gender, Occupation are indirect) and save.
    go_to(page, "Classify", "Classify")
    page.locator(".st-key-accept_all button").click()
    wait_idle(page)
    page.locator(".st-key-save_roles button").click()
    wait_idle(page)
    page.get_by_text("Roles confirmed for 5 of 5 columns").wait_for()
    check_page(page, screenshot_dir, "02_classify", console)

    go_to(page, "De-identify", "De-identify")
    check_page(page, screenshot_dir, "03_deidentify", console)

    # Techniques: Age into bands of width 10, added to the recipe.
    go_to(page, "Techniques", "Techniques")
    add_generalisation(page, "Age", "Bands of equal width")
    page.locator(".st-key-width input").fill(str(WIDTH))
    page.locator(".st-key-add_step button").click()
    wait_idle(page)
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
    go_to(page, "Risk", "Risk")
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
    assert metric_value(page, re.escape("k (smallest group)"), scope=SIDEBAR) == str(sizes.min())
    check_page(page, screenshot_dir, "05_risk", console)

    go_to(page, "Uniqueness", "Uniqueness")
    check_page(page, screenshot_dir, "06_uniqueness", console)

    # Report: every download button is there; the anonymised data is the expected table.
    go_to(page, "Report", "Report")
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
    with page.expect_download() as download:
        page.locator(".st-key-download_data button").click()
    assert download.value.suggested_filename == "released.NOT-ANONYMISED.csv"
    released = pd.read_csv(download.value.path())
    pd.testing.assert_frame_equal(released, expected, check_dtype=False)
