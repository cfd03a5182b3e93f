"""The game review in the app (toybattle.review.web): a finished bot game's review is started once, its progress
polled, the review is analyse()'s on the same record, kept with the game and answered at once after (a restart
too); a wrong token, an unknown game and an unfinished game each get one line and change nothing; an online game is
reviewed for this side only, from its own information; in the browser's worker the review runs in process and
lets the event loop run between decisions."""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))  # the app's test harness
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "online"))  # two peers in process

warnings.filterwarnings("ignore", message=".*httpx.*")
from app_harness import LOCAL, OPEN, SeatSocket, new_game  # noqa: E402
from online_harness import play_local  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from toybattle.app.pool import BotPool  # noqa: E402
from toybattle.app.session import LocalSession  # noqa: E402
from toybattle.assembly import build_app  # noqa: E402
from toybattle.online import persist  # noqa: E402
from toybattle.review import Review, analyse  # noqa: E402
from toybattle.review.web import EFFORTS, Job, run_review  # noqa: E402
from toybattle.rules import observation, parse_position, parse_record  # noqa: E402
from toybattle.store import GameRow, Store  # noqa: E402

QUICK = EFFORTS["quick"]


def play_to_the_end(client, seed: int) -> tuple[dict, SeatSocket]:
    """A game against the random bot on Castle Field, blue playing random legal actions until it ends."""
    g = new_game(client, kind="bot", terrain="castle", human="blue", level="random")
    me = SeatSocket(client, g["game"], g["tokens"]["blue"])
    rng = random.Random(seed)
    for _ in range(400):
        while not me.view["over"] and me.view["actor"] != "blue":
            me.until("view")
        if me.view["over"]:
            break
        assert me.request({"type": "act", "action": rng.choice(me.view["legal"]["actions"])})["type"] == "ok"
    assert me.view["over"]
    return g, me


def poll(client, game: str, token: str, limit_s: float = 120) -> dict:
    seen = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        r = client.get(f"/api/review/{game}?token={token}")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["state"] == "done":
            body["progress"] = seen
            return body
        assert body["state"] == "working" and 0 <= body["done"] <= body["total"]
        seen.append((body["done"], body["total"]))
        time.sleep(0.1)
    raise AssertionError(f"the review did not finish: {seen[-3:]}")


@pytest.mark.slow
def test_a_finished_bot_games_review_is_analyses_and_is_kept(app):
    client, store = app
    g, _ = play_to_the_end(client, 4)
    game, token = g["game"], g["tokens"]["blue"]
    assert "review" not in store.get(game).meta
    first = client.post(f"/api/review/{game}", json={"token": token, "effort": "quick"})
    assert first.status_code == 200, first.text
    assert first.json()["state"] == "working"
    again = client.post(f"/api/review/{game}", json={"token": token, "effort": "quick"})  # not started twice
    assert again.json()["state"] in ("working", "done")
    done = poll(client, game, token)
    assert done["progress"] == sorted(done["progress"])  # the progress only goes up
    page = done["review"]
    row = store.get(game)
    kept = row.meta["review"]
    direct = analyse(parse_record(row.record), effort=QUICK)
    assert kept == direct.to_json()  # the same figures as analyse() on the same record, seed and effort
    assert Review.from_json(kept).chart == direct.chart
    n = len(direct.turns)
    assert n > 4 and len(page["chart"]["blue"]) == len(page["chart"]["red"]) == n
    assert page["chart"] == kept["chart"] and page["turns"] == kept["turns"]
    assert {d["seat"] for d in page["decisions"]} == {"blue", "red"}  # a bot game: both seats reviewed
    winner = row.winner
    assert page["chart"][winner][-1] == 1.0 and page["winner"] == winner and page["how"]
    # what every decision played, in the game's words (the log's sentences), from the deciding seat's observation
    assert all(d["played_words"]["text"] for d in page["decisions"])
    for d in page["decisions"]:  # every reason said in words, no message left as data
        assert all(isinstance(w, str) and w and "{" not in w for w in d["why"])
        assert "position" not in d
    for seat in ("blue", "red"):
        for k in page["costliest"][seat]:
            d = page["decisions"][k]
            assert d["why"] and d["board"]["seat"] == seat and d["best_words"]["text"]
    # kept: a second POST answers the review at once, from the games file
    t = time.monotonic()
    now = client.post(f"/api/review/{game}", json={"token": token})
    assert now.status_code == 200 and now.json()["state"] == "done"
    assert now.json()["review"]["chart"] == page["chart"]
    assert time.monotonic() - t < 5
    assert store.get(game).meta["review"] == kept and store.get(game).record == row.record
    fr = client.get(f"/api/review/{game}?token={token}&lang=fr").json()["review"]
    assert fr["how"] != page["how"]


@pytest.mark.slow
def test_a_new_app_answers_the_kept_review_at_once(tmp_path):
    """After a restart, the review kept in the games file is answered by the first POST (nothing is weighed)."""
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as client:
        g, _ = play_to_the_end(client, 8)
        game, token = g["game"], g["tokens"]["blue"]
        client.post(f"/api/review/{game}", json={"token": token, "effort": "quick"})
        chart = poll(client, game, token)["review"]["chart"]
        for sock in list(OPEN):
            sock.close()
    store.close()
    store = Store(path)
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as client:
        r = client.post(f"/api/review/{game}", json={"token": token})
        assert r.json()["state"] == "done" and r.json()["review"]["chart"] == chart
    store.close()


def one_line(r) -> str:
    body = r.json()
    assert set(body) <= {"error", "said"} and isinstance(body["error"], str)
    assert body["error"] and "\n" not in body["error"] and "Traceback" not in body["error"]
    assert r.status_code < 500
    return body["error"]


def test_refusals_are_one_line_and_change_nothing(app):
    client, store = app
    g = new_game(client, kind="bot", terrain="castle", human="blue", level="random")
    game, token = g["game"], g["tokens"]["blue"]
    before = store.get(game)
    assert "over" in one_line(client.post(f"/api/review/{game}", json={"token": token}))  # unfinished
    assert one_line(client.post(f"/api/review/{game}", json={"token": "x" * 24})) == "unknown game or token"
    assert one_line(client.post("/api/review/nosuchgame", json={"token": token})) == "unknown game or token"
    assert one_line(client.get(f"/api/review/{game}?token=wrong")) == "unknown game or token"
    assert one_line(client.get(f"/api/review/{game}?token={token}"))  # never asked for
    assert one_line(client.post(f"/api/review/{game}", content=b"[1,"))
    assert one_line(client.post(f"/api/review/{game}", json={"token": token, "effort": "huge"}))
    after = store.get(game)
    assert (after.record, after.meta, after.over) == (before.record, before.meta, before.over)
    assert "review" not in json.dumps(after.meta)


def test_an_unfinished_game_is_refused_in_french_too(app):
    client, _ = app
    g = new_game(client, kind="bot", terrain="castle", human="blue", level="random")
    r = client.post(f"/api/review/{g['game']}?lang=fr", json={"token": g["tokens"]["blue"]})
    assert one_line(r) == "une partie s'analyse une fois terminée"


@pytest.mark.slow
def test_an_online_sides_review_uses_only_that_sides_information(app):
    """A finished online game stored by this app (one peer's history and secrets): its review weighs only this
    seat's decisions, and every position it keeps hides the other side's rack as play did."""
    client, store = app
    ms = play_local("castle", 5)
    me = 1
    m = ms[me]
    assert m.finished and m.public is not None and m.public.over
    local, token = "online-review5", "t" * 24
    asyncio.run(persist.save(store, m, local, "ws://127.0.0.1:1/v1", {"app": {"token": token}}))
    assert one_line(client.post(f"/api/review/{local}", json={"token": "x" * 24})) == "unknown game or token"
    r = client.post(f"/api/review/{local}", json={"token": token, "effort": "quick"})
    assert r.status_code == 200, r.text
    page = poll(client, local, token)["review"]
    kept = store.get(local).meta["review"]
    assert kept["viewer"] == "red" and page["viewer"] == "red"
    acts = [t for t in m.log if '"t":"act"' in t.replace(" ", "")]
    mine = [t for t in acts if f'"by":{me}' in t.replace(" ", "")]
    assert len(kept["decisions"]) == len(mine) > 3
    assert {d["seat"] for d in kept["decisions"]} == {"red"}
    assert kept["costliest"]["blue"] == []
    assert len(kept["chart"]["blue"]) == len(kept["chart"]["red"]) == len(kept["turns"])
    secrets_of_blue = ms[0].secrets.troops
    for d in kept["decisions"]:
        if d["position"] is not None:
            obs = parse_position(d["position"])
            assert observation(obs, me) == obs  # holds nothing red may not know
            assert all(not t & 15 for t in obs.rack[0] if t not in obs.public[0])
    assert secrets_of_blue  # blue's faces exist, and none of the above showed them
    # kept: a second POST answers at once
    assert client.post(f"/api/review/{local}", json={"token": token}).json()["state"] == "done"


@pytest.mark.slow
def test_in_the_browsers_worker_the_review_runs_in_process_and_lets_the_loop_run(tmp_path, blunder):
    """With no worker processes (BotPool.in_process, as in the browser), the review is made in this process, the
    event loop gets a turn between decisions, and the review is analyse()'s."""
    store = Store(tmp_path / "games.sqlite3")
    row = GameRow(id="inproc1", kind="hotseat", record=blunder.record.text(),
                  meta={"tokens": {"blue": "b" * 24, "red": "r" * 24}, "settings": {"kind": "hotseat"}})
    store.put(row)
    pool = BotPool(in_process=True)

    async def go() -> tuple[Job, list[int]]:
        session = LocalSession(row, store, pool, bot_delay=0)
        assert session.over
        job = Job()
        seen: list[int] = []
        task = asyncio.get_running_loop().create_task(run_review(pool, session, 0, job, "review", QUICK))
        while not task.done():
            seen.append(job.done)  # this runs only when the review gives the loop a turn
            await asyncio.sleep(0)
        await task
        return job, seen

    job, seen = asyncio.run(go())
    assert not job.error and job.review is not None
    assert job.review == analyse(blunder.record, effort=QUICK).to_json()
    assert len(set(seen)) >= job.total // 2 > 1  # the loop ran between the decisions, not only at the end
    assert store.get("inproc1").meta["review"] == job.review
    store.close()
