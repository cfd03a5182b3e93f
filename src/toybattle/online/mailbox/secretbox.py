"""NaCl's secretbox (XSalsa20 stream cipher, Poly1305 authenticator), the wormhole's record layer.

A sealed box is ``nonce (24) + tag (16) + ciphertext``, as PyNaCl's ``SecretBox.encrypt`` writes it:
HSalsa20 turns the key and the nonce's first 16 bytes into a subkey; Salsa20 under that subkey and the
nonce's last 8 bytes gives a keystream whose first 32 bytes key Poly1305 and whose rest is XORed
with the message; the tag is Poly1305 over the ciphertext.
"""
from __future__ import annotations

import hmac
import secrets
import struct

KEY_SIZE = 32
NONCE_SIZE = 24
TAG_SIZE = 16
MASK = 0xFFFFFFFF
SIGMA = struct.unpack("<4I", b"expand 32-byte k")


class CryptoError(ValueError):
    """The box was not sealed with this key (or was changed on the way)."""


def _rounds(state: list[int]) -> list[int]:
    """Salsa20's 20 rounds (10 double rounds: columns, then rows) on a copy of ``state``, spelled out
    on local names: a per-step loop made sealing ten times slower."""
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15 = state
    m = MASK
    for _ in range(10):
        # columns
        t = (x0 + x12) & m
        x4 ^= ((t << 7) | (t >> 25)) & m
        t = (x4 + x0) & m
        x8 ^= ((t << 9) | (t >> 23)) & m
        t = (x8 + x4) & m
        x12 ^= ((t << 13) | (t >> 19)) & m
        t = (x12 + x8) & m
        x0 ^= ((t << 18) | (t >> 14)) & m
        t = (x5 + x1) & m
        x9 ^= ((t << 7) | (t >> 25)) & m
        t = (x9 + x5) & m
        x13 ^= ((t << 9) | (t >> 23)) & m
        t = (x13 + x9) & m
        x1 ^= ((t << 13) | (t >> 19)) & m
        t = (x1 + x13) & m
        x5 ^= ((t << 18) | (t >> 14)) & m
        t = (x10 + x6) & m
        x14 ^= ((t << 7) | (t >> 25)) & m
        t = (x14 + x10) & m
        x2 ^= ((t << 9) | (t >> 23)) & m
        t = (x2 + x14) & m
        x6 ^= ((t << 13) | (t >> 19)) & m
        t = (x6 + x2) & m
        x10 ^= ((t << 18) | (t >> 14)) & m
        t = (x15 + x11) & m
        x3 ^= ((t << 7) | (t >> 25)) & m
        t = (x3 + x15) & m
        x7 ^= ((t << 9) | (t >> 23)) & m
        t = (x7 + x3) & m
        x11 ^= ((t << 13) | (t >> 19)) & m
        t = (x11 + x7) & m
        x15 ^= ((t << 18) | (t >> 14)) & m
        # rows
        t = (x0 + x3) & m
        x1 ^= ((t << 7) | (t >> 25)) & m
        t = (x1 + x0) & m
        x2 ^= ((t << 9) | (t >> 23)) & m
        t = (x2 + x1) & m
        x3 ^= ((t << 13) | (t >> 19)) & m
        t = (x3 + x2) & m
        x0 ^= ((t << 18) | (t >> 14)) & m
        t = (x5 + x4) & m
        x6 ^= ((t << 7) | (t >> 25)) & m
        t = (x6 + x5) & m
        x7 ^= ((t << 9) | (t >> 23)) & m
        t = (x7 + x6) & m
        x4 ^= ((t << 13) | (t >> 19)) & m
        t = (x4 + x7) & m
        x5 ^= ((t << 18) | (t >> 14)) & m
        t = (x10 + x9) & m
        x11 ^= ((t << 7) | (t >> 25)) & m
        t = (x11 + x10) & m
        x8 ^= ((t << 9) | (t >> 23)) & m
        t = (x8 + x11) & m
        x9 ^= ((t << 13) | (t >> 19)) & m
        t = (x9 + x8) & m
        x10 ^= ((t << 18) | (t >> 14)) & m
        t = (x15 + x14) & m
        x12 ^= ((t << 7) | (t >> 25)) & m
        t = (x12 + x15) & m
        x13 ^= ((t << 9) | (t >> 23)) & m
        t = (x13 + x12) & m
        x14 ^= ((t << 13) | (t >> 19)) & m
        t = (x14 + x13) & m
        x15 ^= ((t << 18) | (t >> 14)) & m
    return [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15]


def _state(key: bytes, middle: bytes) -> list[int]:
    """Constants on the diagonal, the key's eight words around them, 16 bytes of nonce/counter between."""
    k = struct.unpack("<8I", key)
    m = struct.unpack("<4I", middle)
    return [SIGMA[0], *k[:4], SIGMA[1], *m, SIGMA[2], *k[4:], SIGMA[3]]


def hsalsa20(key: bytes, nonce16: bytes) -> bytes:
    x = _rounds(_state(key, nonce16))
    return struct.pack("<8I", *(x[i] for i in (0, 5, 10, 15, 6, 7, 8, 9)))


def salsa20_stream(key: bytes, nonce8: bytes, length: int) -> bytes:
    blocks = []
    for counter in range(-(-length // 64)):
        state = _state(key, nonce8 + struct.pack("<Q", counter))
        x = _rounds(state)
        blocks.append(struct.pack("<16I", *((a + b) & MASK for a, b in zip(x, state, strict=True))))
    return b"".join(blocks)[:length]


def poly1305(key: bytes, message: bytes) -> bytes:
    r = int.from_bytes(key[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    s = int.from_bytes(key[16:32], "little")
    p = (1 << 130) - 5
    acc = 0
    for i in range(0, len(message), 16):
        acc = (acc + int.from_bytes(message[i:i + 16] + b"\x01", "little")) * r % p
    return ((acc + s) & ((1 << 128) - 1)).to_bytes(16, "little")


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "little") ^ int.from_bytes(stream, "little")).to_bytes(len(data), "little")


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    if len(key) != KEY_SIZE or len(nonce) != NONCE_SIZE:
        raise ValueError("secretbox takes a 32-byte key and a 24-byte nonce")
    return salsa20_stream(hsalsa20(key, nonce[:16]), nonce[16:], 32 + length)


def seal(key: bytes, message: bytes, nonce: bytes | None = None) -> bytes:
    """``message`` encrypted and authenticated under ``key`` (a fresh random nonce unless given)."""
    nonce = secrets.token_bytes(NONCE_SIZE) if nonce is None else nonce
    stream = _keystream(key, nonce, len(message))
    cipher = _xor(message, stream[32:])
    return nonce + poly1305(stream[:32], cipher) + cipher


def open_box(key: bytes, box: bytes) -> bytes:
    """The message sealed in ``box``; CryptoError if the key is wrong or the box was altered."""
    if len(box) < NONCE_SIZE + TAG_SIZE:
        raise CryptoError("too short to be a sealed box")
    nonce, tag, cipher = box[:NONCE_SIZE], box[NONCE_SIZE:NONCE_SIZE + TAG_SIZE], box[NONCE_SIZE + TAG_SIZE:]
    stream = _keystream(key, nonce, len(cipher))
    if not hmac.compare_digest(poly1305(stream[:32], cipher), tag):
        raise CryptoError("the box does not open with this key")
    return _xor(cipher, stream[32:])
