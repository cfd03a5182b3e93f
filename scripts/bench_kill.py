"""Benchmark for docs/benchmarks.md (issue 26): kill -9 at random moments loses no acknowledged action.

Runs ROUNDS rounds on one games file (its state accumulates from round to round). Each round starts
``python -m toybattle serve --no-browser --port 0 --db PATH``, where PATH is the games file itself in half
the rounds, and in the other half a symlink to it (in another directory, another name) or the file's name
through a symlinked directory, in turn. It creates a few new hot-seat games and reconnects to a few
unfinished games of earlier rounds, plays both seats of every game over the websocket as fast as
acknowledgements come (a seeded random legal action each time), and sends SIGKILL to the server after a
seeded random delay. Then it opens the games file on its real path (``toybattle.store.Store``) and
checks, for every game, that every acknowledged action (an ``ok`` came back for it), from this round and
all earlier ones, is in the game's stored record, in order (``rules.parse_record``, ``pick:`` actions
left out, as tests/app/test_kill_during_writes.py does), and that every game whose creation was answered
is stored. A server that will not start (for instance, refused by the writer lock of the killed one) is
counted and started again.

Prints one line per round and a JSON summary; exits 1 if anything acknowledged was lost.

    .venv/bin/python scripts/bench_kill.py [ROUNDS] [SEED]
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from toybattle.rules import parse_record
from toybattle.store import Store

NEW_GAMES = 6  # new hot-seat games per round
OLD_GAMES = 4  # at most this many unfinished games of earlier rounds, reconnected to
TERRAINS = ("castle", "clouds", "pool", "jungle")
DELAY = (0.05, 3.0)  # seconds of play before the kill (uniform, seeded)
START_TRIES = 5


class Refused(Exception):
    """The server exited before it was ready (its output says why)."""


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "toybattle", "serve", "--no-browser", "--port", "0", "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    assert proc.stdout is not None
    out = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        out.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", line or "")
        if m:
            threading.Thread(target=_drain, args=(proc,), daemon=True).start()
            return proc, m.group(1)
        if not line and proc.poll() is not None:
            break
    end_server(proc)
    raise Refused("".join(out).strip() or f"exit {proc.returncode}")


def _drain(proc: subprocess.Popen) -> None:
    assert proc.stdout is not None
    with contextlib.suppress(ValueError, OSError):
        for _ in proc.stdout:
            pass


def end_server(proc: subprocess.Popen) -> None:
    """Whatever is left of the server's process group (it has a session of its own)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


class Seat:
    def __init__(self, base: str, game: str, token: str):
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(base.replace("http", "ws") + "/ws", open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        self.view: dict | None = None
        if self.next("welcome")["type"] != "welcome" or self.next("view")["type"] != "view":
            raise RuntimeError(f"no welcome in game {game}")

    def next(self, kind: str) -> dict:
        while True:
            m = json.loads(self.ws.recv(timeout=20))
            if m["type"] == "view":
                self.view = m["view"]
            if m["type"] == kind or m["type"] == "error":
                return m

    def act(self, action: str) -> dict:
        self.ws.send(json.dumps({"type": "act", "action": action}))
        return self.next("ok")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()


class Game:
    def __init__(self, gid: str, tokens: dict[str, str], created: int):
        self.id = gid
        self.tokens = tokens
        self.created = created  # the round that created it
        self.expected: list[str] = []  # acknowledged (or found stored at a round's start), in order
        self.acked_this_round = 0
        self.errors: list[str] = []
        self.over = False


def play(base: str, game: Game, rng: random.Random, stop: threading.Event) -> None:
    """Both seats of a hot-seat game, acting as fast as acknowledgements come, until the server dies."""
    seats: dict[str, Seat] = {}
    try:
        seats = {s: Seat(base, game.id, game.tokens[s]) for s in ("blue", "red")}
        while not stop.is_set():
            view = seats["blue"].view
            assert view is not None
            if view["over"]:
                game.over = True
                return
            actor = seats[view["actor"]]
            other = seats["red" if view["actor"] == "blue" else "blue"]
            assert actor.view is not None
            a = rng.choice(actor.view["legal"]["actions"])
            reply = actor.act(a)
            if reply["type"] != "ok":
                game.errors.append(json.dumps(reply)[:200])
                return
            game.expected.append(a)  # acknowledged: it must survive the kill
            game.acked_this_round += 1
            other.next("view")
    except Exception:  # the server was killed under this socket
        return
    finally:
        for s in seats.values():
            s.close()


def stored_actions(st: Store, gid: str) -> list[str] | None:
    row = st.get(gid)
    if row is None:
        return None
    return [a for a in parse_record(row.record).actions if not a.startswith("pick:")]


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 26
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="bench_kill_"))
    (tmp / "data").mkdir()
    real = tmp / "data" / "games.sqlite3"
    (tmp / "elsewhere").mkdir()
    link = tmp / "elsewhere" / "link.sqlite3"
    link.symlink_to(real)
    (tmp / "linked").symlink_to(tmp / "data", target_is_directory=True)
    paths = {"real": str(real), "symlink": str(link), "symlinked_dir": str(tmp / "linked" / real.name)}
    games: list[Game] = []
    totals = {"rounds": 0, "acknowledged": 0, "lost": 0, "games_lost": 0, "refused_restarts": 0,
              "errors": 0, "rounds_via_symlink": 0, "rounds_via_symlinked_dir": 0, "games": 0,
              "games_finished": 0, "zero_ack_rounds": 0}
    bad: list[str] = []
    refusals: list[str] = []
    print(f"games file {real}; seed {seed}", flush=True)
    for r in range(1, rounds + 1):
        way = "real" if r % 2 else ("symlink" if r % 4 == 2 else "symlinked_dir")
        delay = rng.uniform(*DELAY)
        t0 = time.monotonic()
        for attempt in range(START_TRIES):
            try:
                proc, base = start_server(paths[way])
                break
            except Refused as e:
                totals["refused_restarts"] += 1
                refusals.append(f"round {r} try {attempt + 1}: {str(e).splitlines()[-1]}")
                print(f"  round {r}: restart refused: {str(e).splitlines()[-1]}", flush=True)
                time.sleep(1)
        else:
            print(f"round {r}: the server would not start", flush=True)
            return 2
        startup = time.monotonic() - t0
        stop = threading.Event()
        threads = []
        playing: list[Game] = []
        try:
            with httpx.Client(timeout=10) as client:
                for _ in range(NEW_GAMES):
                    body = {"kind": "hotseat", "terrain": rng.choice(TERRAINS), "first": rng.choice(("blue", "red"))}
                    g = client.post(base + "/api/games", json=body).raise_for_status().json()
                    games.append(Game(g["game"], g["tokens"], r))  # answered: it must be stored
                    playing.append(games[-1])
            unfinished = [g for g in games if not g.over and g.created < r]
            playing += rng.sample(unfinished, min(OLD_GAMES, len(unfinished)))
            for g in playing:
                g.acked_this_round = 0
                t = threading.Thread(target=play, args=(base, g, random.Random(rng.random()), stop), daemon=True)
                threads.append(t)
                t.start()
            time.sleep(delay)
            os.kill(proc.pid, signal.SIGKILL)  # kill -9 the server, whatever it is doing
            proc.wait(10)
        finally:
            stop.set()
            end_server(proc)
        for t in threads:
            t.join(30)
        acked = sum(g.acked_this_round for g in playing)
        errors = sum(len(g.errors) for g in playing)
        for g in playing:
            for e in g.errors:
                bad.append(f"round {r} game {g.id}: error reply {e}")
            g.errors.clear()
        lost = games_lost = 0
        st = Store(real)
        try:
            for g in games:
                kept = stored_actions(st, g.id)
                if kept is None:
                    games_lost += 1
                    bad.append(f"round {r} ({way}): game {g.id} (created round {g.created}) is not in the file")
                    continue
                prefix = next((i for i, (a, b) in enumerate(zip(g.expected, kept, strict=False)) if a != b),
                              min(len(g.expected), len(kept)))
                if prefix < len(g.expected):  # kept[:len(expected)] != expected
                    missing = len(g.expected) - prefix
                    lost += missing
                    bad.append(f"round {r} ({way}): game {g.id}: acknowledged {len(g.expected)}, stored {len(kept)}, "
                               f"first difference at action {prefix + 1} ({missing} not kept in order)")
                # what the file holds is where the game resumes (an action stored but not yet acknowledged
                # at the kill is part of it)
                g.expected = kept
                row = st.get(g.id)
                g.over = bool(row and row.over)
        finally:
            st.close()
        totals["rounds"] += 1
        totals["acknowledged"] += acked
        totals["lost"] += lost
        totals["games_lost"] += games_lost
        totals["errors"] += errors
        totals["zero_ack_rounds"] += acked == 0
        if way == "symlink":
            totals["rounds_via_symlink"] += 1
        elif way == "symlinked_dir":
            totals["rounds_via_symlinked_dir"] += 1
        print(f"round {r:2d} via {way:13s} start {startup:4.1f} s, kill after {delay:4.2f} s: "
              f"{len(playing):2d} games, {acked:4d} acknowledged, {lost} lost, {games_lost} games lost, "
              f"{errors} errors", flush=True)
    totals["games"] = len(games)
    totals["games_finished"] = sum(g.over for g in games)
    print(json.dumps({**totals, "seed": seed, "problems": bad, "refusals": refusals}, indent=1))
    return 1 if totals["lost"] or totals["games_lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
