"""core.kept_identifiers: what a kept direct identifier still shows (issue 25, item 1)."""

from __future__ import annotations

import pandas as pd

from core.kept_identifiers import identifying_runs, normalised, treatment


def test_values_compare_without_case_spacing_or_punctuation():
    values = pd.Series(["S 1234567 D", "Tan Ah-Kow", "9123-4567", None])
    assert normalised(values).tolist()[:3] == ["s1234567d", "tanahkow", "91234567"]


def test_runs_of_four_characters_of_a_rare_value_are_counted_by_hand():
    # S1234567D is held by 2 records (not rare for k = 2), T7654321A by 1 (rare).
    original = pd.Series(["S1234567D", "S1234567D", "T7654321A"])
    released = pd.Series([
        "x7654xxxx",  # "7654" is a run of T7654321A: leaks
        "S1234567D",  # equal, but to a value 2 records share: not counted
        "xxxxx321A",  # "321a" (4 characters) is a run of T7654321A: leaks
        "xxxxxx21A",  # "21a" is only 3 characters: does not
    ])  # fmt: skip
    leak = identifying_runs(original, released, k=2)
    assert (leak.records, leak.equal, leak.rare_values) == (2, 0, 1)
    # a swap: the released values are the originals, moved
    swapped = identifying_runs(original, original[::-1].reset_index(drop=True), k=2)
    assert (swapped.records, swapped.equal) == (1, 1)


def test_treatment_reads_the_steps_that_touch_a_column():
    steps = [
        {"step": "mask", "column": "nric", "keep_last": 4},
        {"step": "swap", "columns": ["nric", "name"]},
        {"step": "pseudonymise", "column": "name"},
        {"step": "remove", "columns": ["email"]},
    ]
    nric, name, email = (treatment(steps, c) for c in ("nric", "name", "email"))
    assert nric.forms == ("mask", "swap") and not nric.pseudonymised and not nric.removed
    assert name.pseudonymisations == 1 and name.forms == ("swap",)
    assert email.removed and not email.forms
