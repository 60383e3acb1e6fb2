"""Detectors of personal data in values: one place, used by every step that needs them.

- :mod:`.patterns`: identifiers with a regular shape (email, URL, NRIC/FIN with its check
  letter, US SSN, UK NINO, record/account/licence codes, IPv4/IPv6, MAC, vehicle plates,
  dates, postal codes) and :func:`register_pattern` for your own;
- :mod:`.phones`: phone numbers of any country (Google's libphonenumber);
- :mod:`.addresses`: street addresses (Singapore in any case, UK, US and Indian shapes);
- :mod:`.names`: person names (hand-written and census name lists, see :mod:`.lexicon`, plus
  the shape of a name);
- :mod:`.columns`: what a column's values are, with the evidence (Step 1, Know your data);
  :mod:`.column_phones` for phone columns (and codes that only look like phones);
- :mod:`.quasi`: quasi-identifiers read from values (age, year of birth, gender, country,
  job title from ``data/occupations.txt``, postal codes of several countries);
- :mod:`.text`: the free-text scanner (entities inside text cells, counts, redaction).

Users: :func:`core.schema.suggest_roles` (Step 1), the ``redact_text`` recipe step
(:mod:`core.techniques.redaction`, Step 2), :mod:`core.safe_harbor` and the dashboard.
"""

from core.detect.patterns import PATTERNS, Pattern, register_pattern, unregister_pattern
from core.detect.text import (
    Entity,
    entity_kinds,
    find_entities,
    label_of,
    resolve_kinds,
    scan_table,
    scan_values,
)

__all__ = [
    "PATTERNS",
    "Entity",
    "Pattern",
    "entity_kinds",
    "find_entities",
    "label_of",
    "register_pattern",
    "resolve_kinds",
    "scan_table",
    "scan_values",
    "unregister_pattern",
]
