"""Vietnamese names are written with letters beyond Latin Extended-A: ơ, ư (Latin
Extended-B) and the stacked tone marks of Latin Extended Additional (ạ, ễ, ồ, ứ...).
A name token stopped at such a letter, so a name was cut ("Nguy" of a surname) or
missed, and the stub of a street or district word was taken for a name (issue 26,
eval8 development). The sentences were written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Seen by Dr Trần Thị Hương at the clinic.", "Trần Thị Hương"),
        ("Spoke to Nguyễn Đức Thắng, son of the patient.", "Nguyễn Đức Thắng"),
        ("Called Mr Phạm Quốc Bảo about the bill.", "Phạm Quốc Bảo"),
    ],
)
def test_a_vietnamese_name_is_found_whole(text: str, name: str) -> None:
    assert name in _names(text)


def test_no_name_is_a_stub_of_a_word() -> None:
    text = "Called Phạm Quốc Bảo about the bill."
    for found in _names(text):
        end = text.index(found) + len(found)
        assert not text[end : end + 1].isalpha(), found


def test_a_vietnamese_city_is_a_place_not_a_name() -> None:
    # "Đ" has no decomposition: folded by hand to the gazetteer's "da nang".
    assert _names("The parcel was sent from Đà Nẵng on Monday.") == []


def test_a_vietnamese_city_written_in_syllables_is_a_place() -> None:
    # the gazetteer writes "hanoi" as one word; Vietnamese writes "Hà Nội"
    assert _names("The parcel was sent from Hà Nội on Friday.") == []
    assert "Hà Văn Nam" in _names("Parcel for Mr Hà Văn Nam, sent on Friday.")
