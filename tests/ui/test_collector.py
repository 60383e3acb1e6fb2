"""ui.collector: the cyclic garbage collector is off during a server's first run of app.py
and on again after it (issue 31). Each check runs in a fresh interpreter: the pause
happens once per process, and this test process has run app.py before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, tmp_path: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"ANON_WORKSPACE": str(tmp_path / "t.anon.db"), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout.split()


def test_paused_once_resumed_and_what_existed_frozen(tmp_path):
    code = (
        "import gc\n"
        "from ui import collector\n"
        "collector.pause_for_first_run()\n"
        "print(gc.isenabled(), gc.get_freeze_count() > 0)\n"
        "collector.resume()\n"
        "print(gc.isenabled())\n"
        "collector.pause_for_first_run()\n"  # a later run: nothing happens
        "print(gc.isenabled())\n"
    )
    assert run_python(code, tmp_path) == ["False", "True", "True", "True"]


def test_a_collector_switched_off_elsewhere_stays_off(tmp_path):
    code = (
        "import gc\n"
        "from ui import collector\n"
        "gc.disable()\n"
        "collector.pause_for_first_run()\n"
        "collector.resume()\n"
        "print(gc.isenabled())\n"
    )
    assert run_python(code, tmp_path) == ["False"]


def test_off_during_the_first_run_of_app_py_and_on_after_it(tmp_path):
    # The Data page's profile of the default sample is computed during the run: whether the
    # collector was on then is recorded, on the first run and on a rerun.
    code = (
        "import gc\n"
        "import ui.state.loading as loading\n"
        "from streamlit.testing.v1 import AppTest\n"
        "real = loading.column_profile\n"
        "seen = []\n"
        "def recorded(df):\n"
        "    seen.append(gc.isenabled())\n"
        "    return real(df)\n"
        "loading.column_profile = recorded\n"
        "app = AppTest.from_file('app.py', default_timeout=60)\n"
        "app.run()\n"
        "assert not app.exception, app.exception\n"
        "print(seen[0], gc.isenabled())\n"
        "app.run()\n"
        "print(seen[-1], gc.isenabled())\n"
    )
    assert run_python(code, tmp_path) == ["False", "True", "True", "True"]
