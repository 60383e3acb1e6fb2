"""The Report page attacked as a hurried user would (issue 25, red team): a phone column
relabelled "other" on Classify and decided away on the Report page still keeps the data
download locked, because Step 1 is sure the column holds phone numbers."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.recipe import EditHistory, Recipe
from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
QI = ["date_of_birth", "sex"]
# sample_data/singapore_people.csv: everything Step 1 doubts is removed except 'mobile'
STEPS = (
    {"step": "pseudonymise", "column": "nric", "method": "random"},
    {"step": "generalise", "column": "date_of_birth", "date_unit": "year"},
    {
        "step": "remove",
        "columns": ["name", "email", "race", "postal_code", "latitude", "longitude", "occupation"],
    },
)


def test_a_phone_column_relabelled_and_decided_away_keeps_the_download_locked():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    roles = {c: Role.INDIRECT for c in QI} | {"nric": Role.DIRECT, "mobile": Role.OTHER}
    at.session_state["roles"] = roles
    at.session_state["history"] = EditHistory(Recipe(steps=STEPS, seed=7))
    at.session_state["release_decisions"] = {"mobile": "only used to call back"}
    at.switch_page("pages/7_report.py")
    at.run()
    assert not at.exception, at.exception
    assert at.download_button(key="download_data").proto.disabled
    tables = [t.value for t in at.table if "problem" in t.value.columns]
    problems = list(tables[0]["problem"]) if tables else []
    assert any("'mobile'" in p and "remove or pseudonymise" in p for p in problems), problems
