"""Fixtures shared by every area's tests.

``browser``: Debian's chromium, headless, driven by Playwright from PyPI (never a downloaded browser).
ONE instance for the whole session: Playwright's sync API cannot be started again while another
instance is alive, so browser tests in every folder must use this fixture, never their own.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TOYBATTLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    pw = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}")
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
