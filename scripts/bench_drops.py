"""Benchmark for docs/benchmarks.md (issue 23): online games with random drops on both sides.

Starts a local mailbox, then plays N bot games, one at a time, between two sessions of this process,
each through its own TCP proxy (tests/online/proxy.py) that cuts every connection for 0.3 to 2 s at
random moments (every 1 to 4 s, either side). Prints one JSON line: games finished with both
sides agreeing on the result and history hash, cuts, and the time from each cut's end (the network's
return) to the next agreed message of a game that was waiting on it (median and p95, ms).

    .venv/bin/python scripts/bench_drops.py [N] [SEED]
"""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.online.conftest import start_mailbox  # noqa: E402
from tests.online.proxy import Proxy  # noqa: E402

from toybattle.online.game import BotPlayer, OnlineGame, Options, SessionError  # noqa: E402
from toybattle.online.protocol import Match  # noqa: E402
from toybattle.store import Store  # noqa: E402


class Paced(BotPlayer):
    """A random bot that takes a moment over each move (a game long enough to be cut) and notes when each
    message is agreed."""

    def __init__(self, seed: str, agreed: list[float]):
        super().__init__("random", seed)
        self.agreed = agreed

    async def choose(self, obs, n):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.03)
        return await super().choose(obs, n)

    def seen(self, match: Match, msg: dict) -> None:
        self.agreed.append(time.monotonic())


async def one(relays: tuple[str, str], i: int, agreed: list[float]) -> tuple[dict, dict]:
    def game(relay: str, who: str) -> OnlineGame:
        opts = Options(relay=relay, seed=f"drops{i}{who}", move_limit=60, reply_limit=60, when_silent="wait")
        return OnlineGame(opts, Paced(f"drops{i}{who}", agreed), lambda _: None, store=Store(":memory:"))
    host, joiner = game(relays[0], "h"), game(relays[1], "j")
    codes: asyncio.Queue[str] = asyncio.Queue()
    hosting = asyncio.ensure_future(host.host(codes.put_nowait))
    code = asyncio.ensure_future(codes.get())
    await asyncio.wait({hosting, code}, return_when=asyncio.FIRST_COMPLETED)
    if not code.done():  # the host failed before it had a code (a cut before the room existed)
        code.cancel()
        host.store.close()
        joiner.store.close()
        await hosting  # raises its SessionError
    joining = asyncio.ensure_future(joiner.join(code.result()))
    try:
        results = await asyncio.wait_for(asyncio.gather(hosting, joining), 120)
    except TimeoutError:
        raise TimeoutError(" / ".join(_stuck(g) for g in (host, joiner))) from None
    finally:
        host.store.close()
        joiner.store.close()
    return results[0], results[1]


def _stuck(game: OnlineGame) -> str:
    """Where a game that did not finish stands, for the failure list."""
    m = game.match
    link = game.link
    return (f"messages {len(m.log) if m else None}, expects {m.expected() if m else None}, "
            f"playing {game.playing}, link online {link.online if link else None}, "
            f"reconnects {link.reconnects if link else None}")


async def main(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        proc, port = start_mailbox(Path(d))
        proxies = [Proxy(port), Proxy(port)]
        returns: list[float] = []  # when each cut ended
        starts: list[float] = []  # when each cut began
        agreed: list[float] = []
        stop = asyncio.Event()

        async def cutter() -> None:
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(1.0, 4.0))
                length = rng.uniform(0.3, 2.0)
                rng.choice(proxies).cut(length)
                starts.append(time.monotonic())
                returns.append(starts[-1] + length)

        cutting = asyncio.ensure_future(cutter())
        finished = restarts = 0
        failures: list[str] = []
        for i in range(n):
            for attempt in range(5):
                try:
                    a, b = await one((proxies[0].url, proxies[1].url), i, agreed)
                except SessionError as e:
                    if "cannot reach the mailbox" in str(e) and attempt < 4:
                        restarts += 1  # cut before the room existed: the player taps Start again
                        await asyncio.sleep(2)
                        continue
                    failures.append(f"{i}: {type(e).__name__}: {e}"[:200])
                except Exception as e:  # counted, not raised: the figure is how many finish
                    failures.append(f"{i}: {type(e).__name__}: {e}"[:200])
                break
            if failures and failures[-1].startswith(f"{i}:"):
                continue
            if a["head"] == b["head"] and a["winner"] == b["winner"] and a["reason"] in ("hq", "medals", "stuck"):
                finished += 1
            else:
                failures.append(f"{i}: {a} / {b}"[:200])
        stop.set()
        cutting.cancel()
        for p in proxies:
            p.close()
        proc.terminate()
    waits = []
    for back in returns:
        later = [t for t in agreed if t >= back]
        before = [t for t in agreed if t < back]
        # a game was waiting on the network if nothing was agreed since the cut began; a wait that another
        # cut interrupted measures that cut, not this return
        if later and before and before[-1] < back - 0.3 and not any(back < s < later[0] for s in starts):
            waits.append((later[0] - back) * 1000)
    waits.sort()
    return {"games": n, "finished_agreeing": finished, "failures": failures, "cuts": sum(p.cuts for p in proxies),
            "starts_again_after_a_cut_before_the_room": restarts,
            "return_to_next_message_ms": {"n": len(waits), "median": round(statistics.median(waits)) if waits else None,
                                          "p95": round(waits[int(0.95 * (len(waits) - 1))]) if waits else None}}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(json.dumps(asyncio.run(main(n, int(sys.argv[2]) if len(sys.argv) > 2 else 23))), flush=True)
