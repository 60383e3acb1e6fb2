"""The roles a column plays in a record, and a suggested role with its evidence (Step 1).

PDPC guide, Step 1 "Know your data": direct identifiers, indirect identifiers
(quasi-identifiers), target attributes, and other columns. :class:`Suggestion` is what
:func:`core.schema.suggest_roles` returns for a column; the detectors that revise a
suggestion (:mod:`core.detect.record_numbers`) and the steps that read one use these types
without importing the suggester itself.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["ROLE_DESCRIPTIONS", "Role", "Suggestion"]


class Role(StrEnum):
    """The role of a column in a record (PDPC guide, Step 1 "Know your data")."""

    DIRECT = "direct"
    INDIRECT = "indirect"
    TARGET = "target"
    OTHER = "other"

    @property
    def description(self) -> str:
        """One plain-language sentence explaining the role."""
        return ROLE_DESCRIPTIONS[self]


ROLE_DESCRIPTIONS: dict[Role, str] = {
    Role.DIRECT: (
        "Direct identifier: unique to a person and usually public or easy to find (e.g. name, "
        "NRIC/FIN, email, mobile number); remove it or replace it with pseudonyms."
    ),
    Role.INDIRECT: (
        "Indirect identifier: not unique alone, but can re-identify a person when combined "
        "with other information (e.g. age, gender and postal code); generalise, mask, swap "
        "or perturb it."
    ),
    Role.TARGET: (
        "Target attribute: the main utility of the data, often sensitive and not public "
        "(e.g. salary, transactions, medical diagnosis); usually kept as it is."
    ),
    Role.OTHER: (
        "Other: no sign that it identifies a person or is the purpose of the data; keep it "
        "only if it is needed (data minimisation)."
    ),
}


@dataclass(frozen=True)
class Suggestion:
    """A suggested role for one column, with the evidence and the guide's technique.

    ``kind`` names what the column appears to hold ("nric", "ssn", "nino", "national_id",
    "email", "phone", "ipv4", "ipv6", "mac", "url", "address", "place", "postal_code",
    "vehicle_plate", "date_of_birth", "year_of_birth", "date", "day_month", "name", "age",
    "gender", "job_title", "image", "mixed", "free_text", "near_unique", "identifier_like",
    "code", "measurement", "money", "category", ...).
    ``reason`` is one plain sentence stating the evidence; ``technique`` is what Annex B
    of the guide suggests for that kind of attribute.
    ``judged_by`` says where the evidence came from: "header", "content" (the sampled
    values), "header and content", or "" when nothing identifying was found.
    ``uncertain`` is True when the kind is unclear (high-cardinality text of no known
    shape, values that fit two kinds such as 5-digit ZIP codes or counts, names in a
    script the detectors do not read): the reason says what to check, and a release
    should wait for a person's explicit decision on the column.
    """

    column: Hashable
    role: Role
    kind: str
    reason: str
    technique: str
    uncertain: bool = False
    judged_by: str = ""
