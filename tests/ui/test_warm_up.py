"""ui.warm_up: the chart module is imported on a background thread, once per process."""

from __future__ import annotations

import sys
import threading

import ui.warm_up


def test_later_modules_are_imported_once_in_the_background(monkeypatch):
    started = []
    real_thread = threading.Thread

    def recording_thread(*args, **kwargs):
        thread = real_thread(*args, **kwargs)
        started.append(thread)
        return thread

    monkeypatch.setattr(ui.warm_up, "_started", threading.Event())
    monkeypatch.setattr(ui.warm_up, "WARM_UP_DELAY_S", 0.01)  # not the first page's 2 s
    monkeypatch.setattr(ui.warm_up.threading, "Thread", recording_thread)
    monkeypatch.delitem(sys.modules, "ui.charts", raising=False)
    ui.warm_up.warm_up_later_pages()
    ui.warm_up.warm_up_later_pages()  # a second page draw starts nothing more
    assert len(started) == 1 and started[0].daemon
    started[0].join(timeout=60)
    assert "ui.charts" in sys.modules
