"""A games file another program holds locked: every request that must write answers 503 with one line (never
a 500), stores nothing, and the same request succeeds once the file is free again.

The fault is real: a second SQLite connection holds the file with BEGIN EXCLUSIVE, as another program would.
"""
from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toybattle.assembly import build_app
from toybattle.store import Store

sys.path.insert(0, str(Path(__file__).parent))
from app_harness import LOCAL


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite3")
    s._db.execute("PRAGMA busy_timeout = 200")  # the wait for a locked file, short for the test (as test_store)
    yield s
    s.close()


@contextmanager
def held(store: Store) -> Iterator[None]:
    other = sqlite3.connect(str(store.path), timeout=0, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("COMMIT")
        other.close()


def stored(store: Store) -> int:
    """How many games the file holds, read by another connection, as another program would."""
    with sqlite3.connect(str(store.path)) as db:
        count: int = db.execute("SELECT count(*) FROM games").fetchone()[0]
    return count


REQUESTS = [
    ("/api/games", {"kind": "hotseat", "terrain": "castle"}),
    ("/api/games", {"kind": "bot", "terrain": "castle", "level": "random"}),
    ("/api/lessons/hook-isolated/continue", {"actions": ["3@13"], "nonce": "z"}),
]


@pytest.mark.parametrize(("path", "body"), REQUESTS, ids=["hotseat", "bot", "lesson played on"])
def test_a_locked_games_file_is_a_503_with_one_line_and_changes_nothing(store, path, body):
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as client:
        with held(store):
            r = client.post(path, json=body)
        assert r.status_code == 503, r.text
        error = r.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error and "Traceback" not in error
        assert stored(store) == 0  # nothing was stored
        again = client.post(path, json=body)  # the file is free: the same request goes through
        assert again.status_code == 200, again.text
        assert stored(store) == 1
