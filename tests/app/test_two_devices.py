"""Two devices: a join link seats one device, the host never holds the guest's token, and the
app opens to the network only when the host chooses it in the page, for that game."""
from __future__ import annotations

import json
import time

import httpx
import pytest
from app_harness import SeatSocket, new_game

from toybattle.app import lan


def _key(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_the_host_never_gets_the_guests_token(client, store):
    g = new_game(client, kind="lan", human="blue")
    guest_token = store.get(g["game"]).meta["tokens"]["red"]
    assert set(g["tokens"]) == {"blue"}
    r = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}")
    assert r.status_code == 200 and guest_token not in r.text
    assert f"/invite/{g['game']}/" in r.json()["url"]
    assert guest_token not in client.get(f"/api/games/{g['game']}?token={g['tokens']['blue']}").text


def test_a_join_link_seats_the_first_device_only(client, store):
    g = new_game(client, kind="lan", human="blue")
    url = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()["url"]
    first = client.post(f"/api/games/{g['game']}/join", json={"key": _key(url)})
    assert first.status_code == 200
    assert first.json()["seat"] == "red" and first.json()["tokens"]["red"] == store.get(g["game"]).meta["tokens"]["red"]
    third = client.post(f"/api/games/{g['game']}/join", json={"key": _key(url)})  # a third device, same link
    assert third.status_code == 409 and "used" in third.json()["error"]
    assert "red" not in third.text or "tokens" not in third.json()
    # the host learns that the seat is taken, not its token
    again = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}")
    assert again.status_code == 409 and again.json()["joined"] and first.json()["tokens"]["red"] not in again.text
    assert client.post(f"/api/games/{g['game']}/join", json={"key": "x" * 24}).status_code == 409
    assert client.post(f"/api/games/{g['game']}/join", json={"key": 5}).status_code == 404


def test_the_host_can_release_the_seat_which_invalidates_the_old_device(client, store):
    g = new_game(client, kind="lan", human="blue", first="blue")
    url = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()["url"]
    old = client.post(f"/api/games/{g['game']}/join", json={"key": _key(url)}).json()["tokens"]["red"]
    device = SeatSocket(client, g["game"], old)
    # only the host may release, and only its own game's guest
    assert client.post(f"/api/games/{g['game']}/release", json={"token": old}).status_code == 403
    r = client.post(f"/api/games/{g['game']}/release", json={"token": g["tokens"]["blue"]})
    assert r.status_code == 200 and r.json() == {"released": "red"}
    assert "released" in device.until("error")["message"]
    assert device.request({"type": "concede"})["type"] == "error"  # the socket holds no seat now
    device.send({"type": "hello", "game": g["game"], "token": old})
    assert device.until("error")["message"] == "unknown game or token"
    assert client.get(f"/api/games/{g['game']}?token={old}").status_code == 404
    new_url = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()["url"]
    assert _key(new_url) != _key(url)
    assert client.post(f"/api/games/{g['game']}/join", json={"key": _key(url)}).status_code == 409
    new = client.post(f"/api/games/{g['game']}/join", json={"key": _key(new_url)}).json()["tokens"]["red"]
    assert new != old and SeatSocket(client, g["game"], new).view["seat"] == "red"


def test_only_the_host_of_a_two_device_game_opens_the_network(client):
    h = new_game(client, kind="hotseat")
    r = client.post(f"/api/games/{h['game']}/network", json={"token": h["tokens"]["blue"], "open": True})
    assert r.status_code == 403
    g = new_game(client, kind="lan")
    assert client.post(f"/api/games/{g['game']}/network", json={"token": "nope", "open": True}).status_code == 404
    assert client.post(f"/api/games/{g['game']}/network", json={"token": g["tokens"]["blue"]}).status_code == 400


@pytest.fixture
def second_address(monkeypatch):
    """This computer's "network address" for the test: another loopback address, so nothing leaves it."""
    monkeypatch.setattr(lan, "local_address", lambda: "127.0.0.2")
    return "127.0.0.2"


def test_the_network_opens_by_the_hosts_choice_serves_only_the_guest_and_closes_when_the_game_ends(
        client, second_address):
    g = new_game(client, kind="lan", human="blue", first="blue")
    host = g["tokens"]["blue"]
    before = client.get(f"/api/games/{g['game']}/invite?token={host}").json()
    assert not before["network"]["open"] and not before["reachable"] and "network" in before["network"]["warning"]
    r = client.post(f"/api/games/{g['game']}/network", json={"token": host, "open": True}).json()
    assert r["open"] and r["address"] == second_address
    base = f"http://{second_address}:{r['port']}"
    url = client.get(f"/api/games/{g['game']}/invite?token={host}").json()["url"]
    assert url.startswith(base + "/invite/")
    with httpx.Client(base_url=base, timeout=10) as guest:
        assert guest.get("/api/meta").status_code == 200 and guest.get(url[len(base):]).status_code == 200
        # what a device on the network may not do: start games, open rooms, open the network itself
        assert guest.post("/api/games", content=json.dumps({"kind": "bot"}),
                          headers={"content-type": "application/json"}).status_code == 404
        assert guest.post(f"/api/games/{g['game']}/network", json={"token": host, "open": False}).status_code == 404
        joined = guest.post(f"/api/games/{g['game']}/join", json={"key": _key(url)})
        assert joined.status_code == 200
    blue = SeatSocket(client, g["game"], host)
    assert blue.request({"type": "concede"})["type"] == "ok"
    for _ in range(100):
        if not client.get(f"/api/games/{g['game']}/invite?token={host}").json()["network"]["open"]:
            break
    assert not client.app.state.ctx.network.is_open
    # the listener stops as its server shuts down (a moment on a busy machine): then nothing answers
    with httpx.Client(base_url=base, timeout=2) as guest:
        for _ in range(50):
            try:
                guest.get("/api/meta")
            except httpx.TransportError:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the network listener still answers 10 s after the game ended")
