"""Helpers for the app's tests: seats on the websocket, games played through it, and whole random games
played on the rules alone with what each seat was shown."""
from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

from starlette.testclient import TestClient

from toybattle.app.view import log_lines, seat_view
from toybattle.rules import State, observation

# the app answers only to its own address (the test client's default, "testserver", is refused)
LOCAL = "http://127.0.0.1"
WS = "ws://127.0.0.1/ws"
OPEN: list[SeatSocket] = []  # closed by the client fixture, so the test client can shut down


class SeatSocket:
    """One websocket bound to one seat; keeps every message it received."""

    def __init__(self, client: TestClient, game: str, token: str):
        self.cm = client.websocket_connect(WS)
        OPEN.append(self)
        self.ws = self.cm.__enter__()
        self.received: list[dict] = []
        self.view: dict | None = None
        self.send({"type": "hello", "game": game, "token": token})
        assert self.recv()["type"] == "welcome"
        assert self.recv()["type"] == "view"

    def send(self, msg) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict:
        m = self.ws.receive_json()
        self.received.append(m)
        if m["type"] == "view":
            self.view = m["view"]
        return m

    def until(self, kind: str) -> dict:
        while True:
            m = self.recv()
            if m["type"] == kind:
                return m

    def request(self, msg) -> dict:
        """Send; return the reply that settles it (ok / error / pong), collecting views meanwhile."""
        self.send(msg)
        while True:
            m = self.recv()
            if m["type"] in ("ok", "error", "pong", "rematch", "hint"):
                return m

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.cm.__exit__(None, None, None)


def new_game(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play_hotseat(client: TestClient, game: dict, rng: random.Random, max_actions: int = 400,
                 undo_rate: float = 0.0) -> tuple[SeatSocket, SeatSocket]:
    """Play random legal actions for both seats (one socket each) until the game ends."""
    seats = {s: SeatSocket(client, game["game"], game["tokens"][s]) for s in ("blue", "red")}
    for _ in range(max_actions):
        v = seats["blue"].view
        if v["over"]:
            break
        actor = seats[v["actor"]]
        other = seats["red" if v["actor"] == "blue" else "blue"]
        legal = actor.view["legal"]
        if actor.view["can_undo"] and rng.random() < undo_rate:
            reply = actor.request({"type": "undo"})
        else:
            reply = actor.request({"type": "act", "action": rng.choice(legal["actions"])})
        assert reply["type"] == "ok", reply
        other.until("view")
    return seats["blue"], seats["red"]


@dataclass(frozen=True)
class WholeGame:
    """A whole random game: its final state, each seat's log, and the views each seat was shown
    after every action (with its whole log so far)."""
    final: State
    logs: tuple[list[dict[str, Any]], list[dict[str, Any]]]
    views: tuple[list[dict[str, Any]], list[dict[str, Any]]]


@functools.cache
def whole_game(terrain: str, seed: int) -> WholeGame:
    """Random legal actions from a seeded deal (the same game every run), played once per test process and
    shared by the tests that read it (narration, catalogues): they must not change what it holds."""
    rng = random.Random(seed)
    s = State.new(terrain, seed=seed)
    logs: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    views: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    while not s.over:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        before = [observation(s, 0), observation(s, 1)]
        s.apply(a)
        for v in (0, 1):
            after = observation(s, v)
            logs[v].extend(log_lines(before[v], a, after, v))
            views[v].append(seat_view(after, v, log=logs[v]))
    return WholeGame(s, logs, views)
