"""Check digits of the identifiers the evaluation sets write, from the published rules.

Written for the sets' builders (``bench/eval5_formats.py``, ``eval6_formats.py``,
``eval8_formats.py``, ``make_independent_pii.py``, ``make_eval3.py``, ``make_eval7.py``).
These rules are also in ``core/detect/national_ids.py``, and are written again here **on
purpose**: a held-out set is built and checked by a method independent of the code under
test, so a mistake in a detector's rule cannot make the set agree with it. Nothing here
imports ``core``; the builders check what they write a second time with python-stdnum,
another independent implementation, where stdnum has the format.

- **Singapore NRIC/FIN** (ICA): 7 digits weighted 2 7 6 5 4 3 2, plus 4 for T and G and 3
  for M, mod 11 indexes ``JZIHGFEDCBA`` (S, T), ``XWUTRQPNMLK`` (F, G) or ``KLJNPQRTUWX``
  (M);
- **UK NHS number** (NHS Data Dictionary): the first 9 digits weighted 10 down to 2, check
  11 - (sum mod 11), 11 -> 0, 10 never issued;
- **Verhoeff** (Aadhaar's last digit): the dihedral group D5;
- **Luhn** (Canadian SIN, South African ID, Emirates ID...).
"""

from __future__ import annotations

_NRIC_WEIGHTS = (2, 7, 6, 5, 4, 3, 2)
_NRIC_OFFSETS = {"T": 4, "G": 4, "M": 3}
_NRIC_LETTERS = {
    "S": "JZIHGFEDCBA",
    "T": "JZIHGFEDCBA",
    "F": "XWUTRQPNMLK",
    "G": "XWUTRQPNMLK",
    "M": "KLJNPQRTUWX",
}
# Verhoeff's dihedral group D5 tables (multiplication, permutation, inverse).
_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)
_VERHOEFF_INV = (0, 4, 3, 2, 1, 5, 6, 7, 8, 9)


def nric_check(prefix: str, digits: str) -> str:
    """The check letter of a Singapore NRIC/FIN of ``prefix`` (S, T, F, G, M) and 7 digits."""
    total = sum(int(d) * w for d, w in zip(digits, _NRIC_WEIGHTS, strict=True))
    total += _NRIC_OFFSETS.get(prefix, 0)
    return _NRIC_LETTERS[prefix][total % 11]


def nhs_check(nine: str) -> int | None:
    """The NHS check digit of 9 digits, or None when the number is never issued (10)."""
    check = 11 - sum(int(d) * w for d, w in zip(nine, range(10, 1, -1), strict=True)) % 11
    return {11: 0, 10: None}.get(check, check)


def verhoeff_check(digits: str) -> int:
    """The Verhoeff check digit to append to ``digits``."""
    c = 0
    for i, d in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[(i + 1) % 8][int(d)]]
    return _VERHOEFF_INV[c]


def luhn_check(digits: str) -> int:
    """The Luhn digit that makes ``digits`` + it pass the Luhn test."""
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return (10 - total % 10) % 10
