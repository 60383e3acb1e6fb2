"""The state written in an address: what HIPAA Safe Harbor lets an address keep.

45 CFR 164.514(b)(2)(i)(B) removes every geographic subdivision smaller than a state:
street, city, county, precinct and ZIP code (its first 3 digits aside). :func:`state_of`
reads the state an address names, so the preset can cut an address to it: a US state or
territory (its USPS code before a ZIP code or at the end, or its name), an Indian state
or union territory by name, and Singapore (a city-state: the country is the state).
Anything else gives no state and the address is removed whole.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["state_of"]

_US = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
    "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota",
    "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico",
    "GU": "Guam", "VI": "U.S. Virgin Islands", "AS": "American Samoa",
    "MP": "Northern Mariana Islands",
}  # fmt: skip
_INDIA = (
    "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chhattisgarh", "Goa", "Gujarat",
    "Haryana", "Himachal Pradesh", "Jharkhand", "Karnataka", "Kerala", "Madhya Pradesh",
    "Maharashtra", "Manipur", "Meghalaya", "Mizoram", "Nagaland", "Odisha", "Punjab",
    "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana", "Tripura", "Uttar Pradesh",
    "Uttarakhand", "West Bengal", "Andaman and Nicobar Islands", "Chandigarh",
    "Dadra and Nagar Haveli and Daman and Diu", "Delhi", "Jammu and Kashmir", "Ladakh",
    "Lakshadweep", "Puducherry",
)  # fmt: skip
# A USPS code before a ZIP code ("Austin, TX 78701") or closing the address (", TX").
_US_CODE = re.compile(r"(?:^|[\s,])([A-Z]{2})(?:\s+[0-9]{5}(?:-[0-9]{4})?)?\s*$")
# Names of more words first, so "West Virginia" wins over "Virginia". "Washington" and
# "Delhi" are also cities: a name counts only when it ends the address or comes before
# a postal code (", Washington 98101"); "Washington, DC" is read by its code first.
_NAMES = {name.lower(): name for name in (*_US.values(), *_INDIA, "Singapore")}
_BY_NAME = re.compile(
    r"(?:^|[\s,])("
    + "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True))
    + r")\s*(?:[-,]?\s*[0-9]{3} ?[0-9]{3}|[0-9]{5}(?:-[0-9]{4})?)?\s*\.?$",
    re.IGNORECASE,
)
_SINGAPORE = re.compile(r"\bsingapore\b|\bs\s*\(?[0-9]{6}\)?\s*$", re.IGNORECASE)


def state_of(values: pd.Series) -> pd.Series:
    """The state each address names (see the module doc), missing where none is read."""
    text = values.astype("str").str.strip()
    upper = text.str.upper()
    code = upper.str.extract(_US_CODE, expand=False)
    state = code.where(code.isin(_US.keys())).map(_US)
    named = text.str.extract(_BY_NAME, expand=False).str.lower().map(_NAMES)
    state = state.fillna(named)
    state = state.where(state.notna() | ~text.str.contains(_SINGAPORE), "Singapore")
    return state.where(values.notna())
