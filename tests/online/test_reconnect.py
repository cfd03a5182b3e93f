"""Issue 23: drops are routine. A peer whose connection to the mailbox is cut (through a TCP proxy the test
controls) reconnects by itself into the same room; a peer killed with kill -9 comes back with no code; a
mailbox that has forgotten the room gets one plain line and the fresh-code resume; a mailbox behind TLS."""
from __future__ import annotations

import asyncio
import random
import sqlite3
import time

import pytest

from toybattle.online.mailbox import client
from toybattle.rules import SEATS

from .conftest import LIMITS, Peer, start_mailbox
from .proxy import Proxy
from .test_network import one_line, same_game

BOT = ["--bot", "random"]


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


def _messages(db) -> int:
    try:
        with sqlite3.connect(db) as c:
            row = c.execute("SELECT record FROM games").fetchone()
    except sqlite3.Error:
        return 0
    return row[0].count("\n") + 1 if row and row[0] else 0


def _game(tmp_path, relays: tuple[str, str], name: str, think: str = "0", host_args=(), join_patch=(), db="",
          env=None):
    """A bot game between two processes; the same ``name`` plays the same game (its seeds), ``db`` names
    its games files (the uncut reference game keeps its own)."""
    host = Peer(["host", "--relay", relays[0], "--json", *LIMITS, *BOT, "--seed", f"{name}-h", "--terrain", "castle",
                 *host_args], tmp_path / f"{name}{db}-h.db", ["--think", think], env)
    joiner = Peer(["join", host.code(), "--relay", relays[1], "--json", *LIMITS, *BOT, "--seed", f"{name}-j",
                   ], tmp_path / f"{name}{db}-j.db", ["--think", think, *join_patch], env)
    return host, joiner


def _reference(tmp_path, mailbox: str, name: str) -> dict:
    """The game ``name`` played with nothing in its way: what every faulted run of it must end as."""
    host, joiner = _game(tmp_path, (mailbox, mailbox), name, db="-ref")
    reference = host.result()
    assert same_game(reference, joiner.result())
    return reference


def _until_stored(db, n: int) -> None:
    """Wait (60 s at most) until the games file ``db`` holds a game of ``n`` messages or more."""
    deadline = time.time() + 60
    while _messages(db) < n and time.time() < deadline:
        time.sleep(0.05)


def test_cuts_on_both_sides_at_random_moments_do_not_change_the_game(mailbox, tmp_path):
    reference = _reference(tmp_path, mailbox, "drops")
    proxies = [Proxy(_port(mailbox)), Proxy(_port(mailbox))]
    rng = random.Random(23)
    try:
        host, joiner = _game(tmp_path, (proxies[0].url, proxies[1].url), "drops", think="0.08",
                             env={"TOYBATTLE_TEST_DEBUG": "1"})
        start, cuts = time.monotonic(), []
        while host.proc.poll() is None or joiner.proc.poll() is None:
            time.sleep(rng.uniform(1.0, 3.0))
            side, seconds = rng.randrange(2), rng.uniform(0.3, 2.5)
            cuts.append(f"{time.monotonic() - start:.1f}s: {'host' if side == 0 else 'joiner'} for {seconds:.1f}s")
            proxies[side].cut(seconds)
        a, b = host.result(), joiner.result()
    finally:
        for p in proxies:
            p.close()
    story = f"cuts: {cuts}\nhost:\n{host.err[-4000:]}\njoiner:\n{joiner.err[-4000:]}"
    assert same_game(a, reference) and same_game(b, reference), (a, b, reference, story)
    assert a["head"] == b["head"] and a["reason"] in ("hq", "medals", "stuck")
    assert proxies[0].cuts >= 2 and proxies[1].cuts >= 2, [p.cuts for p in proxies]


def test_a_side_that_leaves_a_finished_game_while_cut_off_delivers_its_last_message_first(mailbox):
    """The last message of a game (a final opening) sent while this side's link is down: leaving the room
    must wait until the mailbox keeps it, or the other side waits for it in vain and calls it withheld (a CI
    run met this: an honest side recorded as forfeiting)."""
    proxy = Proxy(_port(mailbox))

    async def play() -> object:
        codes: asyncio.Queue[str] = asyncio.Queue()
        hosting = asyncio.ensure_future(client.host(proxy.url, codes.put_nowait, 30))
        joiner = await client.join(mailbox, await codes.get(), 30)
        host = await hosting
        proxy.cut(0.8)
        for _ in range(200):  # until this side has seen its websocket go
            if not host.online:
                break
            await asyncio.sleep(0.01)
        assert not host.online
        host.send({"k": "last"})
        await host.close(done=True)
        try:
            return await joiner.recv(10)
        finally:
            await joiner.close()

    try:
        assert asyncio.run(play()) == {"k": "last"}
    finally:
        proxy.close()


def test_a_socket_that_silently_carries_nothing_is_found_out_and_replaced(mailbox, tmp_path):
    """A lost signal often leaves a socket that looks open: the mailbox's missing pong gives it away."""
    reference = _reference(tmp_path, mailbox, "frozen")
    proxy = Proxy(_port(mailbox))
    try:
        host, joiner = _game(tmp_path, (proxy.url, mailbox), "frozen", think="0.1")
        _until_stored(tmp_path / "frozen-h.db", 8)
        proxy.freeze()  # for good: only a new connection can carry the rest of the game
        a, b = host.result(180), joiner.result(180)
    finally:
        proxy.close()
    assert same_game(a, reference) and same_game(b, reference), (a, b, reference)


def test_a_peer_killed_with_kill_9_comes_back_into_the_room_without_a_code(mailbox, tmp_path):
    reference = _reference(tmp_path, mailbox, "kill")
    waiting = ["--when-silent", "wait"]
    host, joiner = _game(tmp_path, (mailbox, mailbox), "kill", think="0.05", host_args=waiting)
    _until_stored(tmp_path / "kill-j.db", 12)
    joiner.proc.kill()  # SIGKILL: no chance to say goodbye
    joiner.proc.wait()
    assert joiner.proc.returncode == -9
    with sqlite3.connect(tmp_path / "kill-j.db") as c:
        local = c.execute("SELECT id FROM games").fetchone()[0]
    time.sleep(1)
    again = Peer(["join", "--resume", local, "--json", *LIMITS, *BOT, "--seed", "kill-j"], tmp_path / "kill-j.db")
    a, b = host.result(), again.result()
    assert same_game(a, reference) and same_game(b, reference), (a, b, reference)


def test_a_forgotten_room_is_said_plainly_and_a_host_opens_a_new_one(mailbox, tmp_path):
    reference = _reference(tmp_path, mailbox, "gone")
    proxy = Proxy(_port(mailbox))
    try:
        host, joiner = _game(tmp_path, (proxy.url, proxy.url), "gone",
                             host_args=["--reply-limit", "3", "--move-limit", "3"], join_patch=["--die-after", "25"])
        joiner.proc.wait(60)
        host.finish()
        fresh, port = start_mailbox(tmp_path, None)  # the mailbox restarted: its rooms are gone
        proxy.target = port
        local = {side: sqlite3.connect(tmp_path / f"gone-{side}.db").execute("SELECT id FROM games").fetchone()[0]
                 for side in "hj"}
        lost = Peer(["join", "--resume", local["j"], "--json", *LIMITS, *BOT, "--seed", "gone-j"],
                    tmp_path / "gone-j.db")
        rc, _, err = lost.finish(60)
        assert rc == 2 and "no longer holds this room" in one_line(err) and "with a new code" in err
        host = Peer(["host", "--resume", local["h"], "--json", *LIMITS, *BOT, "--seed", "gone-h"],
                    tmp_path / "gone-h.db")
        code = host.code()
        assert any("no longer holds this room" in ln and "opening a new room" in ln for ln in host.lines)
        joiner = Peer(["join", code, "--resume", local["j"], "--relay", proxy.url, "--json", *LIMITS, *BOT,
                       "--seed", "gone-j"], tmp_path / "gone-j.db")
        a, b = host.result(), joiner.result()
        fresh.terminate()
    finally:
        proxy.close()
    assert same_game(a, reference) and same_game(b, reference)


@pytest.mark.slow
def test_a_mailbox_behind_tls_and_a_malformed_mailbox_address(tmp_path):
    import trustme
    ca = trustme.CA()
    pem, ca_file = tmp_path / "mailbox.pem", tmp_path / "ca.pem"
    ca.issue_cert("127.0.0.1", "localhost").private_key_and_cert_chain_pem.write_to_path(str(pem))
    ca.cert_pem.write_to_path(str(ca_file))
    proc, port = start_mailbox(tmp_path, pem)
    try:
        relay = f"wss://127.0.0.1:{port}/v1"
        trust = {"SSL_CERT_FILE": str(ca_file)}
        host = Peer(["host", "--relay", relay, "--json", *LIMITS, *BOT, "--seed", "tls-h"], tmp_path / "h.db",
                    env=trust)
        joiner = Peer(["join", host.code(), "--relay", relay, "--json", *LIMITS, *BOT, "--seed", "tls-j"],
                      tmp_path / "j.db", env=trust)
        a, b = host.result(), joiner.result()
        assert same_game(a, b) and a["winner"] in (0, 1) and SEATS[a["seat"]] == "blue"
        untrusted = Peer(["host", "--relay", relay], tmp_path / "u.db")  # a certificate nobody vouches for
        rc, _, err = untrusted.finish(60)
        assert rc == 2 and f"cannot reach the mailbox at {relay}" in one_line(err)
        for bad in ("wss://", "http://example.org/v1", "wss://exa mple/v1"):
            rc, _, err = Peer(["host", "--relay", bad], tmp_path / "u.db").finish(60)
            assert rc == 2 and "mailbox" in one_line(err), err
    finally:
        proc.terminate()
        proc.wait(10)
