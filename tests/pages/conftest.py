"""Fixtures for the page tests.

The dashboard turns a page's errors into a short message (ui/page_errors.py) unless
``client.showErrorDetails`` is "full". The page tests ask for "full", so a crash still
appears as ``at.exception`` and fails them; tests of the short message ask for the
shipped setting (.streamlit/config.toml) with :func:`shipped_error_details`.
"""

from __future__ import annotations

import pytest
from streamlit import config


@pytest.fixture(autouse=True)
def full_error_details():
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    yield
    config.set_option("client.showErrorDetails", before)


@pytest.fixture(autouse=True, scope="module")
def module_workspace(tmp_path_factory):
    """Module-scoped apps get a workspace of their module (never workspace.anon.db in the
    repository, and nothing restored from another test module)."""
    with pytest.MonkeyPatch.context() as patch:
        path = tmp_path_factory.mktemp("workspace") / "module.anon.db"
        patch.setenv("ANON_WORKSPACE", str(path))
        yield path


@pytest.fixture(autouse=True)
def own_workspace(tmp_path, monkeypatch, module_workspace):
    """Each test's own apps get a fresh workspace file of their own."""
    path = tmp_path / "test.anon.db"
    monkeypatch.setenv("ANON_WORKSPACE", str(path))
    return path
