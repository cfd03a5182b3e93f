"""Fixtures and markers shared by every area's tests.

``site_dir``: the static site built by ``toybattle site``, once per session (per xdist worker), for the
tests that serve it and only read it (the site's and the online site's tests).

``browser``: Debian's chromium, headless, driven by Playwright from PyPI (never a downloaded browser).
One instance per test module, shared by every area's browser tests: Playwright's sync API cannot
start while another instance is alive, and while alive it keeps an event loop running in the main
thread (so later tests calling asyncio.run would fail); per-module scope stops it after each file.

``slow``: a test that drives the browser, goes through the local magic-wormhole mailbox or starts a local
Dask cluster is marked slow here, by its fixtures, so `-m "not slow"` (the fast lane) leaves it out. A test
that starts another program (a second server, an engine, a script), builds the site or searches whole games
with the expert says so itself with ``@pytest.mark.slow``: each costs a second or more, and the fast lane
keeps the quick checks of the same code.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TOYBATTLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SLOW_FIXTURES = {"browser", "mailbox", "cluster"}
TESTS = Path(__file__).resolve().parent
# the files that took minutes each on a loaded 2-core machine (a fresh clone's setup with the compiled build,
# the 500-message fuzz of the real transport, six games on the static site's Pyodide, games cut and killed
# mid-way), longest first
LONGEST_FIRST = ("test_fresh_machine.py", "online/test_attacks.py", "site/test_site.py", "online/test_reconnect.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    # Order for pytest-xdist, which hands out one whole file at a time (its module fixtures are set up once):
    # the files that take minutes first, then the other files holding a slow test, then the quick ones. The
    # long ones then overlap each other and the quick files fill in at the end, instead of one worker
    # finishing a long file alone while the other waits.
    slow = {item.path for item in items if item.get_closest_marker("slow")}

    def rank(item: pytest.Item) -> tuple[int, bool]:
        name = item.path.relative_to(TESTS).as_posix() if item.path.is_relative_to(TESTS) else ""
        return (LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST), item.path not in slow)
    items.sort(key=rank)


@pytest.fixture(autouse=True)
def english_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line follows the system's language (toybattle.cli_lang): the tests that read its English
    run in an English system whatever the machine's locale; a test of another language sets its own."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():  # a missing browser is a failed setup, never a skipped test
        pytest.fail(f"no chromium at {CHROMIUM}: run scripts/setup.sh --test (or set TOYBATTLE_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "www"
    done = subprocess.run([sys.executable, "-m", "toybattle", "site", str(out)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    pyodide = json.loads((out / "static/site/site.json").read_text())["pyodide"]
    assert (out / "sw.js").is_file() and (out / "static/site" / pyodide / "pyodide.asm.wasm").is_file()
    return out
