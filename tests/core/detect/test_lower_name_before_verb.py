"""A lower-case given or family name alone, before a verb only people do, in notes typed
without capitals (issue 26): "priya says she", "the tenant ahmad denies it", "jun wei
agreed". The capitalised form was already a name ("Kuldeep says"). Every sentence was
written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("priya says she will pay on friday", "priya"),
        ("when asked, siobhan denies taking the keys", "siobhan"),
        ("follow up: rahul refused the flu jab", "rahul"),
    ],
)
def test_a_lower_case_name_before_a_person_verb_is_a_name(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "the report says it was late",  # no name
        "the bank agreed to wait",  # no name
        "the mark says nothing of it",  # "mark": also an everyday word
    ],
)
def test_other_words_before_those_verbs_stay(text: str) -> None:
    assert _names(text) == [], _names(text)
