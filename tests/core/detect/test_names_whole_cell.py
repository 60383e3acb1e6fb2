"""A cell (a whole text) made of two to four capitalised words shaped like a name, one of
them no English word, is a name even when no list knows its words (issue 26: a full-name
column of Southern African, Nigerian or Kenyan names was found in 0.66 of its cells on
eval6, a development set). Every value was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    "cell", ["Kgomotso Mothibedi", "Nnamdi Okwuosa", "Chepkoech Kiplagat Sang"]
)
def test_a_cell_that_is_a_name(cell: str) -> None:
    assert _names(cell) == [cell], _names(cell)


@pytest.mark.parametrize(
    "cell",
    [
        "Heart Rate",  # English words
        "Kuala Lumpur",  # a place
        "Mothibedi Clinic",  # an organisation
        "Kgomotso Technician",  # a job title (core/detect/data/occupations.txt)
        "see Kgomotso Mothibedi below",  # not the whole text, and no cue
    ],
)
def test_other_cells_stay(cell: str) -> None:
    assert _names(cell) == [], _names(cell)
