"""Issue 12 item 8: storage never blocks the event loop. With the games file locked by another
connection, an action waits for its write (and is acknowledged only once stored), while another
socket's ping is answered meanwhile."""
from __future__ import annotations

import sqlite3

from app_harness import SeatSocket, new_game

from toybattle.rules import parse_record


def test_a_locked_games_file_delays_only_the_action_being_stored(client, store):
    g = new_game(client, kind="hotseat", terrain="castle", first="blue")
    mover = SeatSocket(client, g["game"], g["tokens"]["blue"])
    h = new_game(client, kind="hotseat", terrain="castle")
    other = SeatSocket(client, h["game"], h["tokens"]["blue"])
    ply = mover.view["ply"]
    action = mover.view["legal"]["actions"][0]

    holder = sqlite3.connect(str(store.path), timeout=0, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the file's write lock
    try:
        mover.send({"type": "act", "action": action, "id": 1})
        # the write is now waiting for the lock; the server still answers everyone else
        assert other.request({"type": "ping", "id": 2}) == {"type": "pong", "id": 2}
        assert other.request({"type": "ping", "id": 3}) == {"type": "pong", "id": 3}
    finally:
        holder.execute("COMMIT")
        holder.close()
    # the lock is gone: the waiting write goes through, then the action is acknowledged
    while (reply := mover.recv())["type"] not in ("ok", "error"):
        pass
    assert reply == {"type": "ok", "id": 1}
    assert mover.view["ply"] > ply
    stored = store.get(g["game"])
    assert stored is not None and parse_record(stored.record).actions[:1] == [action]
