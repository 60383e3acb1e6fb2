"""Every recipe step in the registry is whole (issue 28): a technique is its module, one
registry line (:class:`core.techniques.registry.StepSpec`) and its form.

For every step of ``STEPS`` this checks the same things, so a new technique cannot miss
one: each technique function it may call is reached by an example below and leaves its
input table unchanged (PDPC guide: the user's data is never modified in place); the step
has a title; its plain words render for its default parameters (only the required ones);
and ``row_wise`` agrees with the streaming engine: a row-wise function is accepted there and,
when it draws no random numbers, gives the same rows batch by batch as on the whole table,
while a function that needs the whole table is refused with a message naming the step.
"""

from __future__ import annotations

import pandas as pd
import pytest

from core.engines.streaming import CLASS_STEPS, ROW_WISE, streamable_steps
from core.errors import AnonymisationError
from core.recipe import Recipe, run_step
from core.techniques.registry import STEPS, TECHNIQUES, describe_step_plain, resolve

KEY_ENV = "ANON_CONTRACT_TEST_KEY"

TABLE = pd.DataFrame(
    {
        "name": ["Tan Ah Kow", "Siti Rahman", "John Lim", "Mary Ng", "Ravi Kumar", "Lee Wei"],
        "age": [23, 37, 45, 52, 61, 34],
        "sex": ["F", "M", "F", "M", "F", "M"],
        "zip": ["02139", "02140", "10001", "10002", "94105", "94107"],
        "income": [1200.0, 3400.5, 5600.0, 7800.25, 9100.0, 4300.0],
        "dob": ["1990-01-05", "1985-03-12", "1979-07-30", "1972-11-02", "1963-05-19", "1991-09-09"],
        "visit": [
            "2020-01-05",
            "2020-02-01",
            "2020-03-15",
            "2020-04-20",
            "2020-05-05",
            "2020-06-30",
        ],
        "notes": [
            "Called Mr Tan at 9123 4567",
            "Email siti@example.com",
            "No contact",
            "Spoke to Mary about the bill",
            "NRIC S1234567D given",
            "",
        ],
        "lat": [1.3521, 1.3000, 1.2800, 1.3400, 1.3600, 1.3100],
        "lon": [103.8198, 103.8000, 103.8500, 103.7000, 103.9000, 103.8300],
        "area": ["A", "A", "B", "B", "C", "C"],
        "poverty": [12.5, 12.5, 30.0, 30.0, 55.0, 55.0],
    }
)
SEX_HIERARCHY = "F;*\nM;*\n"

# One example per technique function, with the parameters it needs (the rest at their
# defaults).
EXAMPLES = [
    {"step": "remove", "columns": ["name"]},
    {"step": "suppress_records", "where": {"column": "age", "greater_than": 60}},
    {"step": "suppress_records", "below_k": 2, "quasi_identifiers": ["sex"]},
    {
        "step": "suppress_records",
        "below_k": 2,
        "quasi_identifiers": ["sex"],
        "l_diversity": {"sensitive": "area", "l": 2},
    },
    {"step": "recode_locally", "hierarchies": {"sex": "sex.csv"}, "rounds": [[0], [1]]},
    {"step": "mask", "column": "name"},
    {"step": "pseudonymise", "column": "name"},
    {"step": "pseudonymise", "column": "name", "method": "hmac", "key_env": KEY_ENV},
    {"step": "pseudonymise", "column": "name", "method": "double"},
    {"step": "redact_text", "columns": ["notes"]},
    {"step": "generalise", "column": "age", "width": 10},
    {"step": "generalise", "column": "age", "edges": [0, 30, 60, 120]},
    {"step": "generalise", "column": "sex", "mapping": {"F": "X", "M": "X"}},
    {"step": "generalise", "column": "sex", "hierarchy": "sex.csv", "level": 1},
    {
        "step": "generalise",
        "column": "dob",
        "hierarchy_rule": {"kind": "dates", "levels": ["month", "year"]},
        "level": 1,
    },
    {"step": "generalise", "column": "dob", "date_unit": "year"},
    {"step": "generalise", "column": "age", "top": 60},
    {"step": "swap", "columns": ["sex"]},
    {"step": "round", "column": "income", "base": 100},
    {"step": "noise", "column": "income", "scale": 10},
    {"step": "correlated_noise", "columns": ["income", "age"]},
    {"step": "aggregate", "by": ["sex"], "values": ["income"]},
    {"step": "dp_aggregate", "by": ["sex"], "categories": {"sex": ["F", "M"]}, "epsilon": 1.0},
    {"step": "local_suppression", "quasi_identifiers": ["sex", "area"], "k": 2},
    {"step": "microaggregate", "columns": ["income"]},
    {"step": "pram", "columns": ["sex"]},
    {"step": "geo_round", "lat": "lat", "lon": "lon"},
    {"step": "geo_snap", "lat": "lat", "lon": "lon", "cell_m": 500},
    {"step": "geo_displace", "lat": "lat", "lon": "lon", "max_m": 100},
    {"step": "date_shift", "columns": ["dob", "visit"]},
    {"step": "date_perturb_intervals", "columns": ["dob", "visit"]},
    {"step": "age_from_dob", "column": "dob", "new_column": "age_now"},
    {"step": "age_perturb", "column": "age"},
    {"step": "safe_harbor"},
    {"step": "contextual_absolute", "columns": ["poverty"], "width": 10},
    {"step": "contextual_percentile", "columns": ["poverty"], "groups": 3},
    {"step": "contextual_suppress", "columns": ["poverty"], "area_column": "area", "areas": ["A"]},
]
IDS = [f"{i}-{example['step']}" for i, example in enumerate(EXAMPLES)]


def _run(table: pd.DataFrame, step: dict, base_dir) -> pd.DataFrame:
    keys = {KEY_ENV: b"a key of at least sixteen bytes for the contract test"}
    return run_step(table, step, seed=7, secret_seed=11, base_dir=base_dir, keys=keys)[0]


@pytest.fixture
def base_dir(tmp_path):
    (tmp_path / "sex.csv").write_text(SEX_HIERARCHY, encoding="utf-8")
    return tmp_path


def test_every_technique_function_of_every_step_has_an_example():
    reached = {resolve(example).function for example in EXAMPLES}
    assert reached == set(TECHNIQUES)
    assert {example["step"] for example in EXAMPLES} == set(STEPS)


@pytest.mark.parametrize("step", EXAMPLES, ids=IDS)
def test_the_step_calls_one_of_its_own_techniques_and_never_changes_its_input(step, base_dir):
    call = resolve(step)
    spec = STEPS[step["step"]]
    assert call.function in {technique.name for technique in spec.techniques}
    table = TABLE.copy(deep=True)
    result = _run(table, step, base_dir)
    assert isinstance(result, pd.DataFrame)
    pd.testing.assert_frame_equal(table, TABLE)  # the input is exactly as it was


@pytest.mark.parametrize("name", sorted(STEPS))
def test_every_step_has_a_title_and_words_for_its_default_parameters(name):
    spec = STEPS[name]
    assert spec.title.strip() and spec.title == spec.title.strip()
    example = next(e for e in EXAMPLES if e["step"] == name)
    required_only = {"step": name, **{p: example[p] for p in spec.required}}
    words = describe_step_plain(required_only)
    assert words.strip()
    assert words != f"{name} step"  # the fallback for a malformed step: not rendered


def test_titles_are_distinct():
    titles = [spec.title for spec in STEPS.values()]
    assert len(set(titles)) == len(titles)


def test_a_template_of_words_is_filled_with_the_step_parameters():
    spec = STEPS["mask"]
    template = type(spec)(
        spec.name,
        spec.summary,
        spec.guide,
        spec.required,
        spec.optional,
        spec.build,
        techniques=spec.techniques,
        words="{column} masked",
        title=spec.title,
    )
    assert template.describe({"step": "mask", "column": "nric"}) == "nric masked"
    with pytest.raises(KeyError):
        template.describe({"step": "mask"})


def test_the_streaming_engine_runs_exactly_the_row_wise_functions():
    assert {name for name, t in TECHNIQUES.items() if t.row_wise} == ROW_WISE


@pytest.mark.parametrize("step", EXAMPLES, ids=IDS)
def test_row_wise_agrees_with_the_streaming_engine(step, base_dir):
    call = resolve(step)
    technique = TECHNIQUES[call.function]
    recipe = Recipe(steps=(step,), seed=7)
    if not technique.row_wise and call.function not in CLASS_STEPS:
        with pytest.raises(AnonymisationError, match=rf"Step 1 \({step['step']}, "):
            streamable_steps(recipe, 7, "duckdb")
        return
    streamable_steps(recipe, 7, "duckdb")  # accepted
    if not technique.row_wise or call.random:
        return  # class steps count classes over all batches; random steps seed each block
    whole = _run(TABLE, step, base_dir).reset_index(drop=True)
    batches = [TABLE.iloc[0:2], TABLE.iloc[2:3], TABLE.iloc[3:6]]
    pieces = [_run(batch, step, base_dir) for batch in batches]
    batched = pd.concat(pieces, ignore_index=True)
    pd.testing.assert_frame_equal(batched, whole)
