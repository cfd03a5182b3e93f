"""Issue 26 item 7: a game played on from a lesson, and its rematch, were stored with the blocking
``store.put`` on the event loop: while the games file was busy (another program writing it, a slow
disk) every other player of that server waited too, up to SQLite's 5 s.

The app runs here in asyncio's debug mode with ``slow_callback_duration`` 0.1 s, on a real games file
whose write lock another connection holds for a moment (as another program would): the lesson's
"play on" and the rematch wait for the file off the event loop (no "Executing ... took" warning, and
another client is answered meanwhile), and are answered only once their game is stored."""
from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from test_hardening_live import Live
from websockets.sync.client import ClientConnection, connect

from toybattle.store import Store

HOLD = 1.0  # seconds the other connection keeps the games file's write lock


class SlowCallbacks(logging.Handler):
    """asyncio's debug-mode warnings of a callback that held the event loop too long."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith("Executing"):
            self.seen.append(text[:300])


@contextlib.contextmanager
def write_locked(path: Path, hold: float = HOLD) -> Iterator[None]:
    """Another connection holds the games file's write lock for ``hold`` seconds from now."""
    holder = sqlite3.connect(str(path), timeout=0, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    release = threading.Timer(hold, lambda: (holder.execute("COMMIT"), holder.close()))
    release.start()
    try:
        yield
    finally:
        release.join()


def _until(ws: ClientConnection, kind: str) -> dict:
    while True:
        m = json.loads(ws.recv(timeout=60))
        if m["type"] == kind or m["type"] == "error":
            return m


def _answered_meanwhile(other: httpx.Client) -> float:
    """How long another client waits for an answer while the games file is locked."""
    time.sleep(0.2)  # the write is waiting for the lock by now
    t = time.monotonic()
    assert other.get("/api/meta").status_code == 200
    return time.monotonic() - t


@contextlib.contextmanager
def watched(store: Store) -> Iterator[tuple[Live, httpx.Client, httpx.Client, SlowCallbacks, str]]:
    """The app in debug mode, two clients, and a lesson's "play on" path, every path used once with the
    games file free (first imports, first views) before the event loop is watched."""
    slow = SlowCallbacks()
    asyncio_log = logging.getLogger("asyncio")
    with Live(store, debug=True, slow=0.1) as live, httpx.Client(base_url=live.base, timeout=60) as client, \
            httpx.Client(base_url=live.base, timeout=60) as other:
        lesson = client.get("/api/lessons").json()["topics"][0]["lessons"][0]["id"]
        play_on = f"/api/lessons/{lesson}/continue"
        assert client.post(play_on, json={"actions": [], "nonce": "warm"}).status_code == 200
        assert other.get("/api/meta").status_code == 200
        asyncio_log.addHandler(slow)
        try:
            yield live, client, other, slow, play_on
        finally:
            asyncio_log.removeHandler(slow)


def _held(slow: SlowCallbacks) -> str:
    return "the event loop was held:\n" + "\n".join(slow.seen)


def test_playing_on_from_a_lesson_never_waits_for_the_games_file_on_the_event_loop(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        with watched(store) as (_, client, other, slow, play_on), ThreadPoolExecutor(1) as pool:
            with write_locked(store.path):
                answer = pool.submit(client.post, play_on, json={"actions": [], "nonce": "n1"})
                waited = _answered_meanwhile(other)
                r = answer.result(timeout=60)
            assert slow.seen == [], _held(slow)
            assert r.status_code == 200, r.text
            assert store.get(r.json()["game"]) is not None  # answered once stored
            assert waited < HOLD / 2, f"another client waited {waited:.2f} s for the games file"
    finally:
        store.close()


def test_a_lesson_games_rematch_never_waits_for_the_games_file_on_the_event_loop(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        with watched(store) as (live, client, other, slow, play_on):
            game = client.post(play_on, json={"actions": [], "nonce": "n2"}).json()
            with connect(live.ws_url) as ws:
                ws.send(json.dumps({"type": "hello", "game": game["game"], "token": game["token"]}))
                assert _until(ws, "welcome")["type"] == "welcome"
                ws.send(json.dumps({"type": "concede", "id": 1}))
                assert _until(ws, "ok")["type"] == "ok"
                with write_locked(store.path):
                    ws.send(json.dumps({"type": "rematch", "id": 2}))
                    waited = _answered_meanwhile(other)
                    rematch = _until(ws, "rematch")
            assert slow.seen == [], _held(slow)
            assert rematch["type"] == "rematch", rematch
            new = store.get(rematch["game"])
            assert new is not None and rematch["game"] != game["game"] and "lesson" in new.meta
            assert waited < HOLD / 2, f"another client waited {waited:.2f} s for the games file"
    finally:
        store.close()


@pytest.mark.slow
def test_a_whole_bot_game_and_its_rematch_never_hold_the_event_loop(tmp_path):
    """Issue 26: the app in debug mode through a bot game to its end (bots in worker processes, every
    action stored), then its rematch, with no callback over 0.1 s on the event loop."""
    store = Store(tmp_path / "games.sqlite3")
    try:
        with watched(store) as (live, client, _other, slow, _play_on):
            made = client.post("/api/games", json={"kind": "bot", "terrain": "castle", "level": "random",
                                                   "human": "blue", "first": "blue"}).json()
            token = made["tokens"]["blue"]
            with connect(live.ws_url) as ws:
                ws.send(json.dumps({"type": "hello", "game": made["game"], "token": token}))
                sent = 0
                while True:
                    view = _until(ws, "view")
                    assert view["type"] == "view", view
                    v = view["view"]
                    if v["over"]:
                        break
                    if v.get("legal"):
                        sent += 1
                        ws.send(json.dumps({"type": "act", "action": v["legal"]["actions"][0], "id": sent}))
                ws.send(json.dumps({"type": "rematch", "id": sent + 1}))
                rematch = _until(ws, "rematch")
            assert slow.seen == [], _held(slow)
            assert sent > 5 and rematch["type"] == "rematch", rematch
            assert store.get(rematch["game"]) is not None
    finally:
        store.close()
