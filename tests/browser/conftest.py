"""Playwright fixtures for browser tests (reusable by every area's browser tests).

- ``live_server``: the app on 127.0.0.1 (Uvicorn, port 0, in a thread) over a fresh games file;
  ``live_server.url`` is its base URL, ``live_server.store`` its Store.
- ``browser`` (from tests/conftest.py): Debian's chromium, headless, one for the whole session.
- ``phone`` / ``desktop``: a fresh page at 390x844 (touch) or 1280x800.
- ``shot(page, name)``: a screenshot under test-artifacts/browser/ (git-ignored), kept as a test artifact.
"""
from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import pytest

# the browser tests share their helpers (test_app_browser's start_game, play_one ...) by importing them
sys.path.insert(0, str(Path(__file__).resolve().parent))

from devices import DESKTOP, PHONE, SMALL_PHONE

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


class LiveServer:
    """Uvicorn serving ``app`` on a free port in a background thread."""

    def __init__(self, app):
        import uvicorn
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve())

    def start(self) -> LiveServer:
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                break
            self.thread.join(0.025)
        if not self.server.started:
            raise RuntimeError("the test server did not start")
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    from toybattle.assembly import build_app
    from toybattle.store import Store
    store = Store(tmp_path_factory.mktemp("db") / "games.sqlite3")
    server = LiveServer(build_app(store, bot_delay=0.05)).start()
    server.store = store
    yield server
    server.stop()


def _page(browser, options):
    # Playwright's waiting helpers evaluate strings in the page, which the app's Content-Security-Policy
    # forbids: these contexts bypass it, and test_app_csp.py runs the page with the policy enforced
    ctx = browser.new_context(bypass_csp=True, **options)
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return ctx, page


@pytest.fixture
def phone(browser):
    ctx, page = _page(browser, PHONE)
    yield page
    ctx.close()


@pytest.fixture
def french(browser):
    """A phone whose browser asks for French (the page's language by default)."""
    ctx, page = _page(browser, {**PHONE, "locale": "fr-FR"})
    yield page
    ctx.close()


@pytest.fixture
def small_phone(browser):
    ctx, page = _page(browser, SMALL_PHONE)
    yield page
    ctx.close()


@pytest.fixture
def desktop(browser):
    ctx, page = _page(browser, DESKTOP)
    yield page
    ctx.close()


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, full_page: bool = False) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path
    return take
