"""AppTest checks of Explore trade-offs from the search result on (issue 30): picking an
option by its row or its point, pinning options and comparing them side by side, Apply
replacing an earlier option's steps, and the preview of the table as the recipe leaves it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from apptest_helpers import load_sample
from selection_clicks import click_point, click_row
from streamlit import config
from streamlit.testing.v1 import AppTest

from core.hierarchy import build_hierarchy
from core.io import read_table
from core.recipe import EditHistory, Recipe, apply_recipe
from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/9_tradeoffs.py"
PEOPLE = "singapore_people.csv"
PEOPLE_TABLE = read_table(ROOT / "sample_data" / PEOPLE)  # as the Data page reads it
QI = ["sex", "race", "income", "occupation"]
DIRECT = ["nric", "name", "email", "mobile"]
WIDTHS = "500, 1000, 2000, 4000"


def people_searched(*, remove_identifiers: bool = True) -> AppTest:
    """singapore_people.csv with its four direct identifiers removed by the recipe (as
    Techniques does), searched at k = 5, at most 1% removed, least ARX loss, on the
    original table, income in nested bands of 500, 1,000, 2,000, 4,000, the other three
    kept or '*'."""
    roles = {c: Role.INDIRECT for c in QI} | {c: Role.DIRECT for c in DIRECT}
    at = load_sample(PEOPLE, roles)
    if remove_identifiers:
        history = at.session_state["history"]
        history.push(history.current.add({"step": "remove", "columns": DIRECT}))
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    at.multiselect(key="to_qi").set_value(QI)
    for column in ("sex", "race", "occupation"):  # each value, or '*'
        at.selectbox(key=f"to_kind_{column}").set_value("suppress")
    at.selectbox(key="to_kind_income").set_value("numeric").run()
    at.text_input(key="to_w_income").set_value(WIDTHS)
    at.number_input(key="to_k").set_value(5)
    at.number_input(key="to_supp").set_value(1.0)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    return at


def options_table(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if (d.key or "").startswith("to_table"))


def chart_data(chart) -> pd.DataFrame:
    """The rows a Vega-Lite chart draws (sent as an Arrow dataset)."""
    return pa.ipc.open_stream(chart.proto.datasets[0].data.data).read_pandas()


def drawn_under(at: AppTest, heading: str, kind: str) -> list:
    """The elements of ``kind`` drawn under the subheader ``heading`` (before the next)."""
    found, under = [], False
    for node in at.main:
        if node.type == "subheader":
            under = node.value == heading
        elif under and node.type == kind:
            found.append(node)
    return found


def tables_under(at: AppTest, heading: str) -> list[pd.DataFrame]:
    """The tables drawn under the subheader ``heading``."""
    return [node.value for node in drawn_under(at, heading, "dataframe")]


RELEASED = "The table as it would be released"
PINNED = "Pinned options side by side"


def picked(at: AppTest) -> str:
    return at.selectbox(key="to_candidate").value


def _options_by_hand() -> list[tuple[str, int]]:
    """Every minimal option of the search above, by brute force over the 2 x 2 x 6 x 2
    levels with pandas: (levels, records removed) of the nodes meeting k = 5 within 1%
    (records in groups below 5 removed) that have no meeting node below them."""
    hierarchies = {
        "sex": build_hierarchy(PEOPLE_TABLE["sex"], "suppress"),
        "race": build_hierarchy(PEOPLE_TABLE["race"], "suppress"),
        "income": build_hierarchy(
            PEOPLE_TABLE["income"], "numeric", widths=[500, 1000, 2000, 4000]
        ),
        "occupation": build_hierarchy(PEOPLE_TABLE["occupation"], "suppress"),
    }
    import itertools

    meeting = {}
    heights = [range(hierarchies[c].height + 1) for c in QI]
    for levels in itertools.product(*heights):
        table = pd.DataFrame(
            {
                c: hierarchies[c].generalise(PEOPLE_TABLE[c], lv) if lv else PEOPLE_TABLE[c]
                for c, lv in zip(QI, levels, strict=True)
            }
        )
        sizes = table.groupby(QI).size()
        removed = int(sizes[sizes < 5].sum())
        if removed <= 0.01 * len(PEOPLE_TABLE):
            meeting[levels] = removed
    minimal = [
        lv
        for lv in meeting
        if not any(o != lv and all(a <= b for a, b in zip(o, lv, strict=True)) for o in meeting)
    ]
    return sorted(
        (" ".join(f"{c}:{v}" for c, v in zip(QI, lv, strict=True)), meeting[lv]) for lv in minimal
    )


def test_a_click_on_a_row_or_a_point_picks_that_option_and_everything_reads_in_words():
    at = people_searched()
    table = options_table(at)
    # the options, checked against a brute-force search by hand
    assert sorted(zip(table["levels"], table["records removed"], strict=True)) == (
        _options_by_hand()
    )
    assert len(table) >= 3
    # numbered in the table's order; the optimum starred in text (not a checkbox)
    assert list(table["option"]) == list(range(1, len(table) + 1))
    assert set(table["optimum"]) == {"★", ""} and (table["optimum"] == "★").sum() == 1
    assert picked(at) == table.loc[table["optimum"] == "★", "levels"].iloc[0]
    # the short list: the table's order, short lines, no level codes
    listed = at.selectbox(key="to_candidate")
    assert listed.options[0].startswith("Option 1: ARX loss ")
    assert all(len(line) < 100 and "income:" not in line for line in listed.options)
    assert [o.split(":")[0] for o in listed.options] == [f"Option {n}" for n in table["option"]]

    click_row(at, "to_table", 2)
    assert not at.exception, at.exception
    third = table["levels"].iloc[2]
    assert picked(at) == third
    assert [m.value for m in at.metric if m.label == "Records suppressed"] == [
        f"{table['records removed'].iloc[2]:,}"
    ]
    click_point(at, "to_frontier", "picked_point", {"option": 2})
    assert not at.exception, at.exception
    assert picked(at) == table["levels"].iloc[1]
    # the table follows a pick made on the chart: it is drawn with that row selected
    frame = next(d for d in at.dataframe if (d.key or "").startswith("to_table"))
    assert json.loads(frame.proto.selection_default)["selection"]["rows"] == [1]

    chart = next(c for c in at.get("vega_lite_chart") if c.key == "to_frontier")
    spec = json.loads(chart.proto.spec)
    encoding = spec["encoding"]
    assert encoding["shape"]["field"] == "Optimum" and encoding["shape"]["title"] == "Optimum"
    tooltip = [t["field"] for t in encoding["tooltip"]]
    assert "levels" not in tooltip and "loss" not in tooltip  # codes and raw floats
    data = chart_data(chart)
    assert set(data["Optimum"]) == {"yes", "no"}
    for shown, raw in zip(data["loss shown"], data["loss"], strict=True):
        assert float(shown) == pytest.approx(raw, rel=5e-3) and len(shown.strip("0.")) <= 3
    assert all("income:" not in words for words in data["in words"])


def _released_by_hand(levels: str) -> pd.DataFrame:
    """The people table as the recipe leaves it for an option: the direct identifiers
    removed, each quasi-identifier generalised to its level with the same hierarchies as
    the page builds (numeric bands, '*' for the others), records in groups below 5
    removed, by pandas."""
    table = PEOPLE_TABLE.drop(columns=DIRECT)
    for part in levels.split():
        column, level = part.split(":")
        if int(level) == 0:
            continue
        if column == "income":
            hierarchy = build_hierarchy(table[column], "numeric", widths=[500, 1000, 2000, 4000])
        else:
            hierarchy = build_hierarchy(table[column], "suppress")
        table[column] = hierarchy.generalise(table[column], int(level))
    sizes = table.groupby(QI)[QI[0]].transform("size")
    return table[sizes >= 5]


def _bands_by_hand(released: pd.DataFrame) -> dict[str, int]:
    """Records per group-size band (1, 2, 3-4, 5-9, 10-19, 20-49, 50-99, 100-999, ...)."""
    edges = [(5, 9), (10, 19), (20, 49), (50, 99), (100, 999), (1000, 9999)]
    sizes = released.groupby(QI).size()
    found = {}
    for low, high in edges:
        records = int(sizes[(sizes >= low) & (sizes <= high)].sum())
        if records:
            found[f"{low:,}-{high:,}"] = records
    return found


def test_pinned_options_are_compared_side_by_side_and_last_until_the_next_search():
    at = people_searched()
    table = options_table(at)
    at.button(key="to_pin").click().run()  # the optimum, picked first
    click_row(at, "to_table", 2)
    at.button(key="to_pin").click().run()
    assert not at.exception, at.exception
    first = table.index[table["optimum"] == "★"][0]
    pinned = [first, 2]
    compare = tables_under(at, PINNED)[0]
    titles = [f"Option {table['option'][i]}" + (" ★" if i == first else "") for i in pinned]
    assert list(compare.columns) == titles
    for title, i in zip(titles, pinned, strict=True):
        k = int(table["k"][i])
        removed = int(table["records removed"][i])
        assert compare.loc["records removed", title].startswith(f"{removed:,} (")
        assert compare.loc["smallest group (k)", title] == str(k)
        assert float(compare.loc["highest record risk (1/k)", title]) == pytest.approx(
            1 / k, rel=5e-3
        )
        # Annex D with the Risk page's defaults: medium controls and motivation give
        # P(attempt) 0.25 (the guide's Scenario #1 table), divided by k
        assert float(compare.loc["Annex D P(re-ID)", title]) == pytest.approx(0.25 / k, rel=5e-3)
        for column in QI:  # each column's level in words and its loss
            assert "loss " in compare.loc[column, title]
    # The class-size chart: records per band of group size under each option, by hand.
    size_chart, loss_chart = drawn_under(at, PINNED, "vega_lite_chart")
    sizes = chart_data(size_chart)
    for title, i in zip(titles, pinned, strict=True):
        drawn = sizes[sizes["option"] == title]
        drawn = dict(zip(drawn["band"], drawn["records"], strict=True))
        by_hand = _bands_by_hand(_released_by_hand(table["levels"][i]))
        assert {band: n for band, n in drawn.items() if n} == by_hand
    losses = chart_data(loss_chart)
    assert sorted(set(losses["option"])) == sorted(titles) and set(losses["column"]) == set(QI)
    # The same released records under each option, no direct identifier among them.
    samples = tables_under(at, PINNED)[1:]
    assert len(samples) == 2 and list(samples[0].index) == list(samples[1].index)
    for sample, i in zip(samples, pinned, strict=True):
        assert not set(DIRECT) & set(sample.columns)
        pd.testing.assert_frame_equal(
            sample, _released_by_hand(table["levels"][i]).loc[sample.index], check_dtype=False
        )

    # The pins last across a visit to another page...
    at.switch_page("pages/1_data.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    compare = tables_under(at, PINNED)[0]
    assert list(compare.columns) == titles
    # ... three at most ...
    click_row(at, "to_table", 3)
    at.button(key="to_pin").click().run()
    click_row(at, "to_table", 4)
    assert at.button(key="to_pin").disabled
    # ... and a new search clears them.
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    assert not tables_under(at, PINNED)


def _everything_shown(at: AppTest) -> str:
    parts = [e.value for e in (*at.error, *at.warning, *at.success, *at.caption, *at.info)]
    parts += [str(e.value) for e in at.exception] + [m.value for m in at.markdown]
    return "\n".join(parts)


def test_applying_a_second_option_asks_and_replaces_the_first_options_steps():
    at = people_searched()
    table = options_table(at)
    optimum = picked(at)
    at.button(key="to_apply").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    assert steps[0] == {"step": "remove", "columns": DIRECT}
    assert all(s.get("origin") == "trade-off" for s in steps[1:]) and len(steps) > 1
    assert at.button(key="to_apply").disabled  # nothing left to apply for this option
    # another option: Apply asks right under the button, and changes nothing yet
    other = 2 if table["levels"][2] != optimum else 1
    click_row(at, "to_table", other)
    apply = at.button(key="to_apply")
    assert not apply.disabled and "replace the previous trade-off steps" in apply.label
    apply.click().run()
    assert not at.exception, at.exception
    assert at.session_state["history"].current.steps == steps
    assert at.button(key="to_apply").disabled  # not twice while it asks
    question = [w.value for w in at.warning if "Replace the previous trade-off steps" in w.value]
    assert question and question[0].startswith(
        "Replace the previous trade-off steps with this solution?"
    )
    # the question sits next to the button: the same container, right after it
    box = next(b for b in at.main if any(getattr(c, "key", None) == "to_apply" for c in b))
    kinds = [getattr(c, "key", None) or c.type for c in box]
    assert kinds.index("to_apply") < kinds.index("warning") <= kinds.index("to_apply") + 2
    at.button(key="to_replace").click().run()
    assert not at.exception, at.exception
    recipe = at.session_state["history"].current
    assert recipe.steps[0] == {"step": "remove", "columns": DIRECT}
    # the first option's steps are out: the generalisations are the second option's alone
    generalised = {s["column"]: s["level"] for s in recipe.steps if s["step"] == "generalise"}
    levels = dict(part.split(":") for part in table["levels"][other].split())
    assert generalised == {c: int(lv) for c, lv in levels.items() if int(lv)}
    assert sum(s["step"] == "suppress_records" for s in recipe.steps) <= 1
    assert any("Replaced the previous trade-off steps" in s.value for s in at.success)
    assert at.button(key="to_apply").disabled
    # what the recipe releases is the second option alone, as by hand
    with Workspace(os.environ["ANON_WORKSPACE"]) as ws:
        out = apply_recipe(PEOPLE_TABLE, recipe, hierarchies=ws.hierarchies()).data
        message = ws.recipe_versions()[-1].message
    pd.testing.assert_frame_equal(
        out.reset_index(drop=True),
        _released_by_hand(table["levels"][other]).reset_index(drop=True),
        check_dtype=False,
    )
    assert message.startswith("Explore trade-offs: ") and "replacing the" in message
    assert ":" not in message.split(": ", 1)[1]  # in words, no level codes
    # Undo brings the first option back in one step
    assert at.session_state["history"].undo().steps == steps


@pytest.fixture
def shipped_error_details():
    """The dashboard's own error details ("type": a refusal is a message, not the tests'
    traceback), restored after the test."""
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "type")
    yield
    config.set_option("client.showErrorDetails", before)


def test_a_path_in_a_refusal_never_reaches_the_page(tmp_path, shipped_error_details):
    """A recipe step that reads a hierarchy file (a recipe loaded from disk) and meets a
    value the file lacks is refused naming the file: its name, never the server's
    folders ('... is not in hierarchy '/tmp/.../age-463f35372e.csv'', issue 30)."""
    folder = tmp_path / "server" / "hierarchies"
    folder.mkdir(parents=True)
    (folder / "sex-file.csv").write_text("M;*\n", encoding="utf-8")  # no 'F'
    step = {"step": "generalise", "column": "sex", "hierarchy": str(folder / "sex-file.csv")}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in {
        "original": PEOPLE_TABLE.head(50),
        "source_name": PEOPLE,
        "pseudonym_secret": 1,
        "history": EditHistory(Recipe(({**step, "level": 1},), seed=1)),
    }.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    shown = _everything_shown(at)
    assert "is not in hierarchy 'sex-file.csv'" in shown, shown
    assert str(tmp_path) not in shown and "/server/" not in shown


@pytest.mark.parametrize(
    "message, shown",
    [
        (
            "The value '20-39' in column 'age' (row 1) is not in hierarchy "
            "'/tmp/pytest-7/ws/age-463f35372e.csv' (3 row(s) affected).",
            "The value '20-39' in column 'age' (row 1) is not in hierarchy "
            "'age-463f35372e.csv' (3 row(s) affected).",
        ),
        ("Hierarchy file ~/data/x.csv does not exist.", "Hierarchy file x.csv does not exist."),
        ("Cannot read 'C:\\Users\\ann\\age.csv'.", "Cannot read 'age.csv'."),
        # not paths: a ratio, a sentence with a slash, a name relative to the workspace
        ("the highest record risk (1/k) and groups / records", None),
        ("hierarchies/age-463f35372e.csv", None),
    ],
)
def test_paths_are_cut_to_file_names(message, shown):
    from ui.page_errors import without_paths  # here: the old module had none (a failing test)

    assert without_paths(message) == (message if shown is None else shown)


def test_the_preview_shows_the_table_as_the_recipe_leaves_it():
    """Searched on the original table (the default), the preview showed the names,
    NRICs, e-mails and phones the recipe removes next to the generalised columns."""
    at = people_searched()
    assert at.radio(key="to_basis").value == "original"
    preview = tables_under(at, RELEASED)[0]
    assert not set(DIRECT) & set(preview.columns)
    cells = set(preview.astype(str).to_numpy().ravel())
    for column in DIRECT:
        assert not cells & set(PEOPLE_TABLE[column].astype(str)), column
    by_hand = _released_by_hand(picked(at))
    pd.testing.assert_frame_equal(preview, by_hand.head(len(preview)), check_dtype=False)


def test_searched_on_the_recipes_table_an_option_applied_is_not_applied_twice():
    """Searched on the table the recipe makes, Apply adds the option after every step;
    once the recipe ends with its steps the button is disabled (a second click generalised
    the generalised values again)."""
    roles = {c: Role.INDIRECT for c in QI} | {c: Role.DIRECT for c in DIRECT}
    at = load_sample(PEOPLE, roles)
    history = at.session_state["history"]
    history.push(history.current.add({"step": "remove", "columns": DIRECT}))
    at.switch_page(PAGE).run()
    at.radio(key="to_basis").set_value("current").run()
    at.multiselect(key="to_qi").set_value(QI)
    for column in ("sex", "race", "occupation"):
        at.selectbox(key=f"to_kind_{column}").set_value("suppress")
    at.selectbox(key="to_kind_income").set_value("numeric").run()
    at.text_input(key="to_w_income").set_value(WIDTHS)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    apply = at.button(key="to_apply")
    assert apply.label == "Apply: add these steps to the recipe" and not apply.disabled
    apply.click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    assert steps[0] == {"step": "remove", "columns": DIRECT} and len(steps) > 1
    assert at.button(key="to_apply").disabled


def test_an_option_the_recipe_cannot_take_is_refused_before_apply_with_the_way_out():
    """The recipe already bands income by hand (Techniques); an option searched on the
    original table bands it again with its own hierarchy, which knows no band: the
    preview says so with the way out, and Apply stays disabled (it used to be offered,
    then fail)."""
    roles = {c: Role.INDIRECT for c in QI} | {c: Role.DIRECT for c in DIRECT}
    at = load_sample(PEOPLE, roles)
    history = at.session_state["history"]
    recipe = history.current.add({"step": "remove", "columns": DIRECT})
    history.push(recipe.add({"step": "generalise", "column": "income", "width": 1000}))
    at.switch_page(PAGE).run()
    at.multiselect(key="to_qi").set_value(QI)
    for column in ("sex", "race", "occupation"):
        at.selectbox(key=f"to_kind_{column}").set_value("suppress")
    at.selectbox(key="to_kind_income").set_value("numeric").run()
    at.text_input(key="to_w_income").set_value(WIDTHS)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    table = options_table(at)
    # bands of 500: finer than the recipe's 1,000, which the option's hierarchy cannot
    # take (its own bands of 1,000 and '*' read the recipe's labels as theirs)
    finer = [i for i, levels in enumerate(table["levels"]) if "income:1" in levels]
    click_row(at, "to_table", finer[0])
    assert not at.exception, at.exception
    assert any("in column 'income'" in e.value for e in at.error), [e.value for e in at.error]
    assert any("search on the table the recipe makes" in c.value for c in at.caption)
    assert at.button(key="to_apply").disabled
