"""The least damaging generalisation that meets a risk target: a lattice search.

PDPC guide, Step 3 (apply anonymisation techniques) and Annex C (k-anonymity): the
privacy officer's question is "what is the least damage to the data that meets my risk
target?". Each quasi-identifier has a generalisation hierarchy (:mod:`core.hierarchy`);
choosing one level per quasi-identifier gives a *node* of the generalisation lattice.
A node is a *solution* when, after removing the records of every equivalence class that
fails a privacy model (record suppression, Annex A; ARX's semantics: a class failing *any*
model is suppressed), at most the allowed share of records is removed. The models
(:class:`core.measures.models.class_models.ClassModels`):

- k-anonymity (Annex C); an Annex D threshold on P(re-ID) = P(attempt) / k is the same
  as k-anonymity with k = the smallest k meeting it (:func:`core.risk.smallest_k`);
- optionally, on a sensitive attribute (Step 4, attribute disclosure): distinct, entropy
  or recursive (c,l)-diversity, t-closeness (Earth Mover's Distance against the whole
  table, equal or ordered distance), delta-disclosure privacy, basic or enhanced
  beta-likeness, (alpha,k)-anonymity. t-closeness with hierarchical distance (ARX's
  HierarchicalDistanceTCloseness) takes the sensitive attribute's hierarchy
  (``t_distance="hierarchical"``, ``t_hierarchy``).

The package, by what each part does (ARX's ``framework/`` and ``metric/`` are the model):

- :mod:`~core.search.target`: :class:`Target`, what a solution must meet;
- :mod:`~core.search.preparation`: each column coded once against its hierarchy, records
  grouped into units;
- :mod:`~core.search.rollup`: a node's equivalence classes from a cached node below it;
- :mod:`~core.search.model_checks`: the privacy-model specific code (which models prune,
  the sensitive figures, the suppression recipe step);
- :mod:`~core.search.evaluation`: one node checked against the target;
- :mod:`~core.search.measures`: the utility measures (``MEASURES``; ``arx_*`` are ARX's);
- :mod:`~core.search.bounds`: their lower bounds, for pruning;
- :mod:`~core.search.lattice`: the nodes, and the object that brings the parts together;
- :mod:`~core.search.traversal` and :mod:`~core.search.ranking`: the exact and greedy
  searches, and the optimum by branch and bound;
- :mod:`~core.search.result`: :class:`Candidate` and :class:`SearchResult`;
- :mod:`~core.search.run`: :func:`search`;
- :mod:`~core.search.watch`: the progress text (nodes checked, best so far) and
  :class:`StopSearch`, which stops a search and keeps its best so far;
- :mod:`~core.search.apply`: a candidate applied to the data and written as recipe steps.

This ``__init__`` only re-exports the public names (``from core.search import search``);
modules of the project import from the module that defines a name.
"""

from core.search.apply import apply_candidate, recipe_steps
from core.search.measures import MEASURES, arx_geometric_loss
from core.search.model_checks import suppression_step
from core.search.result import Candidate, SearchResult
from core.search.run import METHODS, search
from core.search.target import Target
from core.search.watch import StopSearch

__all__ = [
    "MEASURES",
    "METHODS",
    "Candidate",
    "SearchResult",
    "StopSearch",
    "Target",
    "apply_candidate",
    "arx_geometric_loss",
    "recipe_steps",
    "search",
    "suppression_step",
]
