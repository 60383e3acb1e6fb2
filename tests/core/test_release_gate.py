"""The release gate (core/release/gate.py): what may leave the workbench as "anonymised"."""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ColumnNotFoundError
from core.release.gate import check_release, marked_name, missing_rule
from core.release.inputs import ReleaseRoles, RiskTargets, StreamedFacts
from core.release.words import NOT_ANONYMISED_MARK

ORIGINAL = pd.DataFrame(
    {
        "name": ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"],
        "age": [31, 32, 33, 41, 42, 43],
        "sex": ["F", "M", "F", "M", "F", "M"],
        "diagnosis": ["flu", "flu", "cold", "cold", "cold", "flu"],
    }
)
# age -> decade, name removed: classes {30s: 3 records, 40s: 3 records}, so k = 3 by hand.
RELEASED = ORIGINAL.drop(columns="name").assign(age=["30-39"] * 3 + ["40-49"] * 3)


def test_untouched_table_is_never_a_passing_release():
    check = check_release(
        ORIGINAL, ORIGINAL.copy(), steps=0, roles=ReleaseRoles(quasi_identifiers=["age"])
    )
    assert not check.passed
    assert any("original data" in problem for problem in check.problems)


def test_direct_identifier_left_in_blocks_release():
    released = RELEASED.assign(name=ORIGINAL["name"])
    check = check_release(
        ORIGINAL,
        released,
        steps=1,
        roles=ReleaseRoles(quasi_identifiers=["age"], direct_identifiers=["name"]),
    )
    assert not check.passed and "'name'" in check.problems[0]


def test_pseudonymised_direct_identifier_is_handled_but_a_partial_one_is_not():
    tokens = ["p1", "p2", "p3", "p4", "p5", "p6"]
    pseudonymised = RELEASED.assign(name=tokens)
    check = check_release(
        ORIGINAL,
        pseudonymised,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers=["age"], direct_identifiers=["name"]),
    )
    assert check.passed, check.problems
    partly = RELEASED.assign(name=tokens[:5] + ["Fay"])  # Fay's own name is left in clear
    check = check_release(
        ORIGINAL,
        partly,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers=["age"], direct_identifiers=["name"]),
    )
    assert check.kinds == ("direct_identifiers",) and "'name'" in check.problems[0]


def test_each_problem_has_a_kind():
    check = check_release(
        ORIGINAL,
        ORIGINAL.copy(),
        steps=0,
        roles_confirmed=False,
        roles=ReleaseRoles(quasi_identifiers=None, direct_identifiers=["name"]),
    )
    assert check.kinds == ("roles", "untouched", "direct_identifiers", "no_quasi_identifiers")
    assert len(check.kinds) == len(check.problems)


def test_generalised_table_passes_with_hand_computed_k():
    check = check_release(
        ORIGINAL,
        RELEASED,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers=["age"], direct_identifiers=["name"]),
        risk_targets=RiskTargets(k_target=3),
    )
    assert check.passed, check.problems
    assert check.k == 3


def test_k_below_target_and_annex_d_threshold_are_reported():
    # age + sex: 30s-F (2), 30s-M (1), 40s-M (2), 40s-F (1) -> k = 1 by hand.
    check = check_release(
        ORIGINAL,
        RELEASED,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers=["age", "sex"]),
        risk_targets=RiskTargets(
            k_target=2, annex_d={"controls": "low", "motivation": "medium", "harm": "medium"}
        ),
    )
    assert check.k == 1
    assert (
        len(check.problems) == 2
    )  # below k = 2, and P = 0.5 (low controls, medium motivation) / 1 > 0.1
    assert check.p_reid == pytest.approx(0.5)


def test_misspelt_quasi_identifier_is_refused_not_ignored():
    with pytest.raises(ColumnNotFoundError, match="agee"):
        check_release(ORIGINAL, RELEASED, steps=1, roles=ReleaseRoles(quasi_identifiers=["agee"]))


def test_l_target_uses_sensitive_values_per_class():
    # 30s: flu, flu, cold -> 2 distinct; 40s: cold, cold, flu -> 2 distinct; l = 2 by hand.
    check = check_release(
        ORIGINAL,
        RELEASED,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers=["age"], sensitive="diagnosis"),
        risk_targets=RiskTargets(l_target=3),
    )
    assert check.l_distinct == 2 and not check.passed


def test_acknowledged_release_is_releasable_and_says_so():
    check = check_release(
        ORIGINAL, ORIGINAL.copy(), steps=0, roles=ReleaseRoles(quasi_identifiers=["age"])
    )
    assert not check.releasable
    acknowledged = check.acknowledge()
    assert acknowledged.releasable and NOT_ANONYMISED_MARK in acknowledged.statement()


def test_marked_name_inserts_the_mark_once():
    assert marked_name("out/released.csv") == f"out/released.{NOT_ANONYMISED_MARK}.csv"
    assert marked_name(marked_name("released.csv")) == f"released.{NOT_ANONYMISED_MARK}.csv"
    assert marked_name("released") == f"released.{NOT_ANONYMISED_MARK}"


def test_a_single_quasi_identifier_given_as_text_is_one_column_not_its_letters():
    check = check_release(
        ORIGINAL,
        RELEASED,
        steps=2,
        roles=ReleaseRoles(quasi_identifiers="age"),
        risk_targets=RiskTargets(k_target=3),
    )
    assert check.quasi_identifiers == ("age",) and check.k == 3  # k = 3 by hand (see above)


def test_blank_cells_count_as_any_value_after_local_suppression():
    # (F, blank) matches both (F, 40) records: 3 records by hand; with a blank as a value of
    # its own it is alone (k = 1).
    original = pd.DataFrame({"sex": ["F", "F", "F", "M", "M"], "age": [40, 40, 50, 30, 30]})
    released = original.assign(age=[40, 40, None, 30, 30])
    steps = [{"step": "local_suppression", "quasi_identifiers": ["sex", "age"], "k": 2}]
    assert missing_rule(steps) == "sdcmicro" and missing_rule([{"step": "remove"}]) == "own_value"
    strict = check_release(
        original, released, steps=1, roles=ReleaseRoles(quasi_identifiers=["sex", "age"])
    )
    sdc = check_release(
        original,
        released,
        steps=1,
        missing="sdcmicro",
        roles=ReleaseRoles(quasi_identifiers=["sex", "age"]),
    )
    assert (strict.k, sdc.k) == (1, 2)  # (M, 30) x2 has no blank partner: k = 2
    assert "any value" in sdc.statement()


def test_a_frequency_table_gives_the_verdict_of_the_records():
    """A table too large for memory is judged on its frequency table (core.engines): the
    same k, l and t and the same problems as on the records themselves."""
    original = pd.DataFrame(
        {
            "age": [30, 30, 30, 40, 40, 50],
            "sex": list("FFMMMF"),
            "name": list("abcdef"),
            "dx": list("xyxxyz"),
        }
    )
    released = original.drop(columns="name").assign(age=lambda d: d["age"] // 20 * 20)
    options = dict(
        steps=2,
        roles=ReleaseRoles(
            quasi_identifiers=["age", "sex"], direct_identifiers=["name"], sensitive="dx"
        ),
        risk_targets=RiskTargets(k_target=3),
    )
    expected = check_release(original, released, **options)
    grouped = released.value_counts(sort=False).rename("n").reset_index()
    got = check_release(
        original.iloc[:0],
        grouped[["age", "sex", "dx"]],
        **options,
        streamed=StreamedFacts(counts=grouped["n"].to_numpy(), changed=True, identifiers_left=[]),
    )
    # ages 30, 30, 30, 40, 40, 50 become 20, 20, 20, 40, 40, 40: (20, M) and (40, F) alone
    assert got == expected and not got.passed and got.k == 1
    untouched = check_release(
        original.iloc[:0],
        grouped[["age", "sex", "dx"]],
        **options,
        streamed=StreamedFacts(
            counts=grouped["n"].to_numpy(), changed=False, identifiers_left=["name"]
        ),
    )
    assert set(untouched.kinds) >= {"untouched", "direct_identifiers"}
