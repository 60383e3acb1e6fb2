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
