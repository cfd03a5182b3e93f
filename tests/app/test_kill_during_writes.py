"""Issue 12, files: kill -9 while many games write at once (their rows group-committed together)
loses no acknowledged action: every action whose ``ok`` came back is in the games file."""
from __future__ import annotations

import signal
import threading
import time

import pytest
from test_restart import Seat, end_server, post, start_server

from toybattle.rules import parse_record
from toybattle.store import Store

GAMES = 8


def _play(base: str, game: dict, acked: list[str], stop: threading.Event) -> None:
    """Both seats of a hot-seat game, acting as fast as acknowledgements come, until the server dies."""
    try:
        seats = {s: Seat(base, game["game"], game["tokens"][s]) for s in ("blue", "red")}
        while not stop.is_set() and not seats["blue"].view["over"]:
            actor = seats[seats["blue"].view["actor"]]
            other = seats["red" if actor is seats["blue"] else "blue"]
            a = actor.view["legal"]["actions"][0]
            if actor.act(a)["type"] != "ok":
                return
            acked.append(a)  # acknowledged: it must survive the kill
            other.next("view")
    except Exception:  # the server was killed under this socket
        return


@pytest.mark.filterwarnings(r"ignore:connect\(\) must be used:DeprecationWarning")
def test_kill_9_while_many_games_write_loses_no_acknowledged_action(tmp_path):
    db = tmp_path / "games.sqlite3"
    proc, base = start_server(db)
    acked: dict[str, list[str]] = {}
    stop = threading.Event()
    try:
        games = [post(base + "/api/games", {"kind": "hotseat", "terrain": "castle", "first": "blue"})
                 for _ in range(GAMES)]
        threads = []
        for g in games:
            acked[g["game"]] = []
            threads.append(threading.Thread(target=_play, args=(base, g, acked[g["game"]], stop), daemon=True))
            threads[-1].start()
        deadline = time.monotonic() + 60
        while sum(map(len, acked.values())) < 60 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)  # mid-stream: writes of several games are in flight
        proc.wait(10)
        stop.set()
        for t in threads:
            t.join(20)
    finally:
        end_server(proc)
    assert sum(map(len, acked.values())) >= 60
    st = Store(db)
    try:
        for game, actions in acked.items():
            row = st.get(game)
            assert row is not None
            kept = [a for a in parse_record(row.record).actions if not a.startswith("pick:")]
            assert kept[:len(actions)] == actions, game
    finally:
        st.close()
