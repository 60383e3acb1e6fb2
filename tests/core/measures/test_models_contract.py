"""Every privacy model of the registry through the same checks (issue 28's contract).

For each model of :data:`core.measures.models.registry.MODELS`: a bad parameter is one
ParameterError naming it; the failing classes equal a brute-force computation written here
with pandas groupby (independent of the code); the monotonicity flags hold on adult
generalised one level; the model is in ``risk --json``, in ``search --help`` and accepted by
the release check's ``targets:``. The tables below are keyed by model name and the first
test checks they cover the registry: a model added to MODELS without its entries here (and
without its wiring) fails this file. The Explore trade-offs page's side of the contract (every
model offered there) is tests/pages/test_tradeoffs_models.py, an AppTest.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.measures.models.base import Parameter, PrivacyModel
from core.measures.models.class_models import ClassModels, failing_records
from core.measures.models.registry import MODELS
from core.release.targets import evaluate_targets, parse_targets
from core.risk import risk_report
from core.validation import require_int

ROOT = Path(__file__).resolve().parents[3]
ADULT = ROOT / "tests" / "data" / "adult"
QIS = ["age", "sex", "race", "marital-status"]
SENSITIVE = "occupation"  # text: t-closeness uses equal distance

# --- the models' settings, bad parameters, brute force: one entry per model -----------------

#: Settings (ClassModels fields) asking for each model; several variants for the kinds.
VARIANTS: dict[str, list[dict]] = {
    "k_anonymity": [{"k": 5}],
    "l_diversity": [
        {"sensitive": SENSITIVE, "l": 3},
        {"sensitive": SENSITIVE, "l": 2.5, "l_kind": "entropy"},
        {"sensitive": SENSITIVE, "l": 2, "l_kind": "recursive", "c": 3.0},
    ],
    "t_closeness": [{"sensitive": SENSITIVE, "t": 0.3}],
    "delta_disclosure": [{"sensitive": SENSITIVE, "delta": 1.5}],
    "beta_likeness": [
        {"sensitive": SENSITIVE, "beta": 1.0},
        {"sensitive": SENSITIVE, "beta": 1.0, "enhanced_beta": True},
    ],
    "alpha_k": [{"sensitive": SENSITIVE, "alpha": 0.5}],
    "k_map": [{"k_map": 10, "population_table": "POPULATION"}],  # filled in per table
}

#: One bad value per model: (field, value); the error must name the field.
BAD: dict[str, tuple[str, object]] = {
    "k_anonymity": ("k", 0),
    "l_diversity": ("l", "three"),
    "t_closeness": ("t", 1.5),
    "delta_disclosure": ("delta", -1.0),
    "beta_likeness": ("beta", "one"),
    "alpha_k": ("alpha", 2.0),
    "k_map": ("k_map", 0),
}

#: Each model's mapping in a release's ``targets:`` section (recipe words).
TARGETS: dict[str, dict] = {
    "k_anonymity": {"k": 5},
    "l_diversity": {"sensitive": SENSITIVE, "l": 3},
    "t_closeness": {"sensitive": SENSITIVE, "t": 0.3},
    "delta_disclosure": {"sensitive": SENSITIVE, "delta": 1.5},
    "beta_likeness": {"sensitive": SENSITIVE, "beta": 1.0},
    "alpha_k": {"sensitive": SENSITIVE, "alpha": 0.5},
    "k_map": {"k": 10, "population": 300_000},
}


def _shares(df: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """The sensitive value's share in the table (p) and in each class (q, one row a class)."""
    p = df[SENSITIVE].value_counts(normalize=True)
    counts = df.groupby(QIS, dropna=False)[SENSITIVE].value_counts().unstack(fill_value=0)
    q = counts.div(counts.sum(axis=1), axis=0).reindex(columns=p.index, fill_value=0.0)
    return p, q


def _entropy_l(q: pd.DataFrame) -> pd.Series:
    plogp = q.where(q > 0, 1.0).pipe(lambda x: x * np.log(x))
    return np.exp(-(plogp.where(q > 0, 0.0)).sum(axis=1))


def _recursive_fails(counts: pd.Series, l: int, c: float) -> bool:  # noqa: E741
    r = sorted(counts[counts > 0], reverse=True)
    if len(r) < l:
        return True
    return not r[0] < c * sum(r[l - 1 :])


def _brute_l(df: pd.DataFrame, s: dict) -> pd.Series:
    groups = df.groupby(QIS, dropna=False)[SENSITIVE]
    kind = s.get("l_kind", "distinct")
    if kind == "distinct":
        return groups.nunique() < s["l"]
    if kind == "entropy":
        _, q = _shares(df)
        return (_entropy_l(q) < s["l"] - 1e-9) | (groups.nunique() < math.ceil(s["l"]))
    return groups.apply(lambda v: _recursive_fails(v.value_counts(), int(s["l"]), s["c"]))


def _brute_t(df: pd.DataFrame, s: dict) -> pd.Series:
    p, q = _shares(df)
    return 0.5 * (q - p).abs().sum(axis=1) > s["t"] + 1e-12


def _brute_delta(df: pd.DataFrame, s: dict) -> pd.Series:
    p, q = _shares(df)
    ratio = np.log(q.where(q > 0) / p).abs()  # values absent from a class do not count
    return ratio.max(axis=1) >= s["delta"]


def _brute_beta(df: pd.DataFrame, s: dict) -> pd.Series:
    p, q = _shares(df)
    gain = (q - p) / p
    if s.get("enhanced_beta"):
        return (gain > np.minimum(s["beta"], -np.log(p)) + 1e-12).any(axis=1)
    return gain.max(axis=1) > s["beta"] + 1e-12


def _brute_alpha(df: pd.DataFrame, s: dict) -> pd.Series:
    return _shares(df)[1].max(axis=1) > s["alpha"] + 1e-12


def _brute_kmap(df: pd.DataFrame, s: dict) -> pd.Series:
    people = s["population_table"].groupby(QIS, dropna=False).size()
    sizes = df.groupby(QIS, dropna=False).size()
    return people.reindex(sizes.index, fill_value=0) < s["k_map"]


#: Failing classes by brute force: settings -> boolean per class (indexed by the QI values).
BRUTE = {
    "k_anonymity": lambda df, s: df.groupby(QIS, dropna=False).size() < s["k"],
    "l_diversity": _brute_l,
    "t_closeness": _brute_t,
    "delta_disclosure": _brute_delta,
    "beta_likeness": _brute_beta,
    "alpha_k": _brute_alpha,
    "k_map": _brute_kmap,
}


def _sizes(df: pd.DataFrame) -> pd.Series:
    return df.groupby(QIS, dropna=False).size()


def _largest(per_value: pd.DataFrame) -> float:
    return float(per_value.max(axis=1).max())


def _figure_t(df: pd.DataFrame) -> float:
    p, q = _shares(df)
    return float((0.5 * (q - p).abs().sum(axis=1)).max())


def _figure_delta(df: pd.DataFrame) -> float:
    p, q = _shares(df)
    return _largest(np.log(q.where(q > 0) / p).abs())


def _figure_beta(df: pd.DataFrame) -> float:
    p, q = _shares(df)
    return _largest((q - p) / p)


#: Each model's figure on a table by brute force (risk --json's privacy_models); ``people``:
#: the population's records (k-map).
FIGURE = {
    "k_anonymity": lambda df, people: _sizes(df).min(),
    "l_diversity": lambda df, people: df.groupby(QIS, dropna=False)[SENSITIVE].nunique().min(),
    "t_closeness": lambda df, people: _figure_t(df),
    "delta_disclosure": lambda df, people: _figure_delta(df),
    "beta_likeness": lambda df, people: _figure_beta(df),
    "alpha_k": lambda df, people: _largest(_shares(df)[1]),
    "k_map": lambda df, people: _sizes(people).reindex(_sizes(df).index).min(),
}


def test_the_contract_tables_cover_every_model_of_the_registry():
    """A model added to MODELS without its entries here fails: its contract is unchecked."""
    for table in (VARIANTS, BAD, TARGETS, BRUTE, FIGURE):
        assert set(table) == set(MODELS)


# --- adult, generalised with its ARX hierarchies (read here with pandas) --------------------


def _levels(column: str) -> pd.DataFrame:
    table = pd.read_csv(ADULT / f"adult_hierarchy_{column}.csv", sep=";", header=None, dtype=str)
    return table.set_index(0)


@pytest.fixture(scope="module")
def adult_levels() -> dict:
    return {column: _levels(column) for column in QIS}


def _generalised(df: pd.DataFrame, adult_levels: dict, levels: dict[str, int]) -> pd.DataFrame:
    out = df.copy()
    for column, level in levels.items():
        if level > 0:  # level 0: the values themselves
            out[column] = df[column].astype(str).map(adult_levels[column][level])
    return out


FINE = {"age": 1, "sex": 0, "race": 0, "marital-status": 0}
COARSE = {"age": 2, "sex": 0, "race": 0, "marital-status": 1}  # age and marital status up one


@pytest.fixture(scope="module")
def tables(adult_levels) -> dict:
    """adult's first 10,000 records (released) and all 30,162 (their population), at the fine
    level and with age and marital status one level up."""
    adult = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    sample = adult.iloc[:10_000].reset_index(drop=True)
    return {
        name: (
            _generalised(sample, adult_levels, levels),
            _generalised(adult, adult_levels, levels),
        )
        for name, levels in (("fine", FINE), ("coarse", COARSE))
    }


def _settings(settings: dict, population: pd.DataFrame) -> dict:
    return {key: population if value == "POPULATION" else value for key, value in settings.items()}


def _cases():
    return [
        pytest.param(name, i, id=f"{name}-{i}")
        for name in MODELS
        for i in range(len(VARIANTS.get(name, [])))
    ]


def _code_failing(df: pd.DataFrame, settings: dict) -> pd.Series:
    """The code's failing records as a boolean per class (indexed as the brute force)."""
    fail = failing_records(df, QIS, ClassModels(**settings))
    per_class = pd.Series(fail, index=pd.MultiIndex.from_frame(df[QIS]))
    return per_class.groupby(level=list(range(len(QIS))), dropna=False).any()


# --- the contract ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(MODELS))
def test_a_bad_parameter_is_one_parameter_error_naming_it(name):
    field, value = BAD[name]
    settings = _settings(VARIANTS[name][0], pd.DataFrame({c: ["x"] for c in QIS}))
    with pytest.raises(ParameterError, match=f"'{field}'"):
        ClassModels(**{**settings, field: value})


@pytest.mark.parametrize(("name", "variant"), _cases())
def test_failing_classes_equal_a_brute_force_count(name, variant, tables):
    sample, population = tables["fine"]
    settings = _settings(VARIANTS[name][variant], population)
    expected = BRUTE[name](sample, settings).sort_index()
    got = _code_failing(sample, settings).sort_index()
    assert 0 < expected.sum() < len(expected)  # some classes pass, some fail: not vacuous
    assert got.index.equals(expected.index)
    assert (got.to_numpy() == expected.to_numpy()).all()


@pytest.mark.parametrize(("name", "variant"), _cases())
def test_monotonicity_flags_hold_when_adult_is_generalised_one_level(name, variant, tables):
    """Monotone with generalisation: a coarse class made only of passing fine classes passes.
    Monotone with suppression: a coarse class holding any passing fine class passes (ARX's
    flags). Checked on every coarse class of adult's first 10,000 records."""
    (fine, fine_population), (coarse, coarse_population) = tables["fine"], tables["coarse"]
    settings = _settings(VARIANTS[name][variant], fine_population)
    models = ClassModels(**settings)
    fine_fail = failing_records(fine, QIS, models)
    coarse_models = ClassModels(**_settings(VARIANTS[name][variant], coarse_population))
    coarse_fail = failing_records(coarse, QIS, coarse_models)
    coarse_key = coarse[QIS].astype(str).agg("|".join, axis=1)
    per_coarse = pd.DataFrame({"key": coarse_key, "fine": fine_fail, "coarse": coarse_fail})
    by_class = per_coarse.groupby("key").agg(
        all_pass=("fine", lambda f: not f.any()),
        any_pass=("fine", lambda f: not f.all()),
        fails=("coarse", "any"),
    )
    if models.monotone_with_generalisation:
        assert by_class.all_pass.any()  # some coarse classes made of passing ones: not vacuous
        assert not (by_class.all_pass & by_class.fails).any()
    if models.monotone_with_suppression:
        assert (by_class.any_pass & ~by_class.all_pass).any()  # mixed classes: not vacuous
        assert not (by_class.any_pass & by_class.fails).any()
    if models.monotone_with_generalisation and not fine_fail.any():
        assert not coarse_fail.any()  # a passing table never turns into a failing one


def test_the_monotonicity_flags_are_arx_s():
    """The flags ARX's criteria set (PrivacyCriterion's constructor), as the models give them."""
    suppression, generalisation = {}, {}
    for name, variants in VARIANTS.items():
        for settings in variants:
            models = ClassModels(**_settings(settings, pd.DataFrame({c: ["x"] for c in QIS})))
            key = (name, settings.get("l_kind", ""))
            suppression[key] = models.monotone_with_suppression
            generalisation[key] = models.monotone_with_generalisation
    assert {key for key, flag in suppression.items() if flag} == {
        ("k_anonymity", ""),
        ("l_diversity", ""),
        ("k_map", ""),
    }
    assert {key for key, flag in generalisation.items() if not flag} == {("delta_disclosure", "")}


def test_every_model_is_in_risk_json_with_its_brute_force_figure(tables, tmp_path):
    sample, population = tables["fine"]
    path = tmp_path / "adult.csv"
    sample.to_csv(path, index=False)
    out = subprocess.run(
        [sys.executable, "-m", "core", "risk", str(path), "--qi", ",".join(QIS)]
        + ["--sensitive", SENSITIVE, "--json", "--no-impact"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(out.stdout)["privacy_models"]
    assert set(figures) == set(MODELS)
    with_population = risk_report(sample, QIS, sensitive=SENSITIVE, population=population)
    for name in MODELS:
        expected = float(FIGURE[name](sample, population))
        got = figures[name] if figures[name] is not None else with_population.model_figures[name]
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), name


def test_every_model_has_its_options_in_search_help():
    out = subprocess.run(
        [sys.executable, "-m", "core", "search", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    for name, model in MODELS.items():
        assert model.main.flag is not None, name
        for parameter in model.parameters:
            if parameter.flag is not None:
                assert f"{parameter.flag} " in out.stdout or f"{parameter.flag}\n" in out.stdout, (
                    name,
                    parameter.flag,
                )


def test_every_model_is_accepted_as_a_release_target_and_judged_as_brute_force(tables):
    sample, _ = tables["fine"]
    targets = parse_targets(TARGETS)
    assert set(targets) == set(MODELS)
    results = {r.name: r for r in evaluate_targets(sample, QIS, targets)}
    sizes = sample.groupby(QIS, dropna=False).size()
    for name, spec in TARGETS.items():
        if name == "k_map":  # the population's size: ARX's estimate, checked in test_privacy
            assert results[name].requirement.startswith("k-map k = 10")
            continue
        fields = {MODELS[name].parameters[0].field: spec[MODELS[name].main.key]}
        settings = {**{"sensitive": SENSITIVE}, **fields}
        failing = BRUTE[name](sample, settings)
        assert results[name].failing_classes == int(failing.sum()), name
        assert results[name].failing_records == int(sizes[failing].sum()), name


def test_a_model_added_as_one_module_and_one_registry_line_is_checked_and_judged(monkeypatch):
    """A model whose parameter is no ClassModels field (one module, one registry line):
    ClassModels.of keeps its parameter, checks it through the model and judges classes with
    it. Classes of 1, 2 and 4 records; k = 2 fails the first, 'at most 3' the last."""

    class AtMostModel(PrivacyModel):
        name, label, title = "at_most", "at-most", "at most n"
        parameters = (Parameter("n", "at_most_n", "the largest class"),)
        needs_sensitive = False
        words, figure_words = "a class holds at most n records", "the largest class"

        def check(self, settings):
            if settings["at_most_n"] is not None:
                require_int("at_most_n", settings["at_most_n"], minimum=1)

        def failing(self, settings, table):
            return np.asarray(table.sizes) > settings["at_most_n"]

        def describe(self, settings):
            return f"at most {settings['at_most_n']}"

    monkeypatch.setitem(MODELS, "at_most", AtMostModel())
    df = pd.DataFrame({"g": ["a", "b", "b", "c", "c", "c", "c"]})
    models = ClassModels.of(k=2, at_most_n=3)
    assert failing_records(df, ["g"], models).tolist() == [True, False, False] + [True] * 4
    assert models.describe() == "k = 2, at most 3"
    with pytest.raises(ParameterError, match="'at_most_n'"):
        ClassModels.of(at_most_n=0)
