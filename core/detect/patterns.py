"""Identifiers with a regular shape: one :class:`Pattern` per kind, in one registry.

Each pattern is a compiled regular expression, optionally with a validator that checks
what the shape cannot (a check letter, an unallocated range). The same pattern serves a
whole cell (``fullmatch``: is this column a column of emails?) and free text
(``finditer``: where are the emails in this note?). Built in:

===============  ==============================================================  ========
kind             shape and checks                                                label
===============  ==============================================================  ========
email            local@domain.tld                                                EMAIL
url              http(s)://... or www....                                        URL
ipv4             four numbers 0-255                                              IP
ipv6             eight groups of hex digits, or a compressed form with ``::``   IP
mac              six pairs of hex digits with ``:`` or ``-``                     MAC
nric             Singapore NRIC/FIN, S/T/F/G/M + 7 digits + correct check letter ID
ssn              US social security number AAA-GG-SSSS, not 000/666/9xx, 00, 0000 ID
nino             UK National Insurance number, allocated prefixes, suffix A-D    ID
mykad, nik, psn  Malaysia MyKad, Indonesia NIK, Philippines PhilSys, Australia   ID
tfn, medicare    TFN and Medicare, Hong Kong HKID, Spain DNI/NIE, France NIR,
hkid, dni, nir   UK NHS number, India Aadhaar, each with its published checks
nhs, aadhaar     (:mod:`core.detect.national_ids`)
za_id, th_id...  South Africa, Thailand, UAE, Ireland PPSN, Canada SIN, Sri      ID
                 Lanka NIC, Vietnam CCCD, Pakistan CNIC, Ghana Card, Bangladesh
                 NID (:mod:`core.detect.world_ids`)
record_code      letters and digits with a prefix word (MRN, A/C, licence no...) ID
vehicle_plate    1-3 letters, up to 4 digits, a check letter (SMF1234A)          PLATE
date             2024-01-31, 31/01/2024, 31 Jan 2024, January 31, 2024          DATE
age_over_89      an age of 90-119 with a cue: "aged 92", "94 y/o", "(95F)"        AGE 90+
                 (free text only; :mod:`core.detect.old_ages`)
postal_code      6-digit Singapore postal code (whole cells only)                POSTAL
money            $13,000, SGD 200 (whole cells only; not an identifier)          -
===============  ==============================================================  ========

:func:`register_pattern` adds a kind (e.g. a passport or staff-number format of your own);
it is then used by column classification (Step 1), the free-text scanner, the
``redact_text`` recipe step and the Safe Harbor preset alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core.dates import LOCAL_MONTH_NAMES
from core.detect.national_ids import NATIONAL_ID_SHAPES
from core.detect.old_ages import OLD_AGE
from core.detect.world_ids import WORLD_ID_SHAPES
from core.errors import ParameterError
from core.identifiers import nric_check_letter

__all__ = [
    "PATTERNS",
    "Pattern",
    "full_match_share",
    "register_pattern",
    "unregister_pattern",
]


@dataclass(frozen=True)
class Pattern:
    """One kind of identifier with a regular shape.

    ``regex`` matches one value; ``validator`` (optional) takes the matched text and says
    whether it is real (e.g. a check letter); ``label`` is the redaction label
    (``[EMAIL]``); ``in_text`` says whether the pattern is searched inside free text (a bare
    6-digit number is a postal code only when it fills a cell); ``identifying`` is False
    for shapes that are not identifiers (amounts of money).
    """

    kind: str
    regex: re.Pattern[str]
    label: str
    description: str
    validator: Callable[[str], bool] | None = None
    in_text: bool = True
    identifying: bool = True
    # The bare expression for whole cells (no word-boundary guards), so pandas can hand it
    # to pyarrow's regular-expression engine instead of Python's, one value at a time.
    cell: str | None = None

    def accepts(self, text: str) -> bool:
        return self.validator is None or bool(self.validator(text))

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where the pattern occurs in ``text`` (the ``value`` group when it has one, so
        "MRN: A1234567" reports only the number and redaction keeps the word MRN)."""
        found = []
        for match in self.regex.finditer(text):
            group = "value" if "value" in self.regex.groupindex else 0
            if self.accepts(match.group(group)):
                found.append(match.span(group))
        return found


# --- validators ------------------------------------------------------------------------


# The M series (FINs issued from 2022): GovTech's published check (core.identifiers, as in
# opengovsg's isMFinSeriesValid) reads its letter table KLJNPQRTUWX from the end, at
# 10 - r; other public implementations read it from the start, at r, as the other series
# do. A detector cannot tell which an issuer's data follow: both letters are accepted (2
# in 11 pass instead of 1), so a FIN is not left in clear for its convention (issue 26).
_M_LETTERS_FROM_START = "KLJNPQRTUWX"
_NRIC_WEIGHTS = (2, 7, 6, 5, 4, 3, 2)


def valid_nric(text: str) -> bool:
    """A Singapore NRIC/FIN whose check letter is right (core.identifiers); spaces, dots
    and dashes between the letters and the digits ("S 1234567 D") are allowed."""
    value = re.sub(r"[\s.-]", "", text).upper()
    if len(value) != 9 or value[0] not in "STFGM" or not value[1:8].isdigit():
        return False
    if nric_check_letter(value[0], value[1:8]) == value[8]:
        return True
    if value[0] != "M":
        return False
    total = 3 + sum(int(d) * w for d, w in zip(value[1:8], _NRIC_WEIGHTS, strict=True))
    return _M_LETTERS_FROM_START[total % 11] == value[8]


def valid_ssn(text: str) -> bool:
    """US SSN rules: area not 000, 666 or 900-999; group not 00; serial not 0000."""
    digits = re.sub(r"\D", "", text)
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in {"000", "666"} and area[0] != "9" and group != "00" and serial != "0000"


_NINO_BAD_PREFIXES = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})


def valid_nino(text: str) -> bool:
    """UK NINO rules: first letter not D F I Q U V, second not D F I O Q U V, and not one
    of the unallocated prefixes BG, GB, KN, NK, NT, TN, ZZ (HMRC NIM39110)."""
    prefix = text.strip().upper()[:2]
    return (
        prefix[0] not in "DFIQUV"
        and prefix[1] not in "DFIOQUV"
        and prefix not in _NINO_BAD_PREFIXES
    )


# --- shapes ----------------------------------------------------------------------------
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_HEX = r"[0-9A-Fa-f]{1,4}"
_IPV6 = (
    rf"(?:{_HEX}:){{7}}{_HEX}"
    rf"|(?:{_HEX}:){{1,6}}(?::{_HEX}){{1,6}}"
    rf"|(?:{_HEX}:){{1,7}}:"
    rf"|::(?:{_HEX}:){{0,6}}{_HEX}"
)
# A day number as other languages write it: "5", the German "5." and the French "1er".
_LOCAL_DAY = r"(?:[0-9]{1,2}\.?|1er)"
_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
# Day, month and year in digits, one separator used twice ("24/11/25"; "24/11-26" is
# no date but a range of days, _DM_RANGE below).
_DMY = r"[0-9]{1,2}(?:/[0-9]{1,2}/|\.[0-9]{1,2}\.|-[0-9]{1,2}-)(?:[0-9]{4}|[0-9]{2})"
_DATE = (
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[ T][0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?)?"
    # two full dates joined by a dash, a stay ("02/11/2025-06/11/2025"): one span
    rf"|{_DMY}[ ]?[-–][ ]?{_DMY}(?![0-9])"
    rf"|{_DMY}"
    r"|[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}"
    rf"|[0-9]{{1,2}}(?:st|nd|rd|th)?[ -]{_MONTHS}\.?,?[ -][0-9]{{4}}"
    # a 2-digit year after a month word, with dashes or slashes ("03-Nov-25", "5/Jan/26")
    rf"|[0-9]{{1,2}}-{_MONTHS}-[0-9]{{2}}|[0-9]{{1,2}}/{_MONTHS}/[0-9]{{2}}"
    rf"|{_MONTHS}\.? [0-9]{{1,2}}(?:st|nd|rd|th)?,? [0-9]{{4}}"
    # other languages' months (core.dates.LOCAL_MONTHS): "12 Ogos 1985", "Marso 12, 1986",
    # the German day with its dot ("5. Mai 1990"), the French first ("1er janvier 1990"),
    # Spanish and Portuguese "de" ("5 de mayo de 1990", "12 de diciembre del 1985")
    rf"|{_LOCAL_DAY}[ -](?:de )?(?:{LOCAL_MONTH_NAMES})\.?,?[ -](?:del? )?[0-9]{{4}}"
    rf"|(?:{LOCAL_MONTH_NAMES})\.? [0-9]{{1,2}},? [0-9]{{4}}"
)
# A day and a month without a year ("on 18 May", "May 18th", "3rd of June"): HIPAA Safe
# Harbor identifier C names every element of a date but the year. In lower case "may"
# and "march" are also words ("take 2 may help", "march 2 steps"): lower-case "may" is
# never read as a month here, lower-case "march" only after a day number.
_DAY = r"[0-9]{1,2}(?:st|nd|rd|th)?"
_MONTHS_WORDS = (
    r"Jan(?:uary)?|Feb(?:ruary)?|Apr(?:il)?|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"
)
# Other languages' month names that are no English word nor a name ("Mei", "Mac", "Des",
# "Mars", "Mai" are left out without a year, but for the German "5. Mai" and the Spanish
# "5 de mayo" below, where the dot or the "de" says it is a date).
_LOCAL_MONTHS_WORDS = (
    "Januari|Februari|Maret|Juni|Julai|Juli|Ogos|Agustus|Oktober|Disember|Desember|"
    "enero|febrero|marzo|abril|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
    "diciembre|janvier|f[ée]vrier|avril|juin|juillet|ao[ûu]t|septembre|octobre|novembre|"
    "d[ée]cembre|Januar|Februar|M[äa]e?rz|Dezember|janeiro|fevereiro|mar[çc]o|junho|julho|"
    "setembro|outubro|novembro|dezembro|gennaio|febbraio|aprile|maggio|giugno|luglio|"
    "settembre|ottobre|dicembre|maart|augustus|Pebrero|Marso|Hunyo|Hulyo|Setyembre|Oktubre|"
    "Nobyembre|Disyembre"
)
# A day and a month in digits, no year ("seen on 12/05", "review 3/11", "on 05-06"): a
# date only after a word that says one follows (on, seen, review, admitted, appt, TCU,
# due, DOB...), both numbers of 1-31 and one of them 1-12 (day/month or month/day), and
# not before what a fraction, a score or a dose is of ("on 2/3 of days", "on 1/2 tablet",
# "10-20 mg"). Without such a word "BP 120/80", "scored 3/5", "2/3 of patients" and
# "pain 7/10" are not dates. Python's look-behind takes one width at a time: one per cue.
_DATE_CUES = (
    "on|seen|review|reviewed|visit|visited|admitted|admission|discharged|discharge|appt|"
    "appointment|tcu|f/u|follow-up|follow up|due|dated|date|dob|born|birthday|since|until|"
    "till|scheduled for|booked for|planned for|next|last|"
    # letters' and orders' "dt" (dated), a court's next mention or hearing
    "dt|dtd|mention|hearing|adjourned to"
)
# A weekday before a day is a cue too ("Tue 14/10", "Wednesday 3rd"); "sat" and "sun" are
# also English words ("sat 3/5 papers"), read as weekdays only with a capital.
_WEEKDAY_CUES = (
    "mon|monday|tue|tues|tuesday|wed|weds|wednesday|thu|thur|thurs|thursday|fri|friday|"
    "saturday|sunday"
)
_WEEKDAY_CAPITAL_CUES = "Sat|SAT|Sun|SUN"
_DM_DAY = r"(?:0?[1-9]|[12][0-9]|3[01])"
_DM_MONTH = r"(?:0?[1-9]|1[0-2])"
_DM_DAY_MONTH = (
    rf"{_DM_DAY}/{_DM_MONTH}|{_DM_MONTH}/{_DM_DAY}|{_DM_DAY}-{_DM_MONTH}|{_DM_MONTH}-{_DM_DAY}"
)
_DIGIT_DAY_MONTH = (
    # the day and month looked for first: the hundred cue look-behinds below, tried one by
    # one, then run only where they stand (the same matches; a third of the date scan)
    rf"(?=(?:{_DM_DAY_MONTH}))"
    "(?:"
    + "|".join(
        rf"(?<=\b{re.escape(cue)}{sep})"
        for cue in f"{_DATE_CUES}|{_WEEKDAY_CUES}".split("|")
        for sep in (" ", ": ")
    )
    + "|"
    + "|".join(rf"(?<=\b(?-i:{cue}) )" for cue in _WEEKDAY_CAPITAL_CUES.split("|"))
    + ")"
    + rf"(?:{_DM_DAY_MONTH})"
    r"(?![0-9]|[/-][0-9])"
    r"(?![ \t]*(?:of|tabs?|tablets?|caps?|capsules?|pills?|doses?|mg|mcg|g|ml|units?|iu|x|"
    r"times|days?|weeks?|months?|years?|hours?|hrs?|mins?|minutes?|points?|marks?)\b|%)"
)
# The full stop after a month is kept only after a short form ("4 Oct."), not after a
# whole name that ends a sentence ("the 3rd of October.").
_ABBREVIATION_DOT = r"(?:(?<![^\W\d_]{5})\.)?"
_DM_TWO_DIGITS = r"(?:(?:0[1-9]|[12][0-9]|3[01])/(?:0?[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])/(?:0[1-9]|[12][0-9]|3[01]))"
_DM_RANGE = rf"{_DM_TWO_DIGITS}[-–]{_DM_TWO_DIGITS}(?![0-9/])"
_DATE_NO_YEAR = (
    # a month and its year ("September 2025", "Ogos 2019"): HIPAA C names the month too
    rf"(?:{_MONTHS_WORDS}|{_LOCAL_MONTHS_WORDS}|(?-i:Mar(?:ch)?|MAR(?:CH)?|May|MAY))\.?,?"
    r"[ ](?:de[ ])?(?:19|20)[0-9]{2}"
    # a range of days ("17-18 Mar") and the Malay "haribulan" ("15hb Mac", "15 hb. Ogos")
    rf"|[0-9]{{1,2}}[-–]{_DAY}[ ](?:{_MONTHS_WORDS}|{_LOCAL_MONTHS_WORDS}|Mar(?:ch)?|(?-i:May|MAY))"
    rf"{_ABBREVIATION_DOT}(?:,?[ ][0-9]{{4}}(?![0-9]))?"
    # a day glued to a month in capitals, as airlines and tickets write it: "19DEC",
    # "07SEP25" (capitals only: "12mar" could be a code)
    r"|[0-9]{1,2}(?-i:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?:[0-9]{2})?"
    # Indonesian and Malay months as shortened after a day number: "12 Des", "3 Mei",
    # "14 Okt" ("Des", "Mei" alone are names; the day before says a date)
    r"|[0-9]{1,2}[ ](?-i:Mei|MEI|Agu|Agt|Ags|AGU|Okt|OKT|Nop|NOP|Des|DES)\b"
    # a range of days and months in digits, one number of each side of two digits
    # ("24/11-26/11", "03/02-07/02"; "1/2-3/4" is a dose)
    rf"|{_DM_RANGE}"
    rf"|[0-9]{{1,2}}[ ]?hb\.?[ ](?:{LOCAL_MONTH_NAMES}|{_MONTHS_WORDS}|Mar(?:ch)?|May)\.?"
    r"(?:,?[ ][0-9]{4})?"
    rf"|(?:{_DAY}|1er)[ -](?:{_LOCAL_MONTHS_WORDS})"
    rf"|[0-9]{{1,2}}\.? de (?:{LOCAL_MONTH_NAMES})"
    r"|[0-9]{1,2}\. (?-i:Januar|Februar|M[äa]e?rz|April|Mai|Juni|Juli|August|September|Oktober"
    r"|November|Dezember)"
    rf"|{_DAY}(?:[ -]|\s+of\s+)(?:{_MONTHS_WORDS}|Mar(?:ch)?|(?-i:May|MAY)){_ABBREVIATION_DOT}"
    rf"|(?:{_MONTHS_WORDS}|(?-i:Mar(?:ch)?|MAR(?:CH)?|May|MAY))\.? {_DAY}"
    # a day and a month in digits after a word that says a date follows ("seen on 12/05")
    rf"|{_DIGIT_DAY_MONTH}"
    # a day and a month in digits next to a time of day ("scan 6/3 9.15am", "4pm 27/10"):
    # the time right before it (no "at": "pain 7/10 at 10pm" is a score) or right after
    rf"|(?:(?<=[0-9]am )|(?<=[0-9]pm )|(?<=[0-9]AM )|(?<=[0-9]PM ))(?:{_DM_DAY_MONTH})(?![0-9/-])"
    rf"|(?:{_DM_DAY_MONTH})(?=[ ][0-9]{{1,2}}(?:[.:][0-9]{{2}})?[ ]?(?:am|pm)\b|[ ][0-9]{{1,2}}:[0-9]{{2}}\b)"
    # a weekday and a day of the month ("Wednesday 3rd", "Sat 21st"), not an order of
    # something ("Sunday 1st dose")
    rf"|(?:{_WEEKDAY_CUES}|(?-i:{_WEEKDAY_CAPITAL_CUES}))\.?,?[ ]{_DM_DAY}(?:st|nd|rd|th)\b"
    r"(?![ \t]+(?:doses?|time|line|round|cycle|trimester|degree|floor|place|attempt|try)\b)"
)
# A weekday before a day and month is part of the date ("Sun 9 Nov", "Wednesday, Dec. 3").
_WEEKDAY_BEFORE = (
    rf"(?:(?:{_WEEKDAY_CUES}|(?-i:{_WEEKDAY_CAPITAL_CUES}))\.?,?[ ](?=[0-9]|{_MONTHS}))?"
)
_DATE_START = (
    r"(?=[0-9]|[^\W\d_]{3,11}\.?,?[ ](?:de[ ])?[0-9]"
    rf"|(?:{_WEEKDAY_CUES})\.?,?[ ]{_MONTHS})"
)
# Letter, 7 digits, check letter; a space, dot or dash may stand between the parts.
_NRIC = r"[STFGMstfgm][ .-]?[0-9]{7}[ .-]?[A-Za-z]"
#: The words that name a record, account, licence or ID number (MRN, Account No., NRIC...).
RECORD_PREFIX = (
    r"(?:MRN|SSN|Social\s+Security(?:\s+(?:No\.?|Number|#))?|MR\s?No\.?|Medical\s+Record(?:\s+(?:No\.?|Number))?|A/C(?:\s+No\.?)?|"
    r"Acc(?:oun)?t\.?(?:\s+(?:No\.?|Number))?|Account(?:\s+(?:No\.?|Number))?|"
    r"Licen[cs]e(?:\s+(?:No\.?|Number))?|Policy(?:\s+(?:No\.?|Number))?|"
    r"Member(?:ship)?(?:\s+(?:ID|No\.?|Number))?|Passport(?:\s+(?:No\.?|Number))?|"
    r"Case(?:\s+(?:No\.?|Number))|Ref(?:erence)?(?:\s+(?:No\.?|Number))?|ID(?:\s+No\.?)?|"
    # an identity card number named as such is an ID even with a mistyped check letter
    r"NRIC(?:\s+No\.?)?|FIN(?:\s+No\.?)?|I/?C(?:\s+No\.?)?|"
    # other countries' identity numbers by name (core.detect.national_ids)
    r"MyKad|(?:No\.?\s+)?K/?P|NIK|KTP|PhilSys(?:\s+(?:No\.?|Number))?|PSN|HKID|TFN|"
    r"Tax\s+File\s+(?:No\.?|Number)|Medicare(?:\s+(?:No\.?|Number|Card))?|"
    # India's Aadhaar (UID) and PAN, the UK's NI number, US SSN and licence shorthands
    r"Aadhaa?r(?:\s+(?:No\.?|Number|Card))?|UIDAI|UID(?:\s+No\.?)?|PAN(?:\s+(?:No\.?|Number|Card))?|"
    r"NHS(?:\s+(?:No\.?|Number))?|NINO|NI\s+(?:No\.?|Number)|National\s+Insurance(?:\s+(?:No\.?|Number))?|SS\s?#|"
    r"DL(?:\s+No\.?)|Driv(?:er'?s|ing)\s+Licen[cs]e(?:\s+(?:No\.?|Number))?|Lic\.?(?:\s+No\.?)?|"
    # Ireland's PPS number, Canada's social insurance number, the Philippines' SSS and UMID
    # (the short ones in capitals only: "sin", "sss" are also words or sounds)
    r"(?-i:PPSN|PPS|SIN|S\.I\.N\.|SSS|UMID)(?:\s+(?:No\.?|Number|CRN))?|"
    # New Zealand's IRD number, Nigeria's NIN (capitals: "nin" is a word in some
    # languages), a driving licence as "DL" alone in capitals ("DL K420-6618-9923")
    r"IRD(?:\s+(?:No\.?|Number))?|(?-i:NIN|DL)(?:\s+(?:No\.?|Number))?|"
    # a work permit (Singapore's printed "WP 0 4453121 8")
    r"Work\s+Permit(?:\s+(?:No\.?|Number))?(?:\s+(?-i:WP))?|(?-i:WP)(?:\s+No\.?)?|"
    r"Social\s+Insurance(?:\s+(?:No\.?|Number))?|"
    # (core.detect.world_ids) Pakistan's CNIC, Sri Lanka's NIC, Vietnam's CCCD/CMND,
    # Bangladesh's NID, Jamaica's TRN, the UAE's Emirates ID, the Ghana Card, a TIN
    r"(?-i:CNIC|NIC|CCCD|CMND|NID|TRN|EID|TIN)(?:\s+(?:No\.?|Number))?|"
    r"Emirates\s+ID(?:\s+(?:No\.?|Number))?|Ghana\s+Card(?:\s+(?:No\.?|Number))?)"
)


# A domain name in lower case: labels of letters, digits and hyphens, a top-level domain
# of the common generic ones or any two letters (a country), maybe a second one ("co.uk").
_BARE_DOMAIN = (
    r"(?-i:(?:[a-z0-9][a-z0-9-]{0,62}\.)+"
    r"(?:com|org|net|edu|gov|info|biz|io|app|dev|me|[a-z]{2})(?:\.[a-z]{2})?)"
)


def _compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _bounded(core: str) -> str:
    """``core`` not glued to letters, digits or the same punctuation on either side."""
    return rf"(?<![\w@.+/-])(?:{core})(?![\w@]|[.-]\w)"


_BUILTIN = (
    Pattern(
        "email",
        _compile(_bounded(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")),
        "EMAIL",
        "an email address",
        cell=r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
    ),
    Pattern(
        "url",
        _compile(
            r"(?<![\w@])(?:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)]"
            # a person's page written without www or http, its path says so:
            # "facebook.com/hafiz.jaafar", "kavitha.blogspot.in/2024/05/x" (a bare
            # domain, "example.com", is a site, not a person's page)
            rf"|(?<![\w@./-]){_BARE_DOMAIN}/(?=[\w@])[^\s<>\"']*[^\s<>\"'.,;:!?)]"
            # or a handle ("tiktok.com/@yx.tan"), or a blog on a blogging host's
            # subdomain: "kavitha.wordpress.com", "jdoe.github.io"
            r"|(?<![\w@./-])(?-i:[a-z0-9][a-z0-9-]{0,62}\.)"
            r"(?:wordpress|blogspot|tumblr|substack|wixsite|weebly|medium)\.com(?![\w/-])"
            r"|(?<![\w@./-])(?-i:[a-z0-9][a-z0-9-]{0,38})\.github\.io(?![\w/-])",
            re.IGNORECASE,
        ),
        "URL",
        "a web address (URL)",
        cell=r"(?i:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)]",
    ),
    Pattern(
        "ipv4",
        _compile(_bounded(rf"{_OCTET}(?:\.{_OCTET}){{3}}")),
        "IP",
        "an IPv4 address",
        cell=rf"{_OCTET}(?:\.{_OCTET}){{3}}",
    ),
    Pattern(
        "ipv6",
        _compile(rf"(?<![\w:])(?:{_IPV6})(?![\w:])"),
        "IP",
        "an IPv6 address",
        validator=lambda text: text.count(":") >= 2,
        cell=_IPV6,
    ),
    Pattern(
        "mac",
        _compile(_bounded(r"[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4}")),
        "MAC",
        "a MAC (device) address",
        cell=r"[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}",
    ),
    Pattern(
        "nric",
        _compile(_bounded(_NRIC)),
        "ID",
        "a Singapore NRIC/FIN number with a valid check letter (S1234567D, S 1234567 D)",
        validator=valid_nric,
        cell=_NRIC,
    ),
    Pattern(
        "ssn",
        _compile(_bounded(r"[0-9]{3}([-. ])[0-9]{2}\1[0-9]{4}")),  # 219-09-9999, 219.09.9999
        "ID",
        "a US social security number (valid area, group and serial)",
        validator=valid_ssn,
        cell=r"[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4}|[0-9]{3}\.[0-9]{2}\.[0-9]{4}",
    ),
    Pattern(
        "nino",
        _compile(
            _bounded(
                r"[A-Za-z]{2}([ -]?)[0-9]{2}\1[0-9]{2}\1[0-9]{2}\1[A-Da-d]|[A-Za-z]{2} ?[0-9]{6} ?[A-Da-d]"
            )
        ),
        "ID",
        "a UK National Insurance number (allocated prefix)",
        validator=valid_nino,
        cell=r"[A-Za-z]{2} ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-Da-d]",
    ),
    *(
        Pattern(
            kind,
            _compile(_bounded(text)),
            "ID",
            description,
            validator=validator,
            cell=cell,
        )
        for kind, (text, cell, description, validator) in (
            NATIONAL_ID_SHAPES | WORLD_ID_SHAPES
        ).items()
    ),
    Pattern(
        "record_code",
        _compile(
            # "MRN: 12345678", "SSN is 219099999", "Aadhaar no. was 234567890124"
            # (not glued by a hyphen to a code before it: "DXB-SIN" is a route)
            rf"(?<![\w-]){RECORD_PREFIX}"
            # a few words saying whose or what for, then a colon: "IRD for WFF query:
            # 123505468", "Policy of the car owner: HX55120987"
            r"(?:[ \t]+(?:for|of)[ \t]+(?:[A-Za-z'’]+[ \t]+){0,2}[A-Za-z'’]+[ \t]*(?=:))?"
            # or asked in a chat and answered on the next turn: "agent: and ID? |
            # customer: 31 022 447"
            r"(?:[ \t]*\?[ \t]*\|?[ \t]*[A-Za-z]{1,12}[ \t]*:)?"
            r"\s*[:#.(]?\s*(?:(?:is|was|=)\s+)?"
            # (or 7-12 digits printed in groups with spaces, as a Canadian SIN, a Kenyan ID
            # or a work permit: "SIN 046 454 286", "ID 27 640 318", "WP 0 4453121 8")
            r"(?P<value>(?=(?:[0-9] ?){7,12}(?! ?[0-9]))[0-9]{1,8}(?: [0-9]{1,8}){1,3}(?! ?[0-9])"
            # (not a date: "ID of the visit: 12/03/2025" is one)
            r"|(?![0-9]{1,2}[/.-][0-9]{1,2}[/.-][0-9]{2,4}(?![0-9]))"
            r"(?=[A-Z0-9/-]*[0-9])[A-Z0-9][A-Z0-9/-]{3,}[A-Z0-9])"
            r"(?![\w])",
            re.IGNORECASE,
        ),
        "ID",
        "a medical record, account, licence, policy or member number after its name",
    ),
    Pattern(
        "vehicle_plate",
        _compile(_bounded(r"[A-Z]{1,3}[0-9]{1,4}[A-Z]")),
        "PLATE",
        "a vehicle plate number (letters, up to 4 digits, a check letter, e.g. SMF1234A)",
        cell=r"[A-Z]{1,3}[0-9]{1,4}[A-Z]",
    ),
    Pattern(
        "date",
        # Every form starts with a digit or a month word (3 to 10 letters) and then
        # ".", ",", a space, maybe "de " and a digit (the forms starting with a month
        # word: "May 18", "Ogos 2019", "marzo de 1990"): the look-ahead spares trying
        # each form at the other places (three times faster on long notes).
        _compile(
            _bounded(f"{_DATE_START}{_WEEKDAY_BEFORE}(?:{_DATE}|{_DATE_NO_YEAR})"), re.IGNORECASE
        ),
        "DATE",
        "a date (with or without its year)",
        cell=f"(?i:{_DATE})",  # a whole cell without a year is not read as a date column
    ),
    Pattern(
        "age_over_89",
        # HIPAA §164.514(b)(2)(i)(C): ages over 89 become the one category "90 or older"
        _compile(OLD_AGE, re.IGNORECASE),
        "AGE 90+",
        "an age of 90 or over stated as an age (aged 92, 94 y/o, (95F))",
        in_text=True,
    ),
    Pattern(
        "postal_code",
        _compile(r"[0-9]{6}"),
        "POSTAL",
        "a 6-digit Singapore postal code",
        in_text=False,
    ),
    Pattern(
        "money",
        _compile(r"-?(?:S?\$|SGD ?)[0-9]{1,3}(?:,?[0-9]{3})*(?:\.[0-9]+)?"),
        "",
        "an amount of money",
        in_text=False,
        identifying=False,
    ),
)

#: The registry, in priority order (earlier kinds win when two match the same text).
PATTERNS: dict[str, Pattern] = {p.kind: p for p in _BUILTIN}
BUILTIN_KINDS = frozenset(PATTERNS)
#: Kinds that are not regular patterns (core.detect.names, .phones, .addresses).
OTHER_KINDS = ("name", "phone", "address")
_LABEL_RE = re.compile(r"[A-Z][A-Z0-9_]{0,19}")


def register_pattern(
    kind: str,
    regex: str | re.Pattern[str],
    validator: Callable[[str], bool] | None = None,
    *,
    label: str = "ID",
    description: str = "",
    in_text: bool = True,
) -> Pattern:
    """Add (or replace) an identifier pattern; every detector uses it from then on.

    ``kind`` is a new lower-case name (e.g. ``"passport_sg"``); ``regex`` matches one
    value (write it without ``^``/``$``: it is used both on whole cells and inside text;
    it is wrapped so it does not match inside a longer word); ``validator(text) -> bool``
    rejects shapes that are not real; ``label`` is what ``redact_text`` writes (``[ID]``
    by default). Example::

        register_pattern("passport_sg", r"[EK][0-9]{7}[A-Z]", label="ID",
                         description="a Singapore passport number")

    Built-in kinds and ``name``/``phone``/``address`` cannot be replaced.
    """
    if not isinstance(kind, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", kind):
        raise ParameterError(
            f"register_pattern: kind must be a lower-case name (letters, digits, _), got {kind!r}."
        )
    if kind in BUILTIN_KINDS or kind in OTHER_KINDS:
        raise ParameterError(f"register_pattern: {kind!r} is built in; choose another name.")
    if not isinstance(label, str) or not _LABEL_RE.fullmatch(label):
        raise ParameterError(
            f"register_pattern: label must be upper-case letters (e.g. 'ID'), got {label!r}."
        )
    if validator is not None and not callable(validator):
        raise ParameterError("register_pattern: validator must be a function text -> bool.")
    source = regex.pattern if isinstance(regex, re.Pattern) else regex
    flags = regex.flags if isinstance(regex, re.Pattern) else 0
    try:
        compiled = re.compile(_bounded(source), flags)
    except (re.error, TypeError) as error:
        raise ParameterError(
            f"register_pattern: the regex for {kind!r} is invalid: {error}."
        ) from None
    if compiled.fullmatch(""):
        raise ParameterError(f"register_pattern: the regex for {kind!r} matches empty text.")
    pattern = Pattern(
        kind,
        compiled,
        label,
        description or f"a {kind.replace('_', ' ')}",
        validator,
        in_text,
        cell=source if not flags & ~re.UNICODE else None,
    )
    PATTERNS[kind] = pattern
    return pattern


def unregister_pattern(kind: str) -> None:
    """Remove a pattern added with :func:`register_pattern` (built-in kinds stay)."""
    if kind in BUILTIN_KINDS:
        raise ParameterError(f"unregister_pattern: {kind!r} is built in and cannot be removed.")
    PATTERNS.pop(kind, None)


def fast_fullmatch(values: pd.Series, source: str | re.Pattern[str]) -> pd.Series:
    """``values.str.fullmatch(source)`` as booleans, in pyarrow's regular-expression engine
    (RE2, one C call over the column) when the expression allows it, else in Python's
    (lookarounds and back-references need Python)."""
    if isinstance(source, str) and len(values):
        try:
            array = pa.array(values.to_numpy(dtype=object), type=pa.string(), from_pandas=True)
            matched = pc.match_substring_regex(array, f"^(?:{source})$")
            return pd.Series(
                matched.fill_null(False).to_numpy(zero_copy_only=False),
                index=values.index,
                dtype=bool,
            )
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            pass
    return values.str.fullmatch(source).fillna(False).astype(bool)


def _fullmatch(values: pd.Series, pattern: Pattern) -> pd.Series:
    return fast_fullmatch(values, pattern.cell if pattern.cell is not None else pattern.regex)


def full_match_mask(values: pd.Series, kind: str) -> pd.Series:
    """Which values (stripped strings) are, as a whole, a ``kind`` (with its validator)."""
    pattern = PATTERNS[kind]
    shaped = _fullmatch(values, pattern)
    if pattern.validator is None or not shaped.any():
        return shaped
    checked = {v: pattern.accepts(v) for v in values[shaped].unique()}
    shaped[shaped] = values[shaped].map(checked).astype(bool)
    return shaped


def full_match_share(values: pd.Series, counts: pd.Series | None, kind: str) -> float:
    """Share of rows whose value is a whole ``kind``.

    ``values`` are distinct stripped strings and ``counts`` how often each occurs (None
    when each occurs once), so the work is done once per distinct value.
    """
    mask = full_match_mask(values, kind)
    if counts is None:
        return float(mask.mean()) if len(mask) else 0.0
    total = float(counts.sum())
    return float(counts[mask.to_numpy()].sum()) / total if total else 0.0
