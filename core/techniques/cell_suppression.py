"""Local suppression: blank single cells until every record shares its key with k - 1
others (PDPC guide, Annex A: Suppression; Annex C: k-anonymity; sdcMicro
``localSuppression``).

Record suppression (:func:`core.techniques.suppression.suppress_below_k`) deletes whole
records; local suppression instead sets a few quasi-identifier *cells* to missing, keeping
the rest of each record for analysis. Which cell goes is decided by an *importance* order
of the quasi-identifiers: the least important are blanked first. By default (as
sdcMicro) a quasi-identifier with fewer distinct values is more important, so detailed
columns (many values) are suppressed before coarse ones (sex, region).

How k is counted after suppression matters, and is reported both ways:

- **missing as wildcard** (sdcMicro's rule, ``core.survey_risk`` ``missing="sdcmicro"``):
  a blank cell could hide any value, so a record with a blank matches every record that
  agrees with it on its other quasi-identifiers. This is the k local suppression reaches:
  an attacker cannot tell which of the matching records it is.
- **missing as a value of its own** (``core.measures``, the rest of the workbench): a record
  with a blank is only alike to records blank in the same place, so the k figure is lower
  (often 1) even though the record is protected as above. The Risk page shows the first
  when local suppression is in the recipe.

The heuristic is sdcMicro's (R/localSuppression.R, src/calcSuppInds.cpp): classes larger
than k are first trimmed to k records (they can never need a suppression, and the search
is faster); then, riskiest first (smallest wildcard f_k), each record below k finds its
nearest records (fewest differing non-missing quasi-identifiers) and blanks the least
important quasi-identifier in which it differs from one of them; f_k is recounted and
the pass repeated until every record reaches k. Each suppression changes the next
record's neighbours, so records are visited one at a time, each with one vectorised
distance computation over the (trimmed) table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.measures.classes import equivalence_classes
from core.survey_risk import sample_frequencies
from core.validation import require_columns, require_int


@dataclass(frozen=True)
class LocalSuppression:
    """The table after local suppression and what it cost."""

    table: pd.DataFrame
    quasi_identifiers: tuple[str, ...]
    k: int
    suppression_order: tuple[str, ...]  # first = blanked first (least important)
    suppressed: dict[str, int]  # new blank cells per quasi-identifier
    k_wildcard: int  # smallest f_k with missing as wildcard (what the method reaches)
    k_missing_as_value: int  # smallest class with missing as a value of its own

    @property
    def total_suppressed(self) -> int:
        return int(sum(self.suppressed.values()))

    def explanations(self) -> dict[str, str]:
        cells = len(self.table) * len(self.quasi_identifiers)
        per_column = ", ".join(f"'{c}' {n:,}" for c, n in self.suppressed.items() if n)
        return {
            "suppressed": (
                f"{self.total_suppressed:,} of {cells:,} quasi-identifier cells were blanked "
                f"({per_column or 'none'}) so that every record shares its key with at least "
                f"{self.k - 1} others (Annex A: Suppression; Annex C)."
            ),
            "k_wildcard": (
                f"Counting a blank as 'could be anything' (sdcMicro), the smallest group is "
                f"{self.k_wildcard}; counting a blank as a value of its own it is "
                f"{self.k_missing_as_value}."
            ),
        }


def suppression_order(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], importance: Sequence[str] | None = None
) -> tuple[str, ...]:
    """The order in which quasi-identifiers are blanked (first = least important).

    ``importance`` lists quasi-identifiers from most to least important; those not listed
    are less important than those listed, ordered as by default. Default (sdcMicro): more
    distinct values = less important; on a tie, the one named later goes first.
    """
    qis = list(quasi_identifiers)
    distinct = {c: int(df[c].nunique(dropna=True)) for c in qis}
    # sdcMicro ranks by distinct values, ties by position; it suppresses the highest rank.
    default = sorted(qis, key=lambda c: (distinct[c], qis.index(c)), reverse=True)
    if importance is None:
        return tuple(default)
    listed = list(importance) if not isinstance(importance, str) else [importance]
    unknown = [c for c in listed if c not in qis]
    if unknown:
        raise ParameterError(
            f"Parameter 'importance' names {unknown!r}, which are not among the "
            f"quasi-identifiers {qis!r}; list quasi-identifiers only, most important first."
        )
    if len(set(listed)) != len(listed):
        raise ParameterError("Parameter 'importance' names a quasi-identifier twice.")
    rest = [c for c in default if c not in listed]
    return tuple(rest + listed[::-1])


def _code_matrix(df: pd.DataFrame, qis: Sequence[str]) -> np.ndarray:
    """Integer codes per column, -1 for missing (a blank matches anything)."""
    return np.column_stack([pd.factorize(df[c])[0] for c in qis]).astype(np.int32)


def _wildcard_fk(mat: np.ndarray) -> np.ndarray:
    frame = pd.DataFrame(np.where(mat < 0, np.nan, mat.astype(float)))
    return sample_frequencies(frame, list(frame.columns), missing="sdcmicro").fk


def _trim_large_classes(mat: np.ndarray, k: int) -> np.ndarray:
    """Rows kept for the search: all but the records beyond the first k of a class
    (sdcMicro fills a blank with the column's first value for this grouping only)."""
    filled = mat.copy()
    for j in range(mat.shape[1]):
        present = mat[:, j] >= 0
        if not present.all() and present.any():
            filled[~present, j] = mat[np.argmax(present), j]
    key = pd.DataFrame(filled).groupby(list(range(mat.shape[1])), sort=False).cumcount()
    return np.flatnonzero(key.to_numpy() < k)


def _suppress_until_k(mat: np.ndarray, k: int, order: np.ndarray) -> None:
    """sdcMicro's passes, in place on ``mat`` (codes, -1 = blank)."""
    n, m = mat.shape
    columns = [np.ascontiguousarray(mat[:, j]) for j in range(m)]  # column-major: fast scans
    present = [col >= 0 for col in columns]
    differs = np.empty((m, n), dtype=bool)
    distance = np.empty(n, dtype=np.int8)
    while True:
        fk = _wildcard_fk(mat)
        below = np.flatnonzero(fk < k)
        if below.size == 0:
            return
        for i in below[np.argsort(fk[below], kind="stable")]:
            # differs[j]: records with a value in column j other than record i's (both
            # present); a blank on either side is no difference (it could be anything)
            distance[:] = 0
            usable = [j for j in range(m) if present[j][i]]
            for j in usable:
                np.not_equal(columns[j], columns[j][i], out=differs[j])
                differs[j] &= present[j]
                distance += differs[j]
            positive = distance[distance > 0]
            if positive.size == 0:  # blanks made it match everyone: nothing to do
                continue
            nearest = np.flatnonzero(distance == min(int(positive.min()), m))
            for j in order:
                if present[j][i] and differs[j][nearest].any():
                    columns[j][i] = mat[i, j] = -1
                    present[j][i] = False
                    break


def plan_local_suppression(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int,
    importance: Sequence[str] | None = None,
) -> LocalSuppression:
    """Blank few quasi-identifier cells so that every record has wildcard f_k >= k."""
    qis = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    if len(set(qis)) != len(qis):
        raise ParameterError("Parameter 'quasi_identifiers' names a column twice; name it once.")
    k = require_int("k", k, minimum=1)
    if k > len(df):
        raise ParameterError(
            f"Parameter 'k' ({k}) is larger than the number of records ({len(df)}): no "
            "amount of suppression can reach it."
        )
    order_names = suppression_order(df, qis, importance)
    order = np.array([qis.index(c) for c in order_names])
    mat = _code_matrix(df, qis)
    kept = _trim_large_classes(mat, k)
    search = mat[kept]
    _suppress_until_k(search, k, order)
    blanked = np.zeros(mat.shape, dtype=bool)
    blanked[kept] = (search < 0) & (mat[kept] >= 0)
    out = df.copy()
    for j, column in enumerate(qis):
        if blanked[:, j].any():
            series = out[column]
            if pd.api.types.is_integer_dtype(series) and not isinstance(
                series.dtype, pd.CategoricalDtype
            ):
                series = series.astype("Int64")  # keep whole numbers whole, with blanks
            out[column] = series.mask(blanked[:, j])
    final = _code_matrix(out, qis)
    return LocalSuppression(
        table=out,
        quasi_identifiers=qis,
        k=k,
        suppression_order=order_names,
        suppressed={c: int(blanked[:, j].sum()) for j, c in enumerate(qis)},
        k_wildcard=int(_wildcard_fk(final).min()) if len(out) else 0,
        k_missing_as_value=equivalence_classes(out, qis).k,
    )


def local_suppression(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int,
    importance: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Recipe step ``local_suppression``: the table of :func:`plan_local_suppression`."""
    return plan_local_suppression(df, quasi_identifiers, k=k, importance=importance).table
