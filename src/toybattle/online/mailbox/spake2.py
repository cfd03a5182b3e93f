"""SPAKE2, symmetric variant, over Ed25519, exactly as magic-wormhole runs it (python-spake2's
``SPAKE2_Symmetric`` with its default parameters), so either side can be a real magic-wormhole peer.
Only the transcript is written here; every group operation and hash comes from ``Primitives``.

Each side sends ``b"S" + encode(x*B + pw*S)`` for a fresh secret x, where pw is the password read as a
scalar and S the blinding element python-spake2 derives from the seed "symmetric". From the other side's
element Y it computes K = x*(Y - pw*S); the key is SHA-256 over SHA-256(password), SHA-256(identity),
the two elements' encodings in sorted order, and K's encoding.
"""
from __future__ import annotations

import hashlib
import secrets

from .backend import default
from .primitives import CryptoError, L, Primitives, scalar

SIDE = b"S"
# python-spake2's blinding element for the symmetric variant (ParamsEd25519.S): fixed by that library's
# derivation from the seed b"symmetric"; a test checks these bytes against python-spake2's own.
BLINDING = bytes.fromhex("6f00dae87c1be1a73b5922ef431cd8f57879569c222d22b1cd71e8546ab8e6f1")


class PakeError(ValueError):
    """The other side's PAKE message is malformed (not a symmetric SPAKE2 message over Ed25519)."""


def password_scalar(password: bytes, crypto: Primitives) -> bytes:
    return scalar(int.from_bytes(crypto.hkdf(password, 48, b"SPAKE2 pw"), "big"))


class Spake2:
    """One side of one exchange: ``start()`` once, then ``finish(their message)`` once."""

    def __init__(self, password: bytes, identity: bytes, crypto: Primitives | None = None):
        self._crypto = crypto or default()
        self._password = password
        self._identity = identity
        self._pw = password_scalar(password, self._crypto)
        self._x = scalar(1 + secrets.randbelow(L - 1))
        self._mine = self._crypto.add(self._crypto.base_times(self._x), self._crypto.times(self._pw, BLINDING))

    def start(self) -> bytes:
        return SIDE + self._mine

    def finish(self, message: bytes) -> bytes:
        """The shared key (32 bytes); equal on both sides only if both used the same password."""
        if len(message) != 33 or message[:1] != SIDE:
            raise PakeError("not a symmetric SPAKE2 message")
        theirs = message[1:]
        if not self._crypto.is_element(theirs):
            raise PakeError("not an element of the Ed25519 group")
        if theirs == self._mine:
            raise PakeError("our own message came back")
        try:
            unblinded = self._crypto.sub(theirs, self._crypto.times(self._pw, BLINDING))
            k = self._crypto.times(self._x, unblinded)
        except CryptoError as e:
            raise PakeError(str(e)) from None
        first, second = sorted([theirs, self._mine])
        transcript = (hashlib.sha256(self._password).digest() + hashlib.sha256(self._identity).digest()
                      + first + second + k)
        return hashlib.sha256(transcript).digest()
