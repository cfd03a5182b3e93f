"""The pure-Python wormhole client (toybattle.online.mailbox) against the real magic-wormhole library,
through the local mailbox: its crypto gives the libraries' bytes, rooms meet both ways, bad codes get one
line, and whole games between `toybattle host/join` and a session on this client agree on everything."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toybattle.online.game import BotPlayer, OnlineGame, Options
from toybattle.online.mailbox import client, primitives, spake2
from toybattle.online.transport import APPID, LinkError

from .conftest import LIMITS, Peer

PEER = Path(__file__).parent / "wormhole_peer.py"  # the real magic-wormhole library, as a separate process


def test_the_primitives_come_from_libsodium_and_match_the_reference_libraries():
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    from nacl.secret import SecretBox
    from spake2 import SPAKE2_Symmetric
    from spake2.parameters.ed25519 import ParamsEd25519

    crypto = primitives.Native()
    for n in (0, 1, 16, 63, 64, 65, 300):
        key, msg = os.urandom(32), os.urandom(n)
        assert SecretBox(key).decrypt(crypto.seal(key, msg)) == msg
        assert crypto.open(key, bytes(SecretBox(key).encrypt(msg))) == msg
        assert crypto.hkdf(key, 48, b"i") == HKDF(hashes.SHA256(), 48, None, b"i").derive(key)
    box = bytearray(crypto.seal(b"k" * 32, b"a move"))
    box[-1] ^= 1
    with pytest.raises(primitives.CryptoError):
        crypto.open(b"k" * 32, bytes(box))
    assert ParamsEd25519.S.to_bytes() == spake2.BLINDING
    assert crypto.is_element(spake2.BLINDING)
    assert not crypto.is_element(bytes([1]) + bytes(31))  # the identity
    assert not crypto.is_element(bytes(32)) and not crypto.is_element(b"\xff" * 32)
    with pytest.raises(primitives.CryptoError):
        crypto.times(primitives.scalar(5), bytes([1]) + bytes(31))
    for code, other in ((b"7-guitarist-revenge", b"7-guitarist-revenge"), (b"7-guitarist-revenge", b"7-a-b")):
        ours, theirs = spake2.Spake2(code, APPID.encode(), crypto), SPAKE2_Symmetric(other, idSymmetric=APPID.encode())
        m1, m2 = ours.start(), theirs.start()
        assert (ours.finish(m2) == theirs.finish(m1)) == (code == other)
    with pytest.raises(spake2.PakeError):
        spake2.Spake2(b"c", b"a").finish(b"S" + bytes([1]) + bytes(31))  # the identity element is refused
    with pytest.raises(spake2.PakeError):
        spake2.Spake2(b"c", b"a").finish(b"S" + bytes(32))  # not a point at all


def _echo_peer(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(PEER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


async def _talk(link: client.Link) -> None:
    """The real peer greets, then echoes; objects go both ways in order."""
    assert await link.recv(20) == {"hello": "wormhole"}
    for obj in ({"n": 1}, {"n": 2, "text": "é" * 3000}, {"bye": True}):
        link.send(obj)
    for obj in ({"n": 1}, {"n": 2, "text": "é" * 3000}, {"bye": True}):
        assert await link.recv(20) == {"echo": obj}
    await link.close()


def test_rooms_meet_both_ways_and_messages_flow(mailbox):
    async def ours_host() -> None:
        started: list[subprocess.Popen] = []
        link = await client.host(mailbox, lambda code: started.append(_echo_peer("join", mailbox, code)), 30)
        assert client.CODE_RE.fullmatch(link.code)
        await _talk(link)
        out, err = started[0].communicate(timeout=30)
        assert out.strip() == "done", out + err

    async def ours_join() -> None:
        peer = _echo_peer("host", mailbox)
        code = peer.stdout.readline().split()[-1]
        await _talk(await client.join(mailbox, code, 30))
        out, err = peer.communicate(timeout=30)
        assert out.strip() == "done", out + err

    asyncio.run(ours_host())
    asyncio.run(ours_join())


def test_a_message_already_here_is_read_with_no_time_left(mailbox):
    """Past a deadline a side reads with no time left: what arrived meanwhile (while it reconnected, say)
    is still read, not taken for silence."""
    async def run() -> None:
        codes: asyncio.Queue[str] = asyncio.Queue()
        hosting = asyncio.ensure_future(client.host(mailbox, codes.put_nowait, 30))
        joiner = await client.join(mailbox, await codes.get(), 30)
        host = await hosting
        try:
            joiner.send({"k": "opening"})
            for _ in range(500):
                if host.waiting():
                    break
                await asyncio.sleep(0.01)
            assert await host.recv(0) == {"k": "opening"}
            assert not host.waiting()
        finally:
            await joiner.close()
            await host.close()

    asyncio.run(run())


def test_a_wrong_code_closes_the_room_on_both_sides(mailbox):
    peer = _echo_peer("host", mailbox)
    code = peer.stdout.readline().split()[-1]
    wrong = code.split("-")[0] + "-wrong-words"
    with pytest.raises(LinkError, match=f"^wrong code {wrong}: the room is now closed"):
        asyncio.run(client.join(mailbox, wrong, 30))
    out, _ = peer.communicate(timeout=30)
    assert out.strip() == "error: WrongPasswordError:", out  # the reference library's own verdict

    started: list[subprocess.Popen] = []
    typed: list[str] = []

    def on_code(code: str) -> None:
        typed.append(code.split("-")[0] + "-wrong-words")
        started.append(_echo_peer("join", mailbox, typed[0]))

    with pytest.raises(LinkError, match=r"^someone typed a wrong code for room .*start a new one$"):
        asyncio.run(client.host(mailbox, on_code, 30))
    out, _ = started[0].communicate(timeout=30)
    assert out.strip() == "error: WrongPasswordError:", out


def test_bad_codes_and_mailboxes_get_one_line(mailbox):
    with pytest.raises(LinkError, match="is not a room code"):
        asyncio.run(client.join(mailbox, "guitarist-7", 5))
    with pytest.raises(LinkError, match=r"no room 999-guitarist-revenge is open|nobody is waiting in room"):
        asyncio.run(client.join(mailbox, "999-guitarist-revenge", 2))
    with pytest.raises(LinkError, match=r"^cannot reach the mailbox at ws://127.0.0.1:9/v1$"):
        asyncio.run(client.join("ws://127.0.0.1:9/v1", "7-guitarist-revenge", 5))
    with pytest.raises(LinkError, match=r"^cannot reach the mailbox at not a url$"):
        asyncio.run(client.host("not a url", print, 5))


def _session(tmp_path: Path, mailbox: str, name: str, seed: str, **opts) -> tuple[OnlineGame, list[str]]:
    said: list[str] = []
    game = OnlineGame(Options(relay=mailbox, db=str(tmp_path / f"{name}.db"), seed=seed, move_limit=20, reply_limit=20,
                        **opts),
                BotPlayer("random", seed), said.append, rooms=client.Rooms())
    return game, said


def _same_record(cli_result: dict, game: OnlineGame, result: dict) -> None:
    assert {k: cli_result[k] for k in ("winner", "reason", "detail", "head", "messages")} == \
        {k: result[k] for k in ("winner", "reason", "detail", "head", "messages")}
    assert cli_result["game"] == game.match.setup.game and cli_result["seat"] != game.match.me


def test_a_whole_game_between_the_cli_and_a_session_on_this_client(mailbox, tmp_path):
    env_db = tmp_path / "cli.db"
    cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "h1",
                "--terrain", "cemetery"], env_db)
    game, _ = _session(tmp_path, mailbox, "ours-join", "j1")
    result = asyncio.run(game.join(cli.code()))
    cli_result = cli.result()
    assert result["reason"] in ("hq", "medals", "stuck") and result["winner"] in (0, 1)
    _same_record(cli_result, game, result)

    game, _ = _session(tmp_path, mailbox, "ours-host", "h2", seat=1)
    joiner: list[Peer] = []

    def on_code(code: str) -> None:
        joiner.append(Peer(["join", code, "--relay", mailbox, "--json", *LIMITS, "--bot", "random",
                            "--seed", "j2"], tmp_path / "cli2.db"))

    result = asyncio.run(game.host(on_code))
    cli_result = joiner[0].result()
    assert result["reason"] in ("hq", "medals", "stuck") and game.match.me == 1
    _same_record(cli_result, game, result)


def test_a_cheating_cli_forfeits_with_the_same_reason_on_this_client(mailbox, tmp_path):
    for seed in range(8):
        cheat = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random",
                      "--seed", f"c{seed}"], tmp_path / f"c{seed}.db", ["--cheat", "never_drawn"])
        game, _ = _session(tmp_path, mailbox, f"h{seed}", f"h{seed}")
        honest = asyncio.run(game.join(cheat.code()))
        cheater = cheat.result()
        if honest["reason"] != "forfeit":
            continue  # the cheat's moment never came in this game: try another
        assert "was never drawn" in honest["detail"] and honest["detail"].startswith("blue forfeits")
        assert honest["winner"] == 1 and cheater["detail"] == honest["detail"]
        return
    pytest.fail("the never_drawn cheat never came up")
