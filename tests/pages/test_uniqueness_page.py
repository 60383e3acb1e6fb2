"""AppTest checks of the Uniqueness page (Gibbon & Aisbett's birthday model, Step 4)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/6_uniqueness.py"
SAMPLE = ROOT / "sample_data" / "singapore_people.csv"


def _percent(text: str) -> float:
    return float(text.rstrip("%").replace(",", "")) / 100


def _metric(at: AppTest, label: str) -> str:
    matches = [m.value for m in at.metric if m.label == label]
    assert matches, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return matches[0]


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, at.exception
    return at


def test_renders_on_default_sample(page: AppTest) -> None:
    assert page.title[0].value.startswith("Uniqueness")
    assert page.number_input(key="population").value == 250
    assert len(page.get("vega_lite_chart")) >= 3  # Fig. 1, distribution, observed


def test_n_250_is_about_half(page: AppTest) -> None:
    # Gibbon & Aisbett, Section 2: "A population of 250 gives a 50% chance of being
    # uniquely identified."
    p_unique = _percent(_metric(page, "P(unique)"))
    assert p_unique == pytest.approx(0.50, abs=0.01)
    # and exactly (364/365)^249, worked out by hand here
    assert p_unique == pytest.approx((364 / 365) ** 249, abs=0.0005)
    assert _percent(_metric(page, "Expected unique share")) == pytest.approx(p_unique)


def test_n_2500_is_about_one_in_a_thousand(page: AppTest) -> None:
    # Section 2: "A population of around 2500 is needed to reduce the number of unique
    # birthdays to 0.1%." The distribution is not computed beyond N = 1000.
    page.number_input(key="population").set_value(2500).run()
    assert not page.exception
    assert _percent(_metric(page, "P(unique)")) == pytest.approx(0.001, abs=0.0005)
    assert any("1,000" in i.value for i in page.info)
    page.number_input(key="population").set_value(250).run()


def test_a_person_alone_is_unique_for_sure(page: AppTest) -> None:
    # N = 1: nobody else can share the birthday, P(unique) = (364/365)^0 = 1, shown as an
    # exact share, "100%" (core.formatting; issue 17), not "100.0%".
    page.number_input(key="population").set_value(1).run()
    assert not page.exception
    assert _metric(page, "P(unique)") == "100%"
    assert _metric(page, "Expected unique share") == "100%"
    page.number_input(key="population").set_value(250).run()


def test_locality_with_equal_cells(page: AppTest) -> None:
    # 4000 people over 2 sexes x 80 ages: 25 per cell, each unique with (364/365)^24 = 93.6%,
    # close to the paper's "locality population of 4000 for 95% identification" (Section 4).
    expected = (364 / 365) ** 24
    assert _percent(_metric(page, "Expected share unique")) == pytest.approx(expected, abs=5e-4)
    page.number_input(key="locality_population").set_value(22000).run()
    # equal shares: 22000 / 160 = 137.5 people per cell, each unique with (364/365)^136.5
    assert _percent(_metric(page, "Expected share unique")) == pytest.approx(
        (364 / 365) ** 136.5, abs=5e-4
    )
    page.number_input(key="locality_population").set_value(4000).run()


def test_observed_share_matches_pandas(page: AppTest) -> None:
    df = pd.read_csv(SAMPLE, dtype=str)
    sector = df["postal_code"].str[:2]
    sizes = df.groupby([df["date_of_birth"], df["sex"], sector])["nric"].transform("size")
    expected = (sizes == 1).mean()
    assert page.selectbox(key="dob_column").value == "date_of_birth"
    assert page.selectbox(key="sex_column").value == "sex"
    assert page.selectbox(key="locality_column").value == "postal_code"
    assert page.number_input(key="locality_prefix").value == 2
    assert _percent(_metric(page, "Unique in the data")) == pytest.approx(expected, abs=5e-4)
    # whole postal codes: almost everybody is unique
    page.number_input(key="locality_prefix").set_value(0).run()
    sizes = df.groupby(["date_of_birth", "sex", "postal_code"])["nric"].transform("size")
    assert _percent(_metric(page, "Unique in the data")) == pytest.approx(
        (sizes == 1).mean(), abs=5e-4
    )
