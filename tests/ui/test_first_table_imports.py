"""What the dashboard imports before the Data page's first table (issue 31).

The role suggester loads the detectors, hundreds of patterns compiled on import (0.1-0.2 s
on the shared 2-core machine): the Data page shows the table before any suggestion is made
(they are made on Classify), so the modules a first run of app.py and the Data page import
must not load them. Checked in a fresh interpreter: this test process has them loaded.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The project modules app.py and pages/1_data.py import.
FIRST_RUN_MODULES = (
    "ui.navigation",
    "ui.page_errors",
    "ui.state.following",
    "ui.state.presentation",
    "ui.warm_up",
    "core.formatting",
    "core.markup",
    "core.profile",
    "ui.data_steps",
    "ui.guide_examples",
    "ui.state.loading",
    "ui.state.session",
    "ui.state.widgets",
    "ui.state.workspace",
)


def loaded_after_importing(modules: tuple[str, ...]) -> set[str]:
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in modules)
        + "print('\\n'.join(sorted(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


def test_the_first_table_does_not_wait_for_the_detectors():
    loaded = loaded_after_importing(FIRST_RUN_MODULES)
    assert "ui.state.classify" in loaded  # the sidebar's roles: the module is there...
    assert not {name for name in loaded if name.startswith("core.detect")}  # ...not its suggester
    assert "core.schema" not in loaded


def test_the_suggester_does_load_the_detectors():
    # What the test above spares the first run: Classify's suggestions import them.
    assert "core.detect.patterns" in loaded_after_importing(("core.schema",))
