"""Step 1 "Know your data": role suggestions, tested on the guide's own examples."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.pandas import column, data_frames

from core.errors import ParameterError
from core.identifiers import make_nrics
from core.schema import ROLE_DESCRIPTIONS, Role, Suggestion, suggest_roles


def by_column(df: pd.DataFrame) -> dict:
    return {s.column: s for s in suggest_roles(df)}


@pytest.fixture
def employees() -> pd.DataFrame:
    """PDPC guide, Step 1, Example 1 (employee data record)."""
    return pd.DataFrame(
        {
            "Staff ID": [39192, 37030, 22722, 28760, 13902],
            "Name": ["Sandy Thomas", "Paula Swenson", "Bosco Wood", "Stef Stone", "Jake Norma"],
            "Department": [
                "Research & Development",
                "Engineering",
                "Engineering",
                "Engineering",
                "Human Resource",
            ],
            "Gender": ["F", "F", "M", "F", "M"],
            "Date of birth": ["08/01/1971", "15/05/1976", "31/12/1973", "24/12/1970", "15/07/1973"],
            "Start date of service": [
                "02/03/1997",
                "08/03/2015",
                "30/07/1991",
                "18/03/2010",
                "28/05/2012",
            ],
            "Employment type": ["Part-time", "Full-time", "Full-time", "Part-time", "Part-time"],
        }
    )


@pytest.fixture
def customers() -> pd.DataFrame:
    """PDPC guide, Step 1, Example 2 (customer data record)."""
    return pd.DataFrame(
        {
            "Customer ID": [56833, 50271, 53041, 17290, 52388],
            "Name": ["Jenny Jefferson", "Peter G", "Tim Lake", "Remy Bay", "Walter Paul"],
            "Gender": ["F", "M", "F", "M", "M"],
            "Date of birth": ["05/08/1975", "14/12/1973", "02/03/1985", "27/03/1968", "25/06/1967"],
            "Postal code": ["570150", "787589", "408600", "570150", "199588"],
            "Occupation": [
                "Data scientist",
                "University lecturer",
                "Researcher",
                "Database administrator",
                "Architect",
            ],
            "Income": ["$13,000", "$12,000", "$7,000", "$8,000", "$10,000"],
            "Education": ["Masters", "Doctorate", "Doctorate", "Bachelor", "Masters"],
            "Marital status": ["Widowed", "Married", "Divorced", "Married", "Single"],
        }
    )


def test_role_values_and_descriptions():
    assert [r.value for r in Role] == ["direct", "indirect", "target", "other"]
    assert Role("direct") is Role.DIRECT and Role.DIRECT == "direct"
    for role in Role:
        assert role.description == ROLE_DESCRIPTIONS[role]
        assert role.description.endswith(".")
    assert "combined" in Role.INDIRECT.description


def test_suggestion_is_frozen():
    s = Suggestion("a", Role.OTHER, "category", "why", "what")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.role = Role.DIRECT  # type: ignore[misc]


def test_guide_example_2_customer_record(customers):
    got = by_column(customers)
    assert [s.column for s in suggest_roles(customers)] == list(customers.columns)
    expected = {
        "Customer ID": Role.DIRECT,
        "Name": Role.DIRECT,
        "Gender": Role.INDIRECT,
        "Date of birth": Role.INDIRECT,
        "Postal code": Role.INDIRECT,
        "Occupation": Role.INDIRECT,
        "Income": Role.TARGET,
        "Education": Role.INDIRECT,
        "Marital status": Role.INDIRECT,
    }
    assert {c: s.role for c, s in got.items()} == expected
    assert got["Name"].kind == "name"
    assert got["Date of birth"].kind == "date_of_birth"
    assert got["Postal code"].kind == "postal_code"
    assert got["Income"].kind == "money"
    # Annex B techniques
    assert "11xxxx" in got["Postal code"].technique
    assert "month and year" in got["Date of birth"].technique
    assert "pseudonym" in got["Name"].technique


def test_guide_example_1_employee_record(employees):
    got = by_column(employees)
    assert got["Staff ID"].role is Role.DIRECT
    assert got["Name"].role is Role.DIRECT
    for name in ["Department", "Gender", "Date of birth", "Start date of service"]:
        assert got[name].role is Role.INDIRECT, name
    assert got["Date of birth"].kind == "date_of_birth"
    assert got["Start date of service"].kind == "date"
    assert got["Gender"].kind == "gender"


def test_every_suggestion_has_one_plain_sentence(customers, employees):
    for df in (customers, employees):
        for s in suggest_roles(df):
            assert isinstance(s.role, Role)
            assert s.reason[0].isupper() or s.reason[0].isdigit(), s.reason
            assert s.reason.endswith("Step 1)."), s.reason
            assert s.technique


def test_valid_nrics_are_detected_with_the_checksum_reason():
    nrics = make_nrics(np.random.default_rng(7), 200)
    got = by_column(pd.DataFrame({"ref": nrics}))["ref"]
    assert got.kind == "nric"
    assert got.role is Role.DIRECT
    assert got.reason.startswith("100% of sampled values are NRIC/FIN numbers with a valid check")


def test_nric_shape_with_wrong_check_letters_is_not_called_nric():
    nrics = make_nrics(np.random.default_rng(7), 200)
    # Replace each check letter by the next letter of the alphabet: always wrong.
    wrong = [n[:-1] + chr((ord(n[-1]) - ord("A") + 1) % 26 + ord("A")) for n in nrics]
    for name in ("ref", "NRIC"):
        got = by_column(pd.DataFrame({name: wrong}))[name]
        assert got.kind != "nric"
        assert "with a valid check letter" not in got.reason
        assert "0% have a correct check letter" in got.reason
        assert got.role is Role.DIRECT  # still treated with care


def test_share_threshold_is_eighty_percent():
    nrics = make_nrics(np.random.default_rng(3), 10)
    eight = pd.DataFrame({"ref": nrics[:8] + ["hello", "world"]})
    seven = pd.DataFrame({"ref": nrics[:7] + ["hello", "world", "again"]})
    assert by_column(eight)["ref"].kind == "nric"
    assert by_column(eight)["ref"].reason.startswith("80% ")
    assert by_column(seven)["ref"].kind != "nric"


@pytest.mark.parametrize(
    ("values", "kind", "role"),
    [
        (["ann@example.com", "bob.tan@mail.sg", "c_d@x.org"], "email", Role.DIRECT),
        (["+65 9123 4567", "81234567", "6123-4567"], "phone", Role.DIRECT),
        (["12.120.210.88", "0.0.0.0", "255.255.255.255"], "ipv4", Role.INDIRECT),
        (
            ["2001:0db8:85a3:0000:0000:8a2e:0370:7334", "::1", "fe80::1ff:fe23:4567:890a"],
            "ipv6",
            Role.INDIRECT,
        ),
        (["117438", "828755", "208215"], "postal_code", Role.INDIRECT),
        (["SMF1234A", "SBA123B", "SKL9Z"], "vehicle_plate", Role.INDIRECT),
    ],
)
def test_value_patterns(values, kind, role):
    got = by_column(pd.DataFrame({"col": values * 4}))["col"]
    assert (got.kind, got.role) == (kind, role)
    assert got.reason.startswith("100% of sampled values")


def test_out_of_range_ipv4_octets_are_not_ipv4():
    got = by_column(pd.DataFrame({"col": ["256.1.1.1", "1.2.3.999", "300.300.300.300"] * 4}))
    assert got["col"].kind != "ipv4"


def test_phone_needs_a_singapore_first_digit():
    got = by_column(pd.DataFrame({"col": ["71234567", "51234567", "11234567"] * 4}))
    assert got["col"].kind != "phone"


def test_postal_code_reason_mentions_the_ambiguity():
    got = by_column(pd.DataFrame({"col": [117438, 828755, 208215, 570150]}))["col"]
    assert got.kind == "postal_code"
    assert "other 6-digit codes look the same" in got.reason
    assert got.uncertain  # issue 26: a person decides


def test_name_wins_over_an_ambiguous_shape():
    # 8 digits starting with 8 or 9 look like phone numbers, but the name says account number.
    # (Spread out: 20 consecutive numbers 90000000-90000019 read as codes, issue 26.)
    values = [f"{8 + i % 2}{(i * 2_654_435 + 1_234_567) % 8_000_000:07d}" for i in range(20)]
    got = by_column(pd.DataFrame({"account_no": values, "HP": values}))
    assert got["account_no"].kind == "account_number"
    assert got["HP"].kind == "phone"
    assert got["HP"].reason.startswith("The column name 'HP' suggests a phone number, and 100%")


@pytest.mark.parametrize(
    ("name", "kind", "role"),
    [
        ("NRIC", "nric", Role.DIRECT),
        ("fin_no", "nric", Role.DIRECT),
        ("financial_year", None, None),  # "fin" inside a word is not FIN
        ("Email Address", "email", Role.DIRECT),
        ("mobileNo", "phone", Role.DIRECT),
        ("hp", "phone", Role.DIRECT),
        ("zipcode", "postal_code", Role.INDIRECT),
        ("DOB", "date_of_birth", Role.INDIRECT),
        ("home_address", "address", Role.INDIRECT),
        ("car_plate", "vehicle_plate", Role.INDIRECT),
        ("IU number", "iu_number", Role.INDIRECT),
        ("ip", "ip_address", Role.INDIRECT),
        ("sex", "gender", Role.INDIRECT),
        ("race", "group", Role.INDIRECT),
        ("age", "measurement", Role.INDIRECT),
        ("weight_kg", "measurement", Role.INDIRECT),
        ("job_title", "job_title", Role.INDIRECT),
        ("company_name", "company", Role.INDIRECT),
        ("monthly_salary", "money", Role.TARGET),
        ("diagnosis", "sensitive", Role.TARGET),
        ("patient_id", "identifier_like", Role.DIRECT),
    ],
)
def test_column_name_hints(name, kind, role):
    # Values with no recognisable shape, so only the name can decide.
    got = by_column(pd.DataFrame({name: ["a", "b", "a", "b"]}))[name]
    if kind is None:
        assert got.role is Role.OTHER
    else:
        assert (got.kind, got.role) == (kind, role)
        assert got.reason.startswith(f"The column name '{name}' suggests")


def test_numeric_measurements_by_name():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "height_cm": rng.normal(165, 10, 50).round(1),
            "Age": rng.integers(18, 90, 50),
            "amount": rng.normal(50, 5, 50).round(2),
        }
    )
    got = by_column(df)
    assert (got["height_cm"].kind, got["height_cm"].role) == ("measurement", Role.INDIRECT)
    assert got["Age"].role is Role.INDIRECT
    assert "ranges of 5 or 10" in got["Age"].technique
    assert got["amount"].role is Role.TARGET


def test_near_unique_codes_are_direct_but_measurements_are_not():
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {
            "ref": [f"A{i:05d}X{i % 7}" for i in range(100)],
            "code": rng.permutation(100) + 1000,
            "reading": rng.normal(0, 1, 100),
        }
    )
    got = by_column(df)
    # Letter-and-digit codes, all distinct: record/account/licence style codes (issue 16).
    assert (got["ref"].kind, got["ref"].role) == ("identifier_like", Role.DIRECT)
    assert "codes of letters and digits and 100% are distinct" in got["ref"].reason
    assert got["code"].kind == "near_unique"
    assert got["reading"].kind == "measurement"
    assert got["reading"].role is Role.OTHER


def test_free_text_is_flagged_for_removal_or_review():
    notes = [
        f"Customer {i} called about the delivery and asked us to call back later today"
        for i in range(30)
    ]
    got = by_column(pd.DataFrame({"remarks": notes}))["remarks"]
    assert (got.kind, got.role) == ("free_text", Role.DIRECT)
    assert "remove" in got.technique and "review" in got.technique


def test_dates_and_date_of_birth():
    dates = pd.date_range("1960-01-01", periods=40, freq="97D")
    df = pd.DataFrame(
        {
            "birthday": dates.strftime("%d %b %Y"),  # e.g. "1 Feb 2003" as in Annex B
            "visited": dates,  # datetime dtype
            "when": dates.strftime("%Y-%m-%d"),
        }
    )
    got = by_column(df)
    assert (got["birthday"].kind, got["birthday"].role) == ("date_of_birth", Role.INDIRECT)
    assert got["visited"].kind == "date" and got["visited"].role is Role.INDIRECT
    assert got["when"].kind == "date"


def test_missing_values_empty_columns_and_empty_table():
    df = pd.DataFrame({"email": [None, "a@b.com", "c@d.org", None], "nothing": [None] * 4})
    got = by_column(df)
    assert "100% of sampled values" in got["email"].reason  # missing not counted
    assert got["nothing"].kind == "empty"
    assert suggest_roles(pd.DataFrame()) == []


def test_sample_size_limits_the_values_looked_at():
    # 3 emails then 97 other values: with all values the share is 3%, not an email column.
    df = pd.DataFrame({"x": ["a@b.com"] * 3 + [f"v{i}" for i in range(97)]})
    assert by_column(df)["x"].kind != "email"
    with pytest.raises(ParameterError):
        suggest_roles(df, sample_size=0)


def test_suggestions_are_reproducible():
    values = [f"user{i}@example.com" for i in range(3000)] + [f"x{i}" for i in range(3000)]
    df = pd.DataFrame({"c": values})
    assert suggest_roles(df, sample_size=500) == suggest_roles(df, sample_size=500)


@settings(max_examples=15, deadline=None)
@given(
    data_frames(
        [
            column("a", dtype=str, elements=st.text(max_size=12)),
            column("b", dtype=float, elements=st.floats(allow_nan=True, allow_infinity=False)),
            column("email", elements=st.one_of(st.none(), st.sampled_from(["a@b.co", "x@y.org"]))),
        ]
    )
)
def test_suggestions_never_change_the_data(df):
    before = df.copy(deep=True)
    result = suggest_roles(df)
    pd.testing.assert_frame_equal(df, before)
    assert [s.column for s in result] == list(df.columns)


def test_a_count_named_number_of_is_not_an_identifier():
    # PDPC guide, Annex C: "Average number of trips per week" is the target attribute.
    df = pd.DataFrame(
        {
            "Serial number": range(1, 12),
            "Average number of trips per week": [15, 2, 8, 3, 1, 5, 3, 4, 2, 11, 0],
        }
    )
    roles = {s.column: s.role for s in suggest_roles(df)}
    # The example keeps its "Serial number" (1..11, one per row) after anonymisation: a
    # row number, unique to a row and not to a person, is not a direct identifier.
    assert roles["Serial number"] == Role.OTHER
    assert roles["Average number of trips per week"] != Role.DIRECT


# --- Issue 16: Step 1 reads the values (names, phones, addresses, IDs) ------------------


def test_values_decide_when_headers_say_nothing():
    names = [
        "Yeo Jia Hui",
        "Ravi bin Abdullah",
        "Sarah Pereira",
        "Rajesh s/o Kumar",
        "Ng Kok Leong",
        "Siti Nurhaliza binte Ahmad",
        "Lim Wei Jie",
        "Daniel Tan",
        "Priya d/o Ramasamy",
        "Goh Siew Lee",
    ]
    phones = [
        "+1 617-555-0100",
        "+44 20 7946 0000",
        "+65 9123 4567",
        "+1 617-555-0142",
        "+44 20 7946 0123",
        "+65 8123 4567",
        "9876 5432",
        "+1 617-555-0199",
        "+44 161 496 0000",
        "+65 6123 4567",
    ]
    addresses = [
        f"{10 + i} Clementi Avenue {i % 5 + 1} #0{i % 9 + 1}-5{i} Singapore 80679{i}"
        for i in range(10)
    ]
    ssns = [f"{123 + i}-45-67{i:02d}" for i in range(10)]
    df = pd.DataFrame({"c1": names, "c2": phones, "c3": addresses, "c4": ssns, "patient": names})
    got = by_column(df)
    assert (got["c1"].kind, got["c1"].role) == ("name", Role.DIRECT)
    assert "100% of sampled values look like person names" in got["c1"].reason
    assert "known given or family name" in got["c1"].reason
    assert (got["c2"].kind, got["c2"].role) == ("phone", Role.DIRECT)
    assert "90% written with a country code" in got["c2"].reason  # 9 of 10 start with +
    assert got["c3"].kind == "address" and got["c3"].role is Role.INDIRECT
    assert (got["c4"].kind, got["c4"].role) == ("ssn", Role.DIRECT)
    assert got["patient"].kind == "name"


def test_months_and_colours_are_not_names():
    df = pd.DataFrame(
        {
            "c1": ["January", "May", "June", "April", "March", "May", "August"],
            "c2": ["Tan", "Red", "Blue", "Green", "Rose", "Brown", "White"],
        }
    )
    got = by_column(df)
    assert got["c1"].kind != "name" and got["c2"].kind != "name"
    # "Tan" among surnames: the column is a column of names (Tan alone is not counted, the
    # other 9 of 10 are known surnames: 90%).
    surnames = ["Tan", "Lim", "Ng", "Yeo", "Goh", "Lee", "Wong", "Teo", "Ong", "Chua"]
    (s,) = suggest_roles(pd.DataFrame({"c3": surnames}))
    assert s.kind == "name" and "90% of sampled values look like person names" in s.reason


def test_mixed_empty_long_and_non_latin_columns_have_reasons():
    names = ["Yeo Jia Hui", "Ravi bin Abdullah", "Sarah Pereira", "Ng Kok Leong", "Lim Wei Jie"]
    codes = ["MRN20391A", "MRN55102B", "MRN88310C", "MRN10293D", "MRN44821E"]
    long_note = "Patient reports mild pain. " * 4000 + "Call Tan Wei Ling on +65 9123 4567."
    assert len(long_note) > 100_000
    df = pd.DataFrame(
        {
            "c1": names + codes,
            "c2": [None] * 10,
            "c3": [long_note] + ["short note about the visit, nothing more to say"] * 9,
            "c4": [
                "ராஜேஷ் குமார் வீட்டில் இருக்கிறார்",
                "பிரியா",
                "கவிதா",
                "லட்சுமி",
                "அருண்",
                "சுரேஷ்",
                "மீனா",
                "திவ்யா",
                "கணேஷ்",
                "ரவி",
            ],
        }
    )
    got = by_column(df)
    assert (got["c1"].kind, got["c1"].role) == ("mixed", Role.DIRECT)
    assert "50% names" in got["c1"].reason and "50% letter-and-digit codes" in got["c1"].reason
    assert got["c2"].kind == "empty"
    assert got["c3"].kind in {"category", "text", "free_text"}
    assert "written in Tamil" in got["c4"].reason


def test_free_text_reason_counts_what_the_scanner_found():
    notes = [
        f"Referral letter emailed to p{i}@clinic.example; call back on +1 617-555-01{i:02d}"
        for i in range(20)
    ]
    (s,) = suggest_roles(pd.DataFrame({"c9": notes}))
    assert s.kind == "free_text"
    assert "email in 100%" in s.reason and "phone in 100%" in s.reason
