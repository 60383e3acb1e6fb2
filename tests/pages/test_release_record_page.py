"""AppTest: the Report page records a release before it offers any of its files (issue 27,
"The release escapes its record"; High 2's anchors).

"Prepare the release" records it in the workspace (core.release.record, as ``apply``
does); only then are the data, the report and the bundle offered, each carrying the
release's anchor in the audit log, which ``python -m core verify --report`` accepts. The
same release is recorded once however often the page is visited; a changed recipe
withdraws the prepared downloads; a record that fails offers nothing and says why.
"""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest_helpers import (
    PASSING_RELEASE_ROLES,
    PASSING_RELEASE_STEPS,
    Downloads,
    recorded_downloads,
)
from streamlit.testing.v1 import AppTest

from core.recipe import EditHistory, Recipe
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/7_report.py"
QI = ["date_of_birth", "sex"]
ROLES = PASSING_RELEASE_ROLES
# No random step: two sessions make the same bytes, so the second finds the first's record.
STEPS = PASSING_RELEASE_STEPS
RELEASE_FILES = ("download_data", "download_bundle", "download_report_md", "download_report_json")


@pytest.fixture
def files() -> Iterator[Downloads]:
    with recorded_downloads() as recorded:
        yield recorded


def open_report(steps: tuple[dict, ...] = STEPS) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.session_state["roles"] = ROLES
    at.session_state["history"] = EditHistory(Recipe(steps=steps, seed=7))
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def releases(workspace: Path) -> list[dict]:
    with Workspace(workspace) as ws:
        return ws.releases()


def offered(at: AppTest) -> dict[str, bool]:
    """Each release file's download button: whether it can be clicked."""
    return {key: not at.download_button(key=key).proto.disabled for key in RELEASE_FILES}


def prepare(at: AppTest) -> None:
    at.button(key="prepare_release").click().run()
    assert not at.exception, at.exception


def test_downloads_follow_the_record_and_the_report_verifies(own_workspace, files, tmp_path):
    at = open_report()
    assert offered(at) == dict.fromkeys(RELEASE_FILES, False)  # nothing before the record
    assert not Path(own_workspace).exists() or releases(own_workspace) == []
    prepare(at)
    [release] = releases(own_workspace)
    assert offered(at) == dict.fromkeys(RELEASE_FILES, True)
    report = json.loads(files.content(at, "download_report_json"))
    with Workspace(own_workspace) as ws:
        entry = next(e for e in ws.audit_entries() if e["object"] == f"release:{release['id']}")
    assert report["audit"]["release"] == release["id"]
    assert (report["audit"]["entries"], report["audit"]["head"]) == (entry["id"], entry["hash"])
    # the data offered is the data recorded
    data = files.content(at, "download_data")
    assert hashlib.sha256(data).hexdigest() == release["output_sha256"]
    with zipfile.ZipFile(io.BytesIO(files.content(at, "download_bundle"))) as zf:
        assert json.loads(zf.read("report.json"))["audit"]["release"] == release["id"]
    (tmp_path / "report.json").write_bytes(files.content(at, "download_report_json"))
    (tmp_path / "report.md").write_bytes(files.content(at, "download_report_md"))
    (tmp_path / "bundle.zip").write_bytes(files.content(at, "download_bundle"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "core",
            "verify",
            "--workspace",
            str(own_workspace),
            "--report",
            str(tmp_path / "report.json"),
            "--report",
            str(tmp_path / "report.md"),
            "--bundle",
            str(tmp_path / "bundle.zip"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(f"release {release['id']} is in this workspace") == 3


def test_a_second_visit_and_a_new_session_record_nothing_new(own_workspace, files):
    at = open_report()
    prepare(at)
    [first] = releases(own_workspace)
    with Workspace(own_workspace) as ws:
        entries = len(ws.audit_entries())
    anchor = json.loads(files.content(at, "download_report_json"))["audit"]
    at.switch_page("pages/5_risk.py").run()
    at.switch_page(PAGE).run()
    at.run()
    assert not at.exception, at.exception
    assert offered(at) == dict.fromkeys(RELEASE_FILES, True)  # still prepared, not again
    # A new session (a restart) on the same workspace, the same data and recipe: preparing
    # finds the release recorded and gives its anchor.
    again = open_report()
    assert offered(again) == dict.fromkeys(RELEASE_FILES, False)
    prepare(again)
    assert any("Already recorded as release" in s.value for s in again.success)
    assert json.loads(files.content(again, "download_report_json"))["audit"] == anchor
    assert releases(own_workspace) == [first]
    with Workspace(own_workspace) as ws:
        assert len(ws.audit_entries()) == entries  # not a line added to the log


def test_the_sign_off_is_recorded_with_the_release_once(own_workspace):
    at = open_report()
    at.text_input(key="signoff_prepared_by").set_value("Ann Tan").run()
    prepare(at)
    at.text_input(key="signoff_reviewed_by").set_value("Bo Lim").run()
    # the report would now name a reviewer the record does not: prepare again
    assert offered(at)["download_report_json"] is False
    prepare(at)
    [release] = releases(own_workspace)
    with Workspace(own_workspace) as ws:
        signed = sorted((s["name"], s["role"], s["release_id"]) for s in ws.signoffs())
    assert signed == [
        ("Ann Tan", "Prepared by", release["id"]),
        ("Bo Lim", "Reviewed by", release["id"]),
    ]


def test_a_changed_recipe_withdraws_the_prepared_downloads(own_workspace):
    at = open_report()
    prepare(at)
    history = at.session_state["history"]
    history.push(history.current.add({"step": "remove", "columns": ["income"]}))
    at.run()
    assert not at.exception, at.exception
    assert offered(at) == dict.fromkeys(RELEASE_FILES, False)
    assert any("was prepared for another recipe" in i.value for i in at.info)
    prepare(at)  # a new release: another recipe, another output
    assert len(releases(own_workspace)) == 2
    assert offered(at) == dict.fromkeys(RELEASE_FILES, True)


@pytest.mark.parametrize("failure", ["full disk", "damaged file"])
def test_a_record_that_fails_offers_no_download_and_says_why(own_workspace, monkeypatch, failure):
    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    at = open_report()
    if failure == "full disk":
        monkeypatch.setattr(Workspace, "add_release", full_disk)
    else:  # the workspace file overwritten while the page is open
        for path in own_workspace.parent.glob(f"{own_workspace.name}*"):
            path.unlink()
        own_workspace.write_bytes(b"not a database, " * 512)
    prepare(at)
    assert offered(at) == dict.fromkeys(RELEASE_FILES, False)
    assert "download_archive" not in {
        b.key for b in at.get("download_button") if not b.proto.disabled
    }
    [said] = [e.value for e in at.error]
    assert said.startswith("The release was not recorded, so nothing is offered for download")
    assert "\n" not in said and "Traceback" not in said
    if failure == "full disk":
        assert "database or disk is full" in said
        monkeypatch.undo()
        assert releases(own_workspace) == []  # nothing half-recorded: one transaction
    else:
        assert "not an SQLite database" in said, said
        assert own_workspace.read_bytes() == b"not a database, " * 512  # left as it was


def test_the_data_file_has_one_name_in_the_download_and_history(own_workspace, files):
    """Issue 29: History listed ``released.csv`` for a file downloaded as ``anonymised.csv``."""
    at = open_report()
    prepare(at)
    [release] = releases(own_workspace)
    name = files.name(at, "download_data")
    assert name == "anonymised.csv"
    assert release["output_name"] == name
    at.switch_page("pages/12_history.py").run()
    assert not at.exception, at.exception
    [shown] = [d.value for d in at.dataframe if "file" in d.value.columns]
    assert list(shown["file"]) == [name]
