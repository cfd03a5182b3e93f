"""Bad input on the wire, for the pure-Python wormhole client: a scripted mailbox and peer (in memory,
no network) send what an honest magic-wormhole never would. Each case ends in one LinkError line."""
from __future__ import annotations

import asyncio
import json

import pytest

from toybattle.online.mailbox import client
from toybattle.online.mailbox.primitives import Native
from toybattle.online.mailbox.spake2 import Spake2
from toybattle.online.protocol import PROTOCOL
from toybattle.online.transport import APPID, LinkError, Silence
from toybattle.online.wire import WIRE

PEER_SIDE = "feedc0ffee"
CRYPTO = Native()
IDENTITY = bytes([1]) + bytes(31)  # the Ed25519 identity element's encoding


def seal(key: bytes, message: bytes) -> bytes:
    return CRYPTO.seal(key, message)


class Mailbox:
    """The mailbox end of one client's websocket, answering like the real mailbox; the peer's messages
    are put in by the test with ``peer(phase, body)``."""

    def __init__(self) -> None:
        self.to_client: asyncio.Queue[str | None] = asyncio.Queue()
        self.added: asyncio.Queue[dict] = asyncio.Queue()
        self.side = ""
        self.to_client.put_nowait(json.dumps({"type": "welcome", "welcome": {}}))

    def push(self, msg: dict | str) -> None:
        self.to_client.put_nowait(msg if isinstance(msg, str) else json.dumps(msg))

    def peer(self, phase: str, body: bytes, side: str = PEER_SIDE) -> None:
        self.push({"type": "message", "side": side, "phase": phase, "body": body.hex(), "id": "0"})

    async def send(self, text: str) -> None:
        msg = json.loads(text)
        kind = msg["type"]
        self.push({"type": "ack", "id": msg["id"]})
        if kind == "bind":
            self.side = msg["side"]
        elif kind == "allocate":
            self.push({"type": "allocated", "nameplate": "4"})
        elif kind == "list":
            self.push({"type": "nameplates", "nameplates": [{"id": "4"}]})
        elif kind == "claim":
            self.push({"type": "claimed", "mailbox": "mb"})
        elif kind == "add":
            self.push({"type": "message", "side": self.side, "phase": msg["phase"], "body": msg["body"], "id": "1"})
            self.added.put_nowait(msg)
        elif kind == "close":
            self.push({"type": "closed"})

    async def recv(self) -> str:
        text = await self.to_client.get()
        if text is None:
            raise EOFError
        return text

    async def close(self) -> None:
        self.to_client.put_nowait(None)

    async def ours(self, phase: str) -> dict:
        while (msg := await asyncio.wait_for(self.added.get(), 5))["phase"] != phase:
            pass
        return msg


def pake_body(message: bytes) -> bytes:
    return json.dumps({"pake_v1": message.hex()}).encode()


async def handshake(box: Mailbox, code: str, versions: dict | None = None) -> bytes:
    """Be an honest peer up to the key; send our version box (``versions``) and return the key."""
    theirs = bytes.fromhex(json.loads(bytes.fromhex((await box.ours("pake"))["body"]))["pake_v1"])
    pake = Spake2(code.encode(), APPID.encode())
    box.peer("pake", pake_body(pake.start()))
    key = pake.finish(theirs)
    if versions is None:
        versions = {"app_versions": {"toybattle": {"protocol": PROTOCOL, "wire": WIRE}}}
    box.peer("version", seal(client.phase_key(CRYPTO, key, PEER_SIDE, "version"), json.dumps(versions).encode()))
    return key


def join(box: Mailbox, code: str = "4-aardvark-adroitness") -> asyncio.Task:
    async def connect(url: str) -> client.Socket:
        return box
    return asyncio.ensure_future(client.join("ws://mailbox", code, 5, connect))


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


@pytest.mark.parametrize("body", [b"not json", json.dumps({"pake_v2": "00"}).encode(), pake_body(b"S" + bytes(3)),
                                  pake_body(b"A" + bytes(32)), pake_body(b"S" + IDENTITY)])
def test_a_malformed_pake_message_gets_one_line(body):
    async def main() -> None:
        box = Mailbox()
        task = join(box)
        await box.ours("pake")
        box.peer("pake", body)
        with pytest.raises(LinkError, match="does not speak the wormhole's PAKE"):
            await task
    run(main())


def test_our_own_pake_message_reflected_is_refused():
    async def main() -> None:
        box = Mailbox()
        task = join(box)
        box.peer("pake", bytes.fromhex((await box.ours("pake"))["body"]))
        with pytest.raises(LinkError, match="does not speak the wormhole's PAKE"):
            await task
    run(main())


def test_another_protocol_version_and_a_wrong_code_get_their_lines():
    async def main() -> None:
        box = Mailbox()
        task = join(box)
        await handshake(box, "4-aardvark-adroitness", {"app_versions": {"toybattle": {"protocol": PROTOCOL + 1,
                                                                                       "wire": WIRE}}})
        with pytest.raises(LinkError, match=f"speaks online protocol {PROTOCOL + 1}.{WIRE}, this one speaks "
                                            f"{PROTOCOL}.{WIRE}"):
            await task
        box = Mailbox()
        task = join(box)
        await handshake(box, "4-other-words")
        with pytest.raises(LinkError, match=r"^wrong code 4-aardvark-adroitness: the room is now closed"):
            await task
    run(main())


def test_after_the_handshake_bad_boxes_junk_and_a_lost_mailbox_get_one_line():
    async def main() -> None:
        box = Mailbox()
        task = join(box)
        key = await handshake(box, "4-aardvark-adroitness")
        link = await task
        box.push("not json")  # junk from the mailbox is ignored
        box.push("[1, 2]")
        box.peer("dilate-0", b"whatever")  # a phase this program does not use is ignored
        box.peer("1", seal(client.phase_key(CRYPTO, key, PEER_SIDE, "1"), b'{"n": 1}'))  # early: held back
        box.peer("0", seal(client.phase_key(CRYPTO, key, PEER_SIDE, "0"), b'{"n": 0}'))
        assert [await link.recv(2), await link.recv(2)] == [{"n": 0}, {"n": 1}]
        box.peer("2", seal(client.phase_key(CRYPTO, key, PEER_SIDE, "2"), b"[0]"))
        with pytest.raises(LinkError, match="not a toybattle message"):
            await link.recv(2)
        with pytest.raises(LinkError, match=r"silent for 0\.2 s"):
            await link.recv(0.2)
        box.peer("3", seal(client.phase_key(CRYPTO, key, PEER_SIDE, "3"), b'{"n": 3}')[:-1] + b"!")
        with pytest.raises(LinkError, match="did not decrypt"):
            await link.recv(2)
        await box.close()  # a drop once the room is open is routine: the link waits while it reconnects
        with pytest.raises(Silence, match=r"silent for 0\.5 s"):
            await link.recv(0.5)
        assert not link.online
        await link.close(done=False)
    run(main())


def test_a_mailbox_error_and_an_unwelcome_get_one_line():
    async def main() -> None:
        box = Mailbox()
        task = join(box)
        await box.ours("pake")
        box.push({"type": "error", "error": "crowded", "orig": {}})
        with pytest.raises(LinkError, match="the mailbox at ws://mailbox refused: crowded"):
            await task
        box = Mailbox()
        box.to_client = asyncio.Queue()
        box.push({"type": "welcome", "welcome": {"error": "this mailbox is closed"}})
        with pytest.raises(LinkError, match=r"^the mailbox at ws://mailbox refused us: this mailbox is closed$"):
            await join(box)
    run(main())
