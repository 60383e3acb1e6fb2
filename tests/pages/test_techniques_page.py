"""AppTest checks of the Techniques page (PDPC guide, Step 3; Annex C taxi example)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from apptest_helpers import load_sample, metric
from streamlit.testing.v1 import AppTest

from core.schema import Role
from ui.step_forms import TECHNIQUES

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/4_techniques.py"
TAXI = "guide_annex_c_taxi.csv"
TAXI_TABLE = pd.read_csv(ROOT / "sample_data" / TAXI)


def load_taxi(roles: dict[str, Role]) -> AppTest:
    """The app with the Annex C taxi table loaded through the Data page, on Techniques."""
    at = load_sample(TAXI, roles)
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def generalise_age(at: AppTest, action: str) -> None:
    """Annex C: Age into 10-year intervals labelled as in the guide, through the widgets."""
    at.selectbox(key="technique").set_value("generalise").run()
    at.selectbox(key="column").set_value("Age").run()
    at.radio(key="gen_mode").set_value("edges").run()
    at.text_input(key="edges").input("21, 31, 41")
    at.text_input(key="labels").input("21 to 30, 31 to 40")
    at.button(key=action).click().run()
    assert not at.exception, at.exception


def taxi_age_generalised() -> pd.DataFrame:
    """Hand version of the guide's Age column: 21-30 -> '21 to 30', 31-40 -> '31 to 40'."""
    return TAXI_TABLE.assign(Age=np.where(TAXI_TABLE["Age"] <= 30, "21 to 30", "31 to 40"))


def groupby_k(df: pd.DataFrame, columns: list[str]) -> int:
    return int(df.groupby(columns).size().min())


def current_table(at: AppTest) -> pd.DataFrame:
    """The page's 'Current table (first 20 rows)': its last dataframe."""
    return at.dataframe[-1].value


def recipe_lines(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if re.match(r"\*\*\d+\.\*\* ", m.value)]


QI = {"Age": Role.INDIRECT, "Gender": Role.INDIRECT}


def test_every_technique_renders_on_the_default_sample():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = {"sex": Role.INDIRECT, "race": Role.INDIRECT}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    for technique in TECHNIQUES:
        at.selectbox(key="technique").set_value(technique).run()
        assert not at.exception, (technique, at.exception)
    assert "pseudonymise" not in at.selectbox(key="technique").options
    # Plain names, not the recipe's internal ones ("remove: Remove columns (...)"; issue 17)
    labels = at.selectbox(key="technique").options
    assert "Remove columns (attribute suppression)" in labels
    assert not [label for label in labels if re.match(r"[a-z_]+: ", label)], labels


def test_preview_shows_the_change_without_adding_it():
    at = load_taxi(QI)
    generalise_age(at, "preview")
    assert recipe_lines(at) == []
    before_after = at.dataframe[0].value
    expected = taxi_age_generalised()["Age"]
    assert before_after["Age after"].tolist() == expected.tolist()
    assert before_after["Age before"].tolist() == TAXI_TABLE["Age"].astype(str).tolist()
    k_before = groupby_k(TAXI_TABLE, ["Age", "Gender"])
    k_after = groupby_k(taxi_age_generalised(), ["Age", "Gender"])
    assert (k_before, k_after) == (1, 5)  # 21 to 30 / Female: 6 records; 31 to 40 / Male: 5
    assert metric(at, "k after this step") == str(k_after)
    # 11 distinct ages become 2 labels of 6 and 5 records: entropy loss by hand.
    h_before = -sum(c / 11 * np.log2(c / 11) for c in TAXI_TABLE["Age"].value_counts())
    h_after = -(6 / 11 * np.log2(6 / 11) + 5 / 11 * np.log2(5 / 11))
    assert metric(at, "Information lost in Age") == f"{1 - h_after / h_before:.0%}"


def test_add_then_undo_restores_the_original_table():
    at = load_taxi(QI)
    generalise_age(at, "add_step")
    assert recipe_lines(at) == ["**1.** Age → 2 ranges cut at 21, 31, 41"]  # plain words
    shown = current_table(at)
    assert shown["Age"].tolist() == taxi_age_generalised()["Age"].tolist()
    assert metric(at, "k after the recipe") == str(
        groupby_k(taxi_age_generalised(), ["Age", "Gender"])
    )
    assert metric(at, "k of the original table") == str(groupby_k(TAXI_TABLE, ["Age", "Gender"]))

    at.button(key="undo").click().run()
    assert not at.exception, at.exception
    assert recipe_lines(at) == []
    pd.testing.assert_frame_equal(
        current_table(at).reset_index(drop=True), TAXI_TABLE, check_dtype=False
    )

    at.button(key="redo").click().run()
    assert current_table(at)["Age"].tolist() == taxi_age_generalised()["Age"].tolist()


def test_move_and_delete_steps():
    at = load_taxi(QI)
    generalise_age(at, "add_step")
    at.selectbox(key="technique").set_value("mask").run()
    at.selectbox(key="column").set_value("Occupation").run()
    at.radio(key="mask_mode").set_value("keep").run()
    at.number_input(key="keep_first").set_value(2)
    at.button(key="add_step").click().run()
    assert [line[:6] for line in recipe_lines(at)] == ["**1.**", "**2.**"]
    assert "Age →" in recipe_lines(at)[0] and "Occupation masked" in recipe_lines(at)[1]

    at.button(key="down_0").click().run()
    assert "Occupation masked" in recipe_lines(at)[0] and "Age →" in recipe_lines(at)[1]
    at.button(key="up_1").click().run()
    assert "Age →" in recipe_lines(at)[0]
    at.button(key="delete_0").click().run()
    assert len(recipe_lines(at)) == 1 and "Occupation masked" in recipe_lines(at)[0]
    shown = current_table(at)
    assert shown["Age"].tolist() == TAXI_TABLE["Age"].tolist()  # generalisation gone
    # "Database Administrator" keeps "Da", every other letter is masked, spaces kept.
    assert shown["Occupation"].iloc[3] == "Da" + "x" * 6 + " " + "x" * 13


def test_bad_step_shows_the_error_and_keeps_the_recipe():
    at = load_taxi(QI)
    at.selectbox(key="technique").set_value("round").run()
    at.selectbox(key="column").set_value("Gender").run()  # text: base-x rounding cannot apply
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception
    assert at.error and "Gender" in at.error[0].value
    assert recipe_lines(at) == []


def _group_occupations(at: AppTest, groups: list[tuple[list[str], str]]) -> None:
    at.selectbox(key="technique").set_value("generalise").run()
    at.selectbox(key="column").set_value("Occupation").run()
    at.radio(key="gen_mode").set_value("mapping").run()
    for number, (values, name) in enumerate(groups, start=1):
        at.multiselect(key=f"group_{number}").set_value(values)
        at.text_input(key=f"group_name_{number}").input(name)
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception


def test_grouping_categories_by_picking_them():
    """Issue 29: grouping the Annex C occupations took ten typed 'old = new' lines; two
    pick-lists do it, and the table groups as the guide's 'after' table does."""
    at = load_taxi({"Occupation": Role.INDIRECT, "Gender": Role.INDIRECT})
    dpo = [o for o in TAXI_TABLE["Occupation"] if "Data Protection" in o or "Privacy" in o]
    dpo.append("Manager, DPO Office")
    it = ["Lead IT Consultant", "Database Administrator", "Programmer", "IT Analyst"]
    it.append("UX Designer")
    _group_occupations(at, [(dpo, "Data Protection Officer"), (it, "IT")])
    # by hand: the guide's grouping (Annex C) leaves the banker alone
    expected = TAXI_TABLE["Occupation"].replace(dict.fromkeys(dpo, "Data Protection Officer"))
    expected = expected.replace(dict.fromkeys(it, "IT"))
    assert current_table(at)["Occupation"].tolist() == expected.tolist()[:20]
    assert sorted(set(expected)) == ["Banker", "Data Protection Officer", "IT"]


def test_a_picked_group_without_its_new_value_is_named():
    at = load_taxi({"Occupation": Role.INDIRECT})
    _group_occupations(at, [(["Programmer", "IT Analyst"], "")])
    assert any(
        "Group 1: write the value its 2 picked values become." in e.value for e in at.error
    ), [e.value for e in at.error]
