"""core.detect.phones (libphonenumber) and core.detect.addresses."""

from __future__ import annotations

import pandas as pd

from core.detect import find_entities
from core.detect.phones import is_phone, phone_share


def found(text: str, kind: str) -> list[str]:
    return [e.text for e in find_entities(text, kinds=kind)]


def test_phone_numbers_of_any_country_in_cells():
    good = [
        "+1 617-555-0100",
        "+44 20 7946 0000",
        "44 20 7946 0000",
        "+65 9123 4567",
        "9123 4567",
        "61234567",
        "+91 98765 43210",
        "0065 9123 4567",
    ]
    bad = ["806799", "2024-01-05", "123-45-6789", "12345678", "1.441546", "S1234567D", "abc"]
    assert [is_phone(v) for v in good] == [True] * len(good)
    assert [is_phone(v) for v in bad] == [False] * len(bad)
    assert phone_share(pd.Series(good + bad), None) == len(good) / (len(good) + len(bad))


def test_phone_numbers_inside_text():
    assert found("Call back on +1 617-555-0199 today", "phone") == ["+1 617-555-0199"]
    assert found("HP 9123 4567, office +44 20 7946 0000.", "phone") == [
        "9123 4567",
        "+44 20 7946 0000",
    ]
    assert found("seen 2024-01-05 at ward 12, ref 806799", "phone") == []


def test_addresses_inside_text_and_cells():
    cases = {
        "Lives at 104 Clementi Avenue 2 #09-57 Singapore 806799 with her son": "104 Clementi Avenue 2 #09-57 Singapore 806799",
        "Blk 123 Jurong West Street 41 #05-12 S(640123)": "Blk 123 Jurong West Street 41 #05-12 S(640123)",
        "moved to 221B Baker Street, London NW1 6XE last year": "221B Baker Street, London NW1 6XE",
        "1600 Pennsylvania Ave NW, Washington, DC 20500": "1600 Pennsylvania Ave NW, Washington, DC 20500",
        "12 Jalan Bukit Merah, Singapore 150012": "12 Jalan Bukit Merah, Singapore 150012",
    }
    for text, address in cases.items():
        assert found(text, "address") == [address], text
    assert found("took 2 tablets on the way home", "address") == []
    assert found("3 days of fever", "address") == []
