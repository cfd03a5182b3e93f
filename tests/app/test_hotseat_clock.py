"""Clocks on one screen (issue 28): a game on one screen may have a time control ({"base": s, "increment": s}); the
app keeps both clocks (the seat to act runs; a turn's end adds the increment), every view shows them, and the seat
whose clock runs out loses on time: when its late action comes, or when the clock falls with nobody acting. The
result is stored and survives a restart; a bad time control, or one for another kind of game, is one line and
makes no game. The app's clock is made a test's own clock here (LocalSession._clock), so no test waits a minute."""
from __future__ import annotations

import sqlite3
import time

import pytest
from app_harness import LOCAL, SeatSocket, new_game
from starlette.testclient import TestClient

from toybattle.assembly import build_app

CLOCK = {"base": 60, "increment": 5}


class Hands:
    """A test's own clock, read by one game's session instead of the monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def clocked_game(client) -> tuple[dict, object, Hands]:
    g = new_game(client, kind="hotseat", terrain="castle", first="blue", clock=CLOCK)
    session = client.app.state.games.get(g["game"])
    hands = Hands()
    session._clock = hands
    session.clocks.since = hands.now  # the running clock starts now on the test's clock
    return g, session, hands


def test_a_game_on_one_screen_shows_both_clocks_and_adds_the_increment_after_a_turn(client, store):
    g, _, hands = clocked_game(client)
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    c = blue.view["game"]["clock"]
    assert c["base"] == 60 and c["increment"] == 5 and c["running"] == "blue"
    assert c["left"] == {"blue": 60.0, "red": 60.0} and abs(c["at"] - time.time()) < 5
    hands.now += 10
    assert blue.request({"type": "act", "action": "draw"})["type"] == "ok"  # drawing two ends blue's turn
    c = SeatSocket(client, g["game"], g["tokens"]["red"]).view["game"]["clock"]
    assert c["running"] == "red" and c["left"] == {"blue": 55.0, "red": 60.0}  # 60 - 10 + 5
    assert store.get(g["game"]).meta["clock"]["left"] == [55.0, 60.0]
    assert store.get(g["game"]).meta["settings"]["clock"] == CLOCK  # a rematch keeps it


def test_a_late_action_loses_on_time_and_the_result_survives_a_restart(client, store):
    g, _, hands = clocked_game(client)
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    hands.now += 61
    reply = blue.request({"type": "act", "action": "draw"})
    assert reply["type"] == "error" and reply["message"] == "your clock ran out: the game is over"
    v = blue.view  # the game's end came before the refusal
    assert v["over"] and v["winner"] == "red" and v["result"] == "Red wins: blue ran out of time."
    assert v["game"]["clock"] is None  # over: no clock runs
    row = store.get(g["game"])
    assert row.over and row.winner == "red" and row.reason == "time" and row.meta["out_of_time"] == "blue"
    assert row.record.count("\n") == store.get(g["game"]).record.count("\n")  # the late action was not played
    assert client.get(f"/api/games/{g['game']}?token={g['tokens']['blue']}&lang=fr").json()["result"] == \
        "Rouge gagne : bleu n'a plus de temps."
    exported = client.get(f"/api/games/{g['game']}/record?token={g['tokens']['blue']}")
    assert exported.status_code == 200 and "# blue's clock ran out after the last action" in exported.text
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as again:  # the app started again
        status = again.get(f"/api/games/{g['game']}?token={g['tokens']['red']}").json()
        assert status["over"] and status["result"] == "Red wins: blue ran out of time."


def test_a_clock_that_falls_with_nobody_acting_ends_the_game_for_every_page(client, store):
    g, session, hands = clocked_game(client)
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    hands.now += 60.5
    client.portal.call(session._watch_flag)  # as after any change: it finds blue's time gone, and wakes at once
    v = red.until("view")["view"]
    assert v["over"] and v["winner"] == "red" and store.get(g["game"]).reason == "time"


def test_a_clock_that_falls_while_the_games_file_is_locked_ends_the_game_once_it_is_free(client, store):
    """The fault is real: another SQLite connection holds the file (as test_busy_games_file.py does)."""
    g, session, hands = clocked_game(client)
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    store._db.execute("PRAGMA busy_timeout = 200")
    other = sqlite3.connect(str(store.path), timeout=0, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        hands.now += 60.5
        client.portal.call(session._watch_flag)
        time.sleep(0.6)  # the flag fell, and its result could not be stored: the game stands as it was
        assert not session.state.over
    finally:
        other.execute("COMMIT")
        other.close()
    deadline = time.monotonic() + 10
    # tried again a second later (the session's state turns over just before the games file has it: wait for both)
    while not (session.state.over and store.get(g["game"]).reason == "time") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert session.state.over and store.get(g["game"]).reason == "time"  # stored...
    v = red.until("view")["view"]  # ...and every page told
    assert v["over"] and v["winner"] == "red"


@pytest.mark.parametrize("body, said", [
    ({"kind": "bot", "level": "random", "clock": CLOCK}, "a time control is for a game on one screen here"),
    ({"kind": "lan", "clock": CLOCK}, "a time control is for a game on one screen here"),
    ({"kind": "hotseat", "clock": {"base": 10, "increment": 5}}, "a clock is 60 to 10800 seconds"),
    ({"kind": "hotseat", "clock": {"base": 600}}, "a clock is 60 to 10800 seconds"),
    ({"kind": "hotseat", "clock": {"base": 600.5, "increment": 5}}, "a clock is 60 to 10800 seconds"),
    ({"kind": "hotseat", "clock": "10+5"}, "clock is an object"),
    ({"kind": "hotseat", "clock": [600, 5]}, "clock is an object"),
])
def test_a_bad_time_control_is_one_line_and_makes_no_game(client, store, body, said):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and list(r.json()) == ["error"] and said in r.json()["error"], r.text
    assert store.unfinished() == []


def test_without_a_time_control_nothing_changes(client, store):
    g = new_game(client, kind="hotseat")
    v = SeatSocket(client, g["game"], g["tokens"]["blue"]).view
    assert "clock" not in v["game"] and "clock" not in store.get(g["game"]).meta
    assert "clock" not in store.get(g["game"]).meta["settings"]
