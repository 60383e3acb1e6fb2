"""Every page's heading is its name in the menu (issue 17: "Risk" opened "Step 4 · Compute
your risk")."""

from __future__ import annotations

import re

from apptest_helpers import ROOT, open_app

from core.schema import Role

MENU = re.findall(r'st\.Page\("([^"]+)", title="([^"]+)"', (ROOT / "app.py").read_text())


def test_the_menu_is_read():
    assert len(MENU) >= 13 and ("pages/5_risk.py", "Risk") in MENU


def test_every_page_heading_matches_its_menu_entry():
    at = open_app()
    # quasi-identifiers, so the risk pages get past their "confirm the roles" notice
    at.session_state["roles"] = {"sex": Role.INDIRECT, "race": Role.INDIRECT}
    for path, title in MENU:
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        assert at.title and at.title[0].value == title, (path, [t.value for t in at.title])
