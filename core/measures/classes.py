"""Equivalence classes: records grouped by their quasi-identifier values (PDPC guide,
Annex C), computed once on integer codes (one ``pd.factorize`` per quasi-identifier, one
combined key, one ``np.bincount``), and the k of k-anonymity, the smallest class.

Every measure and privacy model reads these arrays, so they live apart from the sensitive
attribute's distributions and from the models themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.measures.codes import combined_codes
from core.validation import (
    require_columns,
)


class _ClassSizeFigures:
    """What the class sizes alone tell (``sizes[c]``: records in class ``c``; a class of
    size 0 is no class): shared by :class:`EquivalenceClasses` and :class:`ClassCounts`."""

    sizes: np.ndarray

    @property
    def n_classes(self) -> int:
        return int(np.count_nonzero(self.sizes))

    @property
    def k(self) -> int:
        """Size of the smallest class: the table is k-anonymous for this k (0 if empty)."""
        nonzero = self.sizes[self.sizes > 0]
        return int(nonzero.min()) if nonzero.size else 0

    def size_distribution(self) -> pd.DataFrame:
        """How many classes, and records, there are of each class size."""
        sizes = self.sizes[self.sizes > 0]
        counts = np.bincount(sizes)
        present = np.nonzero(counts)[0]
        return pd.DataFrame(
            {
                "class_size": present,
                "classes": counts[present],
                "records": counts[present] * present,
            }
        )


@dataclass(frozen=True)
class EquivalenceClasses(_ClassSizeFigures):
    """Records grouped by their values on the quasi-identifiers (PDPC guide, Annex C).

    ``class_of_record[i]`` is the class of row ``i`` (by position); ``sizes[c]`` is the
    number of records in class ``c``. On a frequency table (each row standing for
    ``counts[i]`` identical records) ``records`` is the number of records, not rows.
    """

    quasi_identifiers: tuple[str, ...]
    class_of_record: np.ndarray
    sizes: np.ndarray
    records: int | None = None

    @property
    def n_records(self) -> int:
        return int(self.class_of_record.size if self.records is None else self.records)

    @property
    def size_of_record(self) -> np.ndarray:
        """For each record, the size of its equivalence class."""
        return self.sizes[self.class_of_record]

    def below(self, k: int) -> np.ndarray:
        """Boolean mask of records in classes with fewer than ``k`` records."""
        return self.size_of_record < k


@dataclass(frozen=True)
class ClassCounts(_ClassSizeFigures):
    """The equivalence classes' sizes without each record's class: all the risk report
    needs, when :func:`classes_and_distribution` counts them with the sensitive values."""

    quasi_identifiers: tuple[str, ...]
    sizes: np.ndarray
    records: int
    #: Each class's quasi-identifier codes as one mixed-radix key (the first column's code
    #: most significant; ``cardinalities`` are the radices), when they fit one: what the
    #: impact of each quasi-identifier reads (:func:`core.measures.impact.impact_of_keys`).
    keys: np.ndarray | None = None
    cardinalities: tuple[int, ...] | None = None
    #: How many values each quasi-identifier takes, where that is its radix (codes given
    #: by pd.factorize); None where a radix may count values absent from the table (a
    #: Categorical's unused categories), which the impact then counts.
    distinct_values: tuple[int | None, ...] | None = None

    @property
    def n_records(self) -> int:
        return self.records


def equivalence_classes(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], *, counts: np.ndarray | None = None
) -> EquivalenceClasses:
    """Group records that share all their quasi-identifier values (PDPC guide, Annex C).

    Missing values count as a value of their own (two records both missing an age are
    alike on age). Pseudonyms and direct identifiers should not be passed here: every
    record would be unique (Step 4, footnote 12). ``counts`` makes ``df`` a frequency
    table: row ``i`` stands for ``counts[i]`` records (see :mod:`core.engines`).
    """
    quasi_identifiers = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    class_of_record, n_classes = combined_codes(df, quasi_identifiers)
    if counts is None:
        sizes = np.bincount(class_of_record, minlength=n_classes)
        return EquivalenceClasses(quasi_identifiers, class_of_record, sizes)
    sizes = np.bincount(class_of_record, weights=counts, minlength=n_classes).astype(np.int64)
    return EquivalenceClasses(quasi_identifiers, class_of_record, sizes, int(sizes.sum()))


def k_anonymity(df: pd.DataFrame, quasi_identifiers: Sequence[str]) -> int:
    """The k of the table: its smallest equivalence class size (PDPC guide, Step 4)."""
    return equivalence_classes(df, quasi_identifiers).k


def resolve_classes(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], classes: EquivalenceClasses | None
) -> EquivalenceClasses:
    if classes is None:
        return equivalence_classes(df, quasi_identifiers)
    if classes.class_of_record.size != len(df):
        raise ParameterError(
            "The equivalence classes given were computed on a table with a different number "
            "of rows; compute them again on this table."
        )
    return classes
