"""Every page of the menu in Chromium, after the roles are accepted on the default sample:
no console warning or error (Vega's "Dropping fit-y", a log scale over zero...), no serious
or critical axe-core accessibility violation, no text cut off with an ellipsis, and a
full-page screenshot of each in tests/screenshots/ (issue 17, "Checks"), with no axe rule
excluded (issue 29: the menu is ui.navigation's links, not Streamlit's sectioned list).
axe-core comes inside axe-playwright-python: nothing is fetched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_steps import (
    MENU_SELECTOR,
    ROOT,
    VIEWPORT,
    accept_roles,
    cut_text,
    full_screenshot,
    open_page,
    wait_idle,
    watch_console,
)
from dashboard_server import run_dashboard

pytestmark = pytest.mark.browser

MENU = re.findall(r'st\.Page\("([^"]+)", title="([^"]+)"', (ROOT / "app.py").read_text())
SERIOUS = {"serious", "critical"}


def _axe_problems(page) -> list[str]:
    """Serious and critical axe-core violations on the page, none excluded (issue 29: the
    exclusion of Streamlit's sectioned menu is gone with that menu, see ui.navigation)."""
    from axe_playwright_python.sync_playwright import Axe

    problems: list[str] = []
    for violation in Axe().run(page).response["violations"]:
        if violation.get("impact") not in SERIOUS:
            continue
        nodes = violation["nodes"]
        targets = "; ".join(str(node["target"][0])[-120:] for node in nodes[:5])
        problems.append(
            f"{violation['id']} ({violation['impact']}): {violation['help']} "
            f"[{len(nodes)} element(s), e.g. {targets}]"
        )
    return problems


def _check_menu_links(page) -> None:
    """What a screen reader reads: one link per page in the sidebar menu, each named by
    its page, under the guide's steps, and no list markup that is not a list."""
    menu = page.locator(MENU_SELECTOR)
    assert menu.get_by_role("link").count() == len(MENU)
    for _, title in MENU:
        assert menu.get_by_role("link", name=title, exact=True).count() == 1, title
    assert menu.get_by_text("Step 4 · Compute your risk", exact=True).count() == 1
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0  # Streamlit's own


def test_every_page_is_quiet_and_accessible(browser, tmp_path: Path, screenshot_dir: Path) -> None:
    # Its own server and workspace: the roles accepted here never reach the other tests.
    with run_dashboard(tmp_path / "every", tmp_path / "every.anon.db") as url:
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            _walk_every_page(page, url, screenshot_dir)
        finally:
            context.close()


def _walk_every_page(page, url: str, screenshot_dir: Path) -> None:
    console = watch_console(page)
    page.goto(url)
    page.get_by_role("heading", name="Data", exact=True).first.wait_for()
    wait_idle(page)
    # The console watch itself works: a warning written in the page is caught.
    page.evaluate("console.warn('console watch self-check')")
    page.wait_for_timeout(200)
    assert console == ["warning: console watch self-check"], console
    console.clear()
    _check_menu_links(page)
    # ... and so does the axe run: grey-on-white text added to the page is reported.
    page.evaluate(
        "() => { const p = document.createElement('p'); p.id = 'axe-self-check';"
        " p.style.cssText = 'position:fixed;top:0;left:0;z-index:999999;font-size:16px;"
        "color:#bbbbbb;background:#ffffff'; p.textContent = 'faint';"
        " document.body.append(p); }"  # outside Streamlit's React tree
    )
    faint = _axe_problems(page)
    assert [line for line in faint if line.startswith("color-contrast")], faint
    page.evaluate("() => document.getElementById('axe-self-check').remove()")
    accept_roles(page)
    problems: dict[str, list[str]] = {}
    log = screenshot_dir / "every_page_problems.txt"  # kept even if a later page fails
    log.write_text("")
    for number, (_, title) in enumerate(MENU, start=1):
        console.clear()
        try:
            open_page(page, title)
        except Exception as error:  # noqa: BLE001 - record it and go on to the next page
            problems[title] = [f"could not open: {str(error).splitlines()[0]}"]
            continue
        page.wait_for_timeout(1500)  # charts render after the script finishes
        slug = re.sub(r"\W+", "_", title.lower()).strip("_")
        full_screenshot(page, screenshot_dir / f"page_{number:02d}_{slug}.png")
        found = [f"console {line}" for line in console]
        if page.locator('[data-testid="stException"]').count():
            found.append("Streamlit exception box")
        found += [f"text cut off: {text!r}" for text in cut_text(page)]
        found += [f"axe {line}" for line in _axe_problems(page)]
        with log.open("a") as out:
            out.write(f"{title}:\n  " + "\n  ".join(found) + "\n")
        if found:
            problems[title] = found
    assert not problems, "\n".join(f"{t}:\n  " + "\n  ".join(p) for t, p in problems.items())
