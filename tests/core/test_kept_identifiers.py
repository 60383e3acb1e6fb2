"""core.release.kept_identifiers: what a kept direct identifier still shows (issue 25, item 1)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from core.release.kept_identifiers import identifying_runs, normalised, treatment


def test_values_compare_without_case_spacing_or_punctuation():
    values = pd.Series(["S 1234567 D", "Tan Ah-Kow", "9123-4567", None])
    assert normalised(values).tolist()[:3] == ["s1234567d", "tanahkow", "91234567"]


def test_runs_of_four_characters_of_a_rare_value_are_counted_by_hand():
    # S1234567D is held by 2 records (not rare for k = 2), T7654321A by 1 (rare).
    original = pd.Series(["S1234567D", "S1234567D", "T7654321A"])
    released = pd.Series(
        [
            "x7654xxxx",  # "7654" is a run of T7654321A: leaks
            "S1234567D",  # equal, but to a value 2 records share: not counted
            "xxxxx321A",  # "321a" (4 characters) is a run of T7654321A: leaks
            "xxxxxx21A",  # "21a" is only 3 characters: does not
        ]
    )
    leak = identifying_runs(original, released, k=2)
    assert (leak.records, leak.equal, leak.rare_values) == (2, 0, 1)
    # a swap: the released values are the originals, moved
    swapped = identifying_runs(original, original[::-1].reset_index(drop=True), k=2)
    assert (swapped.records, swapped.equal) == (1, 1)


def test_a_run_that_k_records_share_identifies_nobody():
    # 40 people, unique e-mails on one domain, generalised to the domain (red team: the
    # domain's runs were counted as runs of each rare e-mail, and the release refused).
    original = pd.Series([f"person{i:02d}@mail.example.org" for i in range(40)])
    domain_only = pd.Series(["mail.example.org"] * 40)
    assert identifying_runs(original, domain_only, k=5).records == 0
    # a local part kept is still one person's: "person07" holds runs only one record has
    partial = pd.Series(["person07@***"] + ["***@***"] * 39)
    assert identifying_runs(original, partial, k=5).records == 1
    # "son0" is held by person00..person09, 10 records: it identifies nobody at k = 5,
    # and at k = 11 it is a run fewer than k records hold
    shared_four = pd.Series(["son0"] * 40)
    assert identifying_runs(original, shared_four, k=5).records == 0
    assert identifying_runs(original, shared_four, k=11).records == 40


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


def _leaks_by_brute_force(original: list[str], released: list[str], k: int) -> int:
    """Records that equal a rare original value or hold 4 characters in a row that fewer
    than k records' original values contain, by comparing every released value with every
    original one (an independent method)."""
    rare = [v for v in set(original) if original.count(v) < k]
    every_run = {v[i : i + 4] for v in original for i in range(len(v) - 3)}
    runs = {r for r in every_run if sum(r in v for v in original) < k}
    return sum(v in rare or any(v[i : i + 4] in runs for i in range(len(v) - 3)) for v in released)


def test_runs_agree_with_a_brute_force_comparison_on_random_text():
    # letters that formatting does not remove, a character beyond the 16-bit plane, short
    # and empty values: the packed keys must not confuse any two runs
    rng = np.random.default_rng(27)
    alphabet = np.array(list("ab1\U0001f600"))

    def draw(n: int) -> list[str]:
        return ["".join(rng.choice(alphabet, rng.integers(0, 9))) for _ in range(n)]

    for _ in range(30):
        original, released = draw(40), draw(40)
        expected = _leaks_by_brute_force(original, released, k=2)
        leak = identifying_runs(
            pd.Series(original, dtype=object), pd.Series(released, dtype=object), k=2
        )
        assert leak.records == expected


def test_a_million_character_value_is_compared_in_linear_time():
    # issue 27 (red team): the runs were read one character position at a time, with two
    # pandas operations per position: a value of a million characters in a kept NRIC
    # column took about half an hour (20,000 characters: 29 s).
    letters = "".join(chr(0x4E00 + i % 20_000) for i in range(1_000_000))
    original = pd.Series(["S1234567D"] * 5 + [letters])
    released = pd.Series(["S****567D"] * 5 + ["x" * 999_990 + letters[500_000:500_004]])
    started = time.perf_counter()
    leak = identifying_runs(original, released, k=5)
    assert time.perf_counter() - started < 10
    # the last value holds 4 characters of the rare million-character value, nothing else does
    assert (leak.records, leak.equal, leak.rare_values) == (1, 0, 1)
