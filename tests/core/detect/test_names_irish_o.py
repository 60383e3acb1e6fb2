"""Irish surnames written with the "O'" of Ó (grandson of): "O'Donoghue", "O’Halloran"
(issue 26). The lists hold the family name without it ("Donoghue") or joined
("ODonoghue"); the O' form is the same surname. Every sentence was written by hand for
this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Faith O'Donoghue rang today about the bill.", "Faith O'Donoghue"),
        ("Grace O’Halloran - complaint about the bins", "Grace O’Halloran"),
    ],
)
def test_a_given_name_and_an_o_surname_is_a_name(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


def test_an_o_word_alone_in_a_place_stays() -> None:
    assert _names("Tickets for the O'Zone Arena are sold out.") == []
