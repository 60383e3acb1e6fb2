"""AppTest checks of the Report page (PDPC guide, Step 5) and of what its downloads hold."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import Downloads, recorded_downloads, shown
from streamlit.testing.v1 import AppTest

from core.figure_names import RECORD_RISK
from core.recipe import EditHistory, Recipe
from core.release.words import NOT_ANONYMISED_MARK
from core.schema import Role
from core.techniques import decrypt_table

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/7_report.py"
SAMPLE = ROOT / "sample_data" / "singapore_people.csv"
PASSPHRASE = "Tr0ub4dor&3-horse"
GUIDE_LEGAL = "Prohibit third-party recipients from attempting to re-identify"
QI = ["date_of_birth", "sex"]
STEPS = (
    {"step": "pseudonymise", "column": "nric", "method": "random"},
    {"step": "generalise", "column": "date_of_birth", "date_unit": "year"},
    # Step 1 calls these direct or indirect identifiers: a passing release gives each a
    # place (issue 25); removed here, so that (date of birth, sex) are the only ones left
    {
        "step": "remove",
        "columns": [
            "name",
            "email",
            "mobile",
            "race",
            "postal_code",
            "latitude",
            "longitude",
            "occupation",
        ],
    },
)


@pytest.fixture(scope="module")
def files() -> Iterator[Downloads]:
    """Every file handed to st.download_button by this module's tests."""
    with recorded_downloads() as recorded:
        yield recorded


@pytest.fixture(scope="module")
def page(files) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in QI} | {"nric": Role.DIRECT}
    at.session_state["history"] = EditHistory(Recipe(steps=STEPS, seed=7))
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, at.exception
    return at


def download(at: AppTest, files: Downloads, key: str) -> bytes:
    """The file behind ``key``; a release's files are offered once it is recorded, so the
    release is prepared first when the page asks for it (tests/pages/test_release_record_page)."""
    if at.download_button(key=key).proto.disabled and "prepare_release" in {
        b.key for b in at.button
    }:
        at.button(key="prepare_release").click().run()
        assert not at.exception, at.exception
    assert not at.download_button(key=key).proto.disabled, f"{key} is disabled"
    return files.content(at, key)


def open_report(roles: dict[str, Role], steps: tuple[dict, ...]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = roles
    at.session_state["history"] = EditHistory(Recipe(steps=steps, seed=7))
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, at.exception
    return at


def problems_shown(at: AppTest) -> list[str]:
    # st.table, not st.dataframe: its cells wrap, so a long problem is read in full
    # (a data grid cuts it at the column's width; issue 17).
    tables = [t.value for t in at.table if "problem" in t.value.columns]
    return list(tables[0]["problem"]) if tables else []


@pytest.fixture(scope="module")
def expected_k() -> tuple[int, int]:
    """k before and after on (date of birth, sex), counted with pandas."""
    df = pd.read_csv(SAMPLE, dtype=str)
    before = df.groupby(QI).size().min()
    after = df.assign(date_of_birth=df["date_of_birth"].str[:4]).groupby(QI).size().min()
    return int(before), int(after)


def test_renders_with_external_default(page: AppTest) -> None:
    assert page.selectbox(key="use_case").value == "external"
    labels = [c.label for c in page.checkbox]
    assert any(GUIDE_LEGAL in label for label in labels)
    assert len(page.get("vega_lite_chart")) == 1
    # the figures' explanations are long sentences: a table whose cells wrap (issue 17)
    figures = next(t.value for t in page.table if "what it means" in t.value.columns)
    assert list(figures.iloc[:, 0])[:2] == ["k (smallest group)", "Unique records"]
    # 1/k has one name on every page (issue 29): the Risk page, Trade-offs and History
    # call it so, not "Max prosecutor risk"
    assert RECORD_RISK.name in list(figures.iloc[:, 0])


def test_mapping_download_needs_a_long_passphrase(page: AppTest) -> None:
    assert page.download_button(key="download_mapping_encrypted").proto.disabled
    page.text_input(key="mapping_passphrase").input("short-pass1").run()  # 11 characters
    assert page.download_button(key="download_mapping_encrypted").proto.disabled
    # the same message as the De-identify page and encrypt_table itself
    assert any("has 11 characters; use at least 12" in w.value for w in page.warning)


def test_reports_list_step_k_and_controls(page: AppTest, files, expected_k) -> None:
    legal = next(c for c in page.checkbox if GUIDE_LEGAL in c.label)
    legal.check()
    page.text_input(key="signoff_prepared_by").input("A. Officer")
    page.text_input(key="signoff_purpose").input("Partner analysis")
    page.run()
    assert not page.exception
    k_before, k_after = expected_k
    assert k_after > k_before

    markdown = download(page, files, "download_report_md").decode()
    assert "date_of_birth → year (e.g. 2003)" in markdown
    assert f"| k (smallest class) | {k_before} | {k_after} |" in markdown
    assert f"- [x] **Legal, Data sharing agreement:** {GUIDE_LEGAL}" in markdown
    assert "- [ ] **Legal, Data sharing agreement:** Ensure the data is only used" in markdown
    assert "**Prepared by:** A. Officer" in markdown

    report = json.loads(download(page, files, "download_report_json"))
    assert report["use_case"]["name"] == "External data sharing"
    assert [s["step"]["step"] for s in report["steps"]] == ["pseudonymise", "generalise", "remove"]
    assert report["risk_before"]["k"] == k_before
    assert report["risk_after"]["k"] == k_after
    controls = {c["control"]: c["done"] for c in report["controls"]}
    legal_text = next(t for t in controls if t.startswith(GUIDE_LEGAL))
    assert controls[legal_text] is True
    assert report["sign_off"] == {
        "Prepared by": "A. Officer",
        "Purpose of release": "Partner analysis",
    }


def test_recipe_and_script(page: AppTest, files) -> None:
    recipe = Recipe.from_yaml(download(page, files, "download_recipe").decode())
    assert recipe.steps == STEPS
    assert recipe.seed == 7
    assert recipe.meta["use_case"] == "external"
    assert sorted(recipe.meta["quasi_identifiers"]) == sorted(QI)
    assert recipe.meta["k"] == 5
    script = download(page, files, "download_script").decode()
    compile(script, "anonymise.py", "exec")
    assert "generalise_date" in script


def test_data_download_in_csv_and_xlsx(page: AppTest, files) -> None:
    data = pd.read_csv(io.BytesIO(download(page, files, "download_data")), dtype=str)
    original = pd.read_csv(SAMPLE, dtype=str)
    assert len(data) == len(original)
    assert set(data["date_of_birth"]) == set(original["date_of_birth"].str[:4])
    assert not set(data["nric"]) & set(original["nric"])
    page.radio(key="data_format").set_value("xlsx").run()
    blob = download(page, files, "download_data")
    assert blob[:2] == b"PK"
    assert len(pd.read_excel(io.BytesIO(blob))) == len(original)
    page.radio(key="data_format").set_value("csv").run()


def test_encrypted_mapping_decrypts_with_the_typed_passphrase(page: AppTest, files) -> None:
    page.text_input(key="mapping_passphrase").input(PASSPHRASE).run()
    assert not page.exception
    blob = download(page, files, "download_mapping_encrypted")
    table = decrypt_table(blob, PASSPHRASE)
    original = pd.read_csv(SAMPLE, dtype=str)
    data = pd.read_csv(io.BytesIO(download(page, files, "download_data")), dtype=str)
    assert set(table["column"]) == {"nric"}
    assert set(table["original_value"]) == set(original["nric"])
    # the mapping turns the original NRICs into the released pseudonyms, row by row
    lookup = dict(zip(table["original_value"], table["pseudonym"].astype(str), strict=True))
    assert original["nric"].map(lookup).tolist() == data["nric"].tolist()


def test_no_passphrase_in_any_download(page: AppTest, files) -> None:
    page.text_input(key="mapping_passphrase").input(PASSPHRASE).run()
    assert files.contents
    for content in files.contents.values():
        assert PASSPHRASE.encode() not in content
    markdown = download(page, files, "download_report_md").decode()
    assert "passphrase" not in json.dumps(json.loads(download(page, files, "download_report_json")))
    assert PASSPHRASE not in markdown


def test_the_bundle_goes_to_the_recipient_and_the_archive_stays_internal(page, files) -> None:
    """Issue 25, item 5: the NRICs' identity table is in the internal archive (encrypted
    with the typed passphrase), and no file of the recipient's bundle holds an NRIC."""
    import zipfile

    page.text_input(key="mapping_passphrase").input(PASSPHRASE).run()
    nrics = set(pd.read_csv(SAMPLE, dtype=str)["nric"])
    with zipfile.ZipFile(io.BytesIO(download(page, files, "download_bundle"))) as bundle:
        sent = {name: bundle.read(name).decode("utf-8", "replace") for name in bundle.namelist()}
    assert not any(name.startswith(("mapping/", "hierarchies/")) for name in sent)
    assert not [nric for nric in nrics if any(nric in text for text in sent.values())]
    assert "Identity mapping tables were made; they are not in this bundle." in sent["README.txt"]
    assert "download_archive" not in {b.key for b in page.get("download_button")}
    page.checkbox(key="prepare_archive").check().run()  # built only on request
    assert files.name(page, "download_archive") == "INTERNAL-reproduction-archive.zip"
    with zipfile.ZipFile(io.BytesIO(download(page, files, "download_archive"))) as archive:
        readme = archive.read("README.txt").decode()
        table = decrypt_table(archive.read("mapping/identities.enc"), PASSPHRASE)
    assert readme.startswith("INTERNAL REPRODUCTION ARCHIVE: HOLDS PERSONAL DATA.")
    assert set(table["original_value"]) == nrics
    page.checkbox(key="prepare_archive").uncheck().run()


# --- the release gate (issue 11, item 4) ------------------------------------------------


def test_passing_release_is_named_anonymised_and_says_so(page: AppTest, files) -> None:
    assert not problems_shown(page)
    assert "release_anyway" not in {c.key for c in page.checkbox}
    report = json.loads(download(page, files, "download_report_json"))
    assert files.name(page, "download_data") == "anonymised.csv"
    assert report["release_check"]["passed"] is True
    assert "Release check passed" in download(page, files, "download_report_md").decode()


def test_untouched_table_cannot_be_downloaded_as_anonymised(files) -> None:
    roles = {c: Role.INDIRECT for c in QI} | {"nric": Role.DIRECT}
    at = open_report(roles, ())
    button = at.download_button(key="download_data")
    assert button.proto.disabled
    problems = problems_shown(at)
    assert any("original data" in p for p in problems)
    assert any("'nric'" in p for p in problems)  # the direct identifier is still there
    todo = list(next(t.value for t in at.table if "problem" in t.value.columns)["what to do"])
    assert any("De-identify" in t for t in todo) and any("Techniques" in t for t in todo)
    # Nothing changed, so no column lost information: a sentence, not an empty bar chart.
    assert not at.get("vega_lite_chart")
    assert any("No column has lost information" in c.value for c in at.caption)
    assert not at.checkbox(key="release_anyway").value  # unticked by default
    # The recipe and the report stay available and say that the check failed.
    markdown = download(at, files, "download_report_md").decode()
    assert "Release check failed" in markdown and "not released as anonymised" in markdown
    report = json.loads(download(at, files, "download_report_json"))
    assert report["release_check"]["passed"] is False
    assert report["release_check"]["acknowledged"] is False


def test_unconfirmed_roles_block_the_release(files) -> None:
    at = open_report({}, STEPS)
    assert at.download_button(key="download_data").proto.disabled
    problems = problems_shown(at)
    assert any("roles have not been confirmed" in p for p in problems)
    assert any("No quasi-identifiers" in p for p in problems)


def test_release_anyway_marks_the_file_and_the_report(files) -> None:
    # nric left in clear: a direct identifier with its original values.
    roles = {c: Role.INDIRECT for c in QI} | {"nric": Role.DIRECT}
    at = open_report(roles, STEPS[1:])
    assert at.download_button(key="download_data").proto.disabled
    assert "prepare_release" not in {b.key for b in at.button}  # nothing to record
    assert any("'nric'" in p for p in problems_shown(at))
    box = at.checkbox(key="release_anyway")
    assert "direct identifiers left" in box.label
    box.check().run()
    assert not at.exception
    data = pd.read_csv(io.BytesIO(download(at, files, "download_data")), dtype=str)
    assert files.name(at, "download_data") == f"released.{NOT_ANONYMISED_MARK}.csv"
    assert set(data["nric"]) == set(pd.read_csv(SAMPLE, dtype=str)["nric"])
    markdown = download(at, files, "download_report_md").decode()
    assert f"RELEASED ANYWAY BY THE USER, NOT ANONYMISED (file marked {NOT_ANONYMISED_MARK})" in (
        markdown
    )
    report = json.loads(download(at, files, "download_report_json"))
    assert report["release_check"]["acknowledged"] is True
    assert report["release_check"]["passed"] is False


def test_quasi_identifier_unknown_to_the_table_stops_the_report(files) -> None:
    roles = {c: Role.INDIRECT for c in QI} | {"postcode": Role.INDIRECT}  # no such column
    at = open_report(roles, STEPS)
    assert any("'postcode'" in e.value and "Classify" in e.value for e in at.error)
    assert not at.download_button  # nothing is offered on fewer quasi-identifiers


def test_the_decrypt_command_shown_reads_the_mapping_back(page: AppTest, files, tmp_path):
    page.text_input(key="mapping_passphrase").input(PASSPHRASE).run()
    shown = " ".join(c.value for c in page.caption)
    command = "python -m core decrypt-mapping FILE --passphrase-env NAME --out OUT.csv"
    assert command in shown and "decrypt_table" not in shown
    blob = tmp_path / "mapping.enc"
    blob.write_bytes(download(page, files, "download_mapping_encrypted"))
    out = tmp_path / "mapping.csv"
    args = command.replace("python", sys.executable, 1).split()
    args = [
        str(blob)
        if a == "FILE"
        else "MY_PASS"
        if a == "NAME"
        else str(out)
        if a == "OUT.csv"
        else a
        for a in args
    ]
    env = {**os.environ, "MY_PASS": PASSPHRASE}
    subprocess.run(args, check=True, cwd=ROOT, env=env, capture_output=True)
    assert set(pd.read_csv(out, dtype=str)["column"]) == {"nric"}


def test_without_a_mapping_table_no_passphrase_is_asked():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in QI} | {"nric": Role.DIRECT}
    at.session_state["history"] = EditHistory(Recipe(steps=STEPS[1:], seed=7))
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Report"  # as in the menu
    assert "mapping_passphrase" not in {t.key for t in at.text_input}
    assert "download_mapping_encrypted" not in {b.key for b in at.get("download_button")}
    assert any("No pseudonymisation step" in c.value for c in at.caption)


def test_direct_identifiers_left_are_one_summary_line_not_a_warning_each() -> None:
    """Four direct identifiers left in clear: the release check's table names them, so
    the page adds one summary line, not four yellow warnings repeating it (issue 17)."""
    direct = ["nric", "name", "email", "mobile"]
    roles = {c: Role.INDIRECT for c in QI} | {c: Role.DIRECT for c in direct}
    at = open_report(roles, STEPS[1:2])  # only the date generalised: all four left in clear
    problems = problems_shown(at)
    assert any(all(f"'{c}'" in p for c in direct) for p in problems), problems
    about_identifiers = [w.value for w in at.warning if "direct identifier" in w.value]
    assert len(about_identifiers) == 1, about_identifiers
    assert about_identifiers[0].startswith("4 columns classified as direct identifiers")


def test_a_visit_records_no_use_case_and_a_change_records_one(own_workspace) -> None:
    """History: opening the Report is not a choice of use case (it wrote one entry per
    first visit); choosing one is, once (issue 17 screenshot review)."""
    from core.workspace import Workspace

    def entries() -> list[dict]:
        with Workspace(own_workspace) as ws:
            return [e for e in ws.audit_entries() if e["object"] == "setting:use_case"]

    at = open_report({c: Role.INDIRECT for c in QI}, STEPS)
    at.run()
    assert entries() == []
    at.selectbox(key="use_case").set_value("internal_anonymised").run()
    at.run()
    assert [e["summary"]["value"] for e in entries()] == ["internal_anonymised"]


def test_utility_table_reads_as_every_page(page: AppTest) -> None:
    """Distinct counts with thousands separators and shares of changed values as the app's
    percentages (core.formatting), not the browser locale's; numbers beneath to sort on."""
    frame = next(d for d in page.dataframe if "distinct_before" in d.value.columns)
    text, numbers = shown(frame), frame.value
    for column in ("distinct_before", "distinct_after"):
        assert text[column].tolist() == [f"{int(n):,}" for n in numbers[column]]
    assert any(n >= 1000 for n in numbers["distinct_before"])  # a separator is exercised
    for said, share in zip(text["changed"], numbers["changed"], strict=True):
        # by hand: 0 and 1 exactly read "0%" and "100%", others within half a last digit
        if share in (0, 1):
            assert said == f"{int(share * 100)}%"
        else:
            assert said.endswith("%") and abs(float(said[:-1]) - 100 * share) <= 0.05, said
    assert "100%" in set(text["changed"])  # (shares in between: tests/ui/test_tables.py)


def test_the_utility_bars_carry_their_figures(page: AppTest) -> None:
    """Issue 29: "Utility cost per column" had bars and no figures."""
    [chart] = page.get("vega_lite_chart")
    layers = json.loads(chart.proto.spec)["layer"]
    [label] = [layer for layer in layers if layer["mark"]["type"] == "text"]
    assert label["encoding"]["text"] == {
        "field": "entropy_loss",
        "format": ".0%",
        "type": "quantitative",
    }
