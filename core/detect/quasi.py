"""Quasi-identifiers read from a column's values when its header says nothing (Step 1).

The PDPC guide (Step 1) names age, gender, date of birth, postal code and job title as
indirect identifiers; a header such as ``c7`` or ``col_b`` must not hide them. Each check
takes a column's *distinct* sampled values (stripped strings) with their counts and
returns an :class:`~core.detect.evidence.Evidence` or None:

- :func:`age_evidence`: whole numbers of 0-120 spread like the ages of people;
- :func:`birth_year_evidence`: years of 1880 to this year spread over 30 years or more;
- :func:`gender_evidence`: M/F/Male/Female..., with a few "Other", "X", "Unknown" allowed;
- :func:`country_evidence`: names of countries (``data/countries.txt``: libphonenumber's
  English region names, Apache 2.0);
- :func:`occupation_evidence`: a repeated short category whose words are job titles
  (``data/occupations.txt``: head nouns of the US BLS/SOC occupation titles, public
  domain, plus a short hand-written list; see the file's header);
- :func:`place_evidence`: towns, cities and areas (``data/places.txt``: libphonenumber's
  geocoder places of eight countries, Apache 2.0; Singapore's planning areas);
- :func:`postal_evidence`: postal codes of the US (ZIP, ZIP+4), Malaysia (5 digits), the
  UK, Canada, Ireland (Eircode), India (6 digits or ``560 001``), Singapore (6 digits),
  Australia, the Philippines and South Africa (4 digits, with more evidence), or a mix.

Shapes that fit but could be something else (5-digit numbers, 0-100 integers) come back
with ``uncertain=True`` and a reason saying so.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from functools import cache
from importlib import resources

import numpy as np
import pandas as pd

from core.detect.evidence import STEP1, Evidence, pct
from core.detect.lexicon import lookup_words

__all__ = [
    "age_evidence",
    "birth_year_evidence",
    "country_evidence",
    "gender_evidence",
    "occupation_evidence",
    "occupation_words",
    "place_evidence",
    "place_names",
    "postal_evidence",
]

_THRESHOLD = 0.8


def _weighted_share(mask: np.ndarray, counts: pd.Series) -> float:
    total = float(counts.sum())
    return float(counts.to_numpy()[mask].sum()) / total if total else 0.0


# Words a column of numbers may hold instead of a number ("unknown", "N/A", "-"): at most
# this share of rows, and only without a digit ("94 years" is an age written out).
_NOT_A_NUMBER = 0.05


def _listed(values: pd.Series, words: Collection[str]) -> np.ndarray:
    """Which values (lower-cased, stripped of spaces and dots) are in ``words``. A Python
    set lookup: pandas' ``isin`` on Arrow strings converts each listed word to an Arrow
    scalar, 15 ms a call for the 13,000 place names."""
    lowered = values.str.lower().str.strip(" .").tolist()
    return np.fromiter(
        # "United-States", "Puerto_Rico": words joined as in some exports
        (v in words or re.sub(r"[-_]", " ", v) in words for v in lowered),
        bool,
        len(lowered),
    )


def _whole_numbers(
    values: pd.Series, counts: pd.Series
) -> tuple[np.ndarray, pd.Series, float] | None:
    """The values written as whole numbers, their counts and their share of rows; None
    unless every other value (at most 5% of rows) is a word without a digit."""
    numeric = values.str.fullmatch(r"[0-9]{1,4}")
    if values.empty or not numeric.any():
        return None
    others = values[~numeric]
    if others.str.contains("[0-9]", regex=True).any():
        return None
    share = _weighted_share(numeric.to_numpy(), counts)
    if share < 1 - _NOT_A_NUMBER:
        return None
    return values[numeric].astype("int64").to_numpy(), counts[numeric.to_numpy()], share


def _weighted_median(numbers: np.ndarray, counts: pd.Series) -> float:
    order = np.argsort(numbers)
    cumulative = np.cumsum(counts.to_numpy()[order])
    return float(numbers[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def age_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """Whole numbers of 0-120, at least 10 distinct over a range of 20 or more, not a
    row counter (all distinct), hardly any over 105 (people that old are a few in a
    million; a heart rate or a weight goes there often): the shape of ages.

    The evidence is firm with 30 distinct values or more, the youngest 25 or under and
    the oldest 60 or over, a median of 15-75, and at most 2% aged 95 or over (under 1% of
    any population is; a score or a percentage of 0-100 has 5%); otherwise a count or a
    score fits as well, and the suggestion says so."""
    found = _whole_numbers(values, counts)
    if found is None:
        return None
    numbers, counts, share = found
    if len(numbers) < 10 or numbers.max() > 120:
        return None
    n = int(counts.sum())
    spread = int(numbers.max() - numbers.min())
    if spread < 20 or numbers.max() < 30 or (n >= 20 and len(numbers) == n):
        return None
    if _weighted_share(numbers > 105, counts) > 0.005:
        return None
    median = _weighted_median(numbers, counts)
    firm = (
        len(numbers) >= 30
        and numbers.min() <= 25
        and numbers.max() >= 60
        and 15 <= median <= 75
        and _weighted_share(numbers >= 95, counts) <= 0.02
    )
    reason = (
        f"{pct(share)} of sampled values are whole numbers from {numbers.min()} to "
        f"{numbers.max()} ({len(numbers)} distinct, median {median:g}), the range of "
        f"people's ages; an age is an indirect identifier {STEP1}"
    )
    if not firm:
        reason += "; a count or a score has the same shape, so check what the column holds"
    return Evidence("age", share, reason + ".", uncertain=not firm)


def birth_year_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """Four-digit years from 1880 to this year spread over 30 years or more, at least 10
    distinct: years of birth, or another year of a long span (a house built in...)."""
    found = _whole_numbers(values, counts)
    if found is None or len(found[0]) < 10:
        return None
    numbers, _, share = found
    if numbers.min() < 1880 or numbers.max() > dt.date.today().year:
        return None
    if numbers.max() - numbers.min() < 30:
        return None
    return Evidence(
        "year_of_birth",
        share,
        f"{pct(share)} of sampled values are years from {numbers.min()} to {numbers.max()}, a span of "
        f"{numbers.max() - numbers.min()} years like the years of birth of a population; a "
        f"year of birth is an indirect identifier (and reveals ages over 89, HIPAA C) "
        f"{STEP1}; another year of a long span has the same shape, so check.",
        uncertain=True,
    )


_GENDERS = frozenset({"m", "f", "male", "female", "man", "woman", "boy", "girl", "men", "women"})
# Other answers a gender column holds besides the two commonest.
_OTHER_GENDERS = frozenset(
    {
        "other",
        "others",
        "o",
        "x",
        "u",
        "unknown",
        "unk",
        "nb",
        "non-binary",
        "nonbinary",
        "non binary",
        "prefer not to say",
        "not stated",
        "not specified",
        "unspecified",
        "undisclosed",
        "declined",
        "intersex",
        "transgender",
        "trans",
        "n/a",
        "na",
        "-",
        "?",
    }
)


def gender_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """At least 80% of rows are M/F/Male/Female (both sexes present) and the rest, at
    most 5% of rows or a few known answers ("Other", "X", "Unknown"), fit a gender
    column."""
    lowered = values.str.lower().str.strip(" .")
    core = _listed(values, _GENDERS)
    other = _listed(values, _OTHER_GENDERS)
    core_share = _weighted_share(core, counts)
    if core_share < _THRESHOLD or lowered[core].str[0].nunique() < 2:
        return None
    rest = _weighted_share(~core & ~other, counts)
    if rest > 0.05:
        return None
    extra = sorted(set(values[~core]))[:5]
    also = f" (and {', '.join(map(repr, extra))})" if extra else ""
    return Evidence(
        "gender",
        core_share,
        f"{pct(core_share)} of sampled values are gender codes such as M/F{also}; gender is "
        f"an indirect identifier {STEP1}.",
    )


def _data_lines(name: str) -> list[str]:
    """The lines of ``data/<name>`` without comments, section headers and blanks (shipped
    with the package; nothing is downloaded)."""
    text = resources.files("core.detect").joinpath(f"data/{name}").read_text("utf-8")
    lines = (raw.split("#", 1)[0].strip().lower() for raw in text.splitlines())
    return [line for line in lines if line and not line.startswith("[")]


@cache
def occupation_words() -> frozenset[str]:
    """The occupation words of ``data/occupations.txt`` (several to a line)."""
    return frozenset(word for line in _data_lines("occupations.txt") for word in line.split())


_WORDS = re.compile(r"[a-z][a-z'-]*")


# Endings of words that name a profession whatever the field (geologist, radiographer,
# optician, psychiatrist, psychotherapist, osteopath), for titles the list lacks.
_PROFESSION_ENDINGS = ("ologist", "ographer", "ician", "iatrist", "therapist", "opath", "ist")
# Endings of English agent nouns (a person who does something: glassblower, croupier,
# goldsmith, fishmonger, doorman, zookeeper, sommelier, auditor, trainee): a title no list
# holds is still likely a job when its words end so. Many other words end so too (cancer,
# ulcer, cooker, dryer), so these count only beside listed titles (see
# :func:`occupation_evidence`).
_AGENT_END = re.compile(
    r"(?:er|or|ier|eur|euse|ee|ist|ian|man|men|woman|person|smith|monger|wright|keeper|hand)$"
)
# Cells that say a value is missing (lower case, stripped): not counted either way.
_MISSING = r"|-+|\.|\?|n/?a|nil|none|null|unknown|not (?:known|stated|applicable|specified)"
# Longer values are sentences, not titles; official titles run to 8 words or so.
_TITLE_WORDS = 10
_TITLE_CHARS = 90
# Titles are short at the median ("Staff nurse", "Senior software engineer"); short notes
# that name a job ("seen by the nurse today") are longer.
_MEDIAN_WORDS = 4


def _singular(word: str) -> tuple[str, ...]:
    """The word and its singular forms (nurses, secretaries, coaches, fishermen)."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s"):
        forms.append(word[:-1])
    if word.endswith("men"):
        forms.append(word[:-3] + "man")
    return tuple(forms)


def _job_verdict(value: str, vocabulary: frozenset[str]) -> str:
    """'listed' when a word of ``value`` is an occupation word (in any number) or ends as
    professions do; 'agent' when none is but one ends like an agent noun; else ''."""
    words = _WORDS.findall(value.lower())
    for word in words:
        if any(form in vocabulary for form in _singular(word)):
            return "listed"
        if len(word) >= 6 and word.endswith(_PROFESSION_ENDINGS):
            return "listed"
    if any(len(word) >= 5 and _AGENT_END.search(word) for word in words):
        return "agent"
    return ""


# A column whose values are all distinct is a job-title column only when this share of
# them, and this many at least, are occupations (a small table rarely repeats a title).
_DISTINCT_JOBS_SHARE = 0.9
_DISTINCT_JOBS_MIN = 10
# Shares of the rows that are not missing: listed titles at least, and listed titles with
# titles of agent nouns at least (a repeated category / distinct values).
_LISTED_SHARE = 0.5
_JOBS_SHARE = 0.7
_DISTINCT_LISTED_SHARE = 0.6


def occupation_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """A column of job titles, whatever its header (issue 26: an occupation column under
    ``c7`` was called near-unique and direct, and an export of real titles "other").

    Read on the rows that are not missing ("", "N/A", "nil", "unknown"): at most 10% of
    them longer than a title (10 words, 90 characters) and 4 words or fewer at the median
    (notes that name a job are free text), and

    - a category (at most 80% of rows distinct, some values repeated: job titles have a
      long tail): at least 50% of rows name a listed occupation word
      (``data/occupations.txt``, in any number: "nurses", "secretaries", "fishermen"; or a
      profession's ending: -ologist, -ician, -therapist) and at least 70% do so or hold an
      agent noun no list has (-er, -or, -ier, -man, -smith, -monger, -keeper...:
      "Glassblower", "Croupier", "Fishmonger"), with 3 distinct listed titles at least;
      seniority and field words ("Senior", "Principal", "Head of") change nothing, as any
      word of a title may name the job;
    - in a small table where no title repeats, 10 distinct values or more: at least 60%
      listed and 90% listed or agent nouns.

    Agent nouns count only beside listed titles: a column of diagnoses ("Peptic ulcer",
    "Anxiety disorder") or appliances ("Rice cooker", "Hair dryer") has few listed words.
    """
    present = ~values.str.lower().str.strip(" .").str.fullmatch(_MISSING).to_numpy(dtype=bool)
    values, counts = values[present], counts[present]
    n = int(counts.sum())
    if len(values) < 3:
        return None
    repeated = len(values) <= max(0.8 * n, 3) and counts.max() >= 2
    if not repeated and len(values) < _DISTINCT_JOBS_MIN:
        return None
    words = values.str.count(r"\S+").to_numpy()
    short = values.str.len().le(_TITLE_CHARS).to_numpy() & (words <= _TITLE_WORDS)
    if _weighted_share(short, counts) < 0.9 or _weighted_median(words, counts) > _MEDIAN_WORDS:
        return None
    vocabulary = occupation_words()
    verdicts = np.array(
        [_job_verdict(v, vocabulary) if ok else "" for v, ok in zip(values, short, strict=True)]
    )
    listed = verdicts == "listed"
    listed_share = _weighted_share(listed, counts)
    share = _weighted_share(verdicts != "", counts)
    if repeated:
        enough = listed_share >= _LISTED_SHARE and share >= _JOBS_SHARE
    else:
        enough = listed_share >= _DISTINCT_LISTED_SHARE and share >= _DISTINCT_JOBS_SHARE
    if not enough or listed.sum() < 3:
        return None
    examples = ", ".join(map(repr, list(values[listed][:3])))
    return Evidence(
        "job_title",
        share,
        f"{pct(share)} of sampled values are occupations (e.g. {examples}; "
        f"{len(values)} distinct in {n}), a column of job titles; a job title is an indirect "
        f"identifier {STEP1}.",
    )


@cache
def country_names() -> frozenset[str]:
    """English names of the world's countries and territories, lower case
    (``data/countries.txt``: libphonenumber's region names, plus USA, UK, UAE...)."""
    return frozenset(_data_lines("countries.txt"))


def country_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """At least 80% of rows are names of countries (2 or more distinct): a country of
    residence, birth or nationality, which narrows who a person is."""
    known = _listed(values, country_names())
    share = _weighted_share(known, counts)
    if share < _THRESHOLD or known.sum() < 2:
        return None
    return Evidence(
        "group",
        share,
        f"{pct(share)} of sampled values are names of countries ({known.sum()} distinct); a "
        f"country of residence, birth or nationality is an indirect identifier {STEP1}.",
    )


@cache
def place_names() -> dict[str, None]:
    """Towns, cities and areas, lower case (``data/places.txt``: libphonenumber's geocoder
    places of eight countries, Singapore's planning areas and regions), as a lookup the
    garbage collector does not walk (:func:`core.detect.lexicon.lookup_words`)."""
    return lookup_words(_data_lines("places.txt"))


def place_evidence(values: pd.Series, counts: pd.Series) -> Evidence | None:
    """At least 80% of rows name a town, city or area (3 distinct or more): a location
    smaller than a state."""
    known = _listed(values, place_names())
    share = _weighted_share(known, counts)
    if share < _THRESHOLD or known.sum() < 3:
        return None
    examples = ", ".join(map(repr, list(values[known][:3])))
    return Evidence(
        "place",
        share,
        f"{pct(share)} of sampled values name towns, cities or areas (e.g. {examples}); a "
        f"place of residence is an indirect identifier {STEP1}, and a place smaller than a "
        "state is a HIPAA Safe Harbor identifier (B).",
    )


# Postal code shapes by country (upper-case values), the digit-only ones by length.
_POSTAL_SHAPES = {
    "5-digit (US ZIP, Malaysia)": r"[0-9]{5}(?:-[0-9]{4})?",
    "6-digit (Singapore, India)": r"[0-9]{6}|[0-9]{3} [0-9]{3}",
    "4-digit (Australia, Philippines, South Africa)": r"[0-9]{4}",
    "UK": r"[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}",
    "Canada": r"[A-Z][0-9][A-Z] ?[0-9][A-Z][0-9]",
    # routing key (a letter and 2 digits, or D6W), a space, and 4 letters or digits (no B
    # G I J L M O Q S U Z), e.g. D04 C3P5; the space is required, as receipt or record
    # numbers such as R12345X have the same characters without it
    "Ireland Eircode": r"(?:[AC-FHKNPRTV-Y][0-9]{2}|D6W) [0-9AC-FHKNPRTV-Y]{4}",
}
_LETTERED = ("UK", "Canada", "Ireland Eircode")
_FOUR_DIGITS = "4-digit (Australia, Philippines, South Africa)"
# A lettered shape in this share of rows at least makes the column's digit codes postal
# codes too (an international customer table: "2000", "50450", "M5V 3L9", "SW1A 1AA").
_LETTERED_SHARE = 0.05
# A digit-only shape counts towards "several lengths" from this share of rows.
_LENGTH_SHARE = 0.1


def _four_digit_codes(
    upper: pd.Series, counts: pd.Series, found: dict[str, float], lettered: float
) -> bool:
    """Whether a column whose postal shapes include bare 4-digit numbers is one of codes.

    Four digits are also years, amounts, counts, PINs and product numbers, so without a
    lettered code (UK, Canada, Eircode in 5% of rows) the column must show two things
    more: (1) it is not years (at most half the rows are 1880 to this year), and the codes
    repeat as neighbours' codes do (distinct values at most half of 20 rows or more; PINs
    and product serials hardly repeat); (2) it is written as codes, not quantities: a
    leading zero ("0870": no amount is written so), or several digit lengths each in 10%
    of rows or more (4, 5 and 6 digits: postal codes of several countries)."""
    if lettered >= _LETTERED_SHARE:
        return True
    numbers = pd.to_numeric(upper.where(upper.str.fullmatch("[0-9]{4}")), errors="coerce")
    years = numbers.between(1880, dt.date.today().year).to_numpy()
    if _weighted_share(years, counts) > 0.5:
        return False
    n = int(counts.sum())
    if n < 20 or len(upper) > n / 2:
        return False
    leading_zero = bool(upper.str.match("0[0-9]{3}$").any())
    lengths = sum(share >= _LENGTH_SHARE for country, share in found.items())
    return leading_zero or lengths >= 2


def postal_evidence(values: pd.Series, counts: pd.Series, *, numeric: bool) -> Evidence | None:
    """At least 80% of rows are postal codes of the shapes above (mixed countries
    allowed); bare 4-digit numbers only as :func:`_four_digit_codes` allows. Digits alone
    are uncertain: a 5- or 6-digit number may be any code."""
    upper = values.str.upper()
    found: dict[str, float] = {}
    matched = np.zeros(len(values), dtype=bool)
    for country, shape in _POSTAL_SHAPES.items():
        mask = upper.str.fullmatch(shape).to_numpy() & ~matched
        if mask.any():
            found[country] = _weighted_share(mask, counts)
            matched |= mask
    share = _weighted_share(matched, counts)
    if share < _THRESHOLD:
        return None
    lettered = sum(found.get(country, 0.0) for country in _LETTERED)
    if _FOUR_DIGITS in found and not _four_digit_codes(upper, counts, found, lettered):
        return None
    listed = ", ".join(f"{pct(v)} {k}" for k, v in sorted(found.items(), key=lambda x: -x[1]))
    digits_only = lettered < _LETTERED_SHARE
    reason = (
        f"{pct(share)} of sampled values have the shape of postal codes ({listed}); a postal "
        f"code is an indirect identifier {STEP1}, and a HIPAA Safe Harbor identifier (B)"
    )
    if digits_only:
        reason += "; other codes of as many digits look the same, so check"
    return Evidence("postal_code", share, reason + ".", uncertain=digits_only or numeric)
