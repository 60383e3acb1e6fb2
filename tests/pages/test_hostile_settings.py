"""A workspace someone sent may hold any JSON in its settings (issue 27, red team round 2):
the release check's decisions, reviews and targets, k, Annex D. The dashboard copied them
into the session as they were, and the Report page failed on the first one of a wrong
shape with only an error's type ("AttributeError"), naming nothing; it is now one line
naming the setting, and the sample table is shown instead."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("not_quasi_identifiers", ["ward"]),
        ("not_quasi_identifiers", {"ward": {"reason": 1}}),
        ("reviewed_text", {"notes": "read it"}),
        ("reviewed_text", ["notes"]),
        ("targets", 5),
        ("k", "five"),
        ("annex_d", "low"),
        ("keep_rows", {"a": 1}),
        ("sign_off", ["Tan Mei Ling"]),
        ("sign_off", {"prepared_by": 3}),
    ],
)
def test_a_setting_of_the_wrong_shape_is_named_not_a_crash(tmp_path, monkeypatch, key, value):
    table = pd.DataFrame({"age": [25, 27, 33, 35, 41, 44], "ward": list("ABABAB")})
    workspace = tmp_path / "sent.anon.db"
    with Workspace(workspace) as ws:
        sha = ws.add_dataset(table, name="people.csv", store_data=True)
        ws.set_setting("current_data", {"sha256": sha, "name": "people.csv", "source_path": None})
        ws.set_setting(key, value)
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    shown = " ".join(e.value for e in at.warning)  # the sidebar's warning
    assert f"setting '{key}' is not what this tool writes" in shown, shown
    at.switch_page("pages/7_report.py").run()
    assert not at.exception, at.exception
