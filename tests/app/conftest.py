"""Fixtures for the app's protocol tests: an app over a fresh games file."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # for app_harness

warnings.filterwarnings("ignore", message=".*httpx.*")
from app_harness import LOCAL, OPEN  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from toybattle.app.server import build_app  # noqa: E402
from toybattle.store import Store  # noqa: E402


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture
def client(store):
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as c:
        yield c
        for sock in list(OPEN):
            sock.close()
