"""The Risk page's records below the target k (PDPC guide, Annex C), and that they read the
equivalence classes the risk figures were computed from rather than counting them again
(issue 31: the second count was 0.21 s of the click on Risk at 1M rows).

Expected rows come from pandas alone: ``groupby(..., dropna=False).transform("size")`` is
each record's class size (a missing value is a value of its own, as the guide's classes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import app_py_on_every_rerun, metric, open_app  # noqa: F401

import core.measures.classes
import core.risk
import ui.state.risk
from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/5_risk.py"
SEEDED_QI = ["band", "region"]


def class_sizes(table: pd.DataFrame, qi: list[str]) -> np.ndarray:
    """Each record's class size, by pandas' group-by (independent of core.measures)."""
    return table.groupby(qi, dropna=False)[qi[0]].transform("size").to_numpy()


def expected_rows(table: pd.DataFrame, qi: list[str], k: int, only_below: bool) -> pd.DataFrame:
    """The first 200 records the page lists, in table order, with their class sizes."""
    sizes = class_sizes(table, qi)
    rows = np.flatnonzero(sizes < k) if only_below else np.arange(len(table))
    rows = rows[:200]
    return pd.DataFrame({"row": rows, "class size": sizes[rows]})


def shown_rows(at) -> pd.DataFrame:
    below = next(d.value for d in at.dataframe if "class size" in d.value.columns)
    return pd.DataFrame(
        {"row": below.index.to_numpy(), "class size": below["class size"].to_numpy()}
    )


@pytest.fixture
def seeded(tmp_path, monkeypatch) -> pd.DataFrame:
    """1,000 records: a 30-value band and a 12-value region (with missing regions), so some
    classes hold one or two records and more than 200 records sit below k = 5."""
    rng = np.random.default_rng(31)
    rows = 1000
    region = np.array([f"r{i}" for i in range(12)], dtype=object)[rng.integers(0, 12, rows)]
    region[rng.random(rows) < 0.05] = None
    table = pd.DataFrame(
        {
            "band": rng.integers(0, 30, rows),
            "region": region,
            "income": rng.choice(["low", "high"], rows),
        }
    )
    path = tmp_path / "seeded.csv"
    table.to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    return pd.read_csv(path)


def open_risk_page(qi: list[str]):
    at = open_app()
    at.session_state["roles"] = {c: Role.INDIRECT for c in qi}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def test_records_below_k_on_a_seeded_table_are_those_pandas_counts(seeded):
    sizes = class_sizes(seeded, SEEDED_QI)
    assert (sizes < 5).sum() > 200 and (sizes >= 5).any()  # the table tests the cap of 200
    at = open_risk_page(SEEDED_QI)
    assert metric(at, "Records below k = 5") == f"{int((sizes < 5).sum()):,}"
    pd.testing.assert_frame_equal(shown_rows(at), expected_rows(seeded, SEEDED_QI, 5, True))

    at.number_input(key="risk_k_target").set_value(3).run()
    pd.testing.assert_frame_equal(shown_rows(at), expected_rows(seeded, SEEDED_QI, 3, True))

    at.checkbox(key="only_below").uncheck().run()
    assert not at.exception, at.exception
    pd.testing.assert_frame_equal(shown_rows(at), expected_rows(seeded, SEEDED_QI, 3, False))


def test_records_below_k_on_the_default_sample_are_those_pandas_counts():
    qi = ["sex", "race", "postal_code"]
    people = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", dtype=str)
    at = open_risk_page(qi)
    pd.testing.assert_frame_equal(shown_rows(at), expected_rows(people, qi, 5, True))


@pytest.mark.usefixtures("app_py_on_every_rerun")  # the sidebar, drawn by app.py, shows k
@pytest.mark.parametrize("sensitive", [None, "income"])
def test_the_click_on_risk_does_not_count_the_classes_again(seeded, monkeypatch, sensitive):
    # as on a large table: the impact (which counts per quasi-identifier) starts off
    monkeypatch.setattr(ui.state.risk, "IMPACT_AUTO_ROWS", 10)
    roles = {c: Role.INDIRECT for c in SEEDED_QI}
    if sensitive:
        roles[sensitive] = Role.TARGET
    at = open_app()
    at.session_state["roles"] = roles
    at.run()  # the sidebar shows k: the classes are counted here
    assert not at.exception, at.exception
    counts: list[str] = []

    def counting(module, name):
        real = getattr(module, name)

        def count(*args, **kwargs):
            counts.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, count)

    for module, name in [
        (core.measures.classes, "equivalence_classes"),
        (ui.state.risk, "equivalence_classes"),
        (core.risk, "classes_and_impact"),
        (core.risk, "classes_and_distribution"),
    ]:
        counting(module, name)
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert counts == []
    # a new target k: new figures from the same classes
    at.number_input(key="risk_k_target").set_value(3).run()
    assert not at.exception, at.exception
    assert counts == []
    pd.testing.assert_frame_equal(shown_rows(at), expected_rows(seeded, SEEDED_QI, 3, True))
