"""Address forms of more countries (issue 26; HIPAA §164.514(b)(2)(i)(B), PDPC guide
Annex B): an Irish Eircode alone ("D04 W5N8", "Eircode T23 KP6X"), a Philippine
subdivision address by block and lot ("Blk 9 Lot 3 Phase 1, Brgy. Mabini, Batangas City
4200"), and a Singapore unit number alone ("her unit #11-204"). Every sentence was
written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _addresses(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "ADDRESS"]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("Post the card to Eircode T23 KP6X please.", "T23 KP6X"),
        # (the town before the code is read with it since the addresses are read whole)
        ("lives in Ranelagh, Dublin D06 F2X9 with her son", "Dublin D06 F2X9"),
        (
            "address Blk 9 Lot 3 Phase 1, Brgy. Mabini, Batangas City 4200. tel to follow",
            "Blk 9 Lot 3 Phase 1, Brgy. Mabini, Batangas City 4200",
        ),
        (
            "moved to Block 21, Lot 14, Greenfields Subd, Lipa City",
            "Block 21, Lot 14, Greenfields Subd, Lipa City",
        ),
        ("parcel was left at #11-204 by mistake", "#11-204"),
    ],
)
def test_the_address_is_found_whole(text: str, address: str) -> None:
    assert address in _addresses(text), _addresses(text)


@pytest.mark.parametrize(
    "text",
    [
        "Bring form A12 B3C4 to the desk.",  # B is no Eircode letter
        "Scored D12 ABCD on the grid.",  # an Eircode's last part holds a digit and a letter
        "Took ticket #1-2 at the counter.",  # no floor of two digits
        "Dose lot 12 expired; block 3 of the study.",  # a lot number of a medicine
    ],
)
def test_look_alikes_stay(text: str) -> None:
    assert _addresses(text) == []
