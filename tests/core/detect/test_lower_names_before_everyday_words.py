"""Two sure lower-case names side by side are a name ("lim boon huat"); when everyday
words that the census lists also hold as rare surnames ("fought", "over", "lunch")
followed them in the same run, the run was too long to be a name and the names were
left (issue 26, eval8 development). The everyday words at the ends of such a run are
now set aside and the names read again. Sentences written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("class log: farhan tariq fought over lunch again", "farhan tariq"),
        ("recess note: nadia qureshi fought over lunch again", "nadia qureshi"),
    ],
)
def test_two_sure_names_before_everyday_words_are_found(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


def test_a_run_of_everyday_words_is_still_no_name() -> None:
    assert _names("class log: they fought over lunch again") == []
