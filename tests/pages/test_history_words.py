"""History's audit log speaks in words (issue 29, "Developer text on screen").

The log's object column showed the tokens the chain hashes: ``setting:current_recipe``,
``setting:sign_off``, ``dataset:<64-hex sha256>``, ``recipe:2``; its action column
``store_data`` and ``mapping_table``. A privacy officer reads "setting: current recipe",
"data set 'patients.csv' (sha256 3f2a…9c1b)"; the exact entries stay in the downloaded
audit log, where a person checking the chain needs them (core.audit_words).
"""

from __future__ import annotations

import json
import re

import pandas as pd
from apptest_helpers import ROOT, recorded_downloads, shown
from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

PATIENTS = pd.DataFrame({"age": [34, 51, 29], "sex": ["F", "M", "F"]})
RAW_TOKEN = re.compile(r"\b(?:setting|dataset|recipe|release|signoff|risk|dp|mapping):\S")
SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


def test_the_audit_log_shows_objects_in_words_and_keeps_them_exact_in_the_download(
    own_workspace,
):
    with Workspace(own_workspace) as ws:
        digest = ws.add_dataset(PATIENTS, name="patients.csv")
        version = ws.add_recipe_version("steps: []\n", message="start")
        ws.set_setting("current_recipe", version.id)
        ws.set_setting("sign_off", {"name": "A. Officer"})
        ws.set_setting("use_case", "internal")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    with recorded_downloads() as files:
        at.switch_page("pages/12_history.py").run()
        assert not at.exception, at.exception
        log = shown(at.dataframe[0])
        cells = log.astype(str).to_numpy().ravel()
        assert not [c for c in cells if RAW_TOKEN.search(c) or SHA256.search(c)], log
        exact = json.loads(files.content(at, "hist_download_log"))
    objects = set(log["object"])
    # The data set by the name it was recorded under and its sha256's first and last four
    # characters (the digest is the table's fingerprint, computed here, not typed).
    assert f"data set 'patients.csv' (sha256 {digest[:4]}…{digest[-4:]})" in objects
    assert {"setting: current recipe", "setting: sign-off", "setting: use case"} <= objects
    assert f"recipe version {version.id}" in objects
    assert {"data set recorded", "setting changed", "recipe version saved"} <= set(log["action"])
    # The download keeps each entry exactly as the chain hashes it.
    assert {e["object"] for e in exact} >= {
        f"dataset:{digest}",
        "setting:current_recipe",
        "setting:sign_off",
        f"recipe:{version.id}",
    }
    assert all(SHA256.fullmatch(e["hash"]) for e in exact)
