"""t-closeness (Li et al. 2007, summarised in the health-data seed article; PDPC guide,
Step 4): the sensitive attribute's distribution in every class is within Earth Mover's
Distance t of its distribution in the whole table, so a class tells little more about a
person's value than the table does (the skewness and similarity attacks). Equal, ordered or
hierarchical ground distance (:mod:`core.measures.emd`). ARX ``EqualDistanceTCloseness``,
``OrderedDistanceTCloseness``, ``HierarchicalDistanceTCloseness``."""

from __future__ import annotations

from typing import Any

import numpy as np

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.emd import T_DISTANCES
from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_choice, require_probability


class TClosenessModel(PrivacyModel):
    name = "t_closeness"
    label = "t-closeness"
    title = "t-closeness"
    parameters = (
        Parameter(
            "t",
            "t",
            "the largest Earth Mover's Distance of a class from the table (0-1)",
            example=0.2,
            flag="--t",
            cli={"type": float, "help": "t-closeness of the sensitive column"},
        ),
        Parameter(
            "distance",
            "t_distance",
            "ground distance: auto, equal, ordered or hierarchical",
            flag="--t-distance",
            cli={
                "choices": T_DISTANCES,
                "default": "auto",
                "help": "ground distance of t: auto (ordered for numbers), equal, ordered, or "
                "hierarchical (with --t-hierarchy)",
            },
        ),
        Parameter(
            "hierarchy",
            "t_hierarchy",
            "the sensitive column's hierarchy (hierarchical distance)",
            flag="--t-hierarchy",
            cli={
                "metavar": "FILE",
                "help": "the sensitive column's hierarchy file (ARX format): t-closeness "
                "with hierarchical distance",
            },
        ),
    )
    words = (
        "the sensitive attribute's distribution in the class is within Earth Mover's Distance "
        "t of the whole table's (Li et al. 2007; PDPC guide, Step 4 footnote 11)"
    )
    figure_words = "the largest distance of a class's sensitive values from the table's (0-1)"

    def check(self, settings: Settings) -> None:
        require_choice("t_distance", settings["t_distance"], T_DISTANCES)
        t, hierarchy = settings["t"], settings["t_hierarchy"]
        if t is not None:
            require_probability("t", t)
        if hierarchy is not None and not isinstance(hierarchy, Hierarchy):
            raise ParameterError("Parameter 't_hierarchy' must be a hierarchy (read_hierarchy).")
        if t is not None and settings["t_distance"] == "hierarchical" and hierarchy is None:
            raise ParameterError(
                "t-closeness with hierarchical distance needs the sensitive attribute's "
                "hierarchy ('t_hierarchy')."
            )

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        # The EMD is convex in the class's distribution (the hierarchical EMD too: the EMD of
        # a tree metric), so a merge of classes within t stays within t (ARX TCloseness).
        return True

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        return table.needs_dist().emd(settings["t_distance"]) > settings["t"] + 1e-12

    def figure(self, table: ClassTable) -> float | None:
        dist = table.needs_dist()
        return table.largest(dist.emd("hierarchical" if dist.tree is not None else "auto"))

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        """The largest EMD with the target's distance (equal distance when it names the
        hierarchical one but no hierarchy was given: t not asked)."""
        dist = table.needs_dist()
        distance = settings["t_distance"]
        if distance == "hierarchical" and dist.tree is None:
            distance = "equal"
        return {"t": table.largest(dist.emd(distance))}

    def describe(self, settings: Settings) -> str:
        how = " (hierarchical distance)" if settings["t_distance"] == "hierarchical" else ""
        return f"t-closeness t = {settings['t']:g}{how} on '{settings['sensitive']}'"

    def step_spec(self, settings: Settings, **paths: Any) -> dict[str, Any]:
        spec = {"sensitive": settings["sensitive"], "t": settings["t"]}
        spec["distance"] = settings["t_distance"]
        if settings["t_distance"] == "hierarchical":
            if paths.get("t_hierarchy_path") is None:
                raise ParameterError(
                    f"No hierarchy file given for the sensitive column '{settings['sensitive']}' "
                    "(t-closeness with hierarchical distance)."
                )
            spec["hierarchy"] = str(paths["t_hierarchy_path"])
        return spec


MODEL = TClosenessModel()
