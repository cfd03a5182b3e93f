"""The review's fixtures: ``blunder``, a recorded game with a known blunder (blunder_game.py); ``app``: the app on a
fresh games file (a test client and its store)."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blunder_game import BLUNDER, PLAYED, WINNING, Blunder, build

from toybattle.rules import BLUE


@pytest.fixture(scope="session")
def blunder() -> Blunder:
    return Blunder(build(), BLUNDER, BLUE, PLAYED, WINNING)


@pytest.fixture
def app(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))  # the app's test harness
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from app_harness import LOCAL, OPEN
    from starlette.testclient import TestClient

    from toybattle.assembly import build_app
    from toybattle.store import Store

    store = Store(tmp_path / "games.sqlite3")
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as client:
        yield client, store
        for sock in list(OPEN):
            sock.close()
    store.close()
