"""Step 1 of the PDPC guide, "Know your data": suggest a role for every column.

The guide (Step 1) sorts the attributes of a record into three kinds:

* **direct identifiers** are unique to a person (name, NRIC/FIN, email, mobile number,
  account number...) and are removed or pseudonymised in Step 2;
* **indirect identifiers** (quasi-identifiers) are not unique alone but can re-identify a
  person in combination (age, gender, date of birth, postal code, job title, IP address,
  vehicle plate...); they are generalised, masked, swapped or perturbed in Step 3;
* **target attributes** hold the main utility of the data (salary, transactions, medical
  diagnosis...) and are usually kept as they are.

:func:`suggest_roles` looks at each column's *name* (English and common Singapore terms
such as NRIC, FIN, HP, IU) and at a *sample of its values*, read by the detectors of
:mod:`core.detect` (person names, NRIC/FIN with a valid check letter, US SSN, UK NINO,
email, phone numbers of any country, street addresses, IPv4/IPv6, MAC, URLs, postal
codes, vehicle plates, record codes, dates, free text, near-unique values), and returns one :class:`Suggestion` per column with a plain-language
reason and the technique Annex B of the guide suggests for that kind of attribute.
Suggestions are advice only: nothing here changes the data, and the user decides.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable

import numpy as np
import pandas as pd

from core.detect.columns import free_text_findings, script_note, value_evidence
from core.detect.header_words import foreign_header_kind, header_words
from core.detect.patterns import BUILTIN_KINDS, PATTERNS
from core.detect.record_numbers import needs_review, review_unique_column
from core.roles import ROLE_DESCRIPTIONS, Role, Suggestion
from core.text_rescan import compatible
from core.validation import require_int

__all__ = ["ROLE_DESCRIPTIONS", "Role", "Suggestion", "suggest_roles"]


# --------------------------------------------------------------------------------------
# Techniques (PDPC guide, Annex B "Common data attributes and suggested techniques")
# --------------------------------------------------------------------------------------
_REMOVE_OR_PSEUDONYMISE = (
    "remove the column (attribute suppression), or replace it with unique random pseudonyms "
    "if records must stay linkable (Annex B)"
)
_PSEUDONYMISE_OR_REMOVE = (
    "replace with unique random pseudonyms, or remove the column (attribute suppression) (Annex B)"
)
_TECHNIQUES: dict[str, str] = {
    "name": _REMOVE_OR_PSEUDONYMISE,
    "email": _REMOVE_OR_PSEUDONYMISE,
    "username": _REMOVE_OR_PSEUDONYMISE,
    "phone": _PSEUDONYMISE_OR_REMOVE,
    "nric": _PSEUDONYMISE_OR_REMOVE,
    "passport": _PSEUDONYMISE_OR_REMOVE,
    "id_number": _PSEUDONYMISE_OR_REMOVE,
    "account_number": _PSEUDONYMISE_OR_REMOVE,
    "identifier_like": _PSEUDONYMISE_OR_REMOVE,
    "ssn": _PSEUDONYMISE_OR_REMOVE,
    "nino": _PSEUDONYMISE_OR_REMOVE,
    "national_id": _PSEUDONYMISE_OR_REMOVE,
    "mixed": _REMOVE_OR_PSEUDONYMISE,
    "url": "remove the column (attribute suppression); a web address can point to a person",
    "mac": "remove the column, or replace it with pseudonyms (a device identifier)",
    "near_unique": _PSEUDONYMISE_OR_REMOVE,
    "free_text": (
        "redact the names, phone numbers, emails, IDs, addresses and dates inside it (recipe "
        "step redact_text), review it by hand, or remove the column (PDPC guide, Step 2)"
    ),
    "ipv4": "mask the last two octets, e.g. 12.120.210.88 -> 12.120.xxx.xxx; swapping may be added (Annex B)",
    "ipv6": "mask the last 80 bits (the last 5 groups); swapping may be added (Annex B)",
    "ip_address": (
        "mask the last two octets of IPv4 or the last 80 bits of IPv6 addresses; swapping may "
        "be added (Annex B)"
    ),
    "postal_code": "mask the last 4 digits, e.g. 117438 -> 11xxxx, or swap (Annex B)",
    "vehicle_plate": "mask the last 4 characters, e.g. SMF1234A -> SMF1xxxx; swapping may be added (Annex B)",
    "iu_number": "mask the last 3 digits, e.g. 1234567890 -> 1234567xxx (Annex B)",
    "date_of_birth": (
        "generalise to month and year, or year; or perturb by up to +/- 30 days; or swap (Annex B)"
    ),
    "date": "generalise to month or year, or perturb by a few days, or swap (Annex B, dates)",
    "address": (
        "generalise to a pre-defined zone (e.g. URA planning area) and remove unit numbers, "
        "or swap (Annex B)"
    ),
    "day_month": (
        "remove it, or generalise to the month; a birthday narrows who a person is (Annex B, dates)"
    ),
    "image": "remove the column (attribute suppression); a photograph identifies a person",
    "place": (
        "generalise to a larger area (e.g. planning area to region), or swap; HIPAA Safe "
        "Harbor removes it (Annex B, address)"
    ),
    "gps": (
        "round to 2 or 3 decimal places, or perturb by up to +/- 0.005 degrees, or swap (Annex B)"
    ),
    "measurement": (
        "generalise into ranges of 5 or 10, or perturb by about +/- 5, or swap (Annex B)"
    ),
    "age": (
        "generalise into ranges of 5 or 10 years (ages over 89 as one group for HIPAA), or "
        "perturb by up to +/- 2 years, or swap (Annex B)"
    ),
    "year_of_birth": (
        "generalise into ranges of 5 or 10 years, or swap; suppress it for people aged 90 "
        "or over (Annex B; HIPAA Safe Harbor C)"
    ),
    "code": "keep it only if needed; otherwise remove it (data minimisation, Step 1)",
    "gender": "usually safe to keep as it is; swap it for synthetic data (Annex B)",
    "group": ("generalise rare groups into 'Others', or swap (Annex B, race and marital status)"),
    "job_title": (
        "generalise to a taxonomy of job natures or levels (a manual mapping), or swap (Annex B)"
    ),
    "company": ("generalise to the industry sector (e.g. SSIC), or swap (Annex B)"),
    "money": ("keep as it is (target attribute); for synthetic data perturb or swap (Annex B)"),
    "sensitive": ("keep as it is (target attribute); for synthetic data swap or perturb (Annex B)"),
    "category": "keep it only if needed; otherwise remove it (data minimisation, Step 1)",
    "number": "keep it only if needed; otherwise remove it (data minimisation, Step 1)",
    "text": "keep it only if needed; otherwise remove it (data minimisation, Step 1)",
    "empty": "remove the column: it holds no values (data minimisation, Step 1)",
}

# --------------------------------------------------------------------------------------
# Column-name hints. Names are split into lower-case words ("PostalCode", "postal_code"
# and "Postal code" all become "postal_code"); a hint matches whole words only, so "fin"
# matches "FIN no" but not "finance". The first matching hint wins.
# --------------------------------------------------------------------------------------
_HINTS: list[tuple[str, Role, str, str]] = [
    # (kind, role, regex on the normalised name, what the name suggests)
    ("company", Role.INDIRECT, r"company|employer|organi[sz]ation|firm", "a company name"),
    (
        "nric",
        Role.DIRECT,
        r"nric|fin|ic|uin|nric_?fin|ic_?(no|num|number)|identity_card|nric_?no",
        "an NRIC/FIN number",
    ),
    (
        "ssn",
        Role.DIRECT,
        r"ssn|social_security(_?(no|num|number))?|ss_?(no|num|number)",
        "a US social security number",
    ),
    ("passport", Role.DIRECT, r"passport(_?(no|num|number))?", "a passport number"),
    (
        "id_number",
        Role.DIRECT,
        r"work_?permit|wp_?no|birth_?cert\w*",
        "an identity document number",
    ),
    (
        "account_number",
        Role.DIRECT,
        r"(bank_)?(account|acct|acc)(_?(no|num|number))?|(credit_)?card_?(no|num|number)|iban",
        "an account number",
    ),
    ("email", Role.DIRECT, r"e_?mail(_?address)?|mail", "an email address"),
    (
        "phone",
        Role.DIRECT,
        r"mobile(_?(no|num|number))?|hp(_?(no|num|number))?|handphone|(tel|tele)?phone(_?(no|num|number))?|tel(_?no)?|contact_?(no|num|number)|cell(phone)?",
        "a phone number",
    ),
    ("username", Role.DIRECT, r"user_?name|login|handle|social_media\w*", "a username"),
    ("iu_number", Role.INDIRECT, r"iu(_?(no|num|number))?|in_?vehicle_unit\w*", "an IU number"),
    (
        "vehicle_plate",
        Role.INDIRECT,
        r"(licen[cs]e_)?plate(_?(no|num|number))?|vehicle(_?(no|num|number|plate))?|car_?(no|plate)|registration_?(no|number)",
        "a vehicle plate number",
    ),
    (
        "ip_address",
        Role.INDIRECT,
        r"ip(_?addr(ess)?)?|ipv[46]|ipaddr(ess)?|ip_?address",
        "an IP address",
    ),
    (
        "gps",
        Role.INDIRECT,
        r"gps|lat|latitude|lon|lng|long|longitude|coord(inate)?s?|geo_?location",
        "a GPS location",
    ),
    (
        "postal_code",
        Role.INDIRECT,
        r"postal(_?code)?|post_?code|zip(_?code)?|pin_?code",
        "a postal code",
    ),
    (
        "place",
        Role.INDIRECT,
        r"city|town|suburb|locality|village|municipality|place_of_birth|birth_?place",
        "a place (a town, city, suburb or place of birth)",
    ),
    (
        "date_of_birth",
        Role.INDIRECT,
        r"dob|d_o_b|birth|birth_?date|birth_?day|date_of_birth|dateofbirth|born",
        "a date of birth",
    ),
    (
        "address",
        Role.INDIRECT,
        r"address|addr|street|block|blk|unit_?no|residence|home",
        "an address",
    ),
    (
        "name",
        Role.DIRECT,
        r"^(?:(?:full|first|last|given|family|middle|customer|client|employee|staff|patient|"
        r"person|member|student|applicant|contact|owner|maiden|nick|sur)_?)?name$|surname|nickname",
        "a person's name",
    ),
    (
        "identifier_like",
        Role.DIRECT,
        # "_id"/"_no"/"_number" only as the last word: "number_of_trips" is a count.
        r"id|uid|serial(_?(no|num|number))?|\w*_id$|\w*_no$|\w*_number$",
        "a record or person identifier",
    ),
    (
        "measurement",
        Role.INDIRECT,
        r"age|age_\w+|\w+_age|height|weight|bmi|years?_?old",
        "a physical measurement or age",
    ),
    ("gender", Role.INDIRECT, r"gender|sex", "gender"),
    (
        "group",
        Role.INDIRECT,
        r"race|ethnic(ity)?|ethnic_group|religion|nationality|citizenship|marital(_?status)?|education(_?level)?|qualification|department|dept",
        "a group a person belongs to",
    ),
    (
        "job_title",
        Role.INDIRECT,
        r"occupation|job(_?title)?|designation|profession|job_role",
        "a job title",
    ),
    (
        "money",
        Role.TARGET,
        r"salary|income|wage|wages|pay|payment|amount|amt|price|spend(ing)?|purchase\w*|transaction\w*|balance|revenue|cost|fee|fees|credit_?rating|credit_?score",
        "an amount of money or a financial attribute",
    ),
    (
        "sensitive",
        Role.TARGET,
        r"diagnosis|disease|illness|condition|medical\w*|medication|vaccination(_?status)?|vaccine|insurance(_?policy)?|policy|treatment|result|outcome",
        "a sensitive target attribute",
    ),
]
_HINT_PATTERNS = [
    (kind, role, re.compile(rf"(?:^|_)(?:{rx})(?:_|$)"), what) for kind, role, rx, what in _HINTS
]
# Hints matched anywhere in the name (compact spellings such as "postalcode").
_COMPACT = {
    "postalcode": "postal_code",
    "postcode": "postal_code",
    "zipcode": "postal_code",
    "dateofbirth": "date_of_birth",
    "birthdate": "date_of_birth",
    "emailaddress": "email",
    "mobileno": "phone",
    "phoneno": "phone",
    "ipaddress": "ip_address",
    "fullname": "name",
    "firstname": "name",
    "lastname": "name",
}

# Kinds found in values that are strong enough to override a column's name.
_STRONG_VALUE_KINDS = {
    "nric",
    "identifier_like",
    "email",
    "ipv4",
    "ipv6",
    "vehicle_plate",
    "ssn",
    "nino",
    "national_id",
    "image",
    "mac",
    "url",
    "name",
    "mixed",
}


_name_words = header_words  # 'Date of Birth' -> 'date_of_birth', 'Âge' -> 'age'


# Kinds a header beyond English names that the English hints do not.
_FOREIGN_ONLY = {
    "national_id": (Role.DIRECT, "a national identity number"),
    "age": (Role.INDIRECT, "an age"),
}


def _hint_of(kind: str) -> tuple[str, Role, str]:
    if kind in _FOREIGN_ONLY:
        return kind, *_FOREIGN_ONLY[kind]
    return next((kind, role, what) for k, role, _, what in _HINT_PATTERNS if k == kind)


def _english_hint(words: str) -> tuple[str, Role, str] | None:
    for kind, role, pattern, what in _HINT_PATTERNS:
        if pattern.search(words):
            return kind, role, what
    compact = words.replace("_", "")
    for fragment, kind in _COMPACT.items():
        if fragment in compact:
            return _hint_of(kind)
    return None


def _name_hint(column: Hashable) -> tuple[str, Role, str] | None:
    """What the header says the column holds: the English hints first, then the words of
    other languages (:mod:`core.detect.header_words`), which also win over the English
    catch-all "..._no"/"..._number" ("no_telefon", "PhilSys Number")."""
    words = _name_words(column)
    english = _english_hint(words) if words else None
    if english is not None and english[0] != "identifier_like":
        return english
    foreign = foreign_header_kind(column)
    return _hint_of(foreign) if foreign is not None else english


def _sample(series: pd.Series, sample_size: int) -> pd.Series:
    values = series.dropna()
    if len(values) > sample_size:
        # A fixed seed keeps suggestions reproducible for the same table. Generator.choice
        # draws the positions alone (pandas' sample permutes every row: ~0.6 s a column
        # at 1M rows, the most of the dashboard's load).
        rows = np.random.default_rng(0).choice(len(values), size=sample_size, replace=False)
        values = values.iloc[np.sort(rows)]
    return values


def _as_text(values: pd.Series) -> pd.Series:
    """Sampled values as stripped strings; whole floats are written without '.0'. Text is
    read in Unicode's compatibility form (NFKC): an NRIC or email typed with a phone's
    full-width keyboard (``Ｓ１２３４５６７Ｄ``, ``a＠b．com``), or with a look-alike letter
    or another script's digits (:func:`core.text_rescan.compatible`), is the same
    identifier."""
    if pd.api.types.is_float_dtype(values):
        finite = np.isfinite(values.to_numpy(dtype=float))
        whole = finite.all() and bool((values == np.floor(values)).all())
        if whole and (values.abs() < 2**53).all():
            values = values.astype("int64")
    return compatible(values.astype(str).astype("str").str.strip())


def _pct(share: float) -> str:
    return f"{share:.0%}"


def _describe_other(column: Hashable, sample: pd.Series, text: pd.Series) -> Suggestion:
    """No name hint and no recognised value shape: free text, near-unique, number, category."""
    n = len(sample)
    n_unique = int(text.nunique())
    ratio = n_unique / n if n else 0.0
    numeric = pd.api.types.is_numeric_dtype(sample) and not pd.api.types.is_bool_dtype(sample)
    if not numeric and n:
        lengths = text.str.len()
        spaced = float(text.str.contains(" ", regex=False).sum()) / n
        words = float(text.str.count(r"\S+").median())
        if spaced >= 0.5 and float(lengths.median()) >= 25 and words >= 4 and ratio >= 0.5:
            found = free_text_findings(text)
            return Suggestion(
                column,
                Role.DIRECT,
                "free_text",
                f"Values are long free text ({int(lengths.median())} characters and "
                f"{int(words)} words at the median, {_pct(ratio)} distinct), which can "
                "contain names, NRIC numbers and other direct identifiers"
                + (f"; {found}" if found else "")
                + " (PDPC guide, Step 2).",
                _TECHNIQUES["free_text"],
                judged_by="content",
            )
    whole = numeric and bool(np.all(np.mod(sample.to_numpy(dtype=float), 1) == 0))
    if n >= 10 and ratio >= 0.9 and (not numeric or whole):
        return Suggestion(
            column,
            Role.DIRECT,
            "near_unique",
            f"{_pct(ratio)} of {n} sampled values are distinct, so a value almost always "
            "points to one record; a column like this can be used as a direct identifier "
            "(PDPC guide, Step 1); what the values are is unclear, so check.",
            _TECHNIQUES["near_unique"],
            uncertain=True,
            judged_by="content",
        )
    if numeric:
        kind = "measurement" if not whole else "number"
        return Suggestion(
            column,
            Role.OTHER,
            kind,
            f"Numbers ({n_unique} distinct in {n} sampled values) with no identifying name; "
            "if they describe the person (like age or height) treat them as an indirect "
            "identifier, if they are what you study, as a target attribute (PDPC guide, Step 1).",
            _TECHNIQUES["number"],
        )
    if n_unique <= 20 or ratio <= 0.5:
        return Suggestion(
            column,
            Role.OTHER,
            "category",
            f"A category with {n_unique} distinct values in {n} sampled values and no "
            "identifying name; if it describes the person, treat it as an indirect identifier "
            "(PDPC guide, Step 1).",
            _TECHNIQUES["category"],
        )
    return Suggestion(
        column,
        Role.OTHER,
        "text",
        f"Text with {n_unique} distinct values in {n} sampled values and no recognised "
        "pattern; check whether it describes the person (PDPC guide, Step 1).",
        _TECHNIQUES["text"],
        uncertain=True,
    )


_ROLE_PHRASES = {
    Role.DIRECT: "a direct identifier",
    Role.INDIRECT: "an indirect identifier",
    Role.TARGET: "a target attribute",
    Role.OTHER: "neither an identifier nor a target",
}
_VALUE_ROLES = {
    "nric": Role.DIRECT,
    "identifier_like": Role.DIRECT,
    "email": Role.DIRECT,
    "phone": Role.DIRECT,
    "name": Role.DIRECT,
    "ssn": Role.DIRECT,
    "nino": Role.DIRECT,
    "national_id": Role.DIRECT,
    "image": Role.DIRECT,
    "url": Role.DIRECT,
    "mac": Role.DIRECT,
    "mixed": Role.DIRECT,
    "money": Role.TARGET,
}


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_registered(kind: str) -> bool:
    return kind in PATTERNS and kind not in BUILTIN_KINDS


def _suggest(column: Hashable, series: pd.Series, sample_size: int) -> Suggestion:
    """The column's suggestion; one made for the column's uniqueness or shape alone is
    reviewed: a row number, amounts or lot numbers are not direct identifiers, and a row
    number is not a postal code (:mod:`core.detect.record_numbers`)."""
    suggestion = _suggest_from_evidence(column, series, sample_size)
    if not needs_review(suggestion):
        return suggestion
    text = _as_text(_sample(series, sample_size))
    return review_unique_column(suggestion, series, text, _name_words(column))


def _suggest_from_evidence(column: Hashable, series: pd.Series, sample_size: int) -> Suggestion:
    sample = _sample(series, sample_size)
    if sample.empty:
        return Suggestion(
            column,
            Role.OTHER,
            "empty",
            "The column has no values (all are missing), so it cannot identify anyone; remove "
            "it (data minimisation, PDPC guide, Step 1).",
            _TECHNIQUES["empty"],
        )
    text = _as_text(sample)
    hint = _name_hint(column)
    evidence = value_evidence(text, sample)

    if evidence is not None and evidence.kind == "code" and hint is None:
        # Numbers shaped like phone numbers that behave like codes: say both.
        other = _describe_other(column, sample, text)
        return dataclasses.replace(
            other,
            kind=other.kind if other.kind == "near_unique" else "code",
            technique=other.technique if other.kind == "near_unique" else _TECHNIQUES["code"],
            reason=f"{other.reason} {_capitalise(evidence.reason)}",
            uncertain=True,
            judged_by="content",
        )
    registered = evidence is not None and _is_registered(evidence.kind)
    if evidence is not None and (
        evidence.kind in _STRONG_VALUE_KINDS or registered or hint is None
    ):
        kind = evidence.kind
        if registered:  # a pattern added with core.detect.register_pattern: an identifier
            return Suggestion(
                column,
                Role.DIRECT,
                kind,
                _capitalise(evidence.reason),
                _PSEUDONYMISE_OR_REMOVE,
                judged_by="content",
            )
        if kind == "date":
            role = Role.INDIRECT
            reason = (
                f"{_capitalise(evidence.reason)}; dates of events can help re-identify a "
                "person when combined with other data, so treat them as indirect identifiers "
                "(PDPC guide, Step 1)."
            )
        else:
            role = _VALUE_ROLES.get(kind, Role.INDIRECT)
            reason = _capitalise(evidence.reason)
        judged_by = "content"
        if hint is not None and hint[0] == kind:  # the header agrees: one more piece of evidence
            reason = f"The column name '{column}' suggests {hint[2]}, and {evidence.reason}"
            judged_by = "header and content"
        return Suggestion(
            column,
            role,
            kind,
            reason,
            _TECHNIQUES[kind],
            uncertain=evidence.uncertain,
            judged_by=judged_by,
        )

    if hint is not None:
        kind, role, what = hint
        if kind == "ip_address" and evidence is not None and evidence.kind in {"ipv4", "ipv6"}:
            kind = evidence.kind
        prefix = f"The column name '{column}' suggests {what}"
        agrees = evidence is not None and (
            evidence.kind == kind
            or (kind == "date_of_birth" and evidence.kind == "date")
            or (kind == "measurement" and evidence.kind == "age")
        )
        if evidence is not None and evidence.kind == kind:
            reason = f"{prefix}, and {evidence.reason}"
        elif evidence is not None and evidence.kind == "date" and kind == "date_of_birth":
            reason = (
                f"{prefix}, and {evidence.reason}; a date of birth is an indirect identifier "
                "(PDPC guide, Step 1)."
            )
        elif kind == "identifier_like":
            ratio = text.nunique() / len(text)
            reason = (
                f"{prefix} and {_pct(ratio)} of sampled values are distinct; an identifier "
                "like this is a direct identifier (PDPC guide, Step 1)."
            )
        else:
            reason = f"{prefix}, which is {_ROLE_PHRASES[role]} (PDPC guide, Step 1)."
        judged_by = "header and content" if agrees else "header"
        return Suggestion(column, role, kind, reason, _TECHNIQUES[kind], judged_by=judged_by)

    suggestion = _describe_other(column, sample, text)
    note = "" if pd.api.types.is_numeric_dtype(sample) else script_note(text)
    if note:  # names and addresses in other scripts are not recognised: say so
        suggestion = dataclasses.replace(
            suggestion, reason=f"{suggestion.reason} {note}", uncertain=True
        )
    return suggestion


def suggest_roles(df: pd.DataFrame, *, sample_size: int = 5000) -> list[Suggestion]:
    """Suggest a role for every column (PDPC guide, Step 1 "Know your data").

    Returns one :class:`Suggestion` per column, in column order. Evidence comes from the
    column name (English and Singapore terms such as NRIC, FIN, HP, IU, postal) and from a
    reproducible sample of at most ``sample_size`` non-missing values read by
    :mod:`core.detect`: person names, NRIC/FIN numbers with a valid check letter, US SSN,
    UK NINO, registered patterns, email addresses, phone numbers of any country, street
    addresses, IPv4/IPv6 and MAC addresses, URLs, 6-digit postal codes, vehicle plates,
    letter-and-digit record codes, dollar amounts, dates, long free text (with the
    entities found in it) and near-unique values. A value pattern counts when at least 80%
    of sampled values match; with the default 5,000 values the sampled share is within
    +/-1.9 points of the column's share 95% of the time (Hoeffding). Strong value patterns
    (names, NRIC with checksum, SSN, NINO, email, URL, IP and MAC address, vehicle plate,
    record codes) win over the column name; otherwise the name wins over ambiguous shapes
    (6 or 8 digits). Headers that say nothing (``c1``...``c9``) leave the values to decide.

    The suggestions are advice for the user to confirm; the data is never changed.
    """
    sample_size = require_int("sample_size", sample_size, minimum=1)
    return [
        _suggest(column, df.iloc[:, position], sample_size)
        for position, column in enumerate(df.columns)
    ]
