"""Step 1 and Safe Harbor on a fourth, hand-written set of other countries' formats (issue 26).

``bench/data/eval4/`` holds seven small exports written by hand on 28 Nov 2026 *before* the
detectors of that day's changes (headers beyond English, national ID numbers, Malay and
Indonesian months) were written, and never used to tune them: a patient list from
Indonesia, a Hong Kong clinic (headers in traditional Chinese), Spanish customers, German
staff, Filipino patients (headers in Tagalog), Australian staff and French patients; 6 people
each, 42 rows, 408 cells. Identity numbers carry valid check digits computed from the
published rules (HKID, Spanish DNI, Australian TFN and Medicare); NIKs encode the birth
date (+40 for women) after a real province code; PhilSys numbers are made up in 4-4-4 form.
Four people are 90 or older. Read the way a user's file is read (:func:`core.io.read_table`).

Printed:

1. **Step 1** (:func:`core.schema.suggest_roles`): direct-identifier columns called direct,
   indirect columns called an identifier, target columns called direct (false alarms), and
   every column the project got wrong;
2. **Safe Harbor** (:func:`core.safe_harbor.apply_safe_harbor`): personal values left per
   1,000 cells: a whole-value identifier (name, ID, phone, email) still in its cell, an
   address or its street line, a postal code or town kept whole (HIPAA B), a date of birth
   showing more than its year (C), the exact age of a person aged 90 or more (C);
3. the same count for presidio (bench/requirements-bench.txt) redacting every such cell
   on its own (it sees values, not headers; phones of the seven countries switched on).

Run: ``.venv/bin/python bench/bench_detect_eval4.py`` (``--no-presidio`` for the project alone).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.eval_common import REFERENCE_DATE  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval4"

# column -> (true role in Step 1, what Safe Harbor must do with it): "whole" (A, D, F, G/R:
# the value must go), "address" (B: the street line must go), "place" (B: a town or a
# postal code kept whole is left), "date" (C: only the year may stay), "age" (C: 90+ may
# not stay exact), "" (not a Safe Harbor identifier).
TRUTH: dict[str, dict[str, tuple[str, str]]] = {
    "id_pasien.csv": {
        "Nama Lengkap": ("direct", "whole"),
        "NIK": ("direct", "whole"),
        "Tgl. Lahir": ("indirect", "date"),
        "Alamat Rumah": ("indirect", "address"),
        "Kode Pos": ("indirect", "place"),
        "No. HP": ("direct", "whole"),
        "Jenis Kelamin": ("indirect", ""),
        "Usia": ("indirect", "age"),
        "Pekerjaan": ("indirect", ""),
        "Diagnosa": ("target", ""),
    },
    "hk_clinic.csv": {
        "姓名": ("direct", "whole"),
        "身份證號碼": ("direct", "whole"),
        "出生日期": ("indirect", "date"),
        "聯絡電話": ("direct", "whole"),
        "住址": ("indirect", "address"),
        "性別": ("indirect", ""),
        "年齡": ("indirect", "age"),
        "診斷": ("target", ""),
    },
    "es_clientes.csv": {
        "Nombre": ("direct", "whole"),
        "Apellidos": ("direct", "whole"),
        "DNI": ("direct", "whole"),
        "Fecha de Nacimiento": ("indirect", "date"),
        "Dirección": ("indirect", "address"),
        "Código Postal": ("indirect", "place"),
        "Teléfono": ("direct", "whole"),
        "Correo Electrónico": ("direct", "whole"),
        "Sexo": ("indirect", ""),
        "Importe": ("target", ""),
    },
    "de_mitarbeiter.csv": {
        "Vorname": ("direct", "whole"),
        "Nachname": ("direct", "whole"),
        "Geburtsdatum": ("indirect", "date"),
        "Straße": ("indirect", "address"),
        "PLZ": ("indirect", "place"),
        "Wohnort": ("indirect", "place"),
        "Telefonnummer": ("direct", "whole"),
        "E-Mail-Adresse": ("direct", "whole"),
        "Geschlecht": ("indirect", ""),
        "Alter": ("indirect", "age"),
        "Abteilung": ("indirect", ""),
    },
    "ph_pasyente.csv": {
        "Pangalan": ("direct", "whole"),
        "Apelyido": ("direct", "whole"),
        "PhilSys Number": ("direct", "whole"),
        "Kaarawan": ("indirect", "date"),
        "Tirahan": ("indirect", "address"),
        "Numero ng Telepono": ("direct", "whole"),
        "Kasarian": ("indirect", ""),
        "Edad": ("indirect", "age"),
        "Hanapbuhay": ("indirect", ""),
        "Sakit": ("target", ""),
    },
    "au_staff.csv": {
        "Given Names": ("direct", "whole"),
        "Surname": ("direct", "whole"),
        "TFN": ("direct", "whole"),
        "Medicare Number": ("direct", "whole"),
        "DOB": ("indirect", "date"),
        "Suburb": ("indirect", "place"),
        "Postcode": ("indirect", "place"),
        "Mobile": ("direct", "whole"),
        "Weekly Hours": ("target", ""),
    },
    "fr_patients.csv": {
        "Nom": ("direct", "whole"),
        "Prénom": ("direct", "whole"),
        "Date de naissance": ("indirect", "date"),
        "Adresse": ("indirect", "address"),
        "Code postal": ("indirect", "place"),
        "Ville": ("indirect", "place"),
        "Téléphone": ("direct", "whole"),
        "Courriel": ("direct", "whole"),
        "Sexe": ("indirect", ""),
        "Âge": ("indirect", "age"),
    },
}
# What Safe Harbor may leave of a date: a year, "1935 or earlier", "90+".
_YEAR_PARTS = re.compile(r"\b\d{4}(?:\.0)?\b|\bor\s+(?:earlier|before)\b|<=?|90\+")
PRESIDIO_LABELS = {
    "PERSON": "NAME",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "LOCATION": "ADDRESS",
    "DATE_TIME": "DATE",
    "SG_NRIC_FIN": "ID",
    "US_SSN": "ID",
    "AU_MEDICARE": "ID",
    "AU_TFN": "ID",
    "ES_NIF": "ID",
    "PH_TIN": "ID",
    "PH_UMID": "ID",
}
PRESIDIO_RECOGNIZERS = (
    "SgFinRecognizer",
    "AuMedicareRecognizer",
    "AuTfnRecognizer",
    "EsNifRecognizer",
    "PhTinRecognizer",
    "PhUmidRecognizer",
)
PRESIDIO_REGIONS = ("ID", "HK", "ES", "DE", "PH", "AU", "FR")


def load() -> dict[str, pd.DataFrame]:
    from core.io import read_table

    return {name: read_table(DATA / name) for name in TRUTH}


def _text(values: pd.Series) -> list[str]:
    return ["" if pd.isna(v) else str(v).strip() for v in values]


def left_in(check: str, before: pd.Series, after: pd.Series | None) -> list[bool]:
    """Which personal values of one column stay in ``after`` (None: the column was dropped)."""
    old = _text(before)
    new = _text(after) if after is not None else [""] * len(old)
    if check == "whole" or check == "place":
        return [bool(a) and a in b for a, b in zip(old, new, strict=True)]
    if check == "address":
        street = [a.split(",")[0].strip() for a in old]
        return [bool(s) and s in b for s, b in zip(street, new, strict=True)]
    if check == "date":  # a day or a month left: a digit or the original beyond the year
        return [
            (bool(a) and a in b) or bool(re.search(r"[0-9]", _YEAR_PARTS.sub("", b)))
            for a, b in zip(old, new, strict=True)
        ]
    if check == "age":
        ages = pd.to_numeric(pd.Series(old), errors="coerce")
        return [bool(a >= 90) and b == o for a, o, b in zip(ages, old, new, strict=True)]
    return [False] * len(old)


def step1(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    from core.schema import suggest_roles

    rows = []
    for name, table in tables.items():
        for s in suggest_roles(table):
            role, _ = TRUTH[name][str(s.column)]
            rows.append((name, str(s.column), role, s.role.value, s.kind))
    return pd.DataFrame(rows, columns=["table", "column", "true", "suggested", "kind"])


def step1_summary(roles: pd.DataFrame) -> str:
    direct = roles[roles["true"] == "direct"]
    indirect = roles[roles["true"] == "indirect"]
    target = roles[roles["true"] == "target"]
    return (
        f"direct columns called direct: {(direct['suggested'] == 'direct').sum()} of "
        f"{len(direct)}; indirect columns called an identifier: "
        f"{indirect['suggested'].isin(['direct', 'indirect']).sum()} of {len(indirect)}; "
        f"target columns called direct: {(target['suggested'] == 'direct').sum()} of "
        f"{len(target)}"
    )


def ours_left(tables: dict[str, pd.DataFrame]) -> tuple[dict[str, int], dict[str, str]]:
    """Values left per column, and the tables Safe Harbor refused (with its message: the
    user must correct them, nothing is released)."""
    from core.errors import AnonymisationError
    from core.safe_harbor import apply_safe_harbor

    left, refused = {}, {}
    for name, table in tables.items():
        try:
            out = apply_safe_harbor(table, reference_date=REFERENCE_DATE).data
        except AnonymisationError as error:
            refused[name] = str(error)
            continue
        for column, (_, check) in TRUTH[name].items():
            after = out[column] if column in out.columns else None
            n = sum(left_in(check, table[column], after))
            if n:
                left[f"{name}:{column}"] = n
    return left, refused


def presidio_left(tables: dict[str, pd.DataFrame]) -> tuple[dict[str, int], str] | None:
    from bench.eval_common import presidio_or_none

    presidio = presidio_or_none(PRESIDIO_REGIONS, PRESIDIO_RECOGNIZERS, PRESIDIO_LABELS, "eval4")
    if presidio is None:
        return None
    left = {}
    for name, table in tables.items():
        for column, (_, check) in TRUTH[name].items():
            if not check:
                continue
            cells = pd.Series(_text(table[column]), index=table.index)
            _, redacted, _ = presidio.run(cells)
            n = sum(left_in(check, table[column], redacted.reindex(table.index)))
            if n:
                left[f"{name}:{column}"] = n
    return left, presidio.setup


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-presidio", action="store_true", help="the project alone")
    args = parser.parse_args(argv)
    tables = load()
    cells = sum(t.size for t in tables.values())
    roles = step1(tables)
    print("## Step 1\n")
    print(step1_summary(roles))
    wrong = roles[
        ((roles["true"] == "direct") & (roles["suggested"] != "direct"))
        | ((roles["true"] == "indirect") & ~roles["suggested"].isin(["direct", "indirect"]))
        | ((roles["true"] == "target") & (roles["suggested"] == "direct"))
    ]
    print(wrong.to_string(index=False) if len(wrong) else "no column wrong")
    print(f"\n## Safe Harbor: personal values left ({cells} cells)\n")
    ours, refused = ours_left(tables)
    total = sum(ours.values())
    released = cells - sum(tables[name].size for name in refused)
    print(
        f"project: {total} values left in the {len(tables) - len(refused)} tables released "
        f"({released} cells), {1000 * total / released:.1f} per 1,000 cells: {ours}"
    )
    for name, message in refused.items():
        print(f"project refused {name} ({tables[name].size} cells): {message}")
    if not args.no_presidio:
        theirs = presidio_left(tables)
        if theirs is not None:
            left, setup = theirs
            total = sum(left.values())
            print(
                f"presidio ({setup}): {total} values left, "
                f"{1000 * total / cells:.1f} per 1,000 cells: {left}"
            )


if __name__ == "__main__":
    main()
