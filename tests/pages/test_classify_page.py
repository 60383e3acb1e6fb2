"""AppTest checks of pages/2_classify.py (Step 1: classify the columns)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.schema import Role, suggest_roles
from ui import data_steps

ROOT = Path(__file__).resolve().parents[2]

# PDPC guide, Step 1, "Common examples in a dataset": name, email address, mobile phone
# number and NRIC number are direct identifiers; gender, date of birth and postal code are
# indirect identifiers; medical diagnosis and salary are target attributes.
GUIDE_DIRECT = {"nric", "name", "email", "mobile"}
GUIDE_INDIRECT = {"date_of_birth", "sex", "postal_code"}
GUIDE_TARGET = {"diagnosis", "income"}


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    app.run()
    app.switch_page("pages/2_classify.py")
    app.run()
    return app


def test_renders_and_suggestions_do_not_apply_themselves(at):
    assert not at.exception
    assert at.session_state["roles"] == {}
    assert any("No roles confirmed yet" in w.value for w in at.warning)
    # every role of the guide is explained on the page
    text = " ".join(m.value for m in at.markdown)
    for role in Role:
        assert role.description in text


def test_accept_all_marks_the_guides_identifiers(at):
    at.button(key="accept_all").click().run()
    assert not at.exception
    roles = at.session_state["roles"]
    assert {c for c, r in roles.items() if r == Role.DIRECT} >= GUIDE_DIRECT
    assert {c for c in GUIDE_INDIRECT if roles[c] == Role.INDIRECT} == GUIDE_INDIRECT
    assert {c for c in GUIDE_TARGET if roles[c] == Role.TARGET} == GUIDE_TARGET
    assert set(roles) == set(at.session_state["original"].columns)
    assert any("Roles confirmed for 13 of 13" in s.value for s in at.success)


def test_save_roles_confirms_the_table_as_shown(at):
    at.button(key="save_roles").click().run()
    assert not at.exception
    roles = at.session_state["roles"]
    assert {c for c, r in roles.items() if r == Role.DIRECT} >= GUIDE_DIRECT


def test_roles_from_an_edited_table():
    table = pd.DataFrame({"column": ["a", "b", "7"], "role": ["direct", "other", "target"]})
    roles = data_steps.roles_from_table(table, ["a", "b", 7])
    assert roles == {"a": Role.DIRECT, "b": Role.OTHER, 7: Role.TARGET}


def test_roles_table_shows_confirmed_role_over_suggestion():
    df = pd.DataFrame({"name": ["Alex", "Bosco", "Charlene"], "age": [25, 54, 42]})
    suggestions = {s.column: s for s in suggest_roles(df)}
    table = data_steps.roles_table(suggestions, {"name": Role.OTHER}).set_index("column")
    assert table.loc["name", "role"] == "other" and table.loc["name", "confirmed"]
    assert table.loc["age", "role"] == table.loc["age", "suggested"]
    assert not table.loc["age", "confirmed"]


def test_sensitive_and_k_target_are_kept_across_pages(at):
    at.selectbox(key="sensitive").set_value("diagnosis").run()
    at.number_input(key="k_target").set_value(3).run()
    assert not at.exception
    assert at.session_state["sensitive_column"] == "diagnosis"
    assert at.session_state["k_target_value"] == 3
    at.switch_page("pages/1_data.py").run()
    at.run()  # Streamlit forgets widget values of widgets not drawn in a run
    at.switch_page("pages/2_classify.py").run()
    assert at.number_input(key="k_target").value == 3
    assert at.selectbox(key="sensitive").value == "diagnosis"


def test_k_target_default_and_minimum(at):
    k = at.number_input(key="k_target")
    assert k.value == 5 and k.min == 2


def test_training_mode_shows_the_guides_example_2(at):
    at.session_state["training_mode"] = True
    at.run()
    assert any("Example 2" in i.value for i in at.info)
    example = at.dataframe[0].value.set_index("attribute")["role"]
    assert example["Income"] == "target" and example["Customer ID"] == "direct"


def test_one_click_on_a_role_then_save_under_the_pickers(at):
    columns = list(at.session_state["original"].columns)
    position = columns.index("income")  # suggested: target (guide, Step 1)
    picker = at.segmented_control[position]
    assert picker.value == "target" and len(at.segmented_control) == len(columns)
    picker.set_value("indirect").run()  # a single click on "indirect"
    assert not at.exception, at.exception
    assert at.session_state["roles"] == {}  # nothing is confirmed before saving
    at.button(key="save_roles").click().run()
    roles = at.session_state["roles"]
    assert roles["income"] == Role.INDIRECT and roles["nric"] == Role.DIRECT
    # Accept all puts the suggestion back, in the picker too.
    at.button(key="accept_all").click().run()
    assert at.session_state["roles"]["income"] == Role.TARGET
    assert at.segmented_control[position].value == "target"


def test_an_unsure_suggestion_is_marked_for_a_decision():
    # 70 distinct short texts in 100 rows: neither a category nor near-unique, no known
    # shape; Step 1 cannot say what it is (issue 26), and the table says so.
    rng = np.random.default_rng(0)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    pool = [" ".join(rng.choice(words, 3)) + f" {i}" for i in range(70)]
    df = pd.DataFrame({"c1": [pool[i % 70] for i in range(100)], "c2": ["a", "b"] * 50})
    suggestions = {s.column: s for s in suggest_roles(df)}
    table = data_steps.roles_table(suggestions, {}).set_index("column")
    assert table.loc["c1", "unsure"] and not table.loc["c2", "unsure"]
