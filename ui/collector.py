"""Python's cyclic garbage collector during a cold server's first page run (issue 31).

The first run of app.py in a new server process imports pandas and the library (about
1,300 modules with Streamlit's own) and reads the startup table. Every few tens of
thousands of new objects the collector walked them all: one full pass of 0.09-0.16 s and
younger passes of 0.05-0.1 s more, before the Data page's first table (timed by a
``gc.callbacks`` hook in the server, 1M-row CSV, 2026-11-28). Modules, classes and
functions are never garbage, and reference counting frees everything else that is not
in a reference cycle, so for that one run the collector is off: :func:`pause_for_first_run`
at the top of app.py, :func:`resume` when the run ends, however it ends (app.py calls it
in a ``finally``: a page's ``st.stop()`` or ``st.rerun()`` too). What Streamlit built at
start-up (the server, its configuration, its modules) lives as long as the process: it is
frozen first (``gc.freeze``), so later full passes no longer walk it. The cycles the first
run leaves are collected once the collector is back on. Once per process; a collector
switched off by someone else stays off.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
#: "first run done" once the first run has started; "paused" while the collector is off.
_state = {"first run done": False, "paused": False}


def pause_for_first_run() -> None:
    """Freeze what exists and switch the collector off, on the process's first run only."""
    with _lock:
        if _state["first run done"]:
            return
        _state["first run done"] = True
        if not gc.isenabled():
            return
        gc.freeze()
        gc.disable()
        _state["paused"] = True


def resume() -> None:
    """Switch the collector back on if :func:`pause_for_first_run` switched it off."""
    with _lock:
        if _state["paused"]:
            gc.enable()
            _state["paused"] = False
