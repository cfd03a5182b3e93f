"""Fixtures shared by every area's tests.

``browser``: Debian's chromium, headless, driven by Playwright from PyPI (never a downloaded browser).
One instance per test module, shared by every area's browser tests: Playwright's sync API cannot
start while another instance is alive, and while alive it keeps an event loop running in the main
thread (so later tests calling asyncio.run would fail); per-module scope stops it after each file.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TOYBATTLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    pw = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}")
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
