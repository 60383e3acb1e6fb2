"""Progress of long work: one idea shared by the library, the command line and the dashboard.

Long functions of :mod:`core` take ``progress: ProgressFn | None`` and call it with the
fraction done (0 to 1) and a short message in plain words ("step 2 of 4: generalised
age"). What draws it is the caller's business: the command line draws a text bar on
stderr (:class:`TextBar`), the dashboard an ``st.progress`` element (``ui.state``).
:func:`stage` maps one part of a longer job onto its share of the whole bar, so a job
made of several functions still shows one bar going from 0 to 1.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from core.markup import terminal_line

ProgressFn = Callable[[float, str], None]

# Work shorter than this shows no bar (issue 15: a bar on any step over ~2 s).
BAR_DELAY = 2.0


def no_progress(fraction: float, message: str) -> None:
    """The progress of callers that show none."""


def stage(progress: ProgressFn | None, start: float, end: float) -> ProgressFn:
    """A progress function for one part of a job: its 0..1 is ``start..end`` of the whole."""
    report = progress or no_progress
    span = end - start

    def part(fraction: float, message: str) -> None:
        report(start + span * min(max(fraction, 0.0), 1.0), message)

    return part


class TextBar:
    """A tqdm-style bar on a text stream (stderr), redrawn in place with ``\\r``.

    Nothing is drawn for work that ends within ``delay`` seconds, so a quick command
    prints no bar. After that the bar is redrawn every ``interval`` seconds by a small
    thread (started at the first report), so a single long call (reading a large file)
    still shows its elapsed time. :meth:`close` stops the thread and ends the line (only
    if a bar was drawn); use the bar as a context manager or close it before printing.
    """

    WIDTH = 24

    def __init__(
        self,
        label: str,
        *,
        stream: TextIO | None = None,
        delay: float | None = None,
        interval: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = terminal_line(label)
        self.stream = stream if stream is not None else sys.stderr
        self.delay = BAR_DELAY if delay is None else delay
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self.state: tuple[float, str] | None = None
        self.drawn = False
        self.drawn_at = -float("inf")
        self.width = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self.pending_note: str | None = None

    def __call__(self, fraction: float, message: str) -> None:
        with self._lock:
            self.state = (min(max(fraction, 0.0), 1.0), terminal_line(message))
            if self._ticker is None and not self._stop.is_set():
                self._ticker = threading.Thread(target=self._tick, daemon=True)
                self._ticker.start()
        if self.clock() - self.drawn_at >= self.interval:
            self._draw()

    def line(self, now: float) -> str | None:
        """The bar as it stands at time ``now``; None before ``delay`` or any report."""
        if self.state is None or now - self.started < self.delay:
            return None
        fraction, message = self.state
        filled = round(fraction * self.WIDTH)
        elapsed = int(now - self.started)
        return (
            f"{self.label}: {fraction:4.0%}|{'#' * filled}{' ' * (self.WIDTH - filled)}| "
            f"{message[:60]} [{elapsed // 60:02d}:{elapsed % 60:02d}]"
        )

    def say(self, line: str) -> None:
        """Print ``line`` on a line of its own now (a warning, a match), above the bar when
        one is drawn, which is then drawn again under it."""
        with self._lock:
            if self.drawn:
                self.stream.write("\r" + " " * self.width + "\r")
            self.stream.write(terminal_line(line) + "\n")
            if self.drawn and self.state is not None and not self._stop.is_set():
                self.stream.write(self.line(self.clock()) or "")
            self.stream.flush()

    def note(self, line: str) -> None:
        """Print ``line`` above the bar once the bar shows (the latest one given before it
        does; none when the work ends first): news a bar's one line has no room for, such
        as a search's best solution so far."""
        with self._lock:
            self.pending_note = terminal_line(line)
        if self.drawn:
            self._draw()

    def _draw(self) -> None:
        with self._lock:
            now = self.clock()
            text = self.line(now)
            if text is None or self._stop.is_set():
                return
            if self.pending_note is not None:
                self.stream.write("\r" + self.pending_note.ljust(self.width) + "\n")
                self.pending_note = None
                self.width = 0
            self.stream.write("\r" + text.ljust(self.width))
            self.stream.flush()
            self.width = len(text)
            self.drawn = True
            self.drawn_at = now

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self._draw()

    def close(self) -> None:
        """Stop redrawing; end the line if a bar was drawn. Safe to call more than once."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self.drawn:
                self.stream.write("\n")
                self.stream.flush()
                self.drawn = False

    def __enter__(self) -> TextBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
