"""core.detect.text: the free-text scanner (counts per kind, overlaps, bad input)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.detect import entity_kinds, find_entities, resolve_kinds, scan_table
from core.errors import ParameterError


def test_scan_table_counts_cells_and_entities_per_kind():
    df = pd.DataFrame(
        {
            "notes": [
                "Call Tan Wei Ling on +65 9123 4567 or +65 8123 4567",  # 1 name, 2 phones
                "emailed a@example.org and b@example.org",  # 2 emails
                "nothing to report",
                None,
                "Seen on 2024-03-05 by Dr Lim",  # 1 date, 1 name
            ],
            "age": [1, 2, 3, 4, 5],  # numbers are not scanned by default
        }
    )
    table = scan_table(df).set_index("kind")
    assert set(table["column"]) == {"notes"}
    assert table.loc["phone", "entities"] == 2 and table.loc["phone", "cells"] == 1
    assert table.loc["email", "entities"] == 2 and table.loc["email", "cells"] == 1
    assert table.loc["name", "entities"] == 2 and table.loc["name", "cells"] == 2
    assert table.loc["date", "cells"] == 1
    assert table.loc["name", "share"] == 2 / 4  # of the 4 non-missing cells
    assert (table["long"] == 0).all()


def test_overlaps_keep_the_longer_entity():
    text = "Lives at 104 Clementi Avenue 2 #09-57 Singapore 806799."
    assert [(e.kind, e.text) for e in find_entities(text)] == [
        ("address", "104 Clementi Avenue 2 #09-57 Singapore 806799")
    ]


def test_bad_input_never_crashes():
    long_cell = "word " * 30_000 + "mail x@y.com"
    df = pd.DataFrame(
        {
            "long": [long_cell, "short"],
            "tamil": ["ராஜேஷ் குமார் வீட்டில்", "பிரியா"],
            "chinese": ["陈美玲来了", "病人很好"],
            "empty": [None, None],
        }
    )
    table = scan_table(df)
    long_rows = table[table["column"] == "long"].set_index("kind")
    assert long_rows.loc["email", "cells"] == 1 and long_rows.loc["email", "long"] == 1
    assert table[table["column"].isin(["tamil", "chinese", "empty"])].empty
    assert find_entities(None) == [] and find_entities("") == []


def test_kinds_and_labels():
    assert resolve_kinds("id") == (
        *("nric", "ssn", "nino"),
        *("aadhaar", "nhs", "mykad", "nik", "psn", "tfn", "medicare", "hkid", "ird", "dni", "nir"),
        *("za_id", "th_id", "emirates", "ppsn", "sin", "lk_nic", "cccd", "cnic", "ghana_card"),
        "bd_nid",
        "record_code",
    )
    assert resolve_kinds(["ip", "email"]) == ("email", "ipv4", "ipv6")
    assert entity_kinds()[-1] == "name"
    with pytest.raises(ParameterError, match="unknown kind"):
        resolve_kinds(["face"])
    # Words that name a record but hold no number are not record codes.
    assert find_entities("see the ref letter and the account of events", kinds="id") == []


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        # Characters the detectors care about, so phones, dates and names get exercised.
        st.text(alphabet="0123456789 +-()./:@#SsTtMr DrLimTanbin", max_size=120),
    )
)
def test_any_text_gives_ordered_non_overlapping_spans(text):
    found = find_entities(text)
    for entity in found:
        assert 0 <= entity.start < entity.end <= len(text)
        assert text[entity.start : entity.end] == entity.text
    assert all(a.end <= b.start for a, b in zip(found, found[1:], strict=False))
