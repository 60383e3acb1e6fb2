"""Step 4 · Compute your risk: k-anonymity, prosecutor risk and the Annex D model."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, P_ATTEMPT, RECORD_RISK
from core.formatting import fmt_count, fmt_number, fmt_probability
from core.markup import escape_markdown
from core.measures.disclosure import t_closeness
from core.population_risk import MODEL_NAMES, population_figures, sizes_from_distribution
from core.risk import CONTROL_LEVELS, HARM_THRESHOLDS, INSIDER_ATTACK_TABLE, MOTIVATION_LEVELS
from ui import guide_examples
from ui.charts import class_size_chart, driving_advice, labelled_bars
from ui.guide_examples import GUIDE_CONTROL_ORDER
from ui.page_errors import error_text
from ui.progress import progress_bar
from ui.state import classify, hierarchies, loading, presentation, replay, risk, tradeoffs, widgets
from ui.tradeoffs import hierarchy_from_choice

if not loading.require_data() or not classify.require_known_columns():
    st.stop()

st.title("Risk")
guide_examples.show_workshop_task("Risk")
data = replay.current_data()
st.caption(
    f"Step 4 · Compute your risk. Measured on {presentation.recipe_label()} "
    f"({fmt_count(len(data))} records)."
)
guide_examples.show_training(
    "Step 4 asks how identifiable the records still are. k is the size of the smallest "
    "group of records that look alike on the indirect identifiers, so the highest record "
    "risk is 1/k; the Annex D P(re-ID) multiplies it by the chance that someone tries, "
    "set by the controls and motivation below, and compares it with the threshold for "
    "the harm a disclosure would do."
)
guide_examples.show_step4_k_example()
qi = classify.quasi_identifiers(data)
if not qi:
    st.warning(
        "No indirect identifiers (quasi-identifiers) are confirmed yet, so k cannot be computed "
        "(PDPC guide, Step 4: only indirect identifiers count)."
    )
    st.page_link("pages/2_classify.py", label="Confirm them on Classify", icon=":material/label:")
    st.stop()

left, right = st.columns(2)
k_target = int(
    left.number_input(
        "Target k", 1, value=classify.k_target(), key=widgets.showing("k", "risk_k_target")
    )
)
others = [c for c in map(str, data.columns) if c not in qi]
options = [None, *others]
current_sensitive = classify.sensitive_column(data)
sensitive = right.selectbox(
    "Sensitive (target) attribute, for l-diversity and t-closeness",
    options,
    index=options.index(current_sensitive) if current_sensitive in options else 0,
    format_func=lambda c: "(none)" if c is None else c,
    key=widgets.showing("sensitive", "risk_sensitive"),
)
if k_target != classify.k_target() or sensitive != current_sensitive:
    classify.set_k_target(k_target)
    classify.set_sensitive(sensitive)
    st.rerun()

show_impact = st.checkbox(
    "Show which quasi-identifier drives the risk",
    value=len(data) <= risk.IMPACT_AUTO_ROWS,
    key="risk_impact",
    help="Counts the classes again without each quasi-identifier: about three times the "
    f"work, so it starts off above {fmt_count(risk.IMPACT_AUTO_ROWS)} records.",
)
with progress_bar(f"Counting the equivalence classes of {fmt_count(len(data))} records..."):
    report = risk.current_risk(data, impact=show_impact)
text = report.explanations()
st.caption(f"Quasi-identifiers: {', '.join(map(escape_markdown, report.quasi_identifiers))}")
if note := classify.removed_note():
    st.caption(note)
figures = [
    (
        "k",
        fmt_count(report.k),
        "The smallest group of records alike on the quasi-identifiers; 1 means someone is unique.",
        "PDPC guide, Step 4",
        "k",
    ),
    (
        "Classes",
        fmt_count(report.classes),
        "Groups of records sharing all quasi-identifier values (equivalence classes).",
        "PDPC guide, Annex C",
        None,
    ),
    (
        "Unique records",
        fmt_count(report.uniques),
        "Records alone in their group: anyone who knows these attributes can single them out.",
        "PDPC guide, Step 4",
        "uniques",
    ),
    (
        f"Records below k = {k_target}",
        fmt_count(report.records_below_k),
        "Records in groups smaller than the target: suppress them or generalise further.",
        "PDPC guide, Annex C",
        "records_below_k",
    ),
    (
        RECORD_RISK.name,
        fmt_probability(report.max_risk),
        RECORD_RISK.sentence,
        RECORD_RISK.section,
        "max_risk",
    ),
    (
        "Average prosecutor risk",
        fmt_probability(report.avg_risk),
        "The same chance averaged over all records (classes / records).",
        "PDPC guide, Annex D, footnote 14",
        "avg_risk",
    ),
]
for column, (label, value, sentence, section, key) in zip(st.columns(3) * 2, figures, strict=True):
    with column:
        st.metric(label, value)
        presentation.explain(sentence, section, training=text.get(key))

st.subheader("Class sizes")
st.altair_chart(class_size_chart(report.class_sizes, k_target), width="stretch")
presentation.explain(
    f"How many records sit in groups of each size; red bars are left of the dashed target "
    f"k = {k_target} and need more work.",
    "PDPC guide, Step 4 and Annex C",
)

st.subheader("Records below the target k")
# the classes the report was computed from (ui.state.risk): not counted again here
size = risk.current_classes(data).size_of_record
only_below = st.checkbox("Show only records below the target k", value=True, key="only_below")
# the first 200 rows only: no copy of a large table
shown = np.flatnonzero(size < k_target)[:200] if only_below else np.arange(min(len(data), 200))
table = data.iloc[shown].assign(**{"class size": size[shown]})
table = table[[*qi, "class size", *(c for c in table.columns if c not in {*qi, "class size"})]]
class_size_help = f"Records alike on the quasi-identifiers; below {k_target} needs more work."
if only_below:
    # Every class size shown is below k: the column says so, without a pandas Styler (its
    # first use, imports and cell-by-cell rendering, was 0.23 s of the click on Risk).
    st.dataframe(
        table,
        column_config={
            "class size": st.column_config.NumberColumn(
                f"class size (below {k_target})", help=class_size_help
            )
        },
    )
else:
    st.dataframe(
        table.style.map(
            lambda v: "background-color: #f8d7da" if v < k_target else "", subset=["class size"]
        ),
        column_config={"class size": st.column_config.NumberColumn(help=class_size_help)},
    )
presentation.explain(
    f"{report.records_below_k:,} record(s) are in groups smaller than {k_target} (first 200 "
    "shown; with every record shown, the class sizes below k are highlighted); Annex C "
    "suppresses such records or generalises further.",
    "PDPC guide, Annex C",
)


def show_hierarchical_t(data: pd.DataFrame, qi: tuple[str, ...], sensitive: str) -> None:
    """t-closeness with hierarchical distance, when the sensitive attribute has a hierarchy
    chosen on Explore trade-offs (ARX's hierarchical t-closeness)."""
    choice = tradeoffs.hierarchy_choices().get(sensitive)
    if not choice:
        st.caption(
            f"For t-closeness with hierarchical distance, choose a hierarchy of "
            f"'{escape_markdown(sensitive)}' on Explore trade-offs (t distance: "
            "hierarchical)."
        )
        return
    try:
        hierarchy = hierarchy_from_choice(
            data[sensitive].rename(sensitive), choice, stored=hierarchies.stored_hierarchy
        )
        value = t_closeness(
            data, list(qi), sensitive, distance="hierarchical", hierarchy=hierarchy
        ).t
    except AnonymisationError as error:
        st.caption(f"t-closeness with hierarchical distance: {error_text(error)}")
        return
    st.metric("t-closeness (hierarchical distance)", f"{value:.3f}")
    presentation.explain(
        f"The same largest distance, measured in the hierarchy of '{sensitive}' chosen on "
        "Explore trade-offs: two values are (level where they meet) / (height) apart, so a "
        "group whose values differ from the whole table's only within a branch counts as "
        "closer than with equal distance (Li et al. 2007, as in ARX).",
        "PDPC guide, Step 4 footnote 11",
    )


if report.sensitive is not None:
    st.subheader(f"Attribute disclosure: '{escape_markdown(report.sensitive)}'")
    ldiv, lent, tclose = st.columns(3)
    ldiv.metric("Distinct l-diversity", fmt_count(report.l_distinct))
    lent.metric("Entropy l-diversity", fmt_number(report.l_entropy))
    tclose.metric("t-closeness", fmt_number(report.t_closeness))
    if disclosure := report.attribute_disclosure():
        st.error(escape_markdown(disclosure), icon=":material/visibility:")
    for key in ("l_distinct", "l_entropy", "t_closeness"):
        presentation.explain(text[key], "PDPC guide, Step 4 footnote 11; Annex C")
    if model_rows := report.model_rows():  # the registry's other models (core.measures.models)
        for column, (_, title, value, _) in zip(
            st.columns(len(model_rows)), model_rows, strict=True
        ):
            column.metric(title, fmt_number(value))
        for _, _, _, explanation in model_rows:
            presentation.explain(escape_markdown(explanation), "PDPC guide, Step 4")
    show_hierarchical_t(data, report.quasi_identifiers, report.sensitive)

st.subheader("Population uniqueness: unique in the whole population?")
population_left, population_right = st.columns(2)
population = population_left.number_input(
    "Population size (people the data was drawn from; 0 = not set)",
    min_value=0,
    value=0,
    step=1000,
    key="risk_population",
    help="For example the number of residents when the table is a sample of residents.",
)
if population:  # the box cannot show thousands separators
    population_left.caption(f"{fmt_count(population)} people")
model = population_right.selectbox(
    "Model",
    list(MODEL_NAMES),
    index=list(MODEL_NAMES).index("dankar"),
    format_func=lambda m: MODEL_NAMES[m][0].upper() + MODEL_NAMES[m][1:],
    key="risk_population_model",
)
presentation.explain(
    "A record unique in this table may still share its quasi-identifier values with other "
    "people who are not in it. Given how many people the table was drawn from, these models "
    "estimate from the table's group sizes how many people are unique in the whole "
    "population: only those can be singled out by someone who knows their attributes. "
    "Dankar et al.'s rule picks Pitman's model for samples of 10% or less, else the smaller "
    "of Zayatz's and the SNB estimate (ARX's definitions).",
    "PDPC guide, Annex D",
)
if population and population < report.records:
    st.error(
        f"The population must be at least the {fmt_count(report.records)} records of the "
        "table: give the number of people the data was drawn from."
    )
elif population and report.records:
    sizes = sizes_from_distribution(report.class_sizes["class_size"], report.class_sizes["classes"])
    with st.spinner("Estimating population uniqueness..."):
        pop_figures, pop_text = population_figures(sizes, float(population), model=model)
    share = pop_figures["population_uniqueness"]
    share_col, people_col, fraction_col = st.columns(3)
    share_col.metric("Population uniqueness", "n/a" if share is None else fmt_probability(share))
    people_col.metric(
        "People unique in the population",
        "n/a" if share is None else fmt_count(round(pop_figures["population_uniques"])),
    )
    fraction_col.metric("Sampling fraction", fmt_probability(pop_figures["sampling_fraction"]))
    st.info(escape_markdown(pop_text["population_uniqueness"]))
    estimates = pd.DataFrame(
        [
            {
                "model": MODEL_NAMES[m],
                "population uniqueness": "did not converge" if v is None else fmt_probability(v),
            }
            for m, v in pop_figures["population_estimates"].items()
            if m != "dankar"
        ]
    )
    st.table(estimates)

if not show_impact:
    st.caption("Which quasi-identifier drives the risk: tick the box above to compute it.")
if show_impact and report.impact:
    st.subheader("Which quasi-identifier drives the risk?")
    impact = pd.DataFrame([asdict(i) for i in report.impact])
    left, right = st.columns(2)
    left.altair_chart(
        labelled_bars(
            impact,
            "k_without",
            "quasi_identifier",
            title="k without it",
            number_format=",d",
            category_title="quasi-identifier",
        ),
        width="stretch",
    )
    right.altair_chart(
        labelled_bars(
            impact,
            "uniques_without",
            "quasi_identifier",
            title="Unique records without it",
            number_format=",d",
            color="#ff7f0e",
            category_title="quasi-identifier",
        ),
        width="stretch",
    )
    presentation.explain(
        driving_advice(impact, report.k, report.uniques), "PDPC guide, Step 3 and Annex C"
    )

st.subheader("Annex D: is the risk acceptable?")
guide_examples.show_annex_d_tables()
settings = risk.annex_d_settings()
saved = risk.insider_table() or INSIDER_ATTACK_TABLE
# Rows in the guide's order (controls high to none), as Annex D prints the table.
grid = pd.DataFrame(saved).T.reindex(
    index=list(GUIDE_CONTROL_ORDER), columns=list(MOTIVATION_LEVELS)
)
grid.index.name = "controls \\ motivation"
edited = st.data_editor(
    grid,
    key="insider_table",
    num_rows="fixed",
    column_config={
        m: st.column_config.NumberColumn(m, min_value=0.0, max_value=1.0, step=0.01)
        for m in MOTIVATION_LEVELS
    },
)
presentation.explain(
    "P(deliberate insider attack) by the extent of mitigating controls (rows) and the "
    "attacker's motivation and resources (columns); the guide's example values, yours to adjust.",
    "PDPC guide, Annex D, Scenario #1",
)


def reset_insider_table() -> None:
    risk.set_insider_table(None)
    widgets.forget_widget("insider_table")


st.button("Back to the guide's values", key="insider_reset", on_click=reset_insider_table)
values = edited.apply(pd.to_numeric, errors="coerce")
bad = values.isna() | (values < 0) | (values > 1)
if bad.to_numpy().any():
    row, col = next((r, c) for r in bad.index for c in bad.columns if bad.loc[r, c])
    st.error(f"Insider table cell (controls {row}, motivation {col}) must be between 0 and 1.")
else:
    table = {r: {c: float(values.loc[r, c]) for c in values.columns} for r in values.index}
    if table != {r: {c: float(grid.loc[r, c]) for c in grid.columns} for r in grid.index}:
        risk.set_insider_table(table)
        st.rerun()

a, b, c, d, e = st.columns(5)
from_checklist = risk.controls_from_checklist()  # one source: Report's Step 5 checklist
controls = a.selectbox(
    "Mitigating controls",
    CONTROL_LEVELS,
    key=widgets.showing(
        "annex_d", f"controls_from_checklist_{from_checklist[0]}" if from_checklist else "controls"
    ),
    index=CONTROL_LEVELS.index(settings["controls"]),
    disabled=from_checklist is not None,
    help=f"From the Step 5 checklist on Report: {from_checklist[1]} of {from_checklist[2]} "
    "controls in place."
    if from_checklist
    else "Or tick the Step 5 controls in place on Report, which then set this level.",
)
motivation = b.selectbox(
    "Attacker motivation",
    MOTIVATION_LEVELS,
    key=widgets.showing("annex_d", "motivation"),
    index=MOTIVATION_LEVELS.index(settings["motivation"]),
)
acquaintance = c.number_input(
    "P(recipient knows someone in it)",
    0.0,
    1.0,
    step=0.01,
    value=float(settings["acquaintance"]),
    key=widgets.showing("annex_d", "acquaintance"),
)
breach = d.number_input(
    "P(data breach in the industry)",
    0.0,
    1.0,
    step=0.01,
    value=float(settings["breach"]),
    key=widgets.showing("annex_d", "breach"),
)
harm_options = [*HARM_THRESHOLDS, "custom"]
harm_now = settings["harm"] if settings["harm"] in HARM_THRESHOLDS else "custom"
harm = e.selectbox(
    "Potential harm",
    harm_options,
    index=harm_options.index(harm_now),
    key=widgets.showing("annex_d", "harm"),
    format_func=lambda h: f"{h} ({HARM_THRESHOLDS[h]})" if h != "custom" else h,
)
if harm == "custom":
    default = float(settings["harm"]) if harm_now == "custom" else 0.05
    harm = float(
        e.number_input(
            "Threshold",
            0.0001,
            1.0,
            value=default,
            format="%.4f",
            key=widgets.showing("annex_d", "harm_custom"),
        )
    )
chosen = dict(
    controls=controls,
    motivation=motivation,
    acquaintance=float(acquaintance),
    breach=float(breach),
    harm=harm,
)
if chosen != settings:
    risk.set_annex_d_settings(**chosen)
    st.rerun()

verdict = risk.current_annex_d()
if verdict is None:
    st.info("The table is empty, so there is no risk to assess.")
    st.stop()
cols = st.columns(5)
cols[0].metric(
    P_ATTEMPT.name,
    fmt_probability(verdict.p_attempt),
    help=f"{P_ATTEMPT.help()}. Here the largest is the {verdict.driving_scenario}.",
)
cols[1].metric(ANNEX_D_P_REID.name, fmt_probability(verdict.p_reid), help=ANNEX_D_P_REID.help())
cols[2].metric("Threshold", fmt_probability(verdict.threshold))
cols[3].metric("Acceptable", "yes" if verdict.acceptable else "no")
cols[4].metric("Minimum k", verdict.min_k)
presentation.explain(
    f"{ANNEX_D_P_REID.name} = {P_ATTEMPT.name} / k, where {P_ATTEMPT.name} is the largest of "
    "the insider attack, recognition by an acquaintance and a data breach.",
    "PDPC guide, Annex D",
)
(st.success if verdict.acceptable else st.error)(verdict.explanation())
