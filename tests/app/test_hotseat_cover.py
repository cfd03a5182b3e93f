"""Issue 12 item 12: in a hot-seat game, while the cover screen is up (the turn passed to the other
player), the page holds no rack of either seat: the server sends the covered seat's view without
its tiles, and a seat's tiles only to a page that said hello with that seat's token (the uncover)."""
from __future__ import annotations

import random

from app_harness import SeatSocket, new_game

from toybattle.rules.troops import TROOPS, name


def _private(view: dict) -> list:
    return [view["rack"], view["laid"], view["seen"], [e for e in view["log"] if "you" in e]]


def test_the_page_holds_no_rack_behind_the_cover(client):
    g = new_game(client, kind="hotseat", terrain="castle", first="blue")
    page = SeatSocket(client, g["game"], g["tokens"]["blue"])  # one page, as a hot-seat page is
    assert page.view["rack"]  # blue, to play, sees its rack
    rng = random.Random(3)
    while page.view["actor"] == "blue":  # blue plays until the turn passes to red
        assert page.request({"type": "act", "action": rng.choice(page.view["legal"]["actions"])})["type"] == "ok"
    covered = page.view
    assert covered["actor"] == "red" and covered["seat"] == "blue" and not covered["over"]
    assert _private(covered) == [[], [], [], []], "blue's tiles stay in the page under the cover"
    assert covered["covered"] is True
    names = [name(t) for t in TROOPS]
    assert "Roxy" in names
    for line in covered["log"]:
        assert not any(n in line["text"] for n in names)
    # red uncovers: the page says hello with red's token and gets red's rack, and only red's
    page.request({"type": "ping"})
    page.send({"type": "hello", "game": g["game"], "token": g["tokens"]["red"]})
    assert page.until("view")["view"]["seat"] == "red"
    assert page.view["rack"] and not page.view.get("covered")
    # a reload of the page bound to blue while red plays: still covered
    again = SeatSocket(client, g["game"], g["tokens"]["blue"])
    assert again.view["covered"] is True and _private(again.view) == [[], [], [], []]


def test_a_bot_game_is_never_covered(client):
    g = new_game(client, kind="bot", terrain="castle", first="red", human="blue", level="random")
    me = SeatSocket(client, g["game"], g["tokens"]["blue"])
    assert me.view["rack"] and "covered" not in me.view
