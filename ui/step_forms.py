"""Parameter widgets of the Techniques page (PDPC guide, Step 3 and Annex A).

:func:`technique_form` draws the column choice, a form with the technique's parameters
and the Preview / Add buttons, and returns a builder for the recipe step (the dict
vocabulary of :mod:`core.techniques.registry`). Text fields are parsed only when a
button is pressed; bad text raises :class:`core.errors.ParameterError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from core.errors import ParameterError
from core.markup import escape_markdown
from core.techniques.aggregation import STATS
from core.techniques.masking import MASK_PRESETS
from core.techniques.microaggregation import MICROAGGREGATION_METHODS
from core.techniques.perturbation import CORRELATED_NOISE_METHODS
from core.techniques.registry import STEPS
from ui.state import classify, replay, session

#: Annex A techniques offered on the Techniques page (pseudonymisation is on De-identify).
TECHNIQUES = (
    "remove",
    "suppress_records",
    "mask",
    "generalise",
    "swap",
    "round",
    "noise",
    "aggregate",
    "local_suppression",
    "microaggregate",
    "pram",
    "correlated_noise",
)
#: What the Techniques page calls each technique: its title in the registry (the Annex A
#: name in plain words; the recipe keeps the short internal name, the summary explains it).
TECHNIQUE_TITLES = {name: STEPS[name].title for name in TECHNIQUES}
HIERARCHY_DIR = session.ROOT / "sample_data" / "hierarchies"
GENERALISE_MODES = {
    "width": "Bands of equal width (e.g. 20-29)",
    "edges": "Custom edges and labels (e.g. 21 to 30)",
    "top_bottom": "Top / bottom coding",
    "mapping": "Category mapping (old = new)",
    "hierarchy": "Hierarchy file (ARX CSV)",
    "date": "Dates to week / month / quarter / year",
}
CONDITIONS = {
    "equals": "equals",
    "in": "is one of (comma-separated)",
    "less_than": "is less than",
    "greater_than": "is greater than",
}


@dataclass(frozen=True)
class FormResult:
    build: Callable[[], dict[str, Any]]  # the step; raises ParameterError on bad text
    column: str | None  # the column to show before/after
    action: str | None  # "preview", "add" or None


# --- parsing the text fields ------------------------------------------------------------


def _number(text: str, field: str) -> float | int:
    try:
        value = float(text.strip())
    except ValueError:
        raise ParameterError(f"'{field}': {text.strip()!r} is not a number.") from None
    return int(value) if value.is_integer() else value


def parse_numbers(text: str, field: str) -> list[float | int]:
    """'21, 31, 41' -> [21, 31, 41]; 'inf' and '-inf' allowed."""
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise ParameterError(f"'{field}' is empty: give numbers separated by commas.")
    return [_number(p, field) for p in parts]


def parse_list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_matrix(text: str) -> dict[str, dict[str, float]]:
    """'north: north=0.9, south=0.1' per line -> a PRAM transition matrix (rows by text)."""
    matrix: dict[str, dict[str, float]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        source, colon, targets = line.partition(":")
        if not colon or not source.strip():
            raise ParameterError(
                f"'matrix' line {number}: write 'value: other=probability, ...', e.g. "
                "'north: north=0.9, south=0.1'."
            )
        row: dict[str, float] = {}
        for part in parse_list(targets):
            target, equals, probability = part.partition("=")
            if not equals or not target.strip():
                raise ParameterError(
                    f"'matrix' line {number}: {part!r} is not 'value=probability'."
                )
            row[target.strip()] = _number(probability, f"matrix line {number}")
        matrix[source.strip()] = row
    if not matrix:
        raise ParameterError(
            "'matrix' is empty: give one line per value, or leave PRAM's invariant matrix on."
        )
    return matrix


def typed(text: str, series: pd.Series, field: str) -> Any:
    """A typed-in value as the column holds it: a number for a numeric column."""
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return _number(text, field)
    return text.strip()


#: Groups offered as pick-lists in the category mapping; more go in its 'old = new' lines.
PICKED_GROUPS = 3
#: Values offered in a pick-list (the most frequent first); rarer ones are typed.
PICK_LIST_VALUES = 500


def _picked_groups(series: pd.Series) -> Callable[[], dict[Any, str]]:
    """Pick-lists for grouping categories (issue 29: typing ten 'old = new' lines to group
    occupations): per group, the values to put together and the value they become."""
    values = [v.item() if hasattr(v, "item") else v for v in series.dropna().value_counts().index]
    values = values[:PICK_LIST_VALUES]
    groups = []
    for number in range(1, PICKED_GROUPS + 1):
        left, right = st.columns([3, 1])
        picked = left.multiselect(f"Group {number}: values to group", values, key=f"group_{number}")
        name = right.text_input(f"Group {number} becomes", key=f"group_name_{number}")
        groups.append((number, picked, name))

    def mapping() -> dict[Any, str]:
        out: dict[Any, str] = {}
        for number, picked, name in groups:
            if picked and not name.strip():
                raise ParameterError(
                    f"Group {number}: write the value its {len(picked)} picked values become."
                )
            if name.strip() and not picked:
                raise ParameterError(f"Group {number}: pick the values that become {name!r}.")
            for value in picked:
                if value in out:
                    raise ParameterError(
                        f"The value {value!r} is picked in two groups: keep it in one."
                    )
                out[value] = name.strip()
        return out

    return mapping


def merge_mappings(picked: dict[Any, str], typed_lines: dict[Any, str]) -> dict[Any, str]:
    """The picked groups and the typed lines as one mapping; a value in both is refused."""
    both = [value for value in typed_lines if value in picked]
    if both:
        raise ParameterError(
            f"The value {both[0]!r} is both picked in a group and typed in a line: keep one."
        )
    mapping = {**picked, **typed_lines}
    if not mapping:
        raise ParameterError(
            "The mapping is empty: pick values for a group, or write one 'old = new' line "
            "per value."
        )
    return mapping


def parse_mapping(text: str, series: pd.Series) -> dict[Any, str]:
    """Lines 'old = new' -> {old: new} (old typed like the column)."""
    mapping = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if "=" not in line:
            raise ParameterError(f"Mapping line {number} ({line.strip()!r}) needs 'old = new'.")
        old, new = line.split("=", 1)
        mapping[typed(old, series, f"mapping line {number}")] = new.strip()
    if not mapping:
        raise ParameterError("The mapping is empty: write one 'old = new' line per value.")
    return mapping


def _optional(step: dict[str, Any], name: str, text: str) -> None:
    if text.strip():
        step[name] = _number(text, name)


def hierarchy_files() -> list[str]:
    """ARX hierarchies shipped in sample_data/hierarchies/, as paths relative to the repo."""
    if not HIERARCHY_DIR.is_dir():
        return []
    return [str(p.relative_to(session.ROOT)) for p in sorted(HIERARCHY_DIR.glob("*.csv"))]


# --- the form --------------------------------------------------------------------------


def _select_columns(technique: str, columns: list[str]) -> dict[str, Any]:
    """Widgets outside the form (they change which parameters the form shows)."""
    if technique in ("remove", "swap", "microaggregate", "correlated_noise"):
        return {"columns": st.multiselect("Columns", columns, key="columns")}
    if technique == "local_suppression":
        return {}
    if technique == "aggregate":
        by = st.multiselect("Group by", columns, key="agg_by")
        rest = [c for c in columns if c not in by]
        return {"by": by, "values": st.multiselect("Values to summarise", rest, key="agg_values")}
    if technique == "suppress_records":
        below = st.radio(
            "Remove",
            ["records in groups smaller than k", "records matching a condition"],
            key="suppress_mode",
            horizontal=True,
        )
        if below.startswith("records in"):
            return {"mode": "below_k"}
        return {"mode": "where", "column": st.selectbox("Column", columns, key="column")}
    choice: dict[str, Any] = {"column": st.selectbox("Column", columns, key="column")}
    if technique == "generalise":
        modes = [m for m in GENERALISE_MODES if m != "hierarchy" or hierarchy_files()]
        choice["mode"] = st.radio(
            "Kind of generalisation", modes, key="gen_mode", format_func=GENERALISE_MODES.get
        )
    if technique == "mask":
        choice["mode"] = st.radio(
            "Masking rule",
            ["preset", "keep"],
            key="mask_mode",
            horizontal=True,
            format_func={"preset": "Annex B preset", "keep": "Keep first / last characters"}.get,
        )
    return choice


def _parameters(technique: str, choice: dict[str, Any], data: pd.DataFrame) -> Callable:
    """Widgets inside the form; returns the function that builds the step from them."""
    column = choice.get("column")
    series = data[column] if column in data.columns else pd.Series(dtype=object)
    step: dict[str, Any] = {"step": technique}
    if technique == "remove":
        return lambda: {**step, "columns": choice["columns"]}
    if technique == "swap":
        together = st.checkbox("Swap the chosen columns together, as a block", key="together")
        return lambda: {
            **step,
            "columns": choice["columns"],
            **({"together": True} if together else {}),
        }
    if technique == "aggregate":
        stats = st.multiselect("Statistics", STATS, default=["count", "sum"], key="stats")
        min_cell = st.number_input("Warn about groups smaller than", 1, value=5, key="min_cell")
        return lambda: {
            **step,
            "by": choice["by"],
            "values": choice["values"],
            "stats": list(stats),
            "min_cell": int(min_cell),
        }
    if technique == "suppress_records":
        if choice["mode"] == "below_k":
            qi = classify.quasi_identifiers(data)
            k = st.number_input("k", 1, value=classify.k_target(), key="below_k")
            shown = ", ".join(map(escape_markdown, qi)) or "none confirmed (see Classify)"
            st.caption(f"Quasi-identifiers: {shown}")

            def below_k() -> dict[str, Any]:
                if not qi:
                    raise ParameterError("No quasi-identifiers confirmed: mark them on Classify.")
                return {**step, "below_k": int(k), "quasi_identifiers": qi}

            return below_k
        condition = st.selectbox(
            "Condition", list(CONDITIONS), key="condition", format_func=CONDITIONS.get
        )
        text = st.text_input("Value", key="condition_value")

        def where() -> dict[str, Any]:
            if condition == "in":
                value: Any = [typed(v, series, "value") for v in parse_list(text)]
            elif condition == "equals":
                value = typed(text, series, "value")
            else:
                value = _number(text, "value")
            return {**step, "where": {"column": column, condition: value}}

        return where
    if technique in ("local_suppression", "microaggregate", "pram", "correlated_noise"):
        return _survey_method(technique, step, choice, data)
    step["column"] = column
    if technique == "mask":
        if choice["mode"] == "preset":
            preset = st.selectbox(
                "Preset",
                list(MASK_PRESETS),
                key="preset",
                format_func=lambda p: (
                    f"{p}: {MASK_PRESETS[p]['example'][0]} -> {MASK_PRESETS[p]['example'][1]}"
                ),
            )
            st.caption(MASK_PRESETS[preset]["description"])
            return lambda: {**step, "preset": preset}
        first = st.number_input("Keep first characters", 0, value=0, key="keep_first")
        last = st.number_input("Keep last characters", 0, value=0, key="keep_last")
        char = st.text_input("Masking symbol", "x", max_chars=1, key="char")
        return lambda: {**step, "keep_first": int(first), "keep_last": int(last), "char": char}
    if technique == "round":
        base = st.number_input("Base (round to a multiple of)", 0.0, value=10.0, key="base")
        mode = st.selectbox("Rounding", ["nearest", "down", "up"], key="round_mode")
        return lambda: {**step, "base": _number(str(base), "base"), "mode": mode}
    if technique == "noise":
        distribution = st.selectbox("Noise", ["uniform", "normal", "laplace"], key="distribution")
        scale = st.number_input("Scale", 0.0, value=1.0, key="scale")
        st.caption(
            f"Seed {replay.next_step_seed({**step, 'scale': 1})}, derived from the "
            "recipe's seed so the result can be replayed."
        )
        return lambda: {**step, "distribution": distribution, "scale": float(scale)}
    return _generalise(choice["mode"], step, series)


def _survey_method(
    technique: str, step: dict[str, Any], choice: dict[str, Any], data: pd.DataFrame
) -> Callable:
    """sdcMicro's methods for survey microdata (issue 14)."""
    if technique == "local_suppression":
        qi = classify.quasi_identifiers(data)
        k = st.number_input("k", 1, value=classify.k_target(), key="ls_k")
        importance = st.multiselect(
            "Most important quasi-identifiers first (blanked last; default: fewer values = "
            "more important)",
            qi,
            key="ls_importance",
        )
        shown = ", ".join(map(escape_markdown, qi)) or "none confirmed (see Classify)"
        st.caption(f"Quasi-identifiers: {shown}")

        def suppress() -> dict[str, Any]:
            if not qi:
                raise ParameterError("No quasi-identifiers confirmed: mark them on Classify.")
            out = {**step, "quasi_identifiers": qi, "k": int(k)}
            return {**out, "importance": list(importance)} if importance else out

        return suppress
    if technique == "microaggregate":
        k = st.number_input("Group size k", 1, value=3, key="micro_k")
        method = st.selectbox("Method", MICROAGGREGATION_METHODS, key="micro_method")
        return lambda: {**step, "columns": choice["columns"], "k": int(k), "method": method}
    if technique == "correlated_noise":
        method = st.selectbox("Method", CORRELATED_NOISE_METHODS, key="cnoise_method")
        delta = st.number_input("delta (correlated2)", 0.001, 1.0, value=0.1, key="cnoise_delta")
        noise = st.number_input("noise % (correlated)", 0.1, value=150.0, key="cnoise_noise")
        return lambda: {
            **step,
            "columns": choice["columns"],
            "method": method,
            **({"delta": float(delta)} if method == "correlated2" else {"noise": float(noise)}),
        }
    pd_min = st.number_input(
        "Smallest chance of keeping a value (pd)", 0.01, 1.0, value=0.8, key="pram_pd"
    )
    alpha = st.number_input("alpha", 0.0, 1.0, value=0.5, key="pram_alpha")
    text = st.text_area(
        "Transition matrix (optional), one line per value: 'value: other=probability, ...'",
        key="pram_matrix",
        placeholder="north: north=0.9, south=0.1\nsouth: south=1",
    )

    def pram_step() -> dict[str, Any]:
        out = {**step, "columns": [choice["column"]]}
        if text.strip():
            return {**out, "matrix": parse_matrix(text)}
        return {**out, "pd_min": float(pd_min), "alpha": float(alpha)}

    return pram_step


def _generalise(mode: str, step: dict[str, Any], series: pd.Series) -> Callable:
    if mode == "width":
        width = st.number_input("Band width", 0.0, value=10.0, key="width")
        start = st.text_input("First band starts at (optional)", key="start")
        bottom = st.text_input("Bottom code below (optional)", key="bottom")
        top = st.text_input("Top code from (optional)", key="top")

        def bands() -> dict[str, Any]:
            out = {**step, "width": _number(str(width), "width")}
            for name, text in (("start", start), ("bottom", bottom), ("top", top)):
                _optional(out, name, text)
            return out

        return bands
    if mode == "edges":
        edges = st.text_input("Edges (comma-separated)", "21, 31, 41", key="edges")
        labels = st.text_input("Labels, one per band (optional, comma-separated)", key="labels")
        right = st.checkbox("Bands include their right edge", key="right")

        def by_edges() -> dict[str, Any]:
            out = {**step, "edges": parse_numbers(edges, "edges")}
            if parse_list(labels):
                out["labels"] = parse_list(labels)
            return {**out, "right": True} if right else out

        return by_edges
    if mode == "top_bottom":
        bottom = st.text_input("Bottom code below", key="bottom")
        top = st.text_input("Top code from", key="top")

        def coded() -> dict[str, Any]:
            out = dict(step)
            _optional(out, "bottom", bottom)
            _optional(out, "top", top)
            if len(out) == len(step):
                raise ParameterError("Give a bottom value, a top value, or both.")
            return out

        return coded
    if mode == "mapping":
        picked_groups = _picked_groups(series)
        text = st.text_area(
            "More values, one 'old = new' per line (optional)",
            key="mapping",
            placeholder="Programmer = IT\nDatabase Administrator = IT",
        )
        other = st.text_input("Replace unmapped values by (optional)", key="other")
        return lambda: {
            **step,
            "mapping": merge_mappings(
                picked_groups(), parse_mapping(text, series) if text.strip() else {}
            ),
            **({"other": other.strip()} if other.strip() else {}),
        }
    if mode == "hierarchy":
        path = st.selectbox("Hierarchy", hierarchy_files(), key="hierarchy")
        level = st.number_input("Level", 1, value=1, key="level")
        return lambda: {**step, "hierarchy": path, "level": int(level)}
    unit = st.selectbox("Unit", ["week", "month", "quarter", "year"], key="date_unit")
    dayfirst = st.checkbox("Dates are written day first (31/12/2003)", key="dayfirst")
    return lambda: {**step, "date_unit": unit, **({"dayfirst": True} if dayfirst else {})}


def technique_form(technique: str, data: pd.DataFrame) -> FormResult:
    """Column choice, parameter form and the Preview / Add to recipe buttons."""
    choice = _select_columns(technique, list(map(str, data.columns)))
    with st.form(f"form_{technique}"):
        build = _parameters(technique, choice, data)
        left, right = st.columns(2)
        preview = left.form_submit_button("Preview", key="preview", icon=":material/visibility:")
        add = right.form_submit_button(
            "Add to recipe", key="add_step", type="primary", icon=":material/add:"
        )
    column = choice.get("column") or next(
        iter(choice.get("columns") or choice.get("by") or []), None
    )
    return FormResult(build, column, "add" if add else "preview" if preview else None)
