"""Chat between two online peers: a separate wire kind, bounded, rate-limited, never in the chain."""
from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from toybattle.chat import BURST, MAX_CHAT
from toybattle.online import wire
from toybattle.online.game import BotPlayer, OnlineGame, Options
from toybattle.online.mailbox import client
from toybattle.online.protocol import digest


class HeldBot:
    """A random bot that plays only once the test lets it (so the game stays open for chatting)."""

    def __init__(self, seed: str):
        self.bot = BotPlayer("random", seed)
        self.go = asyncio.Event()

    async def choose(self, obs, n):
        await self.go.wait()
        return await self.bot.choose(obs, n)

    def seen(self, match, msg):
        pass


def _game(tmp_path: Path, mailbox: str, name: str, heard: list[dict[str, str]]) -> tuple[OnlineGame, HeldBot]:
    player = HeldBot(name)
    game = OnlineGame(Options(relay=mailbox, db=str(tmp_path / f"{name}.db"), seed=name, move_limit=60,
                        reply_limit=60), player, lambda _: None, rooms=client.Rooms())
    game.on_chat = heard.append
    return game, player


async def _until(check, seconds: float = 15.0) -> None:
    for _ in range(int(seconds * 20)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


def test_chat_lines_are_checked_on_the_wire():
    assert wire.check({"k": "chat", "text": "<b>hi</b>"})["text"] == "<b>hi</b>"
    assert wire.check({"k": "chat", "phrase": "luck"})["phrase"] == "luck"
    assert wire.check({"k": "chat", "phrase": "unheardof"})  # a key's shape; whether it is known is chat.said's
    for bad in ({"k": "chat", "phrase": "<b>x</b>"}, {"k": "chat", "phrase": "luck\n"}, {"k": "chat", "phrase": 3},
                {"k": "chat", "phrase": "x" * 21}, {"k": "chat", "phrase": "luck", "text": "hi"},
                {"k": "chat", "text": "x" * (MAX_CHAT + 1)}, {"k": "chat", "text": ""}, {"k": "chat", "text": 3},
                {"k": "chat", "text": "hi", "pad": "x"}, {"k": "chat"}):
        with pytest.raises(wire.Malformed):
            wire.check(bad)


def test_online_chat_arrives_both_ways_is_rate_limited_and_stays_out_of_the_record(mailbox, tmp_path):
    host_heard: list[dict[str, str]] = []
    join_heard: list[dict[str, str]] = []
    host, hp = _game(tmp_path, mailbox, "host", host_heard)
    joiner, jp = _game(tmp_path, mailbox, "join", join_heard)

    async def main():
        codes: asyncio.Queue[str] = asyncio.Queue()
        hosting = asyncio.create_task(host.host(codes.put_nowait))
        joining = asyncio.create_task(joiner.join(await codes.get()))
        await _until(lambda: host.playing and joiner.playing and host.link and joiner.link)
        # both ways: one side is waiting for a move, the other is thinking about it
        host.chat({"text": "<script>alert(1)</script> good luck"})
        joiner.chat({"text": "secret-word-from-joiner"})
        joiner.link.send({"k": "chat", "phrase": "bribe"})  # a key this program does not know: dropped
        joiner.chat({"phrase": "thanks"})  # a quick phrase goes as its key; each page says it in its words
        await _until(lambda: join_heard and len(host_heard) == 2)
        assert join_heard == [{"text": "<script>alert(1)</script> good luck"}]  # the page shows it as text
        assert host_heard == [{"text": "secret-word-from-joiner"}, {"phrase": "thanks"}]
        for i in range(3 * BURST):  # a flooding peer, past its own side's limit
            host.link.send({"k": "chat", "text": f"flood-{i}"})
        host.chat({"text": "last-line"})
        await asyncio.sleep(1.5)
        assert len(join_heard) == BURST, join_heard  # one line before the flood, then BURST - 1 more
        hp.go.set()
        jp.go.set()
        return await hosting, await joining

    host_result, join_result = asyncio.run(main())
    assert host_result["head"] == join_result["head"] and host_result["reason"] in ("hq", "medals", "stuck")
    for game in (host, joiner):
        chain = game.match.log
        assert digest(chain[-1]) == game.match.head
        assert not any("flood" in t or "good luck" in t or "secret-word" in t for t in chain)
    for name in ("host", "join"):
        with sqlite3.connect(tmp_path / f"{name}.db") as db:
            stored = " ".join(str(v) for row in db.execute("select * from games") for v in row)
        assert stored and "secret-word" not in stored and "flood" not in stored and "good luck" not in stored
