"""Session state and caching for the dashboard: the only place that touches them.

Pages stay thin: they read widgets, call these helpers and ``core``, and draw results.
The original table is stored once and never modified; every change is a recipe step,
and the current table is the recipe replayed on the original (:mod:`ui.state.replay`).

One module per concern, each importing only the ones below it (never this package's
``__init__``): :mod:`~ui.state.session` (the session's table and recipe),
:mod:`~ui.state.cache` (every cache, one eviction rule), :mod:`~ui.state.workspace`
(writing through to the workspace), :mod:`~ui.state.widgets` (widget-key housekeeping),
:mod:`~ui.state.keys` (HMAC keys typed in the session), :mod:`~ui.state.loading`
(Step 0), :mod:`~ui.state.hierarchies`, :mod:`~ui.state.replay` (Steps 2-3),
:mod:`~ui.state.classify` (Step 1), :mod:`~ui.state.risk` (Step 4),
:mod:`~ui.state.tradeoffs`, :mod:`~ui.state.release` (Step 5),
:mod:`~ui.state.following` (following the workspace on every rerun) and
:mod:`~ui.state.presentation` (sidebar, explanations). Pages import the modules they use
(``from ui.state import presentation, replay``, then ``replay.current_data()``); this
``__init__`` re-exports nothing, so no module of the package can import it back.
"""
