"""``apply`` on an engine: the recipe streamed over ``sources`` read by DuckDB (batch by
batch in this process, :mod:`core.engines.streaming`) or by Spark (block by block on its
executors, :mod:`core.engines.spark_apply`).

Separate from both because it chooses between them: the Spark part is built on the
streaming machinery, so the choice sits above the two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from core.engines.sources import Sources
from core.engines.spark_apply import spark_stream_recipe
from core.engines.streaming import (
    Step,
    StreamResult,
    duckdb_batches,
    pass_progress,
    stream_recipe,
    total_rows,
)
from core.progress import ProgressFn


def stream_on_engine(
    engine: str,
    sources: Sources,
    steps: Sequence[Step],
    write: Callable[[pd.DataFrame, bool], None],
    *,
    master: str | None = None,
    progress: ProgressFn | None = None,
    **options: Any,
) -> StreamResult:
    """:func:`core.engines.streaming.stream_recipe` over ``sources`` read by ``engine``
    (``duckdb``, or ``spark`` on ``master``); ``options`` as that function takes them. Used
    by ``apply`` and by ``verify``, which makes a streamed release again the way it was made."""
    if engine == "duckdb":
        passes = pass_progress(progress, steps, total_rows(sources)) if progress else None
        return stream_recipe(duckdb_batches(sources), steps, write, progress=passes, **options)
    return spark_stream_recipe(sources, steps, write, master=master, progress=progress, **options)
