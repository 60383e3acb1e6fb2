"""Settings of the ``python -m core`` process for tables of tens of millions of rows.

Called first thing by ``core/__main__.py``, before NumPy is imported (the benchmark of
``bench/bench_scale.py`` calls it too, so it measures what the command line does). This
module imports nothing heavy. A library user keeps their own process settings.
"""

from __future__ import annotations

import os


def tune_for_large_tables() -> None:
    """Allocate large arrays without stalls: no huge-page requests, freed memory reused.

    - NumPy asks the kernel for transparent huge pages on every large array (madvise);
      where the kernel compacts memory to find them and gets none (seen on this project's
      virtual machines: no huge page was ever handed out), a fresh 240 MB array took 0.8 s
      instead of 0.2 s. A value the user has set is kept (``NUMPY_MADVISE_HUGEPAGE=1``
      turns them back on). Only takes effect before NumPy is imported.
    - glibc maps fresh memory for each large array and unmaps it when it is freed, and
      the pages of a fresh mapping are faulted in one by one (0.2 s per 240 MB here); the
      50M-row risk report makes and frees dozens of such arrays. Serving them from the
      heap and keeping what is freed for the next one took that report from 8.4-9.2 s to
      6.4 s, for about 90 MB more at the peak. Threads share that heap (one arena): the
      10M-row risk report's page faults went from 510,000 to 266,000. Elsewhere than
      glibc nothing changes.
    """
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    _keep_freed_memory_for_reuse()


def _keep_freed_memory_for_reuse() -> None:
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    trim_threshold, top_pad, mmap_threshold = -1, -2, -3  # <malloc.h>: M_TRIM_THRESHOLD ...
    arena_max = -8  # M_ARENA_MAX
    largest = ctypes.c_int(2**31 - 1)
    mallopt(mmap_threshold, largest)  # arrays up to 2 GiB from the heap
    mallopt(trim_threshold, largest)  # freed heap memory kept for reuse
    mallopt(top_pad, ctypes.c_int(2**30))  # the heap grows in large steps
    # Threads (the columns coded two at a time, the impact's two halves) allocate from the
    # same heap: a thread's own arena is made of heaps of 64 MB at most, so it maps every
    # larger array apart and unmaps it when freed (at 10M rows, every column's codes).
    mallopt(arena_max, ctypes.c_int(1))


def skip_last_collection() -> None:
    """Spare the interpreter's garbage collection at exit the walk over every object.

    When the process ends, Python collects garbage again over every object alive: the
    61,000 or so that importing pandas, pyarrow, NumPy and a command's modules made (one
    full collection of them takes 0.03 s here). On this project's machine that is 0.05-0.08
    s of CPU of every command (``python -c "import pandas"`` pays it too). Frozen objects are left out of every collection (``gc.freeze``);
    the process ends right after, so nothing they hold outlives it, and the exit's other
    work (flushing the outputs, ``atexit``) is unchanged. Called once the command is done.
    """
    import gc

    gc.freeze()
