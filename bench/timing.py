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


def best_wall_and_cpu(function: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """The fastest of ``repeat`` runs of ``function``: wall-clock seconds, and CPU seconds of
    this process (on a shared machine the CPU time is the steadier figure)."""
    wall, cpu = float("inf"), float("inf")
    for _ in range(max(1, repeat)):
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu
