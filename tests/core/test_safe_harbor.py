"""Tests of the HIPAA Safe Harbor preset (45 CFR 164.514(b)(2), health-data seed article)."""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ParameterError
from core.recipe import Recipe, apply_recipe
from core.safe_harbor import RESTRICTED_ZIP3, apply_safe_harbor, safe_harbor, zip3

# The 17 three-digit ZIP areas of 20,000 people or fewer, copied from the issue (HHS list).
RESTRICTED = [
    "036",
    "059",
    "102",
    "203",
    "205",
    "369",
    "556",
    "692",
    "753",
    "772",
    "821",
    "823",
    "878",
    "879",
    "884",
    "890",
    "893",
]


def patients() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "patient_name": ["Ann Lee", "Bob Tan", "Cy Ong", "Di Ng"],
            "ssn": ["123-45-6789", "987-65-4321", "111-22-3333", "222-33-4444"],
            "MRN": ["M001", "M002", "M003", "M004"],
            "zip": ["03601", "94110", "89012", "10213-1234"],
            "date_of_birth": ["1930-05-01", "1980-02-29", "1999-12-31", "1934-12-31"],
            "admission_date": ["2024-03-05", "2024-07-19", "2024-11-30", "2024-01-02"],
            "age": [94, 44, 25, 89],
            "email": ["ann@example.org", "bob@example.org", "cy@example.org", "di@example.org"],
            "website": [
                "http://a.example",
                "https://b.example",
                "http://c.example",
                "www.d.example",
            ],
            "notes": [
                "Patient Ann Lee was admitted with chest pain and seen by Dr Smith on ward 4",
                "Bob called on Tuesday about his results; follow up with the clinic next week",
                "No complaints today, discharged home with his wife and two prescriptions",
                "Referred by her GP in Boston after a fall at home, x-ray of the left wrist",
            ],
            "sex": ["F", "M", "M", "F"],
            "diagnosis": ["I20", "E11", "J06", "S62"],
        }
    )


def test_zip3_matches_the_restricted_list():
    codes = pd.Series([f"{p}45" for p in RESTRICTED] + ["02138", "94110", "10001"])
    out = zip3(codes)
    assert out[: len(RESTRICTED)].eq("000").all()
    assert out[len(RESTRICTED) :].tolist() == ["021", "941", "100"]
    assert set(RESTRICTED) == RESTRICTED_ZIP3


def test_every_three_digit_prefix_is_handled_as_the_list_says():
    prefixes = [f"{i:03d}" for i in range(1000)]
    out = zip3(pd.Series([p + "00" for p in prefixes]))
    expected = ["000" if p in RESTRICTED else p for p in prefixes]
    assert out.tolist() == expected


def test_numeric_zip_codes_keep_their_leading_zero():
    # 3601 is ZIP 03601 read as a number: prefix 036 is restricted.
    assert zip3(pd.Series([3601, 2138, None], dtype="Float64")).tolist()[:2] == ["000", "021"]


def test_safe_harbor_on_a_patient_table():
    df = patients()
    before = df.copy()
    result = apply_safe_harbor(df, reference_date="2025-06-30")
    pd.testing.assert_frame_equal(df, before)  # input untouched
    out = result.data
    removed = {"patient_name", "ssn", "MRN", "email", "website"}
    assert removed.isdisjoint(out.columns)
    assert out["zip"].tolist() == ["000", "941", "000", "000"]  # 036, 890 and 102 are restricted
    # Dates to year; the year of birth of people aged 90+ (born 1930 and 1934, on 2025-06-30:
    # 95 and 90) is suppressed; 1980 and 1999 stay.
    assert out["date_of_birth"].isna().tolist() == [True, False, False, True]
    assert out["date_of_birth"].iloc[1:3].tolist() == ["1980", "1999"]
    assert out["admission_date"].tolist() == ["2024", "2024", "2024", "2024"]
    assert out["age"].tolist() == ["90+", "44", "25", "89"]
    report = result.to_frame().set_index("column")
    # Free text is removed by default (issue 26: redaction misses some names)...
    assert report.loc["notes", "action"] == "removed" and "notes" not in out.columns
    assert result.redacted == () and result.unchecked == ()
    # ... and redacted when asked (issue 16): the names inside it become [NAME].
    redacted = apply_safe_harbor(df, reference_date="2025-06-30", free_text="redact")
    assert redacted.redacted == ("notes",)
    assert redacted.data["notes"].tolist()[:2] == [
        "Patient [NAME] was admitted with chest pain and seen by Dr [NAME] on ward 4",
        "[NAME] called on Tuesday about his results; follow up with the clinic next week",
    ]
    # nothing found: unchanged
    assert redacted.data["notes"].tolist()[2:] == df["notes"].tolist()[2:]
    assert redacted.to_frame().set_index("column").loc["notes", "changed"] == 2
    flagged = apply_safe_harbor(df, reference_date="2025-06-30", free_text="flag")
    assert flagged.unchecked == ("notes",)
    assert flagged.data["notes"].tolist() == df["notes"].tolist()
    assert report.loc["ssn", "identifier"].startswith("G")
    assert report.loc["MRN", "identifier"].startswith("H")
    assert report.loc["website", "identifier"].startswith("N")
    assert report.loc["sex", "action"] == "kept" and report.loc["diagnosis", "action"] == "kept"
    assert report.loc["age", "changed"] == 1
    assert any("Free text" in note for note in redacted.notes())
    assert any("Measured recall 97%" in note for note in redacted.notes())


def test_free_text_can_be_removed_and_columns_excluded():
    out = safe_harbor(patients(), reference_date="2025-06-30", free_text="remove", exclude=["MRN"])
    assert "notes" not in out.columns
    assert out["MRN"].tolist() == ["M001", "M002", "M003", "M004"]


def test_non_us_postal_codes_are_removed_unless_told_they_are_zip_codes():
    df = pd.DataFrame({"postal_code": ["117438", "078424", "556123"]})
    assert "postal_code" not in safe_harbor(df).columns
    assert safe_harbor(df, postal="zip3")["postal_code"].tolist() == ["117", "078", "000"]


def test_bad_parameters_are_named():
    with pytest.raises(ParameterError, match="postal"):
        safe_harbor(patients(), postal="mask")


def test_safe_harbor_step_in_a_recipe():
    recipe = Recipe(steps=({"step": "safe_harbor", "reference_date": "2025-06-30"},))
    out = apply_recipe(patients(), recipe).data
    assert "ssn" not in out.columns and out["age"].iloc[0] == "90+"


def test_cli_safe_harbor_writes_the_table_and_reports(tmp_path, capsys):
    import json

    from core.cli import main

    source, target = tmp_path / "patients.csv", tmp_path / "out.csv"
    patients().to_csv(source, index=False)
    args = [
        "safe-harbor",
        str(source),
        "--reference-date",
        "2025-06-30",
        "--out",
        str(target),
        "--json",
    ]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unchecked"] == [] and data["redacted"] == []  # free text removed by default
    assert [line["letter"] for line in data["identifiers"]] == list("ABCDEFGHIJKLMNOPQR")
    assert main([*args[:-1], "--free-text", "flag", "--force", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unchecked"] == ["notes"]
    assert "ssn" not in pd.read_csv(target).columns


def test_precomputed_suggestions_are_used():
    from core.schema import Role, Suggestion

    df = pd.DataFrame({"col_a": ["x1", "x2"], "sex": ["F", "M"]})
    told = {"col_a": Suggestion("col_a", Role.DIRECT, "name", "told so", "remove")}
    assert "col_a" in safe_harbor(df).columns  # nothing in name or values says "name"
    assert "col_a" not in apply_safe_harbor(df, suggestions=told).data.columns


def _pii_generator():
    """scripts/make_pii_data.py (seeded; held-out names, not the detector's list)."""
    from scripts import make_pii_data

    return make_pii_data


def test_issue_16_headers_c1_to_c9_release_no_name_email_or_phone():
    generator = _pii_generator()
    df = generator.patients_table(600, seed=16)
    notes = generator.labelled_notes(600, seed=17)  # the notes in c9, with their entities
    assert df["c9"].tolist() == [note.text for note in notes]
    result = apply_safe_harbor(df, reference_date="2025-12-31", free_text="redact")
    report = result.to_frame().set_index("column")
    for column in ["c1", "c2", "c4", "c8"]:  # names, phones, NRIC, emails
        assert report.loc[column, "action"] == "removed", column
    assert report.loc["c1", "identifier"].startswith("A")
    assert report.loc["c2", "identifier"].startswith("D")
    # Addresses keep only their state (Singapore, a city-state; a US state), no number,
    # street or postal code (issue 26).
    assert report.loc["c3", "identifier"].startswith("B") and report.loc["c3", "action"] == "state"
    assert "Singapore" in set(result.data["c3"])
    assert not result.data["c3"].dropna().str.contains(r"[0-9]").any()
    assert report.loc["c9", "action"] == "redacted" and result.redacted == ("c9",)
    released = "\n".join(result.data.astype("str").stack().dropna().tolist())
    whole_values = set(df["c1"]) | set(df["c2"]) | set(df["c8"])
    assert sorted(v for v in whole_values if v in released) == []
    # Each note holds none of the names, emails and phone numbers written into it.
    leaked = [
        (text, redacted)
        for note, redacted in zip(notes, result.data["c9"], strict=True)
        for kind, text in note.entities
        if kind in {"name", "email", "phone"} and text in redacted
    ]
    assert leaked == []


def test_cli_safe_harbor_on_the_issue_table(tmp_path, capsys):
    import json

    from core.cli import main

    source, target = tmp_path / "patients.csv", tmp_path / "out.csv"
    _pii_generator().patients_table(120, seed=16).to_csv(source, index=False)
    args = [
        "safe-harbor",
        str(source),
        "--reference-date",
        "2025-12-31",
        "--out",
        str(target),
        "--free-text",
        "redact",
        "--json",
    ]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["redacted"] == ["c9"] and data["unchecked"] == []
    actions = {c["column"]: c["action"] for c in data["columns"]}
    assert {c: actions[c] for c in ["c1", "c2", "c8"]} == dict.fromkeys(
        ["c1", "c2", "c8"], "removed"
    )
    assert actions["c3"] == "state"
    released = pd.read_csv(target)
    assert not {"c1", "c2", "c8"} & set(released.columns)
    assert not released["c9"].str.contains("@").any()


def test_two_digit_birth_years_are_read_in_the_past_century():
    # dd/mm/yy dates of birth: '31' and '35' are 1931 and 1935, not 2031 and 2035 (a birth
    # after the reference date is impossible); '05' is 2005 and '88' 1988.
    df = pd.DataFrame(
        {
            "date_of_birth": ["15/08/31", "01/01/05", "02/01/35", "23/11/88"],
            "diagnosis": ["I20", "E11", "J06", "S62"],
        }
    )
    result = apply_safe_harbor(df, reference_date="2026-11-28")
    out = result.data
    # On 2026-11-28 those born 1931-08-15 (95) and 1935-01-02 (91) are over 89: their year
    # of birth is suppressed, 45 CFR 164.514(b)(2)(i)(C); 2005 and 1988 are kept.
    assert out["date_of_birth"].isna().tolist() == [True, False, True, False]
    assert out["date_of_birth"].iloc[[1, 3]].tolist() == ["2005", "1988"]
    detail = result.to_frame().set_index("column").loc["date_of_birth", "detail"]
    assert "2 person(s) aged 90 or over" in detail


def test_two_digit_years_of_other_dates_stay_within_the_columns_own_range():
    # A date of an event with a two-digit year after the reference date is in the previous
    # century too, unless the column itself holds dates that late written in full (here
    # 2031: an appointment column reaching into the future keeps '30' as 2030).
    df = pd.DataFrame(
        {
            "admission_date": ["02/01/24", "15/08/42", "01/01/05", "07/07/99"],
            "appointment_date": ["02/01/27", "12/12/30", "01/03/2031", "05/05/26"],
            "diagnosis": ["I20", "E11", "J06", "S62"],
        }
    )
    out = apply_safe_harbor(df, reference_date="2026-11-28").data
    assert out["admission_date"].tolist() == ["2024", "1942", "2005", "1999"]
    assert out["appointment_date"].tolist() == ["2027", "2030", "2031", "2026"]
