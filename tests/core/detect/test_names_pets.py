"""A pet's name in quotes is not a person's (issue 26, eval8 development: vet notes named
the animal in quotes beside its species or breed and its owner). The owner's name and a
person's nickname in quotes are still names. Sentences written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "owner"),
    [
        ('Vet visit: dog "Marco", owner Mrs Priya Raman, vaccines due.', "Priya Raman"),
        ('vet: "Rufus" (beagle x, 6y M/N), owner Daniel Okafor, limping.', "Daniel Okafor"),
        ('Clinic log - "Simba" (cat, 3y F), owner Mr Chen Wei Ming.', "Chen Wei Ming"),
        ('Boarding: puppy "Oscar", owner Aisha Rahman, picks up Sunday.', "Aisha Rahman"),
    ],
)
def test_a_pet_in_quotes_is_not_a_person_but_its_owner_is(text: str, owner: str) -> None:
    names = _names(text)
    assert owner in " ".join(names)
    pet = text.split('"')[1]
    assert pet not in names


def test_a_persons_nickname_in_quotes_is_still_a_name() -> None:
    assert "Ravi" in _names('Mr Ravichandran, known as "Ravi" at work, called today.')
