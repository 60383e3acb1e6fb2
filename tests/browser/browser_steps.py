"""Steps the browser tests share, clicked like a person: wait for a rerun, open a page
from the menu, pick in a selectbox, read a metric, load a sample, accept the roles, check
a page (no exception box, no console warning, a screenshot). One place, so a change in the
dashboard's markup is mended once (a module without ``test_``: pytest does not collect it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
MAIN = '[data-testid="stMain"]'
SIDEBAR = '[data-testid="stSidebar"]'
#: The page menu in the sidebar (ui.navigation: one st.page_link per page).
MENU_SELECTOR = ".st-key-app_menu"
#: The sidebar metric of the current recipe's smallest class (a regular expression).
SIDEBAR_K = re.escape("k (smallest group)")
VIEWPORT = {"width": 1400, "height": 1000}
TAXI = "guide_annex_c_taxi.csv"
ADULT = ROOT / "tests" / "data" / "adult"
#: The adult table's eight quasi-identifiers, each with ARX's adult_hierarchy_<column>.csv.
ADULT_QUASI_IDENTIFIERS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]
#: Headless Chromium's software GL driver can log stalls of its own (the test machine's,
#: not the page's: the maps are Vega canvases and need no WebGL).
DRIVER_NOISE = "GL Driver Message"


def wait_idle(page) -> None:
    """Let a rerun start, wait until the script has finished, then let the page render."""
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(400)


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


#: Text Streamlit cuts with an ellipsis because it does not fit its box (a label, a button,
#: the uploader's file types...): a person cannot read it (issue 17, "no label is cut off").
#: The box that cuts is not always the one holding the text: a button's label is a <p>
#: inside a <div class="stMarkdownEllipsis">, and the <div> cuts. Data grids are canvases,
#: not text: their cells are not seen here.
CUT_TEXT = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] *, [data-testid="stSidebar"] *')]
  .filter(e => e.textContent.trim() && e.scrollWidth > e.clientWidth + 1
    && getComputedStyle(e).textOverflow === 'ellipsis'
    && getComputedStyle(e).overflowX !== 'visible')
  .map(e => e.textContent.trim().slice(0, 80))"""


def cut_text(page) -> list[str]:
    """The texts on the page cut off with an ellipsis (the first 80 characters of each)."""
    return page.evaluate(CUT_TEXT)


def check_page(page, shots: Path, name: str, console: list[str] | None = None) -> None:
    """No exception box on the page, no text cut off with an ellipsis and, when ``console``
    (from :func:`watch_console`) is given, no console warning or error since the last
    check; save a full-page screenshot."""
    exceptions = page.locator('[data-testid="stException"]')
    full_screenshot(page, shots / f"{name}.png")
    if exceptions.count():
        pytest.fail(f"Streamlit exception on page {name}:\n" + exceptions.first.inner_text())
    if cut := cut_text(page):
        pytest.fail(f"Text cut off with an ellipsis on page {name}: {cut}")
    if console:
        pytest.fail(f"Console warnings or errors on page {name}:\n" + "\n".join(console))
    if console is not None:
        console.clear()


def pick(page, key: str, option: str | re.Pattern) -> None:
    """Choose ``option`` in the selectbox with widget key ``key``.

    A click that lands while the box is being rendered again (just after an expander
    around it opened) focuses it without opening its list: then it is clicked again, only
    while the list is closed (a click on an open list would close it)."""
    box = page.locator(f'.st-key-{key} [role="combobox"]').first
    for _ in range(3):
        box.click()
        if _list_opens(box):
            break
    page.get_by_role("option", name=option).first.click()
    wait_idle(page)


def _list_opens(box, wait_ms: int = 2_000) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        box.page.wait_for_function(
            "box => box.getAttribute('aria-expanded') === 'true'",
            arg=box.element_handle(),
            timeout=wait_ms,
        )
    except PlaywrightTimeoutError:
        return False
    return True


def metric_value(page, label: str, *, scope: str = MAIN) -> str:
    """The value shown by the metric whose label is exactly ``label``."""
    metric = page.locator(f'{scope} [data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{label}$"))
    )
    return metric.locator('[data-testid="stMetricValue"]').first.inner_text().strip()


def menu_link(page, title: str):
    """The page's link in the sidebar menu (ui.navigation), found by its name."""
    return page.locator(MENU_SELECTOR).get_by_role("link", name=title, exact=True)


def open_page(page, title: str) -> None:
    """Click the page's link in the sidebar menu."""
    menu_link(page, title).click()
    wait_idle(page)
    page.get_by_role("heading", name=title, exact=True).first.wait_for()
    wait_idle(page)


def add_generalisation(page, column: str, mode: str) -> None:
    """Techniques page: choose 'generalise', the column and the kind of generalisation."""
    pick(page, "technique", re.compile(r"^Generalise"))
    pick(page, "column", column)
    page.locator(".st-key-gen_mode").get_by_text(mode).click()
    wait_idle(page)


def open_tab(browser, url: str, *, timeout_ms: int = 30_000, downloads: bool = False):
    """A new browser context (its own Streamlit session) on ``url``, once the Data page is
    drawn; returns the context (close it) and its tab."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=downloads)
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms)
    tab.goto(url)
    wait_idle(tab)
    tab.get_by_role("heading", name="Data").first.wait_for()
    return context, tab


def load_sample(page, name: str, shape: str) -> None:
    """Data page: load the sample file ``name`` and wait for its ``shape`` ("11 records, 5
    columns"). A workspace holding confirmed roles first asks before replacing them: yes."""
    pick(page, "sample", name)
    page.locator(".st-key-load_sample button").click()
    wait_idle(page)
    if page.locator(".st-key-load_sample_yes button").count():
        page.locator(".st-key-load_sample_yes button").click()
        wait_idle(page)
    page.get_by_text(shape).first.wait_for()


def accept_roles(page) -> None:
    """Classify: accept every suggested role."""
    open_page(page, "Classify")
    page.locator(".st-key-accept_all button").click()
    wait_idle(page)


def save_roles(page, columns: int) -> None:
    """Classify: confirm the roles; the page then says so for all ``columns`` columns."""
    page.locator(".st-key-save_roles button").click()
    wait_idle(page)
    page.get_by_text(f"Roles confirmed for {columns} of {columns} columns").wait_for()


def add_age_bands(page, width: int = 10) -> None:
    """Techniques: Age into bands of ``width`` years (Annex C's decades), added to the
    recipe."""
    open_page(page, "Techniques")
    add_generalisation(page, "Age", "Bands of equal width")
    page.locator(".st-key-width input").fill(str(width))
    page.locator(".st-key-add_step button").click()
    wait_idle(page)


def prepare_release_button(page):
    """Report: the "Prepare the release" button. With its help text Streamlit draws a second,
    hidden button in the same container: the one named by its label is the one seen."""
    return page.locator(".st-key-prepare_release").get_by_role(
        "button", name="Prepare the release", exact=True
    )


def prepare_release(page) -> None:
    """Report: record the release in the workspace; its downloads are offered after it
    (issue 27)."""
    prepare_release_button(page).click()
    wait_idle(page)
    page.get_by_text(re.compile("(Already r|R)ecorded as release")).first.wait_for()


def expect_project_in_sidebar(page, *, data: str, steps: int, k: str) -> None:
    """The sidebar names the data file, the recipe's number of steps and its k (what a
    person checks after a restart or on another page)."""
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text(f"Recipe: {steps} step(s)").wait_for()
    assert data in sidebar.inner_text()
    assert metric_value(page, SIDEBAR_K, scope=SIDEBAR) == k


def open_hierarchies(page) -> None:
    """Open the "Hierarchies" expander on Explore trade-offs (if it is not open yet)."""
    details = (
        page.locator('[data-testid="stExpander"] details')
        .filter(has=page.locator("summary", has_text="Hierarchies"))
        .first
    )
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    details.locator('[data-testid="stExpanderDetails"]').first.wait_for()
    wait_idle(page)  # the widgets inside are rendered again as the expander opens


def import_adult_hierarchies(page) -> None:
    """Explore trade-offs: make the adult table's eight columns the quasi-identifiers
    (whatever Step 1 suggested) and upload their eight ARX hierarchies in one action."""
    chosen = page.locator(".st-key-to_qi")
    for column in ADULT_QUASI_IDENTIFIERS:
        if not chosen.get_by_text(column, exact=True).count():
            chosen.locator("input").first.fill(column)
            page.get_by_role("option", name=column, exact=True).first.click()
            wait_idle(page)
    page.keyboard.press("Escape")
    open_hierarchies(page)
    files = [ADULT / f"adult_hierarchy_{column}.csv" for column in ADULT_QUASI_IDENTIFIERS]
    page.locator('.st-key-to_hier_files input[type="file"]').set_input_files(files)  # one
    wait_idle(page)
    main = page.locator(MAIN)
    for column in ADULT_QUASI_IDENTIFIERS:
        main.get_by_text(
            f"Using the uploaded hierarchy 'adult_hierarchy_{column}.csv'"
        ).first.wait_for()
