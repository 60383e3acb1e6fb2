"""Titles of other languages make the next words a name, as "Mr" does (issue 26, eval8
development): Sesotho and Setswana "Ntate" (Mr), Thai "Khun" (Mr, Ms: before a given
name), Hindi "Shri", "Smt" and "Shrimati". Sentences written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Pension queue: elderly man Ntate Pule Motsamai came for his card.", "Pule Motsamai"),
        ("Lease renewed; spoke with Khun Phaitoon about the deposit.", "Phaitoon"),
        ("Received from Smt Kaveramma Poovaiah, cash Rs 500.", "Kaveramma Poovaiah"),
        ("Witness: Shri Thimmaiah Kariappa, retired teacher.", "Thimmaiah Kariappa"),
    ],
)
def test_a_name_after_a_title_of_another_language_is_found(text: str, name: str) -> None:
    assert any(name in found for found in _names(text)), _names(text)
