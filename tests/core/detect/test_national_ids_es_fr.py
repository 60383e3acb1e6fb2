"""Spain's DNI/NIE and France's NIR (issue 26): found with their published checks, in free
text and in a column, and random numbers of the same shape are not.

The checks, written out (the arithmetic below is done by hand or by Python's plain
integers, not by the code under test):

* DNI: the letter is "TRWAGMYFPDXBNJZSQVHLCKE"[number mod 23]. 12345678 = 23 x 536,768
  + 14, and letter 14 is Z: 12345678Z. NIE: X, Y, Z count as 0, 1, 2: X1234567L is
  01234567 = 23 x 53,676 + 19, letter 19 is L.
* NIR: key = 97 - (first 13 digits mod 97); Corsica's 2A and 2B count as 19 and 18.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.detect import find_entities
from core.detect.national_ids import valid_dni, valid_nir
from core.schema import suggest_roles

_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _nir(first13: str) -> str:
    """A NIR with its key computed from the published rule (Corsica 2A -> 19, 2B -> 18)."""
    number = int(first13.replace("2A", "19").replace("2B", "18"))
    return f"{first13}{97 - number % 97:02d}"


def test_dni_and_nie_worked_examples() -> None:
    assert valid_dni("12345678Z")
    assert valid_dni("12345678-z")
    assert valid_dni("X1234567L")
    assert valid_dni("X-1234567-L")


def test_only_one_letter_of_23_passes() -> None:
    passing = [c for c in _LETTERS if valid_dni(f"12345678{c}")]
    assert passing == ["Z"]
    passing = [c for c in _LETTERS if valid_dni(f"Y7654321{c}")]
    # Y7654321 -> 17654321 = 23 x 767,579 + 4: letter 4 is G
    assert passing == ["G"]


def test_nir_worked_examples() -> None:
    assert valid_nir(_nir("1850578006084"))
    assert valid_nir(_nir("269052A420001"))  # born in Corse-du-Sud
    first = _nir("1850578006084")
    wrong = first[:-2] + f"{(int(first[-2:]) % 97) + 1:02d}"
    assert not valid_nir(wrong)
    assert not valid_nir("5850578006084" + first[-2:])  # no sex digit 5


def test_found_in_free_text() -> None:
    nir = _nir("1850578006084")
    grouped = " ".join([nir[0], nir[1:3], nir[3:5], nir[5:7], nir[7:10], nir[10:13], nir[13:]])
    note = (
        f"Paciente con DNI 12345678Z y su esposa NIE X-1234567-L; "
        f"numéro de sécurité sociale {grouped}, rappel demain."
    )
    found = {(e.kind, e.text) for e in find_entities(note)}
    assert ("dni", "12345678Z") in found
    assert ("dni", "X-1234567-L") in found
    assert ("nir", grouped) in found


def test_wrong_check_is_not_an_id_in_free_text() -> None:
    note = "lote 12345678A, caja 98765432B, ref 1 85 05 78 006 084 00 hoy"
    kinds = [e.kind for e in find_entities(note)]
    assert "dni" not in kinds and "nir" not in kinds


def test_a_column_of_dni_is_a_national_id_and_random_codes_are_not() -> None:
    rng = np.random.default_rng(7)
    numbers = rng.integers(10_000_000, 99_999_999, size=60)
    good = [f"{n}{_LETTERS[n % 23]}" for n in numbers]
    bad = [f"{n}{_LETTERS[(n + 1 + i % 22) % 23]}" for i, n in enumerate(numbers)]
    table = pd.DataFrame({"c4": good, "c5": bad})
    roles = {s.column: s for s in suggest_roles(table)}
    assert roles["c4"].kind == "national_id" and roles["c4"].role.value == "direct"
    assert roles["c5"].kind != "national_id"


def test_a_column_of_nir_is_a_national_id() -> None:
    rng = np.random.default_rng(11)
    firsts = [
        f"{rng.choice([1, 2])}{rng.integers(40, 99)}{rng.integers(1, 12):02d}"
        f"{rng.integers(1, 95):02d}{rng.integers(1, 999):03d}{rng.integers(1, 999):03d}"
        for _ in range(40)
    ]
    table = pd.DataFrame({"x9": [_nir(f) for f in firsts]})
    suggestion = suggest_roles(table)[0]
    assert suggestion.kind == "national_id"


@pytest.mark.parametrize("shape", ["12345678", "X1234567", "1850578006084"])
def test_a_number_without_its_check_is_not_valid(shape: str) -> None:
    assert not valid_dni(shape) and not valid_nir(shape)


def test_m_series_fin_is_found_whichever_letter_convention_it_follows() -> None:
    # M1234567: 1x2 + 2x7 + 3x6 + 4x5 + 5x4 + 6x3 + 7x2 = 106, + 3 for M = 109, 109 mod 11
    # = 10. GovTech's check reads KLJNPQRTUWX at 10 - 10 = 0: K; other published
    # implementations read it at 10: X. Both are FINs to a detector; no other letter is.
    from core.detect.patterns import valid_nric

    passing = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if valid_nric(f"M1234567{c}")]
    assert passing == ["K", "X"]
    assert [e.text for e in find_entities("Lab request for Ali, M1234567X, ward 7")] == [
        "Ali",
        "M1234567X",
    ]
    # the other series keep their single letter: S1234567 -> 106 mod 11 = 7 -> D
    assert [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if valid_nric(f"S1234567{c}")] == ["D"]
