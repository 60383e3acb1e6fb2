"""A nickname after "known as", "goes by" or "nicknamed" is a name, in lower case too
(issue 26, eval8 development: a nickname after "known as" was left). Sentences written
by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "nickname"),
    [
        ("Night shift roster; known as Kuttan at the depot.", "Kuttan"),
        ("staff list: goes by kumaresh on site, forklift licence.", "kumaresh"),
        ("Roster note: nicknamed kannan by the crew, night shift.", "kannan"),
    ],
)
def test_a_nickname_after_known_as_is_a_name(text: str, nickname: str) -> None:
    assert any(nickname in found for found in _names(text)), _names(text)


def test_known_as_before_an_everyday_word_is_no_name() -> None:
    assert _names("the area is known as the industrial belt") == []
