"""Explore trade-offs, Hierarchies (issue 30): ARX hierarchy files imported in one go and
matched to columns by name, a preview of each hierarchy's levels on the table, hostile
files refused in one line, and hierarchies named by the file a person uploaded (never the
key the workspace keeps them under) wherever a step is shown."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import open_sample, recorded_downloads
from streamlit.testing.v1 import AppTest

from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT / "tests" / "data" / "adult"
PAGE = "pages/9_tradeoffs.py"
QUASI_IDENTIFIERS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]
#: The key a workspace keeps a hierarchy under (hierarchies/<column>-<10 hex>.csv).
KEPT_NAME = re.compile(r"-[0-9a-f]{10}\.csv")
#: Streamlit elements whose text a person reads (st.code, the recipe's YAML, is the record).
TEXT_ELEMENTS = (
    "title",
    "header",
    "subheader",
    "markdown",
    "caption",
    "text",
    "success",
    "info",
    "warning",
    "error",
    "toast",
)


def adult_hierarchy_file(column: str) -> tuple[str, bytes, str]:
    """The hierarchy file of tests/data/adult for ``column``, as a file uploader sends it."""
    name = f"adult_hierarchy_{column}.csv"
    return (name, (ADULT / name).read_bytes(), "text/csv")


def adult_page() -> AppTest:
    """The dashboard with adult.csv uploaded on Data, its eight quasi-identifiers marked
    (salary-class: other), on Explore trade-offs."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/1_data.py").run()
    at.file_uploader(key="upload").set_value(
        ("adult.csv", (ADULT / "adult.csv").read_bytes(), "text/csv")
    ).run()
    assert not at.exception, at.exception
    at.session_state["roles"] = {c: Role.INDIRECT for c in QUASI_IDENTIFIERS} | {
        "salary-class": Role.OTHER
    }
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def _import(at: AppTest, files: list[tuple[str, bytes, str]]) -> AppTest:
    at.file_uploader(key="to_hier_files").set_value(files).run()
    assert not at.exception, at.exception
    return at


#: A fenced code block: the recipe's YAML, where ``hierarchy`` names the file the bundle and
#: archive hold (the record a replay reads), not words about the step.
FENCED = re.compile(r"```.*?```", re.DOTALL)


def shown_text(at: AppTest) -> list[str]:
    """Every text a person reads on the page (and the sidebar), tables as text; fenced
    code (the recipe as YAML) left out."""
    texts = [FENCED.sub("", str(el.value)) for kind in TEXT_ELEMENTS for el in at.get(kind)]
    texts += [el.value.to_string() for el in at.dataframe]
    texts += [el.label for el in at.get("expander")]
    return texts


@pytest.fixture(scope="module")
def adult_imported() -> AppTest:
    """The eight adult hierarchies imported in one upload action (module-wide: adult is
    30,162 records)."""
    return _import(adult_page(), [adult_hierarchy_file(c) for c in QUASI_IDENTIFIERS])


def test_eight_adult_hierarchies_in_one_upload(adult_imported):
    at = adult_imported
    matches = next(d.value for d in at.dataframe if "file" in d.value.columns)
    assert dict(zip(matches["file"], matches["column"], strict=True)) == {
        f"adult_hierarchy_{c}.csv": c for c in QUASI_IDENTIFIERS
    }
    assert set(matches["status"]) == {"used"}
    for column in QUASI_IDENTIFIERS:
        assert at.selectbox(key=f"to_kind_{column}").value == "upload", column
    choices = at.session_state["tradeoff_hierarchies"][at.session_state["data_sha256"]]
    assert {c: choices[c]["file"] for c in QUASI_IDENTIFIERS} == {
        c: f"adult_hierarchy_{c}.csv" for c in QUASI_IDENTIFIERS
    }
    captions = [c.value.replace("\\", "") for c in at.caption]  # Markdown escapes aside
    assert (
        "Using the uploaded hierarchy 'adult_hierarchy_age.csv', kept in the workspace." in captions
    )
    assert not any(KEPT_NAME.search(text) for text in shown_text(at))  # no key on screen
    assert not at.warning  # ARX's hierarchies cover every value of adult.csv


def _level_words(table: pd.DataFrame, hierarchy: pd.DataFrame, column: str, level: int) -> str:
    """'Level 1 · 15 groups: 30-34 (7,xxx), ...' by pandas alone: records per value of the
    level, largest three first (equal counts in the order of the level's values)."""
    mapping = dict(zip(hierarchy[0].astype(str), hierarchy[level].astype(str), strict=True))
    sizes = table[column].astype(str).map(mapping).value_counts()
    sizes = sizes.sort_index().sort_values(ascending=False, kind="stable")
    examples = ", ".join(f"{value} ({count:,})" for value, count in sizes.head(3).items())
    noun = "values" if level == 0 else "groups"
    more = " …" if len(sizes) > 3 else ""  # more groups than the three named
    return f"Level {level} · {len(sizes):,} {noun}: {examples}{more}"


def test_preview_shows_each_level_with_record_counts(adult_imported):
    table = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    captions = "\n".join(c.value.replace("\\", "") for c in adult_imported.caption)
    for column in ("age", "education"):
        hierarchy = pd.read_csv(
            ADULT / f"adult_hierarchy_{column}.csv", sep=";", header=None, dtype=str
        )
        for level in range(hierarchy.shape[1] - 1):  # the top, '*', is one group
            words = _level_words(table, hierarchy, column, level)
            assert words in captions, words
    age = pd.to_numeric(table["age"])
    # ARX's adult hierarchy puts ages 31 to 35 under the label '30-34' (its file says so,
    # line by line): the preview counts what the file does, not what the label reads
    thirties = int(age.between(31, 35).sum())
    assert f"Level 1 · 15 groups: 30-34 ({thirties:,})," in captions


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_of_a_folder_and_hostile_files(tmp_path):
    at = open_sample("guide_annex_c_taxi.csv", ["Age", "Gender"], PAGE)
    ages = "".join(f"{a};{a // 10 * 10}-{a // 10 * 10 + 9};*\n" for a in range(18, 80))
    folder = _zip(
        {
            "../../etc/taxi_hierarchy_Gender.csv": b"M;*\nF;*\n",  # a path climbing out
            "export/age.CSV": ages.encode(),  # <column>.csv, any case
            "export/readme.md": b"# notes",
            "__MACOSX/export/._age.CSV": b"\x00\x05",
        }
    )
    bomb = _zip({"taxi_hierarchy_Age.csv": b"1;*\n" + b"0" * (120 * 2**20)})  # 120 MB
    files = [
        ("folder.zip", folder, "application/zip"),
        ("bomb.zip", bomb, "application/zip"),
        ("latin.csv", "Zürich;*\n".encode("latin-1"), "text/csv"),
        ("empty.csv", b"", "text/csv"),
        ("ragged.csv", b"M;*\nF;x;*\n", "text/csv"),
        ("notes.csv", b"a,b,*\n", "text/csv"),
    ]
    _import(at, files)
    matches = next(d.value for d in at.dataframe if "file" in d.value.columns)
    by_file = dict(zip(matches["file"], matches["column"], strict=True))
    assert by_file["taxi_hierarchy_Gender.csv"] == "Gender"  # its own name only
    assert by_file["age.CSV"] == "Age"
    assert at.selectbox(key="to_kind_Gender").value == "upload"
    assert at.selectbox(key="to_kind_Age").value == "upload"
    errors = [e.value for e in at.error]
    for name, words in [
        ("bomb.zip", "larger than 20 MB"),
        ("latin.csv", "not UTF-8"),
        ("empty.csv", "is empty"),
        ("ragged.csv", "line 2"),
    ]:
        said = [e for e in errors if name.replace(".", "\\.") in e or name in e]
        assert said and words in said[0] and "\n" not in said[0], (name, errors)
    text = "\n".join(shown_text(at)) + "\n".join(s.label for s in at.selectbox)
    assert "etc" not in text and "../" not in text and "/tmp" not in text
    # a readable file no column matches: the person picks its column
    assert by_file["notes.csv"] == "no column of that name"
    pick = next(s for s in at.selectbox if "notes" in s.label)
    pick.set_value("Gender").run()
    assert not at.exception, at.exception
    matches = next(d.value for d in at.dataframe if "file" in d.value.columns)
    assert dict(zip(matches["file"], matches["column"], strict=True))["notes.csv"] == "Gender"


def test_a_gap_in_an_imported_hierarchy_is_named(tmp_path):
    at = open_sample("guide_annex_c_taxi.csv", ["Age", "Gender"], PAGE)
    _import(at, [("taxi_hierarchy_Gender.csv", b"Male;*\n", "text/csv")])  # no Female
    said = [w.value.replace("\\", "") for w in at.warning if "Gender" in w.value]
    assert said and "('Female')" in said[0] and "'taxi_hierarchy_Gender.csv'" in said[0]


def test_steps_name_the_uploaded_file_on_every_page(tmp_path):
    """Apply an option found with an imported hierarchy, then read the step where a person
    meets it: Techniques' step list, the sidebar, History, Report and report.md. Each
    names the file uploaded; none shows the key the workspace keeps it under."""
    at = open_sample("guide_annex_c_taxi.csv", ["Age", "Gender"], PAGE)
    ages = "".join(
        f"{a};{a // 5 * 5}-{a // 5 * 5 + 4};{a // 10 * 10}-{a // 10 * 10 + 9};*\n"
        for a in range(18, 80)
    )
    _import(at, [("taxi_hierarchy_Age.csv", ages.encode(), "text/csv")])
    at.number_input(key="to_k").set_value(2)
    at.number_input(key="to_supp").set_value(0.0)
    at.selectbox(key="to_measure").set_value("height")
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    at.button(key="to_apply").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    age = next(s for s in steps if s.get("column") == "Age")
    level = age["level"]
    # the expected words, by hand from the file above: its height is 3
    expected = f"Age → level {level} of 3 of the uploaded hierarchy 'taxi_hierarchy_Age.csv'"
    with recorded_downloads() as files:
        for page in ("pages/4_techniques.py", "pages/12_history.py", "pages/7_report.py"):
            at.switch_page(page).run()
            assert not at.exception, at.exception
            text = shown_text(at)
            # History's audit log too: it names a hierarchy by its column (core.audit_words)
            assert not [t for t in text if KEPT_NAME.search(t)], (page, text)
            if page != "pages/12_history.py":  # History lists versions by their message
                said = " ".join(text).replace("\\", "")
                assert expected in said, (page, [t for t in text if "Age" in t][:5])
        if at.download_button(key="download_report_md").proto.disabled:
            at.button(key="prepare_release").click().run()
        markdown = files.content(at, "download_report_md").decode()
    assert expected in markdown.replace("\\", "")
    assert not KEPT_NAME.search(FENCED.sub("", markdown))


def test_a_hierarchy_built_from_the_data_is_previewed_too(tmp_path):
    """Age as 5-year bands (numeric, widths 5, 10, 20, 40): level 1's groups and their
    records counted by pandas from the taxi table."""
    at = open_sample("guide_annex_c_taxi.csv", ["Age", "Gender"], PAGE)
    at.selectbox(key="to_kind_Age").set_value("numeric").run()
    assert not at.exception, at.exception
    table = pd.read_csv(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    low = table["Age"] // 5 * 5
    bands = (low.astype(str) + "-" + (low + 4).astype(str)).value_counts()
    bands = bands.sort_index().sort_values(ascending=False, kind="stable")
    examples = ", ".join(f"{band} ({n})" for band, n in bands.head(3).items())
    more = " …" if len(bands) > 3 else ""
    captions = [c.value.replace("\\", "") for c in at.caption]
    said = next(c for c in captions if c.startswith("Levels of 'Age'"))
    assert "the hierarchy built from the data (numeric)" in said
    assert f"Level 1 · {len(bands)} groups: {examples}{more}" in said
