"""Headers beyond English (issue 26): Step 1 reads a Malay, Indonesian, Filipino, Chinese,
Tamil, Spanish, French or German header, in spellings the word list does not hold."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from core.detect.header_words import FOREIGN_HEADER_TERMS, foreign_header_kind, header_tokens
from core.safe_harbor import apply_safe_harbor
from core.schema import Role, suggest_roles


@pytest.mark.parametrize(
    ("header", "kind"),
    [
        # case, separators and extra words the list does not hold
        ("Poskod_Rumah", "postal_code"),
        ("POSKOD PEJABAT", "postal_code"),
        ("poskodRumah", "postal_code"),
        ("NO_KP", "national_id"),
        ("No. K/P Baru", "national_id"),
        ("No_Kad_Pengenalan_Ibu", "national_id"),
        ("NamaPenuhPesakit", "name"),
        ("nama_waris", "name"),
        ("TkhLahir", "date_of_birth"),
        ("tarikh_lahir_pesakit", "date_of_birth"),
        ("Alamat Emel Peribadi", "email"),  # "alamat" is an address alone, an email here
        ("no_tel_bimbit", "phone"),
        ("JANTINA", "gender"),
        ("Umur (tahun)", "age"),
        ("Bangsa/Kaum", "group"),
        ("Agama", "group"),
        ("Pekerjaan Bapa", "job_title"),
        # Indonesian
        ("KodePos", "postal_code"),
        ("Tgl. Lahir", "date_of_birth"),
        ("Tempat/Tgl Lahir", "date_of_birth"),  # the KTP's combined label
        ("Tempat Lahir", "place"),
        ("NIK Suami", "national_id"),
        ("nomor_telepon_rumah", "phone"),
        ("Jenis-Kelamin", "gender"),
        ("Usia_Saat_Daftar", "age"),
        # Filipino
        ("Buong Pangalan", "name"),
        ("Petsa ng Kapanganakan", "date_of_birth"),
        ("Kasarian", "gender"),
        ("PhilSys Number", "national_id"),  # one word written in parts, and "...Number"
        # Chinese, traditional and simplified, inside longer headers
        ("患者姓名", "name"),
        ("身份證號碼", "national_id"),
        ("身份证号", "national_id"),
        ("联系电话", "phone"),
        ("家庭地址", "address"),
        ("邮编(6位)", "postal_code"),
        ("出生日期", "date_of_birth"),
        # Tamil
        ("முகவரி", "address"),
        ("வயது", "age"),
        # Spanish, French, German: diacritics, case and joined words
        ("DIRECCIÓN", "address"),
        ("Código_Postal_Envío", "postal_code"),
        ("Fecha de Nacimiento", "date_of_birth"),
        ("Prénom", "name"),
        ("Date de Naissance", "date_of_birth"),
        ("Lieu de naissance", "place"),
        ("Straße", "address"),
        ("STRASSE", "address"),
        ("Geburtsdatum", "date_of_birth"),
        ("Staatsangehörigkeit", "group"),
        ("Abteilung", "group"),  # department
        ("Familienstand", "group"),  # marital status
        ("Taraf_Perkahwinan", "group"),
        ("婚姻狀況", "group"),
    ],
)
def test_foreign_headers_in_spellings_not_listed(header: str, kind: str) -> None:
    assert foreign_header_kind(header) == kind


@pytest.mark.parametrize(
    "header",
    # words that contain a term but are not it (whole words only), and English headers
    ["namaste", "nominal", "kotak", "nikkei", "Umbrella", "sexton", "order_no", "lahiri", "c07"],
)
def test_terms_match_whole_words_only(header: str) -> None:
    assert foreign_header_kind(header) is None


def test_tokens_drop_case_and_latin_diacritics_but_keep_other_scripts() -> None:
    assert header_tokens("Dirección_Envío") == ("direccion", "envio")
    assert header_tokens("Straße") == ("strasse",)
    assert header_tokens("poskodRumah") == ("poskod", "rumah")
    # a Tamil vowel sign is part of its letter: the word stays whole
    assert header_tokens("பிறந்த தேதி") == ("பிறந்த", "தேதி")


def test_every_kind_is_one_step1_knows() -> None:
    """Each kind of the word list gives a role and a technique in Step 1."""
    for kind, terms in FOREIGN_HEADER_TERMS.items():
        table = pd.DataFrame({terms[0]: ["x1", "x2", "x3"]})
        (suggestion,) = suggest_roles(table)
        assert suggestion.kind == kind, (kind, suggestion)
        assert suggestion.role in {Role.DIRECT, Role.INDIRECT}
        assert suggestion.technique


def test_malay_table_step1_and_safe_harbor() -> None:
    """A Malay export whose headers alone say what the columns hold: the postal codes,
    which no content rule reads as personal (5 digits, repeated), are judged by header, and
    Safe Harbor removes them (HIPAA B) and puts ages over 89 into one group (C)."""
    table = pd.DataFrame(
        {
            "Poskod_Rumah": ["50450", "43000", "81200", "10200", "88000", "50450"],
            "Jantina": ["L", "P", "L", "P", "L", "P"],
            "Umur": [34, 56, 91, 23, 45, 67],
            "Diagnosis": ["E11", "I10", "J45", "E11", "I10", "K29"],
        }
    )
    roles = {s.column: s for s in suggest_roles(table)}
    assert roles["Poskod_Rumah"].kind == "postal_code"
    assert roles["Poskod_Rumah"].role == Role.INDIRECT
    assert roles["Umur"].kind == "age"
    assert roles["Jantina"].kind == "gender"
    out = apply_safe_harbor(table, reference_date=dt.date(2026, 1, 1)).data
    kept = out["Poskod_Rumah"].astype(str) if "Poskod_Rumah" in out else pd.Series([], dtype=str)
    assert not kept.isin(table["Poskod_Rumah"]).any()
    assert 91 not in set(pd.to_numeric(out["Umur"], errors="coerce").dropna())


def test_english_place_headers() -> None:
    """A suburb, town or city is a HIPAA Safe Harbor identifier B (a geographic
    subdivision smaller than a state): Step 1 says so from the header."""
    table = pd.DataFrame({"Suburb": ["Parramatta", "Fitzroy", "Toowong", "Glenelg"]})
    (suggestion,) = suggest_roles(table)
    assert (suggestion.kind, suggestion.role) == ("place", Role.INDIRECT)
    (place,) = suggest_roles(pd.DataFrame({"Place of Birth": ["Ipoh", "Johor Bahru", "Miri"]}))
    assert place.kind == "place"


def test_safe_harbor_reads_an_accented_age_header() -> None:
    """'Âge' is an age: a person of 95 does not keep an exact age (HIPAA C)."""
    table = pd.DataFrame({"Âge": [41, 95, 29, 53, 37, 20]})
    out = apply_safe_harbor(table, reference_date=dt.date(2026, 1, 1)).data
    assert "95" not in out["Âge"].astype(str).tolist()
