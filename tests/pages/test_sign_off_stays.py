"""The Report page's sign-off stays (issue 29): who prepared, reviewed and approved the
release, the date and purpose typed on Report came back empty after a server restart.
They are kept in the workspace with the project, like the other settings."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
REPORT = "pages/7_report.py"
TYPED = {
    "prepared_by": "Tan Mei Ling (data protection officer)",
    "reviewed_by": "Rahul Nair",
    "approved_by": "Dr Lim Wei",
    "date": "2026-11-27",
    "purpose": "Share with the university's transport study",
}


def _report_session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page(REPORT).run()
    assert not at.exception, at.exception
    return at


def test_the_sign_off_comes_back_after_a_restart(own_workspace):
    at = _report_session()
    for key, text in TYPED.items():
        at.text_input(key=f"signoff_{key}").input(text).run()
    assert not at.exception, at.exception
    with Workspace(own_workspace) as ws:
        assert ws.settings()["sign_off"] == TYPED

    again = _report_session()  # the server restarted: a new session on the same workspace
    assert {key: again.text_input(key=f"signoff_{key}").value for key in TYPED} == TYPED
    # and the report carries them (under their readable names)
    preview = "\n".join(m.value for m in again.markdown)
    assert "Tan Mei Ling (data protection officer)" in preview.replace("\\", "")

    # A field cleared stays cleared after the next restart.
    again.text_input(key="signoff_approved_by").input("").run()
    third = _report_session()
    assert third.text_input(key="signoff_approved_by").value == ""
    assert third.text_input(key="signoff_reviewed_by").value == "Rahul Nair"
