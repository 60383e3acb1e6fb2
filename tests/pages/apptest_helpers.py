"""Shared helpers for the dashboard's AppTest tests (one place, as STYLE.md asks)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Dataframe

from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]


def open_app(page: str | None = None) -> AppTest:
    """The dashboard after its first run (default sample loaded), optionally on ``page``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def load_sample(sample: str, roles: Mapping[str, Role]) -> AppTest:
    """The dashboard with a sample_data table loaded through the Data page and ``roles``
    (the Step 1 roles) set, still on the Data page."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(sample)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = dict(roles)
    return at


def open_sample(
    sample: str, indirect: list[str], page: str, session: dict | None = None
) -> AppTest:
    """The dashboard with a sample_data table loaded, ``indirect`` marked as indirect
    identifiers (the Step 1 roles), further ``session`` state set, on ``page``."""
    at = load_sample(sample, {c: Role.INDIRECT for c in indirect})
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    """The value of the metric labelled ``label`` (fails naming the labels shown)."""
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no metric {label!r} among {[m.label for m in at.metric]}"
    return values[0]


def shown(frame: Dataframe) -> pd.DataFrame:
    """The text a user reads in ``st.dataframe`` cells: a Styler's display values when the
    page formats its figures (ui.tables.formatted_table), else the values themselves as text.
    (``frame.value`` holds the numbers underneath, which the grid sorts on.)"""
    display = frame.proto.arrow_data.styler.display_values
    if not display:
        return frame.value.astype(str)
    return pa.ipc.open_stream(display).read_pandas()


@dataclass
class Downloads:
    """The files handed to ``st.download_button`` while recording (AppTest shows a button's
    URL only): their bytes and file names by media file id."""

    contents: dict[str, bytes] = field(default_factory=dict)
    names: dict[str, str | None] = field(default_factory=dict)

    @staticmethod
    def _file_id(at: AppTest, key: str) -> str:
        return PurePosixPath(at.download_button(key=key).proto.url).stem

    def content(self, at: AppTest, key: str) -> bytes:
        """The bytes behind the download button with widget key ``key``."""
        return self.contents[self._file_id(at, key)]

    def name(self, at: AppTest, key: str) -> str | None:
        """The file name the download button with widget key ``key`` offers."""
        return self.names.get(self._file_id(at, key))


@contextmanager
def recorded_downloads() -> Iterator[Downloads]:
    """Record every file handed to ``st.download_button`` until the block ends."""
    recorded = Downloads()
    original = MemoryMediaFileStorage.load_and_get_id

    def recording(self, path_or_data, mimetype, kind, filename=None):
        file_id = original(self, path_or_data, mimetype, kind, filename)
        recorded.contents[file_id] = path_or_data if isinstance(path_or_data, bytes) else b""
        recorded.names[file_id] = filename
        return file_id

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MemoryMediaFileStorage, "load_and_get_id", recording)
        yield recorded


#: A release the check passes on the Singapore sample: year of birth and sex as
#: quasi-identifiers, every other column that could identify someone removed. No random
#: step, so two sessions make the same bytes.
PASSING_RELEASE_ROLES = {"date_of_birth": Role.INDIRECT, "sex": Role.INDIRECT, "nric": Role.DIRECT}
PASSING_RELEASE_STEPS = (
    {"step": "generalise", "column": "date_of_birth", "date_unit": "year"},
    {
        "step": "remove",
        "columns": [
            "nric",
            "name",
            "email",
            "mobile",
            "race",
            "postal_code",
            "latitude",
            "longitude",
            "occupation",
        ],
    },
)


@pytest.fixture
def app_py_on_every_rerun(monkeypatch):
    """Rerun as the server does: app.py every time (it takes the workspace's changes over
    and draws the sidebar, e.g. the training-mode toggle), its st.navigation running the
    page. AppTest reruns only the page's file after the first run (it takes pages/ for a
    v1 pages folder), which would skip what app.py does. Use with
    ``pytestmark = pytest.mark.usefixtures("app_py_on_every_rerun")`` after importing it."""

    def run_main_script(main_script_path: str) -> None:
        code = compile(Path(main_script_path).read_text(), main_script_path, "exec")
        exec(code, {"__name__": "__main__", "__file__": main_script_path})

    monkeypatch.setattr(script_runner, "_mpa_v1", run_main_script)
