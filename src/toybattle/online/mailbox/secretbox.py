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
    """Salsa20's 20 rounds (10 double rounds: columns, then rows) on a copy of ``state``."""
    x = list(state)

    def quarter(a: int, b: int, c: int, d: int) -> None:
        for dst, s1, s2, rot in ((b, a, d, 7), (c, b, a, 9), (d, c, b, 13), (a, d, c, 18)):
            v = (x[s1] + x[s2]) & MASK
            x[dst] ^= ((v << rot) | (v >> (32 - rot))) & MASK

    for _ in range(10):
        quarter(0, 4, 8, 12)
        quarter(5, 9, 13, 1)
        quarter(10, 14, 2, 6)
        quarter(15, 3, 7, 11)
        quarter(0, 1, 2, 3)
        quarter(5, 6, 7, 4)
        quarter(10, 11, 8, 9)
        quarter(15, 12, 13, 14)
    return x


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
