"""A hostile peer on the real transport: ``python wire_attacks.py SCENARIO RELAY DB [ARGS]`` opens a room on
the mailbox as the attacker (a raw ``Link``: it sends whatever it likes), lets an honest ``OnlineGame`` join it
(a random bot, games file DB) and prints one JSON line: what the honest side ended with.

Scenarios: ``forfeit_notice`` (a notice naming the honest seat with a 100 kB reason), ``own_forfeit`` (the
attacker concedes by notice, with a reason full of control characters), ``overwrite`` (the host's game id
is a game the joiner already stored), ``bad_id`` (a game id that is not an id), ``pad`` (a chained message
with an extra 200 kB field), ``stall`` (silent once play begins; ARGS: the joiner's silence choice),
``withhold`` (plays to the end, then never opens its tiles), ``comebacks`` (a mid-game hello, six times
over), ``fuzz N SEED`` (N malformed messages over
one link, one honest game per message)."""
from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from toybattle.online import transport
from toybattle.online.game import BotPlayer, OnlineGame, Options, SessionError
from toybattle.online.mailbox import client
from toybattle.online.protocol import Match, Secrets, Setup
from toybattle.store import GameRow, Store

LIMITS = {"move_limit": 3.0, "reply_limit": 2.0}


class Attacker:
    """The hostile host: a raw link and, to look honest until it strikes, its own Match."""

    def __init__(self, link: client.Link, setup: Setup, seat: int = 0, secrets: Secrets | None = None):
        self.link = link
        self.match = Match(setup, seat, secrets or Secrets.generate("attacker"))

    def hello(self, **over: Any) -> None:
        self.link.send({"k": "hello", "resume": None, "setup": vars(self.match.setup), "hashes": [], **over})

    def raw(self, data: bytes) -> None:
        self.link.send_bytes(data)

    def send_own(self, action: int | None = None) -> str:
        text = self.match.make(action)
        self.match.accept(text, self.match.me)
        self.link.send({"k": "msg", "m": text})
        return text

    async def take(self) -> dict:
        obj = await self.link.recv(30)
        while obj.get("k") == "here":  # the honest side's presence: nothing to answer
            obj = await self.link.recv(30)
        if obj.get("k") == "msg":
            self.match.accept(obj["m"], 1 - self.match.me)
        return obj

    async def play_until(self, stop: str, rng: random.Random) -> None:
        """Play honestly (random legal actions) until this side must send ``stop`` (play or open)."""
        m = self.match
        while not m.finished:
            kind = m.my_move()
            if kind == stop:
                return
            if kind:
                self.send_own(rng.choice(m.mine().legal_actions()) if kind == "play" else None)
            else:
                await self.take()


async def against_a_hostile_host(relay: str, db: str, game_id: str, strike: Callable[[Attacker], Awaitable[None]],
                                 limits: dict[str, float]) -> dict:
    """The attacker hosts (blue), an honest random bot joins (red); ``strike(attacker)`` misbehaves once
    play is under way. Returns the honest side's result and its stored row."""
    store = Store(db)
    codes: asyncio.Queue[str] = asyncio.Queue()
    hosting = asyncio.ensure_future(client.host(relay, codes.put_nowait))
    code = await codes.get()
    game = OnlineGame(Options(relay=relay, seed="victim", **limits), BotPlayer("random", "victim"), lambda _: None,
                      store=store)
    victim = asyncio.ensure_future(game.join(code))
    a = Attacker(await hosting, Setup(game_id, "castle", False, 0), 0, Secrets.generate("attacker"))
    a.hello()
    await a.link.recv(30)  # the victim's hello
    try:
        await strike(a)
        result = await asyncio.wait_for(victim, 60)
    finally:
        await a.link.close()
    row = store.get(game.local_id or "")
    store.close()
    return {"result": result, "row": row}


async def _victim(code: str, relay: str, store: Store, **opts: Any) -> dict:
    game = OnlineGame(Options(relay=relay, seed="victim", **opts), BotPlayer("random", "victim"), lambda _: None,
                store=store)
    try:
        result = {"outcome": "result", **await game.join(code)}
    except SessionError as e:
        result = {"outcome": "session", "line": str(e)}
    return {**result, "local": game.local_id}


async def _pair(relay: str, setup: Setup, store: Store, seat: int = 0,
                secrets: Secrets | None = None, **opts: Any) -> tuple[Attacker, asyncio.Task]:
    codes: asyncio.Queue[str] = asyncio.Queue()
    hosting = asyncio.ensure_future(client.host(relay, codes.put_nowait))
    code = await codes.get()
    victim = asyncio.ensure_future(_victim(code, relay, store, **opts))
    return Attacker(await hosting, setup, seat, secrets), victim


def _rows(store: Store) -> list[dict]:
    """Every game in the file, finished or not (read straight from the file: the app needs no such query)."""
    with sqlite3.connect(str(store.path)) as db:
        ids = [i for (i,) in db.execute("SELECT id FROM games ORDER BY id")]
    rows = [r for r in map(store.get, ids) if r is not None]
    return [{"id": r.id, "kind": r.kind, "over": r.over, "winner": r.winner, "reason": r.reason,
             "record": r.record, "meta_keys": sorted(r.meta)} for r in rows]


async def scenario(name: str, relay: str, db: str, args: list[str]) -> dict:
    store = Store(db)
    seat = 1 if name == "withhold" else 0
    setup = Setup("a1b2c3d4e5f60718", "castle", False, seat)
    opts: dict[str, Any] = dict(LIMITS)
    if name == "overwrite":
        store.put(GameRow(id=setup.game, kind="bot", record="draw", meta={"mine": True}))
    if name == "bad_id":
        setup = Setup("../" + "x" * 5000, "castle", False, 0)
    if name == "stall":
        opts["when_silent"] = args[0]
    a, victim = await _pair(relay, setup, store, seat=seat, **opts)
    a.hello()
    if name == "bad_id":
        result = await asyncio.wait_for(victim, 60)
        return {**result, "rows": _rows(store)}
    await a.link.recv(30)  # the victim's hello
    rng = random.Random(7)
    if name == "forfeit_notice":
        a.send_own()
        await a.take()
        a.link.send({"k": "forfeit", "seat": 1, "reason": "you cheated " + "!" * 250})
    elif name == "own_forfeit":
        a.send_own()
        await a.take()
        a.link.send({"k": "forfeit", "seat": 0, "reason": "I give up\x1b[2J\n" + "y" * 250})
    elif name == "overwrite":
        a.send_own()
        await a.take()
        await a.link.close()
    elif name == "comebacks":  # says it came back, again and again: each would cost the victim a sync
        a.send_own()
        await a.take()
        for _ in range(6):
            a.link.send({"k": "hello", "resume": setup.game, "setup": None, "hashes": []})
    elif name == "pad":
        text = a.match.make()
        msg = json.loads(text)
        msg["pad"] = "z" * 1000
        a.link.send({"k": "msg", "m": json.dumps(msg, sort_keys=True, separators=(",", ":"))})
    elif name == "stall":
        a.send_own()
        await a.take()
        a.send_own()  # event 1: the game begins, then the attacker falls silent
        result = await victim
        return {**result, "rows": _rows(store)}
    elif name == "withhold":
        await a.play_until("open", rng)
        result = await victim
        return {**result, "rows": _rows(store), "attacker_log": len(a.match.log)}
    result = await asyncio.wait_for(victim, 60)
    return {**result, "rows": _rows(store)}


def malformed(rng: random.Random, valid: list[dict]) -> bytes:
    """One malformed wire message: raw junk, a wrong JSON shape, or a valid message mutated."""
    def junk_value(depth: int = 0) -> Any:
        makers = [lambda: None, lambda: True, lambda: rng.randint(-2**70, 2**70), lambda: rng.random() * 1e300,
                  lambda: "".join(chr(rng.randrange(0, 0x2FFF)) for _ in range(rng.randrange(40))),
                  lambda: "x" * rng.choice((10, 5000, 5000, 300_000)),
                  lambda: rng.choice(["hello", "msg", "sync", "forfeit", "0" * 64])]
        if depth < 4:
            makers += [lambda: [junk_value(depth + 1) for _ in range(rng.randrange(4))],
                       lambda: {str(junk_value(depth + 1))[:8]: junk_value(depth + 1) for _ in range(rng.randrange(4))}]
        return rng.choice(makers)()

    kind = rng.randrange(7)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        n = rng.choice((50, 1000, 100_000))
        return (rng.choice("[{") * n if rng.random() < 0.5 else '{"k":' * n).encode()
    if kind == 2:
        return json.dumps(junk_value()).encode()
    if kind == 3:
        return b"x" * rng.choice((1_100_000, 2_000_000))  # just over the 1 MiB limit
    base = dict(rng.choice(valid))
    key = rng.choice(sorted(base) + ["extra"])
    if kind == 4:
        base[key] = junk_value()
    elif kind == 5:
        base.pop(key, None)
    else:
        inner = base.get("m")
        if isinstance(inner, str):
            msg = json.loads(inner)
            field = rng.choice(sorted(msg) + ["pad"])
            msg[field] = junk_value()
            base["m"] = json.dumps(msg, sort_keys=True, separators=(",", ":"))
        else:
            base[key] = [junk_value() for _ in range(rng.randrange(5))]
    return json.dumps(base).encode()


async def fuzz(relay: str, n: int, seed: int) -> dict:
    """``n`` honest games over ONE link, each met by one malformed message: as the host's hello, or as
    the chained message, sync or notice that follows a good hello. Every game must end in a result or
    a one-line SessionError; anything else is counted as an uncaught exception."""
    rng = random.Random(seed)
    codes: asyncio.Queue[str] = asyncio.Queue()
    hosting = asyncio.ensure_future(client.host(relay, codes.put_nowait))
    joining = asyncio.ensure_future(client.join(relay, await codes.get()))
    theirs, mine = await hosting, await joining
    outcomes: dict[str, int] = {}
    uncaught: list[str] = []
    for i in range(n):
        setup = Setup(f"fuzz{i}", "castle", False, 0)
        attacker = Attacker(theirs, setup)
        game = OnlineGame(Options(relay=relay, seed=f"v{i}", **LIMITS), BotPlayer("random", f"v{i}"), lambda _: None,
                    store=Store(":memory:"))
        task = asyncio.ensure_future(_run_on(game, mine))
        commit = attacker.match.make()
        valid = [{"k": "msg", "m": commit}, {"k": "sync", "msgs": [commit]},
                 {"k": "forfeit", "seat": 0, "reason": "x"},
                 {"k": "hello", "resume": None, "setup": vars(setup), "hashes": []}]
        if rng.random() < 0.5:
            attacker.raw(malformed(rng, valid[3:]))
        else:
            attacker.hello()
            attacker.raw(malformed(rng, valid))
        try:
            outcome = await asyncio.wait_for(task, 30)
        except Exception as e:
            uncaught.append(f"{i}: {type(e).__name__}: {e}"[:300] + traceback.format_exc()[-600:])
            outcome = "uncaught"
        game.store.close()  # its writer thread ends with it
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        await _drain(theirs, mine, i)
    return {"n": n, "outcomes": outcomes, "uncaught": uncaught}


async def _run_on(game: OnlineGame, link: client.Link) -> str:
    """An honest joiner's game over an existing link; the outcome's kind (a reason is required)."""
    try:
        result = await game.join_on(link)
    except SessionError as e:
        line = str(e)
        assert line and "\n" not in line and "Traceback" not in line, line
        return "session"
    assert result["reason"] in ("forfeit", "abandonment") and result["detail"], result
    return "forfeit"


async def _drain(theirs: client.Link, mine: client.Link, i: int) -> None:
    """Both sides read up to a marker, so nothing of this game reaches the next one."""
    async def upto_mark(link: client.Link) -> None:
        while True:
            try:
                obj = await link.recv(30)
            except transport.Garbled:
                continue  # a malformed leftover: skip it
            if obj == {"k": "mark", "i": i}:
                return

    theirs.send({"k": "mark", "i": i})
    mine.send({"k": "mark", "i": i})
    await asyncio.gather(upto_mark(theirs), upto_mark(mine))


def main() -> None:
    name, relay, db, *args = sys.argv[1:]

    async def go() -> dict:
        if name == "fuzz":
            return await fuzz(relay, int(args[0]), int(args[1]))
        return await scenario(name, relay, db, args)

    print(json.dumps(asyncio.run(go()), default=str), flush=True)


if __name__ == "__main__":
    main()
