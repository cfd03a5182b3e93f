"""SPAKE2, symmetric variant, over Ed25519, exactly as magic-wormhole runs it (python-spake2's
``SPAKE2_Symmetric`` with its default parameters), so either side can be a real magic-wormhole peer.

Each side sends ``b"S" + encode(x*B + pw*S)`` for a fresh secret x, where pw is the password read as a
scalar and S the blinding element derived from the seed "symmetric". From the other side's element Y it
computes K = x*(Y - pw*S); the key is SHA-256 over SHA-256(password), SHA-256(identity), the two
elements' encodings in sorted order, and K's encoding.
"""
from __future__ import annotations

import hashlib
import secrets
from functools import cache

from . import ed25519
from .kdf import hkdf

SIDE = b"S"


class PakeError(ValueError):
    """The other side's PAKE message is malformed (not a symmetric SPAKE2 message over Ed25519)."""


@cache
def blinding() -> ed25519.Point:
    return ed25519.arbitrary_element(b"symmetric")


def password_scalar(password: bytes) -> int:
    return int.from_bytes(hkdf(password, 48, info=b"SPAKE2 pw"), "big") % ed25519.L


class Spake2:
    """One side of one exchange: ``start()`` once, then ``finish(their message)`` once."""

    def __init__(self, password: bytes, identity: bytes):
        self._password = password
        self._identity = identity
        self._pw = password_scalar(password)
        self._x = 1 + secrets.randbelow(ed25519.L - 1)
        mine = ed25519.add(ed25519.mul(ed25519.BASE, self._x), ed25519.mul(blinding(), self._pw))
        self._mine = ed25519.encode(mine)

    def start(self) -> bytes:
        return SIDE + self._mine

    def finish(self, message: bytes) -> bytes:
        """The shared key (32 bytes); equal on both sides only if both used the same password."""
        if len(message) != 33 or message[:1] != SIDE:
            raise PakeError("not a symmetric SPAKE2 message")
        theirs = message[1:]
        try:
            y = ed25519.element(theirs)
        except ed25519.BadElement as e:
            raise PakeError(str(e)) from None
        if theirs == self._mine:
            raise PakeError("our own message came back")
        unblinded = ed25519.add(y, ed25519.neg(ed25519.mul(blinding(), self._pw)))
        k = ed25519.encode(ed25519.mul(unblinded, self._x))
        first, second = sorted([theirs, self._mine])
        transcript = (hashlib.sha256(self._password).digest() + hashlib.sha256(self._identity).digest()
                      + first + second + k)
        return hashlib.sha256(transcript).digest()
