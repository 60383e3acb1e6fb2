"""What the HIPAA Safe Harbor preset did: one line per column, one line per identifier.

45 CFR 164.514(b)(2)(i) lists 18 kinds of identifiers, (A) to (R). The preset
(:mod:`core.safe_harbor`) reports each column it touched (:class:`SafeHarborColumn`)
and, identifier by identifier, which columns held it, how they were handled and whether
they were recognised by their header or by their content (:class:`IdentifierLine`), so a
reviewer can check the checklist as the rule reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

#: Share of the personal-data spans in free text that redaction replaced, measured on data
#: the scanner was not developed on: the test part of the independent table
#: (bench/bench_detect_independent.py --split test; 1,500 notes of people of Singapore, the
#: US, the UK and India, 4,831 labelled spans), main at 558ccf4: 0.97, 131 strings left in
#: clear (0.91 and 397 at d2191af). The test part's misses were never read, but its
#: figures were looked at after each change of issue 26's work, so a set built later by
#: another method may score lower. Re-measure when the scanner changes, and update this
#: figure with its source.
REDACTION_RECALL = 0.97
REDACTION_RECALL_SOURCE = "independent test table, 4,831 labelled spans in 1,500 notes"
REDACTION_NOTE = (
    f"Measured recall {REDACTION_RECALL:.0%} ({REDACTION_RECALL_SOURCE}): about "
    f"{1 - REDACTION_RECALL:.0%} of the personal values in free text stay in clear."
)

#: The free-text options in plain words (the CLI's help and the dashboard show them).
FREE_TEXT_CHOICES: dict[str, str] = {
    "remove": "remove free-text columns (default: free text can hold any of the 18 identifiers)",
    "redact": (
        "keep free text, replacing the names, phones, emails, IDs, addresses and dates the "
        f"scanner finds by [NAME], [PHONE]... {REDACTION_NOTE} Review before release."
    ),
    "flag": "keep free text as it is and report it as not checked",
}

__all__ = [
    "IDENTIFIERS",
    "IdentifierLine",
    "SafeHarborColumn",
    "SafeHarborResult",
    "identifier_lines",
]

#: The 18 identifier kinds, 45 CFR 164.514(b)(2)(i)(A)-(R).
IDENTIFIERS: dict[str, str] = {
    "A": "Names",
    "B": "Geographic subdivisions smaller than a state (address, city, county, ZIP, geocodes)",
    "C": "Dates (except year) related to a person; ages over 89",
    "D": "Telephone numbers",
    "E": "Fax numbers",
    "F": "Email addresses",
    "G": "Social security (national identity) numbers",
    "H": "Medical record numbers",
    "I": "Health plan beneficiary numbers",
    "J": "Account numbers",
    "K": "Certificate/license numbers",
    "L": "Vehicle identifiers and serial numbers, including license plates",
    "M": "Device identifiers and serial numbers",
    "N": "Web URLs",
    "O": "IP addresses",
    "P": "Biometric identifiers, including finger and voice prints",
    "Q": "Full-face photographs and comparable images",
    "R": "Any other unique identifying number, characteristic or code",
}

# What each action means, in plain words (the per-identifier lines).
_ACTION_WORDS = {
    "removed": "column removed",
    "zip3": "ZIP codes cut to their first 3 digits ('000' where the 3-digit area has 20,000 "
    "people or fewer)",
    "year": "dates cut to the year",
    "year_of_birth": "years of birth kept, except for people aged 90 or over (suppressed)",
    "top_coded": "ages over 89 put in one category, '90+' (90 or older)",
    "state": "addresses cut to the state",
    "excluded": "kept as it is at your request",
}


@dataclass(frozen=True)
class SafeHarborColumn:
    """What the preset did to one column."""

    column: str
    identifier: str  # "C: Dates ..." or "" when none was recognised
    action: str  # removed, zip3, year, year_of_birth, top_coded, state, redacted, kept, ...
    changed: int  # values changed (all non-missing values for a removed column)
    detail: str
    judged_by: str = ""  # "header", "content", "header and content", "you" or ""


@dataclass(frozen=True)
class IdentifierLine:
    """One of the 18 identifiers of 45 CFR 164.514(b)(2)(i): where it was found and how it
    was handled."""

    letter: str
    identifier: str
    columns: tuple[str, ...]
    handling: str
    judged_by: str  # "header", "content", both (per column: "a (header); b (content)"), ""


def _judged(columns: list[SafeHarborColumn]) -> str:
    ways = {c.judged_by for c in columns if c.judged_by}
    if len(ways) <= 1:
        return next(iter(ways), "")
    return "; ".join(f"{c.column} ({c.judged_by})" for c in columns)


_NOT_FOUND = {
    "P": "no column named as biometric data (finger or voice prints); a table of text and "
    "numbers rarely holds them, but check",
    "Q": "no column named as photographs or images; check that no column holds an image "
    "or a link to one",
}


def identifier_lines(
    columns: tuple[SafeHarborColumn, ...], free_text: tuple[str, ...] = (), free_text_how: str = ""
) -> tuple[IdentifierLine, ...]:
    """One line per identifier A-R from the per-column report. Free-text columns can hold
    any identifier: they are named on every line with how they were handled."""
    lines = []
    for letter, what in IDENTIFIERS.items():
        found = [c for c in columns if c.identifier.startswith(f"{letter}:")]
        if found:
            words = [_ACTION_WORDS.get(c.action, c.action) for c in found]
            handling = (
                words[0]
                if len(set(words)) == 1
                else "; ".join(f"{c.column}: {w}" for c, w in zip(found, words, strict=True))
            )
        else:
            handling = _NOT_FOUND.get(letter, "no column found by header or content")
        if free_text:
            handling += f"; inside free text ({', '.join(free_text)}): {free_text_how}"
        lines.append(
            IdentifierLine(letter, what, tuple(c.column for c in found), handling, _judged(found))
        )
    return tuple(lines)


@dataclass(frozen=True, eq=False)
class SafeHarborResult:
    """The transformed table, a per-column account and a per-identifier account."""

    data: pd.DataFrame
    columns: tuple[SafeHarborColumn, ...]
    reference_date: str
    identifiers: tuple[IdentifierLine, ...] = ()
    free_text_note: str = ""

    @property
    def unchecked(self) -> tuple[str, ...]:
        """Columns the preset could not check (free text): review them by hand."""
        return tuple(c.column for c in self.columns if c.action == "not_checked")

    @property
    def redacted(self) -> tuple[str, ...]:
        """Text columns whose identifiers were replaced by labels ([NAME], [EMAIL]...)."""
        return tuple(c.column for c in self.columns if c.action == "redacted")

    def to_frame(self) -> pd.DataFrame:
        """One row per column: identifier, action, values changed, detail, found by."""
        return pd.DataFrame(
            {
                "column": [c.column for c in self.columns],
                "identifier": [c.identifier for c in self.columns],
                "action": [c.action for c in self.columns],
                "changed": [c.changed for c in self.columns],
                "detail": [c.detail for c in self.columns],
                "found by": [c.judged_by for c in self.columns],
            }
        )

    def identifiers_frame(self) -> pd.DataFrame:
        """One row per identifier (A-R) of 45 CFR 164.514(b)(2)(i), in plain words."""
        return pd.DataFrame(
            {
                "identifier": [f"({line.letter}) {line.identifier}" for line in self.identifiers],
                "columns": [", ".join(line.columns) or "none" for line in self.identifiers],
                "how handled": [line.handling for line in self.identifiers],
                "found by": [line.judged_by or "-" for line in self.identifiers],
            }
        )

    def notes(self) -> tuple[str, ...]:
        """What remains for a person to confirm before calling the table Safe Harbor."""
        notes = [
            "Safe Harbor also requires that you have no actual knowledge that the remaining "
            "information could identify a person (45 CFR 164.514(b)(2)(ii)).",
            "Columns marked 'kept' were not recognised as one of the 18 identifiers: check "
            "that none of them is a unique number, code or characteristic (identifier R).",
        ]
        if self.redacted:
            notes.insert(
                0,
                f"Free text in {', '.join(map(repr, self.redacted))} was redacted: names, "
                "emails, phone numbers, IDs, addresses, dates, URLs and IP addresses found by "
                f"the scanner became [NAME], [EMAIL]... {self.free_text_note} Review a sample "
                "of the text before release, or remove the column.",
            )
        if self.unchecked:
            notes.insert(
                0,
                f"Free text in {', '.join(map(repr, self.unchecked))} was not checked: it may "
                "contain names, dates, numbers or places. Review it by hand or remove it.",
            )
        return tuple(notes)
