"""Step 3 · Explore trade-offs: the least damaging generalisation that meets a risk target."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.formatting import fmt_change, fmt_count, fmt_number, fmt_probability
from core.local_recoding import LOCAL_MEASURES, recode_suppressed
from core.markup import escape_markdown
from core.population_risk import MODEL_NAMES
from core.risk import annex_d_risk
from core.search.apply import apply_candidate, recipe_steps
from core.search.measures import MEASURES
from core.search.run import search
from core.search.target import Target
from ui import model_inputs
from ui.page_errors import continue_on_error, stop_on_error
from ui.progress import working
from ui.state import classify, loading, presentation, replay, risk, session, tradeoffs, widgets
from ui.state import hierarchies as kept_hierarchies
from ui.state.session import HIERARCHY_CHOICES_KEY
from ui.tradeoffs import (
    MEASURE_NAMES,
    describe_level,
    frontier_frame,
    gaps_in_words,
    hierarchy_from_choice,
    hierarchy_gaps,
    measure_label,
    measure_words,
    option_in_words,
    sensitive_figures_words,
    solutions_table,
    summary,
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

KINDS = ["auto", "numeric", "dates", "masking", "grouping", "suppress", "upload"]


def hierarchy_inputs(column: str) -> dict:
    """The hierarchy chosen for ``column`` (kind and its settings), kept in the workspace."""
    left, right = st.columns([1, 2])
    before = tradeoffs.hierarchy_choices().get(column, {})  # across pages and restarts
    kind = left.selectbox(
        escape_markdown(column),
        KINDS,
        key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_kind_{column}"),
        index=KINDS.index(before.get("kind", "auto")),
    )
    spec: dict = {"kind": kind}
    if kind == "numeric":
        spec["widths"] = right.text_input(
            "Band widths",
            before.get("widths", "5, 10, 20, 40"),
            key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_w_{column}"),
        )
    elif kind == "grouping":
        spec["mapping"] = right.text_area(
            "value: group, one a line",
            before.get("mapping", ""),
            key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_map_{column}"),
        )
    elif kind == "upload":
        upload = right.file_uploader("ARX hierarchy (CSV, ';')", key=f"to_up_{column}")
        spec["name"] = before.get("name")
        if upload is not None:
            with continue_on_error(right):
                spec["name"] = kept_hierarchies.keep_uploaded_hierarchy(column, upload.getvalue())
        if spec["name"]:
            right.caption(
                f"Using the uploaded hierarchy {escape_markdown(repr(spec['name']))}, kept in the "
                "workspace."
            )
            with continue_on_error(right):
                hierarchy = kept_hierarchies.stored_hierarchy(spec["name"])
                if gaps := hierarchy_gaps(data[column], hierarchy):
                    right.warning(
                        escape_markdown(gaps_in_words(column, spec["name"], gaps)),
                        icon=":material/warning:",
                    )
    tradeoffs.set_hierarchy_choice(column, spec)
    return spec


with st.expander("Hierarchies", expanded=False):
    specs = {column: hierarchy_inputs(column) for column in qi}
    presentation.explain(
        "ARX format: one line per value, 'value;level 1;...;*'.",
        "PDPC guide, Annex A: Generalisation",
    )


def hierarchy_for(column: str, spec: dict):
    return hierarchy_from_choice(
        data[column].rename(column), spec, stored=kept_hierarchies.stored_hierarchy
    )


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
        specs[sensitive] = hierarchy_inputs(sensitive)
        with continue_on_error():
            given["t_hierarchy"] = hierarchy_for(sensitive, specs[sensitive])
models, models_ok = model_inputs.checked(groups, given)
use_annex_d = st.checkbox("Meet the Annex D threshold (settings of the Risk page)", key="to_annexd")

if st.button("Search", key="to_run", type="primary"):
    bar = st.progress(0.0, text="Preparing hierarchies...")
    try:
        if not models_ok:
            raise AnonymisationError(
                "A privacy model switched on above is not well set: see its message."
            )
        hierarchies = {c: hierarchy_for(c, specs[c]) for c in qi}
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
        )
        tradeoffs.set_tradeoff_result((result, hierarchies))
        if target.population_table is not None:  # Apply keeps the table the step names
            st.session_state["to_population_file"] = (
                population_upload.getvalue(),
                population_upload.name,
            )
    except (AnonymisationError, ValueError) as error:
        st.error(escape_markdown(error))
    bar.empty()

stored = tradeoffs.tradeoff_result()
if stored is None or set(stored[0].quasi_identifiers) - set(columns):
    st.stop()
result, hierarchies = stored
st.success(escape_markdown(summary(result, hierarchies)))
presentation.explain(
    f"{result.evaluated:,} of {result.lattice_size:,} combinations were evaluated in "
    f"{result.seconds:.2f} s ({result.method} search); {result.note or 'pruning is exact.'}",
    "PDPC guide, Step 3",
)
if result.optimum is None:
    st.stop()

name = MEASURE_NAMES[result.measure]
st.subheader("Minimal options")
st.dataframe(
    solutions_table(result, hierarchies),
    key="to_table",
    hide_index=True,
    column_config={
        RECORD_RISK.name: st.column_config.NumberColumn(format="%.3g", help=RECORD_RISK.help()),
        "levels": None,  # level codes ("Age:2"): the columns above say them in words
        ANNEX_D_P_REID.name: st.column_config.NumberColumn(
            format="%.3g", help=ANNEX_D_P_REID.help()
        ),
        name: st.column_config.NumberColumn(format="%.4g"),
    },
)
presentation.explain(
    "Each row is a minimal option: no column can keep more detail without breaking the "
    f"target. Click a header to sort; {measure_words(result.measure)}.",
    "PDPC guide, Step 3 and Annex C",
)
points = frontier_frame(result)
points["option"] = [option_in_words(c, hierarchies) for c in result.candidates]
# Every point inside the plot: the jitter may lift a point past a "nice" axis top (issue 29).
jittered = points["removed (jittered)"]
pad = max(0.08 * float(jittered.max() - jittered.min()), 0.5)
y_domain = [min(0.0, float(jittered.min()) - pad), float(jittered.max()) + pad]
chart = (
    alt.Chart(points)
    .mark_point(filled=True)
    .encode(
        x=alt.X("loss:Q", title=name, scale=alt.Scale(zero=False)),
        # whole records: the jitter must not show as ticks such as "0.000000"
        y=alt.Y(
            "removed (jittered):Q",
            title="Records removed",
            axis=alt.Axis(format=",d", tickMinStep=1),
            scale=alt.Scale(domain=y_domain, nice=False),
        ),
        color=alt.Color("k:O", title="Smallest group (k)"),
        shape=alt.Shape("optimum:N", title="Optimum"),
        size=alt.condition("datum.optimum", alt.value(200), alt.value(70)),
        tooltip=["option", "loss", "records removed", "k"],
    )
)
st.altair_chart(chart, width="stretch")
presentation.explain(
    "Lower-left keeps the most: less detail lost and fewer records removed. Options with "
    "the same figures are spread slightly so that each stays visible.",
    "PDPC guide, Step 3; Annex A: Record suppression",
)

labels = [c.label() for c in result.candidates]
words = {
    c.label(): "; ".join(
        f"{col} {describe_level(col, hierarchies[col], lvl)}" for col, lvl in c.levels.items()
    )
    + f"; {c.suppressed:,} removed"
    for c in result.candidates
}
pick = st.selectbox(
    "Option",
    labels,
    index=labels.index(result.optimum.label()),
    format_func=words.get,
    key="to_candidate",
)
candidate = result.candidates[labels.index(pick)]
m1, m2, m3 = st.columns(3)
m1.metric("k after suppression", candidate.k)
m2.metric("Records suppressed", fmt_count(candidate.suppressed))
m3.metric(measure_label(result.measure), fmt_number(candidate.measures[result.measure], 4))
if candidate.sensitive_figures:
    words_sensitive = sensitive_figures_words(result.target.sensitive, candidate.sensitive_figures)
    st.caption(escape_markdown(words_sensitive))
if candidate.table_figures:
    figures = candidate.table_figures
    words_pu = ""
    if "population_uniqueness" in figures:
        words_pu = (
            f"; estimated population uniqueness {fmt_probability(figures['population_uniqueness'])}"
        )
    st.caption(
        f"Average risk (groups / records) {fmt_probability(figures['average_risk'])}{words_pu}."
    )
presentation.explain(
    f"Groups smaller than k = {result.target.required_k} (or failing a model above) are "
    "removed; the rest form groups of at least k.",
    "PDPC guide, Annex A: Record suppression; Annex C",
)
loss = pd.DataFrame(
    {
        "column": list(candidate.column_loss),
        "loss": list(candidate.column_loss.values()),
        "level": [candidate.levels[c] for c in candidate.column_loss],
    }
)
st.altair_chart(
    alt.Chart(loss)
    .mark_bar()
    .encode(
        x=alt.X("loss:Q", scale=alt.Scale(domain=[0, 1]), title="Loss per column (0-1)"),
        y=alt.Y("column:N", sort=None),
        tooltip=["column", "level", "loss"],
    ),
    width="stretch",
)
presentation.explain(
    "Per quasi-identifier loss (Iyengar's loss metric, as in ARX): 0 = unchanged, 1 = fully "
    "generalised to '*' or removed; ARX loss combines these geometrically, average loss "
    "arithmetically.",
    "PDPC guide, Introduction A (judge utility per attribute)",
)
local = None
if candidate.suppressed and not result.target.sample_based:  # ARX: not with population uniqueness
    recode = st.checkbox(
        "Recode suppressed records locally",
        key="to_local",
        help="Search the removed records again on their own: those whose groups then meet "
        "the target at other levels are kept, generalised further, instead of removed.",
    )
    if recode:
        local_measure = result.measure if result.measure in LOCAL_MEASURES else "loss"
        local_key = (
            basis,
            len(data),
            result.target,
            result.quasi_identifiers,
            result.seconds,
            candidate.label(),
            local_measure,
        )
        local = tradeoffs.local_recoding_result(local_key)
        if local is None:
            with st.spinner("Searching the suppressed records again..."):
                try:
                    local = recode_suppressed(
                        data, hierarchies, result.target, candidate, measure=local_measure
                    )
                except (AnonymisationError, ValueError) as error:
                    st.error(escape_markdown(error))
                else:
                    tradeoffs.set_local_recoding_result(local_key, local)
    if local is not None:
        st.info(escape_markdown(local.explanation()))
        r1, r2 = st.columns(2)
        r1.metric("Records kept instead of suppressed", fmt_count(local.kept))
        r2.metric(
            measure_label(local.measure),
            fmt_number(local.loss_after, 4),
            delta=fmt_change(local.loss_after, local.loss_before, 4),
            delta_color="inverse",
            help=LOCAL_MEASURES[local.measure],
        )
        presentation.explain(
            "Local recoding: the records this option removes are searched again on their "
            "own, round after round (as ARX's local recoding does); those whose groups then "
            "meet every model keep their row at coarser levels. Every group of the released "
            "table is checked again, so the target still holds.",
            "PDPC guide, Annex A: Generalisation and Record suppression; Annex C",
        )
if local is not None and local.rounds:
    released = local.data
else:
    released = apply_candidate(data, hierarchies, candidate, models=result.target)
st.dataframe(released.head(20), key="to_preview")

if basis == "original" and session.recipe().steps:
    st.caption(
        f"Apply adds these steps after the recipe's {len(session.recipe().steps)} "
        "step(s), which already change the table: review them on Techniques."
    )
if st.button("Apply: add these steps to the recipe", key="to_apply"):
    target = result.target
    t_paths = {}
    if target.t is not None and target.t_distance == "hierarchical":  # the step names it
        t_paths[target.sensitive] = kept_hierarchies.save_hierarchy(
            target.sensitive, target.t_hierarchy
        )
    if local is not None and local.rounds:  # every column's hierarchy: rounds differ
        paths = {
            column: kept_hierarchies.save_hierarchy(column, hierarchies[column])
            for column in candidate.levels
        }
        steps = [local.recipe_step({**paths, **t_paths})]
    else:
        paths = {
            column: kept_hierarchies.save_hierarchy(column, hierarchies[column])
            for column, level in candidate.levels.items()
            if level > 0
        }
        population_path = None
        if target.population_table is not None:  # kept in the workspace, never a file
            data_bytes, file_name = st.session_state["to_population_file"]
            with stop_on_error():
                population_path = kept_hierarchies.save_population_table(data_bytes, file_name)
        steps = recipe_steps(
            candidate,
            {**paths, **t_paths},
            models=result.target,
            population_table_path=population_path,
        )
    new = session.recipe()
    for step in steps:
        new = new.add(step)
    with continue_on_error():
        words = option_in_words(candidate, hierarchies)
        with working(f"Applying the option ({words}) to {len(data):,} records..."):
            replay.replace_recipe(new, f"Explore trade-offs: {words}")  # all or none
        flash = f"Added {len(steps)} step(s) to the recipe; see Techniques to review them."
        # The steps keep groups of at least target.required_k (raised by an Annex D
        # threshold): the release's target k says the same, so the report never calls a
        # k = 6 release "target k = 5" (issue 29).
        if target.required_k > classify.k_target():
            classify.set_k_target(target.required_k)
            flash += (
                f" The release's target k is now {target.required_k}, the k this option was "
                "searched for."
            )
        st.session_state["to_flash"] = flash
        # Rerun so the sidebar (drawn before this page) shows the new recipe and k at once.
        st.rerun()
