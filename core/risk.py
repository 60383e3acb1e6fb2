"""Risk models: the probability that a record is re-identified.

- Prosecutor risk (PDPC guide, Annex D): the attacker knows the person is in the data;
  a record's risk is 1 / (its equivalence class size); the table's risk is the maximum,
  1 / k (the guide's conservative choice, footnote 14), and we also give the average.
- Journalist risk: the attacker does not know whether the person is in the data; the
  class is looked up in a population table, so the risk is 1 / (matching people in the
  population).
- The Annex D model: P(re-ID) = P(re-ID attempt) / k, where P(attempt) is the largest of
  the deliberate insider attack, recognition by an acquaintance, and a data breach.
- The uniqueness estimate of Gibbon and Aisbett, "Matching records on birthdate, sex and
  locality": the chance that a person's birthday is unique among N people of their age
  and sex, and the expected share of such uniques.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.figure_names import P_ATTEMPT
from core.formatting import fmt_count, fmt_number, fmt_percent, fmt_probability
from core.measures.classes import EquivalenceClasses, resolve_classes
from core.measures.codes import combined_codes
from core.measures.disclosure import l_and_t_of
from core.measures.distributions import classes_and_distribution, sensitive_distribution
from core.measures.impact import (
    QuasiIdentifierImpact,
    classes_and_impact,
    impact_of_keys,
    quasi_identifier_impact,
)
from core.measures.models.base import ClassTable
from core.measures.models.registry import MODELS
from core.progress import ProgressFn, no_progress
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_positive,
    require_probability,
    shown_value,
)

# --- Annex D ------------------------------------------------------------------------

#: Annex D, Scenario #1: P(insider attack) by extent of mitigating controls (rows) and
#: the attacker's motivation and resources (columns). The guide calls these example
#: values, to be adjusted by the party anonymising the data.
INSIDER_ATTACK_TABLE: dict[str, dict[str, float]] = {
    "high": {"low": 0.03, "medium": 0.05, "high": 0.1},
    "medium": {"low": 0.2, "medium": 0.25, "high": 0.3},
    "low": {"low": 0.4, "medium": 0.5, "high": 0.6},
    "none": {"low": 1.0, "medium": 1.0, "high": 1.0},
}
CONTROL_LEVELS = ("none", "low", "medium", "high")
MOTIVATION_LEVELS = ("low", "medium", "high")

#: Annex D: example risk thresholds by the potential harm of re-identification.
HARM_THRESHOLDS: dict[str, float] = {"low": 0.2, "medium": 0.1, "high": 0.01}


def risk_threshold(harm: str | float) -> float:
    """The Annex D threshold for a harm level ("low", "medium", "high") or a number."""
    if isinstance(harm, str):
        try:
            return HARM_THRESHOLDS[harm]
        except KeyError:
            pass
        try:
            harm = float(harm)
        except ValueError:
            raise ParameterError(
                f"Parameter 'harm' must be low, medium, high or a probability, got {harm!r}."
            ) from None
    value = require_probability("harm", harm)
    if value == 0:
        raise ParameterError("Parameter 'harm' as a threshold must be greater than 0.")
    return value


@dataclass(frozen=True)
class AnnexDResult:
    """The outcome of the Annex D re-identification risk model."""

    k: int
    controls: str
    motivation: str
    p_insider: float
    p_acquaintance: float
    p_breach: float
    p_attempt: float
    driving_scenario: str
    p_reid_given_attempt: float
    p_reid: float
    threshold: float
    acceptable: bool
    min_k: int

    def to_dict(self) -> dict:
        return asdict(self)

    def assumptions(self) -> list[str]:
        """The scenario the verdict assumes, one line each, as Annex D sets it out: the
        three attack scenarios' P(re-ID attempt), the insider attack's two inputs, the
        largest of the three (under the name the dashboard shows it by, P(attempt)), and
        the threshold for the potential harm."""
        return [
            f"Scenario #1, deliberate insider attack: P = {self.p_insider:g} (extent of "
            f"mitigating controls: {self.controls}; attacker motivation and resources: "
            f"{self.motivation})",
            f"Scenario #2, recognition by an acquaintance: P(recipient knows a person in the "
            f"data) = {self.p_acquaintance:g}",
            f"Scenario #3, data breach: P(breach in the recipient's industry) = {self.p_breach:g}",
            f"{P_ATTEMPT.name} = the largest, {self.p_attempt:g} ({self.driving_scenario})",
            f"Threshold for the potential harm: {self.threshold:g}",
        ]

    def explanation(self) -> str:
        """The verdict in one plain sentence."""
        verdict = "within" if self.acceptable else "above"
        return (
            f"With k = {self.k}, the chance that a record is re-identified is "
            f"{self.p_reid:.4g} (= {self.p_attempt:g} chance of an attempt, driven by the "
            f"{self.driving_scenario}, divided by k), {verdict} the threshold of "
            f"{self.threshold:g}; k of at least {self.min_k} would meet it (PDPC guide, Annex D)."
        )


def smallest_k(p_attempt: float, threshold: float) -> int:
    """The smallest k with p_attempt / k <= threshold (at least 1)."""
    if p_attempt <= threshold:
        return 1
    k = max(1, math.ceil(p_attempt / threshold - 1e-9))
    while p_attempt / k > threshold * (1 + 1e-12):
        k += 1
    return k


def annex_d_risk(
    k: int,
    *,
    controls: str,
    motivation: str,
    acquaintance: float = 0.0,
    breach: float = 0.0,
    harm: str | float = "medium",
    insider_table: Mapping[str, Mapping[str, float]] | None = None,
) -> AnnexDResult:
    """P(re-ID) = P(re-ID attempt) / k with the three attack scenarios (PDPC guide, Annex D).

    ``controls`` is the extent of mitigating controls (none/low/medium/high),
    ``motivation`` the attacker's motivation and resources (low/medium/high),
    ``acquaintance`` P(the recipient knows a person in the data) and ``breach``
    P(a data breach in the recipient's industry). ``insider_table`` overrides the
    guide's example table (same shape as :data:`INSIDER_ATTACK_TABLE`).
    """
    k = require_int("k", k, minimum=1)
    require_choice("controls", controls, CONTROL_LEVELS)
    require_choice("motivation", motivation, MOTIVATION_LEVELS)
    p_acquaintance = require_probability("acquaintance", acquaintance)
    p_breach = require_probability("breach", breach)
    table = insider_table if insider_table is not None else INSIDER_ATTACK_TABLE
    try:
        p_insider = require_probability(
            f"insider_table[{controls}][{motivation}]", table[controls][motivation]
        )
    except KeyError:
        raise ParameterError(
            f"The insider attack table has no entry for controls={controls!r}, "
            f"motivation={motivation!r}; give all four control levels and three motivations."
        ) from None
    threshold = risk_threshold(harm)
    scenarios = {
        "deliberate insider attack": p_insider,
        "recognition by an acquaintance": p_acquaintance,
        "data breach": p_breach,
    }
    driving = max(scenarios, key=scenarios.__getitem__)
    p_attempt = scenarios[driving]
    p_reid = p_attempt / k
    return AnnexDResult(
        k=k,
        controls=controls,
        motivation=motivation,
        p_insider=p_insider,
        p_acquaintance=p_acquaintance,
        p_breach=p_breach,
        p_attempt=p_attempt,
        driving_scenario=driving,
        p_reid_given_attempt=1.0 / k,
        p_reid=p_reid,
        threshold=threshold,
        acceptable=p_reid <= threshold * (1 + 1e-12),
        min_k=smallest_k(p_attempt, threshold),
    )


# --- prosecutor and journalist risk ---------------------------------------------------


def journalist_class_population(
    sample: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    count_column: str | None = None,
) -> np.ndarray:
    """For each sample record, how many people in the population share its values.

    ``population`` has one row per person, or one row per combination with the number
    of people in ``count_column``. A sample record absent from the population counts as
    1 (the person themself), the cautious choice.
    """
    quasi_identifiers = require_columns(sample, quasi_identifiers, parameter="quasi_identifiers")
    require_columns(population, quasi_identifiers, parameter="population columns")
    weights = None
    if count_column is not None:
        require_columns(population, count_column, parameter="count_column")
        weights = pd.to_numeric(population[count_column], errors="coerce")
        if weights.isna().any() or (weights < 0).any():
            row = int(np.flatnonzero(weights.isna() | (weights < 0))[0])
            raise ParameterError(
                f"Population column '{count_column}' must hold counts of people; row "
                f"{row + 1} has {shown_value(population[count_column].iloc[row])}."
            )
        weights = weights.to_numpy(dtype=float)
    # Code both tables together so that equal values get equal codes. Values are compared
    # in core's one text form (as_text): an int 30 in the sample and a float 30.0 in a
    # population column with a gap are the same age; astype(str) would give "30" / "30.0".
    both = pd.concat(
        [
            sample[quasi_identifiers].apply(as_text),
            population[quasi_identifiers].apply(as_text),
        ],
        ignore_index=True,
    )
    codes, n_groups = combined_codes(both, quasi_identifiers)
    sample_codes, population_codes = codes[: len(sample)], codes[len(sample) :]
    people = np.bincount(population_codes, weights=weights, minlength=n_groups)
    return np.maximum(people[sample_codes], 1.0)


@dataclass(frozen=True)
class RiskReport:
    """Step 4 figures for one choice of quasi-identifiers (PDPC guide, Step 4, Annex C/D)."""

    quasi_identifiers: tuple[str, ...]
    k_threshold: int
    records: int
    classes: int
    k: int
    uniques: int
    records_below_k: int
    share_below_k: float
    max_risk: float
    avg_risk: float
    records_at_max_risk: int
    class_sizes: pd.DataFrame = field(repr=False)
    impact: tuple[QuasiIdentifierImpact, ...] = ()
    sensitive: str | None = None
    l_distinct: int | None = None
    l_entropy: float | None = None
    t_closeness: float | None = None
    t_distance: str | None = None
    journalist_max_risk: float | None = None
    journalist_avg_risk: float | None = None
    # The table's figure of every privacy model of the registry (core.measures.models), by
    # name; None when the table does not tell (no sensitive column, no population).
    model_figures: Mapping[str, float | None] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Plain JSON-ready figures (the command line's ``risk --json``)."""
        data = {
            "quasi_identifiers": list(self.quasi_identifiers),
            "k_threshold": self.k_threshold,
            "records": self.records,
            "classes": self.classes,
            "k": self.k,
            "uniques": self.uniques,
            "records_below_k": self.records_below_k,
            "share_below_k": self.share_below_k,
            "max_risk": self.max_risk,
            "avg_risk": self.avg_risk,
            "records_at_max_risk": self.records_at_max_risk,
            "class_size_distribution": self.class_sizes.to_dict(orient="records"),
            "quasi_identifier_impact": [asdict(i) for i in self.impact],
        }
        if self.sensitive is not None:
            data.update(
                sensitive=self.sensitive,
                l_distinct=self.l_distinct,
                l_entropy=self.l_entropy,
                t_closeness=self.t_closeness,
                t_distance=self.t_distance,
            )
        if self.journalist_max_risk is not None:
            data.update(
                journalist_max_risk=self.journalist_max_risk,
                journalist_avg_risk=self.journalist_avg_risk,
            )
        data["privacy_models"] = dict(self.model_figures)
        return _plain(data)

    def model_rows(self) -> list[tuple[str, str, float, str]]:
        """``(name, title, figure, explanation)`` of each privacy model of the registry whose
        figure the table tells and no other figure of the report already shows (k, distinct
        l, t): what the report and the Risk page add below the figures above."""
        rows = []
        for name, model in MODELS.items():
            value = self.model_figures.get(name)
            if name in SHOWN_ELSEWHERE or value is None:
                continue
            on = f" of '{self.sensitive}'" if model.needs_sensitive else ""
            explanation = (
                f"{model.figure_words.capitalize()}{on}: {fmt_number(value)}. A group passes "
                f"{model.title} when {model.words}."
            )
            rows.append((name, model.title, value, explanation))
        return rows

    def attribute_disclosure(self) -> str | None:
        """A warning when some group reveals its sensitive value (distinct l-diversity = 1).

        k-anonymity alone does not stop this: if every record of a group has the same
        value of the sensitive attribute, knowing someone is in the group tells it (the
        homogeneity attack, PDPC guide, Step 4 footnote 11). None when no sensitive
        attribute was chosen or every group has at least two values.
        """
        if self.sensitive is None or self.l_distinct is None or self.l_distinct > 1:
            return None
        return (
            f"l-diversity = 1: at least one group of look-alike records has a single value of "
            f"'{self.sensitive}', so anyone who can place a person in that group learns it, "
            "whatever k is (homogeneity attack, PDPC guide, Step 4 footnote 11). Generalise "
            "further or suppress those groups (Techniques, suppression with l-diversity)."
        )

    def explanations(self) -> dict[str, str]:
        """One plain-language sentence per figure, naming the guide section."""
        text = {
            "k": f"The smallest group of records that look alike on "
            f"{', '.join(self.quasi_identifiers)} has {self.k} record(s); the table is "
            f"{self.k}-anonymous (PDPC guide, Step 4).",
            "uniques": f"{fmt_count(self.uniques)} record(s) are one of a kind on these attributes and "
            "could be singled out by anyone who knows them (Step 4: k = 1 means unique).",
            "records_below_k": f"{fmt_count(self.records_below_k)} record(s) "
            f"({fmt_percent(self.share_below_k)}) "
            f"sit in groups smaller than the target k = {self.k_threshold}; suppress them or "
            "generalise further (Annex C).",
            "max_risk": f"An attacker who knows a person is in the data picks the right record "
            f"with probability up to {fmt_probability(self.max_risk)} = 1/k (prosecutor risk, Annex D).",
            "avg_risk": f"On average over all records that chance is "
            f"{fmt_probability(self.avg_risk)} "
            "(Annex D, footnote 14 mentions average risk as an alternative).",
        }
        if self.sensitive is not None:
            text["l_distinct"] = (
                f"Every group has at least {self.l_distinct} different value(s) of "
                f"'{self.sensitive}'; 1 means some group reveals it outright (homogeneity "
                "attack, Step 4 footnote 11)."
            )
            text["l_entropy"] = (
                f"Taking how evenly the values are spread into account, the least diverse "
                f"group is as diverse as {fmt_number(self.l_entropy)} equally common values "
                "(entropy l-diversity)."
            )
            text["t_closeness"] = (
                f"The distribution of '{self.sensitive}' in any group differs from the whole "
                f"table by at most {fmt_number(self.t_closeness)} (t-closeness, 0 = identical, "
                "1 = completely different)."
            )
        return text


#: Privacy models whose figure the report shows under its own name already: k-anonymity as
#: ``k``, l-diversity as ``l_distinct``, t-closeness as ``t_closeness``.
SHOWN_ELSEWHERE = {"k_anonymity": "k", "l_diversity": "l_distinct", "t_closeness": "t_closeness"}


def model_figures(table: ClassTable) -> dict[str, float | None]:
    """The table's figure of every privacy model of the registry (``risk --json``'s
    ``privacy_models``): None for a model that needs the sensitive distribution or the
    population counts when ``table`` has none."""
    figures: dict[str, float | None] = {}
    for name, model in MODELS.items():
        if model.needs_sensitive and table.dist is None:
            figures[name] = None
        else:
            figures[name] = model.figure(table)
    return figures


def _plain(value):
    """Convert numpy scalars inside nested containers to Python numbers for JSON."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def risk_report(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k_threshold: int = 5,
    sensitive: str | None = None,
    population: pd.DataFrame | None = None,
    population_count_column: str | None = None,
    impact: bool = True,
    classes: EquivalenceClasses | None = None,
    counts: np.ndarray | None = None,
    progress: ProgressFn | None = None,
) -> RiskReport:
    """All Step 4 figures from one computation of the equivalence classes.

    ``k_threshold`` is the target k (the guide: 3 or 5, Step 4); ``sensitive`` adds
    l-diversity and t-closeness; ``population`` adds journalist risk; ``impact=False``
    skips the per-quasi-identifier impact (one more pass over the value combinations).
    ``counts`` makes ``df`` a frequency table whose row ``i`` stands for ``counts[i]``
    identical records (what the DuckDB and Spark engines compute, :mod:`core.engines`):
    every figure is then the one the full table would give. ``progress`` (core.progress)
    hears each stage.
    """
    k_threshold = require_int("k_threshold", k_threshold, minimum=1)
    report_progress = progress or no_progress
    report_progress(
        0.0,
        "counting the equivalence classes"
        + (" and the impact of each quasi-identifier" if impact else ""),
    )
    if counts is not None:
        counts = np.asarray(counts, dtype=np.int64)
        if population is not None:
            raise ParameterError("Journalist risk needs the records themselves, not counts.")
    impacts: list[QuasiIdentifierImpact] = []
    distribution = None
    if classes is None and sensitive is not None and population is None:
        # one sort gives the classes and the sensitive pairs (no record's class is needed;
        # with a population, k-map's figure needs each record's class), and the classes'
        # keys the impact reads
        classes, distribution = classes_and_distribution(
            df, quasi_identifiers, sensitive, counts=counts
        )
        if impact and classes.keys is not None:
            impacts = impact_of_keys(
                classes.quasi_identifiers,
                classes.keys,
                classes.cardinalities,
                classes.sizes,
                k=k_threshold,
                distinct_values=classes.distinct_values,
            )
        elif impact:
            impacts = quasi_identifier_impact(
                df, classes.quasi_identifiers, k=k_threshold, counts=counts
            )
    elif classes is None:
        classes, impacts = classes_and_impact(
            df, quasi_identifiers, k=k_threshold, counts=counts, impact=impact
        )
    elif impact and len(classes.quasi_identifiers) > 1:
        impacts = quasi_identifier_impact(
            df, classes.quasi_identifiers, k=k_threshold, counts=counts
        )
    sizes = classes.sizes[classes.sizes > 0]
    n = classes.n_records
    k = classes.k
    below = int(sizes[sizes < k_threshold].sum())
    report = dict(
        quasi_identifiers=classes.quasi_identifiers,
        k_threshold=k_threshold,
        records=n,
        classes=classes.n_classes,
        k=k,
        uniques=int(np.count_nonzero(sizes == 1)),
        records_below_k=below,
        share_below_k=float(below / n) if n else 0.0,
        max_risk=1.0 / k if k else 0.0,
        avg_risk=classes.n_classes / n if n else 0.0,
        records_at_max_risk=int(sizes[sizes == k].sum()) if n else 0,
        class_sizes=classes.size_distribution(),
    )
    if impacts and len(classes.quasi_identifiers) > 1:
        report["impact"] = tuple(impacts)
    if sensitive is not None:
        report_progress(0.7, f"l-diversity and t-closeness of {sensitive}")
        if distribution is None:
            require_columns(df, sensitive, parameter="sensitive")
            classes = resolve_classes(df, classes.quasi_identifiers, classes)
            distribution = sensitive_distribution(
                df[sensitive], classes, ordered=None, counts=counts
            )
        ldiv, tclose = l_and_t_of(sensitive, classes, distribution)
        report.update(
            sensitive=sensitive,
            l_distinct=ldiv.distinct,
            l_entropy=ldiv.entropy,
            t_closeness=tclose.t,
            t_distance=tclose.distance,
        )
        del ldiv, tclose  # their per-class arrays (200 MB each at 50M records) let go
    population_counts = None
    if population is not None:
        people = journalist_class_population(
            df, population, classes.quasi_identifiers, count_column=population_count_column
        )
        report.update(
            journalist_max_risk=float((1.0 / people).max()) if n else 0.0,
            journalist_avg_risk=float((1.0 / people).mean()) if n else 0.0,
        )
        population_counts = np.zeros(classes.sizes.size)  # a class's records share a count
        population_counts[classes.class_of_record] = people
    report["model_figures"] = model_figures(
        ClassTable(classes.sizes, distribution, population_counts)
    )
    report_progress(1.0, "risk computed")
    return RiskReport(**report)


# --- uniqueness (Gibbon & Aisbett) ------------------------------------------------------


@dataclass(frozen=True)
class UniquenessEstimate:
    """How identifying a birthday is among ``population`` people of the same age and sex."""

    population: int
    days: int
    p_unique: float
    expected_unique_share: float
    expected_uniques: float

    def explanation(self) -> str:
        return (
            f"Among {self.population:,} people of the same age and sex, a person's birthday "
            f"is unique with probability {fmt_percent(self.p_unique)}, so about "
            f"{fmt_count(self.expected_uniques)} of them "
            f"({fmt_percent(self.expected_unique_share)}) could be re-identified by date of "
            "birth, sex and locality (Gibbon & Aisbett, Section 2)."
        )


def p_shares_birthday(population: int, q: int, *, days: int = 365) -> float:
    """p_q(N): probability of sharing one's birthday with exactly q-1 others (eq. 1)."""
    population = require_int("population", population, minimum=1)
    q = require_int("q", q, minimum=1)
    days = require_int("days", days, minimum=2)
    if q > population:
        return 0.0
    log_p = (
        math.lgamma(population)
        - math.lgamma(q)
        - math.lgamma(population - q + 1)
        + (q - 1) * math.log(1 / days)
        + (population - q) * math.log1p(-1 / days)
    )
    return math.exp(log_p)


def uniqueness(population: int, *, days: int = 365) -> UniquenessEstimate:
    """Chance of a unique birthday in a cell of N people, and the expected unique share.

    The probability that one person is unique is ((days-1)/days)^(N-1) (eq. 1, q = 1).
    By linearity of expectation the expected share of uniques p_I(N) (the mean of the
    distribution rho(N, m) of eq. 2) is the same number.
    """
    population = require_int("population", population, minimum=1)
    days = require_int("days", days, minimum=2)
    p = math.exp((population - 1) * math.log1p(-1 / days))
    return UniquenessEstimate(population, days, p, p, p * population)


def unique_count_distribution(population: int, *, days: int = 365) -> np.ndarray:
    """rho(N, m) for m = 0..N: probability that exactly m of N people have a unique birthday.

    Computed by adding people one at a time (an occupancy Markov chain over the number of
    days with exactly one and with two or more birthdays). This is exact (the tests check
    it against brute-force enumeration) and numerically stable; the paper's eq. (2)
    assumes the birthdays left over after one per used day fall uniformly on the used
    days, which is only an approximation.
    """
    return _unique_count_distributions(population, days=days)[-1][: population + 1]


def _unique_count_distributions(max_population: int, *, days: int = 365) -> list[np.ndarray]:
    max_population = require_int("population", max_population, minimum=1)
    days = require_int("days", days, minimum=2)
    size = min(max_population, days) + 1
    # state[a, b]: a days with exactly one birthday, b days with two or more.
    state = np.zeros((size + 1, size + 1))
    state[0, 0] = 1.0
    a = np.arange(size + 1)[:, None]
    b = np.arange(size + 1)[None, :]
    empty = np.clip(days - a - b, 0, None) / days
    single = a / days
    multi = b / days
    out = []
    for _ in range(max_population):
        new = state * multi
        new[1:, :] += (state * empty)[:-1, :]
        new[:-1, 1:] += (state * single)[1:, :-1]
        state = new
        out.append(state.sum(axis=1))
    return out


def max_population_for_unique_share(
    share: float, confidence: float, *, days: int = 365, search_up_to: int = 3000
) -> int:
    """Largest N at which at least ``share`` of N people have unique birthdays with
    probability at least ``confidence`` (Gibbon & Aisbett, Table 1).

    "At least a share" means at least floor(share * N) unique people, as the paper's
    footnote 2 describes. This exact computation agrees with the paper's Table 1 for
    95% uniques at 0.95 confidence (N = 6) but gives larger N than the table elsewhere
    (e.g. 1063 rather than 972 for 5% at 0.8); the table appears to be read off the
    paper's jagged figures, so we do not reproduce it.
    """
    require_probability("share", share)
    require_probability("confidence", confidence)
    require_positive("search_up_to", search_up_to)
    best = 0
    for n, dist in enumerate(_unique_count_distributions(search_up_to, days=days), start=1):
        needed = math.floor(share * n + 1e-9)
        if dist[needed:].sum() >= confidence:
            best = n
    return best


def locality_unique_share(
    population: int, cell_shares: Sequence[float], *, days: int = 365
) -> float:
    """Expected share of a locality's people with a unique date of birth and sex (eq. 3).

    ``cell_shares`` are the shares of the locality's population in each age-sex cell
    (they should sum to 1). Each cell of n = share * N people contributes
    share * ((days-1)/days)^(n-1) to the expected unique share.
    """
    population = require_int("population", population, minimum=1)
    shares = np.asarray(cell_shares, dtype=float)
    if shares.size == 0 or (shares < 0).any() or not np.isfinite(shares).all():
        raise ParameterError("Parameter 'cell_shares' must be non-negative shares, one per cell.")
    total = shares.sum()
    if not 0.99 <= total <= 1.01:
        raise ParameterError(f"Parameter 'cell_shares' must add up to 1; they add up to {total:g}.")
    people = shares * population
    p_unique = np.exp(np.maximum(people - 1, 0) * math.log1p(-1 / days))
    return float(np.sum(shares * np.where(people > 0, p_unique, 0.0)))
