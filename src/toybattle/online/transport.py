"""What every online link shares, whatever carries it: the app id and room codes of the magic-wormhole
mailbox, the default mailbox, the errors a link raises, and the bound on one wire message.
The link itself is the asyncio wormhole client in ``online.mailbox``.
"""
from __future__ import annotations

import json
import os
import re
from typing import Any

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
    """The other peer sent bytes that are not a toybattle message (too big, too deep, not JSON)."""


def parse(raw: object) -> dict[str, Any]:
    """One wire message's bytes as a JSON object, bounded in size and nesting before use (Garbled if not)."""
    if not isinstance(raw, bytes) or len(raw) > MAX_WIRE:
        raise Garbled(f"the other player sent a message over {MAX_WIRE} bytes")
    try:
        obj = json.loads(raw.decode())
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Garbled("the other player sent something that is not a toybattle message") from None
    if not isinstance(obj, dict):
        raise Garbled("the other player sent something that is not a toybattle message")
    if depth(obj) > MAX_DEPTH:
        raise Garbled(f"the other player sent a message nested deeper than {MAX_DEPTH} levels")
    return obj
