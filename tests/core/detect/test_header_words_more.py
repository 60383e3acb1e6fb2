"""Header words added after issue 26's third set (eval3) left `negara` (country) unread,
and the other common headers of the same languages that were still missing: each one,
written by hand, read as the kind it names; English-looking look-alikes are not."""

from __future__ import annotations

import pandas as pd
import pytest

from core.detect.header_words import foreign_header_kind
from core.schema import suggest_roles


@pytest.mark.parametrize(
    ("header", "kind"),
    [
        ("negara", "group"),  # ms, id: country
        ("Negara Asal", "group"),
        ("País", "group"),  # es
        ("pays", "group"),  # fr
        ("Land", "group"),  # de
        ("bansa", "group"),  # tl
        ("国家", "group"),  # zh
        ("no_hp", "phone"),  # id: handphone
        ("Telefone", "phone"),  # pt
        ("Negeri", "place"),  # ms: state
        ("Provinsi", "place"),  # id
        ("Kelurahan", "place"),  # id
        ("Provincia", "place"),  # es
        ("F. Nac.", "date_of_birth"),  # es
        ("Geb.-Datum", "date_of_birth"),  # de
        ("Data de Nascimento", "date_of_birth"),  # pt
        ("Tanggal Kelahiran", "date_of_birth"),  # id
        ("Género", "gender"),  # es
        ("Idade", "age"),  # pt
        ("NSS", "national_id"),  # es: Seguridad Social
        ("Sozialversicherungsnummer", "national_id"),  # de
        ("Cédula", "national_id"),
    ],
)
def test_header_is_read(header: str, kind: str) -> None:
    assert foreign_header_kind(header) == kind


@pytest.mark.parametrize("header", ["landing_page", "Heimatland2", "paysheet", "desain"])
def test_look_alikes_are_not_read(header: str) -> None:
    assert foreign_header_kind(header) is None


def test_a_malay_country_column_is_an_indirect_identifier() -> None:
    table = pd.DataFrame({"negara": ["Malaysia", "Singapura", "Indonesia", "Brunei"] * 10})
    suggestion = suggest_roles(table)[0]
    assert suggestion.role.value == "indirect"
    assert suggestion.judged_by == "header"
