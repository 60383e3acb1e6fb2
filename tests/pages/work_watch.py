"""Which computations of a dashboard run say what they do (issue 29, "Show the work").

:func:`watching` records, while AppTest runs the app, when a spinner or progress bar is
on screen (Streamlit's ``spinner`` and ``progress``: ``st.spinner``, ``ui.progress``,
the spinners of cached functions) and samples the script thread's stack every few
milliseconds. A *computation* is a run of samples on one statement of a page (or of
app.py: the sidebar) and of the function that statement calls; :meth:`WorkWatch.silent` lists those that took longer than a limit
with no spinner or bar on screen: a blank or greyed page, as the analyst met it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import pytest
from streamlit.elements.progress import ProgressMixin
from streamlit.elements.spinner import SpinnerMixin

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_EVERY_S = 0.02


@dataclass
class Stretch:
    """One computation: a statement of a page run for ``seconds``, shown or not."""

    statement: str  # "pages/3_deidentify.py:162 > ui/free_text.py:46"
    where: str  # the innermost frames of this project at its longest sample
    seconds: float
    shown: bool


@dataclass
class WorkWatch:
    on_screen: int = 0  # spinners and bars on screen now
    samples: list[tuple[float, str, str, bool]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def stretches(self) -> list[Stretch]:
        """Consecutive samples on one statement, split where the screen changes."""
        out: list[Stretch] = []
        previous = 0.0
        for t, statement, where, shown in self.samples:
            last = out[-1] if out else None
            # (the sampler may be starved while one long call holds the GIL: no gap limit)
            if last and last.statement == statement and last.shown == shown:
                last.seconds += t - previous
            else:
                out.append(Stretch(statement, where, 0.0, shown))
            previous = t
        return out

    def silent(self, limit_s: float = 1.0) -> list[Stretch]:
        """Computations longer than ``limit_s`` with nothing on screen saying so."""
        return [s for s in self.stretches() if not s.shown and s.seconds > limit_s]

    def clear(self) -> None:
        self.samples.clear()
        self.texts.clear()


def _ours(frame: FrameType) -> bool:
    name = frame.f_code.co_filename
    return name.startswith(str(ROOT)) and "/tests/" not in name and "/.venv/" not in name


def _describe(frame: FrameType | None) -> tuple[str, str] | None:
    """(the statement of the innermost page or app.py module frame, the innermost frames
    of this project), or None when no script of ours runs in this thread."""
    ours: list[FrameType] = []
    while frame is not None:
        if _ours(frame):
            ours.append(frame)
        frame = frame.f_back
    modules = [i for i, f in enumerate(ours) if f.f_code.co_name == "<module>"]
    if not modules:
        return None
    # The innermost module frame: the page run by app.py's navigation, else app.py. Its
    # statement, and the statement of the function it calls (e.g. the De-identify page's
    # free_text.section() is a scan, a rescan, a table... each its own computation).
    top = modules[0]
    statement = " > ".join(_where(f) for f in reversed(ours[max(top - 1, 0) : top + 1]))
    return statement, " <- ".join(f"{_where(f)} {f.f_code.co_name}" for f in ours[:3])


def _where(frame: FrameType) -> str:
    return f"{Path(frame.f_code.co_filename).relative_to(ROOT)}:{frame.f_lineno}"


@contextlib.contextmanager
def watching(monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkWatch]:
    watch = WorkWatch()
    spinner, progress = SpinnerMixin.spinner, ProgressMixin.progress

    @contextlib.contextmanager
    def counted_spinner(self, text="In progress...", *args, **kwargs):
        watch.texts.append(str(text))
        watch.on_screen += 1
        try:
            with spinner(self, text, *args, **kwargs):
                yield
        finally:
            watch.on_screen -= 1

    bars: dict[int, bool] = {}  # a bar is on screen from its first drawing to .empty()

    def counted_progress(self, value=0, text=None, *args, **kwargs):
        element = progress(self, value, text, *args, **kwargs)
        watch.texts.append(str(text))
        if id(self) not in bars and not bars.get(id(element)):  # a new bar, not an update
            bars[id(element)] = True
            watch.on_screen += 1
            empty = element.empty

            def emptied():
                if bars.pop(id(element), False):
                    watch.on_screen -= 1
                return empty()

            element.empty = emptied
        return element

    monkeypatch.setattr(SpinnerMixin, "spinner", counted_spinner)
    monkeypatch.setattr(ProgressMixin, "progress", counted_progress)
    # st.spinner and st.progress are bound to the main DeltaGenerator at import
    import streamlit

    monkeypatch.setattr(
        streamlit, "spinner", lambda *a, **k: counted_spinner(streamlit._main, *a, **k)
    )
    monkeypatch.setattr(
        streamlit, "progress", lambda *a, **k: counted_progress(streamlit._main, *a, **k)
    )

    stop = threading.Event()
    me = threading.get_ident()

    def sample() -> None:
        while not stop.wait(SAMPLE_EVERY_S):
            now = time.monotonic()
            for ident, frame in sys._current_frames().items():
                if ident in (me, threading.get_ident()):
                    continue
                described = _describe(frame)
                if described is not None:
                    watch.samples.append((now, *described, watch.on_screen > 0))
                    break

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield watch
    finally:
        stop.set()
        sampler.join()
