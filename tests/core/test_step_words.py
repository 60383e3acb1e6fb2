"""Recipe steps in plain words (issue 17, "Words"): one describer for every screen."""

from __future__ import annotations

import re

import pytest

from core.recipe import describe_step
from core.techniques.registry import STEPS

# One example step per kind, with the words a reader should see (written by hand).
EXAMPLES = [
    ({"step": "remove", "columns": ["name", "email"]}, "removed: name, email"),
    # a hierarchy is named as the person knows it, never by the key the workspace keeps it
    # under (issue 30: "age → hierarchy level 3 (age-463f35372e.csv)")
    (
        {
            "step": "generalise",
            "column": "age",
            "hierarchy": "hierarchies/age-463f35372e.csv",
            "level": 3,
            "hierarchy_height": 4,
            "level_example": "20-39",
            "hierarchy_source": "adult_hierarchy_age.csv",
        },
        "age → level 3 of 4 of the uploaded hierarchy 'adult_hierarchy_age.csv' (e.g. 20-39)",
    ),
    (
        {
            "step": "generalise",
            "column": "zip",
            "hierarchy": "hierarchies/zip-0123456789.csv",
            "level": 2,
            "hierarchy_height": 5,
            "level_example": "537**",
        },
        "zip → level 2 of 5 of the hierarchy built from the data (e.g. 537**)",
    ),
    (  # a step recorded before the words were: the workspace's key is not shown
        {"step": "generalise", "column": "age", "hierarchy": "hierarchies/age-463f35372e.csv"}
        | {"level": 3},
        "age → level 3 of the hierarchy kept with the recipe",
    ),
    (  # a recipe written by hand names its own file
        {"step": "generalise", "column": "age", "hierarchy": "my/age_bands.csv", "level": 1},
        "age → level 1 of the hierarchy 'age_bands.csv'",
    ),
    (
        {"step": "generalise", "column": "age", "width": 10, "top": 90},
        "age → bands 10 wide, top-coded at 90",
    ),
    ({"step": "generalise", "column": "dob", "date_unit": "year"}, "dob → year (e.g. 2003)"),
    (
        {"step": "generalise", "column": "income", "edges": [0, 1000, 50000]},
        "income → 2 ranges cut at 0, 1,000, 50,000",
    ),
    (
        {"step": "suppress_records", "below_k": 5, "quasi_identifiers": ["age", "sex"]},
        "records removed in groups of fewer than 5 on age, sex",
    ),
    (
        {
            "step": "suppress_records",
            "below_k": 2,
            "quasi_identifiers": ["age"],
            "l_diversity": {"sensitive": "disease", "l": 2},
        },
        "records removed in groups of fewer than 2 on age or failing l-diversity 2 on disease",
    ),
    (
        {
            "step": "suppress_records",
            "below_k": 2,
            "quasi_identifiers": ["age"],
            "t_closeness": {
                "sensitive": "job",
                "t": 0.2,
                "distance": "hierarchical",
                "hierarchy": "job.csv",
            },
        },
        "records removed in groups of fewer than 2 on age or failing t-closeness 0.2 "
        "(hierarchical distance) on job",
    ),
    (
        {"step": "suppress_records", "where": {"column": "age", "greater_than": 89}},
        "records removed where age > 89",
    ),
    (
        {"step": "pseudonymise", "column": "nric", "method": "hmac", "key_env": "ANON_KEY"},
        "nric → keyed pseudonyms (HMAC; key from the environment variable ANON_KEY)",
    ),
    ({"step": "round", "column": "income", "base": 1000}, "income rounded to the nearest 1,000"),
    ({"step": "safe_harbor"}, "HIPAA Safe Harbor preset applied, free text removed"),
    (
        {"step": "safe_harbor", "free_text": "redact", "exclude": ["MRN"]},
        "HIPAA Safe Harbor preset applied, free text redacted (kept: MRN)",
    ),
    (
        {"step": "geo_displace", "lat": "lat", "lon": "lon", "min_m": 20, "max_m": 100},
        "lat/lon moved randomly by 20–100 m",
    ),
    ({"step": "remove", "columns": list("abcdef")}, "removed: a, b, c, d and 2 more"),
]


@pytest.mark.parametrize(("step", "words"), EXAMPLES)
def test_steps_read_as_plain_words(step, words):
    assert describe_step(step) == words


def test_every_registered_step_has_its_own_words():
    # No step falls back to the generic "<name> step" line, so none shows raw parameters.
    minimal = {
        "step": None,
        "columns": ["a"],
        "column": "a",
        "lat": "y",
        "lon": "x",
        "by": ["a"],
        "values": ["b"],
        "quasi_identifiers": ["a"],
        "k": 2,
        "base": 5,
        "scale": 1,
        "cell_m": 100,
        "width": 5,
        "groups": 10,
        "area_column": "z",
        "areas": [1],
        "categories": {},
        "epsilon": 1.0,
        "below_k": 2,
    }
    for name in STEPS:
        words = describe_step({**minimal, "step": name})
        assert words != f"{name} step" and not re.search(r"\w=", words), name


def test_a_malformed_step_still_gets_a_line():
    assert describe_step({"step": "generalise"}) == "? generalised"
    assert describe_step({"step": "nonsense"}) == "nonsense step"
