"""Codes that repeat over many records are not direct identifiers (issue 26): a product,
drug, lot or order code under a header that says nothing (``p``) took the shape of a
phone number (NDC drug codes 4-4-2, order numbers 2-4-4), of a PhilSys number (lot
numbers 4-4-4 that start with a year) or of an NRIC without its check letter, and was
called direct. Identifiers of people are near-unique in a table of people; a value held
by many records (a few hundred codes over 2,000 rows) names a thing many people share,
unless its format carries a check only a personal identifier passes (NRIC/FIN check
letter): such numbers stay direct however often they repeat (a table of visits repeats
a patient's NRIC), and so does a near-unique code (a record or customer ID).

The codes are drawn here from seeded random digits, with a long tail of popularity (a
few codes on many rows), as an order or dispensing export holds them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.identifiers import nric_check_letter
from core.schema import Role, suggest_roles

ROWS = 2000
rng = np.random.default_rng(26)


@pytest.fixture(autouse=True)
def _same_draws_in_every_test():
    global rng
    rng = np.random.default_rng(26)


def _digits(k: int) -> str:
    return "".join(rng.choice(list("0123456789"), k))


def _repeated(make, distinct: int = 300) -> list[str]:
    """``ROWS`` values drawn from ``distinct`` codes, a few of them popular."""
    codes = list(dict.fromkeys(make() for _ in range(distinct * 2)))[:distinct]
    weights = 1 / np.arange(1, distinct + 1) ** 0.8
    return list(rng.choice(codes, size=ROWS, p=weights / weights.sum()))


def _bad_nric() -> str:
    digits = _digits(7)
    right = nric_check_letter("S", digits)
    return f"S{digits}{'A' if right != 'A' else 'B'}"


CODES = {
    "NDC drug code 4-4-2": lambda: f"{_digits(4)}-{_digits(4)}-{_digits(2)}",
    "order number 2-4-4": lambda: f"{rng.integers(19, 26)}-{_digits(4)}-{_digits(4)}",
    "lot number 4-4-4 starting with a year": lambda: (
        f"{rng.integers(2019, 2026)}-{rng.integers(1, 13):02d}{rng.integers(1, 29):02d}-"
        f"{_digits(4)}"
    ),
    "part number 3-3-4": lambda: f"{_digits(3)}-{_digits(3)}-{_digits(4)}",
    "NRIC shape, wrong check letters": _bad_nric,
    "SKU of three formats": lambda: rng.choice(
        [f"PRD-{_digits(5)}", f"SKU {_digits(4)}-{rng.choice(list('ABC'))}", f"AB{_digits(4)}"]
    ),
}


@pytest.mark.parametrize("what", list(CODES))
def test_a_code_repeated_over_many_rows_is_not_direct(what: str) -> None:
    values = _repeated(CODES[what])
    assert pd.Series(values).nunique() < ROWS * 0.2
    suggestion = suggest_roles(pd.DataFrame({"p": values}))[0]
    assert suggestion.role != Role.DIRECT, suggestion


def test_a_near_unique_code_or_phone_stays_direct() -> None:
    phones = list(dict.fromkeys(f"{_digits(3)}-{_digits(3)}-{_digits(4)}" for _ in range(ROWS)))
    table = pd.DataFrame(
        {"p": phones[:500], "ref": [f"AC{i * 7919 % 99991:05d}X" for i in range(500)]}
    )
    kinds = {s.column: (s.role, s.kind) for s in suggest_roles(table)}
    assert kinds["p"] == (Role.DIRECT, "phone")
    assert kinds["ref"][0] == Role.DIRECT


def test_a_checked_identifier_stays_direct_however_often_it_repeats() -> None:
    # 400 patients over 2,000 visits: their NRICs (right check letters) repeat
    def nric() -> str:
        digits = _digits(7)
        return f"S{digits}{nric_check_letter('S', digits)}"

    suggestion = suggest_roles(pd.DataFrame({"p": _repeated(nric, distinct=400)}))[0]
    assert (suggestion.role, suggestion.kind) == (Role.DIRECT, "nric")


def test_a_header_that_names_a_phone_keeps_repeated_phones_direct() -> None:
    values = _repeated(CODES["part number 3-3-4"])
    suggestion = suggest_roles(pd.DataFrame({"tel": values}))[0]
    assert (suggestion.role, suggestion.kind) == (Role.DIRECT, "phone")
