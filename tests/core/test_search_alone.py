"""A quasi-identifier that singles people out on its own (issue 30): the search says so
("addr alone singles out everyone ... until it is generalised to '*'") instead of leaving
a person to wonder why every option removes it."""

from __future__ import annotations

import pandas as pd

from core.hierarchy import build_hierarchy, grouping_hierarchy
from core.search.run import search
from core.search.target import Target
from ui.tradeoffs import summary


def _table() -> pd.DataFrame:
    # 1,000 people, each at an address of their own; 500 of each sex; ages 20-69 evenly
    # (20 people of each age).
    return pd.DataFrame(
        {
            "addr": [f"{i} Main Road" for i in range(1000)],
            "sex": ["M", "F"] * 500,
            "age": [20 + i % 50 for i in range(1000)],
        }
    )


def test_a_column_unique_on_its_own_is_named_with_its_figures():
    table = _table()
    hierarchies = {c: build_hierarchy(table[c]) for c in table}  # addr, sex: value -> *
    result = search(table, hierarchies, Target(k=5, max_suppressed=0.01))
    assert result.optimum.levels["addr"] == 1  # "*": no other way
    (finding,) = result.alone
    assert (finding.column, finding.level, finding.unique, finding.small) == ("addr", 0, 1000, 1000)
    words = (
        "'addr' alone singles out everyone (1,000 of 1,000 records unique) until it is "
        "generalised to '*'; consider removing it as a direct identifier."
    )
    assert words in result.explanation()
    assert summary(result, hierarchies).endswith(words)


def test_a_column_that_fails_k_even_at_its_coarsest_level_says_so():
    table = _table()
    # Addresses grouped in pairs (street numbers 0-1, 2-3, ...): 500 groups of 2 < k = 5.
    pairs = {f"{i} Main Road": f"{i // 2 * 2}-{i // 2 * 2 + 1} Main Road" for i in range(1000)}
    hierarchies = {
        "addr": grouping_hierarchy(table["addr"], pairs, name="addr"),
        "age": build_hierarchy(table["age"]),
    }
    result = search(table, hierarchies, Target(k=5, max_suppressed=0.01))
    (finding,) = result.alone
    assert (finding.level, finding.small, finding.unique) == (1, 1000, 0)
    assert (
        "'addr' alone leaves 1,000 of 1,000 records in groups smaller than k = 5 (0 unique) "
        "even at its coarsest level short of '*' until it is generalised to '*'"
    ) in result.explanation()


def test_no_finding_when_a_level_short_of_star_meets_k_within_the_limit():
    table = _table()
    # Ages alone: 20 people an age, so already level 0 meets k = 5; sex: 500 each.
    hierarchies = {c: build_hierarchy(table[c]) for c in ("sex", "age")}
    result = search(table, hierarchies, Target(k=5, max_suppressed=0.01))
    assert result.alone == () and "alone" not in result.explanation()
    # 10 of 1,000 may be removed (1%): 10 people of a rare age still pass, 11 do not.
    rare = table.assign(age=[99] * 10 + list(table["age"][10:]))
    ages = {"age": build_hierarchy(rare["age"], "suppress")}  # age -> *: level 0 is the one
    assert search(rare, ages, Target(k=11, max_suppressed=0.01)).alone == ()
    # k = 20: the ages 20-29 now have 19 people each, so 10 x 19 + 10 = 200 fall short.
    (finding,) = search(rare, ages, Target(k=20, max_suppressed=0.01)).alone
    assert (finding.small, finding.unique) == (200, 0)
