"""What the dashboard imports before the Data page's first table (issue 31).

The role suggester loads the detectors, hundreds of patterns compiled on import (0.1-0.2 s
on the shared 2-core machine): the Data page shows the table before any suggestion is made
(they are made on Classify), so the modules a first run of app.py and the Data page import
must not load them. Checked in a fresh interpreter: this test process has them loaded.
"""

from __future__ import annotations

import os
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


def test_streamlits_interpreter_check_is_not_run(tmp_path):
    # ui.navigation.skip_the_interpreter_check: Streamlit's once-per-process check at the
    # first element (inspect.stack() over every module loaded, 0.16-0.22 s in the server)
    # is marked done before the menu. A fresh interpreter: the check runs once per process.
    code = (
        "import streamlit.env_util as env_util\n"
        "from streamlit.testing.v1 import AppTest\n"
        "calls = []\n"
        "real = env_util.is_repl\n"
        "env_util.is_repl = lambda: calls.append(1) or real()\n"
        "app = AppTest.from_file('app.py', default_timeout=60)\n"
        "app.run()\n"
        "assert not app.exception, app.exception\n"
        "print(len(calls))\n"
    )
    env = {**os.environ, "ANON_WORKSPACE": str(tmp_path / "t.anon.db")}
    env.pop("ANON_DATA", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["0"]
