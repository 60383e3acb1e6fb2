"""The words a ``generalise`` step says about its hierarchy, checked against the hierarchy.

A step found by the search says its hierarchy in words (issue 30;
core.techniques.step_calls.HIERARCHY_WORDS): ``hierarchy_height`` (its levels above the
values), ``level_example`` (a value of the step's level) and ``hierarchy_source`` (the name
of the file a person gave). The replay reads only ``hierarchy`` and ``level``, while the
words are what a reviewer reads on every page, in History and in the report ("level 1 of
4 of the uploaded hierarchy 'ages.csv' (e.g. 20-39)"). A recipe is text someone may have
edited or sent: words that are not true of the hierarchy the step reads would mislead the
reviewer the PDPC guide's Step 5 relies on (a level that keeps every value as it is, said
to make bands). So each word is checked when the step runs, and a false one is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import RecipeError
from core.hierarchy import Hierarchy
from core.hierarchy_files import shown_name


def check_hierarchy_words(step: Mapping[str, Any], hierarchy: Hierarchy) -> None:
    """Refuse (one :class:`RecipeError` line) a ``generalise`` step whose words are not true
    of ``hierarchy``: a height other than its own, an example that is no value of the
    step's level, a source that is not a file's own printable name (no folder: the tool
    writes the name a person's file had, never a path of this machine)."""
    if "hierarchy_height" in step and step["hierarchy_height"] != hierarchy.height:
        raise RecipeError(
            f"'hierarchy_height' says {step['hierarchy_height']!r} but the hierarchy has "
            f"{hierarchy.height} levels above its values: remove 'hierarchy_height' or correct it."
        )
    if "level_example" in step:
        level = step.get("level")
        example = str(step["level_example"])
        known = (
            isinstance(level, int)
            and 0 <= level < len(hierarchy.levels.columns)
            and (hierarchy.levels[level].astype(str) == example).any()
        )
        if not known:
            raise RecipeError(
                f"'level_example' is no value of level {level} of the hierarchy: the step's "
                "words would not say what it does. Remove 'level_example' or correct it."
            )
    if "hierarchy_source" in step:
        source = step["hierarchy_source"]
        if not isinstance(source, str) or not source or shown_name(source) != source:
            raise RecipeError(
                "'hierarchy_source' must be the name of the hierarchy's file alone (no "
                "folder, printable, at most 120 characters): remove it or write the file's name."
            )
