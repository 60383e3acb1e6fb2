"""Swapping, also called shuffling or permutation (PDPC guide, Annex A: Swapping).

"Rearrange data in the dataset such that the values of individual attributes are still
represented in the dataset but generally do not correspond to the original records."
Each swapped column keeps exactly the same values (the same multiset), so statistics of a
single attribute are unchanged while links between attributes are broken.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from core.validation import make_rng, require_columns


def swap(
    df: pd.DataFrame,
    columns: str | Iterable[str],
    *,
    seed: int | None = None,
    together: bool = False,
) -> pd.DataFrame:
    """Randomly reassign the values of ``columns`` to other records (PDPC guide, Annex A:
    Swapping; Annex B suggests it for age, gender, race, dates, addresses, postal codes...).

    With ``together=False`` each column gets its own random permutation (relationships
    between the swapped columns are broken too, as in the guide's example). With
    ``together=True`` the listed columns move as one block, so a row's values for them stay
    together (e.g. latitude and longitude). ``seed`` makes the result reproducible; record
    it only where the original data is equally protected, since with the seed and the
    output the permutation can be undone. Missing values move like any other value.
    """
    columns = require_columns(df, columns, parameter="columns")
    rng = make_rng(seed)
    n = len(df)
    out = df.copy()
    shared = rng.permutation(n) if together else None
    for column in columns:
        order = shared if together else rng.permutation(n)
        out[column] = df[column].array.take(order)
    return out
