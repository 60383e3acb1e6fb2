"""Product and record codes in Step 1 (issue 26): a column of unique codes matching no
personal identifier's format is not called a plain direct identifier when its header says
what it is: a product, SKU, article or model code is "other" (goods many people buy name
none of them), and an invoice, receipt or order number in the header-word
languages is a record number left for a person to decide (direct, uncertain, as in
English); a header naming a person keeps it direct.
"""

from __future__ import annotations

import pandas as pd
import pytest

from core.schema import Role, suggest_roles

N = 80


def _one(header: str, values: list[str]):
    return suggest_roles(pd.DataFrame({header: values}))[0]


@pytest.mark.parametrize(
    "header", ["product_code", "SKU", "Kod Produk", "Artikelnummer", "Model No"]
)
def test_product_codes_are_not_direct(header: str) -> None:
    codes = [f"PRD-{i:05d}-{'XYZ'[i % 3]}" for i in range(N)]
    suggestion = _one(header, codes)
    assert suggestion.role == Role.OTHER, suggestion
    assert suggestion.uncertain and "product" in suggestion.reason


@pytest.mark.parametrize("header", ["no_resit", "N° de facture", "Rechnungsnummer", "No Pesanan"])
def test_record_numbers_of_other_languages_are_left_to_decide(header: str) -> None:
    codes = [f"R{i * 13 + 1000:06d}" for i in range(N)]
    suggestion = _one(header, codes)
    assert (suggestion.role, suggestion.uncertain) == (Role.DIRECT, True), suggestion
    assert "record number" in suggestion.reason and "Decide" in suggestion.reason


def test_a_persons_code_stays_direct() -> None:
    codes = [f"PX{i:06d}" for i in range(N)]
    for header in ("customer_product", "patient_ref"):
        suggestion = _one(header, codes)
        assert (suggestion.role, suggestion.uncertain) == (Role.DIRECT, False), suggestion
