"""Column names and file names from the data are shown as text on the dashboard, never as
Markdown (issue 11, item 8): an image in a column name must not make the browser fetch it.

The table is opened through ANON_DATA (as a user would start the dashboard on a file);
its file name and a column name are Markdown images, another column name holds a pipe.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from apptest_helpers import open_app

from core.markup import code_span, escape_markdown
from core.recipe import EditHistory, Recipe, describe_step
from core.schema import Role

IMAGE = "![b](http://evil.example/x.png)"
PIPED = "sex|gender"
FILE = "release ![f](http:x.png) `tick`.csv"


def _markdown_shown(at) -> list[str]:
    """The text of every element Streamlit renders as Markdown, the sidebar included."""
    kinds = (
        "markdown",
        "caption",
        "subheader",
        "title",
        "header",
        "info",
        "warning",
        "error",
        "success",
    )
    return [element.value for kind in kinds for element in getattr(at, kind)] + [
        element.value for element in at.sidebar.markdown
    ]


def _raw_image_shown(texts: list[str]) -> list[str]:
    """Texts in which an image would render (code spans show their content verbatim)."""
    outside_code = [re.sub(r"(`+).+?\1", "", text) for text in texts]
    return [text for text in outside_code if "![b](" in text or "![f](" in text]


@pytest.fixture
def evil_table(tmp_path, monkeypatch):
    table = pd.DataFrame(
        {
            IMAGE: ["a", "a", "b", "b", "c", "c"],
            PIPED: ["F", "F", "M", "M", "F", "F"],
            "age": [31, 32, 45, 46, 58, 59],
        }
    )
    path = tmp_path / FILE
    table.to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    return path


def test_data_page_shows_the_file_name_as_text(evil_table):
    at = open_app("pages/1_data.py")
    assert at.subheader[0].value.startswith(code_span(FILE))
    assert not _raw_image_shown(_markdown_shown(at))


def test_risk_page_shows_column_names_escaped(evil_table):
    at = open_app()
    at.session_state["roles"] = {IMAGE: Role.INDIRECT, PIPED: Role.INDIRECT}
    at.switch_page("pages/5_risk.py").run()
    assert not at.exception, at.exception
    shown = _markdown_shown(at)
    expected = f"Quasi-identifiers: {escape_markdown(IMAGE)}, {escape_markdown(PIPED)}"
    assert expected in shown
    assert "\\!\\[b\\]" not in expected  # "!" needs no escape once "[" is escaped
    assert not _raw_image_shown(shown)
    assert not any(PIPED in text for text in shown)  # the pipe is always escaped


def test_techniques_page_and_sidebar_show_recipe_steps_escaped(evil_table):
    at = open_app()
    at.session_state["roles"] = {IMAGE: Role.INDIRECT, PIPED: Role.INDIRECT}
    step = {"step": "generalise", "column": IMAGE, "mapping": {"a": "<b>x</b>"}}
    at.session_state["history"] = EditHistory(Recipe(steps=(step,), seed=1))
    at.switch_page("pages/4_techniques.py").run()
    assert not at.exception, at.exception
    shown = _markdown_shown(at)
    assert f"**1.** {escape_markdown(describe_step(step))}" in shown
    assert not _raw_image_shown(shown)
    assert not any(re.search(r"(?<!\\)<b>", text) for text in shown)  # only as \<b>


def test_report_tables_show_column_names_escaped(evil_table):
    # The Report's tables are st.table (cells wrap, issue 17), whose cells are Markdown:
    # the release check names the direct identifier left in the table, as text.
    at = open_app()
    at.session_state["roles"] = {IMAGE: Role.DIRECT, PIPED: Role.INDIRECT}
    at.switch_page("pages/7_report.py").run()
    assert not at.exception, at.exception
    cells = [str(cell) for table in at.table for cell in table.value.to_numpy().ravel()]
    assert any(escape_markdown(IMAGE) in cell for cell in cells)
    assert not _raw_image_shown(cells)


# --- File names from a workspace (issue 27): the sidebar and History --------------------

HOSTILE_NAME = "w ![f](http:evil.png) :red[x]"


def _everything_shown(at) -> list[str]:
    """The text of every Markdown-rendering element of the page and of the sidebar."""
    kinds = (
        "markdown",
        "caption",
        "subheader",
        "title",
        "header",
        "info",
        "warning",
        "error",
        "success",
    )
    return [
        element.value
        for where in (at, at.sidebar)
        for kind in kinds
        for element in getattr(where, kind)
    ]


def test_sidebar_shows_a_workspace_file_name_as_text(tmp_path, monkeypatch):
    workspace = tmp_path / f"{HOSTILE_NAME}.anon.db"
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = open_app()
    assert not at.exception, at.exception
    shown = _everything_shown(at)
    assert any(escape_markdown(workspace.name) in text for text in shown)
    assert not _raw_image_shown(shown)


def test_history_shows_a_recorded_data_path_as_text(tmp_path, monkeypatch):
    """A workspace someone sent records a release of data at a path they chose: the
    Re-run's message names it, as text (the browser fetched the image before)."""
    from core.workspace import Workspace

    workspace = tmp_path / "sent.anon.db"
    table = pd.DataFrame({"age": [31, 32]})
    with Workspace(workspace) as ws:
        sha = ws.add_dataset(table, name=f"{HOSTILE_NAME}.csv", store_data=False)
        version = ws.add_recipe_version(Recipe(steps=(), seed=1).to_yaml(), message="m")
        ws.add_release(
            data_sha256=sha,
            recipe_version_id=version.id,
            seed=1,
            output_sha256="0" * 64,
            output_name=f"{HOSTILE_NAME}.csv",
            data_path=str(tmp_path / f"{HOSTILE_NAME}.csv"),
        )
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = open_app("pages/12_history.py")
    at.button(key="hist_rerun").click().run()
    assert not at.exception, at.exception
    shown = _everything_shown(at)
    assert any("not at" in text and escape_markdown(HOSTILE_NAME) in text for text in shown), shown
    assert not _raw_image_shown(shown)
    assert not any(":red[x]" in text for text in shown)
