"""core.release.report_files: sign-off, the stacked identity table and ticked controls in the report."""

from __future__ import annotations

import json

import pandas as pd

from core.recipe import Recipe, apply_recipe
from core.release.inputs import ReleaseRoles
from core.release.report import build_report
from core.release.report_files import identity_table, report_json, report_markdown, sign_off
from core.techniques import decrypt_table, encrypt_table

TEXT = "Prohibit third-party recipients from attempting to re-identify the data."


def test_sign_off_keeps_filled_fields_in_order() -> None:
    assert sign_off({"date": "2024-01-01", "prepared_by": " Ann ", "reviewed_by": ""}) == {
        "Prepared by": "Ann",
        "Date": "2024-01-01",
    }


def test_identity_table_stacks_mapping_and_linking() -> None:
    df = pd.DataFrame({"id": ["a", "b", "a"], "x": [1, 2, 3]})
    recipe = Recipe(steps=({"step": "pseudonymise", "column": "id", "method": "double"},), seed=1)
    result = apply_recipe(df, recipe)
    table = identity_table(result.mappings, result.linking)
    assert list(table.columns) == [
        "table",
        "column",
        "pseudonym",
        "interim_pseudonym",
        "original_value",
    ]
    assert table["table"].value_counts().to_dict() == {"mapping": 2, "linking": 2}
    mapping = table[table["table"] == "mapping"]
    linking = table[table["table"] == "linking"]
    assert set(mapping["original_value"]) == {"a", "b"}
    # following interim -> final pseudonym gives the released value of each original
    final = dict(zip(linking["interim_pseudonym"], linking["pseudonym"], strict=True))
    by_original = {
        o: final[i]
        for o, i in zip(mapping["original_value"], mapping["interim_pseudonym"], strict=True)
    }
    assert df["id"].map(by_original).tolist() == result.data["id"].astype(str).tolist()
    back = decrypt_table(encrypt_table(table, "a long passphrase!"), "a long passphrase!")
    assert back["original_value"].tolist() == table["original_value"].tolist()
    assert identity_table({}, {}).empty


def test_ticked_controls_in_markdown_and_json() -> None:
    df = pd.DataFrame({"age": [21, 25, 33, 38], "sex": ["F", "F", "M", "M"]})
    recipe = Recipe(steps=({"step": "generalise", "column": "age", "width": 10},), seed=3)
    report = build_report(
        df, apply_recipe(df, recipe), recipe, roles=ReleaseRoles(quasi_identifiers=["age", "sex"])
    )
    markdown = report_markdown(report, [TEXT])
    assert f"- [x] **Legal, Data sharing agreement:** {TEXT}" in markdown
    assert markdown.count("- [x]") == 1
    assert report_markdown(report).count("- [x]") == 0
    data = json.loads(report_json(report, [TEXT]))
    assert [c["control"] for c in data["controls"] if c["done"]] == [TEXT]
    assert data["risk_after"]["k"] == 2  # 20-29/F and 30-39/M, two each
