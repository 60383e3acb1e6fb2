"""AppTest checks of pages/1_data.py (Data) and its upload handling in ui/data_steps.py."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.errors import AnonymisationError
from ui import data_steps
from ui.state import loading

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"


def count_records(path: Path) -> int:
    """Records of a sample counted with the csv module (independent of core.io)."""
    with path.open(newline="", encoding="utf-8") as handle:
        return sum(1 for _ in csv.reader(handle)) - 1


def _rows(sample: str) -> list[list[str]]:
    """A sample's records read with the csv module (no header)."""
    with (SAMPLES / sample).open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))[1:]


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    app.run()
    return app


def test_renders_default_sample(at):
    assert not at.exception
    assert at.session_state["source_name"] == "singapore_people.csv"
    n = count_records(SAMPLES / "singapore_people.csv")
    assert n == 10_000
    assert any(f"{n:,} records" in s.value for s in at.subheader)
    preview, profile = at.dataframe[0].value, at.dataframe[1].value
    assert len(preview) == 100
    # the profile has one row per column of the file's header
    with (SAMPLES / "singapore_people.csv").open(encoding="utf-8") as handle:
        header = handle.readline().strip().split(",")
    assert list(profile["column"]) == header
    # A text column has no range: "-" (core.formatting's missing figure), not "None"; a
    # number column's range reads as its values do (six significant digits, by hand here).
    by_column = profile.set_index("column")
    assert by_column.loc["sex", ["min", "max", "mean"]].tolist() == ["-", "-", "-"]
    latitudes = [float(row[header.index("latitude")]) for row in _rows("singapore_people.csv")]
    assert by_column.loc["latitude", "min"] == f"{min(latitudes):.6g}"
    assert by_column.loc["latitude", "max"] == f"{max(latitudes):.6g}"
    # source details from df.attrs["source"]
    assert any("comma" in c.value and "utf-8" in c.value for c in at.caption)


def test_loading_another_sample_changes_the_table(at):
    at.selectbox(key="sample").set_value("guide_annex_c_taxi.csv")
    at.button(key="load_sample").click().run()
    assert not at.exception
    expected = count_records(SAMPLES / "guide_annex_c_taxi.csv")
    assert expected == 11
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    assert len(at.session_state["original"]) == expected
    assert any("11 records" in s.value for s in at.subheader)
    assert len(at.dataframe[0].value) == expected


# A tiny app that loads the default sample, then hands the page's upload handler the bytes
# stored in the session (AppTest cannot drive st.file_uploader).
UPLOAD_SCRIPT = """
import streamlit as st
from ui import data_steps
from ui.state import loading, session

if not session.has_data():
    loading.load_sample(loading.DEFAULT_SAMPLE)
data, name = st.session_state["_test_upload"]
data_steps.receive_upload(data, name, token=name)
"""


def upload_app(data: bytes, name: str) -> AppTest:
    app = AppTest.from_string(UPLOAD_SCRIPT, default_timeout=30)
    app.session_state["_test_upload"] = (data, name)
    app.run()
    return app


def _nested_parquet() -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"age": [30, 40], "visits": [[1, 2], [3]]}), buffer)
    return buffer.getvalue()


def _xlsx_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/worksheets/sheet1.xml", b" " * 4 * 2**20)  # about 1000 to 1
    return buffer.getvalue()


BAD_UPLOADS = {
    "empty": (b"", "empty.csv", "empty"),
    "nested parquet": (_nested_parquet(), "nested.parquet", "'visits' hold nested values"),
    "xlsx zip bomb": (_xlsx_bomb(), "bomb.xlsx", "zip bomb"),
    "header only": (b"nric,name,age\n", "header.csv", "no data rows"),
    "ragged rows": (b"a,b,c\n1,2,3\n4,5,6,7,8\n", "ragged.csv", "ragged.csv"),
    "not a table": (b"\x89PNG\r\n\x1a\n\x00\x00", "picture.png", "not supported"),
}


@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_bad_upload_shows_error_and_keeps_previous_table(case):
    data, name, words = BAD_UPLOADS[case]
    app = upload_app(data, name)
    assert not app.exception
    assert len(app.error) == 1
    message = app.error[0].value
    assert words in message and "previous table is still loaded" in message
    assert app.session_state["source_name"] == "singapore_people.csv"
    assert len(app.session_state["original"]) == 10_000
    app.run()  # the file stays in the uploader: the error is shown again, nothing reloaded
    assert len(app.error) == 1 and app.session_state["source_name"] == "singapore_people.csv"


def test_too_large_upload_is_refused(monkeypatch):
    monkeypatch.setattr(loading, "MAX_UPLOAD_MB", 0)
    app = upload_app(b"a,b\n1,2\n", "big.csv")
    assert "larger than 0 MB" in app.error[0].value
    assert app.session_state["source_name"] == "singapore_people.csv"


def test_good_upload_is_read_once_and_replaces_the_table():
    app = upload_app(b"id;age\n1;30\n2;40\n3;50\n", "mine.csv")
    assert not app.exception and not app.error
    assert app.session_state["source_name"] == "mine.csv"
    assert list(app.session_state["original"]["age"]) == [30, 40, 50]
    assert app.session_state["original"].attrs["source"]["sep"] == ";"
    assert app.session_state["last_upload"] == ("mine.csv", None)


def test_load_upload_raises_directly():
    with pytest.raises(AnonymisationError, match="empty"):
        loading.load_upload(b"", "empty.csv")


def test_single_column_hint_for_space_delimited_text():
    from core.io import read_table

    df = read_table(b"a b c\n1 2 3\n", name="spaces.csv")
    assert data_steps.single_column_hint(df) is not None
    assert data_steps.single_column_hint(read_table(b"a,b\n1,2\n", name="ok.csv")) is None


def test_role_suggestions_wait_until_a_page_asks_for_them():
    """Issue 15: a large table's preview is shown without computing the Step 1 suggestions
    first; the Classify page still gets them."""
    root = Path(__file__).resolve().parents[2]
    at = AppTest.from_file(str(root / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["suggestions"] is None  # the Data page did not need them
    at.switch_page("pages/2_classify.py").run()
    assert not at.exception, at.exception
    assert "nric" in at.session_state["suggestions"]  # the sample's NRIC column
