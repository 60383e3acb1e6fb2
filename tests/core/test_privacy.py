"""Tests of core.privacy against the guide's worked examples and hand calculations."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ColumnNotFoundError, ParameterError
from core.privacy import (
    ClassModels,
    class_distribution,
    classes_and_distribution,
    equivalence_classes,
    failing_records,
    k_anonymity,
    l_and_t,
    l_and_t_of,
    l_diversity,
    quasi_identifier_impact,
    t_closeness,
)

# PDPC guide, Step 4: three groups of identical records of sizes 2, 4 and 3; overall k = 2.
STEP4 = pd.DataFrame(
    {
        "postal_code": ["22xxxx"] * 2 + ["10xxxx"] * 4 + ["58xxxx"] * 3,
        "age": ["21 to 25"] * 2 + ["41 to 45"] * 4 + ["56 to 60"] * 3,
        "favourite_show": ["Emily in Paris"] * 2
        + ["Brooklyn Nine-Nine"] * 4
        + ["Attenborough's Life in Colour"] * 3,
    }
)

# PDPC guide, Annex C: the taxi data after generalisation (before suppressing the banker).
TAXI_GENERALISED = pd.DataFrame(
    {
        "age": [
            "21 to 30",
            "31 to 40",
            "21 to 30",
            "31 to 40",
            "21 to 30",
            "21 to 30",
            "31 to 40",
            "31 to 40",
            "21 to 30",
            "21 to 30",
            "31 to 40",
        ],
        "gender": [
            "Female",
            "Male",
            "Female",
            "Male",
            "Female",
            "Female",
            "Male",
            "Male",
            "Female",
            "Female",
            "Male",
        ],
        "occupation": [
            "Data Protection Officer",
            "IT",
            "Banker",
            "IT",
            "Data Protection Officer",
            "Data Protection Officer",
            "IT",
            "IT",
            "Data Protection Officer",
            "Data Protection Officer",
            "IT",
        ],
        "trips": [15, 2, 8, 3, 1, 5, 3, 4, 2, 11, 0],
    }
)


def test_step4_example_has_k_2_with_groups_of_2_4_3():
    classes = equivalence_classes(STEP4, ["postal_code", "age"])
    assert classes.k == 2
    assert sorted(classes.sizes.tolist()) == [2, 3, 4]
    assert classes.size_of_record.tolist() == [2, 2, 4, 4, 4, 4, 3, 3, 3]
    assert k_anonymity(STEP4, ["postal_code", "age"]) == 2


def test_annex_c_taxi_banker_is_the_only_record_below_5():
    classes = equivalence_classes(TAXI_GENERALISED, ["age", "gender", "occupation"])
    assert classes.k == 1
    assert np.flatnonzero(classes.below(5)).tolist() == [2]  # serial number 3, the banker
    after = TAXI_GENERALISED.drop(index=2)
    assert k_anonymity(after, ["age", "gender", "occupation"]) == 5


def test_size_distribution_counts_classes_and_records():
    dist = equivalence_classes(STEP4, ["postal_code", "age"]).size_distribution()
    assert dist.to_dict(orient="list") == {
        "class_size": [2, 3, 4],
        "classes": [1, 1, 1],
        "records": [2, 3, 4],
    }


def test_missing_values_form_their_own_category():
    df = pd.DataFrame({"age": [30, None, None, 30], "sex": ["F", "F", "F", "F"]})
    assert equivalence_classes(df, ["age", "sex"]).sizes.tolist() == [2, 2]


def test_unknown_quasi_identifier_is_named_in_the_error():
    with pytest.raises(ColumnNotFoundError, match="'postcode'"):
        equivalence_classes(STEP4, ["postcode"])


def test_empty_table_has_k_zero():
    assert equivalence_classes(STEP4.iloc[:0], ["age"]).k == 0


def test_l_diversity_by_hand():
    # Class A: sensitive values x, x, y  -> 2 distinct; H = -(2/3 ln 2/3 + 1/3 ln 1/3)
    # Class B: z, z                       -> 1 distinct; H = 0 -> exp(H) = 1
    df = pd.DataFrame({"qi": ["A", "A", "A", "B", "B"], "s": ["x", "x", "y", "z", "z"]})
    result = l_diversity(df, ["qi"], "s")
    assert result.distinct == 1
    assert result.entropy == pytest.approx(1.0)
    h_a = -(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3))
    assert result.per_class_entropy[0] == pytest.approx(math.exp(h_a))
    assert result.per_class_distinct.tolist() == [2, 1]


def test_entropy_l_is_a_real_number_not_truncated():
    df = pd.DataFrame({"qi": ["A"] * 4, "s": ["x", "x", "x", "y"]})
    expected = math.exp(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))  # 1.7548...
    assert l_diversity(df, ["qi"], "s").entropy == pytest.approx(expected)
    assert 1 < expected < 2


def test_t_closeness_equal_distance_by_hand():
    # Overall: x 3/5, y 2/5. Class A (x, x, y): 2/3, 1/3 -> 0.5*(|2/3-3/5|+|1/3-2/5|) = 1/15
    # Class B (x, y): 1/2, 1/2 -> 0.5*(0.1 + 0.1) = 0.1
    df = pd.DataFrame({"qi": ["A", "A", "A", "B", "B"], "s": ["x", "x", "y", "x", "y"]})
    result = t_closeness(df, ["qi"], "s")
    assert result.distance == "equal"
    assert result.per_class.tolist() == pytest.approx([1 / 15, 0.1])
    assert result.t == pytest.approx(0.1)


def test_t_closeness_ordered_distance_by_hand():
    # Values 1 < 2 < 3, overall shares 3/9, 4/9, 2/9 (the Step 4 table with these values).
    # Class 22xxxx holds (1, 1): cumulative gaps 1-3/9 = 6/9 and 1-7/9 = 2/9 -> 8/9 / 2 = 4/9.
    df = STEP4.assign(s=[1, 1, 2, 2, 2, 3, 1, 2, 3])
    result = t_closeness(df, ["postal_code", "age"], "s")
    assert result.distance == "ordered"
    assert result.per_class[0] == pytest.approx(4 / 9)
    assert result.t == pytest.approx(4 / 9)


def test_one_distribution_keeps_each_distance_apart():
    """The EMD is computed once per distance and distribution (the risk report reads it for
    t and again for the privacy models' figures): asking one distance and then the other
    gives each its own figures, read-only. Class 22xxxx of the example above holds (1, 1)
    against 3/9, 4/9, 2/9: equal distance (6/9 + 4/9 + 2/9) / 2 = 2/3, ordered 4/9."""
    df = STEP4.assign(s=[1, 1, 2, 2, 2, 3, 1, 2, 3])
    dist = class_distribution(df, ["postal_code", "age"], "s")
    ordered, equal = dist.emd("ordered"), dist.emd("equal")
    assert ordered[0] == pytest.approx(4 / 9)
    assert equal[0] == pytest.approx(2 / 3)
    assert dist.emd("ordered") is ordered
    assert not ordered.flags.writeable and not dist.distinct().flags.writeable


def test_t_closeness_is_zero_when_every_class_matches_the_table():
    df = pd.DataFrame({"qi": ["A", "A", "B", "B"], "s": [1, 2, 1, 2]})
    assert t_closeness(df, ["qi"], "s").t == pytest.approx(0.0)


def test_quasi_identifier_impact_names_the_driver():
    df = pd.DataFrame(
        {"sex": ["F", "F", "M", "M"], "age": [21, 22, 23, 24], "town": ["a", "a", "b", "b"]}
    )
    impact = {i.quasi_identifier: i for i in quasi_identifier_impact(df, ["sex", "age", "town"])}
    assert impact["age"].k_without == 2  # without age, sex+town form two pairs
    assert impact["sex"].k_without == 1
    assert impact["age"].uniques_without == 0


rows = st.lists(
    st.tuples(st.sampled_from("abc"), st.integers(0, 3), st.sampled_from([None, "x", "y"])),
    min_size=1,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(rows)
def test_class_sizes_match_pandas_groupby(data):
    df = pd.DataFrame(data, columns=["a", "b", "c"])
    classes = equivalence_classes(df, ["a", "b", "c"])
    expected = df.groupby(["a", "b", "c"], dropna=False)["a"].transform("size")
    assert classes.size_of_record.tolist() == expected.tolist()
    assert classes.n_classes == len(df.drop_duplicates())


@settings(max_examples=40, deadline=None)
@given(rows)
def test_l_distinct_matches_pandas_nunique(data):
    df = pd.DataFrame(data, columns=["a", "b", "c"]).fillna({"c": "missing"})
    expected = df.groupby(["a", "b"])["c"].nunique().min()
    assert l_diversity(df, ["a", "b"], "c").distinct == expected


@settings(max_examples=40, deadline=None)
@given(rows)
def test_merging_classes_never_lowers_k(data):
    df = pd.DataFrame(data, columns=["a", "b", "c"])
    assert k_anonymity(df, ["a"]) >= k_anonymity(df, ["a", "b"])


def _seeded_table(rows: int = 5000, seed: int = 11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(17, 40, size=rows),
            "sex": rng.choice(["F", "M"], size=rows),
            "town": pd.Series(rng.choice(["a", "b", "c", None], size=rows), dtype=object),
            "band": pd.Categorical(rng.choice(["x", "y", "z"], size=rows), ["x", "y", "z", "w"]),
            "score": np.where(rng.random(rows) < 0.05, np.nan, rng.integers(0, 6, size=rows)),
        }
    )


def test_quasi_identifier_impact_matches_a_pandas_groupby_without_each_column():
    df = _seeded_table()
    qis = ["age", "sex", "town", "band", "score"]
    for k in (2, 5):
        impact = {i.quasi_identifier: i for i in quasi_identifier_impact(df, qis, k=k)}
        for column in qis:
            rest = [c for c in qis if c != column]
            # independent method: pandas groups on the other columns, NaN a value of its own
            size = df.groupby(rest, dropna=False, observed=True)[column].transform("size")
            assert impact[column].k_without == size.min()
            assert impact[column].uniques_without == (size == 1).sum()
            assert impact[column].records_below_k_without == (size < k).sum()
            assert impact[column].distinct_values == df[column].nunique(dropna=False)


def test_frequency_table_gives_the_figures_of_the_records():
    """A frequency table (one row per combination, with how many records have it) gives
    the same classes, impact, l and t as the records themselves."""
    df = _seeded_table()
    qis = ["age", "sex", "town", "band"]
    freq = df.groupby(qis + ["score"], dropna=False, observed=True).size().reset_index()
    counts = freq.pop(0).to_numpy()
    on_records = equivalence_classes(df, qis)
    on_freq = equivalence_classes(freq, qis, counts=counts)
    assert on_freq.n_records == len(df)
    assert sorted(on_freq.sizes[on_freq.sizes > 0]) == sorted(on_records.sizes)
    assert quasi_identifier_impact(freq, qis, k=5, counts=counts) == quasi_identifier_impact(
        df, qis, k=5
    )
    l_rec, t_rec = l_diversity(df, qis, "score"), t_closeness(df, qis, "score")
    l_freq, t_freq = l_and_t(freq, qis, "score", counts=counts)
    assert (l_freq.distinct, t_freq.distance) == (l_rec.distinct, t_rec.distance)
    assert l_freq.entropy == pytest.approx(l_rec.entropy, rel=1e-12)
    assert t_freq.t == pytest.approx(t_rec.t, rel=1e-12)


# --- delta-disclosure, beta-likeness, (alpha,k), recursive (c,l): pycanon's figures ---------

PYCANON = Path(__file__).resolve().parents[1] / "data" / "pycanon"
MATH_QI = ["Teacher", "Gender", "Ethnic", "Freeredu", "wesson"]


@pytest.fixture(scope="module")
def math_scores():
    """pycanon's StudentsMath_Score tables (raw and its k = 5 version)."""
    return (
        pd.read_csv(PYCANON / "StudentsMath_Score.csv"),
        pd.read_csv(PYCANON / "StudentsMath_Score_k5.csv"),
    )


def test_measures_match_pycanon_published_figures(math_scores):
    """Figures from pycanon's tests/test_anonymity.py (TestMathScores), commit 3561f35:
    delta 4.276666119016055, basic beta 71.0, t 0.4165919952210274 (ordered distance on
    the numeric Score), (alpha, k) = (1, 1) on the raw table and (0.5, 5) on the k = 5 one."""
    from core.privacy import alpha_k_anonymity, beta_likeness, delta_disclosure

    raw, k5 = math_scores
    assert delta_disclosure(raw, MATH_QI, "Score") == pytest.approx(4.276666119016055)
    assert beta_likeness(raw, MATH_QI, "Score") == pytest.approx(71.0)
    assert t_closeness(raw, MATH_QI, "Score").t == pytest.approx(0.4165919952210274)
    assert alpha_k_anonymity(raw, MATH_QI, "Score") == (pytest.approx(1.0), 1)
    assert alpha_k_anonymity(k5, MATH_QI, "Score") == (pytest.approx(0.5), 5)


def test_recursive_cl_diversity_by_hand():
    """Class x: counts 5, 3, 2 -> r1 / (r2 + r3) = 5 / 5 = 1 for l = 2, 5 / 2 for l = 3;
    class y: counts 4, 4 -> 4 / 4 = 1 for l = 2, and fewer than 3 values for l = 3.
    (pycanon sorts counts from the least frequent, so its c is not this definition's.)"""
    from core.privacy import recursive_cl_diversity

    df = pd.DataFrame({"q": ["x"] * 10 + ["y"] * 8, "s": list("aaaaabbbcc") + list("ddddeeee")})
    assert recursive_cl_diversity(df, ["q"], "s", l=2) == pytest.approx(1.0)
    assert recursive_cl_diversity(df, ["q"], "s", l=3) == float("inf")
    assert recursive_cl_diversity(df[df["q"] == "x"], ["q"], "s", l=3) == pytest.approx(2.5)
    with pytest.raises(ParameterError, match="'l'"):
        recursive_cl_diversity(df, ["q"], "s", l=1)


def test_grassberger_g_matches_arx_table():
    """G(n) of Grassberger's entropy estimator: ARX tabulates G_1, G_2, G_4, ..., G_100
    (EntropyLDiversity.EntropyEstimator.G_PRECOMPUTED, commit aacd487) and uses G(n - 1)
    for odd n; above 100 ln n + m (1/24 - m (7/960 - m 31/8064)) with m = 1 / (n/2)^2."""
    from core.privacy import grassberger_g

    g = grassberger_g(300)
    arx = {
        1: -1.2703628454614782,
        2: 0.7296371545385218,
        4: 1.3963038212051886,
        10: 2.3042403291416966,
        50: 3.912089653443865,
        100: 4.605186851488337,
    }
    for n, value in arx.items():
        assert g[n] == pytest.approx(value, abs=1e-12)
    assert g[3] == g[2] and g[51] == g[50]
    for n in (150, 300):
        m = 1 / (n / 2) ** 2
        assert g[n] == pytest.approx(math.log(n) + m * (1 / 24 - m * (7 / 960 - m * 31 / 8064)))


def test_grassberger_entropy_l_by_hand():
    """One class of 6 records with counts 2, 1, 1, 1, 1. Shannon: H = (2/6) ln 3 +
    (4/6) ln 6 = 1.5607, exp(H) = 4.76 < 5. Grassberger: H = G(6) - (2 G(2) + 4 G(1)) / 6 =
    1.7963 - (1.4593 - 5.0815) / 6 = 2.3999, exp(H) = 11.02 >= 5."""
    from core.privacy import ClassModels, class_distribution, failing_records

    df = pd.DataFrame({"q": ["a"] * 6, "s": ["x", "x", "y", "z", "v", "w"]})
    shannon = ClassModels(sensitive="s", l=5, l_kind="entropy")
    grassberger = ClassModels(sensitive="s", l=5, l_kind="entropy", entropy_estimator="grassberger")
    assert failing_records(df, ["q"], shannon).all()
    assert not failing_records(df, ["q"], grassberger).any()
    g6 = 1.7963038212051885
    h = g6 - (2 * 0.7296371545385218 + 4 * -1.2703628454614782) / 6
    dist = class_distribution(df, ["q"], "s")
    assert dist.entropy_l("grassberger")[0] == pytest.approx(math.exp(h))
    assert dist.entropy_l()[0] == pytest.approx(math.exp(2 / 6 * math.log(3) + 4 / 6 * math.log(6)))


def _arx_grassberger_passes(codes: list[int], l: float, g: np.ndarray) -> bool:  # noqa: E741
    """ARX 3.9's EntropyLDiversity.isAnonymous with GRASSBERGER, re-implemented from its
    source (commit aacd487) for this test: the class's values go into ARX's Distribution
    hash table (home bucket = code & (capacity - 1), linear probing, capacity 8 doubling
    past 3/4 full), then n_i G(n_i) is added bucket by bucket and the check gives up as
    soon as the partial sum exceeds N (G(N) - ln l)."""
    capacity, keys, counts = 8, [-1] * 8, [0] * 8
    for code in codes:
        home = code & (capacity - 1)
        while keys[home] not in (-1, code):
            home = (home + 1) % capacity
        if keys[home] == -1:
            keys[home] = code
            if sum(k != -1 for k in keys) > int(capacity * 0.75):
                old = [(k, c) for k, c in zip(keys, counts, strict=True) if k != -1]
                capacity *= 2
                keys, counts = [-1] * capacity, [0] * capacity
                for k, c in old:
                    slot = k & (capacity - 1)
                    while keys[slot] != -1:
                        slot = (slot + 1) % capacity
                    keys[slot], counts[slot] = k, c
                home = keys.index(code)
        counts[home] += 1
    frequencies = [c for k, c in zip(keys, counts, strict=True) if k != -1]
    total = sum(frequencies)
    if len(frequencies) < math.ceil(l):
        return False
    bound, partial = total * (g[total] - math.log(l)), 0.0
    for f in frequencies:
        partial += f * g[f]
        if bound < partial:
            return False
    return True


def test_grassberger_differs_from_arx_by_arx_early_exit():
    """Counts 2, 1, 1, 1, 1 at l = 5: the whole estimate passes (exp(H) = 11.02, above), but
    ARX stops at the first bucket when the 2 comes first: 2 G(2) = 1.4593 > 6 (G(6) - ln 5)
    = 1.1212. With the 2 last, ARX passes too. Our estimator does not depend on the order."""
    from core.privacy import ClassModels, failing_records, grassberger_g

    g = grassberger_g(6)
    assert 2 * g[2] > 6 * (g[6] - math.log(5))
    assert not _arx_grassberger_passes([0, 0, 1, 2, 3, 4], 5, g)  # the 2 in bucket 0
    assert _arx_grassberger_passes([5, 5, 1, 2, 3, 4], 5, g)  # the 2 in bucket 5, last
    df = pd.DataFrame({"q": ["a"] * 6, "s": list("xxyzvw")})
    model = ClassModels(sensitive="s", l=5, l_kind="entropy", entropy_estimator="grassberger")
    assert not failing_records(df, ["q"], model).any()


def test_grassberger_on_adult_explains_arx_figure(_adult_table, adult_hierarchies_dir):
    """ARX 3.9 (built from source, commit aacd487), EntropyLDiversity("occupation", 5,
    GRASSBERGER), 4% suppressed, the other eight columns quasi-identifiers (ARX's
    TestAnonymizationEntropyLDiversity case 0, optimum 216092.124036387 at
    [1,0,1,0,3,2,2,0]). Our optimum there is [1,0,1,1,2,2,2,0]; at that node ARX
    suppresses 1,396 records (over the 1,206 allowed), printed by
    /work/arx-harness-tcloseness/Harness.java: `java Harness adult.csv <dir> occupation 0.04
    entropy lgrass5 no - 1,0,1,1,2,2,2,0` (result.getOutput(node).isOutlier). Our estimator
    suppresses 1,107; ARX's early exit (above), with ARX's codes (order of first appearance
    in the file) and the records added in file order, gives exactly ARX's 1,396."""
    from core.hierarchy import read_hierarchy
    from core.privacy import ClassModels, failing_records, grassberger_g

    qis = [
        "sex",
        "age",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "salary-class",
    ]
    df = _adult_table.copy()
    for column, level in zip(qis, [1, 0, 1, 1, 2, 2, 2, 0], strict=True):
        if level:
            hierarchy = read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{column}.csv")
            df[column] = hierarchy.generalise(df[column], level)
    model = ClassModels(
        sensitive="occupation", l=5, l_kind="entropy", entropy_estimator="grassberger"
    )
    assert int(failing_records(df, qis, model).sum()) == 1107
    codes = pd.factorize(df["occupation"])[0]
    g = grassberger_g(len(df))
    arx_suppressed = 0
    for rows in df.groupby(qis, sort=False).indices.values():
        if not _arx_grassberger_passes(codes[rows].tolist(), 5, g):
            arx_suppressed += rows.size
    assert arx_suppressed == 1396


def test_hierarchical_t_closeness_by_hand():
    """Hierarchy of height 2: a, b -> ab; c, d -> cd; -> *. Six records: class X = {a, a},
    Y = {b, c}, Z = {b, d}; whole table a 2/6, b 2/6, c 1/6, d 1/6. Extras p - q per leaf,
    each inner node costs level / height * min(positive extras, negative extras) of its
    children (Li et al. 2007):
    X: a -2/3, b 1/3, c 1/6, d 1/6; node ab min(1/3, 2/3) / 2 = 1/6 (extra -1/3), node cd
    0 (extra 1/3), root min(1/3, 1/3) = 1/3: EMD 1/2 (equal distance: 2/3).
    Y: a 1/3, b -1/6, c -1/3, d 1/6; ab 1/12 (extra 1/6), cd 1/12 (extra -1/6), root 1/6:
    EMD 1/3. Z likewise 1/3."""
    from core.hierarchy import Hierarchy
    from core.privacy import ClassModels, failing_records

    tree = Hierarchy(
        pd.DataFrame(
            [
                ["a", "ab", "*"],
                ["b", "ab", "*"],
                ["c", "cd", "*"],
                ["d", "cd", "*"],
                ["e", "ef", "*"],
            ]
        )
    )
    df = pd.DataFrame({"q": ["X", "X", "Y", "Y", "Z", "Z"], "s": list("aabcbd")})
    result = t_closeness(df, ["q"], "s", distance="hierarchical", hierarchy=tree)
    classes = equivalence_classes(df, ["q"])
    order = [classes.class_of_record[i] for i in (0, 2, 4)]
    assert result.per_class[order] == pytest.approx([1 / 2, 1 / 3, 1 / 3], abs=1e-15)
    assert result.t == pytest.approx(0.5) and result.distance == "hierarchical"
    assert t_closeness(df, ["q"], "s", distance="equal").t == pytest.approx(2 / 3)
    model = ClassModels(sensitive="s", t=0.4, t_distance="hierarchical", t_hierarchy=tree)
    assert failing_records(df, ["q"], model).tolist() == [True] * 2 + [False] * 4
    with pytest.raises(ParameterError, match="hierarchy"):
        ClassModels(sensitive="s", t=0.4, t_distance="hierarchical")
    with pytest.raises(ParameterError, match="'f' of column 's' is not in its hierarchy"):
        t_closeness(
            df.assign(s=list("aabcbf")), ["q"], "s", distance="hierarchical", hierarchy=tree
        )
    split = Hierarchy(pd.DataFrame([["a", "ab", "x"], ["b", "ab", "y"]]))
    with pytest.raises(ParameterError, match="does not nest"):
        t_closeness(
            df.assign(s=list("aabbab")), ["q"], "s", distance="hierarchical", hierarchy=split
        )


@pytest.mark.parametrize(
    "models",
    [
        ClassModels(k=5),
        ClassModels(k=1, sensitive="s", l=3),
        ClassModels(k=1, sensitive="s", t=0.3, t_distance="equal"),
    ],
)
def test_failing_records_on_a_frequency_table_is_failing_records_on_the_records(models):
    """core.engines hands failing_records one row per distinct combination with its count:
    each row must fail exactly when its records fail in the expanded table."""
    rng = np.random.default_rng(11)
    records = pd.DataFrame(
        {
            "a": rng.integers(0, 40, 400),
            "b": rng.choice(["x", "y"], 400),
            "s": rng.choice(["p", "q", "r"], 400, p=[0.7, 0.2, 0.1]),
        }
    )
    grouped = records.value_counts(sort=False).rename("n").reset_index()
    fail = failing_records(grouped, ["a", "b"], models, counts=grouped["n"].to_numpy())
    expected = failing_records(records, ["a", "b"], models)
    by_row = records.merge(grouped.assign(fail=fail), on=["a", "b", "s"], how="left")
    assert 0 < expected.sum() < len(records)
    np.testing.assert_array_equal(by_row["fail"].to_numpy(), expected)


# --- integer codes: combined keys by sorting, Categorical columns ----------------------


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=2**40), max_size=300),
    st.sampled_from([1, 3, 50, 2**40]),
)
def test_combined_key_codes_are_those_of_factorize(values, modulus):
    """Dense codes in order of first appearance, as ``pd.factorize`` (an independent
    method, hashing) gives them, from the sorting path and from its fallback."""
    from core.measures.codes import compress_key as _compress

    key = np.array([v % modulus for v in values], dtype=np.int64)
    expected_codes, expected_uniques = pd.factorize(key)
    codes, n_groups = _compress(key.copy())
    assert codes.tolist() == expected_codes.tolist() and n_groups == len(expected_uniques)
    wide = key | (1 << 61)  # too wide to pack with the row number: hashed instead
    assert _compress(wide)[0].tolist() == expected_codes.tolist()


def test_categorical_columns_give_the_figures_of_their_values():
    """As the engines' frequency tables hold them: classes from the codes, a missing value
    a class of its own, ordered t-closeness by value over the values present only.
    Hand calculation: classes A (values 1, 1) and B (3, 5); overall shares 1/2, 1/4, 1/4
    over 1 < 3 < 5 (m = 3). EMD(A) = (|1/2| + |1/4| + 0) / 2 = 0.375, EMD(B) the same.
    Counting the unused category 4 as a value (m = 4) would give 1/3."""
    values = pd.Series([1, 1, 3, 5])
    sensitive = pd.Series(pd.Categorical([1, 1, 3, 5], categories=[5, 4, 1, 3]))
    qi = pd.Series(pd.Categorical(["A", "A", "B", "B"]))
    df = pd.DataFrame({"qi": qi, "s": sensitive})
    ldiv, tclose = l_and_t(df, ["qi"], "s")
    assert tclose.distance == "ordered" and tclose.t == pytest.approx(0.375)
    assert ldiv.distinct == 1  # class A holds one value
    plain = pd.DataFrame({"qi": ["A", "A", "B", "B"], "s": values})
    assert l_and_t(plain, ["qi"], "s")[1].t == pytest.approx(0.375)
    missing = pd.DataFrame({"qi": pd.Categorical(["A", None, None, "B"])})
    assert equivalence_classes(missing, ["qi"]).size_of_record.tolist() == [1, 2, 2, 1]


def test_ordered_categorical_sensitive_keeps_its_category_order():
    """An ordered Categorical (low < mid < high) is ordered by its categories, not by the
    text's alphabetical order: classes (low, low) and (mid, high), overall 1/2, 1/4, 1/4:
    EMD = 0.375 each; alphabetically (high < low < mid) the second would be 0.5."""
    levels = pd.Categorical(
        ["low", "low", "mid", "high"], categories=["low", "mid", "high"], ordered=True
    )
    df = pd.DataFrame({"qi": ["A", "A", "B", "B"], "s": levels})
    assert t_closeness(df, ["qi"], "s", distance="ordered").t == pytest.approx(0.375)


# --- classes and sensitive pairs from one sort (the risk report's path) -------------------


def _one_sort_figures(df, qis, sensitive, counts=None):
    classes, dist = classes_and_distribution(df, qis, sensitive, counts=counts)
    ldiv, tclose = l_and_t_of(sensitive, classes, dist)
    return classes, ldiv, tclose


def test_one_sort_by_hand_on_a_frequency_table():
    """Class A: x 3 records (given as two rows of 2 and 1), y 1, and a row of no records;
    class B: x 2. Sizes 4 and 2; the table's shares: x 5/6, y 1/6.
    A: exp(H) = exp(-(3/4 ln 3/4 + 1/4 ln 1/4)); EMD (equal distance) = 1/2 (|3/4 - 5/6| +
    |1/4 - 1/6|) = 1/12. B: one value, exp(H) = 1; EMD = 1/2 (|1 - 5/6| + 1/6) = 1/6."""
    freq = pd.DataFrame({"qi": ["A", "A", "A", "A", "B"], "s": ["x", "x", "y", "y", "x"]})
    counts = np.array([2, 1, 1, 0, 2])
    classes, ldiv, tclose = _one_sort_figures(freq, ["qi"], "s", counts)
    assert sorted(classes.sizes.tolist()) == [2, 4]
    assert (classes.n_records, classes.n_classes, classes.k) == (6, 2, 2)
    assert sorted(ldiv.per_class_distinct.tolist()) == [1, 2]
    expected_entropy = math.exp(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))
    assert sorted(ldiv.per_class_entropy) == pytest.approx([1.0, expected_entropy])
    assert (ldiv.distinct, ldiv.entropy) == (1, pytest.approx(1.0))
    assert sorted(tclose.per_class) == pytest.approx([1 / 12, 1 / 6])
    assert (tclose.distance, tclose.t) == ("equal", pytest.approx(1 / 6))


def _two_pass_figures(df, qis, sensitive, counts=None):
    classes = equivalence_classes(df, qis, counts=counts)
    ldiv, tclose = l_and_t(df, qis, sensitive, classes=classes, counts=counts)
    return classes, ldiv, tclose


def _assert_same_figures(one, two):
    (c1, l1, t1), (c2, l2, t2) = one, two
    assert sorted(c1.sizes[c1.sizes > 0]) == sorted(c2.sizes[c2.sizes > 0])
    assert (c1.n_records, c1.n_classes, c1.k) == (c2.n_records, c2.n_classes, c2.k)
    assert (l1.distinct, t1.distance) == (l2.distinct, t2.distance)
    assert l1.entropy == pytest.approx(l2.entropy, rel=1e-12)
    assert t1.t == pytest.approx(t2.t, rel=1e-12)

    # per class, matched through each class's size and figures (ids differ: key order)
    def rows(classes, ldiv, tclose):
        present = classes.sizes > 0
        return sorted(
            zip(
                classes.sizes[present],
                ldiv.per_class_distinct[present],
                np.round(ldiv.per_class_entropy[present], 12),
                np.round(tclose.per_class[present], 12),
                strict=True,
            )
        )

    assert rows(c1, l1, t1) == rows(c2, l2, t2)


@pytest.mark.parametrize("sensitive", ["score", "town", "sex"])
def test_one_sort_gives_the_figures_of_two_passes(sensitive):
    """The one-sort path against equivalence_classes + l_and_t (checked against pycanon
    and by hand above): on records, and on a frequency table with rows repeating a
    (class, value) pair, missing values in quasi-identifiers and sensitive attribute
    (``score`` is numeric: ordered distance; ``town`` text: equal distance)."""
    df = _seeded_table()
    qis = [c for c in ["age", "sex", "town", "band", "score"] if c != sensitive]
    _assert_same_figures(
        _one_sort_figures(df, qis, sensitive), _two_pass_figures(df, qis, sensitive)
    )
    freq = df.groupby(qis + [sensitive], dropna=False, observed=True).size().reset_index()
    counts = freq.pop(0).to_numpy()
    # a pair given as two rows (one record moved to a copy), and a row of no records
    moved = np.flatnonzero(counts >= 2)[::2]
    assert moved.size > 10
    split = pd.concat([freq, freq.iloc[moved], freq.iloc[:1]], ignore_index=True)
    split_counts = np.concatenate([counts, np.ones(moved.size, counts.dtype), [0]])
    split_counts[moved] -= 1
    _assert_same_figures(
        _one_sort_figures(split, qis, sensitive, split_counts),
        _two_pass_figures(df, qis, sensitive),
    )


def test_one_sort_falls_back_when_the_key_does_not_fit(monkeypatch):
    """Keys wider than the packing allows: the classes are first numbered densely, and
    past that the two-pass path is used; the figures do not change."""
    import core.measures.distributions as distributions

    df = _seeded_table()
    qis = ["age", "sex", "town", "band"]
    expected = _two_pass_figures(df, qis, "score")
    for bits in (16, 4):  # 16: dense class numbers fit; 4: nothing fits
        monkeypatch.setattr(distributions, "_PACK_BITS", bits)
        _assert_same_figures(_one_sort_figures(df, qis, "score"), expected)


def test_risk_report_without_impact_gives_the_same_figures():
    """risk_report takes the one-sort path when the impact is skipped."""
    from core.risk import risk_report

    df = _seeded_table()
    qis = ["age", "sex", "town", "band"]
    fast = risk_report(df, qis, sensitive="score", impact=False).to_dict()
    full = risk_report(df, qis, sensitive="score", impact=True).to_dict()
    assert full.pop("quasi_identifier_impact") and not fast.pop("quasi_identifier_impact")
    assert fast == full


def test_quasi_identifier_impact_when_the_columns_do_not_fit_one_key():
    """Eight columns of 300-odd values: the product of their cardinalities (300^8 > 2^62)
    does not fit one 64-bit key, so the keys without each column are built another way; the
    figures must still be a pandas groupby's."""
    rng = np.random.default_rng(11)
    base = pd.DataFrame({f"c{i}": rng.integers(0, 300, size=2000) for i in range(8)})
    twins = base.iloc[:1000].copy()  # 1,000 records repeated: classes of 2
    twins.iloc[:500, 3] = (twins.iloc[:500, 3] + 1) % 300  # 500 differ from theirs in c3 only
    df = pd.concat([base, twins], ignore_index=True)
    qis = list(base.columns)
    assert np.prod([float(df[c].nunique()) for c in qis]) > 2.0**62
    impact = {i.quasi_identifier: i for i in quasi_identifier_impact(df, qis, k=2)}
    for column in qis:
        rest = [c for c in qis if c != column]
        size = df.groupby(rest)[column].transform("size")
        assert impact[column].k_without == size.min()
        assert impact[column].uniques_without == (size == 1).sum()
        assert impact[column].records_below_k_without == (size < 2).sum()
    # by hand: without c3, base records 0-999 and their 1,000 twins pair up, 1,000-1,999 stay
    # alone; without c0, only the 500 exact twins pair up: 500 changed twins, their 500 base
    # records and base records 1,000-1,999 stay alone (2,000)
    assert impact["c3"].uniques_without == 1000 and impact["c0"].uniques_without == 2000
