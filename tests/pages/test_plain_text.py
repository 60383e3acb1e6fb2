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
import pyarrow as pa
from apptest_helpers import (
    PASSING_RELEASE_ROLES,
    PASSING_RELEASE_STEPS,
    ROOT,
    recorded_downloads,
    shown,
)
from selection_clicks import click_row
from streamlit.testing.v1 import AppTest
from test_hierarchy_import import ADULT, QUASI_IDENTIFIERS, adult_hierarchy_file, adult_page

from core.recipe import EditHistory, Recipe

MENU = re.findall(r'st\.Page\("([^"]+)", title="([^"]+)"', (ROOT / "app.py").read_text())
SAMPLE = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", nrows=1)
# A release the check passes (as tests/pages/test_release_record_page.py): year of birth
# and sex, every other column that could identify someone removed.
ROLES = PASSING_RELEASE_ROLES
STEPS = PASSING_RELEASE_STEPS
ADULT_COLUMNS = set(pd.read_csv(ADULT / "adult.csv", nrows=1).columns)

DEVELOPER_TEXT = {
    "float noise in scientific notation": re.compile(r"\d(?:\.\d+)?e-(?:0?[7-9]|[1-9]\d)\b"),
    "None shown as a value": re.compile(r"\bNone\b(?! of\b)"),
    "a figure with 12 or more decimals": re.compile(r"\d\.\d{12,}"),
    "levels as codes": re.compile(r"\b[A-Za-z_]+:\d+ [A-Za-z_]+:\d+\b"),
    "a registry name in a label": re.compile(r"\bAdd [a-z]+_[a-z_]+ to\b"),
    "P(re-ID) without saying which figure": re.compile(r"(?<!Annex D )P\(re-ID\)"),
    "a file path": re.compile(r"(?:^|[\s'\"(])(?:[A-Za-z]:\\|/)[\w.-]+[/\\][\w./\\-]+"),
    "a hash-named file": re.compile(r"[0-9a-f]{10,}\.[a-z]{2,7}\b"),
}
#: A snake_case header (the user's own column names are theirs, shown as they are).
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def _texts(at: AppTest) -> Iterator[str]:
    """What a person reads on the page (the main area and the sidebar), tooltips included."""
    for kind in ("title", "header", "subheader", "markdown", "caption", "text"):
        yield from (str(e.value) for e in getattr(at, kind))
    for kind in ("info", "warning", "error", "success"):
        yield from (str(e.value) for e in getattr(at, kind))
    for m in at.metric:
        yield from (str(m.label), str(m.value), str(m.proto.delta or ""), str(m.proto.help))
    for kind in ("button", "checkbox", "toggle", "text_input", "number_input", "slider"):
        yield from (str(e.label) for e in getattr(at, kind))
    for kind in ("selectbox", "radio", "multiselect"):
        for e in getattr(at, kind):
            yield str(e.label)
            yield from (str(o) for o in e.options)
    for kind in ("download_button", "expander", "tab"):
        yield from (str(getattr(e, "label", "") or e.proto.label) for e in at.get(kind))
    for kind in (
        "button",
        "download_button",
        "checkbox",
        "toggle",
        "text_input",
        "number_input",
        "slider",
        "selectbox",
        "radio",
        "multiselect",
    ):
        yield from (str(e.proto.help) for e in at.get(kind) if e.proto.help)


def _column_shown(values: pd.Series, settings: dict) -> pd.Series:
    """A column's cells as the grid draws them: a printf ``format`` of its column_config
    (``%.3g``) applied to its figures, else the values as they are."""
    fmt = (settings.get("type_config") or {}).get("format") or ""
    if fmt.startswith("%") and pd.api.types.is_numeric_dtype(values):
        return values.map(lambda v: "" if pd.isna(v) else fmt % v)
    return values.astype(str)


def _tables(at: AppTest) -> Iterator[tuple[pd.DataFrame, list[str], list[str]]]:
    """Each table's cells as shown, its headers and column tooltips as shown (a
    ``column_config`` label replaces the column's name on screen; a column it hides is not
    shown, a printf format it sets is applied) and the headers of its columns with an empty
    cell: the browser draws an empty cell as a grey "None", whatever text a Styler gives
    it (seen in Chromium on History's log)."""
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        styled = bool(frame.proto.arrow_data.styler.display_values)
        cells = shown(frame)
        headers, visible = [], {}
        for column in map(str, frame.value.columns):
            settings = config.get(column) or config.get(f"_pos:{column}") or {}
            if settings.get("hidden"):
                continue
            headers.append(str(settings.get("label") or column))
            headers += [str(settings["help"])] if settings.get("help") else []
            raw = cells[column] if styled else frame.value[column]
            visible[column] = raw.astype(str) if styled else _column_shown(raw, settings)
        values = frame.value
        empty = [str(c) for c in values.columns if values[c].isna().any() and c in visible]
        yield pd.DataFrame(visible), headers, empty


def _chart_texts(at: AppTest) -> Iterator[tuple[str, bool]]:
    """Each text a Vega-Lite chart draws or shows on hover, and whether it is a label (a
    title, or a field's name shown as a tooltip's label): titles, axis and legend titles,
    tooltip labels, the values of the fields drawn as text (nominal axes and legends) and
    of the tooltip fields (a quantitative one without a format shows the figure whole)."""
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        data = [pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets] + (
            [pa.ipc.open_stream(chart.proto.data.data).read_pandas()]
            if chart.proto.data.data
            else []
        )
        shown_fields = []
        for node in _spec_nodes(spec):
            title = node.get("title")
            for text in title if isinstance(title, list) else [title]:
                if isinstance(text, dict):
                    text = text.get("text")
                if isinstance(text, str):
                    yield text, True
            tooltip = node.get("tooltip")
            for item in tooltip if isinstance(tooltip, list) else [tooltip]:
                if isinstance(item, dict) and "field" in item:
                    yield str(item.get("title") or item["field"]), True
                    if item.get("type") != "quantitative" or not item.get("format"):
                        shown_fields.append(item["field"])
            for channel in ("x", "y", "color", "shape", "text"):
                encoding = node.get(channel)
                if isinstance(encoding, dict) and encoding.get("type") in ("nominal", "ordinal"):
                    shown_fields.append(encoding.get("field"))
        for table in data:
            for field in {f for f in shown_fields if f in table.columns}:
                yield from ((str(v), False) for v in table[field].dropna().unique()[:200])


def _spec_nodes(spec: object) -> Iterator[dict]:
    """Every mapping in a chart's spec (its encodings, layers, axes, legends)."""
    if isinstance(spec, dict):
        yield spec
        for value in spec.values():
            yield from _spec_nodes(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _spec_nodes(value)


def offences(at: AppTest, own_columns: set[str] | None = None) -> list[str]:
    """Each piece of developer text on the page, named by what it is. ``own_columns``: the
    user's own column names (shown as they are); the sample's by default."""
    found = []
    for text in _texts(at):
        found += [
            f"{name}: {text[:160]!r}" for name, rx in DEVELOPER_TEXT.items() if rx.search(text)
        ]
    own = set(SAMPLE.columns) if own_columns is None else own_columns
    for table, headers, empty in _tables(at):
        for header in headers:
            if SNAKE_CASE.match(header) and header not in own:
                found.append(f"snake_case header: {header!r}")
            found += [
                f"{name} in a header or its tooltip: {header[:80]!r}"
                for name, rx in DEVELOPER_TEXT.items()
                if rx.search(header)
            ]
        # An empty cell of the user's own data is theirs; one of ours reads "None".
        found += [f"empty cells shown as None in {c!r}" for c in empty if c not in own]
        cells = table.astype(str).to_numpy().ravel()
        for name, rx in DEVELOPER_TEXT.items():
            found += [f"{name} in a cell: {c[:80]!r}" for c in cells if rx.search(c)][:3]
    charted = set()
    for text, label in _chart_texts(at):
        if label and SNAKE_CASE.match(text) and text not in own:
            charted.add(f"snake_case label in a chart: {text!r}")
        charted |= {
            f"{name} in a chart: {text[:80]!r}"
            for name, rx in DEVELOPER_TEXT.items()
            if rx.search(text)
        }
    return found + sorted(charted)


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


def test_the_readers_see_what_the_browser_shows():
    """The checks read a chart's tooltip figures, a widget's and a column's tooltip, and a
    table as the grid draws it (a hidden column left out, a printf format applied)."""

    def page():
        import pandas as pd
        import streamlit as st

        options = pd.DataFrame(
            {"loss": [0.358785324608], "levels": ["sex:0 age:3"], "fine": [0.358785324608]}
        )
        st.dataframe(
            options,
            column_config={
                "levels": None,
                "fine": st.column_config.NumberColumn(format="%.3g"),
                "loss": st.column_config.NumberColumn(format="%.3g", help="see /srv/app/x.db"),
            },
        )
        st.button("Pin", help="0.09999999999999999")
        st.vega_lite_chart(
            options.assign(shown="0.359"),
            {
                "mark": "point",
                "encoding": {
                    "x": {"field": "loss", "type": "quantitative", "title": "ARX loss"},
                    "tooltip": [
                        {"field": "loss", "type": "quantitative"},
                        {"field": "shown", "title": "ARX loss", "type": "nominal"},
                    ],
                },
            },
        )

    at = AppTest.from_function(page).run()
    found = offences(at, own_columns=set())
    assert "a figure with 12 or more decimals: '0.09999999999999999'" in found
    assert "a file path in a header or its tooltip: 'see /srv/app/x.db'" in found
    assert "a figure with 12 or more decimals in a chart: '0.358785324608'" in found
    # the hidden column's codes and the formatted figures are not what a person reads
    assert not [f for f in found if "in a cell" in f], found


def _trade_offs_offences(at: AppTest, when: str, found: dict[str, list[str]]) -> None:
    assert not at.exception, (when, at.exception)
    problems = offences(at, own_columns=ADULT_COLUMNS)
    if problems:
        found[when] = problems


def test_trade_offs_speaks_plainly_after_a_search_a_pick_a_pin_and_apply():
    """Explore trade-offs on the adult subset with its eight ARX hierarchies uploaded
    (tests/data/adult): after the search, a pick, two pins (the side-by-side comparison
    and its charts), Apply, and a second search that minimises the records removed."""
    found: dict[str, list[str]] = {}
    at = adult_page()
    at.file_uploader(key="to_hier_files").set_value(
        [adult_hierarchy_file(c) for c in QUASI_IDENTIFIERS]
    ).run()
    _trade_offs_offences(at, "hierarchies uploaded", found)
    at.number_input(key="to_k").set_value(5)
    at.number_input(key="to_supp").set_value(2.0)
    at.button(key="to_run").click().run()
    _trade_offs_offences(at, "searched", found)
    at.button(key="to_pin").click().run()  # the optimum, picked first
    click_row(at, "to_table", 1)
    at.button(key="to_pin").click().run()
    _trade_offs_offences(at, "two options pinned", found)
    at.button(key="to_apply").click().run()
    _trade_offs_offences(at, "the picked option applied", found)
    # The measure "records removed" is also the comparison's first row: two rows of one
    # name gave each option two cells and the page stopped on pandas' error.
    at.selectbox(key="to_measure").set_value("records removed")
    at.button(key="to_run").click().run()
    click_row(at, "to_table", 1)
    at.button(key="to_pin").click().run()
    _trade_offs_offences(at, "searched for the fewest records removed, one pinned", found)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
