"""Street addresses: house or block number, street, unit, town and postal code.

The PDPC guide (Annex B) treats an address as an indirect identifier to generalise to a
zone; HIPAA Safe Harbor removes every geographic subdivision smaller than a state
(identifier B). Shapes recognised (one compiled expression, bounded repetitions so a
long cell cannot make it backtrack):

* number first: ``104 Clementi Avenue 2 #09-57 Singapore 806799``, ``Blk 123 Jurong West
  Street 41``, ``221B Baker Street, London NW1 6XE``, ``1600 Pennsylvania Ave NW,
  Washington, DC 20500``: a number, 1-4 capitalised words, a street word (Street, Road,
  Avenue, Drive, Lane, Crescent, ...), then optionally a street number, a unit
  (``#09-57``, ``Apt 4``), a town and a postal code (Singapore 6 digits, UK postcode,
  US state + ZIP);
* Malay street names: ``Jalan Bukit Merah``, ``Lorong 1 Toa Payoh`` with the same tail;
* ``Singapore 806799`` / ``S(806799)`` alone (a postal code named as such), a UK postcode
  alone (``SW1A 1AA``).
"""

from __future__ import annotations

import re

__all__ = ["ADDRESS", "find_addresses"]

_STREET = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Drive|Dr|Lane|Ln|Crescent|Cres|Close|Way|Boulevard|"
    r"Blvd|Place|Pl|Court|Ct|Terrace|Walk|Link|Rise|View|Grove|Gardens|Park|Square|Sq|"
    r"Highway|Hwy|Central|Circle|Parkway|Pkwy|Row|Mews|Hill|Heights|Loop|Green|Quay)"
)
_WORDS = r"(?:[A-Z][A-Za-z'’.-]*\s+){1,4}"
_UNIT = (
    r"(?:,?\s*#[0-9]{1,3}-[0-9]{1,5}[A-Z]?|,?\s*(?:Apt|Unit|Suite|Flat|Ste)\.?\s*#?[0-9A-Z-]{1,6})"
)
_UK_POSTCODE = r"[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}"
_POSTAL = rf"(?:(?:Singapore|S)\s*\(?[0-9]{{6}}\)?|{_UK_POSTCODE}|[A-Z]{{2}}\s+[0-9]{{5}}(?:-[0-9]{{4}})?)"
_TOWN = r"(?:,?\s+[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+){0,2})"
_TAIL = rf"(?:\s+[0-9]{{1,3}}[A-Z]?)?{_UNIT}?(?:{_TOWN}?,?\s+{_POSTAL})?"
_NUMBER_FIRST = rf"(?:(?:Blk|Block)\s+)?[0-9]{{1,5}}[A-Z]?,?\s+{_WORDS}{_STREET}\.?(?![A-Za-z])(?:\s+(?:NW|NE|SW|SE|N|S|E|W)(?![\w]))?"
_MALAY = r"(?:(?:Blk|Block)\s+[0-9]{1,5}[A-Z]?\s+|[0-9]{1,5}[A-Z]?,?\s+)?(?:Jalan|Jln|Lorong|Lor)\s+(?:[0-9]{1,3}\s+)?(?:[A-Z][A-Za-z]+)(?:\s+[A-Z][A-Za-z]+){0,3}"
# A UK postcode alone ("SW1A 1AA"): written with its space, in capitals.
_UK_POSTCODE_ALONE = r"[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}"
ADDRESS = re.compile(
    rf"(?<![\w#])(?:(?:{_NUMBER_FIRST}|{_MALAY}){_TAIL}|(?:Singapore|S)\s*\(?[0-9]{{6}}\)?"
    rf"|{_UK_POSTCODE_ALONE})(?![\w])"
)


def find_addresses(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of street addresses inside ``text`` (see the module doc)."""
    return [m.span() for m in ADDRESS.finditer(text)]
