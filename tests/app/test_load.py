"""Under load: bots think outside the server's process, and finished games leave memory."""
from __future__ import annotations

import asyncio
import gc
import os
import random
import weakref

import pytest
from app_harness import SeatSocket, new_game, play_hotseat

from toybattle.app.pool import BotPool
from toybattle.rules import State, observation


@pytest.fixture
def pool():
    p = BotPool()
    yield p
    p.shutdown()


def test_a_bot_thinks_in_another_process_and_gets_only_its_observation(pool):
    async def run() -> tuple[int, int, int]:
        s = State.new("castle", first_game=False, first=None, orders=None, seed=3)
        while s.is_chance:
            s.resolve_chance(random.Random(1))
        obs = observation(s, s.actor)
        a = await pool.choose("easy", obs)
        return await pool.worker_pid(), a, obs.legal_actions().count(a)

    pid, _, legal = asyncio.run(run())
    assert pid != os.getpid()
    assert legal == 1


def test_the_server_plays_its_bot_through_the_pool(client, monkeypatch):
    sent = []
    pool = client.app.state.games.pool  # the app's own
    real = pool.choose

    async def watch(level, obs, budget_s=None):
        sent.append((level, obs.copy()))
        return await real(level, obs, budget_s)

    monkeypatch.setattr(pool, "choose", watch)
    g = new_game(client, kind="bot", human="blue", first="red", level="easy")
    me = SeatSocket(client, g["game"], g["tokens"]["blue"])
    while me.view["actor"] != "blue":
        me.recv()
    assert sent and sent[0][0] == "easy"
    for _, obs in sent:  # the job carries the bot's observation: Blue's tiles unknown
        assert not any(t & 15 for t in obs.rack[0] + obs.laid[0] + obs.reserve[0] + obs.aside[0])


def test_a_finished_game_is_dropped_from_memory_once_its_sockets_close(client):
    games = client.app.state.games
    g = new_game(client, kind="hotseat", terrain="castle")
    session = weakref.ref(games.sessions[g["game"]])
    blue, red = play_hotseat(client, g, random.Random(4))
    assert blue.view["over"]
    assert g["game"] in games.sessions  # still watched
    blue.close()
    red.close()
    client.get("/api/meta")  # let the server notice the closed sockets
    for _ in range(50):
        if g["game"] not in games.sessions:
            break
        client.get("/api/meta")
    assert g["game"] not in games.sessions
    gc.collect()
    assert session() is None, gc.get_referrers(session())
    # the store still has it: its status opens, and is dropped again after the request
    r = client.get(f"/api/games/{g['game']}?token={g['tokens']['blue']}").json()
    assert r["over"]
    client.get("/api/meta")
    assert g["game"] not in games.sessions


def test_an_unfinished_game_stays_while_nobody_watches(client):
    games = client.app.state.games
    g = new_game(client, kind="hotseat", terrain="castle")
    SeatSocket(client, g["game"], g["tokens"]["blue"]).close()
    client.get("/api/meta")
    assert g["game"] in games.sessions
