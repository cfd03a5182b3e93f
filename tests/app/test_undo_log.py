"""Undo on a shared device: both seats' logs say the turn was taken back (the lines it removed were in both)."""
from __future__ import annotations

import re

from app_harness import SeatSocket, new_game


def _undone_turn(client) -> tuple[dict, list[dict]]:
    """A hot-seat game where blue placed a tile, still had a choice to make, and took the turn back;
    with blue's log just before the undo."""
    for _ in range(40):
        g = new_game(client, kind="hotseat", first="blue")
        blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
        v = blue.view
        places = [a for a in v["legal"]["actions"] if re.fullmatch(r"[0-9K]@\d+", a)]
        act = next((a for a in places if a.startswith("1@")), places[0])  # Skully leaves a draw to decide
        assert blue.request({"type": "act", "action": act})["type"] == "ok"
        if blue.view["actor"] == "blue" and blue.view["can_undo"]:
            before = list(blue.view["log"])
            assert blue.request({"type": "undo"})["type"] == "ok"
            blue.close()
            return g, before
        blue.close()
    raise AssertionError("no game offered an undoable turn")


def test_both_logs_say_the_turn_was_taken_back(client):
    g, before = _undone_turn(client)
    assert before, "the placement wrote a line to blue's log"
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    # red's page is behind the hot-seat cover while blue plays (it holds no log then): red's log is
    # the one its page gets when red uncovers
    logs = {"blue": blue.view["log"], "red": client.app.state.games.sessions[g["game"]].logs[1]}
    blue.close()
    for seat, log in logs.items():
        assert log, f"{seat}'s log is empty"
        last = log[-1]
        assert last["text"] == "Blue takes the turn back" and last["fx"] == {"undo": True}, (seat, log)
        assert ("you" in last) == (seat == "blue"), (seat, last)
    assert logs["blue"][-1]["you"] == "You take the turn back"
