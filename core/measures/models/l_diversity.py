"""l-diversity (Machanavajjhala et al. 2007, summarised in the health-data seed article;
PDPC guide, Step 4 footnote 11): the sensitive attribute is diverse enough in every class
that knowing someone's class does not tell their value (the homogeneity attack). ARX
``DistinctLDiversity``, ``EntropyLDiversity`` (Shannon or Grassberger's estimator) and
``RecursiveCLDiversity``."""

from __future__ import annotations

import math

import numpy as np

from core.errors import ParameterError
from core.measures.distributions import ENTROPY_ESTIMATORS
from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_choice, require_number

#: The kinds of l-diversity: at least l values, exp(entropy) >= l, or recursive (c,l).
L_KINDS = ("distinct", "entropy", "recursive")


class LDiversityModel(PrivacyModel):
    name = "l_diversity"
    label = "l-diversity"
    title = "l-diversity"
    parameters = (
        Parameter(
            "l",
            "l",
            "the diversity each class must have",
            example=2.0,
            flag="--l",
            cli={"type": float, "help": "l-diversity of the sensitive column"},
        ),
        Parameter(
            "kind",
            "l_kind",
            "distinct, entropy or recursive",
            flag="--l-kind",
            cli={"choices": L_KINDS, "default": "distinct", "help": "kind of l"},
        ),
        # No flag: ``cli`` only tells a form the value's type and choices.
        Parameter(
            "c",
            "c",
            "the c of recursive (c,l)-diversity",
            cli={"type": float},
            example=3.0,
            when=("l_kind", "recursive"),
        ),
        Parameter(
            "estimator",
            "entropy_estimator",
            "entropy l: shannon or grassberger",
            cli={"choices": ENTROPY_ESTIMATORS, "default": "shannon"},
            when=("l_kind", "entropy"),
        ),
    )
    words = (
        "the sensitive attribute takes at least l distinct values in the class (distinct), "
        "or its entropy is at least log(l) (entropy), or the most frequent value is less "
        "than c times the l-th and rarer values together (recursive); Machanavajjhala et al. "
        "2007, PDPC guide, Step 4 footnote 11"
    )
    figure_words = "the fewest distinct sensitive values in a class (distinct l)"

    def check(self, settings: Settings) -> None:
        require_choice("l_kind", settings["l_kind"], L_KINDS)
        require_choice("entropy_estimator", settings["entropy_estimator"], ENTROPY_ESTIMATORS)
        l = settings["l"]  # noqa: E741
        if l is None:
            return
        if require_number("l", l) < 1:
            raise ParameterError(f"Parameter 'l' must be at least 1, got {l}.")
        if settings["l_kind"] == "recursive":
            c = settings["c"]
            if c is None or require_number("c", c) <= 0:
                raise ParameterError("Recursive (c,l)-diversity needs 'c' greater than 0.")
            if l != int(l) or l < 2:
                raise ParameterError(
                    f"Recursive (c,l)-diversity needs a whole 'l' of at least 2, got {l}."
                )

    @staticmethod
    def grassberger(settings: Settings) -> bool:
        """Entropy l with Grassberger's estimator."""
        return (
            settings.get("l") is not None
            and settings["l_kind"] == "entropy"
            and settings["entropy_estimator"] == "grassberger"
        )

    def monotone_with_suppression(self, settings: Settings) -> bool:
        return settings["l_kind"] == "distinct"

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        # Shannon entropy is concave (a merge of l-diverse classes is l-diverse); Grassberger's
        # estimate has no such argument (ARX assumes it, we check instead).
        return not self.grassberger(settings)

    def monotone_part(self, settings: Settings) -> dict:
        """At least ceil(l) distinct values: every kind needs them (Shannon: exp(H) <= the
        number of values; recursive and Grassberger: required, as in ARX), and distinct l is
        monotone both ways."""
        return {
            "l_kind": "distinct",
            "entropy_estimator": "shannon",
            "l": float(math.ceil(settings["l"] - 1e-9)),
        }

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        dist = table.needs_dist()
        l, kind = settings["l"], settings["l_kind"]  # noqa: E741
        if kind == "distinct":
            return dist.distinct() < l
        if kind == "entropy":
            # At least l values as well (ARX): Grassberger's estimate of a small class
            # can exceed the log of its number of values.
            fail = dist.entropy_l(settings["entropy_estimator"]) < l - 1e-9
            return fail | (dist.distinct() < math.ceil(l - 1e-9))
        return ~(dist.recursive_ratio(int(l)) < settings["c"])

    def figure(self, table: ClassTable) -> float | None:
        return int(table.smallest(table.needs_dist().distinct()))

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        """Smallest distinct l and exp(entropy), and the recursive (c,l) ratio when the
        target asks for recursive l."""
        dist = table.needs_dist()
        figures = {
            "l_distinct": table.smallest(dist.distinct()),
            "l_entropy": table.smallest(dist.entropy_l()),
        }
        if settings["l_kind"] == "recursive" and settings["l"] is not None:
            figures["recursive_c"] = table.largest(dist.recursive_ratio(int(settings["l"])))
        return figures

    def describe(self, settings: Settings) -> str:
        l, kind, s = settings["l"], settings["l_kind"], f"on '{settings['sensitive']}'"  # noqa: E741
        if kind == "recursive":
            return f"recursive (c,l)-diversity c = {settings['c']:g}, l = {l:g} {s}"
        if self.grassberger(settings):
            return f"entropy l-diversity (Grassberger) l = {l:g} {s}"
        return f"{kind} l-diversity l = {l:g} {s}"

    def step_spec(self, settings: Settings, **paths: object) -> dict:
        spec = {"sensitive": settings["sensitive"], "l": settings["l"], "kind": settings["l_kind"]}
        if settings["l_kind"] == "recursive":
            spec["c"] = settings["c"]
        if settings["l_kind"] == "entropy" and settings["entropy_estimator"] != "shannon":
            spec["estimator"] = settings["entropy_estimator"]
        return spec


MODEL = LDiversityModel()
