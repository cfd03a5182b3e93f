"""The Learn section's HTTP API, mounted by the app: lessons, moves judged by the engine, hidden tiles
kept hidden, and a lesson continued as a real game against a bot."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from toybattle.app.server import build_app
from toybattle.lessons import lesson
from toybattle.store import Store


@pytest.fixture
def client(tmp_path):
    app = build_app(Store(tmp_path / "games.sqlite"), bot_delay=0.0, resume=False)
    with TestClient(app) as c:
        yield c


def red_tiles(obj) -> list:
    """Every ["red", troop] pair anywhere in a JSON value."""
    if isinstance(obj, list):
        if len(obj) == 2 and obj[0] == "red" and isinstance(obj[1], str):
            return [obj]
        return [t for x in obj for t in red_tiles(x)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in red_tiles(x)]
    return []


def test_page_list_and_home_link(client):
    assert "learn.js" in client.get("/learn").text
    topics = client.get("/api/lessons").json()["topics"]
    ids = [x["id"] for t in topics for x in t["lessons"]]
    assert "roxy-medals" in ids and len(ids) >= 26
    assert {"label": "Learn to play", "href": "/learn"} in client.get("/api/meta").json()["links"]


def test_lesson_detail_shows_only_the_learners_side(client):
    body = client.get("/api/lessons/xb42-discard").json()
    assert body["seat"] == "blue" and body["hints"] and body["goal"] == ["3 tiles on your opponent's rack"]
    view = body["view"]
    assert view["rack"] == ["2", "5", "6"] and view["counts"]["red"]["rack"] == 4
    on_table = [t for st in view["stacks"].values() for t in st if t[0] == "red"] + \
        [t for t in view["discard"] if t[0] == "red"]
    assert sorted(map(tuple, red_tiles(body))) == sorted(map(tuple, on_table))  # Red's 7 7 6 K never sent


def test_play_wrong_refused_then_right(client):
    url = "/api/lessons/roxy-medals/play"
    wrong = client.post(url, json={"actions": ["7@17"], "nonce": "a"}).json()
    assert wrong["status"] == "wrong" and wrong["done"] and "Advancing on the left" in wrong["feedback"]
    refused = client.post(url, json={"actions": ["7@25"], "nonce": "a"}).json()
    assert refused["status"] == "refused" and refused["refusal"] == "no path from your H.Q." and not refused["done"]
    right = client.post(url, json={"actions": ["7@12"], "nonce": "b"}).json()
    assert right["status"] == "right" and right["view"]["medals"]["blue"] == 3


def test_blind_pick_stays_blind_and_replays_the_same(client):
    url = "/api/lessons/battlefield-lay-down/play"
    first = client.post(url, json={"actions": ["7@14", "use"], "nonce": "n1"}).json()
    again = client.post(url, json={"actions": ["7@14", "use"], "nonce": "n1"}).json()
    assert first["status"] == "right" and first == again
    assert first["view"]["counts"]["red"]["laid"] == 1 and "pick" not in json.dumps(first["actions"])
    assert red_tiles(first["view"]["discard"]) == []


@pytest.mark.parametrize("body", [[], {"actions": "7@12"}, {"actions": ["x" * 41]}, {"actions": [1]},
                                  {"actions": [], "nonce": 5}, {"actions": ["draw"] * 25}])
def test_bad_requests_get_one_clear_error(client, body):
    r = client.post("/api/lessons/roxy-medals/play", json=body)
    assert r.status_code == 400 and isinstance(r.json()["error"], str)
    assert client.get("/api/lessons/nope").status_code == 404


def test_continue_as_a_game_against_a_bot(client):
    x = lesson("hook-isolated")
    r = client.post("/api/lessons/hook-isolated/continue", json={"actions": ["3@13"], "nonce": "z"}).json()
    status = client.get(f"/api/games/{r['game']}?token={r['token']}").json()
    assert status["seat"] == "blue" and status["terrain"] == "castle" and r["url"] == f"/join/{r['game']}/{r['token']}"
    session = client.app.state.games.get(r["game"])
    s = session.record.start
    assert s.owner(s.b.index[13]) == 0 and s.turn == 1            # from after the learner's move
    assert all(t & 15 for seat in (0, 1) for t in s.rack[seat] + s.reserve[seat] + s.aside[seat])  # real tiles
    assert s.stacks == x.start().stacks[:s.b.index[13]] + [s.stacks[s.b.index[13]]] + x.start().stacks[s.b.index[13] + 1:]
    bad = client.post("/api/lessons/hook-isolated/continue", json={"actions": [], "level": "godlike"})
    assert bad.status_code == 400 and "unknown bot level" in bad.json()["error"]


def test_rules_api(client):
    book = client.get("/api/rules").json()
    assert {t["id"] for t in book["topics"]} >= {"placement", "troops", "terrains", "end"}
    assert len(book["faq"]) >= 31
