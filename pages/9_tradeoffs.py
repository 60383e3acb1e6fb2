"""Step 3 · Explore trade-offs: the least damaging generalisation that meets a risk target."""

from __future__ import annotations

import streamlit as st

from core.errors import AnonymisationError
from core.formatting import fmt_count
from core.markup import escape_markdown
from core.population_risk import MODEL_NAMES
from core.risk import annex_d_risk
from core.search.measures import MEASURES
from core.search.run import search
from core.search.target import Target
from ui import model_inputs, solutions
from ui.hierarchy_inputs import hierarchies_section, hierarchy_for, hierarchy_inputs
from ui.page_errors import continue_on_error
from ui.state import classify, loading, presentation, replay, risk, session, tradeoffs
from ui.tradeoffs import (
    MEASURE_NAMES,
    measure_words,
)

if not loading.require_data() or not classify.require_known_columns():
    st.stop()

st.title("Explore trade-offs")
presentation.explain(
    "Searches every combination of generalisation levels, one per quasi-identifier, for the "
    "ones that meet your risk target with the least loss of information.",
    "PDPC guide, Step 3 and Annex C",
    training="Each quasi-identifier gets a hierarchy (age -> 5-year bands -> 10-year bands "
    "-> ... -> *). The search keeps the combinations where every group has at least k "
    "records after removing at most the allowed share of records, like the guide's Annex C "
    "example, and ranks them by how much detail they remove.",
)
flash = st.session_state.pop("to_flash", None)
if flash:
    st.success(flash)
# The search runs on the original unless the user chooses the table the recipe makes:
# generalising an already generalised table would stack the two without saying so.
BASES = {"original": "the original table"}
if session.recipe().steps:
    BASES["current"] = presentation.recipe_label()
basis = st.radio("Search on", list(BASES), format_func=BASES.get, horizontal=True, key="to_basis")
data = session.original() if basis == "original" else replay.current_data()
st.caption(f"Works on {BASES[basis]} ({len(data):,} records).")
columns = [str(c) for c in data.columns]
default_qi = [c for c in classify.quasi_identifiers(data) if c in columns]
qi = st.multiselect("Quasi-identifiers", columns, default=default_qi, key="to_qi")
if note := classify.removed_note():
    st.caption(note)
if not qi:
    st.info("Pick the quasi-identifiers (indirect identifiers) to generalise.")
    st.stop()

specs = hierarchies_section(data, qi, basis)

c1, c2, c3 = st.columns(3)
k = int(c1.number_input("Target k", 1, value=classify.k_target(), key="to_k"))
suppression = c2.number_input("Records removed at most (%)", 0.0, 100.0, 1.0, 0.5, key="to_supp")
measures = list(MEASURES)
measure = c3.selectbox(
    "Least",
    measures,
    index=measures.index("arx_loss"),
    format_func=lambda m: MEASURE_NAMES[m],
    key="to_measure",
    help="; ".join(measure_words(m) for m in measures),
)
with st.expander("Weighting of the ARX measures", expanded=False):
    gs_factor = st.slider(
        "Generalisation vs suppression (ARX's gsFactor)",
        0.0,
        1.0,
        0.5,
        0.05,
        key="to_gs_factor",
        help="0: removing records costs nothing, only generalising counts; "
        "1: generalising costs nothing, only removed records count; 0.5: "
        "both weigh the same (ARX's default)",
    )
    weight_columns = st.columns(min(len(qi), 4))
    weights = {
        column: weight_columns[i % len(weight_columns)].number_input(
            f"Weight of {escape_markdown(column)}",
            0.0,
            value=0.5,
            step=0.1,
            key=f"to_weight_{column}",
        )
        for i, column in enumerate(qi)
    }
    presentation.explain(
        "For ARX loss and the ARX entropies only: how much removing records costs against "
        "generalising, and how much each column's loss counts (weights are divided by the "
        "largest; equal weights change nothing), as ARX's quality model settings.",
        "PDPC guide, Step 3 and Annex A: Record suppression",
    )
others = [c for c in columns if c not in qi]
chosen = classify.sensitive_column(data)
sensitive = st.selectbox(
    "Sensitive attribute (for the models below)",
    [None, *others],
    index=others.index(chosen) + 1 if chosen in others else 0,
    format_func=lambda c: "(none)" if c is None else c,
    key="to_sensitive",
)
# Every privacy model of the registry but k-anonymity (the target k above) gets a group built
# from its parameters (ui/model_inputs.py): a model added to core.measures.models is offered
# here with no edit of this page.
asked_here = {"k": k, "sensitive": sensitive}
with st.expander("Attribute disclosure models", expanded=chosen is not None):
    if chosen is not None:  # Step 1 named a sensitive column: the road from the warning
        report = risk.current_risk()
        l_now = None if report is None else report.l_distinct
        figure = ""
        if l_now == 1:
            figure = "the sidebar shows l-diversity = 1: "
        elif l_now is not None:
            figure = f"its l-diversity is {fmt_count(l_now)} now; "
        st.info(
            escape_markdown(
                f"'{chosen}' is the sensitive attribute (Step 1): {figure}a group whose "
                f"records share one value of '{chosen}' tells it to anyone who can place a "
                "person in the group, whatever k is. l-diversity is on so the search keeps "
                "only groups with at least l values; t-closeness, β-likeness and the others "
                "below guard the same attribute."
            ),
            icon=":material/visibility:",
        )
    sensitive_models = [m for m in model_inputs.offered(asked_here) if m.needs_sensitive]
    groups = [
        # the first (l-diversity, the guide's footnote 11) is on when Step 1 named the column
        model_inputs.model_inputs(model, asked_here, on=chosen is not None and i == 0)
        for i, model in enumerate(sensitive_models)
    ]
    presentation.explain(
        "A group that fails any model switched on is removed, within the limit above (as "
        "ARX does); each model's help says what it guards against.",
        "PDPC guide, Step 4 (attribute disclosure) and Annex C",
    )
population_targets: dict = {}
with st.expander("Population models: k-map, population uniqueness, average risk"):
    p1, p2, p3 = st.columns(3)
    population = p1.number_input(
        "Population size (people the data was drawn from)",
        1,
        step=1000,
        key="to_population",
        value=None,
        placeholder="off",
    )
    if population:  # the box cannot show thousands separators
        p1.caption(f"{fmt_count(population)} people")
    uniqueness = p2.number_input(
        "Population uniqueness at most (%)",
        0.0,
        100.0,
        step=0.1,
        key="to_population_uniqueness",
        value=None,
        placeholder="off",
    )
    population_model = p3.selectbox(
        "Population model",
        list(MODEL_NAMES),
        format_func=lambda m: MODEL_NAMES[m],
        key="to_population_model",
    )
    average = st.number_input(
        "Average risk at most (classes / records, 0-1)",
        0.0,
        1.0,
        step=0.01,
        key="to_average_risk",
        value=None,
        placeholder="off",
    )
    population_upload = st.file_uploader(
        "Population table for k-map (optional): the records of the whole population, e.g. "
        "the register this table was drawn from",
        type=["csv", "tsv", "txt", "xlsx", "parquet"],
        key="to_population_table",
    )
    try:
        population_table = (
            None
            if population_upload is None
            else loading.side_table(population_upload.name, population_upload.getvalue())
        )
    except AnonymisationError as error:
        st.error(escape_markdown(error))
        population_upload = population_table = None
    if population_upload is not None:
        st.caption(f"{fmt_count(len(population_table))} people in the population table.")
        presentation.explain(
            "k-map with the population known: each group of the released table must match "
            "at least k people of this table, once the population is generalised the same "
            "way as the data (Sweeney's k-map, ARX's KMap with a research subset). The table "
            "must hold every record of the data (the data is a sample of it). A group of two "
            "records can pass when ten people of the population share its values; switch "
            "k-map on below. Apply keeps this table in the workspace (no file is written) for "
            "the recipe to read when it replays; the recipe names it by its checksum, never "
            "its records.",
            "PDPC guide, Annex D (singling out a person of the population); ARX "
            "org.deidentifier.arx.criteria.KMap",
        )
    asked_here["population"] = None if population is None else float(population)
    groups += [
        model_inputs.model_inputs(model, asked_here, on=False)
        for model in model_inputs.offered(asked_here)
        if not model.needs_sensitive
    ]
    if population:
        population_targets["population"] = float(population)
    if uniqueness:
        population_targets.update(
            max_population_uniqueness=uniqueness / 100, population_model=population_model
        )
    if average:
        population_targets["max_average_risk"] = average
    presentation.explain(
        "k-map: every group must stand for at least k people of the population; without a "
        "register of the population its group sizes are estimated from the sampling "
        "fraction (ARX's Poisson estimators), which sets the group size needed in the table. "
        "Population uniqueness: the estimated share of the population that is alone with "
        "its combination of values (Dankar's rule picks Pitman's, Zayatz's or the SNB model). "
        "Average risk: groups / records, the chance of a correct match averaged over records. "
        "The last two concern the whole table: the smallest groups are removed until they "
        "hold, within the limit above (as ARX does).",
        "PDPC guide, Annex C and Annex D",
    )
given = {**asked_here, "population_table": population_table}
t_group = next((g for g in groups if g.model.name == "t_closeness" and g.on), None)
if t_group is not None and t_group.values.get("t_distance") == "hierarchical" and sensitive:
    with t_group.box:
        st.caption(
            f"Hierarchy of the sensitive attribute '{escape_markdown(sensitive)}' (for "
            "the hierarchical distance: values a level apart are closer than values "
            "that only meet at '*')"
        )
        specs[sensitive] = hierarchy_inputs(data, sensitive)
        with continue_on_error():
            given["t_hierarchy"] = hierarchy_for(data, sensitive, specs[sensitive])
models, models_ok = model_inputs.checked(groups, given)
use_annex_d = st.checkbox("Meet the Annex D threshold (settings of the Risk page)", key="to_annexd")

stopped, partial = tradeoffs.take_up_stopped_search()  # the Stop button below reruns
if stopped:
    st.warning(
        escape_markdown(partial[0].stopped_words())
        if partial is not None
        else "The search was stopped before it found a solution: search again, and let it run "
        "longer.",
        icon=":material/pause_circle:",
    )
if st.button("Search", key="to_run", type="primary"):
    stop = st.empty()
    stop.button("Stop and keep the best so far", key="to_stop")  # a click reruns: see above
    bar = st.progress(0.0, text="Preparing hierarchies...")
    tradeoffs.start_search()
    try:
        if not models_ok:
            raise AnonymisationError(
                "A privacy model switched on above is not well set: see its message."
            )
        hierarchies = {c: hierarchy_for(data, c, specs[c]) for c in qi}
        extra = {}
        if use_annex_d:
            verdict = annex_d_risk(1, insider_table=risk.insider_table(), **risk.annex_d_settings())
            extra = {"p_reid_threshold": verdict.threshold, "p_attempt": verdict.p_attempt}
        target = Target.of(
            k=k,
            max_suppressed=suppression / 100,
            sensitive=sensitive,
            **{**population_targets, **models},
            **extra,
        )
        result = search(
            data,
            hierarchies,
            target,
            measure=measure,
            gs_factor=gs_factor,
            weights=weights,
            progress=lambda f, text: bar.progress(min(f, 1.0), text=text),
            on_best=lambda best: tradeoffs.keep_best_so_far((best, hierarchies)),
        )
        tradeoffs.set_tradeoff_result((result, hierarchies))
        if target.population_table is not None:  # Apply keeps the table the step names
            st.session_state["to_population_file"] = (
                population_upload.getvalue(),
                population_upload.name,
            )
    except (AnonymisationError, ValueError) as error:
        st.error(escape_markdown(error))
    tradeoffs.end_search()  # not reached when a rerun stops the search
    bar.empty()
    stop.empty()

solutions.show_result(data, basis)
