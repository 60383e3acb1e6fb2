"""The release check sees what a re-identifier sees (issue 25, items 1-4).

Each case ran through ``apply`` and printed "Release check passed" before; each must now
be refused with a message that says what would pass. The table is written here (lower-case
names, NRICs written with spaces), not made by the detectors' own sample generator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from core import cli
from core.errors import ParameterError, RecipeError
from core.recipe import Recipe, apply_recipe
from core.release.gate import check_release
from core.release.inputs import ReleaseDecisions, ReleaseRoles
from core.schema import suggest_roles


def _nric(prefix: str, digits: str) -> str:
    """An NRIC with its check letter (the published weights 2,7,6,5,4,3,2; +4 for T)."""
    total = sum(int(d) * w for d, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += 4 if prefix == "T" else 0
    return f"{prefix}{digits}{'JZIHGFEDCBA'[total % 11]}"


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
    "Wong Kai Xiang",
    "Siti Nurhaliza binte Osman",
    "Rajesh s/o Kumar",
    "Nur Aisyah",
    "Chen Jia Hui",
    "Muthu Raman",
    "Ho Li Ting",
    "Ang Chee Keong",
    "Low Mei Yee",
    "Toh Kian Seng",
]
DIGITS = [f"{1234567 + 1111 * i:07d}" for i in range(20)]
NRICS = [_nric("S" if i % 2 else "T", d) for i, d in enumerate(DIGITS)]
NRICS = [f"{n[0]} {n[1:8]} {n[8]}" if i % 3 == 0 else n for i, n in enumerate(NRICS)]
NOTES = [
    f"{name} called about the bill, nric {nric}, said ms [NAME]{digits[1:]}a will come back"
    for name, nric, digits in zip(NAMES, NRICS, DIGITS, strict=True)
]
TABLE = pd.DataFrame(
    {
        "name": NAMES,
        "nric": NRICS,
        # ages 21..40 and 51..70 in pairs by sex: generalised to width 50, each (band, sex)
        # holds 5 records or more (hand count below)
        "age": [21 + i for i in range(10)] + [51 + i for i in range(10)],
        "sex": ["F", "M"] * 10,
        "postal": [f"{310000 + 37 * i:06d}" for i in range(20)],  # unique for every record
        "notes": NOTES,
        "salary": ["low"] * 10 + ["high"] * 10,
    }
)
# age width 50 gives bands 0-49 (first 10 records) and 50-99 (last 10); with sex, each band
# splits 5 F + 5 M: k = 5 by hand.
BASE = (
    "seed: 14\nquasi_identifiers: [age, sex]\nk: 5\n"
    "direct_identifiers: [name, nric, notes]\n"
    "not_quasi_identifiers: {salary: the outcome studied and known to no outsider}\n"
)
AGE = "  - {step: generalise, column: age, width: 50}\n"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "people.csv"
    TABLE.to_csv(path, index=False)
    return path


def _apply(data: Path, recipe_text: str, *extra: str) -> int:
    recipe = data.parent / "recipe.yaml"
    recipe.write_text(recipe_text, encoding="utf-8")
    out = data.parent / "out.csv"
    for old in data.parent.glob("out.csv*"):  # the earlier run's table and mapping table
        old.unlink()
    return cli.main(
        [
            "apply",
            str(data),
            "--recipe",
            str(recipe),
            "--out",
            str(out),
            "--plaintext-mapping",
            *extra,
        ]
    )


def _refusal(capsys) -> str:
    return capsys.readouterr().err


REMOVED = "  - {step: remove, columns: [notes, postal]}\n"


def test_the_table_passes_once_identifiers_are_removed(data, capsys):
    # the control: everything removed, ages banded, k = 5 by hand (see TABLE)
    code = _apply(
        data,
        BASE + "steps:\n  - {step: remove, columns: [name, nric, notes, postal]}\n" + AGE,
        "--report",
        str(data.parent / "r.json"),
    )
    assert code == 0, _refusal(capsys)
    check = json.loads((data.parent / "r.json").read_text())["release_check"]
    assert check["passed"] and check["k"] == 5


# --- item 1: kept direct identifiers judged by what they still reveal -------------------


def test_masked_identifiers_that_keep_most_of_each_value_are_refused(data, capsys):
    recipe = (
        BASE
        + "steps:\n"
        + REMOVED
        + AGE
        + "  - {step: mask, column: nric, keep_last: 8}\n"
        + "  - {step: mask, column: name, keep_first: 7}\n"
    )
    assert _apply(data, recipe) == 2
    err = _refusal(capsys)
    assert "Column 'nric', a direct identifier, is masked" in err
    assert "Column 'name', a direct identifier, is masked" in err
    # what would pass: keep at most 3 characters in a row (an NRIC: 5 of its 7 digits)
    assert "mask more: keep at most 3 characters in a row" in err
    assert "mask at least 5 of the 7 digits" in err
    assert not (data.parent / "out.csv").exists()


def test_a_mask_that_keeps_three_characters_passes_the_run_rule_but_must_reach_k(data, capsys):
    # keep_first 1 + keep_last 3 masks 5 of the 7 digits ("S*****67D"): no 4-character run
    # of an original is left, but the 20 masked values are still 20 different ones, so with
    # nric counted as a quasi-identifier every record is alone (k = 1 by hand).
    recipe = (
        BASE.replace("[name, nric, notes]", "[nric]")
        + "steps:\n"
        + "  - {step: remove, columns: [name, notes, postal]}\n"
        + AGE
        + "  - {step: mask, column: nric, keep_first: 1, keep_last: 3}\n"
    )
    assert _apply(data, recipe) == 2
    err = _refusal(capsys)
    assert "is masked but" not in err  # the run rule is met
    assert "k = 1 with the kept direct identifier(s) 'nric' counted as quasi-identifiers" in err


def test_swapped_names_and_nrics_are_refused(data, capsys):
    recipe = BASE + "steps:\n" + REMOVED + AGE + "  - {step: swap, columns: [name, nric]}\n"
    assert _apply(data, recipe) == 2
    err = _refusal(capsys)
    assert "Column 'name', a direct identifier, is swapped" in err
    assert "Column 'nric', a direct identifier, is swapped" in err
    assert "remove or pseudonymise the column" in err


def test_rounded_phone_numbers_keep_their_first_digits_and_are_refused():
    phones = pd.DataFrame(
        {"phone": [91234567 + 10_007 * i for i in range(12)], "sex": ["F", "M"] * 6}
    )
    recipe = Recipe(({"step": "round", "column": "phone", "base": 100},))
    released = apply_recipe(phones, recipe).data  # 91234567 -> 91234600: keeps "912346"
    check = check_release(
        phones,
        released,
        steps=1,
        roles=ReleaseRoles(quasi_identifiers=["sex"], direct_identifiers=["phone"]),
        decisions=ReleaseDecisions(recipe_steps=recipe.steps),
    )
    assert check.kinds[0] == "direct_identifiers" and "is rounded" in check.problems[0]


def test_pseudonyms_are_handled_and_a_second_pseudonymisation_must_lead_back(data, capsys):
    once = (
        BASE.replace("[name, nric, notes]", "[name, nric]")
        + "steps:\n"
        + REMOVED
        + AGE
        + "  - {step: remove, columns: [name]}\n"
        + "  - {step: pseudonymise, column: nric, method: random, digits: 7}\n"
    )
    assert _apply(data, once) == 0, _refusal(capsys)
    # the recipe chains a second pseudonymisation's table back to the people (issue 27)
    twice = once + "  - {step: pseudonymise, column: nric, method: random, digits: 8}\n"
    assert _apply(data, twice) == 0, _refusal(capsys)
    # a mapping table that leads only to the first pseudonyms is refused by the gate
    steps = ({"step": "pseudonymise", "column": "nric"},) * 2
    released = TABLE[["age", "sex"]].assign(nric=[f"{i:08d}" for i in range(20)])
    lost = {
        "nric": pd.DataFrame(
            {"pseudonym": released["nric"], "nric": [f"{i:07d}" for i in range(20)]}
        )
    }
    check = check_release(
        TABLE[["nric", "age", "sex"]],
        released,
        steps=2,
        mappings=lost,
        roles=ReleaseRoles(quasi_identifiers=["sex"], direct_identifiers=["nric"]),
        decisions=ReleaseDecisions(recipe_steps=steps),
    )
    assert "pseudonymised 2 times" in check.problems[0]


# --- item 2: free text rescanned, and a person signs for it ----------------------------

FREE_TEXT = BASE + "steps:\n  - {step: remove, columns: [name, nric, postal]}\n" + AGE


def test_redacted_free_text_is_rescanned_and_what_is_left_refuses_the_release(data, capsys):
    assert _apply(data, FREE_TEXT + "  - {step: redact_text, columns: [notes]}\n") == 2
    err = _refusal(capsys)
    # lower-case names, spaced NRICs and "[NAME]3456789a" are still in the text
    assert "a rescan of free-text column 'notes' still finds" in err
    assert "run of 5 or more digits" in err and "name-like word" in err
    assert "redact again with residue: true" in err
    assert "No one has recorded reading the redacted free-text column 'notes'" in err


def test_free_text_released_as_it_is_is_refused(data, capsys):
    assert _apply(data, FREE_TEXT) == 2
    assert "Free-text column 'notes'" in _refusal(capsys)


def test_a_clean_rescan_and_a_signed_review_release_the_redacted_column(data, capsys):
    step = "  - {step: redact_text, columns: [notes], residue: true}\n"
    assert _apply(data, FREE_TEXT + step) == 2  # clean now, but nobody has read it
    err = _refusal(capsys)
    assert "still finds" not in err and "No one has recorded reading" in err
    few = "reviewed_text: {notes: {by: A. Reviewer, at: 2026-11-27, rows_checked: 3}}\n"
    assert _apply(data, few + FREE_TEXT + step) == 2
    assert "read at least 20" in _refusal(capsys)  # the table has 20 notes: all of them
    review = "reviewed_text: {notes: {by: A. Reviewer, at: 2026-11-27, rows_checked: 20}}\n"
    report = data.parent / "r.json"
    assert _apply(data, review + FREE_TEXT + step, "--report", str(report)) == 0, _refusal(capsys)
    check = json.loads(report.read_text())["release_check"]
    assert check["reviews"] == {
        "notes": {"by": "A. Reviewer", "at": "2026-11-27", "rows_checked": 20}
    }
    released = pd.read_csv(data.parent / "out.csv")["notes"]
    for name in NAMES[:10]:  # the lower-case names are gone from every note
        assert not released.str.contains(name.split()[0] + " ").any()


def test_a_review_record_with_a_bad_field_is_refused_in_one_line():
    with pytest.raises(RecipeError, match="'rows_checked' must be the number of cells read"):
        Recipe.from_yaml("reviewed_text: {notes: {by: A, at: 2026-11-27, rows_checked: -1}}\n")
    with pytest.raises(RecipeError, match="'at' must be the date"):
        Recipe.from_yaml("reviewed_text: {notes: {by: A, at: yesterday, rows_checked: 5}}\n")


# --- item 3: Step 1's doubts stop the release --------------------------------------------


def test_an_unlisted_near_unique_quasi_identifier_stops_the_release(data, capsys):
    recipe = BASE + "steps:\n  - {step: remove, columns: [name, nric, notes]}\n" + AGE
    assert _apply(data, recipe) == 2
    err = _refusal(capsys)
    assert "Step 1 doubts column(s) 'postal'" in err and "not_quasi_identifiers" in err
    # counted as a quasi-identifier, postal (unique for everyone) gives k = 1 by hand
    listed = recipe.replace("[age, sex]", "[age, sex, postal]")
    assert _apply(data, listed) == 2
    assert "k = 1 is below the target k = 5" in _refusal(capsys)
    # a recorded decision lets it pass, and the report carries the reason
    decided = recipe.replace("{salary: ", "{postal: published by no one, salary: ")
    report = data.parent / "r.json"
    assert _apply(data, decided, "--report", str(report)) == 0, _refusal(capsys)
    check = json.loads(report.read_text())["release_check"]
    assert check["decisions"]["postal"] == "published by no one"


def test_without_direct_identifiers_in_the_recipe_lower_case_names_and_spaced_nrics_are_caught(
    data, capsys
):
    recipe = (
        BASE.replace("direct_identifiers: [name, nric, notes]\n", "")
        + "steps:\n  - {step: remove, columns: [notes, postal]}\n"
        + AGE
    )
    assert _apply(data, recipe) == 2
    err = _refusal(capsys)
    assert "'name'" in err and "'nric'" in err


def test_a_decision_needs_a_reason():
    with pytest.raises(RecipeError, match="'not_quasi_identifiers' must map each column"):
        Recipe.from_yaml("not_quasi_identifiers: {postal: ''}\n")
    with pytest.raises(ParameterError, match="reason why column 'postal'"):
        check_release(
            TABLE,
            TABLE.iloc[:0],
            steps=1,
            roles=ReleaseRoles(quasi_identifiers=["age"]),
            decisions=ReleaseDecisions(not_quasi_identifiers={"postal": "  "}),
        )


# --- item 4: every privacy model can be a release target --------------------------------

# Released: age band x sex, 4 classes of 5; salary is "low" in the first band, "high" in the
# second: each class holds one salary value (distinct l = 1, by hand).
TARGETS = (
    BASE.replace(
        "not_quasi_identifiers: {salary: the outcome studied and known to no outsider}\n",
        "sensitive: salary\n",
    )
    + "steps:\n  - {step: remove, columns: [name, nric, notes, postal]}\n"
    + AGE
)


@pytest.mark.parametrize(
    "target, words",
    [
        ("l_diversity: {sensitive: salary, l: 2}", "distinct l-diversity l = 2"),
        ("l_diversity: {sensitive: salary, l: 2, kind: entropy}", "entropy l-diversity l = 2"),
        (
            "l_diversity: {sensitive: salary, l: 2, kind: recursive, c: 3}",
            "recursive (c,l)-diversity c = 3, l = 2",
        ),
        # one value per class: share 1 against 1/2 in the table, EMD = 0.5 > 0.2 (by hand)
        ("t_closeness: {sensitive: salary, t: 0.2}", "t-closeness t = 0.2"),
        # |ln(1 / 0.5)| = 0.69 >= 0.5
        ("delta_disclosure: {sensitive: salary, delta: 0.5}", "delta-disclosure privacy"),
        # (1 - 0.5) / 0.5 = 1 > 0.5
        ("beta_likeness: {sensitive: salary, beta: 0.5}", "basic beta-likeness beta = 0.5"),
        ("alpha_k: {sensitive: salary, alpha: 0.8}", "(alpha,k)-anonymity alpha = 0.8"),
    ],
)
def test_each_privacy_model_target_refuses_a_table_whose_groups_reveal_the_salary(
    data, capsys, target, words
):
    assert _apply(data, TARGETS.replace("steps:", f"targets: {{{target}}}\nsteps:")) == 2
    err = _refusal(capsys)
    assert f"Target {words}" in err and "20 records in 4 group(s) fail it" in err


def test_k_map_target_uses_the_population_estimate(data, capsys):
    # 20 records of a population of 1,000,000: classes of 5 are far below k = 5 in the
    # population only when the estimate says so; with k = 1 every class passes.
    ok = TARGETS.replace("steps:", "targets: {k_map: {k: 1, population: 1000000}}\nsteps:")
    assert _apply(data, ok) == 0, _refusal(capsys)


def test_a_met_target_passes_and_is_reported(data, capsys):
    recipe = TARGETS.replace("steps:", "targets: {alpha_k: {sensitive: salary, alpha: 1}}\nsteps:")
    report = data.parent / "r.json"
    assert _apply(data, recipe, "--report", str(report)) == 0, _refusal(capsys)
    check = json.loads(report.read_text())["release_check"]
    assert check["targets"] == [
        {
            "model": "alpha_k",
            "failing_records": 0,
            "requirement": "(alpha,k)-anonymity alpha = 1 on 'salary'",
        }
    ]


@pytest.mark.parametrize(
    "targets, message",
    [
        ("{l_diversity: {sensitive: salary}}", "needs 'l'"),
        ("{t_closeness: {sensitive: salary, t: 2}}", "'t'"),
        ("{gamma: {sensitive: salary}}", "Unknown target 'gamma'"),
        ("{k_map: {k: 5}}", "Target 'k_map' must be a mapping with 'k' and 'population'"),
        ("[l_diversity]", "'targets' must be a mapping"),
    ],
)
def test_bad_targets_are_refused_in_one_line(targets, message):
    with pytest.raises(RecipeError, match="^The recipe's ") as error:
        Recipe.from_yaml(f"targets: {targets}\n")
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_target_is_judged_on_a_release_streamed_by_an_engine(data, capsys):
    pytest.importorskip("duckdb")
    # the recipe names no sensitive column: the target's own column is counted as it streams
    recipe = TARGETS.replace("sensitive: salary\n", "").replace(
        "steps:", "targets: {alpha_k: {sensitive: salary, alpha: 0.8}}\nsteps:"
    )
    assert _apply(data, recipe, "--engine", "duckdb") == 2
    assert "20 records in 4 group(s) fail it" in _refusal(capsys)


def test_unsure_text_is_named_and_a_code_is_judged_when_the_recipe_lists_its_own_identifiers():
    # 40 records: 'remark' has 28 distinct short texts (70%: neither a category nor
    # near-unique, so Step 1 is unsure), 'ref' a different code for every record
    words = [f"w{i}x" for i in range(28)]
    table = pd.DataFrame(
        {
            "name": [f"person {i}" for i in range(40)],
            "remark": [
                f"note {words[i % 28]} {'ab'[i % 2]}" if i < 28 else f"note {words[i - 28]} a"
                for i in range(40)
            ],
            "ref": [f"QX{i * 7919 % 100000:05d}Z{i}" for i in range(40)],
            "sex": ["F", "M"] * 20,
        }
    )
    released = table.drop(columns="name")
    check = check_release(
        table,
        released,
        steps=1,
        roles=ReleaseRoles(quasi_identifiers=["sex"], direct_identifiers=["name"]),
        decisions=ReleaseDecisions(suggestions=suggest_roles(table)),
    )
    [doubts] = [
        p for p, kind in zip(check.problems, check.kinds, strict=True) if kind == "undecided"
    ]
    assert "'remark' (Step 1 is unsure what this text holds)" in doubts
    assert check.undecided == ("remark",)
    # a code Step 1 is sure identifies a record is judged as a direct identifier, though
    # the recipe lists only 'name' ("classified or declared", core.release.gate)
    left = [
        p
        for p, kind in zip(check.problems, check.kinds, strict=True)
        if kind == "direct_identifiers"
    ]
    assert any("'ref'" in p for p in left)
