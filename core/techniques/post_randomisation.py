"""PRAM, the post-randomisation method (sdcMicro ``pram``; PDPC guide, Annex A: Data
perturbation, for categories).

Each value of a categorical column is replaced by a value drawn from its row of a
*transition matrix*: ``matrix[a][b]`` is the probability that a recorded ``a`` is released
as ``b`` (each row sums to 1). An attacker can no longer trust any single value, while
the distribution of the column can still be estimated (Gouweleeuw et al. 1998).

Without a matrix, sdcMicro's *invariant* matrix is built from the column's own
frequencies p (its ``pd`` and ``alpha``): a matrix P keeps each category with probability
drawn uniformly between ``pd`` and 1 and spreads the rest evenly over the others; Q is its
Bayes inverse (Q[k, j] = P[j, k] p_j / sum_i p_i P[i, k]), and the matrix used is
alpha * P Q + (1 - alpha) * I. It satisfies p R = p: the expected frequency of every
category is unchanged, so tables of the released column are unbiased. Missing values
stay missing. The draws are seeded (``seed``) and reproducible; keep the seed secret, like
the matrix, as it helps undo the perturbation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.validation import make_rng, require_columns, require_probability

#: Tolerance on a row sum of a transition matrix (sdcMicro uses machine epsilon, which a
#: matrix typed as decimals such as 0.1 + 0.2 + 0.7 can miss).
ROW_SUM_TOLERANCE = 1e-9


def invariant_matrix(
    frequencies: np.ndarray, *, pd_min: float, alpha: float, rng: np.random.Generator
) -> np.ndarray:
    """sdcMicro's invariant transition matrix for category frequencies ``frequencies``."""
    levels = frequencies.size
    p = frequencies / frequencies.sum()
    if levels == 1:
        return np.ones((1, 1))
    keep = rng.uniform(pd_min, 1.0, size=levels)
    base = np.repeat(((1.0 - keep) / (levels - 1))[:, None], levels, axis=1)
    np.fill_diagonal(base, keep)
    reach = p @ base  # sum_i p_i P[i, k]
    inverse = (base * p[:, None]).T / reach[:, None]  # Q[k, j] = P[j, k] p_j / reach_k
    return alpha * (base @ inverse) + (1.0 - alpha) * np.eye(levels)


def _given_matrix(
    column: str, matrix: Mapping[object, Mapping[object, float]], observed: Sequence[object]
) -> tuple[list[object], np.ndarray]:
    if not isinstance(matrix, Mapping) or not all(isinstance(r, Mapping) for r in matrix.values()):
        raise ParameterError(
            "Parameter 'matrix' must map each category to its row, e.g. "
            "{north: {north: 0.9, south: 0.1}, south: {north: 0.2, south: 0.8}}."
        )
    levels = list(matrix)
    text = {str(level): level for level in levels}
    for value in observed:  # the column's distinct values, as text
        if str(value) not in text:
            raise ParameterError(
                f"Parameter 'matrix' has no row for the value {str(value)!r} of column "
                f"'{column}': give a row for every category."
            )
    rows = np.zeros((len(levels), len(levels)))
    for i, level in enumerate(levels):
        for target, probability in matrix[level].items():
            if target not in matrix and str(target) not in text:
                raise ParameterError(
                    f"Parameter 'matrix': row {str(level)!r} moves to {str(target)!r}, which "
                    "has no row of its own; the matrix must be square."
                )
            j = levels.index(target if target in matrix else text[str(target)])
            if isinstance(probability, bool) or not isinstance(probability, int | float):
                raise ParameterError(
                    f"Parameter 'matrix': row {str(level)!r} gives {probability!r} for "
                    f"{str(target)!r}; probabilities are numbers between 0 and 1."
                )
            rows[i, j] = require_probability("matrix", float(probability))
        total = rows[i].sum()
        if abs(total - 1.0) > ROW_SUM_TOLERANCE:
            raise ParameterError(
                f"Parameter 'matrix': row {str(level)!r} sums to {total:g}, not 1; each row "
                "gives the chances of what a value becomes and must add up to 1."
            )
    return levels, rows


def _draw(codes: np.ndarray, matrix: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """New category code per record (codes < 0 stay), one uniform draw per record."""
    uniform = rng.random(codes.size)
    cumulative = np.cumsum(matrix, axis=1)
    cumulative[:, -1] = 1.0  # guard against rounding: the last category closes each row
    new = codes.copy()
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(matrix.shape[0] + 1))
    for level in range(matrix.shape[0]):  # one vectorised draw per category, not per row
        rows = order[bounds[level] : bounds[level + 1]]
        new[rows] = np.searchsorted(cumulative[level], uniform[rows], side="right")
    return np.minimum(new, matrix.shape[0] - 1)


def pram(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    matrix: Mapping[object, Mapping[object, float]] | None = None,
    pd_min: float = 0.8,
    alpha: float = 0.5,
    seed: int | None = None,
) -> pd.DataFrame:
    """Post-randomise categorical ``columns`` with a given or invariant transition matrix.

    ``matrix`` (one column only) maps each category to ``{category: probability}``;
    without it, sdcMicro's invariant matrix with ``pd_min`` (its ``pd``: the smallest
    chance of keeping a category, default 0.8) and ``alpha`` (default 0.5) is built per
    column from the column's frequencies.
    """
    columns = require_columns(df, columns, parameter="columns")
    if matrix is not None and len(columns) != 1:
        raise ParameterError(
            "Parameter 'matrix' applies to one column; give one PRAM step per column."
        )
    pd_min = require_probability("pd_min", pd_min)
    if pd_min == 0:
        raise ParameterError("Parameter 'pd_min' must be above 0 (a chance of keeping a value).")
    alpha = require_probability("alpha", alpha)
    rng = make_rng(seed)
    out = df.copy()
    for column in columns:
        series = df[column]
        present = series.notna().to_numpy()
        if matrix is not None:
            observed = as_text(series[present]).unique()
            levels, transition = _given_matrix(column, matrix, observed)
            by_value = series.map({level: i for i, level in enumerate(levels)})
            by_text = as_text(series).map(
                dict(zip(map(str, levels), range(len(levels)), strict=True))
            )
            codes = by_value.fillna(by_text).fillna(-1).to_numpy(dtype=np.int64, copy=True)
            codes[~present] = -1
        else:
            codes, uniques = pd.factorize(series)
            levels = list(uniques)
            counts = np.bincount(codes[codes >= 0], minlength=len(levels)).astype(float)
            transition = (
                invariant_matrix(counts, pd_min=pd_min, alpha=alpha, rng=rng)
                if len(levels)
                else np.zeros((0, 0))
            )
        if not len(levels):
            continue
        new = _draw(np.asarray(codes), transition, rng)
        values = np.array(levels, dtype=object)[np.maximum(new, 0)]
        released = pd.Series(np.where(present, values, None), index=df.index, dtype=object)
        released[~present] = series[~present]
        if isinstance(series.dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(
            series.dtype
        ):
            released = released.astype(series.dtype)
        elif pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
            # a matrix read from YAML may name numeric categories as text ("1")
            released = pd.to_numeric(released)
        out[column] = released
    return out
