"""Auto hierarchies by the kind Step 1 found (core/auto_hierarchy.py, issue 30): hand
examples of each rule, and the issue's "done when": on a table with dates of birth, postal
codes and addresses the optimum at k = 5 with at most 1% removed keeps the year of birth
and a masked postal code."""

from __future__ import annotations

import pandas as pd
import pytest

from core.auto_hierarchy import auto_hierarchy, auto_words, detected_kind
from core.errors import ParameterError
from core.hierarchy import build_hierarchy
from core.schema import suggest_roles
from core.search.run import search
from core.search.target import Target


def _row(h, value: str) -> list[str]:
    table = h.levels
    return table[table[0] == value].iloc[0].tolist()


def test_dates_of_birth_in_several_formats_go_day_month_year_decade():
    # Written by hand: the same kind of dates as ISO, day first (as Singapore writes
    # them, PDPC guide Step 1 Example 1) and with a month name.
    dob = pd.Series(["1985-03-12", "12/04/1990", "3 Mar 1971"], name="dob")
    h = auto_hierarchy(dob, "date_of_birth")
    assert _row(h, "1985-03-12") == ["1985-03-12", "1985-03", "1985", "1980s", "*"]
    assert _row(h, "12/04/1990") == ["12/04/1990", "1990-04", "1990", "1990s", "*"]
    assert _row(h, "3 Mar 1971") == ["3 Mar 1971", "1971-03", "1971", "1970s", "*"]
    assert auto_words(dob, "date_of_birth") == "day → month → year → decade → *"


def test_dates_already_generalised_to_years_fall_back_to_bands_or_groups():
    years = pd.Series(["1985", "1990", "1985"], name="dob")  # a recipe step made them years
    h = auto_hierarchy(years, "date_of_birth")
    assert "1985-01" not in set(h.levels[1])  # not read as 1 January
    assert h.levels.iloc[:, -1].eq("*").all()


def test_postal_codes_stored_as_numbers_are_masked_with_their_leading_zero():
    # 018956 read from a CSV as the number 18956: masked as the 6-digit code it is
    # (PDPC guide, Annex B: 117438 -> 11xxxx keeps the 2-digit sector).
    postal = pd.Series([560123, 18956, 117438], name="postal")
    h = auto_hierarchy(postal, "postal_code")
    assert _row(h, "117438") == ["117438", "11743*", "1174**", "117***", "11****", "1*****", "*"]
    assert _row(h, "18956")[1:] == ["01895*", "0189**", "018***", "01****", "0*****", "*"]
    # the old rule, by storage type alone, cut them into numeric bands
    assert "-" in build_hierarchy(postal).levels[1].iloc[0]


def test_identifiers_are_masked_from_the_right():
    ids = pd.Series(["S1234567D", "T7654321A"], name="nric")
    h = auto_hierarchy(ids, "nric")
    assert _row(h, "S1234567D")[1:4] == ["S1234567*", "S123456**", "S12345***"]
    assert h.height == 9


def test_addresses_drop_house_and_unit_then_keep_the_postal_sector():
    addresses = pd.Series(
        [
            "Blk 123 Ang Mo Kio Ave 3 #05-67 Singapore 560123",
            "45 Jalan Bukit Merah, S(150045)",
            "10 Anson Road #10-01 079903",
        ],
        name="addr",
    )
    h = auto_hierarchy(addresses, "address")
    assert _row(h, "Blk 123 Ang Mo Kio Ave 3 #05-67 Singapore 560123")[1:] == [
        "Ang Mo Kio Ave 3 (postal sector 56)",
        "postal sector 56",
        "*",
    ]
    assert _row(h, "45 Jalan Bukit Merah, S(150045)")[1] == "Jalan Bukit Merah (postal sector 15)"
    assert _row(h, "10 Anson Road #10-01 079903")[2] == "postal sector 07"
    no_postal = pd.Series(["221B Baker Street", "7 Baker Street Apt 4", "1 Main Road"])
    assert auto_hierarchy(no_postal, "address").levels[1].tolist() == [
        "Baker Street",
        "Baker Street",
        "Main Road",
    ]
    assert auto_words(no_postal, "address") == "house and unit dropped (street kept) → *"
    assert auto_words(addresses, "address").endswith("→ postal sector → *")


def test_categories_group_rare_values_as_others_by_frequency():
    # a: 40 records, b: 8, c: 3, d: 2, e: 1 (100 records; 5% = 5 records)
    values = pd.Series(["a"] * 40 + ["b"] * 8 + ["c"] * 3 + ["d"] * 2 + ["e"] + ["a"] * 46)
    h = auto_hierarchy(values, "category")
    assert _row(h, "a") == ["a", "a", "*"]
    assert _row(h, "b") == ["b", "b", "*"]
    assert _row(h, "c") == ["c", "Others", "*"]
    assert _row(h, "e") == ["e", "Others", "*"]
    no_rare = pd.Series(["M", "F"] * 10)
    assert auto_hierarchy(no_rare, "gender").height == 1  # nothing rare: straight to *
    with pytest.raises(ParameterError, match="no values"):
        auto_hierarchy(pd.Series([None, None], dtype=object, name="empty"), "category")


def test_numbers_keep_the_bands_of_before():
    ages = pd.Series([17, 39, 90], name="age")
    assert auto_hierarchy(ages, "age").levels.equals(build_hierarchy(ages).levels)


def test_auto_hierarchies_of_the_kinds_step1_found_keep_year_and_masked_postal_code(people):
    table = people
    kinds = {s.column: s.kind for s in suggest_roles(table)}
    assert kinds == {"dob": "date_of_birth", "postal": "postal_code", "addr": "address"}
    hierarchies = {column: auto_hierarchy(table[column], kinds[column]) for column in table}
    result = search(table, hierarchies, Target(k=5, max_suppressed=0.01), measure="arx_loss")
    best = result.optimum
    assert best is not None and best.k >= 5 and best.share_suppressed <= 0.01
    levels = {c: hierarchies[c].levels[best.levels[c]] for c in table}
    assert levels["dob"].str.fullmatch(r"\d{4}(-\d{2})?(-\d{2})?|\d{2}/\d{2}/\d{4}").all()
    assert best.levels["postal"] < hierarchies["postal"].height  # masked, not *
    assert levels["postal"].str.fullmatch(r"\d+\*+").all()
    # Without the kinds (storage type alone, the rule of before), dates of birth could only
    # be kept whole or removed: the optimum removes them.
    before = {c: build_hierarchy(table[c]) for c in table}
    old = search(table, before, Target(k=5, max_suppressed=0.01), measure="arx_loss").optimum
    assert old.levels["dob"] == before["dob"].height


def test_detected_kind_reads_the_column_alone(people):
    assert detected_kind(people["addr"].head(200)) == "address"


def test_a_hostile_address_of_many_spaces_is_read_in_linear_time():
    import time

    cell = "12" + " " * 200_000 + "x" + " " * 200_000 + "1"
    started = time.perf_counter()
    h = auto_hierarchy(pd.Series([cell, "7 Baker Street"], name="addr"), "address")
    assert time.perf_counter() - started < 5  # quadratic backtracking took minutes
    assert h.levels[1].tolist() == ["x 1", "Baker Street"]
