"""HKDF with SHA-256 (RFC 5869), from the standard library's hmac: both SPAKE2 and the wormhole use it."""
from __future__ import annotations

import hashlib
import hmac


def hkdf(secret: bytes, length: int, info: bytes = b"", salt: bytes = b"") -> bytes:
    """``length`` bytes derived from ``secret`` for the purpose ``info``. An empty salt is the RFC's
    "no salt" (HMAC pads a short key with zeros, so b"" and 32 zero bytes are the same key)."""
    if length > 255 * 32:
        raise ValueError("HKDF-SHA256 gives at most 8160 bytes")
    prk = hmac.new(salt, secret, hashlib.sha256).digest()
    out, block = b"", b""
    for i in range(1, -(-length // 32) + 1):
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
    return out[:length]
