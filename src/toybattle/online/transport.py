"""What every online link shares, whatever carries it: the app id and room codes of the magic-wormhole
mailbox, the default mailbox, the errors a link raises, and the bound on one wire message.
The link itself is the asyncio wormhole client in ``online.mailbox``.
"""
from __future__ import annotations

import os
import re
from typing import Any

from toybattle.said import Said

from .. import bounded
from .wire import MAX_DEPTH, depth

APPID = "toybattle.games/online-play/1"
# the public mailbox of the magic-wormhole project, over TLS: an https page may open only wss:// sockets
DEFAULT_RELAY = "wss://relay.magic-wormhole.io/v1"
CODE_RE = re.compile(r"\d+(-[a-z]+){2,}")  # used with fullmatch
RELAY_ENV = "TOYBATTLE_RELAY"
MAX_WIRE = 1 << 20  # bytes of one wire message (a hello of a long game is under 100 kB)


def default_relay() -> str:
    """The mailbox new rooms use: $TOYBATTLE_RELAY (a mailbox of your own), else the public one."""
    return os.environ.get(RELAY_ENV, "").strip() or DEFAULT_RELAY


class LinkError(Exception):
    """The connection could not be made or was lost; the message is one line for the user."""


class Silence(LinkError):
    """The other peer sent nothing within the limit (the link itself may still be fine)."""


class Garbled(LinkError):
    """The other peer sent bytes that are not a toybattle message (too big, too deep, not JSON); the message
    says what it sent ("the other player sent a message over 65536 bytes")."""


def parse(raw: object) -> dict[str, Any]:
    """One wire message's bytes as a JSON object, bounded in size and nesting before use (Garbled if not)."""
    if not isinstance(raw, bytes) or len(raw) > MAX_WIRE:
        raise Garbled(Said("online.peer.sent", what=Said("wire.tooBig", n=MAX_WIRE)))
    try:
        obj = bounded.loads(raw, MAX_DEPTH)  # the nesting is bounded before the JSON reader sees it
    except bounded.TooDeep:
        if bounded.nesting(raw.decode(errors="replace"), MAX_DEPTH) > MAX_DEPTH:
            raise Garbled(Said("online.peer.sent", what=Said("wire.deep", n=MAX_DEPTH))) from None
        raise Garbled(Said("online.peer.sent", what=Said("wire.garbled"))) from None
    if not isinstance(obj, dict):
        raise Garbled(Said("online.peer.sent", what=Said("wire.garbled")))
    if depth(obj) > MAX_DEPTH:
        raise Garbled(Said("online.peer.sent", what=Said("wire.deep", n=MAX_DEPTH)))
    return obj
