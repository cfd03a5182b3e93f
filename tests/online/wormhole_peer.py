"""A peer on the reference magic-wormhole library (Twisted), for the tests that prove toybattle's own client
interoperates with it: `python wormhole_peer.py host RELAY` prints "room code: CODE", `... join RELAY CODE`
joins. Either way it sends {"hello": "wormhole"}, then answers every object with {"echo": obj} until it
receives {"bye": true}, which it echoes before closing. A wormhole error prints "error: ..."."""
from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Any

from toybattle.online.protocol import PROTOCOL
from toybattle.online.transport import APPID
from toybattle.online.wire import WIRE


async def main(reactor: Any, role: str, relay: str, code: str | None) -> int:
    from wormhole import create
    from wormhole.errors import WormholeError
    loop = asyncio.get_running_loop()
    w = create(APPID, relay, reactor, versions={"toybattle": {"protocol": PROTOCOL, "wire": WIRE}})
    try:
        if role == "host":
            w.allocate_code(2)
            print(f"room code: {await w.get_code().asFuture(loop)}", flush=True)
        else:
            w.set_code(code)
        await asyncio.wait_for(w.get_versions().asFuture(loop), 30)
        w.send_message(json.dumps({"hello": "wormhole"}).encode())
        while True:
            obj = json.loads(await asyncio.wait_for(w.get_message().asFuture(loop), 30))
            w.send_message(json.dumps({"echo": obj}).encode())
            if obj.get("bye"):
                await asyncio.sleep(0.2)
                break
    except (WormholeError, TimeoutError) as e:
        print(f"error: {type(e).__name__}: {e}", flush=True)
        return 1
    finally:
        with contextlib.suppress(Exception):  # closing after a failure may fail too: nothing to tidy
            await asyncio.wait_for(w.close().asFuture(loop), 5)
    print("done", flush=True)
    return 0


def run(role: str, relay: str, code: str | None) -> int:
    """Twisted's reactor on an asyncio loop: installed before anything imports the reactor, started without
    signal handlers (else get_code hangs), stopped and run once more at the end (else the process stays)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    from twisted.internet import asyncioreactor
    asyncioreactor.install(loop)
    from twisted.internet import reactor
    reactor.startRunning(installSignalHandlers=False)
    try:
        return loop.run_until_complete(main(reactor, role, relay, code))
    finally:
        reactor.stop()
        loop.run_forever()
        loop.close()


if __name__ == "__main__":
    role, relay, *rest = sys.argv[1:]
    sys.exit(run(role, relay, rest[0] if rest else None))
