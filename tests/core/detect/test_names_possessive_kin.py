"""A given name before "'s" and a kinship word is a person, in any case and even when the
name is also an everyday word: "jasmine's mum called", "ruby's dad", "Hope's husband"
(a flower, a stone or a virtue has no mother). Issue 26, eval6 development misses
(lower-case first names alone); every sentence written by hand."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("fyi ruby's mum rang, she will be late", "ruby"),
        ("spoke to hazel's dad about the fees", "hazel"),
        ("olive’s husband collected the forms", "olive"),
        ("Note: Hope's brother is the next of kin", "Hope"),
    ],
)
def test_a_name_before_a_possessive_kinship_word(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "the school's mum and toddler group",  # no given name
        "mother's day card",
        "today's father figure talk",
    ],
)
def test_other_possessives_stay(text: str) -> None:
    assert _names(text) == [], _names(text)
