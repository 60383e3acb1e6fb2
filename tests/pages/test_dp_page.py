"""AppTest checks of the Aggregate release page (differential privacy beside Annex A aggregation).

Exact figures are recomputed here with pandas groupby on the sample file; noisy figures
are checked against the listed categories and with tolerances far wider than the noise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import metric, open_app, shown
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/11_dp_release.py"
SAMPLE = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv")


@pytest.fixture(scope="module")
def page() -> AppTest:
    return open_app(PAGE)


def tables(at: AppTest) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Noisy, exact and guide tables (after the ledger table)."""
    frames = [d.value for d in at.dataframe]
    return frames[1], frames[2], frames[3]


def test_count_by_sex_on_the_default_sample(page):
    noisy, exact, guide = tables(page)
    truth = SAMPLE["sex"].value_counts()
    assert dict(zip(exact["sex"], exact["count"], strict=True)) == truth.to_dict()
    for sex, n in truth.items():  # b = 1/ε = 1: |noise| <= 15 with probability 1 - 3e-7
        assert abs(int(noisy.loc[noisy["sex"] == sex, "count"].iloc[0]) - n) <= 15
    assert metric(page, "ε spent") == "1"
    assert any("NOT FOR RELEASE" in w.value for w in page.warning)
    assert guide["count"].tolist() == exact["count"].astype(float).tolist()
    assert any("95% of the time" in m.value for m in page.markdown)


def test_tables_show_figures_as_every_page_does_and_keep_numbers_to_sort(page):
    """Counts with thousands separators, sums and means to three significant digits
    (core.formatting), in the noisy, exact and guide tables; underneath, the numbers stay
    numbers so that the grid sorts 949 before 5,083 (text would sort it after)."""
    frames = page.dataframe
    truth = SAMPLE["sex"].value_counts()
    exact_shown = shown(frames[2])
    # written by hand: 5,084 women and 4,916 men in the sample
    assert dict(zip(exact_shown["sex"], exact_shown["count"], strict=True)) == {
        sex: f"{n:,}" for sex, n in truth.items()
    }
    assert shown(frames[3])["count"].tolist() == [f"{n:,}" for n in truth[["F", "M"]]]
    assert all(re.fullmatch(r"\d,\d{3}", text) for text in shown(frames[1])["count"])
    assert shown(frames[0])["epsilon"].tolist() == ["1"]
    assert shown(frames[3])["suppressed"].tolist() == ["False", "False"]
    for frame in frames[1:4]:
        assert pd.api.types.is_numeric_dtype(frame.value["count"])


def test_sums_and_means_read_with_three_significant_digits():
    at = open_app(PAGE)
    at.multiselect(key="dp_means").set_value(["income"]).run()
    at.multiselect(key="dp_sums").set_value(["income"]).run()
    assert not at.exception, at.exception
    exact = shown(at.dataframe[2]).set_index("sex")
    truth = SAMPLE.groupby("sex")["income"]
    for sex in ("F", "M"):  # sums in the ten millions: whole, with separators
        assert exact.loc[sex, "sum of income"] == f"{round(truth.sum()[sex]):,}"
        mean = truth.mean()[sex]  # a mean in the thousands: 3 significant digits = whole
        assert 1000 <= mean < 10000 and exact.loc[sex, "mean of income"] == f"{round(mean):,}"
    noisy = shown(at.dataframe[1])
    assert all(re.fullmatch(r"[\d,]+", text) for text in noisy["mean of income"])
    assert all(re.fullmatch(r"\d+(\.\d+)?", text) for text in noisy["count ± (95% bound)"])
    # the error chart's measures in words too, not income_sum (issue 29)
    assert at.selectbox(key="dp_chart_measure").options == [
        "count",
        "sum of income",
        "mean of income",
    ]


def test_cross_tab_with_income_and_a_category_left_out(page):
    at = page
    at.multiselect(key="dp_by").set_value(["sex", "race"]).run()
    races = [r for r in SAMPLE["race"].unique() if r != "Others"]
    at.multiselect(key="dp_cats_race").set_value(races).run()
    at.multiselect(key="dp_sums").set_value(["income"]).run()
    at.number_input(key="dp_hi_income").set_value(20000.0).run()
    at.slider(key="dp_epsilon").set_value(0.5).run()
    assert not at.exception, at.exception
    noisy, exact, _ = tables(at)
    assert "Others" not in set(noisy["race"]) and set(noisy["race"]) == set(races)
    assert len(noisy) == 2 * len(races)
    inside = SAMPLE[SAMPLE["race"].isin(races)]
    truth = inside.groupby(["sex", "race"])["income"].sum()
    got = exact.set_index(["sex", "race"])["sum of income"]
    assert got.sort_index().tolist() == truth.sort_index().astype(float).tolist()
    assert metric(at, "ε spent") == "0.5"
    assert metric(at, "Noisy queries") == "2"  # count + sum of income, 0.25 each
    # sum noise b = 20000 / 0.25 = 80,000; 95% within ±240,000; allow ±1,000,000
    merged = noisy.merge(exact, on=["sex", "race"], suffixes=("", "_exact"))
    assert (abs(merged["sum of income"] - merged["sum of income_exact"]) < 1_000_000).all()
    outside = int((~SAMPLE["race"].isin(races)).sum())
    said = [m.value for m in at.markdown if "outside the category lists" in m.value]
    if "no record has" in said[0]:  # a noisy 0
        released = 0
    else:
        released = int(said[0].split("About ")[1].split(" record")[0].replace(",", ""))
    assert abs(released - outside) <= 60  # count noise b = 4: P(|noise| > 60) ~ e^-15


def test_gaussian_and_a_release_over_budget():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(PAGE).run()
    at.radio(key="dp_mechanism").set_value("gaussian").run()
    assert not at.exception, at.exception
    assert any("discrete Gaussian" in m.value for m in at.markdown)
    assert metric(at, "ε spent") == "1"
    at.number_input(key="dp_budget").set_value(0.5).run()
    at.slider(key="dp_epsilon").set_value(2.0).run()
    assert not at.exception, at.exception
    assert at.error and "privacy budget has only ε = 0.5" in at.error[0].value
    assert not at.dataframe  # nothing released


def test_no_chart_puts_a_log_scale_over_data_that_can_be_zero(page):
    # A log scale cannot show 0 (a rounded count's error at a large ε): Vega warns and
    # drops the axis. Every quantitative axis of the page is linear or symlog.
    import json

    specs = [json.loads(chart.proto.spec) for chart in page.get("arrow_vega_lite_chart")]
    specs += [json.loads(chart.proto.spec) for chart in page.get("vega_lite_chart")]
    assert specs

    def scales(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "y" and isinstance(value, dict) and "scale" in value:
                    yield value["scale"].get("type")
                yield from scales(value)
        elif isinstance(node, list):
            for item in node:
                yield from scales(item)

    assert "log" not in {t for spec in specs for t in scales(spec)}
    titled = [s for s in specs if "± error, 95% of the time" in json.dumps(s, ensure_ascii=False)]
    assert titled and "symlog" in json.dumps(titled[-1])


def test_outside_sentence_is_plain_english(page):
    """The sentence about records outside the category lists reads as English for any
    noisy count (never "About 0 record(s)"), its figure as the app's formatter writes it."""
    at = page
    said = [m.value for m in at.markdown if "outside the category lists" in m.value]
    assert said, [m.value for m in at.markdown]
    text = said[0]
    assert "record(s)" not in text, text
    if "no record has" not in text:
        count = text.split("About ")[1].split(" record")[0]
        verb = "record has" if count == "1" else "records have"
        assert f"About {count} {verb} a key outside" in text, text


def test_error_band_chart_is_readable(page):
    """A few cells get a chart a reader can read (two cells: 50 px before): 200 px, both axes
    titled, the x axis naming its unit (records for a count)."""
    import json

    page.multiselect(key="dp_by").set_value(["sex"]).run()  # two cells: F, M
    assert not page.exception, page.exception
    specs = [json.loads(c.proto.spec) for c in page.get("arrow_vega_lite_chart")]
    specs += [json.loads(c.proto.spec) for c in page.get("vega_lite_chart")]
    bands = [s for s in specs if "released minus true value" in json.dumps(s)]
    assert bands, "no error-band chart"
    spec = bands[-1]
    assert spec.get("height", 0) >= 200, spec.get("height")
    text = json.dumps(spec, ensure_ascii=False)
    assert "count: released minus true value (records)" in text
    assert '"title": "sex"' in text


def test_the_accuracy_axis_is_labelled_where_the_errors_are():
    """Issue 29: Vega's own symlog ticks labelled 0, 20, 40, 60 only, so the count's error
    at ε = 1 (a few records) could not be read. The ticks are 0, 1, 2, 5, 10, 20, 50..."""
    page = open_app(PAGE)  # counts only (the module's page has sums added by now)
    chart = next(c for c in page.get("vega_lite_chart") if "95% of the time" in c.proto.spec)
    layers = json.loads(chart.proto.spec)["layer"]
    y = next(layer["encoding"]["y"] for layer in layers if "y" in layer.get("encoding", {}))
    ticks = y["axis"]["values"]
    top = y["scale"]["domain"][1]
    # a count's 95% error at ε = 0.05 is under 100 records: a 1-2-5 ladder up to it
    assert ticks == [m for m in (0, 1, 2, 5, 10, 20, 50) if m <= top], (ticks, top)
    assert y["axis"]["format"] == ",d"
