"""Earth Mover's Distance of a class's sensitive values from the whole table (t-closeness,
Li et al. 2007, summarised in the health-data seed article; PDPC guide, Step 4).

Ordered distance for numbers, equal distance for categories (computed in
:class:`core.measures.distributions.ClassDistribution`), or hierarchical distance when the
sensitive attribute has a generalisation hierarchy (:func:`hierarchical_emd`). Kept apart
because the distance arithmetic is its own subject: blocks of dense classes, a hierarchy's
tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy

T_DISTANCES = ("auto", "equal", "ordered", "hierarchical")


def ordered_emd(
    pair_class: np.ndarray,
    pair_value: np.ndarray,
    share: np.ndarray,
    overall: np.ndarray,
    n_classes: int,
    n_values: int,
) -> np.ndarray:
    """EMD with ordered distance, dense per block of classes to bound memory."""
    if n_values == 1:
        return np.zeros(n_classes)
    result = np.empty(n_classes)
    block = max(1, 20_000_000 // n_values)
    overall_cum = np.cumsum(overall)
    for start in range(0, n_classes, block):
        stop = min(start + block, n_classes)
        in_block = (pair_class >= start) & (pair_class < stop)
        dense = np.zeros((stop - start, n_values))
        dense[pair_class[in_block] - start, pair_value[in_block]] = share[in_block]
        gap = np.cumsum(dense, axis=1) - overall_cum
        result[start:stop] = np.abs(gap[:, :-1]).sum(axis=1) / (n_values - 1)
    return result


@dataclass(frozen=True)
class HierarchyTree:
    """A sensitive attribute's generalisation hierarchy as the tree of the hierarchical EMD:
    ``parents[i]`` gives, for each node of level i (level 0: the value codes), its node at
    level i + 1; ``height`` is the hierarchy's height (levels 0..height)."""

    parents: tuple[np.ndarray, ...]
    height: int


def hierarchy_tree(
    series: pd.Series, hierarchy: Hierarchy
) -> tuple[np.ndarray, int, HierarchyTree]:
    """Codes of the values of ``series``, their number, and the tree of ``hierarchy`` over
    them. Values are matched as text (as :meth:`Hierarchy.generalise` does); only values
    present in the column are leaves, as in ARX's DataManager.getTree. The levels must nest
    (each node has one parent), as in the lattice search."""
    text = as_text(series)
    missing = text.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ParameterError(
            f"Column '{series.name}' has a missing value (row {row + 1}): hierarchical "
            "t-closeness needs every value in the hierarchy; fill the missing values first."
        )
    codes, uniques = pd.factorize(text)
    rows = pd.Index(hierarchy.levels[0].to_numpy()).get_indexer(np.asarray(uniques, dtype=object))
    if (rows < 0).any():
        value = uniques[int(np.flatnonzero(rows < 0)[0])]
        raise ParameterError(
            f"The value {value!r} of column '{series.name}' is not in its hierarchy"
            f"{f' {hierarchy.name!r}' if hierarchy.name else ''}; add it to the hierarchy file."
        )
    table = hierarchy.levels.to_numpy(dtype=object)[rows]
    nodes = np.arange(len(uniques))
    parents = []
    for level in range(1, hierarchy.height + 1):
        upper = pd.factorize(table[:, level])[0]
        parent = np.zeros(int(nodes.max()) + 1, dtype=np.int64)
        parent[nodes] = upper
        if (parent[nodes] != upper).any():
            value = uniques[int(np.flatnonzero(parent[nodes] != upper)[0])]
            raise ParameterError(
                f"The hierarchy of column '{series.name}' does not nest: values that share "
                f"level {level - 1} (e.g. {value!r}) are split at level {level}. Each level "
                "must merge groups of the one before."
            )
        parents.append(parent)
        nodes = upper
    return (
        codes.astype(np.int64, copy=False),
        max(len(uniques), 1),
        HierarchyTree(tuple(parents), hierarchy.height),
    )


def hierarchical_emd(
    pair_class: np.ndarray,
    pair_value: np.ndarray,
    share: np.ndarray,
    overall: np.ndarray,
    n_classes: int,
    tree: HierarchyTree,
) -> np.ndarray:
    """EMD with hierarchical distance (Li et al. 2007; ARX's HierarchicalDistanceTCloseness):
    two values are level(lowest common ancestor) / height apart. With extra = p - q at the
    leaves (p: share in the table, q: in the class) and, at an inner node, pos / neg = the
    positive / negative extras of its children summed (a child's extra: pos - neg), the
    distance is the sum over inner nodes of level / height * min(pos, neg). Dense per block
    of classes, like :func:`ordered_emd`. Shares are floating point; ARX 3.9 scales them to
    32-bit integers (count in table x class size - count in class x table size, summed per
    node), which can overflow once class size x table size passes 2^31 (e.g. a class of
    50,000 in a table of 50,000), so ARX's figures can only be compared on tables where it
    does not (adult: 30,162 records)."""
    result = np.zeros(n_classes)
    if tree.height == 0:
        return result
    n_values = overall.size
    groups = []
    for parent in tree.parents:
        order = np.argsort(parent, kind="stable")
        ordered_parent = parent[order]
        groups.append((order, np.r_[0, np.flatnonzero(np.diff(ordered_parent)) + 1]))
    block = max(1, 20_000_000 // n_values)
    for start in range(0, n_classes, block):
        stop = min(start + block, n_classes)
        in_block = (pair_class >= start) & (pair_class < stop)
        dense = np.zeros((stop - start, n_values))
        dense[pair_class[in_block] - start, pair_value[in_block]] = share[in_block]
        extra = overall - dense
        cost = np.zeros(stop - start)
        for level, (order, starts) in enumerate(groups, start=1):
            children = extra[:, order]
            pos = np.add.reduceat(np.maximum(children, 0.0), starts, axis=1)
            neg = np.add.reduceat(np.maximum(-children, 0.0), starts, axis=1)
            cost += level / tree.height * np.minimum(pos, neg).sum(axis=1)
            extra = pos - neg
        result[start:stop] = cost
    return result
