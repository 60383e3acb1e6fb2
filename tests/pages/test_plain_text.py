"""Every page speaks to a person, not a developer (issue 29, "Developer text on screen").

The test walks every page of the menu on the sample table (roles confirmed, a recipe, a
release prepared on Report so that History lists it) and reads what a person reads: titles,
text, captions, boxes, metrics, buttons, choices, table headers and cells. It fails on
the patterns people met: a float's rounding noise in scientific notation (``-1.39e-17``),
``None`` in a cell or a sentence, a header in snake_case that is not a column of the
user's own table (``created_at``, ``output_sha256``, ``count_error95``), a figure with 12 or
more decimals (``0.09999999999999999``), a step's registry name in a label ("Add
redact_text to recipe"), generalisation levels as codes (``sex:0 age:3``), and "P(re-ID)"
on its own, which named three figures (core.figure_names gives each its name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pandas as pd
from apptest_helpers import (
    PASSING_RELEASE_ROLES,
    PASSING_RELEASE_STEPS,
    ROOT,
    recorded_downloads,
    shown,
)
from streamlit.testing.v1 import AppTest

from core.recipe import EditHistory, Recipe

MENU = re.findall(r'st\.Page\("([^"]+)", title="([^"]+)"', (ROOT / "app.py").read_text())
SAMPLE = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", nrows=1)
# A release the check passes (as tests/pages/test_release_record_page.py): year of birth
# and sex, every other column that could identify someone removed.
ROLES = PASSING_RELEASE_ROLES
STEPS = PASSING_RELEASE_STEPS

DEVELOPER_TEXT = {
    "float noise in scientific notation": re.compile(r"\d(?:\.\d+)?e-(?:0?[7-9]|[1-9]\d)\b"),
    "None shown as a value": re.compile(r"\bNone\b(?! of\b)"),
    "a figure with 12 or more decimals": re.compile(r"\d\.\d{12,}"),
    "levels as codes": re.compile(r"\b[A-Za-z_]+:\d+ [A-Za-z_]+:\d+\b"),
    "a registry name in a label": re.compile(r"\bAdd [a-z]+_[a-z_]+ to\b"),
    "P(re-ID) without saying which figure": re.compile(r"(?<!Annex D )P\(re-ID\)"),
}
#: A snake_case header (the user's own column names are theirs, shown as they are).
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def _texts(at: AppTest) -> Iterator[str]:
    """What a person reads on the page (the main area and the sidebar)."""
    for kind in ("title", "header", "subheader", "markdown", "caption", "text"):
        yield from (str(e.value) for e in getattr(at, kind))
    for kind in ("info", "warning", "error", "success"):
        yield from (str(e.value) for e in getattr(at, kind))
    for m in at.metric:
        yield from (str(m.label), str(m.value), str(m.proto.delta or ""))
    for kind in ("button", "checkbox", "toggle", "text_input", "number_input", "slider"):
        yield from (str(e.label) for e in getattr(at, kind))
    for kind in ("selectbox", "radio", "multiselect"):
        for e in getattr(at, kind):
            yield str(e.label)
            yield from (str(o) for o in e.options)


def _tables(at: AppTest) -> Iterator[tuple[pd.DataFrame, list[str], list[str]]]:
    """Each table's cells as shown, its headers as shown (a ``column_config`` label
    replaces the column's name on screen; a column it hides is not shown) and the headers
    of its columns with an empty cell: the browser draws an empty cell as a grey "None",
    whatever text a Styler gives it (seen in Chromium on History's log)."""
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        headers = []
        for column in map(str, frame.value.columns):
            settings = config.get(column) or config.get(f"_pos:{column}") or {}
            if settings.get("hidden"):
                continue
            headers.append(str(settings.get("label") or column))
        values = frame.value
        empty = [str(c) for c in values.columns if values[c].isna().any()]
        yield shown(frame), headers, empty


def offences(at: AppTest) -> list[str]:
    """Each piece of developer text on the page, named by what it is."""
    found = []
    for text in _texts(at):
        found += [
            f"{name}: {text[:160]!r}" for name, rx in DEVELOPER_TEXT.items() if rx.search(text)
        ]
    own = set(SAMPLE.columns)
    for table, headers, empty in _tables(at):
        for header in headers:
            if SNAKE_CASE.match(header) and header not in own:
                found.append(f"snake_case header: {header!r}")
        # An empty cell of the user's own data is theirs; one of ours reads "None".
        found += [f"empty cells shown as None in {c!r}" for c in empty if c not in own]
        cells = table.astype(str).to_numpy().ravel()
        for name, rx in DEVELOPER_TEXT.items():
            found += [f"{name} in a cell: {c[:80]!r}" for c in cells if rx.search(c)][:3]
    return found


def test_the_patterns_catch_what_people_met():
    met = [
        "↓ -1.39e-17 against the threshold 0.1",
        "the original data is not at 'None'",
        "0.09999999999999999",
        "v3 · Explore trade-offs: sex:0 age:3",
        "Add redact_text to recipe",
        "P(re-ID)",
    ]
    assert all(any(rx.search(t) for rx in DEVELOPER_TEXT.values()) for t in met)
    assert SNAKE_CASE.match("output_sha256") and SNAKE_CASE.match("count_error95")
    fine = ["Annex D P(re-ID) 0.1", "1e-06", "k = 6", "2026-11-28 02:32 UTC", "0.167"]
    assert not any(rx.search(t) for t in fine for rx in DEVELOPER_TEXT.values())


def test_every_page_speaks_plainly_on_the_sample_with_a_release():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.session_state["roles"] = ROLES
    at.session_state["history"] = EditHistory(Recipe(steps=STEPS, seed=7))
    found: dict[str, list[str]] = {}
    with recorded_downloads() as files:
        at.switch_page("pages/7_report.py").run()
        assert not at.exception, at.exception
        at.button(key="prepare_release").click().run()
        assert not at.exception, at.exception
        report = files.content(at, "download_report_json").decode()
    # report.json: figures rounded to a sensible precision, never 0.09999999999999999
    noisy = re.findall(r"\d\.\d{12,}", report)
    assert not noisy, noisy[:5]
    json.loads(report)
    for path, title in MENU:
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        problems = offences(at)
        if problems:
            found[title] = problems
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
