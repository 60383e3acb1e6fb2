"""The files of a release (PDPC guide, Step 5): report texts and identity mapping tables.

Small helpers around :mod:`core.release.report` for the dashboard's Report page and the command
line: the report as Markdown and JSON with the controls that were ticked, and all
identity mapping tables of a run in one table, to be encrypted with
:func:`core.techniques.encrypt_table` (Step 5: "Encrypt the identity mapping tables").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

import pandas as pd

from core.formatting import json_figures
from core.release.report import Report, report_to_markdown

SIGN_OFF_FIELDS: dict[str, str] = {
    "prepared_by": "Prepared by",
    "reviewed_by": "Reviewed by",
    "approved_by": "Approved by",
    "date": "Date",
    "purpose": "Purpose of release",
}

IDENTITY_COLUMNS = ("table", "column", "pseudonym", "interim_pseudonym", "original_value")


def sign_off(values: Mapping[str, str]) -> dict[str, str]:
    """The filled-in sign-off fields under their readable names, in the usual order."""
    return {
        label: str(values[key]).strip()
        for key, label in SIGN_OFF_FIELDS.items()
        if str(values.get(key) or "").strip()
    }


def identity_table(
    mappings: Mapping[str, pd.DataFrame], linking: Mapping[str, pd.DataFrame]
) -> pd.DataFrame:
    """All identity mapping and linking tables of a run stacked into one text table.

    Columns: ``table`` (mapping or linking), ``column`` (the pseudonymised column),
    ``pseudonym``, ``interim_pseudonym`` (double coding) and ``original_value``
    (PDPC guide, Annex A: Pseudonymisation; keep this table apart and secure).
    """
    parts = []
    for kind, tables in (("mapping", mappings), ("linking", linking)):
        for column, table in tables.items():
            part = table.rename(columns={column: "original_value"}).astype("str")
            part.insert(0, "column", str(column))
            part.insert(0, "table", kind)
            parts.append(part)
    if not parts:
        return pd.DataFrame(columns=list(IDENTITY_COLUMNS), dtype="str")
    combined = pd.concat(parts, ignore_index=True)
    return combined.reindex(columns=list(IDENTITY_COLUMNS))


def _control_line(text: str) -> re.Pattern[str]:
    return re.compile(r"^- \[ \] (\*\*[^*]+\*\* " + re.escape(text) + ")", re.MULTILINE)


def report_markdown(report: Report, done: Iterable[str] = ()) -> str:
    """:func:`core.release.report.report_to_markdown` with the controls in ``done`` ticked."""
    text = report_to_markdown(report)
    for control in set(done):
        text = _control_line(control).sub(r"- [x] \1", text)
    return text


def report_json(report: Report, done: Iterable[str] = ()) -> str:
    """The report as indented JSON; each control says whether it was ticked ("done")."""
    data = report.to_dict()
    done = set(done)
    for control in data["controls"]:
        control["done"] = control["control"] in done
    return json.dumps(json_figures(data), indent=2, ensure_ascii=False, default=str)
