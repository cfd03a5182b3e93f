"""The static site, built into a temporary directory and served by a plain static file server.

``site``: the base URL of the site built once per session by ``toybattle site`` (``site_dir``, in
tests/conftest.py) and served by ``python -m http.server`` (both started through sys.executable).
``recorded``: a 360x640 browser context that records every request, so a test can assert that nothing
left localhost.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from site_harness import Recorded, serving


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds the static site and plays it in a browser")


@pytest.fixture(scope="module")
def site(site_dir: Path):
    with serving(site_dir) as url:
        yield url


@pytest.fixture
def recorded(browser):
    rec = Recorded(browser)
    yield rec
    rec.context.close()
