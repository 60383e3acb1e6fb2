"""Near-unique columns that are not direct identifiers: row numbers, amounts, lot numbers.

A column whose values are all (or almost all) distinct looks like a key, and Step 1 calls
such a column direct. The PDPC guide (Step 1, "Know your data", classification table)
calls *direct* the attributes "unique to an individual" that "can be used as key data
attributes to re-identify an individual": name, NRIC, account number, and in its
examples the staff ID and customer ID. Being distinct in one table is not enough:

- a running row number (1, 2, 3 ... n) is unique to a row of this table, not to a
  person: the guide's own worked examples (Annex A, generalisation; Annex C, k-anonymity)
  keep their "Serial number" column after anonymisation. It is "other", with one caution
  from the guide ("D. Inferred information"): if rows follow the order records were
  collected, shuffle them;
- an amount (1234.50, 12,500.00) is a quantity, not a key; amounts of transactions and
  salaries are *target* attributes (classification table), a height or weight an
  indirect one, so the column is "other" for a person to place;
- a lot or batch number names a batch of goods that many people share: "other"; so does
  a product, SKU, article or model code (headers in English and the header-word
  languages of :mod:`core.detect.header_words`);
- an invoice, receipt, order or transaction number (also ``no_resit``,
  ``factura``, ``Rechnungsnummer``...) is unique to one record of one person's purchase, and leads to that person through the issuer's records, as an
  account number or customer ID does: it stays direct, marked uncertain so a person
  decides (drop or pseudonymise it unless the recipient can never look it up).

:func:`review_unique_column` applies these rules to a suggestion Step 1 has made.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pandas as pd

from core.roles import Role, Suggestion

# Kinds Step 1 gives a column because it is unique, not because of what it holds.
UNIQUE_KINDS = frozenset({"near_unique", "identifier_like", "code"})


def needs_review(suggestion: Suggestion) -> bool:
    """Whether :func:`review_unique_column` may change the suggestion: a column called
    direct for being unique, or 6-digit numbers taken for postal codes by their shape alone
    (the row numbers of a table of 100,000 to 999,999 rows have that shape)."""
    if suggestion.role == "direct" and suggestion.kind in UNIQUE_KINDS:
        return True
    return suggestion.kind == "postal_code" and suggestion.judged_by == "content"


# Header words, on the lower-case words of core.schema._name_words ("Row No." -> row_no).
_ROW_WORDS = re.compile(
    r"(?:^|_)(?:row|rows|no|num|nr|number|index|idx|s_?n|sno|serial|seq|sequence|line|"
    r"entry|item|count|unnamed|n)(?:_|$)|^$"
)
_PERSON_WORDS = re.compile(
    r"(?:^|_)(?:customer|cust|client|patient|staff|employee|emp|member|student|user|"
    r"account|acct|acc|person|applicant|citizen|passport|nric|ic|fin|policy|card|"
    r"contact|subscriber|holder|mrn|case|pupil|worker)(?:_|$)"
)
# "id" alone says nothing of whose: a row number under it may be a person's key elsewhere.
_ID_WORDS = re.compile(r"(?:^|_)(?:id|uid|key|pk)(?:_|$)")
# Not 'ref'/'reference': a bare reference is as often a patient's or a customer's own
# reference, a key to the person like a customer ID, so it stays a sure direct identifier.
_RECORD_WORDS = re.compile(
    r"(?:^|_)(?:invoice|inv|receipt|rcpt|order|txn|transaction|trans|booking|ticket|"
    r"voucher|bill|consignment|tracking|awb|"
    # the header-word languages of core.detect.header_words: Malay and Indonesian
    # (invois, resit, pesanan, faktur, kwitansi, tempahan), Filipino (resibo), Spanish
    # (factura, recibo, pedido), French (facture, recu, commande), German
    # (Rechnung..., Quittung, Bestellung..., Auftrag...: compounds such as Rechnungsnummer)
    r"invois|resit|pesanan|faktur|kwitansi|tempahan|resibo|factura|recibo|pedido|"
    r"facture|recu|commande|quittung|rechnung\w*|bestell\w*|auftrag\w*)(?:_|$)"
)
_BATCH_WORDS = re.compile(r"(?:^|_)(?:lot|batch|bin|pallet|shipment|lote|lotto)(?:_|$)")
# A product, article or model code names goods many people buy, not a person (English,
# Malay/Indonesian produk/barang, Filipino produkto, Spanish producto/articulo, French
# produit/article, German Produkt.../Artikel...).
_PRODUCT_WORDS = re.compile(
    r"(?:^|_)(?:product|prod|sku|upc|ean|gtin|barcode|part|model|catalogue|catalog|"
    r"article|produk|barang|produkto|producto|articulo|produit|produkt\w*|artikel\w*)"
    r"(?:_|$)"
)
# An amount as people write one: cents (1234.50, 89.9: one or two decimals, never the
# four or more of a coordinate), thousands grouped (12,500.00; 1.234,50), or a currency
# before or after (RM 89.90, S$12, 45.00 AUD); a refund may stand in brackets.
_CURRENCY = (
    r"(?:[$\u00a3\u20ac\u00a5\u20b9\u20b1\u20a9\u0e3f]|(?:S|A|US|HK|NZ|C)\$|RM|MYR|SGD|USD|AUD|"
    r"PHP|IDR|Rp|INR|Rs\.?|EUR|GBP|JPY|CNY|RMB|HKD|NZD|THB|VND|KRW|CAD)"
)
_FIGURE = (
    r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]{1,2})?"  # 12,500 / 12,500.00
    r"|[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]{1,2}"  # 12.500,00
    r"|[0-9]+[.,][0-9]{1,2}"  # 1234.50 / 89,9
)
_AMOUNT = (
    rf"\(?[-+]?(?:{_CURRENCY} ?[-+]?(?:{_FIGURE}|[0-9]+)|(?:{_FIGURE})(?: ?{_CURRENCY})?"
    rf"|[0-9]+ ?{_CURRENCY})\)?"
)
_WHOLE = r"[-+]?[0-9]+"
# Most values written as amounts, the rest whole numbers (1200 for 1,200.00).
_AMOUNT_SHARE = 0.5
_NUMBER_SHARE = 0.9

_STEP1 = "PDPC guide, Step 1"
_TECHNIQUE_ROW = (
    "keep it only if needed (it says nothing about the person); if the rows follow the "
    "order records were collected, shuffle them before sharing (PDPC guide, "
    "'D. Inferred information')"
)
_TECHNIQUE_AMOUNT = (
    "keep as it is if it is a target attribute (amounts); if it describes the person "
    "(height, weight), generalise into ranges or perturb (Annex B)"
)
_TECHNIQUE_BATCH = "keep it only if needed; otherwise remove it (data minimisation, Step 1)"


def row_number_start(series: pd.Series) -> int | None:
    """1 or 0 when the column is a running row number (no value missing, its values exactly
    the whole numbers 1..n or 0..n-1, in any order), else None."""
    n = len(series)
    if n < 2 or series.isna().any() or pd.api.types.is_bool_dtype(series):
        return None
    if pd.to_numeric(series.iloc[:100], errors="coerce").isna().any():
        return None  # codes: no need to read a million of them as numbers
    numbers = pd.to_numeric(series, errors="coerce")
    if numbers.isna().any():
        return None
    first, last = numbers.min(), numbers.max()
    running = (
        first in (0, 1)
        and last - first == n - 1
        and bool((numbers % 1 == 0).all())
        and numbers.nunique() == n
    )
    return int(first) if running else None


def amount_share(text: pd.Series) -> float:
    """Share of values written as amounts (cents, thousands grouped or a currency), or 0
    when fewer than 90% of the values are amounts or whole numbers."""
    if text.empty:
        return 0.0
    amounts = text.str.fullmatch(_AMOUNT).fillna(False).astype(bool)
    whole = text.str.fullmatch(_WHOLE).fillna(False).astype(bool)
    share = float(amounts.mean())
    return share if float((amounts | whole).mean()) >= _NUMBER_SHARE else 0.0


def review_unique_column(
    suggestion: Suggestion, series: pd.Series, text: pd.Series, header: str
) -> Suggestion:
    """Step 1's suggestion for a column called direct for being unique (or a postal code
    for its shape), revised by what the column is: a row number, amounts, lot numbers
    ("other"), or record numbers (direct, uncertain). ``text`` is the sampled values as
    text, ``header`` the column's name as lower-case words; other suggestions come back
    unchanged (see :func:`needs_review`)."""
    if not needs_review(suggestion):
        return suggestion
    postal = suggestion.kind == "postal_code"
    amounts = 0.0 if postal else amount_share(text)
    if amounts >= _AMOUNT_SHARE:
        return replace(
            suggestion,
            role=Role.OTHER,
            kind="measurement",
            reason=(
                f"{amounts:.0%} of sampled values are written as amounts (cents, thousands "
                "grouped or a currency, like 1234.50, 12,500.00 or RM 89.90), the rest as whole "
                "numbers: amounts or measurements, "
                "which are distinct but are not keys, so not a direct identifier "
                f"({_STEP1}: direct identifiers are unique to a person, like an account "
                "number). An amount such as a purchase or salary is a target attribute, a "
                "height or weight an indirect identifier: decide which."
            ),
            technique=_TECHNIQUE_AMOUNT,
            uncertain=True,
            judged_by="content",
        )
    person = bool(_PERSON_WORDS.search(header))
    start = row_number_start(series)
    if start is not None and not _RECORD_WORDS.search(header):
        span = f"{start:,} to {start + len(series) - 1:,}"
        keyed = person or _ID_WORDS.search(header)
        if postal and keyed:
            return suggestion
        if keyed or not (_ROW_WORDS.search(header) or suggestion.judged_by == "content"):
            return replace(
                suggestion,
                reason=(
                    f"{suggestion.reason} Its values are also {span}, one per row, "
                    "like a row number: if it only numbers the rows, it is not a direct "
                    f"identifier; if it is the key of a person in another system, it is "
                    f"({_STEP1})."
                ),
                uncertain=True,
            )
        return replace(
            suggestion,
            role=Role.OTHER,
            kind="row_number",
            reason=(
                f"The values are the whole numbers {span}, one per row: a running row "
                "number. It is unique to a row of this table, not to a "
                f"person, so it is not a direct identifier ({_STEP1}; the guide's own "
                "examples keep their 'Serial number' column after anonymisation, Annexes A "
                "and C). If the rows follow the order records were collected, shuffle them "
                "(PDPC guide, 'D. Inferred information')."
            ),
            technique=_TECHNIQUE_ROW,
            uncertain=False,
            judged_by="content",
        )
    if postal:
        return suggestion
    if _PRODUCT_WORDS.search(header) and not person:
        return replace(
            suggestion,
            role=Role.OTHER,
            kind="code",
            reason=(
                f"The column name '{suggestion.column}' says a product, article or model "
                "code, and its values match no personal identifier's format: a product is "
                "bought by many people and names none of them, so it is not a direct "
                f"identifier ({_STEP1}: direct identifiers are unique to an individual), "
                "even when each row here holds a different one. Check that the codes are "
                "not issued one per buyer."
            ),
            technique=_TECHNIQUE_BATCH,
            uncertain=True,
        )
    if _BATCH_WORDS.search(header) and not person:
        return replace(
            suggestion,
            role=Role.OTHER,
            kind="code",
            reason=(
                f"The column name '{suggestion.column}' says a lot or batch number: its values "
                "are distinct here, but a lot names a batch of goods that many people share, "
                f"not a person, so it is not a direct identifier ({_STEP1}: direct "
                "identifiers are unique to an individual). Check that it never leads to one "
                "buyer."
            ),
            technique=_TECHNIQUE_BATCH,
            uncertain=True,
        )
    if _RECORD_WORDS.search(header) and not person:
        return replace(
            suggestion,
            reason=(
                f"{suggestion.reason} The column name says a record number (invoice, "
                "receipt, order, transaction): unique to one purchase, not to a person, but "
                "it leads to the person through the issuer's records, as an account number "
                f"or customer ID does ({_STEP1}), so it is treated as direct. Decide: keep "
                "it as direct (remove or pseudonymise) unless the recipient can never look "
                "it up."
            ),
            uncertain=True,
        )
    return suggestion
