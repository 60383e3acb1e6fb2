"""Singapore identity numbers (NRIC/FIN): checksum validation and synthetic generation.

The guide lists the NRIC number and the FIN as direct identifiers (Step 1, "Common
examples") and shows NRIC masking in Annex B. The check letter is computed from the
seven digits with weights 2,7,6,5,4,3,2, an offset for the prefix (T and G add 4,
M adds 3) and a letter table per series (S/T citizens, F/G/M foreigners).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

WEIGHTS = np.array([2, 7, 6, 5, 4, 3, 2])
_OFFSETS = {"S": 0, "T": 4, "F": 0, "G": 4, "M": 3}
_CITIZEN_LETTERS = "JZIHGFEDCBA"
_FOREIGNER_LETTERS = "XWUTRQPNMLK"
_M_LETTERS = "XWUTRQPNJLK"
_LETTERS = {
    "S": _CITIZEN_LETTERS,
    "T": _CITIZEN_LETTERS,
    "F": _FOREIGNER_LETTERS,
    "G": _FOREIGNER_LETTERS,
    "M": _M_LETTERS,
}
NRIC_PATTERN = r"^[STFGM][0-9]{7}[A-Z]$"  # [0-9], not \d: \d also accepts non-ASCII digits


def nric_check_letter(prefix: str, digits: str) -> str:
    """The check letter for a prefix (S, T, F, G or M) and seven digits."""
    total = int(np.dot(WEIGHTS, [int(d) for d in digits])) + _OFFSETS[prefix]
    return _LETTERS[prefix][total % 11]


def is_valid_nric(value: object) -> bool:
    """True when ``value`` looks like an NRIC/FIN and its check letter is right."""
    return bool(valid_nric_mask(pd.Series([value])).iloc[0])


def valid_nric_mask(values: pd.Series) -> pd.Series:
    """Vectorised check: which values are NRIC/FIN numbers with a correct check letter."""
    text = values.astype("string").str.strip().str.upper()
    shaped = text.str.fullmatch(NRIC_PATTERN).fillna(False).astype(bool)
    result = pd.Series(False, index=values.index)
    if not shaped.any():
        return result
    good = text[shaped]
    digits = np.array([list(s[1:8]) for s in good], dtype=np.int64)
    prefixes = good.str[0].to_numpy()
    totals = digits @ WEIGHTS + np.array([_OFFSETS[p] for p in prefixes])
    expected = [_LETTERS[p][t % 11] for p, t in zip(prefixes, totals, strict=True)]
    result[shaped] = good.str[8].to_numpy() == np.array(expected)
    return result


def make_nrics(rng: np.random.Generator, n: int, *, prefixes: str = "ST") -> list[str]:
    """``n`` synthetic NRIC numbers with valid check letters (for sample data only)."""
    chosen = rng.choice(list(prefixes), size=n)
    digits = rng.integers(0, 10, size=(n, 7))
    totals = digits @ WEIGHTS + np.array([_OFFSETS[p] for p in chosen])
    return [
        f"{p}{''.join(map(str, d))}{_LETTERS[p][t % 11]}"
        for p, d, t in zip(chosen, digits, totals, strict=True)
    ]
