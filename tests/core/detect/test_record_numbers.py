"""Step 1 on distinct columns that are not direct identifiers (PDPC guide, Step 1: direct
identifiers are "unique to an individual"): row numbers, amounts, lot numbers; and record
numbers (invoice, receipt, order), kept direct but left for a person to decide."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.safe_harbor import apply_safe_harbor
from core.schema import Role, suggest_roles

N = 60


def by_column(df: pd.DataFrame) -> dict:
    return {s.column: s for s in suggest_roles(df)}


def shuffled_row_numbers(start: int = 1) -> np.ndarray:
    return np.random.default_rng(3).permutation(np.arange(start, start + N))


@pytest.mark.parametrize("header", ["no", "#", "c3", "S/N", "Row No.", "serial_no", "Unnamed: 0"])
def test_a_running_row_number_is_not_a_direct_identifier(header):
    for values in (np.arange(1, N + 1), shuffled_row_numbers(), shuffled_row_numbers(0)):
        for column in (values, values.astype(str)):
            got = by_column(pd.DataFrame({header: column}))[header]
            assert (got.role, got.kind, got.uncertain) == (Role.OTHER, "row_number", False)
            assert "not a direct identifier" in got.reason and "Step 1" in got.reason


def test_a_row_number_under_a_persons_key_stays_direct_but_is_questioned():
    # 'staff_id' 1..n may be the staff ID of the guide's Example 1 (direct) or only rows.
    for header in ("staff_id", "id"):
        got = by_column(pd.DataFrame({header: np.arange(1, N + 1)}))[header]
        assert (got.role, got.uncertain) == (Role.DIRECT, True)
        assert f"1 to {N}" in got.reason and "row number" in got.reason


def test_distinct_numbers_with_a_gap_are_not_a_row_number():
    # 1..61 without 30: not one number per row, so Step 1 still calls them near-unique.
    values = [v for v in range(1, N + 2) if v != 30]
    got = by_column(pd.DataFrame({"c1": values}))["c1"]
    assert (got.role, got.kind) == (Role.DIRECT, "near_unique")


def test_amounts_are_not_direct_identifiers():
    rng = np.random.default_rng(5)
    cents = rng.choice(np.arange(100, 5_000_000), N, replace=False)
    amounts = {
        "c1": [f"{c / 100:.2f}" for c in cents],  # 1234.50, 89.90
        "c2": [f"{c / 100:,.2f}" for c in cents],  # 12,500.00
        "total_rm": [f"{c / 100:,.2f}" for c in cents],
    }
    got = by_column(pd.DataFrame(amounts))
    for column in amounts:
        assert got[column].role is Role.OTHER and got[column].uncertain, got[column]
        assert got[column].kind == "measurement"
        assert "target attribute" in got[column].reason  # the guide's transactions, salary


def test_record_numbers_stay_direct_and_lot_numbers_do_not():
    rng = np.random.default_rng(9)
    codes = rng.choice(np.arange(10_000, 99_999), N, replace=False)
    df = pd.DataFrame(
        {
            "invoice_no": [f"INV-{c}" for c in codes],
            "receipt#": [f"R{c}X" for c in codes],
            "order_id": codes + 1_000_000,
            "lot_no": [f"LOT{c}" for c in codes],
            "customer_id": [f"C{c}" for c in codes],
        }
    )
    got = by_column(df)
    for column in ("invoice_no", "receipt#", "order_id"):
        assert (got[column].role, got[column].uncertain) == (Role.DIRECT, True), got[column]
        assert "treated as direct" in got[column].reason and "Decide" in got[column].reason
    assert (got["lot_no"].role, got["lot_no"].uncertain) == (Role.OTHER, True)
    assert "batch" in got["lot_no"].reason
    # A customer ID is direct in the guide's Example 2: unchanged, not questioned.
    assert (got["customer_id"].role, got["customer_id"].uncertain) == (Role.DIRECT, False)


def test_safe_harbor_keeps_a_row_number_and_removes_invoice_numbers():
    # HIPAA (R) "any other unique identifying number": the invoice number goes; a row
    # number identifies no one and stays.
    df = pd.DataFrame(
        {
            "no": np.arange(1, N + 1),
            "invoice_no": [f"INV-{c}" for c in range(50_000, 50_000 + N)],
            "diagnosis": ["I20", "E11", "J06"] * (N // 3),
        }
    )
    out = apply_safe_harbor(df, reference_date="2026-11-28").data
    assert "invoice_no" not in out.columns
    assert out["no"].tolist() == list(range(1, N + 1))


def test_amounts_with_a_currency_or_some_whole_values_are_not_direct_identifiers():
    # Amounts as exports write them: a currency before or after, some whole (1200), a
    # refund in brackets, a comma for the decimals (Europe).
    rng = np.random.default_rng(11)
    cents = rng.choice(np.arange(100, 5_000_000), N, replace=False)
    columns = {
        "c1": [f"RM {c / 100:,.2f}" for c in cents],
        "c2": [f"RM{c / 100:.2f}" for c in cents],
        "c3": [f"\u20b1{c / 100:,.2f}" for c in cents],  # peso sign
        "c4": [f"{c / 100:.2f} AUD" for c in cents],
        "c5": [f"({c / 100:.2f})" if c % 7 == 0 else f"{c / 100:.2f}" for c in cents],
        "c6": [str(c // 100) if c % 3 == 0 else f"{c / 100:.2f}" for c in cents],  # 1/3 whole
        "c7": [f"{c // 100:,}".replace(",", ".") + f",{c % 100:02d}" for c in cents],  # 1.234,50
    }
    got = by_column(pd.DataFrame(columns))
    for column in columns:
        assert (got[column].role, got[column].kind) == (Role.OTHER, "measurement"), got[column]


def test_codes_shaped_like_numbers_are_not_amounts():
    # Whole numbers alone, coordinates to 5 decimals and dotted codes stay near-unique.
    rng = np.random.default_rng(13)
    codes = rng.choice(np.arange(1_000_000, 9_999_999), N, replace=False)
    columns = {
        "c1": [str(c) for c in codes],
        "c2": [f"1.{c}" for c in codes],  # 1.3521034 ... a latitude near Singapore
        "c3": [f"{c // 10_000}.{c % 1000:03d}.{c % 97:02d}" for c in codes],
    }
    got = by_column(pd.DataFrame(columns))
    for column in columns:
        assert got[column].role is Role.DIRECT, got[column]


def test_the_row_numbers_of_a_large_table_are_not_postal_codes():
    # 1..1,000,000: 90% of them have 6 digits, the shape of a Singapore postal code.
    n = 1_000_000
    got = by_column(pd.DataFrame({"c1": np.arange(1, n + 1), "c2": np.arange(n)}))
    for column in ("c1", "c2"):
        assert (got[column].role, got[column].kind) == (Role.OTHER, "row_number"), got[column]
        assert "1,000,000" in got["c1"].reason or column == "c2"
