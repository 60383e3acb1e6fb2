"""A name after a title that itself follows another cue, in notes typed without capitals
(issue 26): "grandmother mdm wong", "mr and mrs fernandez", "dr & mrs kowalski". The
first cue used to take the title as the start of the name, find no name there, and hide
the title from the search. Every sentence was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("called grandmother mdm wong re the bill", "wong"),
        ("mr and mrs fernandez - noise complaint", "fernandez"),
        ("dr & mrs kowalski, late again", "kowalski"),
        ("his wife mrs oyelaran - signed the form", "oyelaran"),
    ],
)
def test_the_name_after_the_second_cue_is_found(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "mr and mrs both signed",  # no name after the title
        "the mother and the father came",
    ],
)
def test_no_name_after_cues_alone(text: str) -> None:
    assert _names(text) == []
