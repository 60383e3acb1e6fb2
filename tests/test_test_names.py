"""Every test module and test helper has a name of its own across tests/.

pytest imports each test folder's modules by their bare name (its "prepend" import mode,
no packages): two files called the same in two folders pass when each folder runs alone
and stop the whole suite at collection when it runs at once (tests/browser and tests/pages
both had a test_hierarchy_import.py).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHARED_NAMES = {"conftest.py", "__init__.py"}  # pytest and Python read these per folder


def test_no_two_modules_under_tests_share_a_name():
    places = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if path.name not in SHARED_NAMES and "data" not in path.relative_to(TESTS).parts:
            places[path.name].append(str(path.relative_to(TESTS)))
    assert not {name: where for name, where in places.items() if len(where) > 1}
