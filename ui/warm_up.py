"""Import the libraries a later page needs while the person reads the first one.

The chart module (:mod:`ui.charts`, which imports Altair and its JSON-schema validator)
took 0.6 s to import on the shared machine, and the first page that draws a chart (Risk,
after the roles are saved) waited for it: py-spy on the server showed that import as most of
the click on Risk until k (issue 31). Started once per server process, after the first page
has been drawn, on a daemon thread; Python's import lock makes a page that needs the module
meanwhile wait for the same import, never run it twice.

The import waits :data:`WARM_UP_DELAY_S` first: when the script's first run ends the browser
is still drawing its page (0.6-1.3 s from the first table's bytes to the table on screen in
headless Chromium, issue 31), and on a 2-core machine an import of 0.6 s of CPU at that
moment delays the first table. The later pages are reached by clicks, seconds later.
"""

from __future__ import annotations

import importlib
import threading
import time

#: Modules imported in the background once the first page is drawn.
LATER_MODULES = ("ui.charts",)
#: Seconds between the end of the first page's run and the imports.
WARM_UP_DELAY_S = 2.0

_started = threading.Event()


def warm_up_later_pages() -> None:
    """Import :data:`LATER_MODULES` on a background thread, once per process."""
    if _started.is_set():
        return
    _started.set()

    def load() -> None:
        time.sleep(WARM_UP_DELAY_S)
        for name in LATER_MODULES:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: S112 - only saves time: the page imports it again
                continue

    threading.Thread(target=load, name="warm-up", daemon=True).start()
