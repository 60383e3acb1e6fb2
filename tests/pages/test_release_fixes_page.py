"""AppTest: a refused release walked to a passing one without relabelling a role (issue 25).

The table is written here: lower-case names, NRICs written with spaces, a postal code
unique for every record, and notes that hold names and NRIC digits. Step 1 calls the
postal code indirect; the user's roles call it "other" (the relabelling the issue found
unrecorded): the release check refuses until a reason is recorded. The notes are
redacted, rescanned on De-identify and signed for on the Report page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import open_app, recorded_downloads

from core.recipe import EditHistory, Recipe
from core.schema import Role

NAMES = [
    "tan ah kow",
    "lim mei ling",
    "ong boon huat",
    "goh siew lan",
    "ng kok wai",
    "lee hui min",
    "chua beng hock",
    "teo soo lin",
    "koh wee kiat",
    "yeo poh choo",
] * 2
TABLE = pd.DataFrame(
    {
        "name": [f"{n} {i}" for i, n in enumerate(NAMES)],
        "nric": [f"S {1234567 + 1111 * i:07d} D" for i in range(20)],
        "age": [21 + i for i in range(10)] + [51 + i for i in range(10)],
        "sex": ["F", "M"] * 10,
        "postal": [f"{310000 + 37 * i:06d}" for i in range(20)],
        "notes": [
            f"{n} called about the bill, nric S {2345678 + i:07d} D, will come back next week"
            for i, n in enumerate(NAMES)
        ],
        "salary": ["low"] * 10 + ["high"] * 10,
    }
)
ROLES = {
    "name": Role.DIRECT,
    "nric": Role.DIRECT,
    "notes": Role.DIRECT,
    "age": Role.INDIRECT,
    "sex": Role.INDIRECT,
    "postal": Role.OTHER,
}
STEPS = (
    {"step": "remove", "columns": ["name", "nric"]},
    # age bands of 50: (0-49, F), (0-49, M), (50-99, F), (50-99, M), 5 records each: k = 5
    {"step": "generalise", "column": "age", "width": 50},
    {"step": "redact_text", "columns": ["notes"]},
)


@pytest.fixture
def people(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "people.csv"
    TABLE.to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    return path


def _problems(at) -> list[str]:
    tables = [t.value for t in at.table if "problem" in t.value.columns]
    return list(tables[0]["problem"]) if tables else []


def test_a_refusal_is_fixed_on_the_pages_without_relabelling_a_role(people):
    with recorded_downloads() as files:
        at = open_app()
        at.session_state["roles"] = dict(ROLES)
        at.session_state["history"] = EditHistory(Recipe(steps=STEPS, seed=7))
        at.session_state["k_target_value"] = 5
        at.switch_page("pages/7_report.py").run()
        assert not at.exception, at.exception
        problems = " ".join(_problems(at))
        assert "Step 1 doubts column(s) 'postal'" in problems
        assert "a rescan of free-text column 'notes' still finds" in problems
        assert "No one has recorded reading" in problems
        assert at.download_button(key="download_data").proto.disabled

        # 1. the postal code: a reason, recorded (not a role changed)
        at.text_input(key="decide_postal").input("the codes are not published").run()
        at.button(key="decide_button_postal").click().run()
        assert not at.exception, at.exception
        assert not any("'postal'" in p for p in _problems(at))

        # 2. the notes: De-identify shows what the rescan finds and adds the residue option
        at.switch_page("pages/3_deidentify.py").run()
        assert not at.exception, at.exception
        assert any("The release check will refuse" in w.value for w in at.warning)
        assert at.checkbox(key="ft_residue").value
        at.button(key="ft_add").click().run()
        assert not at.exception, at.exception
        assert at.session_state["history"].current.steps[-1].get("residue") is True
        assert any("The rescan finds nothing" in s.value for s in at.success)

        # 3. the Report page: the before/after, then the reviewer signs
        at.switch_page("pages/7_report.py").run()
        problems = " ".join(_problems(at))
        assert "still finds" not in problems and "No one has recorded reading" in problems
        at.text_input(key="review_by_notes").input("A. Reviewer").run()
        at.button(key="review_button_notes").click().run()
        assert not at.exception, at.exception
        assert not _problems(at), _problems(at)
        at.button(key="prepare_release").click().run()  # recorded, then offered
        assert not at.download_button(key="download_data").proto.disabled
        check = json.loads(files.content(at, "download_report_json"))["release_check"]
        assert check["passed"] and check["decisions"] == {"postal": "the codes are not published"}
        assert check["reviews"]["notes"]["by"] == "A. Reviewer"
        assert check["reviews"]["notes"]["rows_checked"] == 20
        assert at.session_state["roles"] == ROLES  # no role was relabelled


def test_a_privacy_model_target_chosen_on_the_report_page_is_judged_on_the_release(people):
    """Age bands x sex: 4 groups of 5, salary "low" in the first band and "high" in the
    second, so each group holds one salary value: alpha = 1 in every group (by hand), and
    an (alpha,k) target of 0.8 fails for all 20 records."""
    with recorded_downloads() as files:
        at = open_app()
        at.session_state["roles"] = {**ROLES, "salary": Role.TARGET}
        steps = ({"step": "remove", "columns": ["name", "nric", "notes", "postal"]}, STEPS[1])
        at.session_state["history"] = EditHistory(Recipe(steps=steps, seed=7))
        at.session_state["k_target_value"] = 5
        at.switch_page("pages/7_report.py").run()
        assert not at.exception, at.exception
        assert not _problems(at), _problems(at)
        at.selectbox(key="target_model").select("alpha_k").run()
        at.selectbox(key="target_sensitive").select("salary").run()
        at.number_input(key="target_alpha").set_value(0.8).run()
        at.button(key="target_add").click().run()
        assert not at.exception, at.exception
        problems = " ".join(_problems(at))
        assert "Target (alpha,k)-anonymity alpha = 0.8 on 'salary' is not met" in problems
        assert "20 records in 4 group(s) fail it" in problems
        assert at.download_button(key="download_data").proto.disabled
        recipe = files.content(at, "download_recipe").decode()
        assert "alpha_k" in recipe and "alpha: 0.8" in recipe  # the target is in the recipe
        at.button(key="target_clear").click().run()
        assert not _problems(at), _problems(at)


def test_a_sensitive_column_opens_the_targets_on_l_diversity(people):
    """Issue 30: with a sensitive column from Step 1 (salary, a target attribute), the
    release targets open on l-diversity for it and a distinct 2-diversity target is judged:
    each age band x sex group holds one salary value (by hand, as above), so all 20 records
    fail it. Without one, the form stays on k-anonymity."""
    at = open_app()
    at.session_state["roles"] = dict(ROLES)
    steps = ({"step": "remove", "columns": ["name", "nric", "notes", "postal"]}, STEPS[1])
    at.session_state["history"] = EditHistory(Recipe(steps=steps, seed=7))
    at.session_state["k_target_value"] = 5
    at.switch_page("pages/7_report.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="target_model").value == "k_anonymity"
    assert not any("sensitive attribute (Step 1)" in i.value for i in at.info)
    at.session_state["roles"] = {**ROLES, "salary": Role.TARGET}  # as on Classify
    at.switch_page("pages/2_classify.py").run()
    at.switch_page("pages/7_report.py").run()
    assert at.selectbox(key="target_model").value == "l_diversity"
    assert at.selectbox(key="target_sensitive").value == "salary"
    assert any("'salary' is the sensitive attribute (Step 1)" in i.value for i in at.info)
    at.number_input(key="target_l").set_value(2).run()
    at.button(key="target_add").click().run()
    assert not at.exception, at.exception
    problems = " ".join(_problems(at))
    assert "on 'salary' is not met" in problems and "20 records" in problems, problems


def test_a_masked_nric_is_refused_with_what_would_pass_and_fixed_on_de_identify(people):
    """keep_last 8 releases every NRIC's digits and check letter: the Report says to mask
    more or to remove/pseudonymise; De-identify still offers the column, and a
    pseudonymisation there passes the check."""
    at = open_app()
    at.session_state["roles"] = {**ROLES, "postal": Role.INDIRECT}
    steps = (
        {"step": "remove", "columns": ["name", "notes", "postal"]},
        STEPS[1],
        {"step": "mask", "column": "nric", "keep_last": 8},
    )
    at.session_state["history"] = EditHistory(Recipe(steps=steps, seed=7))
    at.session_state["k_target_value"] = 5
    at.switch_page("pages/7_report.py").run()
    assert not at.exception, at.exception
    problems = " ".join(_problems(at))
    assert "Column 'nric', a direct identifier, is masked" in problems
    assert "mask at least 5 of the 7 digits" in problems and "pseudonymise" in problems
    at.switch_page("pages/3_deidentify.py").run()
    at.selectbox(key="method_nric").select("random").run()
    at.button(key="apply_deidentify").click().run()
    assert not at.exception, at.exception
    at.switch_page("pages/7_report.py").run()
    assert not _problems(at), _problems(at)
    assert at.session_state["roles"]["postal"] == Role.INDIRECT  # no role was relabelled
