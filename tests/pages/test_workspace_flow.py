"""The dashboard on the workspace (issue 12): upload hierarchies -> search -> apply ->
the sidebar shows the new recipe and k at once -> leave and return, the hierarchy is still
there -> a new session on the same workspace (a restart) continues -> download the release
bundle (no hierarchy file) and archive -> the archive reproduces the released data byte for
byte in an empty folder."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest_helpers import Downloads, recorded_downloads, shown
from streamlit.testing.v1 import AppTest
from taxi_walkthrough import AGE_HIERARCHY, TAXI, k_by_hand, recipient_files, reproduce_archive

from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/9_tradeoffs.py"
ROLES = {
    "Serial number": Role.OTHER,
    "Age": Role.INDIRECT,
    "Gender": Role.INDIRECT,
    "Occupation": Role.OTHER,
    "Average number of trips per week": Role.OTHER,
}


@pytest.fixture
def downloads() -> Iterator[Downloads]:
    with recorded_downloads() as recorded:
        yield recorded


def _sidebar(at: AppTest) -> str:
    return "\n".join(m.value for m in at.sidebar.markdown)


def _sidebar_k(at: AppTest) -> str:
    return next(m.value for m in at.sidebar.metric if m.label == "k (smallest group)")


def _new_session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    return at


def test_workspace_flow_from_upload_to_reproduced_bundle(own_workspace, downloads, tmp_path):
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = ROLES
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()  # roles saved through to the workspace
    assert not at.exception, at.exception

    # Upload a hierarchy, search, apply.
    at.switch_page(PAGE).run()
    assert any("Works on the original table" in c.value for c in at.caption)
    at.multiselect(key="to_qi").set_value(["Age", "Gender"]).run()
    at.selectbox(key="to_kind_Age").set_value("upload").run()
    at.file_uploader(key="to_up_Age").set_value(
        ("age.csv", AGE_HIERARCHY.encode(), "text/csv")
    ).run()
    at.selectbox(key="to_kind_Gender").set_value("suppress").run()
    at.number_input(key="to_k").set_value(2)
    at.number_input(key="to_supp").set_value(0.0)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    levels = dict(part.split(":") for part in at.selectbox(key="to_candidate").value.split())
    expected_k = k_by_hand({"Age": int(levels["Age"]), "Gender": int(levels["Gender"])})
    assert expected_k >= 2
    at.button(key="to_apply").click().run()
    assert not at.exception, at.exception
    steps = len(at.session_state["history"].current.steps)
    # Apply reruns the script, so the sidebar (drawn before the page) shows the new recipe
    # and k at once; the message is shown by that rerun. (AppTest 1.67 does not show the
    # sidebar after switch_page, so the sidebar itself is checked in the new session below.)
    assert steps > 0 and any(f"Added {steps} step(s)" in s.value for s in at.success)
    assert "to_flash" not in at.session_state

    # Leave and come back: the uploaded hierarchy is still chosen, and it is in the workspace.
    at.switch_page("pages/5_risk.py").run()
    at.switch_page(PAGE).run()
    assert at.selectbox(key="to_kind_Age").value == "upload"
    assert any("Using the uploaded hierarchy" in c.value for c in at.caption)
    with Workspace(own_workspace) as ws:
        assert AGE_HIERARCHY in ws.hierarchies().values()

    # A new session on the same workspace file (a restart): the project continues.
    again = _new_session()
    assert not any("not stored" in w.value for w in again.sidebar.warning)
    assert TAXI in _sidebar(again) and f"**Recipe:** {steps} step(s)" in _sidebar(again)
    assert _sidebar_k(again) == str(expected_k)
    again.switch_page(PAGE).run()
    assert again.selectbox(key="to_kind_Age").value == "upload"

    # The recipient's bundle holds no hierarchy file; the internal archive reproduces the
    # release in an empty folder.
    again.switch_page("pages/7_report.py").run()
    assert not again.exception, again.exception
    if "prepare_release" not in {b.key for b in again.button}:
        again.checkbox(key="release_anyway").check().run()
    again.button(key="prepare_release").click().run()  # recorded, then offered
    recipient_files(downloads.content(again, "download_bundle"))
    again.checkbox(key="prepare_archive").check().run()
    archive = downloads.content(again, "download_archive")
    data = downloads.content(again, "download_data")
    _, released, reproduced = reproduce_archive(archive, tmp_path / "empty")
    assert reproduced == released == data


def test_history_page_shows_the_log_and_versions(own_workspace):
    at = _new_session()
    at.switch_page("pages/1_data.py").run()  # opening wrote nothing: the user picks a table
    at.button(key="load_sample").click().run()
    at.switch_page("pages/4_techniques.py").run()
    at.switch_page("pages/12_history.py").run()
    assert not at.exception, at.exception
    assert any("Audit log intact" in s.value for s in at.success)
    log = shown(at.dataframe[0])
    assert {"data set recorded", "recipe version saved"} <= set(log["action"])
    # Read as a person reads a log (issue 17): the time to the second, in UTC, and the
    # app's "-" where an entry has no figure (not "None", not "2026-...T...274285+00:00").
    assert log["time"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC").all()
    # The log's risk figure is 1/k under its own name, not "P(re-ID)" (issue 29).
    dataset_rows = log.loc[log["action"] == "data set recorded", ["k", "highest record risk (1/k)"]]
    assert (dataset_rows == "-").all().all()
    # Entry ids are names, shown as they are; beneath the text the grid keeps numbers.
    assert log["entry"].tolist() == at.dataframe[0].value["entry"].astype(str).tolist()
    # A data set's object holds its 64-character sha256: drawn in a column of its own width
    # it pushed "highest record risk (1/k)" past the grid's edge, its header cut (seen in
    # Chromium at 1400 px); the object column has a set width, its full text on hover.
    config = json.loads(at.dataframe[0].proto.columns)
    assert config["object"]["width"] == "medium"


def test_a_bad_workspace_file_is_shown_and_left_unchanged(tmp_path, monkeypatch):
    bad = tmp_path / "notes.anon.db"
    bad.write_text("not a database")
    monkeypatch.setenv("ANON_WORKSPACE", str(bad))
    at = _new_session()  # the session still works on the sample
    assert any("not an SQLite database" in w.value for w in at.sidebar.warning)
    assert bad.read_text() == "not a database"


def test_dp_budget_persists_across_sessions(own_workspace):
    at = _new_session()
    at.switch_page("pages/11_dp_release.py").run()
    at.number_input(key="dp_budget").set_value(1.5).run()
    at.slider(key="dp_epsilon").set_value(1.0).run()
    at.download_button(key="dp_download").click().run()  # the release spends ε = 1
    assert not at.exception, at.exception
    again = _new_session()
    again.switch_page("pages/11_dp_release.py").run()
    assert again.number_input(key="dp_budget").proto.disabled
    assert any("spent by 1 released" in c.value for c in again.caption)
    # Only ε = 0.5 is left: a second release of ε = 1 is refused.
    assert any("only ε = 0.5" in e.value for e in again.error)
    with Workspace(own_workspace) as ws:
        assert ws.dp_budget()["budget"]["epsilon"] == 1.5


def test_a_prepared_release_is_recorded_and_reproduces(own_workspace):
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = ROLES
    at.switch_page("pages/7_report.py").run()
    if "prepare_release" not in {b.key for b in at.button}:
        at.checkbox(key="release_anyway").check().run()
    at.text_input(key="signoff_prepared_by").set_value("Ann Tan").run()
    at.button(key="prepare_release").click().run()
    assert not at.exception, at.exception
    with Workspace(own_workspace) as ws:
        [release] = ws.releases()
        [signed] = ws.signoffs()
    assert (signed["name"], signed["role"], signed["release_id"]) == (
        "Ann Tan",
        "Prepared by",
        release["id"],
    )
    assert (
        release["data_sha256"]
        == hashlib.sha256((ROOT / "sample_data" / TAXI).read_bytes()).hexdigest()
    )
    at.switch_page("pages/12_history.py").run()
    # Headers in words (issue 29), not the workspace's created_at, output_sha256.
    frame = next(d for d in at.dataframe if "fingerprint of the file (sha256)" in d.value.columns)
    releases = shown(frame)
    assert releases["released at"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC").all()
    assert releases["k"].tolist() == [f"{release['k']:,}"]  # the k recorded, as a count
    assert frame.value["k"].tolist() == [release["k"]]  # a number beneath: sorts as one
    assert releases["engine"].tolist() == ["pandas"]  # the dashboard works in memory
    at.button(key="hist_rerun").click().run()
    assert any("reproduced" in s.value for s in at.success), [e.value for e in at.error]


def test_replacing_the_data_asks_first_and_keeps_the_old_data_set(own_workspace):
    at = _new_session()
    at.session_state["roles"] = {"name": Role.DIRECT}  # work worth keeping, recorded
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    at.switch_page("pages/10_contextual.py").run()
    before = at.session_state["source_name"]
    at.button(key="ctx_load_survey").click().run()
    assert any("This replaces the data set" in w.value for w in at.warning)
    assert at.session_state["source_name"] == before  # nothing replaced yet
    at.button(key="ctx_load_survey_no").click().run()
    assert at.session_state["source_name"] == before
    assert not any("This replaces" in w.value for w in at.warning)
    at.button(key="ctx_load_survey").click().run()
    at.button(key="ctx_load_survey_yes").click().run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "survey_respondents.csv"
    assert at.session_state["history"].current.steps == ()
    with Workspace(own_workspace) as ws:
        names = [d["name"] for d in ws.datasets()]
    assert names[0] == before and names[-1] == "survey_respondents.csv"


@pytest.mark.parametrize("keep", [True, False])
def test_an_upload_survives_a_restart_only_if_its_rows_are_kept(own_workspace, keep):
    upload = b"id,age,town\n1,31,Bedok\n2,45,Yishun\n3,45,Bedok\n"
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    assert at.checkbox(key="data_keep_rows").value  # kept unless the user says no (issue 29)
    if not keep:
        at.checkbox(key="data_keep_rows").uncheck().run()
    at.file_uploader(key="upload").set_value(("mine.csv", upload, "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "mine.csv"
    again = _new_session()
    if keep:
        assert again.session_state["source_name"] == "mine.csv"
        assert again.session_state["original"]["town"].tolist() == ["Bedok", "Yishun", "Bedok"]
    else:
        assert again.session_state["source_name"] != "mine.csv"
        assert any("rows are not stored" in w.value for w in again.sidebar.warning)
    assert (b"Yishun" in own_workspace.read_bytes() + _wal(own_workspace)) is keep


def _wal(path: Path) -> bytes:
    wal = Path(f"{path}-wal")
    return wal.read_bytes() if wal.exists() else b""


def test_switching_workspaces_on_history(own_workspace, tmp_path):
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.switch_page("pages/12_history.py").run()
    other = tmp_path / "other.anon.db"
    at.text_input(key="hist_path").set_value(str(other)).run()
    at.button(key="hist_open").click().run()
    assert not at.exception, at.exception
    assert other.is_file() and at.session_state["source_name"] == "singapore_people.csv"
    at.text_input(key="hist_path").set_value(str(own_workspace)).run()
    at.button(key="hist_open").click().run()
    assert at.session_state["source_name"] == TAXI  # back where that workspace left off
    bad = tmp_path / "notes.txt"
    bad.write_text("not a workspace")
    at.text_input(key="hist_path").set_value(str(bad)).run()
    at.button(key="hist_open").click().run()
    assert any("not an SQLite database" in e.value for e in at.error)
    assert at.session_state["source_name"] == TAXI and bad.read_text() == "not a workspace"


def test_an_upload_asks_before_replacing_work(own_workspace):
    at = _new_session()
    at.session_state["roles"] = {"name": Role.DIRECT}  # work that would be set aside
    at.switch_page("pages/1_data.py").run()
    upload = ("mine.csv", b"a,b\n1,2\n3,4\n", "text/csv")
    at.file_uploader(key="upload").set_value(upload).run()
    assert any("Loading 'mine.csv' replaces" in w.value for w in at.warning)
    assert at.session_state["source_name"] == "singapore_people.csv"
    at.button(key="upload_no").click().run()
    assert at.session_state["source_name"] == "singapore_people.csv"
    assert not any("replaces" in w.value for w in at.warning)
    at.file_uploader(key="upload").set_value(None).run()
    at.file_uploader(key="upload").set_value(upload).run()
    at.button(key="upload_yes").click().run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "mine.csv"


def test_the_report_and_bundle_of_a_prepared_release_carry_the_record(
    own_workspace, downloads, capsys
):
    """Preparing records the release; the report and bundle offered after it carry its
    anchor in the audit log, and `verify --report` / `--bundle` accept them (issue 27,
    High 2). Before, no report of the release is offered."""
    import json
    import zipfile

    from core.cli import main

    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = ROLES
    at.switch_page("pages/7_report.py").run()
    if "prepare_release" not in {b.key for b in at.button}:
        at.checkbox(key="release_anyway").check().run()
    assert at.download_button(key="download_report_json").proto.disabled  # nothing recorded
    at.button(key="prepare_release").click().run()
    assert not at.exception, at.exception
    report = json.loads(downloads.content(at, "download_report_json"))
    with Workspace(own_workspace) as ws:
        [release] = ws.releases()
        entries = ws.audit_entries()
    entry = next(e for e in entries if e["object"] == f"release:{release['id']}")
    assert report["audit"]["release"] == release["id"]
    assert (report["audit"]["entries"], report["audit"]["head"]) == (entry["id"], entry["hash"])
    assert any("Recorded as release" in s.value for s in at.success)
    tmp = own_workspace.parent
    (tmp / "report.json").write_bytes(downloads.content(at, "download_report_json"))
    (tmp / "report.md").write_bytes(downloads.content(at, "download_report_md"))
    (tmp / "bundle.zip").write_bytes(downloads.content(at, "download_bundle"))
    with zipfile.ZipFile(tmp / "bundle.zip") as bundle:
        assert json.loads(bundle.read("report.json"))["audit"]["release"] == release["id"]
    capsys.readouterr()
    code = main(
        [
            "verify",
            "--workspace",
            str(own_workspace),
            "--report",
            str(tmp / "report.json"),
            "--report",
            str(tmp / "report.md"),
            "--bundle",
            str(tmp / "bundle.zip"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(f"release {release['id']} is in this workspace") == 3
