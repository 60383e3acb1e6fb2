"""Step 4 · Survey risk: sampling weights, individual and household risk, SUDA2.

For a *sample* (survey microdata) a record unique in the file may share its
quasi-identifiers with many people outside it; sdcMicro's measures estimate that from the
sampling weights (core.survey_risk) and find the special uniques (core.suda).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core.formatting import fmt_count, fmt_number, fmt_percent, fmt_probability
from core.markup import escape_markdown
from core.model_risk import MODEL_METHODS, model_risk
from core.suda import DEFAULT_DIS_FRACTION, suda2
from core.survey_risk import RISK_METHODS, sample_frequencies, survey_risk
from ui import guide_examples
from ui.charts import labelled_bars
from ui.page_errors import stop_on_error
from ui.state import cache, classify, loading, presentation, replay
from ui.tables import formatted_table

SOURCE = "PDPC guide, Step 4; sdcMicro measure_risk"
MISSING_RULES = {
    "own_value": "a blank is a value of its own",
    "sdcmicro": "a blank could be any value (sdcMicro)",
}

if not loading.require_data() or not classify.require_known_columns():
    st.stop()

st.title("Survey risk")
data = replay.current_data()
st.caption(f"Measured on {presentation.recipe_label()} ({fmt_count(len(data))} records).")
# Shown before the roles are confirmed too: a workshop meets the page that way.
guide_examples.show_training(
    "A survey holds a sample of the population: a record unique in the sample may share its "
    "quasi-identifiers with many people who were not sampled. The sampling weight says how "
    "many people each record stands for, so the risk of a record depends on the estimated "
    "size of its group in the population, not only in the file. People of one household "
    "can be recognised together, so the household risk adds up its members' risks."
)
qi = classify.quasi_identifiers(data)
if not qi:
    st.warning("Confirm the indirect identifiers (quasi-identifiers) on Classify first.")
    st.page_link("pages/2_classify.py", label="Go to Classify", icon=":material/label:")
    st.stop()
st.caption(f"Quasi-identifiers: {', '.join(map(escape_markdown, qi))}")

st.subheader("A sample of a population: sampling weights")
others = [c for c in map(str, data.columns) if c not in qi]
numeric = [c for c in others if pd.api.types.is_numeric_dtype(data[c])]
left, middle, right = st.columns(3)
weights = left.selectbox(
    "Sampling weight column",
    [None, *numeric],
    key="survey_weights",
    format_func=lambda c: "(none: each record stands for itself)" if c is None else c,
)
household = middle.selectbox(
    "Household id column",
    [None, *others],
    key="survey_household",
    format_func=lambda c: "(none)" if c is None else c,
)
method = right.selectbox("Individual risk", RISK_METHODS, key="survey_method")
left, right = st.columns(2)
threshold = float(
    left.number_input("Risk threshold", 0.0001, 1.0, value=0.05, format="%g", key="survey_th")
)
missing = right.radio(
    "Missing values",
    list(MISSING_RULES),
    key="survey_missing",
    format_func=MISSING_RULES.get,
    horizontal=True,
)

with stop_on_error():
    risk = cache.memo(
        "survey_risk",
        lambda: survey_risk(
            data,
            qi,
            weights=weights,
            household=household,
            method=method,
            threshold=threshold,
            missing=missing,
        ),
        tuple(qi),
        weights,
        household,
        method,
        threshold,
        missing,
    )

text = risk.explanations()
figures = [
    ("Global risk", fmt_probability(risk.global_risk), text["global_risk"]),
    (
        "Expected re-identifications",
        fmt_number(risk.expected_reidentifications),
        f"The sum of the individual risks: about {fmt_number(risk.expected_reidentifications)} "
        f"of {fmt_count(len(data))} records could be re-identified.",
    ),
    (
        "Highest individual risk",
        fmt_probability(risk.individual.max(initial=0.0)),
        text["individual_risk_max"],
    ),
    (
        f"Records above {fmt_probability(threshold)}",
        fmt_percent(risk.share_above_threshold),
        text["share_above_threshold"],
    ),
]
if risk.household is not None:
    figures.append(
        (
            "Expected re-identifications, by household",
            fmt_number(risk.household.sum()),
            text["household_risk"],
        )
    )
for column, (label, value, sentence) in zip(st.columns(len(figures)), figures, strict=True):
    with column:
        st.metric(label, value)
        presentation.explain(escape_markdown(sentence), SOURCE)

if data[qi].isna().to_numpy().any():
    wildcard = sample_frequencies(data, qi, missing="sdcmicro").fk
    st.metric("Smallest group, a blank matching any value", fmt_count(wildcard.min()))
    presentation.explain(
        "Blank cells (e.g. from local suppression) could hide any value, so a record with a "
        "blank is counted in every group it could belong to; this is the k local suppression "
        "reaches (the Risk page counts a blank as a value of its own).",
        "PDPC guide, Annex C; sdcMicro freqCalc",
    )

model_method = st.selectbox(
    "Log-linear model (sdcMicro modRisk)",
    MODEL_METHODS,
    key="survey_model",
    help="default: main effects of the quasi-identifiers; CE, PML and weightedLLM use the "
    "sampling weights in the model as well.",
)
with stop_on_error():
    model = cache.memo(
        "model_risk",
        lambda: model_risk(data, qi, weights=weights, method=model_method),
        tuple(qi),
        weights,
        model_method,
    )
left, right = st.columns(2)
left.metric(
    "Sample uniques expected unique in the population",
    fmt_number(model.expected_population_uniques),
)
right.metric("Expected correct matches", fmt_number(model.expected_correct_matches))
presentation.explain(
    escape_markdown(model.explanations()["model_risk"]), "PDPC guide, Step 4; sdcMicro modRisk"
)

per_record = pd.DataFrame(
    {
        "f_k (records)": risk.frequencies.fk.astype(int),
        "F_k (people)": risk.frequencies.Fk,
        "individual risk": risk.individual,
    },
    index=data.index,
)
if risk.household is not None:
    per_record["household risk"] = risk.household
riskiest = np.argsort(-risk.individual, kind="stable")[:20]
riskiest_records = pd.concat([data[qi].iloc[riskiest], per_record.iloc[riskiest]], axis=1)
st.dataframe(formatted_table(riskiest_records, counts=["f_k (records)"], labels=qi))
presentation.explain(
    "The 20 riskiest records: f_k records of the sample share their quasi-identifiers, "
    "standing for about F_k people (the sum of their weights); the fewer people, the higher "
    "the risk (Benedetti-Franconi).",
    SOURCE,
)

st.subheader("Special uniques (SUDA2)")
left, right = st.columns(2)
max_size = int(
    left.number_input("Largest combination searched", 1, len(qi), value=len(qi), key="suda_max")
)
fraction = float(
    right.number_input(
        "Sampling fraction (for DIS-SUDA)",
        0.0001,
        0.9999,
        value=DEFAULT_DIS_FRACTION,
        format="%g",
        key="suda_fraction",
    )
)
# One group-by per combination of quasi-identifiers: about a second for 30,000 records and
# 8 of them; on big tables the search waits for a click instead of running on every visit.
combinations = sum(math.comb(len(qi), size) for size in range(1, max_size + 1))
if len(data) * combinations > 20_000_000 and not st.session_state.get("suda_run"):
    st.caption(
        f"The search visits {combinations:,} combinations of quasi-identifiers over "
        f"{len(data):,} records; it may take a while."
    )
    if not st.button("Find the special uniques", key="suda_start"):
        st.stop()
    st.session_state["suda_run"] = True
with stop_on_error():
    special = cache.memo(
        "suda2",
        lambda: suda2(data, qi, max_size=max_size, dis_fraction=fraction),
        tuple(qi),
        max_size,
        fraction,
    )
sentences = special.explanations()
summary = special.to_dict()
cols = st.columns(3)
cols[0].metric("Records with a minimal sample unique", fmt_count(special.records_with_msu))
with cols[0]:
    presentation.explain(
        escape_markdown(sentences["records_with_msu"]), "PDPC guide, Step 4; sdcMicro suda2"
    )
cols[1].metric("Highest SUDA score", fmt_number(summary["suda_score_max"]))
with cols[1]:
    presentation.explain(
        "A record's SUDA score adds a weight for each minimal sample unique, larger for smaller "
        "ones: the higher, the easier to single out.",
        "Elliot et al., SUDA; sdcMicro suda2",
    )
cols[2].metric("Highest DIS-SUDA score", fmt_probability(summary["dis_suda_score_max"]))
with cols[2]:
    presentation.explain(
        escape_markdown(sentences["dis_suda_score_max"]), "Skinner and Elliot 2002; sdcMicro suda2"
    )

contribution = pd.DataFrame(
    {
        "quasi-identifier": list(special.attribute_contribution),
        "contribution (%)": list(special.attribute_contribution.values()),
    }
)
# Each bar carries its figure, in rows tall enough for every name (issue 29).
chart = labelled_bars(
    contribution,
    "contribution (%)",
    "quasi-identifier",
    title="contribution (%)",
    number_format=".1f",
    domain_max=100.0,
)
st.altair_chart(chart, width="stretch")
presentation.explain(
    escape_markdown(
        sentences.get(
            "attribute_contribution",
            "No record is a sample unique on these quasi-identifiers: none contributes.",
        )
    ),
    "sdcMicro suda2, attribute contributions",
)

if special.records_with_msu:
    top = np.argsort(-special.dis_score, kind="stable")[: min(20, special.records_with_msu)]
    smallest = special.smallest_msu_size()
    special_uniques = (
        data[qi]
        .iloc[top]
        .assign(
            **{
                "SUDA score": special.score[top],
                "DIS-SUDA score": special.dis_score[top],
                "smallest MSU": smallest[top],
            }
        )
    )
    st.dataframe(formatted_table(special_uniques, counts=["smallest MSU"], labels=qi))
    presentation.explain(
        "The records most at risk of being unique in the population too: the smaller their "
        "smallest minimal sample unique (the number of quasi-identifiers that single them "
        "out), the higher their scores; generalise or suppress those values first.",
        "PDPC guide, Step 3 and Step 4; sdcMicro suda2",
    )
