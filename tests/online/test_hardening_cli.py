"""Issue 26: ``toybattle host`` against a crafted peer before the game exists (the PAKE and the version
exchange), the seed that is no longer an option, and a chat line the other side would refuse."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toybattle.chat import MAX_CHAT
from toybattle.online.game import BotPlayer, OnlineGame, Options, SessionError
from toybattle.online.mailbox import client
from toybattle.online.mailbox.backend import default
from toybattle.online.mailbox.spake2 import Spake2
from toybattle.online.transport import APPID, Silence

DEEP = "[" * 900 + "]" * 900  # read by the JSON reader; printing it exhausts the stack


def _host(mailbox: str, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "toybattle", "host", "--relay", mailbox, "--bot", "random",
                             "--json", "--reply-limit", "10", "--wait", "20"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "host.db"), PYTHONUNBUFFERED="1"))
    line = proc.stdout.readline() if proc.stdout else ""
    assert line.startswith("room code: "), line + (proc.stderr.read() if proc.stderr else "")
    return proc, line.split()[-1]


async def _crafted_joiner(relay: str, code: str, pake_body: bytes | None, versions: str | None) -> None:
    """Join ``code`` speaking the mailbox protocol by hand: a crafted PAKE message, or an honest PAKE and a
    crafted (but well encrypted) version box."""
    crypto = default()
    conn = await client._open(client.connect_websockets, relay)
    await client._claim(conn, code.split("-", 1)[0])
    pake = Spake2(code.encode(), APPID.encode(), crypto)
    conn.add("pake", pake_body if pake_body is not None else json.dumps({"pake_v1": pake.start().hex()}).encode())
    if versions is not None:
        theirs = await conn.from_peer("pake", 20)
        key = pake.finish(bytes.fromhex(json.loads(bytes.fromhex(theirs["body"]))["pake_v1"]))
        conn.add("version", crypto.seal(client.phase_key(crypto, key, conn.side, "version"), versions.encode()))
    await asyncio.sleep(3)
    await conn.close(None)


@pytest.mark.parametrize("pake_body,versions", [
    (b'{"pake_v1":' + DEEP.encode() + b"}", None),
    (("[" * 20000).encode(), None),
    (None, '{"app_versions":{"toybattle":{"protocol":' + DEEP + ',"wire":2}}}'),
    (None, '{"app_versions":{"toybattle":{"protocol":2.0,"wire":2.0}}}'),
    (None, '{"app_versions":{"toybattle":{"protocol":"2","wire":2}}}'),
    (None, '{"app_versions":{"toybattle":' + DEEP + "}}"),
], ids=["deep-pake", "deep-pake-unreadable", "deep-version", "float-version", "text-version", "deep-entry"])
def test_a_crafted_peer_before_the_game_gets_one_line_from_toybattle_host(mailbox, tmp_path, pake_body, versions):
    proc, code = _host(mailbox, tmp_path)
    try:
        asyncio.run(_crafted_joiner(mailbox, code, pake_body, versions))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err and "Error:" not in err, err[-3000:]
    assert proc.returncode in (1, 2) and len(err.strip().splitlines()) == 1, (proc.returncode, out, err[-3000:])
    assert "toybattle host: " in err and len(err) < 400, err
    if versions is not None:
        assert "both need the same version" in err, err


@pytest.mark.parametrize("command", [["host"], ["join", "7-guitarist-revenge"]])
def test_seed_is_not_an_option_of_host_or_join(tmp_path, command):
    """Whoever knows the seed knows every tile: no command line sets it (tests use a hook in peer.py)."""
    r = subprocess.run([sys.executable, "-m", "toybattle", *command, "--seed", "x", "--relay", "ws://127.0.0.1:9/v1"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "g.db")))
    assert r.returncode == 2 and "unrecognized arguments: --seed x" in r.stderr, (r.returncode, r.stderr)
    helped = subprocess.run([sys.executable, "-m", "toybattle", command[0], "--help"], capture_output=True,
                            text=True, timeout=60)
    assert "--seed" not in helped.stdout


def test_an_over_long_chat_line_is_refused_before_it_is_sent(mailbox, tmp_path):
    """The same limit on both sides: a line the other side would refuse (and take as a malformed message, a
    forfeit of this side) is refused here, with the catalogue's words, and never sent."""
    async def go() -> None:
        codes: asyncio.Queue[str] = asyncio.Queue()
        hosting = asyncio.ensure_future(client.host(mailbox, codes.put_nowait))
        joining = asyncio.ensure_future(client.join(mailbox, await codes.get()))
        mine, theirs = await hosting, await joining
        game = OnlineGame(Options(relay=mailbox, db=str(tmp_path / "g.db")), BotPlayer("random"), lambda _: None)
        game.link, game.playing = mine, True  # in play on a real link
        try:
            for line in ({"text": "x" * (MAX_CHAT + 1)}, {"text": "\u00e9" * (MAX_CHAT + 1)}):
                with pytest.raises(SessionError, match=f"a chat line is at most {MAX_CHAT} characters"):
                    game.chat(line)
            game.chat({"text": "  fine, padded by the player  "})  # trimmed here, as the other side wants it
            got = await theirs.recv(10)
            assert got == {"k": "chat", "text": "fine, padded by the player"}, got
            with pytest.raises(Silence):
                await theirs.recv(1)  # nothing else was sent
        finally:
            game.store.close()
            await mine.close()
            await theirs.close()

    asyncio.run(go())


def test_the_page_refuses_an_over_long_chat_line_in_its_own_words():
    js = (Path(__file__).parents[2] / "src/toybattle/web/js/chat.js").read_text()
    assert 'maxlength: String(MAX)' in js and 't("chat.long", { n: MAX })' in js
    assert ".slice(0, MAX)" not in js  # never cut short and sent: refused


def test_every_peer_facing_parse_bounds_the_nesting_before_reading():
    """No RecursionError can come of a peer's text: the nesting is counted first, without recursion."""
    import time

    from toybattle import bounded
    from toybattle.online import transport
    from toybattle.online.wire import MAX_DEPTH
    start = time.monotonic()
    for deep in ("[" * 1_000_000, '{"a":' * 200_000, '["\\"[",' * 100 + "1" + "]" * 100, DEEP):
        with pytest.raises(bounded.TooDeep):
            bounded.loads(deep, MAX_DEPTH)
        with pytest.raises(transport.Garbled):
            transport.parse(deep.encode())
        assert client._parse(deep) == {}  # a mailbox frame
    assert time.monotonic() - start < 5
    assert bounded.loads('{"k":"x","a":["[[[\\"",{"b":[1]}]}', MAX_DEPTH) == {"k": "x", "a": ['[[["', {"b": [1]}]}
