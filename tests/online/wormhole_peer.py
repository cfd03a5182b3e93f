"""A peer on the real magic-wormhole library (toybattle.online.transport), for the tests of the
pure-Python client: `python wormhole_peer.py host RELAY` prints "room code: CODE", `... join RELAY CODE`
joins. Either way it sends {"hello": "wormhole"}, then answers every object with {"echo": obj}
until it receives {"bye": true}, which it echoes before closing. A LinkError prints "error: ..."."""
from __future__ import annotations

import asyncio
import sys
from typing import Any

from toybattle.online import transport


async def main(reactor: Any, role: str, relay: str, code: str | None) -> int:
    try:
        if role == "host":
            link = await transport.host(reactor, relay, lambda c: print(f"room code: {c}", flush=True), 30)
        else:
            link = await transport.join(reactor, relay, code or "", 30)
    except transport.LinkError as e:
        print(f"error: {e}", flush=True)
        return 1
    link.send({"hello": "wormhole"})
    try:
        while True:
            obj = await link.recv(30)
            link.send({"echo": obj})
            if obj.get("bye"):
                await asyncio.sleep(0.2)
                break
    except transport.LinkError as e:
        print(f"error: {e}", flush=True)
        return 1
    finally:
        await link.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    role, relay, *rest = sys.argv[1:]
    sys.exit(transport.run(lambda reactor: main(reactor, role, relay, rest[0] if rest else None)))
