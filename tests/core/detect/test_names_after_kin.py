"""A capitalised given name that is also an everyday word, alone after a kinship word
("dtr Grace", "son Will", "wife Joy"), is the relative's name; after a verb of reaching
someone ("call May") it stays an everyday word, as after a role ("patient Stable"). A
sure lower-case name after "user" (an IT ticket's user) is a name. Issue 26, eval6
development misses; every sentence written by hand."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("dtr Grace will pick her up at 5", "Grace"),
        ("his son Will phones most evenings", "Will"),
        ("wife Joy present during the review", "Joy"),
        ("ticket 4471: user tham cannot reset the password", "tham"),
    ],
)
def test_a_name_after_a_kinship_word(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "please call May or June for a slot",  # months after a verb of reaching
        "patient Stable overnight, obs normal",  # a role, then an everyday word
        "user guide attached",
    ],
)
def test_everyday_words_after_other_cues_stay(text: str) -> None:
    assert _names(text) == [], _names(text)
