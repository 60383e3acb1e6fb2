"""core.text_rescan: the rescan of redacted free text and the review record (issue 25)."""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ParameterError
from core.text_rescan import check_review, rescan, review_shortfall, scrub


def test_the_counters_find_what_the_issue_found_left_after_redaction():
    notes = pd.Series(
        [
            "ms [NAME]3456789a called",  # 7 digits glued to a label: a digit run
            "Blk 7 Toa Payoh Lor 1 #02-33 [ADDRESS]",  # block and unit numbers
            "tan ah kow called",  # a lower-case name: family name + name word in a row
            "seen in 2019, all well",  # a year (4 digits) and no name: nothing
            None,
        ]
    )
    found = rescan(notes)
    assert found["digit_run"] == 1 and found["address_part"] == 1 and found["name_word"] == 1


def test_scrub_leaves_nothing_for_the_counters_and_keeps_other_cells():
    notes = pd.Series(["ms [NAME]3456789a", "tan ah kow called", "seen in 2019, all well"])
    scrubbed = scrub(notes)
    # the NRIC's check letter glued to the label goes too (the rest of a cut word)
    assert scrubbed.tolist() == [
        "ms [NAME][NUMBER]",
        "[NAME] [NAME] [NAME] called",
        "seen in 2019, all well",
    ]
    assert not {"digit_run", "address_part", "name_word"} & set(rescan(scrubbed))


def test_a_review_names_who_when_and_how_many():
    review = check_review("notes", {"by": " A. Tan ", "at": "2026-11-27", "rows_checked": 3})
    assert review == {"by": "A. Tan", "at": "2026-11-27", "rows_checked": 3}
    assert review_shortfall(review, cells=100) == 17  # 20 must be read
    assert review_shortfall(review, cells=3) == 0  # all of them, when fewer
    with pytest.raises(ParameterError, match="'by' must name the person"):
        check_review("notes", {"by": "", "at": "2026-11-27", "rows_checked": 3})
    with pytest.raises(ParameterError, match="does not take 'extra'"):
        check_review("notes", {"by": "A", "at": "2026-11-27", "rows_checked": 3, "extra": 1})
