"""Benchmark for docs/benchmarks.md (issue 26): every cheat ends in a forfeit recorded on the honest side.

Three sets, all on the real transport (a local magic-wormhole mailbox, real processes or the real Link):
- the test suite's catalogue of cheats (tests/online/online_cheats.py): an honest host against a cheating
  joiner, both `toybattle host/join` processes, several seeds each (a cheat comes up only when its moment
  does: a game where it never did is counted apart);
- the hostile peer's scenarios that are cheats (tests/online/wire_attacks.py: a false forfeit notice, a
  padded message, coming back again and again, withholding the final opening, stalling);
- N honest games each met, after a good hello, by one malformed message (tests/online/wire_attacks.py's
  generator: deep nesting, huge sizes, wrong types, non-ASCII, garbage bytes).
For each game, the honest side's games file is read: over, won by the honest seat, for a forfeit (or an
abandonment the honest side claimed). Prints one JSON object; "unfinished" must be 0.

Usage: python scripts/bench_cheats.py [SEEDS_PER_CHEAT] [FUZZ_GAMES] [SEED]   (defaults 8 1000 26)
"""
from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ONLINE = HERE.parent / "tests" / "online"
sys.path.insert(0, str(ONLINE))

from online_cheats import CHEATS  # noqa: E402
from wire_attacks import Attacker, _drain, malformed  # noqa: E402

from conftest import LIMITS, Peer, start_mailbox  # noqa: E402 (the online tests' own harness)
from toybattle.online.game import BotPlayer, OnlineGame, Options, SessionError  # noqa: E402
from toybattle.online.mailbox import client  # noqa: E402
from toybattle.online.protocol import Setup  # noqa: E402
from toybattle.store import Store  # noqa: E402

TERRAIN = {"laid_play": "battlefield"}  # the tank's pick exists only there
BOT = ["--bot", "random"]


def _row(db: Path) -> dict | None:
    try:
        with sqlite3.connect(db) as c:
            found = c.execute("SELECT over, winner, reason FROM games").fetchone()
    except sqlite3.Error:
        return None
    return None if found is None else {"over": bool(found[0]), "winner": found[1], "reason": found[2]}


def _forfeit(row: dict) -> bool:
    return " forfeits: " in (row["reason"] or "")  # the stored reason of a forfeit is its sentence


def catalogue(relay: str, work: Path, seeds: int) -> dict:
    out: dict[str, dict[str, int]] = {}
    for name in sorted(CHEATS):
        counts = {"recorded": 0, "unfinished": 0, "not_used": 0}
        for seed in range(seeds):
            d = work / f"{name}{seed}"
            d.mkdir()
            host = Peer(["host", "--relay", relay, "--json", *LIMITS, "--terrain", TERRAIN.get(name, "castle"), *BOT,
                         "--seed", f"h{seed}"], d / "honest.db")
            joiner = Peer(["join", host.code(), "--relay", relay, "--json", *LIMITS, *BOT, "--seed", f"c{seed}"],
                          d / "cheat.db", ["--cheat", name])
            host.finish(300)
            joiner.finish(300)
            row, theirs = _row(d / "honest.db"), _row(d / "cheat.db")
            if row and row["over"] and not _forfeit(row) and not (theirs and _forfeit(theirs)):
                counts["not_used"] += 1  # the cheat's moment never came: an honest game
            elif row and row["over"] and row["winner"] == "blue" and _forfeit(row):
                counts["recorded"] += 1
            else:
                counts["unfinished"] += 1
                print(f"{name} seed {seed}: honest side holds {row}", file=sys.stderr)
        out[name] = counts
    return out


SCENARIOS = {  # wire_attacks.py scenario -> (its arguments, the honest seat's colour)
    "forfeit_notice": ([], "red"), "pad": ([], "red"), "comebacks": ([], "red"), "withhold": ([], "blue"),
    "stall": (["claim"], "red"),
}


def scenarios(relay: str, work: Path) -> dict:
    out = {}
    for name, (args, honest) in SCENARIOS.items():
        db = work / f"{name}.db"
        r = subprocess.run([sys.executable, str(ONLINE / "wire_attacks.py"), name, relay, str(db), *args],
                           capture_output=True, text=True, timeout=300)
        lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
        rows = json.loads(lines[-1]).get("rows", []) if lines else []
        ok = len(rows) == 1 and rows[0]["over"] and rows[0]["winner"] == honest \
            and rows[0]["reason"] and rows[0]["reason"].startswith(("blue forfeits", "red forfeits", "blue abandoned",
                                                                     "red abandoned"))
        out[name] = "recorded" if ok else f"unfinished: {rows or r.stderr[-300:]}"
    return out


async def fuzz(relay: str, work: Path, n: int, seed: int) -> dict:
    """``n`` honest games over one link, each met after a good hello by one malformed message."""
    rng = random.Random(seed)
    codes: asyncio.Queue[str] = asyncio.Queue()
    hosting = asyncio.ensure_future(client.host(relay, codes.put_nowait))
    joining = asyncio.ensure_future(client.join(relay, await codes.get()))
    theirs, mine = await hosting, await joining
    counts = {"recorded": 0, "claimed_after_silence": 0, "unfinished": 0}
    for i in range(n):
        setup = Setup(f"fuzz{i}", "castle", False, 0)
        attacker = Attacker(theirs, setup)
        store = Store(str(work / f"fuzz{i}.db"))
        # a message the transport ignores, as the wormhole does (a named phase, the version again), leaves the
        # attacker silent: the honest side claims the game when the limit runs out (the app asks its player)
        game = OnlineGame(Options(relay=relay, seed=f"v{i}", move_limit=3.0, reply_limit=2.0, when_silent="claim"),
                          BotPlayer("random", f"v{i}"), lambda _: None, store=store)
        task = asyncio.ensure_future(game.join_on(mine))
        commit = attacker.match.make()
        attacker.hello()
        attacker.raw(malformed(rng, [{"k": "msg", "m": commit}, {"k": "sync", "msgs": [commit]},
                                     {"k": "forfeit", "seat": 0, "reason": "x"},
                                     {"k": "hello", "resume": None, "setup": vars(setup), "hashes": []}]))
        said = ""
        try:
            await asyncio.wait_for(task, 60)
        except (SessionError, TimeoutError) as e:  # what the honest side stored is what counts
            said = f"{type(e).__name__}: {e}"
        row = store.get(game.local_id or "")
        store.close()
        if row is not None and row.over and row.winner == "red" and row.reason and " forfeits: " in row.reason:
            counts["recorded"] += 1
        elif row is not None and row.over and row.winner == "red" and row.reason and " abandoned " in row.reason:
            counts["claimed_after_silence"] += 1
        else:
            counts["unfinished"] += 1
            print(f"fuzz {i}: honest side holds {row and (row.over, row.winner, row.reason)} ({said})", file=sys.stderr)
        await _drain(theirs, mine, i)
    await theirs.close()
    await mine.close()
    return counts


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 26
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        proc, port = start_mailbox(work)
        relay = f"ws://127.0.0.1:{port}/v1"
        try:
            result = {"catalogue": catalogue(relay, work, seeds), "scenarios": scenarios(relay, work),
                      "fuzz": asyncio.run(fuzz(relay, work, n, seed))}
        finally:
            proc.terminate()
            proc.wait(10)
    cheated = sum(c["recorded"] + c["unfinished"] for c in result["catalogue"].values())
    unfinished = (sum(c["unfinished"] for c in result["catalogue"].values()) + result["fuzz"]["unfinished"]
                  + sum(v != "recorded" for v in result["scenarios"].values()))
    result["totals"] = {"games_with_a_cheat_or_malformed_message": cheated + len(SCENARIOS) + n,
                        "unfinished": unfinished, "seconds": round(time.time() - started)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
