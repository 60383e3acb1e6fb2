"""Tests of core.release.report: the Step 5 controls tables and the report contents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import ParameterError
from core.figure_names import RECORD_RISK
from core.io import read_table
from core.markup import escape_markdown
from core.recipe import Recipe, apply_recipe
from core.release.gate import check_release
from core.release.inputs import ReleaseRoles
from core.release.report import build_report, controls_for, controls_level, report_to_markdown
from core.release.words import NOT_ANONYMISED_MARK
from core.risk import annex_d_risk

ROOT = Path(__file__).resolve().parents[2]


def test_controls_follow_the_guides_tables():
    external = controls_for("external")
    # Legal controls (data sharing agreement) are "Y" only for external data sharing.
    assert sum(c.kind == "legal" for c in external) == 3
    assert not any(c.kind == "legal" for c in controls_for("internal_anonymised"))
    # Long-term retention: mapping tables destroyed, not encrypted and kept.
    long_term = [c.text for c in controls_for("long_term")]
    assert any("destroy" in text for text in long_term)
    assert not any("Encrypt the identity mapping" in text for text in long_term)
    # De-identified internal sharing: the decryption key goes separately.
    assert any("separately" in c.text for c in controls_for("internal_deidentified"))
    assert controls_for("synthetic") == []
    with pytest.raises(ParameterError, match="use_case"):
        controls_for("public")


def test_report_contents(monkeypatch):
    monkeypatch.setenv("ANON_REPORT_KEY", "a-long-secret-key-for-tests")
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    recipe = Recipe.from_yaml(
        "seed: 5\nquasi_identifiers: [Age, Gender]\nk: 5\nsteps:\n"
        "  - {step: pseudonymise, column: Serial number, method: hmac, key_env: ANON_REPORT_KEY}\n"
        "  - {step: remove, columns: [Occupation]}\n"
        "  - {step: generalise, column: Age, width: 10}\n"
    )
    result = apply_recipe(taxi, recipe)
    verdict = annex_d_risk(5, controls="medium", motivation="low", harm="medium")
    report = build_report(taxi, result, recipe, annex_d=verdict, sign_off={"Approved by": "DPO"})
    data = report.to_dict()
    assert data["risk_before"]["k"] == 1  # ages are unique before banding
    # By hand: females aged 21,25,30,29,25,23 -> 20-29: 5 records, 30-39: 1 (the 30-year-old);
    # males aged 38,34,38,32,31 -> 30-39: 5 records. So k = 1 with one record below 5.
    assert data["risk_after"]["k"] == 1
    assert data["risk_after"]["records_below_k"] == 1
    assert [s["step"]["step"] for s in data["steps"]] == ["pseudonymise", "remove", "generalise"]
    utility = {c["column"]: c for c in data["utility"]["columns"]}
    assert utility["Occupation"]["status"] == "removed"
    text = json.dumps(data) + report_to_markdown(report)
    assert "a-long-secret-key-for-tests" not in text
    markdown = report_to_markdown(report)
    for heading in (
        "What was done",
        "Re-identification risk",
        "Utility cost",
        "Controls",
        "Sign-off",
        "Annex D",
    ):
        assert heading in markdown
    assert "Prohibit third-party recipients from attempting to re-identify" in markdown


def test_direct_identifiers_left_in_the_release_are_named():
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    kept = Recipe.from_yaml("steps: [{step: generalise, column: Age, width: 10}]")
    report = build_report(
        taxi,
        apply_recipe(taxi, kept),
        kept,
        roles=ReleaseRoles(direct_identifiers=["Serial number"]),
    )
    assert len(report.warnings) == 1
    assert "'Serial number'" in report.warnings[0] and "Step 2" in report.warnings[0]
    assert "Warning" in report_to_markdown(report)
    removed = kept.add({"step": "remove", "columns": ["Serial number"]})
    clean = build_report(
        taxi,
        apply_recipe(taxi, removed),
        removed,
        roles=ReleaseRoles(direct_identifiers=["Serial number"]),
    )
    assert clean.warnings == ()


def test_misspelt_quasi_identifier_or_sensitive_is_refused_not_skipped():
    from core.errors import ColumnNotFoundError

    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    recipe = Recipe.from_yaml("steps:\n  - {step: remove, columns: [Serial number, Age]}\n")
    result = apply_recipe(taxi, recipe)
    with pytest.raises(ColumnNotFoundError, match="'Gendr'"):
        build_report(taxi, result, recipe, roles=ReleaseRoles(quasi_identifiers=["Age", "Gendr"]))
    with pytest.raises(ColumnNotFoundError, match="'Trips'"):
        build_report(
            taxi,
            result,
            recipe,
            roles=ReleaseRoles(quasi_identifiers=["Gender"], sensitive="Trips"),
        )
    # Age was removed by a step: a valid name, no longer in the release (k on Gender only)
    report = build_report(
        taxi, result, recipe, roles=ReleaseRoles(quasi_identifiers=["Age", "Gender"])
    )
    assert report.risk_after.quasi_identifiers == ("Gender",)


def test_release_check_is_written_into_the_report():
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    recipe = Recipe.from_yaml("quasi_identifiers: [Age, Gender]\nsteps: []\n")
    result = apply_recipe(taxi, recipe)
    check = check_release(
        taxi, result.data, steps=0, roles=ReleaseRoles(quasi_identifiers=["Age", "Gender"])
    )
    failed = build_report(taxi, result, recipe, release_check=check)
    assert failed.to_dict()["release_check"]["passed"] is False
    assert "Release check failed" in report_to_markdown(failed)
    assert "not released as anonymised" in report_to_markdown(failed)
    released = build_report(taxi, result, recipe, release_check=check.acknowledge())
    assert released.to_dict()["release_check"]["acknowledged"] is True
    assert NOT_ANONYMISED_MARK in report_to_markdown(released)
    assert build_report(taxi, result, recipe).to_dict()["release_check"] is None


def test_report_warns_when_a_group_reveals_its_sensitive_value():
    # The taxi table on Gender alone: two groups (6 women, 5 men). Occupation is different
    # for every record (l = 6 and 5); a made-up sensitive column equal within Gender gives l = 1.
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    taxi["Flag"] = taxi["Gender"].map({"Female": "a", "Male": "b"})
    recipe = Recipe.from_yaml("steps:\n  - {step: remove, columns: [Serial number]}\n")
    result = apply_recipe(taxi, recipe)
    flagged = build_report(
        taxi, result, recipe, roles=ReleaseRoles(quasi_identifiers=["Gender"], sensitive="Flag")
    )
    assert any(w.startswith("l-diversity = 1") for w in flagged.warnings)
    assert escape_markdown(flagged.warnings[0]) in report_to_markdown(flagged)
    diverse = build_report(
        taxi,
        result,
        recipe,
        roles=ReleaseRoles(quasi_identifiers=["Gender"], sensitive="Occupation"),
    )
    assert not any("l-diversity" in w for w in diverse.warnings)


def test_the_risk_table_has_a_row_for_each_model_no_other_row_shows():
    """The taxi table on Gender, Flag the sensitive column, 'a' for every woman and 'b' for
    every man (6 and 5 of 11): each group holds one value, so alpha = 1 (before and after),
    beta = (1 - 6/11) / (6/11) = 5/6 for the women, (1 - 5/11) / (5/11) = 6/5 for the men,
    and delta = max(ln(11/6), ln(11/5)) = ln 2.2 (worked by hand)."""
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    taxi["Flag"] = taxi["Gender"].map({"Female": "a", "Male": "b"})
    recipe = Recipe.from_yaml("steps:\n  - {step: remove, columns: [Serial number]}\n")
    result = apply_recipe(taxi, recipe)
    report = build_report(
        taxi, result, recipe, roles=ReleaseRoles(quasi_identifiers=["Gender"], sensitive="Flag")
    )
    rows = {  # figure -> (before, after), Markdown escapes taken out
        cells[1].strip(): [cell.strip().replace("\\", "") for cell in cells[2:4]]
        for cells in (line.split("|") for line in report_to_markdown(report).splitlines())
        if len(cells) > 4
    }
    assert rows["(α,k)-anonymity"] == ["1", "1"]
    assert rows["β-likeness"] == ["1.2", "1.2"]
    assert rows["δ-disclosure privacy"] == ["0.788", "0.788"]


def test_report_md_states_the_annex_d_scenario():
    """Issue 29: report.md gave the verdict but not the assumptions behind it. The guide's
    Scenario #1 table: medium controls, low motivation -> P(insider attack) = 0.2; with
    P(acquaintance) 0.1 and P(breach) 0.27 the breach drives: 0.27 / 5 = 0.054, against
    the threshold 0.1 for medium harm."""
    taxi = read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    recipe = Recipe.from_yaml("seed: 5\nquasi_identifiers: [Age, Gender]\nsteps: []\n")
    verdict = annex_d_risk(
        5, controls="medium", motivation="low", acquaintance=0.1, breach=0.27, harm="medium"
    )
    markdown = report_to_markdown(
        build_report(taxi, apply_recipe(taxi, recipe), recipe, annex_d=verdict)
    )
    scenario = markdown.split("Assumptions (the scenario):", 1)[1]
    for line in (
        "Scenario #1, deliberate insider attack: P = 0.2 (extent of mitigating controls: "
        "medium; attacker motivation and resources: low)",
        "Scenario #2, recognition by an acquaintance: P(recipient knows a person in the data) = 0.1",
        "Scenario #3, data breach: P(breach in the recipient's industry) = 0.27",
        "P(attempt) = the largest, 0.27 (data breach)",  # the name Risk shows it under
        "Threshold for the potential harm: 0.1",
    ):
        assert f"- {escape_markdown(line)}" in scenario, line
    # 1/k under its one name (issue 29: Risk and Report said "Max prosecutor risk" for the
    # figure Trade-offs and History call the highest record risk)
    rows = [line.split("|")[1].strip() for line in markdown.splitlines() if line.startswith("|")]
    assert escape_markdown(RECORD_RISK.name) in rows
    assert "Max prosecutor risk" not in markdown


def test_the_checklist_sets_the_extent_of_mitigating_controls():
    """All recommended controls in place: high; at least half: medium; some: low; none:
    none; synthetic data has no checklist (None)."""
    texts = [c.text for c in controls_for("external")]
    assert len(texts) >= 4
    half = len(texts) // 2 + len(texts) % 2  # at least half, rounded up
    assert controls_level("external", texts) == "high"
    assert controls_level("external", texts[:half]) == "medium"
    assert controls_level("external", texts[: half - 1]) == "low"
    assert controls_level("external", texts[:1]) == "low"
    assert controls_level("external", []) == "none"
    assert controls_level("external", ["not one of the guide's controls"]) == "none"
    assert controls_level("synthetic", []) is None
