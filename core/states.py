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
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["state_of"]

_US = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "DC": "District of Columbia",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "PR": "Puerto Rico",
    "GU": "Guam",
    "VI": "U.S. Virgin Islands",
    "AS": "American Samoa",
    "MP": "Northern Mariana Islands",
}
_INDIA = (
    "Andhra Pradesh",
    "Arunachal Pradesh",
    "Assam",
    "Bihar",
    "Chhattisgarh",
    "Goa",
    "Gujarat",
    "Haryana",
    "Himachal Pradesh",
    "Jharkhand",
    "Karnataka",
    "Kerala",
    "Madhya Pradesh",
    "Maharashtra",
    "Manipur",
    "Meghalaya",
    "Mizoram",
    "Nagaland",
    "Odisha",
    "Punjab",
    "Rajasthan",
    "Sikkim",
    "Tamil Nadu",
    "Telangana",
    "Tripura",
    "Uttar Pradesh",
    "Uttarakhand",
    "West Bengal",
    "Andaman and Nicobar Islands",
    "Chandigarh",
    "Dadra and Nagar Haveli and Daman and Diu",
    "Delhi",
    "Jammu and Kashmir",
    "Ladakh",
    "Lakshadweep",
    "Puducherry",
)
# A USPS code before a ZIP code ("Austin, TX 78701") or closing the address (", TX").
_US_CODE = r"(?:^|[\s,])(?P<code>[A-Z]{2})(?:\s+[0-9]{5}(?:-[0-9]{4})?)?\s*$"
# Names of more words first, so "West Virginia" wins over "Virginia". "Washington" and
# "Delhi" are also cities: a name counts only when it ends the address or comes before
# a postal code (", Washington 98101"); "Washington, DC" is read by its code first.
_NAMES = {name.lower(): name for name in (*_US.values(), *_INDIA, "Singapore")}
_BY_NAME = (
    r"(?i)(?:^|[\s,])(?P<name>"
    + "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True))
    + r")\s*(?:[-,]?\s*[0-9]{3} ?[0-9]{3}|[0-9]{5}(?:-[0-9]{4})?)?\s*\.?$"
)
_SINGAPORE = r"(?i)\bsingapore\b|\bs\s*\(?[0-9]{6}\)?\s*$"


def state_of(values: pd.Series) -> pd.Series:
    """The state each address names (see the module doc), missing where none is read.

    The expressions run in Arrow's RE2 engine on the whole column at once (Python's
    engine took 5 s for 200,000 addresses, trying 90 state names at every position)."""
    present = values.notna()
    text = pa.array(values.astype("object").where(present, None).tolist(), type=pa.large_string())
    text = pc.utf8_trim_whitespace(text)
    code = pc.extract_regex(pc.utf8_upper(text), _US_CODE).field("code").to_pandas()
    state = pd.Series(code, index=values.index).map(_US)
    named = pc.extract_regex(text, _BY_NAME).field("name").to_pandas()
    named = pd.Series(named, index=values.index).str.lower().map(_NAMES)
    state = state.fillna(named)
    singapore = pc.fill_null(pc.match_substring_regex(text, _SINGAPORE), False)
    singapore = singapore.to_numpy(zero_copy_only=False).astype(bool)
    state = state.where(state.notna() | ~singapore, "Singapore")
    return state.where(present)
