"""Shared timing helper for the benchmarks in this folder."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``function`` (seconds) and its last result."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result
